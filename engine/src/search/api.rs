//! What the search is asked and what it answers: [`Limits`] in, [`Report`]s
//! and an [`Outcome`] out, and the score scale.

use std::time::Duration;

use movegen::Move;

use super::strength::Strength;
use crate::tt::Bound;

/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;

/// What to search for, and for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exact with one thread).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Do not start a new iteration after this long.
    pub soft_time: Option<Duration>,
    /// Stop at once after this long.
    pub hard_time: Option<Duration>,
    /// Search until told to stop (also while pondering).
    pub infinite: bool,
    /// Search only these root moves (all if empty).
    pub searchmoves: Vec<Move>,
    /// How many best lines to report.
    pub multipv: usize,
    /// Endgame tablebases to probe, if any.
    pub syzygy: Option<crate::tablebase::Tables>,
    /// Play below full strength: the move is chosen among the best lines
    /// (see [`Strength`]). The caller sets `nodes` and `multipv` to its
    /// budget and line count.
    pub strength: Option<Strength>,
    /// The static evaluation: the hand-crafted one or a net.
    pub evaluator: crate::evaluator::Evaluator,
}

/// A score as a user reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

// Tablebase scores (`crate::tablebase::TB_WIN`) lie between evaluations and
// mates and read as centipawns, as Stockfish's do (`cp 19990`: a tablebase
// win 10 plies away).

impl Score {
    /// The user's view of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// One line of progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1 for the best line.
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// `Some(Bound::Lower)` / `Some(Bound::Upper)` when the aspiration window
    /// failed and the score is only a bound.
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
    /// Tablebase probes that answered, all threads.
    pub tbhits: u64,
}

/// Receives the search's progress.
pub trait Reporter: Sync {
    /// A finished (or bound-changing) line.
    fn report(&self, report: &Report);
}

/// A reporter that says nothing.
pub struct Silent;
impl Reporter for Silent {
    fn report(&self, _: &Report) {}
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play, or the null move when there is none.
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The best line's score.
    pub score: i32,
    /// Deepest completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}
