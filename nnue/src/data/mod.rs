//! The training data: labelled positions as `borrow datagen` and
//! `borrow convert` write them and `borrow-train` and `borrow-tune` read
//! them.
//!
//! - [`marlinformat`]: one position a 32-byte record, or a `FEN | score |
//!   result` text line; [`Format`], which of the three a file holds.
//! - [`viriformat`]: whole games, 4 bytes a ply (the field's format).
//! - [`read`]: the readers of every format, plain or gzip text.
//! - [`trainable`]: which positions a trainer learns from.

pub mod marlinformat;
pub mod read;
pub mod viriformat;

pub use marlinformat::{Format, Labelled};

use movegen::{Move, Position};

use crate::score::MATE_BOUND;

/// Whether a searched position teaches a trainer its score: no check, a
/// quiet best move (the score is the position's worth, not a capture's
/// outcome under way) and no mate score. `score` from either side.
pub fn trainable(pos: &Position, best: Move, score: i32) -> bool {
    !pos.is_check() && !pos.is_noisy(best) && score.abs() < MATE_BOUND
}
