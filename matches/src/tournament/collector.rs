//! The main thread's side of a running match: it counts the workers'
//! games (and, at the start, the resumed ones), writes them to the PGN,
//! shows progress, runs the SPRT and decides when to stop.

use std::collections::HashSet;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Color;

use super::{Event, FinishedGame, MatchResult, Progress, StopReason, wdl_of};
use crate::cli::MatchConfig;
use crate::game::{self, Failure, GameRecord};
use crate::pgn;
use crate::resume::Resumed;
use crate::schedule::round_tag;
use crate::sprt::{Decision, Sprt};
use crate::stats::Wdl;

/// Counts a game's result, how it ended and the failure it was lost by.
fn count_game(
    result: &mut MatchResult,
    wdl: Wdl,
    termination: &game::Termination,
    failed: Option<Color>,
    first_is_white: bool,
) {
    result.wdl.add(wdl);
    *result.terminations.entry(termination.key()).or_default() += 1;
    if let (Some(side), game::Termination::Failure(f, _)) = (failed, termination) {
        let engine = usize::from((side == Color::White) != first_is_white);
        let k = Failure::ALL.iter().position(|x| x == f).unwrap_or(0);
        result.failures[engine][k] += 1;
    }
}

/// Counts the resumed games as if just played: results, pairs, how they
/// ended, and the SPRT's verdict on them.
pub(super) fn restore(result: &mut MatchResult, resumed: &Resumed, config: &MatchConfig) {
    for g in &resumed.games {
        count_game(result, g.wdl, &g.termination, g.failed, g.first_is_white);
    }
    if config.games == 2 {
        // Whole rounds only, each in game order.
        for pair in resumed.games.chunks_exact(2) {
            result.pairs.add(pair[0].wdl, pair[1].wdl);
        }
    }
    if let Some(sprt) = &config.sprt
        && !resumed.games.is_empty()
    {
        judge(result, sprt);
    }
}

/// The SPRT's verdict on the games counted so far: the log-likelihood
/// ratio goes into the result, and a decision stops the match. True when
/// the test has decided.
fn judge(result: &mut MatchResult, sprt: &Sprt) -> bool {
    let llr = sprt.llr(&result.sprt_counts());
    result.llr = Some(llr);
    let d = sprt.decision(llr);
    if d == Decision::Continue {
        return false;
    }
    result.stop = StopReason::Sprt(d);
    true
}

/// The bar (drawn only where stderr is a terminal): games played, out of
/// the `total` when the match has one, and the running score; `played`
/// already (the resumed games).
fn progress_bar(total: Option<usize>, played: u64) -> ProgressBar {
    let (bar, template) = match total {
        Some(t) => (ProgressBar::new(t as u64), "[{pos}/{len}] {msg}"),
        None => (ProgressBar::no_length(), "[{pos}] {msg}"),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_position(played);
    bar
}

/// The main thread's side of a running match: it counts the workers'
/// games, writes them to the PGN, shows progress, runs the SPRT and
/// decides when to stop.
pub(super) struct Collector<'a> {
    config: &'a MatchConfig,
    progress: Progress,
    result: MatchResult,
    /// Tells the workers to stop.
    stop: Arc<AtomicBool>,
    pgn_out: Option<BufWriter<File>>,
    /// The PGN's `Date`.
    date: String,
    /// The games of the match, when it has a number of rounds.
    total: Option<usize>,
    bar: Option<ProgressBar>,
    /// The warnings shown, each once.
    warnings: HashSet<String>,
    /// The games counted before the first was played: the resumed ones.
    resumed_games: u64,
    /// An engine that could not start before the first game.
    setup_error: Option<String>,
}

