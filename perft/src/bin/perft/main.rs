//! The `perft` command: leaf counts of one position or a whole perft suite,
//! for one attack method or all of them, optionally timed against shakmaty.
//!
//! Exit status: 0 when every count is right, 1 when a count is wrong (or
//! disagrees with shakmaty or between methods), 2 on bad input.
//!
//! - `args`: the options (clap), their checks and `--help`;
//! - `single`: one position (`--fen`), with `--divide` and `--compare`;
//! - `epd`: a whole suite (`--epd`);
//! - `run`: one count by one method or by shakmaty, and the speed table;
//! - `progress`: the progress line on a terminal.
//!
//! The modules share this file's imports (`use super::*`) and each other's
//! items through the `use` lines below.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use attacks::Method;
use movegen::{Position, STARTING_FEN};
use perft::{PerftHash, oracle, suite};
use shakmaty::{CastlingMode, Chess, Position as _};

mod args;
mod epd;
mod progress;
mod run;
mod single;

use args::*;
use epd::*;
use progress::*;
use run::*;
use single::*;

fn main() -> ExitCode {
    // Help, version and bad options: clap prints them and exits (0 or 2).
    let options = parse_args(std::env::args_os().skip(1)).unwrap_or_else(|e| e.exit());
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match &options.epd {
        Some(path) => epd(&options, path, &mut out),
        None => single(&options, &mut out),
    };
    match result.and_then(|ok| Ok((ok, out.flush()?))) {
        Ok((true, ())) => ExitCode::SUCCESS,
        Ok((false, ())) => ExitCode::FAILURE,
        Err(CliError::Input(e)) => {
            eprintln!("perft: {e}");
            ExitCode::from(2)
        }
        // The reader has what it wanted (`perft ... | head -1`): no count
        // was wrong, so no failure.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Io(e)) => {
            eprintln!("perft: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}
