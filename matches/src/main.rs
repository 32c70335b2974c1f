//! `borrow-match`: plays a match between two UCI engines and prints the
//! statistics. `borrow-match -help` lists the options.

use std::io::IsTerminal;
use std::process::ExitCode;

use matches::cli::{self, Command};
use matches::report;
use matches::tournament::{self, Progress, StopReason};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let config = match cli::parse(&args) {
        Ok(Command::Run(c)) => c,
        Ok(Command::Help) => return report::print_stdout("borrow-match", cli::USAGE),
        Ok(Command::Version) => {
            return report::print_stdout(
                "borrow-match",
                &format!("borrow-match {}\n", env!("CARGO_PKG_VERSION")),
            );
        }
        Err(e) => {
            eprintln!("borrow-match: {e}");
            return ExitCode::from(2);
        }
    };
    // Ctrl-C: the first stops the match after the games under way, a
    // second ends the process at once.
    if let Err(e) = interrupt::install() {
        eprintln!("borrow-match: warning: {e}");
    }
    let progress = if std::io::stderr().is_terminal() {
        Progress::Bar
    } else {
        Progress::Lines
    };
    let result = match tournament::run(&config, &interrupt::interrupted, progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("borrow-match: {e}");
            return ExitCode::from(2);
        }
    };
    let sprt = config.sprt.as_ref();
    let json = report::json(&result, sprt);
    if config.json {
        // JSON alone on stdout; the text summary for people on stderr.
        eprintln!("{}", report::text(&result, sprt));
        report::print_stdout("borrow-match", &format!("{json}\n"));
    } else {
        // A closed pipe (`borrow-match ... | head -1`) is no failure.
        report::print_stdout(
            "borrow-match",
            &format!("{}\n", report::text(&result, sprt)),
        );
    }
    if let Some(path) = &config.jsonout
        && let Err(e) = std::fs::write(path, format!("{json}\n"))
    {
        eprintln!("borrow-match: {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    match result.stop {
        StopReason::Error(e) => {
            eprintln!("borrow-match: {e}");
            ExitCode::FAILURE
        }
        StopReason::Interrupted => ExitCode::from(130),
        _ => ExitCode::SUCCESS,
    }
}
