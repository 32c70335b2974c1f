//! The `borrow` command line: `borrow bench [--method NAME|all] [--depth D]`
//! runs the fixed benchmark search and exits; without arguments the engine
//! speaks UCI on standard input and output. Kept in the library so that
//! other packages' test binaries can run the same engine.

use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use crate::bench::{DEFAULT_DEPTH, POSITIONS, bench};
use crate::driver::{Driver, NAME, Output};
use crate::uci;
use attacks::Method;

/// The command-line help.
pub fn usage() -> String {
    format!(
        "{NAME}: a UCI chess engine.\n\
         usage: borrow               speak UCI on stdin/stdout\n\
         \x20      borrow bench [--method NAME|all] [--depth D]\n\
         methods: {}",
        Method::ALL
            .iter()
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

fn run_bench(args: &[String]) -> Result<(), String> {
    let mut methods = vec![Method::DEFAULT];
    let mut depth = DEFAULT_DEPTH;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--method" => {
                let v = it.next().ok_or("--method needs a name")?;
                methods = if v == "all" {
                    Method::ALL.to_vec()
                } else {
                    vec![v.parse::<Method>().map_err(|e| e.to_string())?]
                };
            }
            "--depth" => {
                let v = it.next().ok_or("--depth needs a number")?;
                depth = v
                    .parse()
                    .ok()
                    .filter(|d| (1..=64).contains(d))
                    .ok_or_else(|| format!("--depth: '{v}' is not a depth from 1 to 64"))?;
            }
            // OpenBench passes a depth as a bare number: `bench 13`.
            d if d.parse::<u32>().is_ok() => depth = d.parse().unwrap_or(DEFAULT_DEPTH),
            other => return Err(format!("unknown bench argument '{other}'\n{}", usage())),
        }
    }
    // Write errors (a closed pipe: `borrow bench | head`) end the run with a
    // message; `println!` would panic.
    let mut out = std::io::stdout().lock();
    let failed = |e: std::io::Error| format!("cannot write the results: {e}");
    let mut table = Vec::new();
    for &method in &methods {
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
        written.map_err(failed)?;
        if methods.len() > 1 {
            writeln!(
                out,
                "{:<32} {:>10} nodes {:>10} nps",
                method.name(),
                result.nodes,
                result.nps()
            )
            .map_err(failed)?;
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
    )
    .and_then(|()| out.flush())
    .map_err(failed)
}

/// Runs the engine's command line: `bench ...`, `--help`, or (no
/// arguments) the UCI loop on standard input and output.
pub fn run(args: &[String]) -> ExitCode {
    match args.first().map(String::as_str) {
        Some("bench") => {
            return match run_bench(&args[1..]) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("borrow: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Some("--help" | "-h" | "help") => {
            // Nothing to do if stdout is closed: no panic.
            let _ = writeln!(std::io::stdout(), "{}", usage());
            return ExitCode::SUCCESS;
        }
        Some(other) => {
            eprintln!("borrow: unknown argument '{other}'\n{}", usage());
            return ExitCode::from(2);
        }
        None => {}
    }
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    uci_loop(std::io::stdin().lock(), out);
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
