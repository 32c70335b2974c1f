//! The `borrow` command line: `borrow bench [--method NAME|all] [--depth D]`
//! runs the fixed benchmark search and exits; without arguments the engine
//! speaks UCI on standard input and output. Kept in the library so that
//! other packages' test binaries can run the same engine.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use crate::bench::{DEFAULT_DEPTH, DEPTHS, POSITIONS, bench, parse_depth};
use crate::datagen::{self, DatagenError, Format};
use crate::driver::{Driver, NAME, Output};
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

/// The command-line help.
pub fn usage() -> String {
    format!(
        "{NAME}: a UCI chess engine.\n\
         \n\
         usage: borrow                       speak UCI on stdin/stdout\n\
         \x20      borrow bench [--method NAME|all] [--depth D]\n\
         \x20      borrow bench D              (as OpenBench runs it)\n\
         \x20      borrow datagen --out FILE [OPTIONS]\n\
         \x20      borrow --help | --version\n\
         \n\
         bench   a fixed search of {} positions; the last line is\n\
         \x20       '<nodes> nodes <nps> nps'\n\
         \x20 --method NAME|all   attack method (default {}); 'all': each in turn\n\
         \x20 --depth D           depth {}..={} (default {DEFAULT_DEPTH})\n\
         \n\
         datagen  self-play games at fixed nodes; writes their quiet positions\n\
         \x20        with the search's score and the game's result (README: Data\n\
         \x20        generation). Ctrl-C stops it, keeping every finished game.\n\
         \x20 --out FILE          the output (required)\n\
         \x20 --games N           games in all (default 1000)\n\
         \x20 --nodes N           nodes per move (default 5000)\n\
         \x20 --plies N           random legal plies before the game (default 8)\n\
         \x20 --openings FILE     start from this suite's positions (EPD or PGN),\n\
         \x20                     in a seeded random order, then --plies\n\
         \x20 --threads N         games at once, one a thread (default: the cores)\n\
         \x20 --hash MB           each thread's table (default 16)\n\
         \x20 --seed S            the seed of every random choice (default 1)\n\
         \x20 --text              'FEN | score | result' lines (White's side)\n\
         \x20                     instead of 32-byte marlinformat records\n\
         \x20 --resume            continue FILE where its run stopped\n\
         \n\
         Options take their value as '--opt value' or '--opt=value'.\n\
         \n\
         methods (aliases in brackets): {}\n\
         \n\
         Exit status: 0 success; 1 a file could not be written (datagen);\n\
         2 bad input (options, values); 130 datagen stopped by Ctrl-C.",
        POSITIONS.len(),
        Method::DEFAULT,
        DEPTHS.start(),
        DEPTHS.end(),
        method_names()
    )
}

/// The version line of `--version`.
pub fn version() -> String {
    NAME.to_owned()
}

/// Why `borrow bench` stopped early.
enum BenchError {
    /// Bad arguments: a message, exit status 2.
    Input(String),
    /// Writing failed.
    Io(io::Error),
}

impl From<String> for BenchError {
    fn from(e: String) -> BenchError {
        BenchError::Input(e)
    }
}

impl From<io::Error> for BenchError {
    fn from(e: io::Error) -> BenchError {
        BenchError::Io(e)
    }
}

/// `--opt=value` as `("--opt", Some("value"))`; anything else as itself.
fn split_option(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((o, v)) if o.starts_with("--") => (o, Some(v)),
        _ => (arg, None),
    }
}

/// The value of `opt`: the one after `=`, or else the next argument
/// (`--opt value` and `--opt=value` alike).
fn option_value<'a>(
    opt: &str,
    inline: Option<&'a str>,
    rest: &mut std::slice::Iter<'a, String>,
    what: &str,
) -> Result<&'a str, String> {
    inline
        .or_else(|| rest.next().map(String::as_str))
        .ok_or_else(|| format!("{opt} needs {what}"))
}

/// What `borrow bench ARGS` asks for.
enum Bench {
    Help,
    Run(Vec<Method>, u32),
}

fn parse_bench(args: &[String]) -> Result<Bench, String> {
    let mut methods = vec![Method::DEFAULT];
    let mut depth = DEFAULT_DEPTH;
    let mut it = args.iter();
    while let Some((opt, inline)) = it.next().map(|a| split_option(a)) {
        let mut value = |what: &str| option_value(opt, inline, &mut it, what);
        match opt {
            "-h" | "--help" => return Ok(Bench::Help),
            "--method" => {
                let v = value("a name")?;
                methods = Method::parse_list(v).map_err(|e| format!("{e}; or all"))?;
            }
            "--depth" => {
                depth = parse_depth(value("a depth")?).map_err(|e| format!("--depth: {e}"))?
            }
            // OpenBench passes a depth as a bare number: `bench 13`. The
            // same check as `--depth`.
            d if d.starts_with(|c: char| c.is_ascii_digit() || c == '-')
                && !d.starts_with("--") =>
            {
                depth = parse_depth(d)?;
            }
            other => {
                return Err(format!(
                    "unknown bench argument '{other}' (see borrow --help)"
                ));
            }
        }
    }
    Ok(Bench::Run(methods, depth))
}

