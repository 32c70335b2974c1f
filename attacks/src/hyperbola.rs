//! o^(o-2r), "Subtracting a Rook from a Blocking Piece", and Hyperbola
//! Quintessence, which applies it both ways by byte swap.
//!
//! Seeds: chessprogramming.org, "Subtracting a Rook from a Blocking Piece"
//! (for [`O2r`]) and "Hyperbola Quintessence" (for [`Hyperbola`]).
//!
//! Subtracting twice the slider bit `r` from the occupancy `o` of its line
//! (the slider itself masked off) borrows from the nearest blocker above the
//! slider, and the borrow turns every empty square between them into a one.
//! XOR with `o` keeps just the changed bits: the attacks towards higher
//! square indices, blocker included. Where no blocker is above, the borrow
//! runs off the top of the word (`wrapping_sub`), and the line mask cuts the
//! result back to the line:
//!
//! ```text
//!  a rank (a byte), a1 on the right         bit 7 ........ bit 0
//!  rook on d, blockers on b, f and h        1 . 1 . r . 1 .
//!  o = occ & line_ex                        1 . 1 . . . 1 .
//!  2r                                       . . . 1 . . . .
//!  o - 2r                                   1 . . 1 . . 1 .
//!  o ^ (o - 2r)                             . . 1 1 . . . .   e and f
//! ```
//!
//! The borrow only runs upwards. For the attacks towards lower indices,
//! reverse the bit order first, so that those squares come above the slider,
//! do the same subtraction, and reverse back:
//!
//! ```text
//!  o' = reverse(o)                          . 1 . . . 1 . 1
//!  2r'                                      . . 1 . . . . .
//!  o' - 2r'                                 . . 1 . . 1 . 1
//!  o' ^ (o' - 2r')                          . 1 1 . . . . .
//!  reverse(...)                             . . . . . 1 1 .   c and b
//! ```
//!
//! [`O2r`] does exactly that on all four lines with `u64::reverse_bits`.
//!
//! [`Hyperbola`] (Gerd Isenberg, with Aleks Peshkov's improvements) notices
//! that a file or a diagonal has at most one square per rank, so reversing the
//! order of the *bytes* (`swap_bytes`, one `bswap`) reverses the order of the
//! line's squares. It also folds the two directions into one expression:
//! since the two halves are disjoint and reversal distributes over XOR,
//! `o^(o-2r) ^ reverse(o'^(o'-2r'))` is `(o-2r) ^ reverse(o'-2r')`, the two
//! copies of `o` cancelling. And as the slider is masked off `o`, subtracting
//! `r` once already borrows through its empty square; the slider's own bit
//! then changes in both halves and cancels. Example on the d-file, one bit per
//! rank (pictured as a byte), d1 on the right:
//!
//! ```text
//!  rook on d4, blockers on d2, d6 and d7    d8 ............ d1
//!  o = occ & file_ex                        . 1 1 . . . 1 .
//!  o - r                                    . 1 . 1 1 . 1 .
//!  reverse(o' - r')                         . 1 1 . 1 1 . .
//!  (o - r) ^ reverse(o' - r')               . . 1 1 . 1 1 .   d2, d3, d5, d6
//! ```
//!
//! The final `& line_ex` clears what the borrows left outside the line.
//!
//! A rank's squares share one byte, so a byte swap cannot reverse them; for
//! ranks [`Hyperbola`] looks the attacks up in a 512-byte first-rank table,
//! indexed by the slider's file and the six inner squares of its rank, as the
//! seed page suggests ("some standard technique for the rank-attacks").

use crate::bitboard::Bitboard;
use crate::geometry::{Line, line_through};
use crate::method::{Method, SliderAttacks};
use crate::square::Square;

/// `LINES[sq][line]`: the line through `sq` without `sq`, line in
/// [`Line::index`] order (file, rank, diagonal, anti-diagonal).
static LINES: [[u64; 4]; 64] = {
    let mut t = [[0; 4]; 64];
    let mut s = 0;
    while s < 64 {
        let mut l = 0;
        while l < 4 {
            t[s][l] = line_through(Line::ALL[l], Square::new(s as u32)).0;
            l += 1;
        }
        s += 1;
    }
    t
};

/// The squares a rook on `file` of the first rank attacks along the rank,
/// given the rank's occupancy as a byte.
const fn first_rank_attacks(file: u32, occ: u8) -> u8 {
    let mut attacks = 0u8;
    let mut f = file + 1;
    while f < 8 {
        attacks |= 1 << f;
        if occ & (1 << f) != 0 {
            break;
        }
        f += 1;
    }
    let mut f = file;
    while f > 0 {
        f -= 1;
        attacks |= 1 << f;
        if occ & (1 << f) != 0 {
            break;
        }
    }
    attacks
}

