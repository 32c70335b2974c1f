//! Ray walking on plain `u64` boards (`a1` = bit 0): the slow, obviously
//! right slider attacks, the relevant-occupancy masks of the table methods,
//! the subsets of a mask, and [`SquareData`], one square's table content.
//!
//! One copy serves the library and its build script: [`Reference`] walks
//! with it, and `build.rs` (which cannot use the crate it builds) includes
//! this very file with `#[path]` to fill the [`Magic`] and [`Pext`] tables and
//! check every entry. So this file uses nothing of the crate.
//!
//! [`Reference`]: crate::Reference
//! [`Magic`]: crate::Magic
//! [`Pext`]: crate::Pext

/// `(file step, rank step)` of the rook's four directions.
pub const ROOK_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// `(file step, rank step)` of the bishop's four directions.
pub const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The square index `k` steps from `sq` in direction `(df, dr)`, if it is on
/// the board.
#[inline]
pub fn step(sq: usize, (df, dr): (i32, i32), k: i32) -> Option<usize> {
    let f = (sq % 8) as i32 + df * k;
    let r = (sq / 8) as i32 + dr * k;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

/// The squares a slider on `sq` reaches in direction `dir`: one at a time to
/// the edge or the first occupied square (included).
///
/// ```
/// use attacks::raywalk::walk_ray;
///
/// // Up the a-file from a1, blocked on a3.
/// assert_eq!(walk_ray(0, 1 << 16, (0, 1)), (1 << 8) | (1 << 16));
/// ```
pub fn walk_ray(sq: usize, occupied: u64, dir: (i32, i32)) -> u64 {
    let mut attacks = 0;
    let mut k = 1;
    while let Some(to) = step(sq, dir, k) {
        attacks |= 1 << to;
        if occupied & (1 << to) != 0 {
            break;
        }
        k += 1;
    }
    attacks
}

/// The squares a slider on `sq` moving along `dirs` attacks: [`walk_ray`]
/// in each direction.
pub fn walk_attacks(sq: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    dirs.iter()
        .fold(0, |acc, &d| acc | walk_ray(sq, occupied, d))
}

/// The relevant occupancy of a slider on `sq`: the squares of its rays
/// along `dirs` without the last (edge) square of each, the only squares
/// whose occupancy can change its attacks.
///
/// ```
/// use attacks::raywalk::{ROOK_DIRS, relevant_mask};
///
/// // A rook on a1: a2..a7 and b1..g1.
/// assert_eq!(relevant_mask(0, &ROOK_DIRS), 0x0001_0101_0101_017e);
/// ```
pub fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &d in dirs {
        let mut k = 1;
        while let (Some(to), Some(_)) = (step(sq, d, k), step(sq, d, k + 1)) {
            mask |= 1 << to;
            k += 1;
        }
    }
    mask
}

/// Every subset of `mask`, by the carry-rippler, in increasing order. The
/// `i`-th subset is `pdep(i, mask)`, so `pext(subset_i, mask) == i`: the
/// order of the PEXT table.
///
/// ```
/// use attacks::raywalk::subsets;
///
/// assert_eq!(subsets(0b1010), [0b0000, 0b0010, 0b1000, 0b1010]);
/// ```
pub fn subsets(mask: u64) -> Vec<u64> {
    let mut v = Vec::with_capacity(1 << mask.count_ones());
    let mut n = 0u64;
    loop {
        v.push(n);
        n = n.wrapping_sub(mask) & mask;
        if n == 0 {
            return v;
        }
    }
}

/// What a table method stores for a slider on one square: the relevant
/// occupancy mask, its subsets in PEXT order, and the attacks for each,
/// all by [`walk_attacks`]. `build.rs` fills the magic and PEXT tables from
/// it; `tests/magics.rs` searches magics over it.
///
/// ```
/// use attacks::raywalk::{ROOK_DIRS, SquareData};
///
/// let a1 = SquareData::new(0, &ROOK_DIRS);
/// assert_eq!((a1.bits(), a1.occs.len()), (12, 4096));
/// // With nothing in the way, the rook sees its whole file and rank.
/// assert_eq!(a1.attacks[0], 0x0101_0101_0101_01fe);
/// ```
pub struct SquareData {
    /// The square, 0 (`a1`) to 63 (`h8`).
    pub sq: usize,
    /// The relevant occupancy ([`relevant_mask`]).
    pub mask: u64,
    /// The subsets of `mask`, in carry-rippler (= PEXT index) order.
    pub occs: Vec<u64>,
    /// `attacks[i]`: the attacks with occupancy `occs[i]`.
    pub attacks: Vec<u64>,
}

impl SquareData {
    /// The data of a slider on `sq` moving along `dirs`.
    pub fn new(sq: usize, dirs: &[(i32, i32)]) -> SquareData {
        let mask = relevant_mask(sq, dirs);
        let occs = subsets(mask);
        let attacks = occs.iter().map(|&o| walk_attacks(sq, o, dirs)).collect();
        SquareData {
            sq,
            mask,
            occs,
            attacks,
        }
    }

    /// The number of relevant squares: the table has `2^bits` entries.
    pub fn bits(&self) -> u32 {
        self.mask.count_ones()
    }
}
