//! The classical ray approach, in four forms.
//!
//! Seed: chessprogramming.org, "Classical Approach" (sections *Ray Attacks*,
//! *Zero Count* and *Piece Attacks: In one Run*).
//!
//! Take the ray from the slider to the edge on the empty board, intersect it
//! with the occupancy, and find the blocker nearest the slider: the least
//! significant bit for a *positive* direction (towards higher indices), the
//! most significant bit for a *negative* one. Everything beyond that blocker
//! is the blocker's own ray in the same direction, so one XOR removes it:
//!
//! ```text
//!  north from d2, along the d-file        d3 d4 d5 d6 d7 d8
//!  ray(N, d2)                              1  1  1  1  1  1
//!  occ & ray(N, d2)     (d4, d7 occupied)  .  1  .  .  1  .   ls1b = d4
//!  ray(N, d4)                              .  .  1  1  1  1
//!  ray(N, d2) ^ ray(N, d4)                 1  1  .  .  .  .   d3 and d4
//! ```
//!
//! The forms differ in how they deal with a ray that has no blocker:
//!
//! - [`Classical`] tests for it and skips the scan (the conditional form);
//! - [`ClassicalBranchless`] ORs a stop bit into the blockers, bit 63 for
//!   positive rays and bit 0 for negative ones, so the scan always finds a
//!   square. The positive ray from `h8` and the negative ray from `a1` are
//!   empty, so a scan that lands on the stop bit XORs nothing away; if the
//!   stop square is a real blocker at the end of the ray, there is nothing
//!   beyond it anyway;
//! - [`ClassicalZeroCount`] indexes 65-entry ray tables directly by
//!   `trailing_zeros` (positive rays) or `leading_zeros` (negative rays), which
//!   give 64 for an empty set; entry 64 is the empty ray. The negative tables
//!   are stored in leading-zero order, entry `i` being the ray from square
//!   `63 - i`;
//! - [`ClassicalOneRun`] gets rook attacks "in one run": following Robert
//!   Hyatt, start from the rook's attacks on the empty board instead of four
//!   separate rays, and following Michael Sherwin, OR bits 0 and 63 into the
//!   occupancy once and scan each ray through a mask that includes the stop bit
//!   for its direction (bit 63 north and east, bit 0 south and west). Four scans
//!   and four XORs of the blockers' rays give the attacks, 13 operations in
//!   all with no branch. The page shows this code for rooks; the bishop
//!   attacks of this method are those of [`ClassicalBranchless`].

use crate::bitboard::Bitboard;
use crate::geometry::{Direction, ray};
use crate::method::{Method, SliderAttacks};
use crate::square::Square;

/// The stop bit of the branchless forms for positive rays.
const STOP_HIGH: u64 = 1 << 63;
/// The stop bit of the branchless forms for negative rays.
const STOP_LOW: u64 = 1;

/// `RAYS[dir][sq]`: the ray from `sq` in `dir` to the edge, `sq` excluded.
static RAYS: [[u64; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            t[d][s] = ray(Direction::ALL[d], Square::new(s as u32)).0;
            s += 1;
        }
        d += 1;
    }
    t
};

// The branchless scans land on the stop square when a ray has no blocker:
// the ray from there must be empty.
const _: () = {
    let mut d = 0;
    while d < 8 {
        let stop = if Direction::ALL[d].is_positive() {
            63
        } else {
            0
        };
        assert!(ray(Direction::ALL[d], Square::new(stop)).0 == 0);
        d += 1;
    }
};

/// `ZERO_COUNT[dir][n]`, `n` the zero count of the ray's blockers: trailing
/// zeros for positive directions (entry `n` is the ray from square `n`),
/// leading zeros for negative ones (entry `n` is the ray from square
/// `63 - n`). Entry 64, for no blocker, is empty.
static ZERO_COUNT: [[u64; 65]; 8] = {
    let mut t = [[0; 65]; 8];
    let mut d = 0;
    while d < 8 {
        let dir = Direction::ALL[d];
        let mut n = 0;
        while n < 64 {
            let from = if dir.is_positive() { n } else { 63 - n };
            t[d][n] = ray(dir, Square::new(from as u32)).0;
            n += 1;
        }
        d += 1;
    }
    t
};

/// The masks one rook scan per direction goes through in [`ClassicalOneRun`]:
/// the ray with its stop bit.
#[derive(Copy, Clone, Debug)]
struct RookStops {
    /// North ray with bit 63.
    north: u64,
    /// East ray with bit 63.
    east: u64,
    /// South ray with bit 0.
    south: u64,
    /// West ray with bit 0.
    west: u64,
}

