//! Running the experiment: the measurements it makes and the order it
//! makes them in: speed (bench and perft pairs), identity (fixed-node
//! games), the calibration at the experiment's time control, the direct
//! check, the calibration at the second time control. The state is saved
//! after every step, for `--resume`.
//!
//! [`run`] settles the setup and goes through the phases, each a step of
//! the [`Runner`] in a file of its own:
//! - `matchup`: one match, its settings, and the games it lost by failing;
//! - `speed_runs`: phase 1, the bench (and perft) run pairs;
//! - `identity_games`: phase 2, the fixed-node identity check;
//! - `timed`: the calibration (phases 3 and 5) and the direct check
//!   (phase 4).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use matches::tournament::Progress;

use crate::args::Options;
use crate::plan::Plan;
use crate::probe::{EngineInfo, query_engine};
use crate::results::{MethodResult, Report, SetupError};
use crate::setup::{
    at_least_played, check_engine, make_plan, methods_to_run, perft_binary, resumed_options,
    suite_size,
};
use crate::state::State;

mod identity_games;
mod matchup;
mod speed_runs;
mod timed;

/// A duration as the progress lines write it: `12m05s`.
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