/// `FIRST_RANK[file][inner]`: first-rank attacks from `file`, `inner` the
/// occupancy of the six inner squares `b1..g1` (bits 1 to 6 of the rank,
/// shifted down by one). The outer squares never matter.
static FIRST_RANK: [[u8; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut f = 0;
    while f < 8 {
        let mut inner = 0;
        while inner < 64 {
            t[f][inner] = first_rank_attacks(f as u32, (inner as u8) << 1);
            inner += 1;
        }
        f += 1;
    }
    t
};

/// o^(o-2r) on every line, both ways by bit reversal, as the seed page gives
/// it: `o ^ (o - 2r)` for the attacks towards higher indices, the same on
/// `reverse_bits` of `o` and `r` for those towards lower indices.
///
/// ```
/// use attacks::{Bitboard, O2r, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::D7) | Square::B4 | Square::F4 | Square::H4;
/// assert_eq!(O2r::rook_attacks(Square::D4, occ).to_string(), "\
/// . . . . . . . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// . 1 1 . 1 1 . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct O2r;

/// Hyperbola Quintessence: `(o - r) ^ swap_bytes(o' - r')` on files and
/// diagonals, where a byte swap reverses the line; ranks, whose squares share
/// one byte, by a first-rank attack table.
///
/// ```
/// use attacks::{Bitboard, Hyperbola, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::C6) | Square::G2 | Square::C2 | Square::A1;
/// assert_eq!(Hyperbola::queen_attacks(Square::C2, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . 1
/// . . 1 . . . 1 .
/// . . 1 . . 1 . .
/// 1 . 1 . 1 . . .
/// . 1 1 1 . . . .
/// 1 1 . 1 1 1 1 .
/// . 1 1 1 . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct Hyperbola;

/// o^(o-2r) both ways along the line `line_ex` through the slider bit `r`.
#[inline(always)]
fn o2r_line(occ: u64, r: u64, line_ex: u64) -> u64 {
    let o = occ & line_ex;
    // `r << 1` is 0 for h8, which has nothing above it.
    let up = o ^ o.wrapping_sub(r << 1);
    let o_rev = o.reverse_bits();
    let r_rev = r.reverse_bits();
    let down = (o_rev ^ o_rev.wrapping_sub(r_rev << 1)).reverse_bits();
    (up | down) & line_ex
}

/// Hyperbola Quintessence along a line with at most one square per rank.
#[inline(always)]
fn hq_line(occ: u64, r: u64, line_ex: u64) -> u64 {
    let o = occ & line_ex;
    let forward = o.wrapping_sub(r);
    let reverse = o.swap_bytes().wrapping_sub(r.swap_bytes());
    (forward ^ reverse.swap_bytes()) & line_ex
}

/// Rank attacks from the first-rank table.
#[inline(always)]
fn rank_attacks(sq: Square, occ: u64) -> u64 {
    let shift = sq as u32 & 56;
    let inner = (occ >> (shift + 1)) & 63;
    (FIRST_RANK[sq.file() as usize][inner as usize] as u64) << shift
}

impl SliderAttacks for O2r {
    const METHOD: Method = Method::O2r;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let lines = &LINES[sq as usize];
        let r = Bitboard::from_square(sq).0;
        Bitboard(o2r_line(occupied.0, r, lines[0]) | o2r_line(occupied.0, r, lines[1]))
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let lines = &LINES[sq as usize];
        let r = Bitboard::from_square(sq).0;
        Bitboard(o2r_line(occupied.0, r, lines[2]) | o2r_line(occupied.0, r, lines[3]))
    }
}

impl SliderAttacks for Hyperbola {
    const METHOD: Method = Method::Hyperbola;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let r = Bitboard::from_square(sq).0;
        let file = hq_line(occupied.0, r, LINES[sq as usize][0]);
        Bitboard(file | rank_attacks(sq, occupied.0))
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let lines = &LINES[sq as usize];
        let r = Bitboard::from_square(sq).0;
        Bitboard(hq_line(occupied.0, r, lines[2]) | hq_line(occupied.0, r, lines[3]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reference;

    #[test]
    fn first_rank_table_matches_the_reference() {
        for file in 0..8 {
            for inner in 0..64u64 {
                let sq = Square::new(file);
                let occ = Bitboard(inner << 1);
                let rank = Reference::rook_attacks(sq, occ) & Bitboard::rank(crate::Rank::First);
                assert_eq!(FIRST_RANK[file as usize][inner as usize] as u64, rank.0);
            }
        }
    }
}
