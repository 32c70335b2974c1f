//! The state of a run, written to `state.json` in the output directory
//! after every step, so that `--resume DIR` continues where the run stopped
//! and adds games to the ones it has.

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::probe::Evaluation;
use crate::results::{Direct, MethodResult, OddsMatch, Report};
use matches::stats::{Pairs, Trinomial};
use matches::tournament::{MatchResult, StopReason};

/// The file's name in the output directory.
pub const FILE: &str = "state.json";

/// The format's version: a state of another version is refused.
const VERSION: u32 = 1;

/// A match's counts, as kept (also what `results.json` gives back,
/// [`crate::json::read`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredMatch {
    pub(crate) names: [String; 2],
    pub(crate) limits: [String; 2],
    /// Wins, draws, losses of the first engine.
    pub(crate) wdl: [u64; 3],
    /// Pairs: LL, LD, WL, DD, WD, WW.
    pub(crate) pairs: [u64; 6],
    /// Each engine's failures, in the order of `Failure::ALL`.
    pub(crate) failures: [[u64; 4]; 2],
    pub(crate) seconds: f64,
    pub(crate) seed: u64,
}

impl StoredMatch {
    fn of(r: &MatchResult) -> StoredMatch {
        let p = &r.pairs;
        StoredMatch {
            names: r.names.clone(),
            limits: r.limits.clone(),
            wdl: [r.wdl.wins, r.wdl.draws, r.wdl.losses],
            pairs: [p.ll, p.ld, p.wl, p.dd, p.wd, p.ww],
            failures: r.failures,
            seconds: r.duration.as_secs_f64(),
            seed: r.seed,
        }
    }

    pub(crate) fn result(&self) -> MatchResult {
        let [wins, draws, losses] = self.wdl;
        let [ll, ld, wl, dd, wd, ww] = self.pairs;
        MatchResult {
            names: self.names.clone(),
            limits: self.limits.clone(),
            wdl: Trinomial {
                wins,
                draws,
                losses,
            },
            pairs: Pairs {
                ll,
                ld,
                wl,
                dd,
                wd,
                ww,
            },
            failures: self.failures,
            terminations: Default::default(),
            llr: None,
            stop: StopReason::Completed,
            duration: Duration::from_secs_f64(self.seconds.max(0.0)),
            seed: self.seed,
            games_per_round: 2,
            peak_memory_kib: [None; 2],
        }
    }
}

/// A time-odds match, as kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredOdds {
    pub(crate) tc: String,
    pub(crate) factor: f64,
    pub(crate) result: StoredMatch,
}

/// The direct check, as kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredDirect {
    pub(crate) slow: String,
    pub(crate) fast: String,
    pub(crate) result: StoredMatch,
}

/// What a run has done so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct State {
    version: u32,
    /// The arguments the run was started with.
    pub args: Vec<String>,
    methods: Vec<MethodResult>,
    /// Whether the identity check is complete.
    pub identity_done: bool,
    odds: Vec<StoredOdds>,
    direct: Option<StoredDirect>,
    defects: Vec<String>,
    notes: Vec<String>,
    seconds: f64,
    /// The evaluation measured; absent from the states of runs started
    /// before it was recorded, which continue with the engine's.
    #[serde(default)]
    evaluation: Option<Evaluation>,
}

impl State {
    /// A state of these results (with no arguments, the identity check
    /// done, no evaluation to hold a resumed engine to), for
    /// [`State::restore`] to put into a report: how `results.json` is read
    /// back ([`crate::json::read`]).
    pub(crate) fn of_results(
        methods: Vec<MethodResult>,
        odds: Vec<StoredOdds>,
        direct: Option<StoredDirect>,
        (defects, notes): (Vec<String>, Vec<String>),
        seconds: f64,
    ) -> State {
        State {
            version: VERSION,
            args: Vec::new(),
            methods,
            identity_done: true,
            odds,
            direct,
            defects,
            notes,
            seconds,
            evaluation: None,
        }
    }

    /// The state of `report`.
    pub fn of(report: &Report, identity_done: bool) -> State {
        State {
            version: VERSION,
            args: report.options.args.clone(),
            methods: report.methods.clone(),
            identity_done,
            odds: report
                .odds
                .iter()
                .map(|m| StoredOdds {
                    tc: m.tc.to_string(),
                    factor: m.factor,
                    result: StoredMatch::of(&m.result),
                })
                .collect(),
            direct: report.direct.as_ref().map(|d| StoredDirect {
                slow: d.slow.clone(),
                fast: d.fast.clone(),
                result: StoredMatch::of(&d.result),
            }),
            defects: report.defects.clone(),
            notes: report.notes.clone(),
            seconds: report.duration.as_secs_f64(),
            evaluation: Some(report.evaluation.clone()),
        }
    }

