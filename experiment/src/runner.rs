//! Running the experiment: the measurements it makes and the order it
//! makes them in: speed (bench and perft pairs), identity (fixed-node
//! games), the calibration at the experiment's time control, the direct
//! check, the calibration at the second time control. The state is saved
//! after every step, for `--resume`.

use crate::args::{DEFAULT_ENGINE, Options};
use crate::identity::{GameLines, Identity, first_difference, line_of};
use crate::plan::{Plan, scaled};
use crate::probe::{EngineInfo, query_engine};
use crate::results::{Direct, MethodResult, OddsMatch, Report, SetupError, merged};
use crate::setup::{make_plan, perft_binary, resolve, resumed_options, suite_format};
use crate::speed::{self, RunPair};
use crate::state::State;
use matches::cli::{MatchConfig, OpeningsConfig};
use matches::clock::{Limits, TimeControl};
use matches::game::{Adjudication, Failure};
use matches::openings::Order;
use matches::tournament;
use matches::tournament::{MatchResult, Progress, StopReason};
use matches::uci_engine::EngineConfig;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
struct Side<'a> {
    name: &'a str,
    method: &'a str,
    limits: Limits,
}

/// A match of game pairs, `first` against `second`, from opening `start`
/// (1-based) of the suite's seeded order.
fn match_config(
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
fn play(
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

/// A resumed run's plan is never below the games it has: those played
/// all count, whatever this invocation plans (a smaller `--budget`, or more
/// `--bench-pairs`, whose runs the plan reckons with).
fn at_least_played(plan: &mut Plan, report: &Report) {
    let o = &report.options;
    let most = |tc: TimeControl| {
        report
            .odds
            .iter()
            .filter(|m| m.tc == tc)
            .map(|m| m.result.pairs.total() as usize)
            .max()
            .unwrap_or(0)
    };
    plan.odds_pairs = plan.odds_pairs.max(most(o.tc));
    if let Some(tc2) = o.tc2 {
        plan.odds_pairs_tc2 = plan.odds_pairs_tc2.max(most(tc2));
    }
    if let Some(d) = &report.direct {
        plan.direct_pairs = plan.direct_pairs.max(d.result.pairs.total() as usize);
    }
}

/// The games lost by failing, in words: crashes, illegal moves and stalls
/// (defects of the engine), then time losses (which depend on the machine's
/// load as much as on the engine: notes).
fn failures_text(r: &MatchResult, who: &str) -> (Vec<String>, Vec<String>) {
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

pub(super) fn elapsed(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m{:02}s", s / 60, s % 60)
}

/// The experiment under way: its options and the results so far.
struct Runner<'a> {
    o: &'a Options,
    interrupted: &'a dyn Fn() -> bool,
    report: Report,
    /// Whether the identity check is complete (also in an earlier session).
    identity_done: bool,
    pgn_nodes: PathBuf,
    pgn_timed: PathBuf,
    /// When this session started, and the time of the earlier ones.
    started: Instant,
    earlier: Duration,
}

impl<'a> Runner<'a> {
    /// The runner of a run whose `report` holds what earlier sessions
    /// measured, writing its games into `o.out`.
    fn new(
        o: &'a Options,
        interrupted: &'a dyn Fn() -> bool,
        report: Report,
        identity_done: bool,
    ) -> Runner<'a> {
        Runner {
            o,
            interrupted,
            earlier: report.duration,
            report,
            identity_done,
            pgn_nodes: o.out.join("fixed-nodes-games.pgn"),
            pgn_timed: o.out.join("timed-games.pgn"),
            started: Instant::now(),
        }
    }

    fn result_of(&mut self, method: &str) -> Option<&mut MethodResult> {
        self.report.methods.iter_mut().find(|m| m.method == method)
    }

    /// Checks the interrupt; true (and noted) if the run must stop.
    fn stopping(&mut self) -> bool {
        if self.report.interrupted || (self.interrupted)() {
            self.report.interrupted = true;
        }
        self.report.interrupted
    }

    /// Writes the results so far and the state (a failure to write the
    /// state is reported on stderr: the run goes on, but cannot be
    /// resumed from this point).
    fn checkpoint(&mut self, write: &mut dyn FnMut(&Report)) {
        self.report.duration = self.earlier + self.started.elapsed();
        write(&self.report);
        if let Err(e) = State::of(&self.report, self.identity_done).save(&self.o.out) {
            eprintln!(
                "borrow-experiment: cannot save the state in {}: {e}",
                self.o.out.display()
            );
        }
    }

    /// Phase 1, speed: bench (and perft) runs in pairs with the baseline,
    /// the methods interleaved, until each has `bench_pairs` pairs; then
    /// the node counts compared.
    fn speed(&mut self, measured: &[String], perft: Option<&Path>, write: &mut dyn FnMut(&Report)) {
        let o = self.o;
        let depth = o
            .bench_depth
            .map_or("the engine's default".into(), |d| d.to_string());
        let others: Vec<String> = measured
            .iter()
            .filter(|m| **m != o.baseline)
            .cloned()
            .collect();
        let have = self
            .report
            .methods
            .iter()
            .filter(|m| others.contains(&m.method))
            .map(|m| m.bench.len())
            .min()
            .unwrap_or(0);
        if have < o.bench_pairs {
            eprintln!(
                "[speed] pairs {}..{} of (bench {}, bench method) at depth {depth}{} for {} method(s)",
                have + 1,
                o.bench_pairs,
                o.baseline,
                perft.map_or(String::new(), |_| format!(
                    ", and of perft {}",
                    o.perft_depth
                )),
                others.len()
            );
        }
        for k in have..o.bench_pairs {
            for m in &others {
                if self.stopping() {
                    return;
                }
                let bench = |method: &str| speed::bench(&o.engine, method, o.bench_depth);
                match bench(o.baseline.as_str()).and_then(|b| Ok((b, bench(m.as_str())?))) {
                    Ok((base, method)) => {
                        eprintln!(
                            "[speed {}/{}] bench {m:<24} {:>10} nps / {} {:>10} nps",
                            k + 1,
                            o.bench_pairs,
                            method.nps,
                            o.baseline,
                            base.nps
                        );
                        if let Some(r) = self.result_of(m) {
                            r.bench.push(RunPair { base, method });
                        }
                    }
                    Err(e) => self.report.defects.push(format!("bench: {e}")),
                }
                if let Some(p) = perft {
                    let run = |method: &str| speed::perft(p, method, o.perft_depth);
                    match run(o.baseline.as_str()).and_then(|b| Ok((b, run(m.as_str())?))) {
                        Ok((base, method)) => {
                            if let Some(r) = self.result_of(m) {
                                r.perft.push(RunPair { base, method });
                            }
                        }
                        Err(e) => self.report.defects.push(format!("perft: {e}")),
                    }
                }
            }
            self.checkpoint(write);
        }
        let mut node_counts: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        for m in &self.report.methods {
            for p in &m.bench {
                for (n, who) in [(p.base.nodes, &o.baseline), (p.method.nodes, &m.method)] {
                    let v = node_counts.entry(n).or_default();
                    if !v.contains(who) {
                        v.push(who.clone());
                    }
                }
            }
        }
        if node_counts.len() > 1 {
            let parts: Vec<String> = node_counts
                .iter()
                .map(|(n, ms)| format!("{n} nodes: {}", ms.join(", ")))
                .collect();
            let defect = format!(
                "bench node counts differ between methods or runs: {}",
                parts.join("; ")
            );
            if !self.report.defects.contains(&defect) {
                self.report.defects.push(defect);
            }
        }
    }

    /// The fixed-node match of `method` against the baseline.
    fn nodes_config(&self, method: &str) -> MatchConfig {
        let o = self.o;
        let limits = Limits {
            nodes: Some(o.nodes),
            ..Limits::default()
        };
        let second = if method == o.baseline {
            format!("{method}-2")
        } else {
            o.baseline.clone()
        };
        let mut c = match_config(
            o,
            Side {
                name: method,
                method,
                limits,
            },
            Side {
                name: &second,
                method: &o.baseline,
                limits,
            },
            o.identity_pairs,
            1,
            &self.pgn_nodes,
        );
        // Only the rules and --maxmoves end these games: the more moves
        // compared, the better.
        c.adjudication = Adjudication {
            maxmoves: o.maxmoves,
            ..Adjudication::default()
        };
        c
    }

    /// The baseline against itself at fixed nodes, twice: its games, if the
    /// run was not interrupted.
    fn baseline_games(&mut self) -> Result<Option<GameLines>, SetupError> {
        let o = self.o;
        let c = self.nodes_config(&o.baseline);
        let (first, games) = play(&c, self.interrupted, Progress::Quiet).map_err(SetupError)?;
        let (_, again) = play(&c, self.interrupted, Progress::Quiet).map_err(SetupError)?;
        if self.stopping() {
            return Ok(None);
        }
        let label = format!("nodes={}", o.nodes);
        self.report.add_failures(failures_text(&first, &label));
        let mut deterministic = games.len() == again.len();
        for (k, g) in &games {
            if let Some(d) = again.get(k).and_then(|h| first_difference(g, h)) {
                deterministic = false;
                self.report.defects.push(format!(
                    "{label}: {} against itself is not deterministic: opening {} game {}: {d}",
                    o.baseline,
                    k.0 + 1,
                    k.1 + 1
                ));
            }
        }
        let n = games.len();
        if let Some(r) = self.result_of(&o.baseline) {
            r.identity = Identity::Baseline {
                deterministic,
                games: n,
            };
        }
        eprintln!(
            "[identity] {0} vs {0}: {n} games, {1}",
            o.baseline,
            if deterministic {
                "deterministic"
            } else {
                "NOT deterministic"
            }
        );
        Ok(Some(games))
    }

    /// Phase 2, identity: each method's fixed-node games against the
    /// baseline's.
    fn identity(&mut self, methods: &[String]) -> Result<(), SetupError> {
        let o = self.o;
        if methods.is_empty() || self.stopping() {
            return Ok(());
        }
        let others: Vec<&String> = methods.iter().filter(|m| **m != o.baseline).collect();
        eprintln!(
            "[identity] nodes={}: {} pair(s) of {} against itself (twice), then of {} method(s) against it",
            o.nodes,
            o.identity_pairs,
            o.baseline,
            others.len()
        );
        let Some(expected) = self.baseline_games()? else {
            return Ok(());
        };
        let label = format!("nodes={}", o.nodes);
        for m in others {
            if self.stopping() {
                return Ok(());
            }
            let (r, got) = play(&self.nodes_config(m), self.interrupted, Progress::Quiet)
                .map_err(SetupError)?;
            if self.stopping() {
                return Ok(());
            }
            self.report.add_failures(failures_text(&r, &label));
            let mut differences = Vec::new();
            for (k, e) in &expected {
                let colour = if k.1 == 0 { "White" } else { "Black" };
                match got.get(k) {
                    None => differences.push(format!(
                        "opening {}, {m} as {colour}: game missing",
                        k.0 + 1
                    )),
                    Some(g) => {
                        if let Some(d) = first_difference(e, g) {
                            differences.push(format!(
                                "opening {} ({}), {m} as {colour}: {d}",
                                k.0 + 1,
                                e.opening
                            ));
                        }
                    }
                }
            }
            eprintln!(
                "[identity] {m} vs {}: {} games, {}",
                o.baseline,
                got.len(),
                if differences.is_empty() {
                    "identical".to_string()
                } else {
                    format!("{} DIFFERENT", differences.len())
                }
            );
            for d in &differences {
                self.report
                    .defects
                    .push(format!("{label}: not identical: {d}"));
            }
            if let Some(r) = self.result_of(m) {
                r.identity = Identity::Compared {
                    games: got.len(),
                    differences,
                };
            }
        }
        Ok(())
    }

    /// Plays `first` against `second` until the match has `target` pairs,
    /// adding to `have`; the merged result (or `have` when nothing was
    /// played).
    fn continue_match(
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

    /// Phase 3 (and 5): time-odds matches of the baseline against itself at
    /// `tc`, `pairs` pairs at each of `factors`.
    fn calibration(
        &mut self,
        tc: TimeControl,
        factors: &[f64],
        pairs: usize,
        progress: Progress,
        write: &mut dyn FnMut(&Report),
    ) -> Result<(), SetupError> {
        let o = self.o;
        for &f in factors {
            if self.stopping() {
                return Ok(());
            }
            let at = |factor: f64| Limits {
                tc: Some(scaled(&tc, factor)),
                margin: o.timemargin,
                ..Limits::default()
            };
            let name = format!("{}x{f}", o.baseline);
            let k = self
                .report
                .odds
                .iter()
                .position(|m| m.tc == tc && m.factor == f);
            let have = k.map(|k| self.report.odds[k].result.clone());
            let label = format!("calibration tc={tc} x{f}");
            let r = self.continue_match(
                Side {
                    name: &name,
                    method: &o.baseline,
                    limits: at(f),
                },
                Side {
                    name: &o.baseline,
                    method: &o.baseline,
                    limits: at(1.0),
                },
                have,
                pairs,
                progress,
                &label,
            )?;
            if let Some(result) = r {
                let m = OddsMatch {
                    tc,
                    factor: f,
                    result,
                };
                match k {
                    Some(k) => self.report.odds[k] = m,
                    None => self.report.odds.push(m),
                }
            }
            self.checkpoint(write);
        }
        Ok(())
    }

    /// The slowest and the fastest method (the baseline among them) by
    /// their measured speed ratios.
    fn extremes(&self) -> Option<(String, String)> {
        let mut speeds: Vec<(f64, String)> = vec![(0.0, self.o.baseline.clone())];
        for m in &self.report.methods {
            if let Some(s) = m.speed() {
                speeds.push((s.log2, m.method.clone()));
            }
        }
        let slow = speeds.iter().min_by(|a, b| a.0.total_cmp(&b.0))?.1.clone();
        let fast = speeds.iter().max_by(|a, b| a.0.total_cmp(&b.0))?.1.clone();
        (slow != fast).then_some((slow, fast))
    }

    /// Phase 4: the slowest method against the fastest at the experiment's
    /// time control.
    fn direct(
        &mut self,
        pairs: usize,
        progress: Progress,
        write: &mut dyn FnMut(&Report),
    ) -> Result<(), SetupError> {
        let o = self.o;
        let (slow, fast) = match &self.report.direct {
            Some(d) => (d.slow.clone(), d.fast.clone()),
            None => match self.extremes() {
                Some(x) => x,
                None => {
                    self.report.notes.push(
                        "direct check: no two methods with measured speeds to compare".into(),
                    );
                    return Ok(());
                }
            },
        };
        let limits = Limits {
            tc: Some(o.tc),
            margin: o.timemargin,
            ..Limits::default()
        };
        let have = self.report.direct.as_ref().map(|d| d.result.clone());
        let label = format!("direct tc={}", o.tc);
        let r = self.continue_match(
            Side {
                name: &slow,
                method: &slow,
                limits,
            },
            Side {
                name: &fast,
                method: &fast,
                limits,
            },
            have,
            pairs,
            progress,
            &label,
        )?;
        if let Some(result) = r {
            self.report.direct = Some(Direct { slow, fast, result });
        }
        self.checkpoint(write);
        Ok(())
    }
}

/// Runs the experiment. `interrupted` is polled (Ctrl-C); progress goes to
/// stderr (`progress` says how the games are shown); after each step the
/// results so far are given to `write` and the state is saved (so that an
/// interrupted run leaves them behind and `--resume` continues it). Every
/// check of the setup (engine, methods, openings, budget) comes before
/// anything runs.
pub fn run(
    o: &Options,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
    write: &mut dyn FnMut(&Report),
) -> Result<Report, SetupError> {
    let state = if o.resume {
        Some(State::load(&o.out).map_err(SetupError)?)
    } else {
        None
    };
    let resumed;
    let o = match &state {
        Some(s) => {
            resumed = resumed_options(o, s)?;
            &resumed
        }
        None => o,
    };
    check_engine(o)?;
    let perft = perft_binary(o)?;
    let info = query_engine(&o.engine).map_err(SetupError)?;
    let (measured, identity) = methods_to_run(o, &info)?;
    let openings = suite_size(o)?;
    let mut the_plan = make_plan(o, measured.len(), perft.is_some())?;
    std::fs::create_dir_all(&o.out).map_err(|e| SetupError(format!("{}: {e}", o.out.display())))?;
    let mut report = new_report(o, &info, openings);
    if let Some(s) = &state {
        s.restore(&mut report).map_err(SetupError)?;
        at_least_played(&mut the_plan, &report);
    }
    report.plan = Some(the_plan.clone());
    let identity_done = state.as_ref().is_some_and(|s| s.identity_done);
    let mut runner = Runner::new(o, interrupted, report, identity_done);
    if state.is_none() {
        for p in [&runner.pgn_nodes, &runner.pgn_timed] {
            let _ = std::fs::remove_file(p);
        }
    }
    announce(o, &info, &measured, &the_plan, state.is_some());
    runner.speed(&measured, perft.as_deref(), write);
    runner.checkpoint(write);
    if !runner.identity_done && !runner.stopping() {
        runner.identity(&identity)?;
        runner.identity_done = !runner.stopping();
        runner.checkpoint(write);
    }
    runner.calibration(o.tc, &o.factors, the_plan.odds_pairs, progress, write)?;
    runner.direct(the_plan.direct_pairs, progress, write)?;
    if let Some(tc2) = o.tc2
        && the_plan.odds_pairs_tc2 > 0
    {
        runner.calibration(tc2, &o.factors2, the_plan.odds_pairs_tc2, progress, write)?;
    }
    runner.checkpoint(write);
    Ok(runner.report)
}

/// The engine binary exists (with a hint where it is the default one,
/// not built yet).
fn check_engine(o: &Options) -> Result<(), SetupError> {
    if o.engine.exists() {
        return Ok(());
    }
    let hint = if o.engine == Path::new(DEFAULT_ENGINE) {
        " (run `cargo build --release` first, from the workspace root)"
    } else {
        ""
    };
    Err(SetupError(format!(
        "{}: no such engine binary{hint}",
        o.engine.display()
    )))
}

/// The methods whose speed is measured (the baseline first if it was not
/// asked for) and those whose identity is checked, of those the engine
/// offers; the baseline must be one.
fn methods_to_run(
    o: &Options,
    info: &EngineInfo,
) -> Result<(Vec<String>, Vec<String>), SetupError> {
    if !info.methods.contains(&o.baseline) {
        return Err(SetupError(format!(
            "the engine does not offer the baseline method '{}' (it offers {})",
            o.baseline,
            info.methods.join(", ")
        )));
    }
    let mut measured = resolve(&o.methods, &info.methods, |_| true)?;
    if !measured.contains(&o.baseline) {
        measured.insert(0, o.baseline.clone());
    }
    let identity = resolve(&o.identity_methods, &info.methods, |_| true)?;
    Ok((measured, identity))
}

/// The number of usable openings of the suite; none is an error.
fn suite_size(o: &Options) -> Result<usize, SetupError> {
    let (suite, _) = matches::openings::load(&o.openings, suite_format(&o.openings), None)
        .map_err(SetupError)?;
    if suite.is_empty() {
        return Err(SetupError(format!(
            "{}: no usable opening",
            o.openings.display()
        )));
    }
    Ok(suite.len())
}

/// The report of a run before anything is measured.
fn new_report(o: &Options, info: &EngineInfo, openings: usize) -> Report {
    Report {
        options: o.clone(),
        engine_name: info.name.clone(),
        evaluation: info.evaluation.clone(),
        openings,
        baseline: o.baseline.clone(),
        methods: info.methods.iter().map(|m| MethodResult::new(m)).collect(),
        odds: Vec::new(),
        direct: None,
        plan: None,
        defects: Vec::new(),
        notes: Vec::new(),
        date: book::pgn::today(),
        duration: Duration::ZERO,
        interrupted: false,
    }
}

/// Says on stderr what runs: the engine, the methods, the plan.
fn announce(o: &Options, info: &EngineInfo, measured: &[String], plan: &Plan, resumed: bool) {
    eprintln!(
        "borrow-experiment: {} ({}, {}), methods {}; baseline {}{}",
        o.engine.display(),
        info.name,
        info.evaluation,
        measured.join(", "),
        o.baseline,
        if resumed { "; resumed" } else { "" }
    );
    eprintln!(
        "[plan] {}: {} pair(s) per calibration point at {}{}, {} direct pair(s); about {} in all",
        o.plan_basis(),
        plan.odds_pairs,
        o.tc,
        match o.tc2 {
            Some(tc2) if plan.odds_pairs_tc2 > 0 =>
                format!(" and {} at {tc2}", plan.odds_pairs_tc2),
            _ => String::new(),
        },
        plan.direct_pairs,
        crate::elapsed(plan.estimate)
    );
    for n in &plan.notes {
        eprintln!("[plan] {n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plan below the games played rises to them; one above stays.
    #[test]
    fn a_resumed_plan_counts_the_games_played() {
        let report = crate::fixture::report();
        let plan = |odds_pairs, direct_pairs| Plan {
            odds_pairs,
            odds_pairs_tc2: 0,
            direct_pairs,
            estimate: Duration::ZERO,
            notes: Vec::new(),
        };
        let mut low = plan(10, 1);
        at_least_played(&mut low, &report);
        assert_eq!(
            (low.odds_pairs, low.odds_pairs_tc2, low.direct_pairs),
            (40, 0, 3)
        );
        let mut high = plan(50, 9);
        at_least_played(&mut high, &report);
        assert_eq!((high.odds_pairs, high.direct_pairs), (50, 9));
    }
}
