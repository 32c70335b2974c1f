//! What the experiment settles before anything runs: the engine binary,
//! the methods asked for among those the engine offers, the suite (its
//! format, its openings), the options a `--resume` continues with, the
//! perft binary, and the plan of the games (never below those a resumed
//! run has played).

use std::path::{Path, PathBuf};
use std::time::Duration;

use matches::clock::TimeControl;

use crate::args::{DEFAULT_ENGINE, Invocation, Options, parse_args};
use crate::plan::{Plan, PlanInput, plan};
use crate::probe::EngineInfo;
use crate::results::{Report, SetupError};
use crate::state::State;
use matches::openings::Format;

/// The methods to run, in the engine's order: those asked for (`all`:
/// every one offered), each checked against what the engine offers, or by
/// default those `default` keeps.
pub(super) fn resolve(
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

/// The format of a suite file by its name: PGN for `.pgn`, else EPD.
pub(super) fn suite_format(path: &Path) -> Format {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        Format::Pgn
    } else {
        Format::Epd
    }
}

/// The options of the run in `o.out` that `--resume` continues: as it was
/// started, with this invocation's budget and pairs. A larger
/// `--bench-pairs` raises the run's count (never lowers it: the runs saved
/// all count), and is written into the saved arguments, so the report and
/// a later `--resume` say how many pairs the run has.
pub(super) fn resumed_options(o: &Options, state: &State) -> Result<Options, SetupError> {
    let mut base = match parse_args(&state.args) {
        Ok(Invocation::Run(b)) => *b,
        _ => {
            return Err(SetupError(format!(
                "{}: the state's arguments no longer parse: {}",
                o.out.display(),
                state.args.join(" ")
            )));
        }
    };
    base.out = o.out.clone();
    base.resume = true;
    base.budget_hours = o.budget_hours;
    base.odds_pairs = o.odds_pairs.or(base.odds_pairs);
    base.direct_pairs = o.direct_pairs.or(base.direct_pairs);
    base.args = state.args.clone();
    if let Some(n) = o.resume_bench_pairs.filter(|&n| n > base.bench_pairs) {
        base.bench_pairs = n;
        base.args = with_bench_pairs(&state.args, n);
    }
    Ok(base)
}

/// `args` with `--bench-pairs` set to `n`: any earlier value removed, the
/// new one appended.
fn with_bench_pairs(args: &[String], n: usize) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len() + 2);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--bench-pairs" {
            it.next();
        } else if !a.starts_with("--bench-pairs=") {
            out.push(a.clone());
        }
    }
    out.push("--bench-pairs".into());
    out.push(n.to_string());
    out
}

/// The perft binary: the one given (which must exist), or `perft` beside
/// the engine if it is there.
pub(super) fn perft_binary(o: &Options) -> Result<Option<PathBuf>, SetupError> {
    match &o.perft {
        Some(p) if p.exists() => Ok(Some(p.clone())),
        Some(p) => Err(SetupError(format!("{}: no such perft binary", p.display()))),
        None => Ok(Some(o.engine.with_file_name("perft")).filter(|p| p.exists())),
    }
}

/// The plan of the games, from the budget; the time before the games is
/// estimated from the runs and games that come first.
pub(super) fn make_plan(o: &Options, methods: usize, perft: bool) -> Result<Plan, SetupError> {
    let runs = (methods.saturating_sub(1) * o.bench_pairs * 2) as f64;
    let bench_secs = if o.bench_depth.is_some_and(|d| d <= 8) {
        0.2
    } else {
        1.5
    };
    let identity_games = (methods * o.identity_pairs * 2 + 2 * o.identity_pairs * 2) as f64;
    let before = runs * bench_secs * if perft { 1.5 } else { 1.0 } + identity_games * 2.0;
    plan(&PlanInput {
        budget: Duration::from_secs_f64(o.budget_hours * 3600.0),
        before_games: Duration::from_secs_f64(before),
        concurrency: o.concurrency,
        tc: o.tc,
        tc2: o.tc2,
        factors: o.factors.clone(),
        factors2: o.factors2.clone(),
        odds_pairs: o.odds_pairs,
        direct_pairs: o.direct_pairs,
    })
    .map_err(SetupError)
}

/// A resumed run's plan is never below the games it has: those played
/// all count, whatever this invocation plans (a smaller `--budget`, or more
/// `--bench-pairs`, whose runs the plan reckons with).
pub(super) fn at_least_played(plan: &mut Plan, report: &Report) {
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

/// The engine binary exists (with a hint where it is the default one,
/// not built yet).
pub(super) fn check_engine(o: &Options) -> Result<(), SetupError> {
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
pub(super) fn methods_to_run(
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
pub(super) fn suite_size(o: &Options) -> Result<usize, SetupError> {
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

    /// A resumed run keeps its bench pairs, unless more are asked for:
    /// then the count rises and the saved arguments say so.
    #[test]
    fn resuming_with_more_bench_pairs() {
        let run = |args: &str| match parse_args(args.split_whitespace()).unwrap() {
            Invocation::Run(o) => *o,
            _ => unreachable!("{args}"),
        };
        let mut state = State::of_results(Vec::new(), Vec::new(), None, Default::default(), 0.0);
        state.args = ["--quick", "--bench-pairs", "7", "--seed", "3"]
            .map(String::from)
            .to_vec();
        let pairs = |o: &Options| {
            let r = resumed_options(o, &state).unwrap();
            let again = run(&r.args.join(" "));
            (r.bench_pairs, again.bench_pairs, again.seed)
        };
        assert_eq!(pairs(&run("--resume d")), (7, 7, 3));
        assert_eq!(pairs(&run("--resume d --bench-pairs 5")), (7, 7, 3));
        assert_eq!(pairs(&run("--resume d --bench-pairs 30")), (30, 30, 3));
        // Outside --resume the count is the run's own option.
        assert_eq!(run("--bench-pairs 30").resume_bench_pairs, None);
    }

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
