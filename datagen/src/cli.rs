//! The `borrow-datagen` command line, by clap: without a command it plays
//! self-play games into training data (`borrow-datagen --games N --out
//! FILE`, the options `borrow-datagen` had before the tool left the
//! engine); `borrow-datagen convert` makes match games into the same data.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::{Config, DatagenError, Format};
use engine::cli::{VERSION, parse_eval};
use engine::evaluator::{EvalKind, Evaluator};
use engine::options::{MAX_HASH_MB, MAX_THREADS};

/// The exit status the tools document: bad input or setup.
const BAD_INPUT: u8 = 2;

/// The exit statuses, after every command's options.
const EXIT_STATUS: &str = "Exit status: 0 success; 1 a file could not be written;\n\
     2 bad input (options, values, data); 130 stopped by Ctrl-C.";

/// borrow-datagen: Borrow's training data. Without a command: self-play games
/// at fixed nodes, written as training data: whole games (viriformat) or
/// their quiet positions, with the searches' scores and the game's result
/// (docs/tuning.md). Ctrl-C stops it, keeping every finished game
#[derive(Parser, Debug)]
#[command(name = "borrow-datagen", version = VERSION, after_help = EXIT_STATUS,
          args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    play: Play,
}

/// The self-play run's options.
#[derive(Args, Debug)]
struct Play {
    /// The output
    #[arg(long, value_name = "FILE", required = true)]
    out: Option<std::path::PathBuf>,
    /// Games in all
    #[arg(long, value_name = "N", default_value_t = 1_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// The number of the first game: the run plays the seed's games from
    /// G on, as a run from 0 would (the games after a finished chunk)
    #[arg(long, value_name = "G", default_value_t = 0)]
    first_game: u64,
    /// Nodes per move (with --soft-nodes, the hard cap)
    #[arg(long, value_name = "N", default_value_t = 5_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// A soft node limit: each search finishes the iteration that passes
    /// N nodes and starts no other, within --nodes (the field's datagens:
    /// Viridithas 25,000 soft, 200,000 hard)
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..))]
    soft_nodes: Option<u64>,
    /// Random legal plies before the game (at most 100)
    #[arg(long, value_name = "N", default_value_t = 8)]
    plies: usize,
    /// Start from this suite's positions (EPD or PGN), in a seeded random
    /// order, then --plies
    #[arg(long, value_name = "FILE")]
    openings: Option<std::path::PathBuf>,
    /// Start this share of the games (in percent, 0 to 100) from double
    /// Chess960 positions, each side's back rank drawn apart, in place of
    /// the start position or the suite's (Viridithas's datagen mixes (D)FRC
    /// openings in, for variety)
    #[arg(long, value_name = "PERCENT", default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=100))]
    dfrc: u64,
    /// Games at once, one a thread [default: the cores]
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=MAX_THREADS as u64))]
    threads: Option<u64>,
    /// Each thread's table, in MB
    #[arg(long, value_name = "MB", default_value_t = 16,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    hash: u64,
    /// The seed of every random choice
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// viri: whole games, every searched ply in 4 bytes (name the file
    /// *.vf); binary: 32-byte marlinformat records (*.bin); text: 'FEN |
    /// score | result' lines (White's side). The last two hold the
    /// trainable positions only (quiet best move, no check, no mate)
    #[arg(long, value_name = "FORMAT", default_value = "viri", value_parser = parse_format)]
    format: Format,
    /// The same as --format text
    #[arg(long, conflicts_with = "format")]
    text: bool,
    /// Continue FILE where its run stopped
    #[arg(long)]
    resume: bool,
    /// The searches' evaluation: nnue (the built-in net) or classical
    #[arg(long, value_name = "NAME", default_value = Evaluator::default_kind().name(),
          value_parser = parse_eval)]
    eval: EvalKind,
    /// Syzygy tablebase folders (as SyzygyPath): a game ends with the
    /// tables' verdict once a capture or pawn move brings it into them
    #[arg(long, value_name = "PATH")]
    syzygy: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Match games into training data: PGN whose move comments carry the
    /// engines' scores, as cutechess-cli, fastchess and borrow-match write
    /// them ('{+0.34/12 0.1s}'), becomes viriformat games (--out *.vf),
    /// marlinformat records (*.bin) or 'FEN | score | result' text; each
    /// game from its first scored move, cut at the next unscored one
    #[command(after_help = EXIT_STATUS)]
    Convert {
        /// The output, which must not exist; its name gives the format
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// The PGN files
        #[arg(required = true, value_name = "PGN")]
        pgn: Vec<std::path::PathBuf>,
    },
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| format!("'{s}' is not a format: viri, binary or text"))
}

