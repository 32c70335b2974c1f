//! The `borrow` command line: `borrow bench [--method NAME|all] [--depth D]`
//! runs the fixed benchmark search and exits; without arguments the engine
//! speaks UCI on standard input and output. Kept in the library so that
//! other packages' test binaries can run the same engine.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use crate::bench::{DEFAULT_DEPTH, DEPTHS, POSITIONS, bench, parse_depth};
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
         \x20      borrow --help | --version\n\
         \n\
         bench   a fixed search of {} positions; the last line is\n\
         \x20       '<nodes> nodes <nps> nps'\n\
         \x20 --method NAME|all   attack method (default {}); 'all': each in turn\n\
         \x20 --depth D           depth {}..={} (default {DEFAULT_DEPTH})\n\
         Options take their value as '--opt value' or '--opt=value'.\n\
         \n\
         methods (aliases in brackets): {}\n\
         \n\
         Exit status: 0 success; 1 a check failed (none here); 2 bad input\n\
         (options, values).",
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

/// What `borrow bench ARGS` asks for.
enum Bench {
    Help,
    Run(Vec<Method>, u32),
}

fn parse_bench(args: &[String]) -> Result<Bench, String> {
    let mut methods = vec![Method::DEFAULT];
    let mut depth = DEFAULT_DEPTH;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        // `--opt value` and `--opt=value` alike.
        let (opt, inline) = match a.split_once('=') {
            Some((o, v)) if o.starts_with("--") => (o, Some(v)),
            _ => (a.as_str(), None),
        };
        let mut value = |what: &str| {
            inline
                .or_else(|| it.next().map(String::as_str))
                .ok_or_else(|| format!("{opt} needs {what}"))
        };
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
