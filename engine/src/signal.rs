//! Ctrl-C: the first SIGINT asks the run to stop (finished games are
//! kept and the summary printed); a second one ends the process at once.
//! Used by `borrow datagen`, `borrow-match` and `borrow-experiment`.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(unix)]
extern "C" fn on_sigint(_: libc::c_int) {
    // Only async-signal-safe work here: an atomic swap and `_exit`.
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe.
        unsafe { libc::_exit(130) };
    }
}

/// Installs the SIGINT handler.
#[cfg(unix)]
pub fn install() -> Result<(), String> {
    // SAFETY: a zeroed `sigaction` is a valid start (empty mask, no flags);
    // the handler only touches an atomic and calls `_exit`.
    let rc = unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_sigint as extern "C" fn(libc::c_int) as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut())
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().to_string())
    }
}

/// Installs the SIGINT handler: not on this system, where Ctrl-C ends the
/// process at once.
#[cfg(not(unix))]
pub fn install() -> Result<(), String> {
    Err("Ctrl-C handling needs a Unix system".into())
}

/// Whether Ctrl-C was pressed.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
