//! Ctrl-C: the first asks the run to stop (finished games are kept and the
//! summary printed); a second one ends the process at once (exit status
//! 130). Used by `borrow datagen`, `borrow-train` and `borrow-experiment`.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once in a process; a second call is an error).
pub fn install() -> Result<(), String> {
    ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| e.to_string())
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
