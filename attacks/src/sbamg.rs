//! SBAMG, Subtraction Based Attack Mask Generation (Syed Fahad), `o ^ (o - 3cbn)`.
//!
//! Seed: chessprogramming.org, "SBAMG".
//!
//! The trick joins [o^(o-2r)](crate::O2r) and [Obstruction
//! Difference](crate::ObstructionDifference): on one line through the slider,
//! find the closest blocker below it (`cbn`, the most significant bit of the
//! lower occupancy) and subtract it *three* times from the line occupancy
//! `o`. One `cbn` clears the blocker bit, the other two (`2·cbn`) borrow from
//! the square above it, and that borrow runs up through the empty squares,
//! past the slider (which is not in `o`), to the nearest blocker above. XOR
//! with `o` shows the changed bits, one run from the lower blocker to the upper
//! one, both included:
//!
//! ```text
//!  a rank, a1 on the right                        bit 7 ........ bit 0
//!  rook on e, blockers on b and g                 . 1 . r . . 1 .
//!  o = (occ & line_ex) | outer   (a and h set)    1 1 . . . . 1 1
//!  cbn = ms1b(o & lower)                          . . . . . . 1 .   b
//!  o - 3cbn                                       1 . 1 1 1 1 . 1
//!  o ^ (o - 3cbn)                                 . 1 1 1 1 1 1 .
//!  & line_ex                                      . 1 1 . 1 1 1 .   b to g, not e
//! ```
//!
//! The outer squares of the line are always set in `o`: they never change
//! the attacks (a slider reaches the last square of a line whether or not it
//! is occupied), but they give every scan and every borrow a place to stop,
//! with no branch. Bit 0 is set too, so that the scan of `o & lower` is never
//! of an empty set: when the slider is the lowest square of its line, the scan
//! finds that bit 0, and subtracting `3 = 1 + 2` clears it and starts the
//! borrow at bit 1, below the line, from where it runs up to the first
//! blocker just the same. An outer square that is the slider itself is left
//! out, or it would stop the borrow; when the slider is the highest square of
//! its line the borrow leaves the word, which `wrapping_sub` allows and the
//! final `& line_ex` cleans up.
//!
//! The one bit scan is `lzcnt`, as in Obstruction Difference.

use crate::bitboard::Bitboard;
use crate::geometry::{Line, line_through};
use crate::method::{Method, SliderAttacks};
use crate::square::Square;

/// The masks of one line through one square.
#[derive(Copy, Clone, Debug)]
struct LineMasks {
    /// The line without the square.
    line_ex: u64,
    /// The line's end squares other than the square itself, and bit 0.
    outer: u64,
    /// Every square below the square, `(1 << sq) - 1`, or bit 0 for `a1`.
    lower: u64,
}

/// `MASKS[sq][line]`, line in [`Line::index`] order (file, rank, diagonal,
/// anti-diagonal).
static MASKS: [[LineMasks; 4]; 64] = {
    let mut t = [[LineMasks {
        line_ex: 0,
        outer: 0,
        lower: 0,
    }; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let sq = Square::new(s as u32);
        let mut l = 0;
        while l < 4 {
            let line_ex = line_through(Line::ALL[l], sq).0;
            let whole = line_ex | 1 << s;
            let ends = (1 << whole.trailing_zeros()) | (1 << (63 - whole.leading_zeros()));
            t[s][l] = LineMasks {
                line_ex,
                outer: ends & line_ex | 1,
                lower: ((1u64 << s) - 1) | 1,
            };
            l += 1;
        }
        s += 1;
    }
    t
};

/// Subtraction Based Attack Mask Generation, `o ^ (o - 3cbn)` on each line,
/// the outer squares always set.
///
/// ```
/// use attacks::{Bitboard, Sbamg, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::B2) | Square::G7 | Square::B6 | Square::H2;
/// assert_eq!(Sbamg::bishop_attacks(Square::D4, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . 1 .
/// . 1 . . . 1 . .
/// . . 1 . 1 . . .
/// . . . . . . . .
/// . . 1 . 1 . . .
/// . 1 . . . 1 . .
/// . . . . . . 1 .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct Sbamg;

/// The attacks along one line.
#[inline(always)]
fn line_attacks(occ: u64, m: &LineMasks) -> u64 {
    let o = (occ & m.line_ex) | m.outer;
    let cbn = 63 - (o & m.lower).leading_zeros();
    let three_cbn = 3u64 << cbn;
    (o ^ o.wrapping_sub(three_cbn)) & m.line_ex
}

impl SliderAttacks for Sbamg {
    const METHOD: Method = Method::Sbamg;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &MASKS[sq as usize];
        Bitboard(line_attacks(occupied.0, &m[0]) | line_attacks(occupied.0, &m[1]))
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &MASKS[sq as usize];
        Bitboard(line_attacks(occupied.0, &m[2]) | line_attacks(occupied.0, &m[3]))
    }
}