fn run_bench(methods: &[Method], depth: u32) -> Result<(), BenchError> {
    let mut out = io::stdout().lock();
    let what = if methods.len() == 1 {
        format!("method {}", methods[0])
    } else {
        format!("{} methods", methods.len())
    };
    writeln!(
        out,
        "bench: {what}, depth {depth}, {} positions",
        POSITIONS.len()
    )?;
    let mut table = Vec::new();
    for &method in methods {
        let mut written = Ok(());
        let result = bench(method, depth, |i, nodes| {
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

/// What `borrow datagen ARGS` asks for: help, or a run.
fn parse_datagen(args: &[String]) -> Result<Option<datagen::Config>, String> {
    let mut config = datagen::Config::new(1_000, std::path::PathBuf::new());
    let mut out = None;
    let mut it = args.iter();
    while let Some((opt, inline)) = it.next().map(|a| split_option(a)) {
        let mut value = |what: &str| option_value(opt, inline, &mut it, what);
        fn number<T>(opt: &str, v: &str, min: T) -> Result<T, String>
        where
            T: std::str::FromStr + PartialOrd + std::fmt::Display,
        {
            v.parse::<T>()
                .ok()
                .filter(|n| *n >= min)
                .ok_or_else(|| format!("{opt}: '{v}' is not a whole number from {min}"))
        }
        match opt {
            "-h" | "--help" => return Ok(None),
            "--out" => out = Some(std::path::PathBuf::from(value("a file")?)),
            "--games" => config.games = number(opt, value("a number")?, 1)?,
            "--nodes" => config.nodes = number(opt, value("a number")?, 1)?,
            "--plies" => config.random_plies = number(opt, value("a number")?, 0)?,
            "--threads" => {
                config.threads = number(opt, value("a number")?, 1)?;
                if config.threads > crate::options::MAX_THREADS {
                    return Err(format!(
                        "--threads: at most {}",
                        crate::options::MAX_THREADS
                    ));
                }
            }
            "--hash" => {
                config.hash_mb = number(opt, value("megabytes")?, 1)?;
                if config.hash_mb > crate::options::MAX_HASH_MB {
                    return Err(format!(
                        "--hash: at most {} MB",
                        crate::options::MAX_HASH_MB
                    ));
                }
            }
            "--seed" => config.seed = number(opt, value("a number")?, 0)?,
            "--openings" => config.openings = Some(value("a file")?.into()),
            "--text" | "--resume" if inline.is_some() => {
                return Err(format!("{opt} takes no value"));
            }
            "--text" => config.format = Format::Text,
            "--resume" => config.resume = true,
            other => {
                return Err(format!(
                    "unknown datagen argument '{other}' (see borrow --help)"
                ));
            }
        }
    }
    config.out = out.ok_or("datagen needs --out FILE (see borrow --help)")?;
    Ok(Some(config))
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

fn run_datagen(config: &datagen::Config) -> ExitCode {
    if let Err(e) = crate::signal::install() {
        eprintln!("borrow: cannot catch Ctrl-C ({e}); stopping it loses the game under way");
    }
    eprintln!(
        "datagen: {} games, {} nodes a move, {} random plies{}, {} thread{}, seed {}, {} records to {}",
        config.games,
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
    let result = datagen::run(config, &crate::signal::interrupted, |p| {
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

/// Prints `text` on stdout; a closed pipe is no error (`borrow --help |
/// head -1`).
fn print_out(text: &str) -> ExitCode {
    match writeln!(io::stdout(), "{text}") {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("borrow: cannot write: {e}");
            ExitCode::from(BAD_INPUT)
        }
        _ => ExitCode::SUCCESS,
    }
}

/// Runs the engine's command line: `bench ...`, `--help`, `--version`, or
/// (no arguments) the UCI loop on standard input and output.
pub fn run(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("bench") => {
            let result = match parse_bench(&args[1..]) {
                Ok(Bench::Help) => return print_out(&usage()),
                Ok(Bench::Run(methods, depth)) => run_bench(&methods, depth),
                Err(e) => Err(BenchError::Input(e)),
            };
            return match result {
                Ok(()) => ExitCode::SUCCESS,
                // The reader has all it wanted (`borrow bench | head -1`).
                Err(BenchError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
                    ExitCode::SUCCESS
                }
                Err(BenchError::Io(e)) => {
                    eprintln!("borrow: cannot write the results: {e}");
                    ExitCode::from(BAD_INPUT)
                }
                Err(BenchError::Input(e)) => {
                    eprintln!("borrow: {e}");
                    ExitCode::from(BAD_INPUT)
                }
            };
        }
        Some("datagen") => {
            return match parse_datagen(&args[1..]) {
                Ok(None) => print_out(&usage()),
                Ok(Some(config)) => run_datagen(&config),
                Err(e) => {
                    eprintln!("borrow: {e}");
                    ExitCode::from(BAD_INPUT)
                }
            };
        }
        Some("--help" | "-h" | "help") => return print_out(&usage()),
        Some("--version" | "-V" | "version") => return print_out(&version()),
        Some(other) => {
            eprintln!("borrow: unknown argument '{other}' (see borrow --help)");
            return ExitCode::from(BAD_INPUT);
        }
        None => {}
    }
    let out: Output = Arc::new(Mutex::new(io::stdout()));
    uci_loop(io::stdin().lock(), out);
    ExitCode::SUCCESS
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
