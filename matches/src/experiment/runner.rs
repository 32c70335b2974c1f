//! Running the experiment: the matches it plays and the order it plays them.

use super::args::{DEFAULT_ENGINE, Options, SLOW_REFERENCE};
use super::identity::{GameLines, Identity, first_difference, line_of};
use super::probe::{bench, query_engine};
use super::results::{MethodResult, Report, SetupError};
use crate::cli::{MatchConfig, OpeningsConfig};
use crate::clock::Limits;
use crate::engine::EngineConfig;
use crate::game::{Adjudication, Failure};
use crate::openings::{Format, Order};
use crate::tournament;
use crate::tournament::{MatchResult, Progress, StopReason};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn resolve(
    asked: &Option<Vec<String>>,
    offered: &[String],
    default: impl Fn(&str) -> bool,
) -> Result<Vec<String>, SetupError> {
    match asked {
        Some(v) if v.len() == 1 && v[0] == "all" => Ok(offered.to_vec()),
        Some(v) => {
            for m in v {
                if !offered.contains(m) {
                    return Err(SetupError(format!(
                        "the engine does not offer the method '{m}' (it offers {})",
                        offered.join(", ")
                    )));
                }
            }
            // In the engine's order.
            Ok(offered.iter().filter(|m| v.contains(m)).cloned().collect())
        }
        None => Ok(offered.iter().filter(|m| default(m)).cloned().collect()),
    }
}