    /// Puts what the state holds into `report` (whose options, engine and
    /// methods come from the run being continued). An engine whose
    /// evaluation is not the one the run measured is refused: the games
    /// and runs of the two would be mixed.
    pub fn restore(&self, report: &mut Report) -> Result<(), String> {
        if let Some(e) = &self.evaluation
            && *e != report.evaluation
        {
            return Err(format!(
                "the run measured {e}, the engine now has {}: continue it with the engine it \
                 started with, or start a new run",
                report.evaluation
            ));
        }
        for m in &self.methods {
            if let Some(r) = report.methods.iter_mut().find(|r| r.method == m.method) {
                *r = m.clone();
            }
        }
        report.odds = self
            .odds
            .iter()
            .map(|o| {
                Ok(OddsMatch {
                    tc: o.tc.parse()?,
                    factor: o.factor,
                    result: o.result.result(),
                })
            })
            .collect::<Result<_, String>>()?;
        report.direct = self.direct.as_ref().map(|d| Direct {
            slow: d.slow.clone(),
            fast: d.fast.clone(),
            result: d.result.result(),
        });
        report.defects = self.defects.clone();
        report.notes = self.notes.clone();
        report.duration = Duration::from_secs_f64(self.seconds.max(0.0));
        Ok(())
    }

    /// Writes the state into `dir`, through a temporary file so that a
    /// crash never leaves half a state.
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        let tmp = dir.join(format!("{FILE}.tmp"));
        std::fs::write(&tmp, text)?;
        std::fs::rename(tmp, dir.join(FILE))
    }

    /// Reads the state in `dir`.
    pub fn load(dir: &Path) -> Result<State, String> {
        let path = dir.join(FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "{}: {e} (is {} the --out of an earlier run?)",
                path.display(),
                dir.display()
            )
        })?;
        let state: State =
            serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        if state.version != VERSION {
            return Err(format!(
                "{}: a state of version {}, this build reads version {VERSION}",
                path.display(),
                state.version
            ));
        }
        Ok(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use matches::stats::Wdl;

    #[test]
    fn a_match_survives_the_round_trip() {
        let mut pairs = Pairs::default();
        pairs.add(Wdl::Win, Wdl::Draw);
        pairs.add(Wdl::Loss, Wdl::Loss);
        let r = MatchResult {
            names: ["a".into(), "b".into()],
            limits: ["2.5+0.025".into(), "5+0.05".into()],
            wdl: Trinomial {
                wins: 1,
                draws: 1,
                losses: 2,
            },
            pairs,
            failures: [[0, 1, 0, 0], [0; 4]],
            terminations: Default::default(),
            llr: None,
            stop: StopReason::Completed,
            duration: Duration::from_millis(1500),
            seed: 9,
            games_per_round: 2,
            peak_memory_kib: [None; 2],
        };
        let stored = StoredMatch::of(&r);
        let text = serde_json::to_string(&stored).unwrap();
        let back: StoredMatch = serde_json::from_str(&text).unwrap();
        assert_eq!(back.result(), r);
    }

    #[test]
    fn the_evaluation_is_kept_and_a_resumed_engine_must_have_it() {
        let report = crate::fixture::report();
        let text = serde_json::to_string(&State::of(&report, true)).unwrap();
        let state: State = serde_json::from_str(&text).unwrap();
        assert_eq!(state.evaluation.as_ref(), Some(&report.evaluation));
        let mut into = report.clone();
        state.restore(&mut into).unwrap();
        assert_eq!(into, report);
        // Another evaluation (the hand-crafted one) is refused.
        let mut other = report.clone();
        other.evaluation.kind = Some("classical".into());
        let e = state.restore(&mut other).unwrap_err();
        assert!(
            e.contains("the run measured nnue (net sha256 cf507a34")
                && e.contains("the engine now has classical"),
            "{e}"
        );
        // A state from before the evaluation was kept loads, and continues
        // with the engine's.
        let mut old: serde_json::Value = serde_json::from_str(&text).unwrap();
        old.as_object_mut().unwrap().remove("evaluation");
        let old: State = serde_json::from_str(&old.to_string()).unwrap();
        assert_eq!(old.evaluation, None);
        old.restore(&mut other).unwrap();
        assert_eq!(other.evaluation.kind.as_deref(), Some("classical"));
    }

    #[test]
    fn a_missing_or_corrupt_state_is_an_error() {
        let dir = std::env::temp_dir().join(format!("exp-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let e = State::load(&dir).unwrap_err();
        assert!(e.contains("earlier run"), "{e}");
        std::fs::write(dir.join(FILE), "{not json").unwrap();
        assert!(State::load(&dir).is_err());
        std::fs::write(dir.join(FILE), r#"{"version": 99}"#).unwrap();
        assert!(State::load(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
