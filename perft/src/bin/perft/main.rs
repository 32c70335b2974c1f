//! The `perft` command: leaf counts of one position or a whole perft suite,
//! for one attack method or all of them, optionally timed against shakmaty.
//!
//! Exit status: 0 when every count is right, 1 when a count is wrong (or
//! disagrees with shakmaty or between methods), 2 on bad input.
//!
//! - `args`: the options, their parsing and `--help`;
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

use attacks::{Method, SliderAttacks};
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
    let mut args = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(a) => {
                eprintln!("perft: argument {a:?} is not valid UTF-8");
                return ExitCode::from(2);
            }
        }
    }
    let options = match parse_args(&args) {
        Ok(Command::Help) => return print_text(&help()),
        Ok(Command::Version) => {
            return print_text(&format!("perft {}\n", env!("CARGO_PKG_VERSION")));
        }
        Ok(Command::Run(o)) => o,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::from(2);
        }
    };
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

/// Prints `text`; a closed pipe is no error.
fn print_text(text: &str) -> ExitCode {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("perft: cannot write: {e}");
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}
