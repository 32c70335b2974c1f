//! Chooses the net built into the engine: `engine/nets/default.nnue`, or
//! the file `BORROW_EVALFILE` names (the Makefile sets it from OpenBench's
//! `make EVALFILE=<net>`). The engine includes the file's bytes and checks
//! its layout at compile time (`nnue::Network`).

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=BORROW_EVALFILE");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let net = match std::env::var_os("BORROW_EVALFILE") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => manifest.join("nets").join("default.nnue"),
    };
    // A build script runs in engine/, not where cargo was started: a
    // relative path would name another file than the user meant.
    if net.is_relative() {
        eprintln!(
            "error: BORROW_EVALFILE must be an absolute path (got {}); `make EVALFILE=<net>` takes a relative one",
            net.display()
        );
        std::process::exit(1);
    }
    let net = match net.canonicalize() {
        Ok(path) => path,
        Err(e) => {
            eprintln!(
                "error: cannot read the net to build in, {}: {e}",
                net.display()
            );
            std::process::exit(1);
        }
    };
    println!("cargo:rerun-if-changed={}", net.display());
    println!("cargo:rustc-env=BORROW_NET={}", net.display());
}
