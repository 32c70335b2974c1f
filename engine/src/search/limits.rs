//! What the search is asked: [`Limits`].

use std::time::Duration;

use movegen::Move;

use super::strength::Strength;

/// What to search for, and for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exact with one thread).
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this many nodes: the iteration
    /// that passes them is finished (within `nodes`, the hard cap).
    pub soft_nodes: Option<u64>,
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
