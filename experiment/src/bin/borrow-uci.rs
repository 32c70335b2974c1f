//! `borrow-uci`: the Borrow engine, built from the `engine` library inside
//! this package so that the experiment's integration tests (and
//! `borrow-experiment --quick` in them) can play the real engine: binaries of
//! other packages are not available to integration tests.
//!
//! It is `borrow` exactly: the same [`engine::cli::run`], so `borrow-uci`
//! speaks UCI and `borrow-uci bench [--method NAME] [--depth D]` ends with
//! `<nodes> nodes <nps> nps`.

use std::process::ExitCode;

fn main() -> ExitCode {
    engine::cli::run(std::env::args_os().skip(1))
}
