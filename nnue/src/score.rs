//! The score scale of Borrow's searches, which the training data shares: a
//! mate is a score at or beyond [`MATE_BOUND`], and no trainer learns from
//! one.

/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
