//! # interrupt
//!
//! Ctrl-C for the long runs (`borrow-datagen`, `borrow-train`,
//! `borrow-match`, `borrow-experiment`): the first press asks the run to
//! stop where it can keep its work (finished games, the epoch's checkpoint),
//! a second ends the process at once with exit status 130, as a shell
//! reports a process ended by SIGINT.
//!
//! ```no_run
//! if let Err(e) = interrupt::install() {
//!     eprintln!("note: {e}; Ctrl-C stops at once");
//! }
//! while !interrupt::interrupted() {
//!     // one more unit of work
//! #   break;
//! }
//! ```

#![deny(missing_docs)]

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler: once in a process (a second call is an error, as
/// is a handler another library installed first).
pub fn install() -> Result<(), String> {
    ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot catch Ctrl-C: {e}"))
}

/// Whether Ctrl-C was pressed since [`install`].
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

#[cfg(test)]
mod tests {
    #[test]
    #[cfg(unix)]
    fn the_first_ctrl_c_is_a_request_to_stop() {
        super::install().expect("the first handler installs");
        assert!(super::install().is_err(), "a second handler is refused");
        assert!(!super::interrupted());
        // SIGINT to this process, as a terminal's Ctrl-C sends it.
        let sent = std::process::Command::new("kill")
            .args(["-INT", &std::process::id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        // The handler runs on ctrlc's own thread: wait for it.
        let start = std::time::Instant::now();
        while !super::interrupted() {
            assert!(start.elapsed().as_secs() < 10, "the handler never ran");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}
