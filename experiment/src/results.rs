//! What the experiment measured, per method and in all, and what follows
//! from it: each method's speed ratio, the calibration slopes, the
//! predicted Elo effects and the direct check's verdict.

use crate::args::Options;
use crate::identity::Identity;
use crate::model::{OddsPoint, Slope, SpeedRatio, fit_slope, predicted_elo};
use crate::plan::Plan;
use crate::probe::{Evaluation, median};
use crate::speed::{RunPair, ratio};
use matches::clock::TimeControl;
use matches::report::summary;
use matches::stats::{Interval, Pairs, Trinomial};
use matches::tournament::MatchResult;
use std::time::Duration;

/// Everything measured for one method.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MethodResult {
    /// The method.
    pub method: String,
    /// Its bench runs, each with the baseline's run just before it (empty
    /// for the baseline).
    pub bench: Vec<RunPair>,
    /// Likewise its perft runs.
    pub perft: Vec<RunPair>,
    /// The identity check.
    pub identity: Identity,
}

impl MethodResult {
    /// A method not measured yet.
    pub fn new(method: &str) -> MethodResult {
        MethodResult {
            method: method.to_owned(),
            bench: Vec::new(),
            perft: Vec::new(),
            identity: Identity::NotChecked,
        }
    }

    /// The median bench speed of its own runs.
    pub fn nps(&self) -> Option<u64> {
        (!self.bench.is_empty())
            .then(|| median(&self.bench.iter().map(|p| p.method.nps).collect::<Vec<_>>()))
    }

    /// The bench node count (of the first run).
    pub fn bench_nodes(&self) -> Option<u64> {
        self.bench.first().map(|p| p.method.nodes)
    }

    /// Its search speed relative to the baseline's.
    pub fn speed(&self) -> Option<SpeedRatio> {
        ratio(&self.bench)
    }

    /// Its perft speed relative to the baseline's.
    pub fn perft_speed(&self) -> Option<SpeedRatio> {
        ratio(&self.perft)
    }
}

/// One time-odds match: the baseline with `factor` times the time against
/// itself with the time control's time.
#[derive(Clone, Debug, PartialEq)]
pub struct OddsMatch {
    /// The time control of the engine at factor 1.
    pub tc: TimeControl,
    /// The first engine's time factor.
    pub factor: f64,
    /// The games, first engine's view.
    pub result: MatchResult,
}

/// The direct check: the slowest method against the fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct Direct {
    /// The slowest method (first engine).
    pub slow: String,
    /// The fastest.
    pub fast: String,
    /// The games, the slow method's view.
    pub result: MatchResult,
}

/// The whole experiment's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The options it ran with.
    pub options: Options,
    /// The engine's `id name`.
    pub engine_name: String,
    /// The evaluation measured: the engine's default and its net.
    pub evaluation: Evaluation,
    /// The opening suite's usable positions.
    pub openings: usize,
    /// The baseline method.
    pub baseline: String,
    /// One entry per method, in the engine's order.
    pub methods: Vec<MethodResult>,
    /// The calibration matches, in the order played.
    pub odds: Vec<OddsMatch>,
    /// The direct check, once played.
    pub direct: Option<Direct>,
    /// How the budget was shared out.
    pub plan: Option<Plan>,
    /// Everything that should not have happened: bench node counts that
    /// differ, fixed-node games that differ, crashes, illegal moves, stalls.
    pub defects: Vec<String>,
    /// Time losses (possible on a loaded machine at short time controls)
    /// and what the plan left out: reported without counting as defects.
    pub notes: Vec<String>,
    /// The date (`YYYY.MM.DD`, UTC).
    pub date: String,
    /// Wall-clock time, all sessions of a resumed run together.
    pub duration: Duration,
    /// Whether Ctrl-C cut it short.
    pub interrupted: bool,
}

impl Report {
    /// The time controls of the calibration, the experiment's first.
    pub fn calibration_tcs(&self) -> Vec<TimeControl> {
        let mut tcs = vec![self.options.tc];
        for m in &self.odds {
            if !tcs.contains(&m.tc) {
                tcs.push(m.tc);
            }
        }
        tcs
    }

