//! Obstruction Difference (Michael Hoffmann), with Infuehr's improvement.
//!
//! Seed: chessprogramming.org, "Obstruction Difference".
//!
//! Each of the four lines through the slider splits into the squares *below*
//! it (lower square indices) and *above* it. The nearest blocker above is the
//! least significant bit of `upper = occ & above`; the nearest blocker below
//! is the most significant bit of `lower = occ & below`. Everything from the
//! lower blocker up to the upper blocker, both included, is attacked, and a
//! subtraction produces exactly that run of ones:
//!
//! ```text
//!  a rank, a1 on the right                     bit 7 ........ bit 0
//!  occ   (blockers at c and g, rook on e)      . 1 . . . 1 . .
//!  lower = occ & below(e)                      . . . . . 1 . .   ms1b = c
//!  upper = occ & above(e)                      . 1 . . . . . .   ls1b = g
//!  Hoffmann:  2·ls1b(upper) − ms1b(lower|1)    1 1 1 1 1 1 . .   (then & line)
//!  Infuehr:   upper ^ (upper − ms1b(lower|1))  . 1 1 1 1 1 . .
//! ```
//!
//! In both forms the borrow of the subtraction runs up from the lower blocker
//! and stops at the upper one. `lower | 1` makes the scan total: with no lower
//! blocker the run starts at bit 0, which the line mask then cuts to the
//! line's own squares. Infuehr's form needs no separate `ls1b` isolation
//! (`upper & -upper`): XOR with `upper` clears the higher blockers that the
//! subtraction left untouched. The one bit scan is `lzcnt`, a single
//! instruction on CPUs with ABM/LZCNT (`-C target-cpu=native`).

use crate::bitboard::Bitboard;
use crate::geometry::{Direction, Line, ray};
use crate::method::{Method, SliderAttacks};
use crate::square::Square;

/// The masks of one line through one square.
#[derive(Copy, Clone, Debug)]
struct LineMasks {
    /// Line squares below the square (lower indices).
    lower: u64,
    /// Line squares above the square (higher indices).
    upper: u64,
    /// `lower | upper`: the line without the square.
    line_ex: u64,
}

/// `MASKS[sq][line]`, line in [`Line::index`] order.
static MASKS: [[LineMasks; 4]; 64] = {
    let mut t = [[LineMasks {
        lower: 0,
        upper: 0,
        line_ex: 0,
    }; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let mut l = 0;
        while l < 4 {
            let pos = Line::ALL[l].positive();
            let sq = Square::new(s as u32);
            let upper = ray(pos, sq).0;
            let lower = ray(pos.reverse(), sq).0;
            t[s][l] = LineMasks {
                lower,
                upper,
                line_ex: lower | upper,
            };
            l += 1;
        }
        s += 1;
    }
    t
};

const _: () = assert!(Direction::North.is_positive() && !Direction::South.is_positive());

/// Obstruction Difference with Infuehr's `upper ^ (upper - ms1b(lower | 1))`.
///
/// ```
/// use attacks::{Bitboard, ObstructionDifference, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::C3) | Square::G7 | Square::C7;
/// assert_eq!(ObstructionDifference::bishop_attacks(Square::E5, occ).to_string(), "\
/// . . . . . . . .
/// . . 1 . . . 1 .
/// . . . 1 . 1 . .
/// . . . . . . . .
/// . . . 1 . 1 . .
/// . . 1 . . . 1 .
/// . . . . . . . 1
/// . . . . . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct ObstructionDifference;

/// Obstruction Difference as Hoffmann gave it, `2 * ls1b(upper) - ms1b(lower | 1)`.
///
/// The same squares as [`ObstructionDifference`], with one more operation
/// (isolating `ls1b(upper)`). Kept to compare the two forms.
#[derive(Copy, Clone, Debug, Default)]
pub struct ObstructionDifferenceHoffmann;

/// The most significant bit of `lower | 1`, isolated.
#[inline(always)]
fn ms1b_or_bit0(lower: u64) -> u64 {
    (1u64 << 63) >> (lower | 1).leading_zeros()
}

#[inline(always)]
fn infuehr(occ: u64, m: &LineMasks) -> u64 {
    let lower = m.lower & occ;
    let upper = m.upper & occ;
    let ms1b = ms1b_or_bit0(lower);
    (upper ^ upper.wrapping_sub(ms1b)) & m.line_ex
}

#[inline(always)]
fn hoffmann(occ: u64, m: &LineMasks) -> u64 {
    let lower = m.lower & occ;
    let upper = m.upper & occ;
    let ms1b = ms1b_or_bit0(lower);
    let ls1b = upper & upper.wrapping_neg();
    ls1b.wrapping_mul(2).wrapping_sub(ms1b) & m.line_ex
}

impl SliderAttacks for ObstructionDifference {
    const METHOD: Method = Method::ObstructionDifference;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &MASKS[sq as usize];
        Bitboard(infuehr(occupied.0, &m[0]) | infuehr(occupied.0, &m[1]))
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &MASKS[sq as usize];
        Bitboard(infuehr(occupied.0, &m[2]) | infuehr(occupied.0, &m[3]))
    }
}

impl SliderAttacks for ObstructionDifferenceHoffmann {
    const METHOD: Method = Method::ObstructionDifferenceHoffmann;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &MASKS[sq as usize];
        Bitboard(hoffmann(occupied.0, &m[0]) | hoffmann(occupied.0, &m[1]))
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let m = &MASKS[sq as usize];
        Bitboard(hoffmann(occupied.0, &m[2]) | hoffmann(occupied.0, &m[3]))
    }
}
