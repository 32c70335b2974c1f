//! `borrow-experiment`: the attack-method experiment (see the `experiment`
//! library). `borrow-experiment --help` lists the options.

use std::io::IsTerminal;
use std::process::ExitCode;

use experiment::{Invocation, output};
use matches::tournament::Progress;

fn main() -> ExitCode {
    // Help, version and bad options: clap prints them and exits (0 or 2).
    let invocation =
        experiment::parse_args(std::env::args_os().skip(1)).unwrap_or_else(|e| e.exit());
    let options = match invocation {
        Invocation::Run(o) => o,
        Invocation::Compare(c) => {
            return match experiment::compare::write(&c) {
                Ok(markdown) => {
                    matches::report::print_stdout("borrow-experiment", &markdown);
                    eprintln!(
                        "borrow-experiment: wrote {0}/{1} and {0}/{2}",
                        c.out.display(),
                        experiment::compare::MARKDOWN,
                        experiment::compare::SVG
                    );
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("borrow-experiment: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Invocation::Sample(s) => {
            return match experiment::run_sample(&s) {
                Ok(msg) => {
                    eprintln!("{msg}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("borrow-experiment: {e}");
                    ExitCode::from(2)
                }
            };
        }
    };
    if let Err(e) = interrupt::install() {
        eprintln!("borrow-experiment: warning: {e}");
    }
    let progress = if std::io::stderr().is_terminal() {
        Progress::Bar
    } else {
        Progress::Quiet
    };
    let out = options.out.clone();
    let mut write = |r: &experiment::Report| {
        if let Err(e) = output::write_all(r, &out) {
            eprintln!("borrow-experiment: {}: {e}", out.display());
        }
    };
    let report = match experiment::run(&options, &interrupt::interrupted, progress, &mut write) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("borrow-experiment: {e}");
            return ExitCode::from(2);
        }
    };
    // One write: a closed pipe is no panic.
    matches::report::print_stdout("borrow-experiment", &output::text(&report));
    eprintln!(
        "borrow-experiment: wrote {0}/results.md, {0}/results.json, {0}/results.svg, the games' PGN \
         and {0}/state.json (--resume {0} continues the run)",
        out.display()
    );
    if report.interrupted {
        ExitCode::from(130)
    } else if report.defects.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
