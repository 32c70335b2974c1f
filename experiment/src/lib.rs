//! # experiment
//!
//! The attack-method experiment behind `borrow-experiment`: what does the
//! choice of sliding-attack method do to the engine's strength, with an
//! answer precise to a few Elo? It is the project's study, built on the
//! match runner (`matches`) and the engine (its bench depths; `borrow-uci`,
//! the engine's UCI loop as a binary of this package, is the real engine of
//! its tests).
//!
//! A method can change the strength only through the speed: the search does
//! not depend on it. So the experiment measures the speed precisely and
//! converts it to Elo by a calibration, instead of playing the ten thousand
//! games per method a direct answer of ±8 Elo would need:
//!
//! 1. **Speed**: `borrow bench` (and `perft`) runs of each method, each
//!    paired with a run of the baseline just before it, pinned to one core;
//!    the ratio with its 95% interval from the pairs' log ratios. Node counts
//!    must be the same for every method and run.
//! 2. **Identity**: fixed-node games of each method against the baseline
//!    must be move for move the baseline's own (played twice: it must be
//!    deterministic).
//! 3. **Calibration**: time-odds matches of the baseline against itself
//!    (time factors 0.5 … 2) give the Elo of a doubling of time, the slope
//!    `s` of Elo = s · log2 f, at the experiment's time control and at a
//!    second, longer one.
//! 4. **Prediction**: each method's Elo effect, s · log2(speed ratio), its
//!    interval carrying both errors (delta method, [`model`]).
//! 5. **Direct check**: the slowest method against the fastest, played out;
//!    the report says whether the prediction lies inside the measured
//!    interval.
//!
//! The budget (`--budget`) is shared out by [`plan`]; the state is saved
//! after every step for `--resume`. The results are printed as a table and
//! written as JSON, Markdown and an SVG plot ([`output`], [`json`], [`plot`]).
//!
//! - `args`: the command line and [`Options`];
//! - `probe`: the engine's `uci` and `--version` answers (its methods and
//!   [`Evaluation`]), reading a bench line;
//! - `speed`: bench and perft run pairs, and their ratio;
//! - `plan`: the budget shared out among the games;
//! - `state`: the saved state of a run, for `--resume`;
//! - `identity`: the fixed-node identity check ([`Identity`]);
//! - `runner`: the phases, in order ([`run`]), each in a file of its own
//!   below it (`runner/`: `speed_runs`, `identity_games`, `timed`, and
//!   `matchup`, one match);
//! - `results`: what was measured ([`Report`]);
//! - [`model`]: the calibration model that turns speed ratios into Elo;
//! - [`output`]: the tables (terminal and Markdown), and writing every file;
//! - [`json`] writes `results.json`, and reads it back into a [`Report`];
//! - [`plot`] draws the chart, `results.svg`;
//! - [`text`]: how numbers are written in the tables and the plot;
//! - [`compare`]: two runs side by side, from their `results.json`;
//! - `setup`: what is settled before anything runs (engine, methods,
//!   openings, plan, resume);
//! - `sample`: `sample-openings`;
//! - `fixture` (tests only): the tests' reports.

#![deny(missing_docs)]

mod args;
pub mod compare;
#[cfg(test)]
mod fixture;
mod identity;
pub mod json;
pub mod model;
pub mod output;
pub mod plan;
pub mod plot;
mod probe;
mod results;
mod runner;
mod sample;
mod setup;
pub mod speed;
mod state;
pub mod text;

pub use args::{
    DEFAULT_BASELINE, DEFAULT_ENGINE, DEFAULT_OPENINGS, DEFAULT_OUT, Invocation, Options,
    SampleOptions, parse_args,
};
pub use identity::{GameLine, GameLines, Identity, Ply, first_difference};
pub use probe::{
    BenchRun, EngineInfo, Evaluation, median, parse_bench, parse_net_sha256, parse_uci_answer,
    query_engine,
};
pub use results::{Direct, MethodResult, OddsMatch, Report, SetupError, merged};
use runner::elapsed;
pub use runner::run;
pub use sample::{run_sample, sample_openings};
pub use state::State;
