//! Chooses the net built into the engine: `engine/nets/default.nnue`, or
//! the file `BORROW_EVALFILE` names (the Makefile sets it from OpenBench's
//! `make EVALFILE=<net>`). The engine includes the file's bytes and checks
//! its layout at compile time (`nnue::Network`). Its SHA-256, computed
//! here, names it (`evaluator::BUILT_IN_NET_SHA256`, `borrow --version`).

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

/// Stops the build with `message`.
fn fail(message: String) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// Stops the build: the net at `net` cannot be read.
fn cannot_read(net: &Path, e: std::io::Error) -> ! {
    fail(format!(
        "cannot read the net to build in, {}: {e}",
        net.display()
    ))
}

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
        fail(format!(
            "BORROW_EVALFILE must be an absolute path (got {}); `make EVALFILE=<net>` takes a relative one",
            net.display()
        ));
    }
    let net = net.canonicalize().unwrap_or_else(|e| cannot_read(&net, e));
    let bytes = std::fs::read(&net).unwrap_or_else(|e| cannot_read(&net, e));
    let sha256: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    println!("cargo:rerun-if-changed={}", net.display());
    println!("cargo:rustc-env=BORROW_NET={}", net.display());
    println!("cargo:rustc-env=BORROW_NET_SHA256={sha256}");
}
