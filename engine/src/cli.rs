//! The `borrow` command line, by clap: `borrow bench [--method NAME|all]
//! [--depth D]` runs the fixed benchmark search and exits, `borrow datagen`
//! plays self-play games for tuning data; without arguments the engine
//! speaks UCI on standard input and output. Kept in the library so that
//! other packages' test binaries can run the same engine.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand};

use crate::bench::{DEFAULT_DEPTH, POSITIONS, bench, parse_depth};
use crate::datagen::{self, DatagenError, Format};
use crate::driver::{Driver, Output};
use crate::evaluator::{EvalKind, Evaluator};
use crate::options::{MAX_HASH_MB, MAX_THREADS};
use crate::uci;
use attacks::Method;

/// The exit status the tools document: bad input or setup.
const BAD_INPUT: u8 = 2;

/// The methods of this build with their aliases: `magic`, `obstruction-difference (od)`.
pub fn method_names() -> String {
    Method::ALL
        .iter()
        .map(|m| {
            if m.aliases().is_empty() {
                m.name().to_owned()
            } else {
                format!("{} ({})", m.name(), m.aliases().join(", "))
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The exit statuses, after every command's options.
const EXIT_STATUS: &str = "Exit status: 0 success; 1 a file could not be written (datagen, convert);\n\
     2 bad input (options, values, data); 130 datagen stopped by Ctrl-C.";

/// The text after the options where a method is chosen: the methods, the
/// exit statuses.
fn methods_help() -> String {
    format!(
        "Methods (aliases in brackets): {}\n\n{EXIT_STATUS}",
        method_names()
    )
}

/// `borrow --version`: the version and the SHA-256 of the built-in net
/// ([`crate::evaluator::BUILT_IN_NET_SHA256`]), which names the net.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (net sha256 ",
    env!("BORROW_NET_SHA256"),
    ")"
);

/// Borrow: a UCI chess engine. Without a command it speaks UCI on standard
/// input and output.
#[derive(Parser, Debug)]
#[command(name = "Borrow", bin_name = "borrow", version = VERSION, after_help = methods_help())]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// A fixed search of the bench positions; the last line is '<nodes>
    /// nodes <nps> nps' (OpenBench runs it as 'borrow bench' or 'borrow
    /// bench D')
    #[command(after_help = methods_help())]
    Bench {
        /// Attack method, or 'all': each in turn
        #[arg(long, value_name = "NAME|all", default_value = Method::default().name(),
              value_parser = parse_methods)]
        method: ::std::vec::Vec<Method>,
        /// Search depth, 1 to 64
        #[arg(long, value_name = "D", default_value_t = DEFAULT_DEPTH,
              allow_negative_numbers = true, value_parser = parse_depth)]
        depth: u32,
        /// The depth as OpenBench gives it: 'borrow bench 13'
        #[arg(value_name = "D", conflicts_with = "depth", allow_negative_numbers = true,
              value_parser = parse_depth)]
        bare_depth: Option<u32>,
        /// The static evaluation: nnue (the built-in net) or classical
        #[arg(long, value_name = "NAME", default_value = Evaluator::default_kind().name(),
              value_parser = parse_eval)]
        eval: EvalKind,
        /// A net file to evaluate with instead of the built-in net: the
        /// signature the engine will have with that net built in
        #[arg(long, value_name = "FILE", conflicts_with = "eval")]
        net: Option<std::path::PathBuf>,
    },
    /// Self-play games at fixed nodes, written as training data: whole games
    /// (viriformat) or their quiet positions, with the searches' scores and
    /// the game's result (docs/tuning.md). Ctrl-C stops it, keeping every
    /// finished game
    #[command(after_help = EXIT_STATUS)]
    Datagen {
        /// The output
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// Games in all
        #[arg(long, value_name = "N", default_value_t = 1_000,
              value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// The number of the first game: the run plays the seed's games from
        /// G on, as a run from 0 would (the games after a finished chunk)
        #[arg(long, value_name = "G", default_value_t = 0)]
        first_game: u64,
        /// Nodes per move
        #[arg(long, value_name = "N", default_value_t = 5_000,
              value_parser = clap::value_parser!(u64).range(1..))]
        nodes: u64,
        /// Random legal plies before the game (at most 100)
        #[arg(long, value_name = "N", default_value_t = 8)]
        plies: usize,
        /// Start from this suite's positions (EPD or PGN), in a seeded random
        /// order, then --plies
        #[arg(long, value_name = "FILE")]
        openings: Option<std::path::PathBuf>,
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
    },
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
    /// OpenBench's SPSA input for the search's constants, a line each
    /// ('name, int, value, min, max, c_end, r_end'); each is also a UCI
    /// option of this build (feature 'spsa')
    #[cfg(feature = "spsa")]
    Spsa,
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| format!("'{s}' is not a format: viri, binary or text"))
}