/// `ROOK_STOPS[sq]`.
static ROOK_STOPS: [RookStops; 64] = {
    let mut t = [RookStops {
        north: 0,
        east: 0,
        south: 0,
        west: 0,
    }; 64];
    let mut s = 0;
    while s < 64 {
        let sq = Square::new(s as u32);
        t[s] = RookStops {
            north: ray(Direction::North, sq).0 | STOP_HIGH,
            east: ray(Direction::East, sq).0 | STOP_HIGH,
            south: ray(Direction::South, sq).0 | STOP_LOW,
            west: ray(Direction::West, sq).0 | STOP_LOW,
        };
        s += 1;
    }
    t
};

/// `ROOK_EMPTY[sq]`: rook attacks from `sq` on the empty board.
static ROOK_EMPTY: [u64; 64] = {
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        let mut i = 0;
        while i < 4 {
            t[s] |= ray(Direction::ORTHOGONAL[i], Square::new(s as u32)).0;
            i += 1;
        }
        s += 1;
    }
    t
};

/// Classical ray attacks, conditional: a bit scan only for rays that have a
/// blocker.
///
/// ```
/// use attacks::{Bitboard, Classical, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::D4) | Square::D7 | Square::F2;
/// assert_eq!(Classical::rook_attacks(Square::D2, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// 1 1 1 . 1 1 . .
/// . . . 1 . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct Classical;

/// Classical ray attacks, branchless: a stop bit (bit 63 for positive rays,
/// bit 0 for negative ones) gives every scan a square to find.
///
/// ```
/// use attacks::{Bitboard, ClassicalBranchless, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::B6) | Square::G5 | Square::F2;
/// assert_eq!(ClassicalBranchless::bishop_attacks(Square::E3, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . 1 . . . . . .
/// . . 1 . . . 1 .
/// . . . 1 . 1 . .
/// . . . . . . . .
/// . . . 1 . 1 . .
/// . . 1 . . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct ClassicalBranchless;

/// Classical ray attacks indexed by zero counts (`tzcnt`, `lzcnt`) into
/// 65-entry ray tables whose last entry is empty.
///
/// ```
/// use attacks::{Bitboard, ClassicalZeroCount, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::A1) | Square::C1 | Square::A5;
/// assert_eq!(ClassicalZeroCount::rook_attacks(Square::A1, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// 1 . . . . . . .
/// 1 . . . . . . .
/// 1 . . . . . . .
/// 1 . . . . . . .
/// . 1 1 . . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct ClassicalZeroCount;

/// Rook attacks in one run (Hyatt and Sherwin): the empty-board rook attacks
/// minus the rays behind four blockers, found by four scans on an occupancy
/// with bits 0 and 63 set.
///
/// Bishop attacks use the branchless classical rays of
/// [`ClassicalBranchless`]. The seed page gives the one-run code for rooks
/// only (its table sizes mention bishops as well); this method keeps the
/// trick to the rook, as [`Method::ClassicalOneRun`] says.
///
/// ```
/// use attacks::{Bitboard, ClassicalOneRun, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::E6) | Square::B3 | Square::H3 | Square::E1;
/// assert_eq!(ClassicalOneRun::rook_attacks(Square::E3, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . . 1 . . .
/// . . . . 1 . . .
/// . . . . 1 . . .
/// . 1 1 1 . 1 1 1
/// . . . . 1 . . .
/// . . . . 1 . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct ClassicalOneRun;

/// Attacks along `dir`, scanning only if the ray has a blocker.
#[inline(always)]
fn ray_conditional(dir: Direction, sq: Square, occ: Bitboard) -> u64 {
    let rays = &RAYS[dir as usize];
    let attacks = rays[sq as usize];
    let blockers = Bitboard(attacks & occ.0);
    let nearest = if dir.is_positive() {
        blockers.ls1b()
    } else {
        blockers.ms1b()
    };
    match nearest {
        Some(b) => attacks ^ rays[b as usize],
        None => attacks,
    }
}

/// Attacks along `dir`, the stop bit making the scan total.
#[inline(always)]
fn ray_branchless(dir: Direction, sq: Square, occ: Bitboard) -> u64 {
    let rays = &RAYS[dir as usize];
    let attacks = rays[sq as usize];
    let blockers = attacks & occ.0;
    let nearest = if dir.is_positive() {
        (blockers | STOP_HIGH).trailing_zeros()
    } else {
        63 - (blockers | STOP_LOW).leading_zeros()
    };
    attacks ^ rays[Square::new(nearest) as usize]
}

