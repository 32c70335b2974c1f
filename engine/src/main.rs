//! `borrow`: the UCI engine. `borrow bench [--method NAME] [--depth D]` runs
//! the fixed benchmark search and exits; see [`engine::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    engine::cli::run(std::env::args_os().skip(1))
}
