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
//!  Hoffmann:  2·ls1b(upper) − ms1b(lower|1)    . 1 1 1 1 1 . .
//!  Infuehr:   upper ^ (upper − ms1b(lower|1))  . 1 1 1 1 1 . .
//!  either, & line without e                    . 1 1 . 1 1 . .
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

/// The masks of the two lines of one piece kind through one square (file and
/// rank for the rook, diagonal and anti-diagonal for the bishop), laid out
/// lane by lane so that the two lines can be computed side by side, in one
/// SIMD register where the CPU has one (AVX-512 `vplzcntq` does both `lzcnt`s).
#[derive(Copy, Clone, Debug)]
#[repr(C, align(16))]
struct PairMasks {
    /// Each line's squares below the square (lower indices), plus bit 0:
    /// with the occupancy's bit 0 set too, `lower` always has a most
    /// significant bit, which makes `lower | 1` free at lookup time.
    lower: [u64; 2],
    /// Each line's squares above the square (higher indices).
    upper: [u64; 2],
    /// Each line without the square.
    line_ex: [u64; 2],
}

const fn pair_masks(sq: Square, lines: [Line; 2]) -> PairMasks {
    let mut m = PairMasks {
        lower: [0; 2],
        upper: [0; 2],
        line_ex: [0; 2],
    };
    let mut i = 0;
    while i < 2 {
        let pos = lines[i].positive();
        let upper = ray(pos, sq).0;
        let lower = ray(pos.reverse(), sq).0;
        m.lower[i] = lower | 1;
        m.upper[i] = upper;
        m.line_ex[i] = lower | upper;
        i += 1;
    }
    m
}

/// `MASKS[sq]`: rook lines, then bishop lines.
static MASKS: [[PairMasks; 2]; 64] = {
    let empty = PairMasks {
        lower: [0; 2],
        upper: [0; 2],
        line_ex: [0; 2],
    };
    let mut t = [[empty; 2]; 64];
    let mut s = 0;
    while s < 64 {
        let sq = Square::new(s as u32);
        t[s][0] = pair_masks(sq, [Line::File, Line::Rank]);
        t[s][1] = pair_masks(sq, [Line::Diagonal, Line::AntiDiagonal]);
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

/// The most significant bit of `lower`, isolated (`lower` is never 0: its
/// mask holds bit 0 and so does the occupancy).
#[inline(always)]
fn ms1b(lower: u64) -> u64 {
    (1u64 << 63) >> lower.leading_zeros()
}

/// Both lines' attacks, Infuehr's way.
#[inline(always)]
fn infuehr(occupied: Bitboard, m: &PairMasks) -> Bitboard {
    let occ = occupied.0 | 1;
    let attacks: [u64; 2] = core::array::from_fn(|i| {
        let lower = m.lower[i] & occ;
        let upper = m.upper[i] & occ;
        (upper ^ upper.wrapping_sub(ms1b(lower))) & m.line_ex[i]
    });
    Bitboard(attacks[0] | attacks[1])
}

/// Both lines' attacks, Hoffmann's way.
#[inline(always)]
fn hoffmann(occupied: Bitboard, m: &PairMasks) -> Bitboard {
    let occ = occupied.0 | 1;
    let attacks: [u64; 2] = core::array::from_fn(|i| {
        let lower = m.lower[i] & occ;
        let upper = m.upper[i] & occ;
        let ls1b = upper & upper.wrapping_neg();
        ls1b.wrapping_mul(2).wrapping_sub(ms1b(lower)) & m.line_ex[i]
    });
    Bitboard(attacks[0] | attacks[1])
}

impl SliderAttacks for ObstructionDifference {
    const METHOD: Method = Method::ObstructionDifference;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        infuehr(occupied, &MASKS[sq as usize][0])
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        infuehr(occupied, &MASKS[sq as usize][1])
    }
}

impl SliderAttacks for ObstructionDifferenceHoffmann {
    const METHOD: Method = Method::ObstructionDifferenceHoffmann;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        hoffmann(occupied, &MASKS[sq as usize][0])
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        hoffmann(occupied, &MASKS[sq as usize][1])
    }
}