    pub(super) fn add_failures(&mut self, (defects, notes): (Vec<String>, Vec<String>)) {
        self.defects.extend(defects);
        self.notes.extend(notes);
    }

    /// The baseline's median bench speed, from the runs paired with the
    /// other methods'.
    pub fn baseline_nps(&self) -> Option<u64> {
        let runs: Vec<u64> = self
            .methods
            .iter()
            .flat_map(|m| m.bench.iter().map(|p| p.base.nps))
            .collect();
        (!runs.is_empty()).then(|| median(&runs))
    }

    /// The calibration points at `tc` that have an Elo interval.
    pub fn points(&self, tc: &TimeControl) -> Vec<OddsPoint> {
        self.odds
            .iter()
            .filter(|m| m.tc == *tc)
            .filter_map(|m| {
                summary(&m.result).elo.map(|elo| OddsPoint {
                    factor: m.factor,
                    elo,
                })
            })
            .collect()
    }

    /// The calibration slope at `tc`.
    pub fn slope(&self, tc: &TimeControl) -> Option<Slope> {
        fit_slope(&self.points(tc))
    }

    /// The predicted Elo effect of method `m` against the baseline, from
    /// the slope at the experiment's time control.
    pub fn predicted(&self, m: &MethodResult) -> Option<Interval> {
        if m.method == self.baseline {
            return None;
        }
        Some(predicted_elo(&self.slope(&self.options.tc)?, &m.speed()?))
    }

    /// The speed ratio of `a` to `b` (either may be the baseline): the
    /// difference of their log ratios to the baseline, the two intervals
    /// combined as independent.
    pub fn speed_between(&self, a: &str, b: &str) -> Option<SpeedRatio> {
        let of = |name: &str| -> Option<SpeedRatio> {
            if name == self.baseline {
                return Some(SpeedRatio {
                    log2: 0.0,
                    half_width: 0.0,
                    pairs: usize::MAX,
                });
            }
            self.methods.iter().find(|m| m.method == name)?.speed()
        };
        let (x, y) = (of(a)?, of(b)?);
        Some(SpeedRatio {
            log2: x.log2 - y.log2,
            half_width: x.half_width.hypot(y.half_width),
            pairs: x.pairs.min(y.pairs),
        })
    }

    /// The direct check's prediction: the slow method's Elo against the
    /// fast one's.
    pub fn direct_predicted(&self) -> Option<Interval> {
        let d = self.direct.as_ref()?;
        let speed = self.speed_between(&d.slow, &d.fast)?;
        Some(predicted_elo(&self.slope(&self.options.tc)?, &speed))
    }

    /// The direct check's measured Elo.
    pub fn direct_measured(&self) -> Option<Interval> {
        summary(&self.direct.as_ref()?.result).elo
    }

    /// Whether the prediction lies inside the measured interval (`None`
    /// while either is missing).
    pub fn direct_agrees(&self) -> Option<bool> {
        let (p, m) = (self.direct_predicted()?, self.direct_measured()?);
        Some(m.lower <= p.value && p.value <= m.upper)
    }
}

/// `a` with `b`'s games added: a match continued in a later session.
pub fn merged(a: &MatchResult, b: &MatchResult) -> MatchResult {
    let mut r = a.clone();
    r.wdl = Trinomial {
        wins: a.wdl.wins + b.wdl.wins,
        draws: a.wdl.draws + b.wdl.draws,
        losses: a.wdl.losses + b.wdl.losses,
    };
    r.pairs = Pairs {
        ll: a.pairs.ll + b.pairs.ll,
        ld: a.pairs.ld + b.pairs.ld,
        wl: a.pairs.wl + b.pairs.wl,
        dd: a.pairs.dd + b.pairs.dd,
        wd: a.pairs.wd + b.pairs.wd,
        ww: a.pairs.ww + b.pairs.ww,
    };
    for (x, y) in r.failures.iter_mut().zip(&b.failures) {
        for (p, q) in x.iter_mut().zip(y) {
            *p += q;
        }
    }
    for (k, v) in &b.terminations {
        *r.terminations.entry(k).or_default() += v;
    }
    r.duration = a.duration + b.duration;
    r.stop = b.stop.clone();
    r
}

/// Why the experiment could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
