//! The experiment's results as JSON (`results.json`): every measured
//! figure with its interval, for scripts; and [`read`], which gives a
//! report back from its measurements (for `--compare`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::model::SpeedRatio;
use crate::plan::Plan;
use crate::probe::{BenchRun, Evaluation};
use crate::speed::RunPair;
use crate::state::{State, StoredDirect, StoredMatch, StoredOdds};
use crate::{Identity, MethodResult, Options, Report};
use matches::game::Failure;
use matches::report::{json_failures, json_interval, summary};
use matches::tournament::MatchResult;

fn json_speed(r: Option<SpeedRatio>) -> Value {
    r.map_or(Value::Null, |r| {
        let i = r.ratio();
        json!({"ratio": i.value, "lower": i.lower, "upper": i.upper,
               "log2": r.log2, "log2_half_width": r.half_width, "pairs": r.pairs})
    })
}

fn json_match(r: &MatchResult) -> Value {
    let s = summary(r);
    json!({
        "names": r.names,
        "limits": r.limits,
        "elo": json_interval(s.elo),
        "nelo": json_interval(s.nelo),
        "too_few_games": s.too_few.map(|why| why.to_string()),
        "games": r.wdl.games(),
        "wins": r.wdl.wins,
        "draws": r.wdl.draws,
        "losses": r.wdl.losses,
        "pentanomial": r.pairs.pentanomial(),
        "failures": json_failures(r),
        "seconds": r.duration.as_secs_f64(),
    })
}

fn json_method(report: &Report, m: &MethodResult) -> Value {
    let runs = |pairs: &[crate::speed::RunPair]| -> Vec<Value> {
        pairs
            .iter()
            .map(|p| json!({"base_nps": p.base.nps, "nps": p.method.nps, "nodes": p.method.nodes}))
            .collect()
    };
    let identity = match &m.identity {
        Identity::NotChecked => Value::Null,
        Identity::Baseline {
            deterministic,
            games,
        } => json!({"baseline": true, "deterministic": deterministic, "games": games}),
        Identity::Compared { games, differences } => json!({
            "identical": differences.is_empty(),
            "games": games,
            "differences": differences,
        }),
    };
    json!({
        "method": m.method,
        "bench_nodes": m.bench_nodes(),
        "nps": m.nps(),
        "bench_pairs": runs(&m.bench),
        "perft_pairs": runs(&m.perft),
        "speed": json_speed(m.speed()),
        "perft_speed": json_speed(m.perft_speed()),
        "predicted_elo": json_interval(report.predicted(m)),
        "identity": identity,
    })
}

/// The machine-readable results.
pub fn json(report: &Report) -> String {
    let o = &report.options;
    let methods: Vec<Value> = report
        .methods
        .iter()
        .map(|m| json_method(report, m))
        .collect();
    let odds: Vec<Value> = report
        .odds
        .iter()
        .map(|m| json!({"tc": m.tc.to_string(), "factor": m.factor, "result": json_match(&m.result)}))
        .collect();
    let slopes: Vec<Value> = report
        .calibration_tcs()
        .iter()
        .map(|tc| {
            let s = report.slope(tc);
            json!({
                "tc": tc.to_string(),
                "elo_per_doubling": json_interval(s.map(|s| s.interval())),
                "points": s.map(|s| s.points),
                "birge": s.map(|s| s.birge),
            })
        })
        .collect();
    let direct = report.direct.as_ref().map(|d| {
        json!({
            "slow": d.slow,
            "fast": d.fast,
            "result": json_match(&d.result),
            "predicted_elo": json_interval(report.direct_predicted()),
            "prediction_inside": report.direct_agrees(),
        })
    });
    let plan = report.plan.as_ref().map(|p| {
        json!({
            "odds_pairs": p.odds_pairs,
            "odds_pairs_tc2": p.odds_pairs_tc2,
            "direct_pairs": p.direct_pairs,
            "estimate_seconds": p.estimate.as_secs_f64(),
            "notes": p.notes,
        })
    });
    let v = json!({
        "engine": o.engine.display().to_string(),
        "engine_name": report.engine_name,
        "evaluation": report.evaluation,
        "baseline": report.baseline,
        "date": report.date,
        "seconds": report.duration.as_secs_f64(),
        "interrupted": report.interrupted,
        // null when the pairs were all given (--quick): no budget was used.
        "budget_hours": o.budget_used().then_some(o.budget_hours),
        "plan": plan,
        "tc": o.tc.to_string(),
        "tc2": o.tc2.map(|t| t.to_string()),
        "factors": o.factors,
        "factors2": o.factors2,
        "concurrency": o.concurrency,
        "timemargin_ms": o.timemargin.as_millis() as u64,
        "adjudication": o.adjudicate,
        "maxmoves": o.maxmoves,
        "nodes": o.nodes,
        "identity_pairs": o.identity_pairs,
        "bench_depth": o.bench_depth,
        "bench_pairs": o.bench_pairs,
        "perft_depth": o.perft_depth,
        "openings": o.openings.display().to_string(),
        "openings_count": report.openings,
        "seed": o.seed,
        "quick": o.quick,
        "methods": methods,
        "calibration": odds,
        "slopes": slopes,
        "direct": direct,
        "defects": report.defects,
        "notes": report.notes,
    });
    let mut text = serde_json::to_string_pretty(&v)
        .unwrap_or_else(|e| unreachable!("a JSON value prints: {e}"));
    text.push('\n');
    text
}