/// `m:ss` or `h:mm:ss`.
fn clock(d: std::time::Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The progress line of `borrow-datagen`.
fn datagen_line(p: &crate::Progress) -> String {
    let t = &p.tally;
    let secs = p.elapsed.as_secs_f64().max(1e-3);
    let per_second = p.new_positions as f64 / secs;
    format!(
        "datagen: {}/{} games, {} positions ({per_second:.0}/s), W {} D {} L {}, {} elapsed",
        t.games,
        p.target,
        t.positions,
        t.wdl[0],
        t.wdl[1],
        t.wdl[2],
        clock(p.elapsed)
    )
}

fn run_convert(pgn: &[std::path::PathBuf], out: &std::path::Path) -> ExitCode {
    match crate::convert::convert(pgn, out) {
        Ok(done) => {
            for m in &done.messages {
                eprintln!("borrow-datagen: convert: skipped a game: {m}");
            }
            if done.games == 0 {
                let _ = std::fs::remove_file(out);
                eprintln!(
                    "borrow-datagen: convert: no game to write ({done}): the games need results and \
                     scores in their move comments, as '{{+0.34/12 0.1s}}'"
                );
                return ExitCode::from(BAD_INPUT);
            }
            let _ = writeln!(io::stdout(), "convert: {done}; to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(DatagenError::Setup(e)) => {
            eprintln!("borrow-datagen: convert: {e}");
            ExitCode::from(BAD_INPUT)
        }
        Err(e) => {
            eprintln!("borrow-datagen: convert: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_datagen(config: &Config) -> ExitCode {
    if let Err(e) = interrupt::install() {
        eprintln!("borrow-datagen: {e}; stopping it loses the game under way");
    }
    eprintln!(
        "datagen: {} games{}, {} a move, {} random plies{}, {} thread{}, seed {}, {} format to {}",
        config.games,
        match config.first_game {
            0 => String::new(),
            g => format!(" from game {g}"),
        },
        match config.soft_nodes {
            None => format!("{} nodes", config.nodes),
            Some(soft) => format!("{soft} soft nodes ({} hard)", config.nodes),
        },
        config.random_plies,
        config.openings.as_ref().map_or(String::new(), |p| format!(
            " after the openings of {}",
            p.display()
        )) + &match config.dfrc_percent {
            0 => String::new(),
            p => format!(" ({p}% of the games from double Chess960 starts)"),
        },
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        config.seed,
        config.format,
        config.out.display()
    );
    let mut last = std::time::Instant::now();
    let result = crate::run(config, &interrupt::interrupted, |p| {
        if last.elapsed() >= std::time::Duration::from_secs(2) {
            last = std::time::Instant::now();
            eprintln!("{}", datagen_line(p));
        }
    });
    match result {
        Ok(summary) => {
            let p = &summary.progress;
            eprintln!("{}", datagen_line(p));
            let cores = config.threads as f64;
            let rate = p.new_positions as f64 / p.elapsed.as_secs_f64().max(1e-3);
            let _ = writeln!(
                io::stdout(),
                "datagen: {} {} games, {} positions in {}: {:.0} positions/s, {:.0} per thread; \
                 searches {:.1}% of the threads' time{}",
                if summary.interrupted {
                    "stopped after"
                } else {
                    "done:"
                },
                p.tally.games,
                p.tally.positions,
                clock(p.elapsed),
                rate,
                rate / cores,
                100.0 * summary.search_share,
                if summary.interrupted {
                    format!(" (--resume continues {})", config.out.display())
                } else {
                    String::new()
                }
            );
            if summary.interrupted {
                ExitCode::from(130)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(DatagenError::Setup(e)) => {
            eprintln!("borrow-datagen: {e}");
            ExitCode::from(BAD_INPUT)
        }
        Err(e) => {
            eprintln!("borrow-datagen: {e}");
            ExitCode::from(1)
        }
    }
}

/// Runs `borrow-datagen`'s command line.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let program = std::iter::once(std::ffi::OsString::from("borrow-datagen"));
    // Help, version and bad arguments: clap prints them and exits (0 or 2).
    let cli = Cli::try_parse_from(program.chain(args.into_iter().map(Into::into)))
        .unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(Cmd::Convert { out, pgn }) => run_convert(&pgn, &out),
        None => {
            let Play {
                out,
                games,
                first_game,
                nodes,
                soft_nodes,
                plies,
                openings,
                dfrc,
                threads,
                hash,
                seed,
                format,
                text,
                resume,
                eval,
                syzygy,
            } = cli.play;
            // Required by clap unless a command is given.
            let Some(out) = out else {
                eprintln!("borrow-datagen: --out FILE is needed (see --help)");
                return ExitCode::from(BAD_INPUT);
            };
            let mut config = Config::new(games, out);
            config.first_game = first_game;
            config.nodes = nodes;
            config.soft_nodes = soft_nodes;
            config.random_plies = plies;
            config.openings = openings;
            config.dfrc_percent = dfrc;
            if let Some(t) = threads {
                config.threads = t as usize;
            }
            config.hash_mb = hash as usize;
            config.seed = seed;
            config.format = if text { Format::Text } else { format };
            config.resume = resume;
            config.evaluator = Evaluator::of_kind(eval);
            config.syzygy = syzygy;
            run_datagen(&config)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }
}
