//! The tests' reports: a small one of every kind of result (four methods,
//! one with too few runs for a ratio, one whose games differ; two
//! time-odds points, a direct check of too few games, a defect and a
//! note), and the committed full runs' `results.json`.

use std::time::Duration;

use crate::speed::RunPair;
use crate::{BenchRun, Direct, Evaluation, Identity, MethodResult, OddsMatch, Options, Report};
use matches::clock::TimeControl;
use matches::stats::{Pairs, Trinomial, Wdl};
use matches::tournament::{MatchResult, StopReason};

/// The full run with the hand-crafted evaluation (2026-11-25), as
/// committed.
pub(crate) const CLASSICAL_RUN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../records/experiment/2026-11-25-classical/results.json"
));

/// The full run under the net (2026-11-28), as committed.
pub(crate) const NNUE_RUN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../records/experiment/2026-11-28-nnue/results.json"
));

/// A match of `pairs` pairs, each scored as given (repeated in turn).
pub(crate) fn played(pairs_of: &[(Wdl, Wdl)], n: usize) -> MatchResult {
    let mut pairs = Pairs::default();
    let mut wdl = Trinomial::default();
    for i in 0..n {
        let (a, b) = pairs_of[i % pairs_of.len()];
        pairs.add(a, b);
        wdl.add(a);
        wdl.add(b);
    }
    MatchResult {
        names: ["a".into(), "b".into()],
        limits: ["5+0.05".into(), "5+0.05".into()],
        wdl,
        pairs,
        failures: [[0; 4]; 2],
        terminations: Default::default(),
        llr: None,
        stop: StopReason::Completed,
        duration: Duration::from_secs(60),
        seed: 1,
        games_per_round: 2,
        peak_memory_kib: [None; 2],
    }
}

/// Five pairs of runs at `ratio` of the baseline's speed, with a
/// little noise.
pub(crate) fn runs(ratio: f64) -> Vec<RunPair> {
    [1.0, 1.1, 0.9, 1.05, 0.95]
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let base = (1_000_000.0 * k) as u64;
            let noise = 1.0 + 0.01 * (i as f64 - 2.0);
            RunPair {
                base: BenchRun {
                    nodes: 1000,
                    nps: base,
                },
                method: BenchRun {
                    nodes: 1000,
                    nps: (base as f64 * ratio * noise) as u64,
                },
            }
        })
        .collect()
}

pub(crate) fn report() -> Report {
    use Wdl::*;
    let tc: TimeControl = "5+0.05".parse().unwrap();
    let method = |name: &str, bench: Vec<RunPair>, identity| MethodResult {
        method: name.into(),
        perft: bench.clone(),
        bench,
        identity,
    };
    Report {
        options: Options::default(),
        engine_name: "Borrow <test>".into(),
        evaluation: Evaluation {
            kind: Some("nnue".into()),
            net_sha256: Some(
                "cf507a34a16e204228bdcaa48df4330c575c20e427c8135f7f17415620f9d597".into(),
            ),
        },
        openings: 3000,
        baseline: "magic".into(),
        methods: vec![
            method(
                "od",
                runs(0.9),
                Identity::Compared {
                    games: 8,
                    differences: Vec::new(),
                },
            ),
            method(
                "magic",
                Vec::new(),
                Identity::Baseline {
                    deterministic: true,
                    games: 8,
                },
            ),
            method(
                "reference",
                runs(0.25),
                Identity::Compared {
                    games: 8,
                    differences: vec!["opening 1: engine move 3 is a instead of b".into()],
                },
            ),
            method("hq", runs(1.0)[..3].to_vec(), Identity::NotChecked),
        ],
        odds: vec![
            OddsMatch {
                tc,
                factor: 0.5,
                result: played(&[(Loss, Draw), (Win, Loss), (Loss, Loss), (Draw, Draw)], 40),
            },
            OddsMatch {
                tc,
                factor: 2.0,
                result: played(&[(Win, Draw), (Win, Loss), (Win, Win), (Draw, Draw)], 40),
            },
        ],
        direct: Some(Direct {
            slow: "reference".into(),
            fast: "od".into(),
            result: played(&[(Loss, Draw)], 3),
        }),
        plan: None,
        defects: vec!["nodes=2000: not identical: \"quoted\"".into()],
        notes: vec!["tc=5+0.05: magic lost 1 game(s) by time losses".into()],
        date: "2026.01.01".into(),
        duration: Duration::from_secs(125),
        interrupted: false,
    }
}