/// What [`read`] takes from `results.json`: the measurements and the
/// settings; the figures derived from them are computed again.
#[derive(Deserialize)]
struct Results {
    engine: PathBuf,
    engine_name: String,
    /// Missing from results written before it was recorded: unknown.
    #[serde(default)]
    evaluation: Evaluation,
    baseline: String,
    date: String,
    seconds: f64,
    interrupted: bool,
    budget_hours: Option<f64>,
    plan: Option<PlanRead>,
    tc: String,
    tc2: Option<String>,
    factors: Vec<f64>,
    factors2: Vec<f64>,
    concurrency: usize,
    timemargin_ms: u64,
    adjudication: bool,
    maxmoves: Option<u32>,
    nodes: u64,
    identity_pairs: usize,
    bench_depth: Option<u32>,
    bench_pairs: usize,
    perft_depth: u32,
    openings: PathBuf,
    openings_count: usize,
    seed: u64,
    quick: bool,
    methods: Vec<MethodRead>,
    calibration: Vec<OddsRead>,
    direct: Option<DirectRead>,
    defects: Vec<String>,
    notes: Vec<String>,
}

#[derive(Deserialize)]
struct PlanRead {
    odds_pairs: usize,
    odds_pairs_tc2: usize,
    direct_pairs: usize,
    estimate_seconds: f64,
    notes: Vec<String>,
}

#[derive(Deserialize)]
struct MethodRead {
    method: String,
    bench_pairs: Vec<RunRead>,
    perft_pairs: Vec<RunRead>,
    identity: Option<IdentityRead>,
}

/// A pair of runs: the JSON keeps one node count, the method's (the
/// baseline's is the same, or a defect says it is not).
#[derive(Deserialize)]
struct RunRead {
    base_nps: u64,
    nps: u64,
    nodes: u64,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum IdentityRead {
    /// `{"baseline": true, "deterministic", "games"}`.
    Baseline { deterministic: bool, games: usize },
    /// `{"identical", "games", "differences"}`.
    Compared {
        games: usize,
        differences: Vec<String>,
    },
}

#[derive(Deserialize)]
struct MatchRead {
    names: [String; 2],
    limits: [String; 2],
    wins: u64,
    draws: u64,
    losses: u64,
    /// LL, LD, WL + DD, WD, WW.
    pentanomial: [u64; 5],
    /// By engine name, then by failure.
    failures: BTreeMap<String, BTreeMap<String, u64>>,
    seconds: f64,
}

#[derive(Deserialize)]
struct OddsRead {
    tc: String,
    factor: f64,
    result: MatchRead,
}

#[derive(Deserialize)]
struct DirectRead {
    slow: String,
    fast: String,
    result: MatchRead,
}

impl MatchRead {
    /// The match as the state keeps it; the JSON counts WL and DD pairs
    /// together, which come back as DD (the statistics see only the sum).
    fn stored(&self) -> StoredMatch {
        let [ll, ld, half, wd, ww] = self.pentanomial;
        let failures = |i: usize| {
            let of = self.failures.get(&self.names[i]);
            Failure::ALL.map(|f| of.and_then(|m| m.get(f.name())).copied().unwrap_or(0))
        };
        StoredMatch {
            names: self.names.clone(),
            limits: self.limits.clone(),
            wdl: [self.wins, self.draws, self.losses],
            pairs: [ll, ld, 0, half, wd, ww],
            failures: [failures(0), failures(1)],
            seconds: self.seconds,
            seed: 0,
        }
    }
}

impl RunRead {
    fn pair(&self) -> RunPair {
        RunPair {
            base: BenchRun {
                nodes: self.nodes,
                nps: self.base_nps,
            },
            method: BenchRun {
                nodes: self.nodes,
                nps: self.nps,
            },
        }
    }
}

impl MethodRead {
    fn result(&self) -> MethodResult {
        let pairs = |runs: &[RunRead]| runs.iter().map(RunRead::pair).collect();
        MethodResult {
            method: self.method.clone(),
            bench: pairs(&self.bench_pairs),
            perft: pairs(&self.perft_pairs),
            identity: match &self.identity {
                None => Identity::NotChecked,
                Some(IdentityRead::Baseline {
                    deterministic,
                    games,
                    ..
                }) => Identity::Baseline {
                    deterministic: *deterministic,
                    games: *games,
                },
                Some(IdentityRead::Compared { games, differences }) => Identity::Compared {
                    games: *games,
                    differences: differences.clone(),
                },
            },
        }
    }
}

impl Results {
    /// The options as far as the JSON records them (not: the methods
    /// asked for, the perft binary, Chess960, the output directory).
    fn options(&self) -> Result<Options, String> {
        let mut o = Options {
            engine: self.engine.clone(),
            baseline: self.baseline.clone(),
            tc: self.tc.parse()?,
            tc2: self.tc2.as_deref().map(str::parse).transpose()?,
            factors: self.factors.clone(),
            factors2: self.factors2.clone(),
            concurrency: self.concurrency,
            timemargin: Duration::from_millis(self.timemargin_ms),
            nodes: self.nodes,
            identity_pairs: self.identity_pairs,
            bench_depth: self.bench_depth,
            bench_pairs: self.bench_pairs,
            perft_depth: self.perft_depth,
            openings: self.openings.clone(),
            seed: self.seed,
            maxmoves: self.maxmoves,
            adjudicate: self.adjudication,
            quick: self.quick,
            ..Options::default()
        };
        match self.budget_hours {
            Some(h) => o.budget_hours = h,
            // No budget: the pairs were all given, as the plan has them.
            None => {
                let plan = self.plan.as_ref();
                o.odds_pairs = Some(plan.map_or(0, |p| p.odds_pairs));
                o.direct_pairs = Some(plan.map_or(0, |p| p.direct_pairs));
            }
        }
        Ok(o)
    }