/// Attacks along `dir`, the zero count indexing the 65-entry table.
#[inline(always)]
fn ray_zero_count(dir: Direction, sq: Square, occ: Bitboard) -> u64 {
    let attacks = RAYS[dir as usize][sq as usize];
    let blockers = attacks & occ.0;
    let n = if dir.is_positive() {
        blockers.trailing_zeros()
    } else {
        blockers.leading_zeros()
    };
    attacks ^ ZERO_COUNT[dir as usize][n as usize]
}

/// The union of `f` over four directions.
#[inline(always)]
fn union4(
    f: impl Fn(Direction, Square, Bitboard) -> u64,
    dirs: [Direction; 4],
    sq: Square,
    occ: Bitboard,
) -> Bitboard {
    Bitboard(f(dirs[0], sq, occ) | f(dirs[1], sq, occ) | f(dirs[2], sq, occ) | f(dirs[3], sq, occ))
}

impl SliderAttacks for Classical {
    const METHOD: Method = Method::Classical;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        union4(ray_conditional, Direction::ORTHOGONAL, sq, occupied)
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        union4(ray_conditional, Direction::DIAGONAL, sq, occupied)
    }
}

impl SliderAttacks for ClassicalBranchless {
    const METHOD: Method = Method::ClassicalBranchless;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        union4(ray_branchless, Direction::ORTHOGONAL, sq, occupied)
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        union4(ray_branchless, Direction::DIAGONAL, sq, occupied)
    }
}

impl SliderAttacks for ClassicalZeroCount {
    const METHOD: Method = Method::ClassicalZeroCount;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        union4(ray_zero_count, Direction::ORTHOGONAL, sq, occupied)
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        union4(ray_zero_count, Direction::DIAGONAL, sq, occupied)
    }
}

impl SliderAttacks for ClassicalOneRun {
    const METHOD: Method = Method::ClassicalOneRun;

    #[inline(always)]
    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        let stops = &ROOK_STOPS[sq as usize];
        let occ = occupied.0 | STOP_HIGH | STOP_LOW;
        let n = (occ & stops.north).trailing_zeros();
        let e = (occ & stops.east).trailing_zeros();
        let s = 63 - (occ & stops.south).leading_zeros();
        let w = 63 - (occ & stops.west).leading_zeros();
        let beyond = |dir: Direction, b: u32| RAYS[dir as usize][Square::new(b) as usize];
        Bitboard(
            ROOK_EMPTY[sq as usize]
                ^ beyond(Direction::North, n)
                ^ beyond(Direction::East, e)
                ^ beyond(Direction::South, s)
                ^ beyond(Direction::West, w),
        )
    }

    #[inline(always)]
    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        ClassicalBranchless::bishop_attacks(sq, occupied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Reference;

    #[test]
    fn zero_count_tables_end_empty_and_mirror_the_rays() {
        for dir in Direction::ALL {
            assert_eq!(ZERO_COUNT[dir as usize][64], 0);
            for sq in Square::ALL {
                let n = if dir.is_positive() {
                    sq as usize
                } else {
                    63 - sq as usize
                };
                assert_eq!(ZERO_COUNT[dir as usize][n], ray(dir, sq).0);
            }
        }
    }

    #[test]
    fn full_and_empty_boards() {
        for sq in Square::ALL {
            for occ in [Bitboard::EMPTY, Bitboard::FULL, Bitboard::EDGES] {
                let rook = Reference::rook_attacks(sq, occ);
                let bishop = Reference::bishop_attacks(sq, occ);
                assert_eq!(Classical::rook_attacks(sq, occ), rook);
                assert_eq!(ClassicalBranchless::rook_attacks(sq, occ), rook);
                assert_eq!(ClassicalZeroCount::rook_attacks(sq, occ), rook);
                assert_eq!(ClassicalOneRun::rook_attacks(sq, occ), rook);
                assert_eq!(Classical::bishop_attacks(sq, occ), bishop);
                assert_eq!(ClassicalBranchless::bishop_attacks(sq, occ), bishop);
                assert_eq!(ClassicalZeroCount::bishop_attacks(sq, occ), bishop);
                assert_eq!(ClassicalOneRun::bishop_attacks(sq, occ), bishop);
            }
        }
    }
}
