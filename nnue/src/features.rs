//! The inputs of the net: one for each (colour, role, square) seen from one
//! side, and the net's sizes and quantisation.

use attacks::{Color, Square};
use movegen::Role;

/// Whether this build's nets mirror their inputs horizontally
/// ([`mirror_flip`]): the architecture of the built-in net, as [`HIDDEN`]
/// is. A net file does not say which it is (bullet's files do not), and
/// both kinds have the same size: a net of the other kind loads, and is
/// evaluated wrongly, so a net given to the engine (`EvalFile` included)
/// must be of the build's kind. `borrow-train --mirror` trains the
/// mirrored kind.
pub const MIRRORED: bool = false;

/// The inputs: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// The neurons of the hidden layer.
pub const HIDDEN: usize = 128;
/// The output layer's buckets: one set of output weights and a bias for
/// each range of material on the board, as bullet's `MaterialCount<8>`
/// chooses them ([`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 8;
/// The hidden layer's quantisation: a float weight of 1.0 is `QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation: a float weight of 1.0 is `QB`.
pub const QB: i32 = 64;
/// The net's output times `SCALE` is centipawns.
pub const SCALE: i32 = 400;

/// The output bucket of a position with `pieces` pieces on the board, kings
/// included: bullet's `MaterialCount<N>`, `(pieces − 2) / ⌈32 / N⌉`, so
/// 2–5 pieces use bucket 0 and 30–32 bucket 7. A count out of range (no
/// legal position has one) takes the nearest bucket.
#[inline(always)]
pub const fn output_bucket(pieces: u32) -> usize {
    let divisor = 32usize.div_ceil(OUTPUT_BUCKETS);
    let b = (pieces as usize).saturating_sub(2) / divisor;
    if b < OUTPUT_BUCKETS {
        b
    } else {
        OUTPUT_BUCKETS - 1
    }
}

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

/// What a view's inputs are XORed with when the net mirrors them
/// horizontally: 7 (the files turned round, a↔h) when the view's own king
/// stands on files e–h, 0 on a–d, so that each side sees its king on files
/// a–d (bullet's `ChessBucketsMirrored`, the field's "horizontal
/// mirroring"). Each view turns round by its own king alone; the flip
/// keeps a piece's colour, role and rank, and changes only the low three
/// bits of [`feature`]'s number, so it commutes with [`other_view`].
#[inline(always)]
pub const fn mirror_flip(king: Square) -> usize {
    if king.file().index() >= 4 { 7 } else { 0 }
}

/// An input seen from the other side: the number White's view gives a
/// piece, as Black's view numbers it, and back (the halves swapped, the
/// rank mirrored): `feature(Black, ..)` is `other_view(feature(White,
/// ..))`. The horizontal flip ([`mirror_flip`]) is applied after it.
#[inline(always)]
pub const fn other_view(f: usize) -> usize {
    ((f + INPUTS / 2) % INPUTS) ^ 56
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_buckets_are_bullets_material_count_of_eight() {
        // bullet's `MaterialCount<8>`: `(occ.count_ones() - 2) / 4`.
        let expected = |n: u32| ((n - 2) / 4) as usize;
        for n in 2..=32 {
            assert_eq!(output_bucket(n), expected(n), "{n} pieces");
        }
        assert_eq!(
            [2, 5, 6, 17, 18, 29, 30, 32].map(output_bucket),
            [0, 0, 1, 3, 4, 6, 7, 7]
        );
        assert_eq!(output_bucket(0), 0);
        assert_eq!(output_bucket(40), OUTPUT_BUCKETS - 1);
    }

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
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in (0..64).map(Square::new) {
                    let w = feature(Color::White, color, role, sq);
                    assert_eq!(other_view(w), feature(Color::Black, color, role, sq));
                    assert_eq!(other_view(other_view(w)), w);
                }
            }
        }
        // A white pawn on a2 from each side.
        let a2 = Square::new(8);
        assert_eq!(feature(Color::White, Color::White, Role::Pawn, a2), 8);
        assert_eq!(
            feature(Color::Black, Color::White, Role::Pawn, a2),
            384 + 48
        );
    }

    #[test]
    fn the_horizontal_flip_turns_the_files_round_by_the_kings_file() {
        for king in (0..64).map(Square::new) {
            let flip = mirror_flip(king);
            assert_eq!(flip == 7, king.file().index() >= 4, "{king:?}");
            for side in Color::ALL {
                for color in Color::ALL {
                    for role in Role::ALL {
                        for sq in (0..64).map(Square::new) {
                            let f = feature(side, color, role, sq);
                            // The flipped input is the piece on the square
                            // of the other file, same rank.
                            let across = Square::new(sq.index() as u32 ^ flip as u32);
                            assert_eq!(f ^ flip, feature(side, color, role, across));
                            assert_eq!(other_view(f ^ flip), other_view(f) ^ flip);
                        }
                    }
                }
            }
        }
    }
}
