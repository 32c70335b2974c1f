//! Progress on a terminal while a long count runs.

use super::*;

// Progress on stderr, only when it is a terminal and the run is long

pub(super) struct Progress {
    pub(super) enabled: bool,
    pub(super) start: Instant,
    pub(super) last: Option<Instant>,
    pub(super) context: String,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            enabled: io::stderr().is_terminal(),
            start: Instant::now(),
            last: None,
            context: String::new(),
        }
    }

    pub(super) fn tick(&mut self, done: usize, total: usize) {
        let now = Instant::now();
        if now - self.start < Duration::from_secs(1)
            || self
                .last
                .is_some_and(|l| now - l < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(now);
        let mut err = io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K{} {done}/{total} root moves, {:.0}s",
            self.context,
            (now - self.start).as_secs_f64()
        );
        let _ = err.flush();
    }

    /// What `perft::split_root` calls as root moves finish: a tick when
    /// progress is shown, nothing (and no polling) otherwise.
    pub(super) fn callback(&mut self) -> Option<impl FnMut(usize, usize) + '_> {
        self.enabled
            .then_some(move |done, total| self.tick(done, total))
    }

    pub(super) fn clear(&mut self) {
        if self.last.take().is_some() {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}
