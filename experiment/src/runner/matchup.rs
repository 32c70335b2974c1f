//! One match of the experiment: the engines' and the match's settings,
//! playing it (and going on with one an earlier session began), and the
//! games it lost by failing, in words.

use std::path::Path;

use matches::cli::{MatchConfig, OpeningsConfig};
use matches::clock::Limits;
use matches::game::Failure;
use matches::openings::Order;
use matches::tournament::{self, MatchResult, Progress, StopReason};
use matches::uci_engine::EngineConfig;

use super::Runner;
use crate::args::Options;
use crate::identity::{GameLines, line_of};
use crate::results::{SetupError, merged};
use crate::setup::suite_format;

fn engine_config(o: &Options, name: &str, method: &str, limits: Limits) -> EngineConfig {
    EngineConfig {
        name: name.to_string(),
        cmd: o.engine.to_string_lossy().into_owned(),
        options: vec![
            ("Threads".into(), "1".into()),
            ("Hash".into(), "16".into()),
            ("AttackMethod".into(), method.into()),
        ],
        limits,
        ..EngineConfig::default()
    }
}

/// One side of a match: its name, method and limits.
pub(super) struct Side<'a> {
    pub(super) name: &'a str,
    pub(super) method: &'a str,
    pub(super) limits: Limits,
}

/// A match of game pairs, `first` against `second`, from opening `start`
/// (1-based) of the suite's seeded order.
pub(super) fn match_config(
    o: &Options,
    first: Side<'_>,
    second: Side<'_>,
    rounds: usize,
    start: usize,
    pgn: &Path,
) -> MatchConfig {
    let mut c = MatchConfig::new(
        engine_config(o, first.name, first.method, first.limits),
        engine_config(o, second.name, second.method, second.limits),
    );
    c.rounds = Some(rounds);
    c.games = 2;
    c.concurrency = o.concurrency;
    c.openings = Some(OpeningsConfig {
        file: o.openings.clone(),
        format: suite_format(&o.openings),
        order: Order::Random,
        plies: None,
        start,
    });
    c.seed = o.seed;
    c.chess960 = o.chess960;
    if o.chess960 {
        for e in &mut c.engines {
            e.options.push(("UCI_Chess960".into(), "true".into()));
        }
    }
    c.pgnout = Some(pgn.to_path_buf());
    c.event = format!("borrow-experiment {} vs {}", first.name, second.name);
    c
}

/// Plays one match; its result and the games by (round, game).
pub(super) fn play(
    config: &MatchConfig,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
) -> Result<(MatchResult, GameLines), String> {
    let mut lines = GameLines::new();
    let result = tournament::run_observed(config, interrupted, progress, &mut |g| {
        lines.insert((g.round, g.game), line_of(&g));
    })?;
    if let StopReason::Error(e) = &result.stop {
        return Err(e.clone());
    }
    Ok((result, lines))
}

/// The games lost by failing, in words: crashes, illegal moves and stalls
/// (defects of the engine), then time losses (which depend on the machine's
/// load as much as on the engine: notes).
pub(super) fn failures_text(r: &MatchResult, who: &str) -> (Vec<String>, Vec<String>) {
    let (mut defects, mut notes) = (Vec::new(), Vec::new());
    for (i, name) in r.names.iter().enumerate() {
        for f in Failure::ALL {
            let n = r.failures_of(i, f);
            if n > 0 {
                let text = format!(
                    "{who}: {name} lost {n} game(s) by {}",
                    f.name().replace('_', " ")
                );
                if f == Failure::TimeLoss {
                    notes.push(text);
                } else {
                    defects.push(text);
                }
            }
        }
    }
    (defects, notes)
}

impl Runner<'_> {
    /// Plays `first` against `second` until the match has `target` pairs,
    /// adding to `have`; the merged result (or `have` when nothing was
    /// played).
    pub(super) fn continue_match(
        &mut self,
        first: Side<'_>,
        second: Side<'_>,
        have: Option<MatchResult>,
        target: usize,
        progress: Progress,
        label: &str,
    ) -> Result<Option<MatchResult>, SetupError> {
        let done = have.as_ref().map_or(0, |r| r.pairs.total() as usize);
        if done >= target || self.stopping() {
            return Ok(have);
        }
        let o = self.o;
        eprintln!(
            "[{label}] {} vs {}: pairs {}..{target} ({} so far this run)",
            first.name,
            second.name,
            done + 1,
            crate::elapsed(self.earlier + self.started.elapsed())
        );
        let mut c = match_config(o, first, second, target - done, done + 1, &self.pgn_timed);
        c.adjudication = o.adjudication();
        let (r, _) = play(&c, self.interrupted, progress).map_err(SetupError)?;
        if r.stop == StopReason::Interrupted {
            self.report.interrupted = true;
        }
        self.report.add_failures(failures_text(&r, label));
        eprintln!(
            "[{label}] {} ({})",
            matches::report::progress_line(&r, None),
            crate::elapsed(r.duration)
        );
        Ok(Some(match have {
            Some(h) => merged(&h, &r),
            None => r,
        }))
    }
}
