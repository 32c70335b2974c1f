//! What the experiment measured: per method, and in all.

use super::args::Options;
use super::identity::Identity;
use super::probe::{BenchRun, median};
use crate::tournament::MatchResult;
use std::time::Duration;

/// Everything measured for one method.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodResult {
    /// The method.
    pub method: String,
    /// Its bench runs, in order.
    pub bench: Vec<BenchRun>,
    /// Its timed match against the baseline (`None`: not played).
    pub timed: Option<MatchResult>,
    /// The identity check.
    pub identity: Identity,
}

impl MethodResult {
    /// The median bench speed.
    pub fn nps(&self) -> u64 {
        median(&self.bench.iter().map(|b| b.nps).collect::<Vec<_>>())
    }

    /// The bench node count (of the first run).
    pub fn bench_nodes(&self) -> Option<u64> {
        self.bench.first().map(|b| b.nodes)
    }
}

/// The whole experiment's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The options it ran with.
    pub options: Options,
    /// The engine's `id name`.
    pub engine_name: String,
    /// The opening suite's usable positions.
    pub openings: usize,
    /// The baseline method.
    pub baseline: String,
    /// One entry per method, in the engine's order.
    pub methods: Vec<MethodResult>,
    /// Everything that should not have happened: bench node counts that
    /// differ, fixed-node games that differ, crashes, illegal moves, stalls.
    pub defects: Vec<String>,
    /// Time losses: possible on a loaded machine at short time controls,
    /// so reported without counting as defects.
    pub notes: Vec<String>,
    /// The date (`YYYY.MM.DD`, UTC).
    pub date: String,
    /// Wall-clock time.
    pub duration: Duration,
    /// Whether Ctrl-C cut it short.
    pub interrupted: bool,
}

impl Report {
    pub(super) fn add_failures(&mut self, (defects, notes): (Vec<String>, Vec<String>)) {
        self.defects.extend(defects);
        self.notes.extend(notes);
    }

    /// The baseline's entry.
    pub fn baseline(&self) -> Option<&MethodResult> {
        self.methods.iter().find(|m| m.method == self.baseline)
    }
}

/// Why the experiment could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