impl<'a> Collector<'a> {
    /// The collector of a match whose `result` counts the resumed games.
    pub(super) fn new(
        config: &'a MatchConfig,
        progress: Progress,
        result: MatchResult,
        stop: Arc<AtomicBool>,
        pgn_out: Option<BufWriter<File>>,
    ) -> Collector<'a> {
        let total = config.rounds.map(|r| r * config.games);
        Collector {
            config,
            progress,
            pgn_out,
            date: book::pgn::today(),
            total,
            warnings: HashSet::new(),
            bar: (progress == Progress::Bar).then(|| progress_bar(total, result.wdl.games())),
            resumed_games: result.wdl.games(),
            result,
            stop,
            setup_error: None,
        }
    }

    /// The match's result, once the workers have ended; the bar stays on
    /// the screen as it is. An engine that could not start before the
    /// first game is the `Err`.
    pub(super) fn finish(self) -> Result<MatchResult, String> {
        if let Some(bar) = self.bar {
            bar.abandon();
        }
        match self.setup_error {
            Some(e) => Err(e),
            None => Ok(self.result),
        }
    }

    fn stopped(&self) -> bool {
        self.result.stop != StopReason::Completed
    }

    /// Takes the workers' events until they have all ended, polling
    /// `interrupted` at least every 50 ms.
    pub(super) fn collect(
        &mut self,
        rx: &mpsc::Receiver<Event>,
        interrupted: &dyn Fn() -> bool,
        observe: &mut dyn FnMut(FinishedGame<'_>),
    ) {
        loop {
            let event = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if interrupted() && !self.stopped() {
                self.result.stop = StopReason::Interrupted;
                self.stop.store(true, Ordering::SeqCst);
            }
            if let Some(event) = event {
                self.event(event, observe);
            }
        }
    }

    /// One event of a worker: counted unless the match has stopped.
    fn event(&mut self, event: Event, observe: &mut dyn FnMut(FinishedGame<'_>)) {
        if let Event::Memory(m) = event {
            // Measured even after the decision: the processes ran anyway.
            for (peak, m) in self.result.peak_memory_kib.iter_mut().zip(m) {
                *peak = (*peak).max(m);
            }
            return;
        }
        if self.stopped() {
            return; // games finishing after the decision are not counted
        }
        let sprt_update = match event {
            Event::Memory(_) => unreachable!("handled above"),
            Event::Warning(w) => {
                if self.warnings.insert(w.clone()) {
                    eprintln!("warning: {w}");
                }
                false
            }
            Event::Fatal(e) => {
                // Before the first game, an engine that cannot start is a
                // setup error: no match was played.
                if self.result.wdl.games() == self.resumed_games {
                    self.setup_error = Some(e.clone());
                }
                self.result.stop = StopReason::Error(e);
                self.stop.store(true, Ordering::SeqCst);
                false
            }
            Event::Pair([x, y]) => {
                self.result.pairs.add(x, y);
                self.config.games == 2
            }
            Event::Game {
                round,
                game,
                record,
                first_is_white,
            } => {
                let finished = FinishedGame {
                    round,
                    game,
                    first_is_white,
                    record: &record,
                };
                self.game(finished, observe);
                self.config.games == 1
            }
        };
        if let (true, Some(sprt)) = (sprt_update, &self.config.sprt)
            && judge(&mut self.result, sprt)
        {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// A finished game: counted, written to the PGN, shown to `observe`
    /// and in the progress.
    fn game(&mut self, g: FinishedGame<'_>, observe: &mut dyn FnMut(FinishedGame<'_>)) {
        let record = g.record;
        count_game(
            &mut self.result,
            wdl_of(record, g.first_is_white),
            &record.termination,
            record.failed,
            g.first_is_white,
        );
        if let Some(out) = self.pgn_out.as_mut() {
            let round_tag = round_tag(self.config.games, g.round, g.game);
            let text = pgn::format_game(record, &self.config.event, &round_tag, &self.date);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                eprintln!("warning: cannot write the PGN: {e}");
            }
        }
        observe(g);
        self.show(record);
    }

    /// The progress after a game: a line or the bar, and the summary
    /// every `-ratinginterval` games.
    fn show(&self, record: &GameRecord) {
        let played = self.result.wdl.games();
        let of = self.total.map_or(String::new(), |t| format!("/{t}"));
        let sprt = self.config.sprt.as_ref();
        match self.progress {
            Progress::Quiet => {}
            Progress::Lines => eprintln!(
                "[{played}{of}] {} vs {}: {} {{{}}}",
                record.white,
                record.black,
                record.result,
                record.reason()
            ),
            Progress::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(crate::report::progress_line(&self.result, sprt));
                    bar.set_position(played);
                }
            }
        }
        if self.config.rating_interval > 0
            && played.is_multiple_of(self.config.rating_interval as u64)
        {
            // Not `println!`, which panics on a closed pipe.
            let print = || {
                let _ = writeln!(
                    std::io::stdout(),
                    "{}",
                    crate::report::text(&self.result, sprt)
                );
            };
            match &self.bar {
                Some(bar) => bar.suspend(print),
                None => print(),
            }
        }
    }
}
