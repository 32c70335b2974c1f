//! `borrow`: the UCI engine. `borrow bench [--method NAME] [--depth D]` runs
//! the fixed benchmark search and exits; see [`engine::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    engine::cli::run(&args)
}
