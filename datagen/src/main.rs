//! `borrow-datagen`: Borrow's self-play training data (see the `datagen`
//! crate's [`datagen::cli`]).

use std::process::ExitCode;

fn main() -> ExitCode {
    datagen::cli::run(std::env::args_os().skip(1))
}