    fn report(self) -> Result<Report, String> {
        let mut report = Report {
            options: self.options()?,
            engine_name: self.engine_name,
            evaluation: self.evaluation,
            openings: self.openings_count,
            baseline: self.baseline,
            methods: self
                .methods
                .iter()
                .map(|m| MethodResult::new(&m.method))
                .collect(),
            odds: Vec::new(),
            direct: None,
            plan: self.plan.map(|p| Plan {
                odds_pairs: p.odds_pairs,
                odds_pairs_tc2: p.odds_pairs_tc2,
                direct_pairs: p.direct_pairs,
                estimate: Duration::from_secs_f64(p.estimate_seconds.max(0.0)),
                notes: p.notes,
            }),
            defects: Vec::new(),
            notes: Vec::new(),
            date: self.date,
            duration: Duration::ZERO,
            interrupted: self.interrupted,
        };
        let odds = self
            .calibration
            .iter()
            .map(|m| StoredOdds {
                tc: m.tc.clone(),
                factor: m.factor,
                result: m.result.stored(),
            })
            .collect();
        let direct = self.direct.as_ref().map(|d| StoredDirect {
            slow: d.slow.clone(),
            fast: d.fast.clone(),
            result: d.result.stored(),
        });
        let methods = self.methods.iter().map(MethodRead::result).collect();
        State::of_results(
            methods,
            odds,
            direct,
            (self.defects, self.notes),
            self.seconds,
        )
        .restore(&mut report)?;
        Ok(report)
    }
}

/// The report whose `results.json` is `text`: its measurements and
/// settings, the figures derived from them computed again (so
/// [`json()`] of it writes `text` again). An error says why `text` is not
/// such a file.
pub fn read(text: &str) -> Result<Report, String> {
    let results: Results = serde_json::from_str(text)
        .map_err(|e| format!("not the results.json of borrow-experiment: {e}"))?;
    results.report()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::{CLASSICAL_RUN, NNUE_RUN, report};

    #[test]
    fn results_read_back_write_the_same_json() {
        let text = json(&report());
        let back = read(&text).unwrap();
        assert_eq!(json(&back), text);
        assert_eq!(back.evaluation, report().evaluation);
        // The full run of 2026-11-25: every figure computed again is the one it
        // wrote; the hand-crafted evaluation (no net before commit ad6f22c).
        let last = read(CLASSICAL_RUN).unwrap();
        assert_eq!(json(&last), CLASSICAL_RUN);
        assert_eq!(last.evaluation.kind.as_deref(), Some("classical"));
        assert_eq!(last.evaluation.net_sha256, None);
        assert_eq!(last.methods.len(), 12);
        // The run under the net names it, and reads back the same too.
        let net = read(NNUE_RUN).unwrap();
        assert_eq!(json(&net), NNUE_RUN);
        assert_eq!(net.evaluation.kind.as_deref(), Some("nnue"));
        let sha = net.evaluation.net_sha256.unwrap();
        assert!(
            sha.len() == 64 && sha.bytes().all(|b| b.is_ascii_hexdigit()),
            "{sha}"
        );
        assert_eq!(net.methods.len(), 12);
    }

    #[test]
    fn results_without_an_evaluation_have_an_unknown_one() {
        let mut v: Value = serde_json::from_str(&json(&report())).unwrap();
        v.as_object_mut().unwrap().remove("evaluation");
        let back = read(&v.to_string()).unwrap();
        assert_eq!(back.evaluation, Evaluation::default());
        assert_eq!(back.evaluation.to_string(), "unknown");
    }

    #[test]
    fn other_files_are_refused_with_the_reason() {
        let match_json = r#"{"names": ["a", "b"], "games": 10, "wins": 3}"#;
        for (text, why) in [
            ("", "EOF while parsing"),
            ("not json", "at line 1 column 2"),
            ("[1, 2]", "invalid type"),
            (match_json, "missing field `engine`"),
        ] {
            let e = read(text).unwrap_err();
            assert!(
                e.starts_with("not the results.json of borrow-experiment: ") && e.contains(why),
                "{text}: {e}"
            );
        }
    }
}
