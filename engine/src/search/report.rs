//! What the search answers: a [`Report`] of each line to a [`Reporter`]
//! while it runs, and a [`SearchResult`] at the end.

use std::time::Duration;

use movegen::Move;

use crate::tt::Bound;
use nnue::score::Score;

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
pub struct SearchResult {
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