fn engine_config(o: &Options, method: &str, limits: Limits) -> EngineConfig {
    EngineConfig {
        name: method.to_string(),
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

/// The match of `method` (first engine) against the baseline.
fn match_config(
    o: &Options,
    method: &str,
    limits: Limits,
    rounds: usize,
    pgn: &Path,
) -> MatchConfig {
    let mut c = MatchConfig::new(
        engine_config(o, method, limits),
        engine_config(o, &o.baseline, limits),
    );
    if method == o.baseline {
        c.engines[1].name = format!("{method}-2");
    }
    c.rounds = Some(rounds);
    c.games = 2;
    c.concurrency = o.concurrency;
    c.openings = Some(OpeningsConfig {
        file: o.openings.clone(),
        format: suite_format(&o.openings),
        order: Order::Random,
        plies: None,
        start: 1,
    });
    c.seed = o.seed;
    c.chess960 = o.chess960;
    if o.chess960 {
        for e in &mut c.engines {
            e.options.push(("UCI_Chess960".into(), "true".into()));
        }
    }
    c.pgnout = Some(pgn.to_path_buf());
    c.event = format!("borrow-experiment {method} vs {}", o.baseline);
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

/// The format of a suite file by its name: PGN for `.pgn`, else EPD.
fn suite_format(path: &Path) -> Format {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        Format::Pgn
    } else {
        Format::Epd
    }
}

/// The experiment under way: its options and the results so far.
struct Runner<'a> {
    o: &'a Options,
    interrupted: &'a dyn Fn() -> bool,
    report: Report,
    pgn_nodes: PathBuf,
    pgn_timed: PathBuf,
}

impl Runner<'_> {
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

    /// Phase 1, speed: bench runs with the methods interleaved, and the
    /// node counts compared.
    fn bench(&mut self) {
        let o = self.o;
        let depth = o
            .bench_depth
            .map_or("the engine's default".into(), |d| d.to_string());
        eprintln!(
            "[bench] {} run(s) of each method, depth {depth}",
            o.bench_runs
        );
        for run in 0..o.bench_runs {
            for i in 0..self.report.methods.len() {
                if self.stopping() {
                    return;
                }
                let m = self.report.methods[i].method.clone();
                match bench(&o.engine, &m, o.bench_depth) {
                    Ok(b) => {
                        eprintln!(
                            "[bench {}/{}] {m:<32} {:>10} nodes {:>10} nps",
                            run + 1,
                            o.bench_runs,
                            b.nodes,
                            b.nps
                        );
                        self.report.methods[i].bench.push(b);
                    }
                    Err(e) => self.report.defects.push(format!("bench: {e}")),
                }
            }
        }
        let mut node_counts: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        for m in &self.report.methods {
            for b in &m.bench {
                let v = node_counts.entry(b.nodes).or_default();
                if !v.contains(&m.method) {
                    v.push(m.method.clone());
                }
            }
        }
        if node_counts.len() > 1 {
            let parts: Vec<String> = node_counts
                .iter()
                .map(|(n, ms)| format!("{n} nodes: {}", ms.join(", ")))
                .collect();
            self.report.defects.push(format!(
                "bench node counts differ between methods or runs: {}",
                parts.join("; ")
            ));
        }
    }

    /// The fixed-node match of `method` against the baseline.
    fn nodes_config(&self, method: &str) -> MatchConfig {
        let o = self.o;
        let limits = Limits {
            nodes: Some(o.nodes),
            ..Limits::default()
        };
        let mut c = match_config(o, method, limits, o.identity_pairs, &self.pgn_nodes);
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

    /// Phase 3, strength: each method's game pairs against the baseline at
    /// the time control, the results written after each match.
    fn timed(
        &mut self,
        methods: &[String],
        progress: Progress,
        write: &mut dyn FnMut(&Report),
        started: Instant,
    ) -> Result<(), SetupError> {
        let o = self.o;
        let limits = Limits {
            tc: Some(o.tc),
            margin: o.timemargin,
            ..Limits::default()
        };
        eprintln!(
            "[timed] tc={}: {} pair(s) of each of {} method(s) against {}, concurrency {}",
            o.tc,
            o.pairs,
            methods.len(),
            o.baseline,
            o.concurrency
        );
        for (k, m) in methods.iter().enumerate() {
            if self.stopping() {
                return Ok(());
            }
            let mut c = match_config(o, m, limits, o.pairs, &self.pgn_timed);
            c.adjudication = o.adjudication();
            let match_started = Instant::now();
            let (r, _) = play(&c, self.interrupted, progress).map_err(SetupError)?;
            if r.stop == StopReason::Interrupted {
                self.report.interrupted = true;
            }
            self.report
                .add_failures(failures_text(&r, &format!("tc={}", o.tc)));
            eprintln!(
                "[timed {}/{}] {} ({})",
                k + 1,
                methods.len(),
                crate::report::progress_line(&r, None),
                elapsed(match_started.elapsed())
            );
            if let Some(res) = self.result_of(m) {
                res.timed = Some(r);
            }
            self.report.duration = started.elapsed();
            write(&self.report);
        }
        Ok(())
    }
}

/// Runs the experiment. `interrupted` is polled (Ctrl-C); progress goes to
/// stderr (`progress` says how the timed games are shown); after each phase
/// and each timed match the results so far are given to `write` (so that an
/// interrupted run leaves them behind).
pub fn run(
    o: &Options,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
    write: &mut dyn FnMut(&Report),
) -> Result<Report, SetupError> {
    let started = Instant::now();
    if !o.engine.exists() {
        let hint = if o.engine == Path::new(DEFAULT_ENGINE) {
            " (run `cargo build --release` first, from the workspace root)"
        } else {
            ""
        };
        return Err(SetupError(format!(
            "{}: no such engine binary{hint}",
            o.engine.display()
        )));
    }
    let info = query_engine(&o.engine).map_err(SetupError)?;
    if !info.methods.contains(&o.baseline) {
        return Err(SetupError(format!(
            "the engine does not offer the baseline method '{}' (it offers {})",
            o.baseline,
            info.methods.join(", ")
        )));
    }
    let timed = resolve(&o.methods, &info.methods, |m| {
        m != o.baseline && m != SLOW_REFERENCE
    })?;
    let identity = resolve(&o.identity_methods, &info.methods, |_| true)?;
    let (suite, _) =
        crate::openings::load(&o.openings, suite_format(&o.openings), None).map_err(SetupError)?;
    if suite.is_empty() {
        return Err(SetupError(format!(
            "{}: no usable opening",
            o.openings.display()
        )));
    }
    std::fs::create_dir_all(&o.out).map_err(|e| SetupError(format!("{}: {e}", o.out.display())))?;
    let mut runner = Runner {
        o,
        interrupted,
        report: Report {
            options: o.clone(),
            engine_name: info.name.clone(),
            openings: suite.len(),
            baseline: o.baseline.clone(),
            methods: info
                .methods
                .iter()
                .map(|m| MethodResult {
                    method: m.clone(),
                    bench: Vec::new(),
                    timed: None,
                    identity: Identity::NotChecked,
                })
                .collect(),
            defects: Vec::new(),
            notes: Vec::new(),
            date: crate::pgn::today(),
            duration: Duration::ZERO,
            interrupted: false,
        },
        pgn_nodes: o.out.join("fixed-nodes-games.pgn"),
        pgn_timed: o.out.join("timed-games.pgn"),
    };
    for p in [&runner.pgn_nodes, &runner.pgn_timed] {
        let _ = std::fs::remove_file(p);
    }
    eprintln!(
        "borrow-experiment: {} ({}), methods {}; baseline {}",
        o.engine.display(),
        info.name,
        info.methods.join(", "),
        o.baseline
    );
    runner.bench();
    write(&runner.report);
    runner.identity(&identity)?;
    write(&runner.report);
    runner.timed(&timed, progress, write, started)?;
    runner.report.duration = started.elapsed();
    write(&runner.report);
    Ok(runner.report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_lists() {
        let offered: Vec<String> = ["od", "magic", "pext", "reference"]
            .map(String::from)
            .to_vec();
        let default = |m: &str| m != "magic" && m != "reference";
        assert_eq!(resolve(&None, &offered, default).unwrap(), ["od", "pext"]);
        assert_eq!(
            resolve(&Some(vec!["all".into()]), &offered, default).unwrap(),
            offered
        );
        assert_eq!(
            resolve(&Some(vec!["pext".into(), "od".into()]), &offered, default).unwrap(),
            ["od", "pext"]
        );
        let e = resolve(&Some(vec!["nope".into()]), &offered, default).unwrap_err();
        assert!(e.0.contains("'nope'"), "{e}");
    }
}