fn parse_methods(s: &str) -> Result<Vec<Method>, String> {
    Method::parse_list(s).map_err(|e| format!("{e}; or all"))
}

fn parse_eval(s: &str) -> Result<EvalKind, String> {
    EvalKind::from_name(s).ok_or_else(|| format!("'{s}' is not an evaluation: nnue or classical"))
}

/// The exit status of a bench run.
fn bench_exit(run: io::Result<()>) -> ExitCode {
    match run {
        Ok(()) => ExitCode::SUCCESS,
        // The reader has all it wanted (`borrow bench | head -1`).
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("borrow: cannot write the results: {e}");
            ExitCode::from(BAD_INPUT)
        }
    }
}

fn run_bench(methods: &[Method], depth: u32, evaluator: &Evaluator) -> io::Result<()> {
    let eval = evaluator.kind();
    let mut out = io::stdout().lock();
    let what = if methods.len() == 1 {
        format!("method {}", methods[0])
    } else {
        format!("{} methods", methods.len())
    };
    writeln!(
        out,
        "bench: {what}, {} evaluation, depth {depth}, {} positions",
        eval.name(),
        POSITIONS.len()
    )?;
    let mut table = Vec::new();
    for &method in methods {
        let mut written = Ok(());
        let result = bench(method, depth, evaluator, |i, nodes| {
            if methods.len() == 1 && written.is_ok() {
                written = writeln!(
                    out,
                    "position {:2} {:>10} nodes  {}",
                    i + 1,
                    nodes,
                    POSITIONS[i]
                );
            }
        });
        written?;
        if methods.len() > 1 {
            writeln!(
                out,
                "{:<32} {:>10} nodes {:>10} nps",
                method.name(),
                result.nodes,
                result.nps()
            )?;
        }
        table.push((method, result));
    }
    let total_nodes = table[0].1.nodes;
    let total_time: std::time::Duration = table.iter().map(|(_, r)| r.time).sum();
    let nodes_all: u64 = table.iter().map(|(_, r)| r.nodes).sum();
    writeln!(
        out,
        "{total_nodes} nodes {} nps",
        (nodes_all as u128 * 1_000_000_000 / total_time.as_nanos().max(1)) as u64
    )?;
    out.flush()?;
    Ok(())
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

/// The progress line of `borrow datagen`.
fn datagen_line(p: &datagen::Progress) -> String {
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
    match datagen::convert::convert(pgn, out) {
        Ok(done) => {
            for m in &done.messages {
                eprintln!("borrow: convert: skipped a game: {m}");
            }
            if done.games == 0 {
                let _ = std::fs::remove_file(out);
                eprintln!(
                    "borrow: convert: no game to write ({done}): the games need results and \
                     scores in their move comments, as '{{+0.34/12 0.1s}}'"
                );
                return ExitCode::from(BAD_INPUT);
            }
            let _ = writeln!(io::stdout(), "convert: {done}; to {}", out.display());
            ExitCode::SUCCESS
        }
        Err(DatagenError::Setup(e)) => {
            eprintln!("borrow: convert: {e}");
            ExitCode::from(BAD_INPUT)
        }
        Err(e) => {
            eprintln!("borrow: convert: {e}");
            ExitCode::from(1)
        }
    }
}

fn run_datagen(config: &datagen::Config) -> ExitCode {
    if let Err(e) = interrupt::install() {
        eprintln!("borrow: {e}; stopping it loses the game under way");
    }
    eprintln!(
        "datagen: {} games{}, {} nodes a move, {} random plies{}, {} thread{}, seed {}, {} format to {}",
        config.games,
        match config.first_game {
            0 => String::new(),
            g => format!(" from game {g}"),
        },
        config.nodes,
        config.random_plies,
        config.openings.as_ref().map_or(String::new(), |p| format!(
            " after the openings of {}",
            p.display()
        )),
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        config.seed,
        config.format,
        config.out.display()
    );
    let mut last = std::time::Instant::now();
    let result = datagen::run(config, &interrupt::interrupted, |p| {
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
            eprintln!("borrow: datagen: {e}");
            ExitCode::from(BAD_INPUT)
        }
        Err(e) => {
            eprintln!("borrow: datagen: {e}");
            ExitCode::from(1)
        }
    }
}

/// Runs the engine's command line: `bench ...`, `datagen ...`, `--help`,
/// `--version`, or (no arguments) the UCI loop on standard input and output.
/// Arguments that are whole command lines (the first holds a space), as
/// OpenBench passes them (`borrow "genfens 10 seed 1 book None" "quit"`),
/// are read as the UCI input instead of standard input.
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    if args
        .first()
        .is_some_and(|a| a.to_string_lossy().trim().contains(' '))
    {
        let mut lines = String::new();
        for a in &args {
            lines.push_str(&a.to_string_lossy());
            lines.push('\n');
        }
        let out: Output = Arc::new(Mutex::new(io::stdout()));
        uci_loop(lines.as_bytes(), out);
        return ExitCode::SUCCESS;
    }
    let program = std::iter::once(std::ffi::OsString::from("borrow"));
    // Help, version and bad arguments: clap prints them and exits (0 or 2).
    let cli = Cli::try_parse_from(program.chain(args)).unwrap_or_else(|e| e.exit());
    match cli.command {
        Some(Cmd::Bench {
            method,
            depth,
            bare_depth,
            eval,
            net,
        }) => {
            let evaluator = match net {
                None => Evaluator::of_kind(eval),
                Some(path) => match nnue::Network::from_file(&path) {
                    Ok(net) => Evaluator::Nnue(std::sync::Arc::new(net)),
                    Err(e) => {
                        eprintln!("borrow: cannot use the net '{}': {e}", path.display());
                        return ExitCode::from(BAD_INPUT);
                    }
                },
            };
            bench_exit(run_bench(&method, bare_depth.unwrap_or(depth), &evaluator))
        }
        Some(Cmd::Datagen {
            out,
            games,
            first_game,
            nodes,
            plies,
            openings,
            threads,
            hash,
            seed,
            format,
            text,
            resume,
            eval,
            syzygy,
        }) => {
            let mut config = datagen::Config::new(games, out);
            config.first_game = first_game;
            config.nodes = nodes;
            config.random_plies = plies;
            config.openings = openings;
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
        Some(Cmd::Convert { out, pgn }) => run_convert(&pgn, &out),
        #[cfg(feature = "spsa")]
        Some(Cmd::Spsa) => {
            print!("{}", crate::search::params::spsa_input());
            ExitCode::SUCCESS
        }
        None => {
            let out: Output = Arc::new(Mutex::new(io::stdout()));
            uci_loop(io::stdin().lock(), out);
            ExitCode::SUCCESS
        }
    }
}

/// Reads UCI lines from `input` and answers on `out` until `quit` or the end
/// of the input (taken as `quit`). Invalid UTF-8 becomes replacement
/// characters, and then an `info string` saying the line was not understood.
pub fn uci_loop(mut input: impl BufRead, out: Output) {
    let mut driver = Driver::new(out);
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let text = String::from_utf8_lossy(&line);
        if !driver.handle(uci::parse(&text)) {
            break;
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
