//! The experiment's results as JSON (`results.json`): every measured
//! figure with its interval, for scripts.

use serde_json::{Value, json};

use crate::model::SpeedRatio;
use crate::{Identity, MethodResult, Report};
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
