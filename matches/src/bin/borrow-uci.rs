//! `borrow-uci`: the Borrow engine's UCI loop, built from the `engine`
//! library inside this package so that the match runner's integration tests
//! (and `borrow-experiment --quick` in them) can play the real engine:
//! binaries of other packages are not available to integration tests.
//!
//! The loop is the one of `engine/src/main.rs`: lines from stdin parsed by
//! `engine::uci::parse`, handled by `engine::driver::Driver`, until `quit`
//! or the end of input. `borrow-uci bench [--method NAME] [--depth D]`
//! runs `engine::bench` and ends with the last line of `borrow bench`:
//! `<nodes> nodes <nps> nps` (one method; no per-position lines).

use std::io::BufRead;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use attacks::Method;
use engine::bench::{DEFAULT_DEPTH, bench};
use engine::driver::{Driver, Output};
use engine::uci;

fn run_bench(args: &[String]) -> Result<String, String> {
    let mut method = Method::DEFAULT;
    let mut depth = DEFAULT_DEPTH;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--method" => method = value()?.parse().map_err(|e| format!("{e}"))?,
            "--depth" => {
                let v = value()?;
                depth = v
                    .parse()
                    .ok()
                    .filter(|d| (1..=64).contains(d))
                    .ok_or_else(|| format!("--depth: '{v}' is not a depth from 1 to 64"))?;
            }
            other => return Err(format!("unknown bench argument '{other}'")),
        }
    }
    let r = bench(method, depth, |_, _| {});
    Ok(format!("{} nodes {} nps", r.nodes, r.nps()))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("bench") => {
            return match run_bench(&args[1..]) {
                Ok(line) => {
                    println!("{line}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("borrow-uci: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Some(other) => {
            eprintln!(
                "borrow-uci: unknown argument '{other}' (usage: borrow-uci [bench [--method NAME] [--depth D]])"
            );
            return ExitCode::from(2);
        }
        None => {}
    }
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    let mut driver = Driver::new(out);
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break, // end of input: as `quit`
            Ok(_) => {}
        }
        // Invalid UTF-8 becomes replacement characters, then an error message.
        let text = String::from_utf8_lossy(&line);
        if !driver.handle(uci::parse(&text)) {
            break;
        }
    }
    drop(driver);
    ExitCode::SUCCESS
}
