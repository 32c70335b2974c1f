//! The learned evaluation: an efficiently updatable neural network (NNUE).
//!
//! The architecture is the simplest one the field trains first,
//! `(768 → HIDDEN) × 2 → 1`:
//!
//! - 768 inputs, one for each (colour, role, square) seen from one side
//!   ([`feature`]): the side's own pieces first, its board flipped
//!   vertically when the side is Black;
//! - one hidden layer of [`HIDDEN`] neurons with shared weights, computed
//!   twice, once from each side's point of view (the two
//!   [`Accumulator`] halves, kept up to date move by move by the search);
//! - the side to move's half and then the other's, each through SCReLU
//!   (`clamp(x, 0, 1)²`), into one output neuron.
//!
//! The net file ([`Network::from_bytes`]) is the quantised layout the
//! bullet trainer writes for this architecture, so a net trained with
//! bullet on a GPU loads as well as one from `borrow-train`: little-endian
//! `i16`s, the first layer's weights (feature by feature), its biases, the
//! output weights (side to move's half first), the output bias, then zeros
//! up to a multiple of 64 bytes. The first layer is scaled by [`QA`], the
//! output weights by [`QB`], the output bias by `QA × QB`; the output times
//! [`SCALE`] is centipawns.
//!
//! Every step is integer arithmetic, so the score is the same whatever the
//! attack method, the order of the additions or the SIMD width the compiler
//! chose.
//!
//! - `network`: the weights, the file format and the output layer.
//! - `accumulator`: the hidden layer, refreshed or updated by the moves.

mod accumulator;
mod network;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use network::{NetError, Network};

use attacks::{Color, Square};
use movegen::Role;

/// The inputs: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// The neurons of the hidden layer.
pub const HIDDEN: usize = 128;
/// The hidden layer's quantisation: a float weight of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation: a float weight of 1.0 is `QB`.
pub const QB: i32 = 64;
/// The net's output times `SCALE` is centipawns.
pub const SCALE: i32 = 400;

/// The input index of a `color` `role` on `sq`, seen from `side`: the
/// side's own pieces in `0..384`, the other's in `384..768`, and Black's
/// view flipped vertically, so that both sides see their pieces as White
/// sees White's.
#[inline(always)]
pub const fn feature(side: Color, color: Color, role: Role, sq: Square) -> usize {
    let theirs = (color as usize) ^ (side as usize);
    let sq = match side {
        Color::White => sq.index(),
        Color::Black => sq.index() ^ 56,
    };
    theirs * 384 + role.index() * 64 + sq
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_distinct_and_mirror_between_the_sides() {
        let mut seen = [false; INPUTS];
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in (0..64).map(Square::new) {
                    let w = feature(Color::White, color, role, sq);
                    assert!(!seen[w], "feature {w} twice");
                    seen[w] = true;
                    // Black's view of the mirrored piece is White's view of
                    // this one.
                    let mirror = Square::new(sq.index() as u32 ^ 56);
                    assert_eq!(feature(Color::Black, !color, role, mirror), w);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        // A white pawn on a2 from each side.
        let a2 = Square::new(8);
        assert_eq!(feature(Color::White, Color::White, Role::Pawn, a2), 8);
        assert_eq!(
            feature(Color::Black, Color::White, Role::Pawn, a2),
            384 + 48
        );
    }
}
