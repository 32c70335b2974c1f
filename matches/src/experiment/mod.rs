//! The attack-method experiment behind `borrow-experiment`: does the choice
//! of sliding-attack method change the engine's strength, and only through
//! its speed?
//!
//! With one `borrow` binary and its `AttackMethod` option, for each method:
//!
//! 1. **Speed**: `borrow bench --method M` (a fixed-depth search), run a few
//!    times, methods interleaved; the median nodes per second. The node
//!    count is the same for every method and run, or that is a defect.
//! 2. **Identity**: games at a fixed node count, the method against the
//!    baseline method, from the same openings as the baseline against
//!    itself. The search does not depend on the method, so every game must
//!    be move for move (and score for score) the baseline's game from the
//!    same opening and colour, or that is a defect. The baseline's games are
//!    played twice: the engine must be deterministic for the check to mean
//!    anything.
//! 3. **Strength**: game pairs at a time control, the method against the
//!    baseline, from a balanced opening suite in a seeded random order (the
//!    same openings for every method); Elo and nElo with 95% intervals from
//!    the pentanomial counts.
//!
//! The results are printed as a table and written as JSON, Markdown and an
//! SVG chart ([`output`]) to the output directory. [`sample_openings`]
//! picks the suite the experiment ships with.
//!
//! - `args`: the command line and [`Options`];
//! - `probe`: the engine's `uci` answer and its `bench` speed;
//! - `identity`: the fixed-node identity check ([`Identity`]);
//! - `runner`: the matches, in order ([`run`]);
//! - `results`: what was measured ([`Report`]);
//! - [`model`]: the calibration model that turns speed ratios into Elo;
//! - [`output`]: the table, JSON, Markdown and chart;
//! - `sample`: `sample-openings`.

mod args;
mod identity;
pub mod model;
pub mod output;
mod probe;
mod results;
mod runner;
mod sample;

pub use args::{
    DEFAULT_BASELINE, DEFAULT_ENGINE, DEFAULT_OPENINGS, DEFAULT_OUT, Invocation, Options,
    SLOW_REFERENCE, SampleOptions, parse_args,
};
pub use identity::{GameLine, GameLines, Identity, Ply, first_difference};
pub use probe::{BenchRun, EngineInfo, bench, median, parse_bench, parse_uci_answer, query_engine};
pub use results::{MethodResult, Report, SetupError};
use runner::elapsed;
pub use runner::run;
pub use sample::{run_sample, sample_openings};
