//! The `borrow` command line, by clap: `borrow bench [--method NAME|all]
//! [--depth D]` runs the fixed benchmark search and exits; without
//! arguments the engine speaks UCI on standard input and output. Kept in the library so that
//! other packages' test binaries can run the same engine.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use clap::{Parser, Subcommand};

use crate::bench::{DEFAULT_DEPTH, POSITIONS, bench, parse_depth};
use crate::driver::{Driver, Output};
use crate::evaluator::{EvalKind, Evaluator};
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
const EXIT_STATUS: &str = "Exit status: 0 success; 2 bad input (options, values, a net file).";

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
pub const VERSION: &str = concat!(
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
    /// Moved: self-play data is `borrow-datagen`'s, match games into data
    /// `borrow-datagen convert`'s (the `datagen` crate)
    #[command(hide = true)]
    Datagen {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<std::ffi::OsString>,
    },
    /// See `Datagen`
    #[command(hide = true)]
    Convert {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<std::ffi::OsString>,
    },
    /// OpenBench's SPSA input for the search's constants, a line each
    /// ('name, int, value, min, max, c_end, r_end'); each is also a UCI
    /// option of this build (feature 'spsa')
    #[cfg(feature = "spsa")]
    Spsa,
}

fn parse_methods(s: &str) -> Result<Vec<Method>, String> {
    Method::parse_list(s).map_err(|e| format!("{e}; or all"))
}

/// An evaluation by its name, as every command line takes it.
pub fn parse_eval(s: &str) -> Result<EvalKind, String> {
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

/// A command that left the engine for a tool of its own: says where it went.
fn moved(old: &str, new: &str) -> ExitCode {
    eprintln!(
        "borrow: '{old}' is no longer the engine's: run '{new}' with the same options \
         (the datagen crate; `cargo build --release` builds it)"
    );
    ExitCode::from(BAD_INPUT)
}

/// Runs the engine's command line: `bench ...`, `--help`,
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
        Some(Cmd::Datagen { .. }) => moved("datagen", "borrow-datagen"),
        Some(Cmd::Convert { .. }) => moved("convert", "borrow-datagen convert"),
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
