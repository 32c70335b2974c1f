//! Progress on a terminal while a long count runs: a bar of root moves
//! done, shown once a count has taken a second (indicatif draws nothing
//! where stderr is not a terminal).

use indicatif::{ProgressBar, ProgressStyle};

use super::*;

pub(super) struct Progress {
    enabled: bool,
    start: Instant,
    bar: Option<ProgressBar>,
    /// What is being counted, shown before the bar.
    pub(super) context: String,
}

impl Progress {
    pub(super) fn new() -> Progress {
        Progress {
            enabled: io::stderr().is_terminal(),
            start: Instant::now(),
            bar: None,
            context: String::new(),
        }
    }

    pub(super) fn tick(&mut self, done: usize, total: usize) {
        if self.start.elapsed() < Duration::from_secs(1) {
            return;
        }
        let (context, start) = (&self.context, self.start);
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::hidden().with_elapsed(start.elapsed());
            if let Ok(style) =
                ProgressStyle::with_template("{msg} {pos}/{len} root moves, {elapsed}")
            {
                bar.set_style(style);
            }
            bar.set_message(context.clone());
            bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
            bar
        });
        bar.update(|state| {
            state.set_len(total as u64);
            state.set_pos(done as u64);
        });
        if bar.message() != self.context {
            bar.set_message(self.context.clone());
        }
    }

    /// What `perft::split_root` calls as root moves finish: a tick when
    /// progress is shown, nothing (and no polling) otherwise.
    pub(super) fn callback(&mut self) -> Option<impl FnMut(usize, usize) + '_> {
        self.enabled
            .then_some(move |done, total| self.tick(done, total))
    }

    pub(super) fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
