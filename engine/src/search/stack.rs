//! The search stack: what the search keeps at each ply of the path from
//! the root to the node it is searching, one [`Frame`] a ply (Stockfish's
//! `Stack`, Reckless's `stack.rs`). The net's accumulators, larger and
//! used only with the net, are kept beside it (`nnue::AccumulatorStack`),
//! and the principal variations in their own triangle (`Worker::pv`).

use movegen::Move;

use nnue::score::MAX_PLY;

use super::history::NO_CONT;

/// What the search keeps at one ply.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The move played from this ply (null for a null move).
    pub played: Move,
    /// The continuation-history key of that move.
    pub cont_key: usize,
    /// The move a singular-extension search leaves out here (null in an
    /// ordinary search).
    pub excluded: Move,
    /// How many double extensions lie on the path to this ply.
    pub double_extensions: u8,
    /// The static evaluation here (`-INFINITY` in check).
    pub eval: i32,
}

impl Frame {
    /// A ply not reached yet.
    const EMPTY: Frame = Frame {
        played: Move::NULL,
        cont_key: NO_CONT,
        excluded: Move::NULL,
        double_extensions: 0,
        eval: 0,
    };
}

/// A frame for every ply the search can reach, and one beyond.
pub type Stack = [Frame; MAX_PLY + 2];

/// A stack of empty frames.
pub const fn new_stack() -> Stack {
    [Frame::EMPTY; MAX_PLY + 2]
}
