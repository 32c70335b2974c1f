//! The score scale of the search ([`INFINITY`], [`MATE`], [`MATE_BOUND`])
//! and [`Score`], a score as a user reads it.

/// Larger than any score.
pub const INFINITY: i32 = 32_000;
// The mate scale, which the training data shares: `MATE - n` is mate in
// `n` plies, and scores at or beyond `MATE_BOUND` are mates.
pub use nnue::score::{MATE, MATE_BOUND};

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
