//! [`Bitboard`]: a set of squares in one `u64`.

use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr, Sub,
};

use crate::square::{File, Rank, Square};

/// A set of squares, bit `i` standing for [`Square::new(i)`](Square::new).
///
/// `Display` draws the board as White sees it, rank 8 on top, `1` for a
/// member and `.` for the others:
///
/// ```
/// use attacks::{Bitboard, Square};
///
/// let bb = Bitboard::from_square(Square::E4) | Bitboard::rank(attacks::Rank::Eighth);
/// assert_eq!(bb.to_string(), "\
/// 1 1 1 1 1 1 1 1
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . 1 . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// ");
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// Every square but the a-file: where a step west may start, and a step
    /// east land.
    pub const NOT_FILE_A: Bitboard = Bitboard(!Bitboard::file(File::A).0);
    /// Every square but the h-file: where a step east may start, and a step
    /// west land.
    pub const NOT_FILE_H: Bitboard = Bitboard(!Bitboard::file(File::H).0);
    /// The 28 squares of the board's edge.
    pub const EDGES: Bitboard = Bitboard(0xff81_8181_8181_81ff);
    /// The 32 light squares.
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55aa_55aa_55aa_55aa);
    /// The 32 dark squares (`a1` is dark).
    pub const DARK_SQUARES: Bitboard = Bitboard(0xaa55_aa55_aa55_aa55);

    /// The set holding only `sq`.
    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq as u32)
    }

    /// All squares of a file.
    #[inline]
    pub const fn file(file: File) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << file as u32)
    }

    /// All squares of a rank.
    #[inline]
    pub const fn rank(rank: Rank) -> Bitboard {
        Bitboard(0xff << (8 * rank as u32))
    }

    /// `true` if no square is in the set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// `true` if some square is in the set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// `true` if `sq` is in the set.
    #[inline(always)]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq as u32) != 0
    }

    /// `true` if the set has two or more squares.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The number of squares in the set (population count).
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The lowest square (least significant one bit), if any.
    #[inline(always)]
    pub const fn ls1b(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(self.0.trailing_zeros()))
        }
    }

    /// The highest square (most significant one bit), if any.
    #[inline(always)]
    pub const fn ms1b(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::new(63 - self.0.leading_zeros()))
        }
    }

    /// The only square of a one-square set; for other sets, some square or `a1`.
    #[inline(always)]
    pub const fn single_square(self) -> Square {
        Square::new(self.0.trailing_zeros())
    }

    /// The set without its lowest square.
    #[inline(always)]
    pub const fn without_ls1b(self) -> Bitboard {
        Bitboard(self.0 & self.0.wrapping_sub(1))
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq as u32)
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq as u32))
    }

    /// The set with `sq` toggled.
    #[inline(always)]
    pub const fn toggled(self, sq: Square) -> Bitboard {
        Bitboard(self.0 ^ 1 << sq as u32)
    }

    /// The set mirrored vertically (rank 1 ↔ rank 8).
    #[inline(always)]
    pub const fn flip_vertical(self) -> Bitboard {
        Bitboard(self.0.swap_bytes())
    }

    /// Every subset of this set, the empty set first and the set itself last,
    /// enumerated by the carry-rippler `n = (n - set) & set`.
    ///
    /// ```
    /// use attacks::{Bitboard, Square};
    ///
    /// let set = Bitboard::from_square(Square::A1) | Bitboard::from_square(Square::C1);
    /// let subsets: Vec<u64> = set.subsets().map(|b| b.0).collect();
    /// assert_eq!(subsets, [0b000, 0b001, 0b100, 0b101]);
    /// ```
    pub fn subsets(self) -> Subsets {
        Subsets {
            set: self.0,
            next: Some(0),
        }
    }
}

/// The iterator of [`Bitboard::subsets`].
#[derive(Clone, Debug)]
pub struct Subsets {
    set: u64,
    next: Option<u64>,
}

impl Iterator for Subsets {
    type Item = Bitboard;

    fn next(&mut self) -> Option<Bitboard> {
        let current = self.next?;
        let following = current.wrapping_sub(self.set) & self.set;
        self.next = if following == 0 {
            None
        } else {
            Some(following)
        };
        Some(Bitboard(current))
    }
}

/// Iterates the squares of a set from `a1` to `h8`.
impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let sq = self.ls1b()?;
        self.0 &= self.0.wrapping_sub(1);
        Some(sq)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bitboard {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        Bitboard::from_square(sq)
    }
}

impl From<u64> for Bitboard {
    #[inline(always)]
    fn from(bits: u64) -> Bitboard {
        Bitboard(bits)
    }
}

impl From<Bitboard> for u64 {
    #[inline(always)]
    fn from(bb: Bitboard) -> u64 {
        bb.0
    }
}

macro_rules! binary_op {
    ($trait:ident, $fn:ident, $assign_trait:ident, $assign_fn:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $trait<Square> for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $fn(self, rhs: Square) -> Bitboard {
                Bitboard(self.0 $op Bitboard::from_square(rhs).0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
        impl $assign_trait<Square> for Bitboard {
            #[inline(always)]
            fn $assign_fn(&mut self, rhs: Square) {
                self.0 = self.0 $op Bitboard::from_square(rhs).0;
            }
        }
    };
}

binary_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binary_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binary_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// Set difference: the squares of `self` that are not in `rhs`.
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

/// Shifts the bits left (towards `h8`); squares leaving the board vanish.
impl Shl<u32> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn shl(self, rhs: u32) -> Bitboard {
        Bitboard(self.0 << rhs)
    }
}

/// Shifts the bits right (towards `a1`); squares leaving the board vanish.
impl Shr<u32> for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn shr(self, rhs: u32) -> Bitboard {
        Bitboard(self.0 >> rhs)
    }
}

impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            for file in File::ALL {
                let c = if self.contains(Square::from_coords(file, *rank)) {
                    '1'
                } else {
                    '.'
                };
                if file != File::A {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})\n{}", self.0, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_all_distinct_and_complete() {
        let set = Bitboard(0x0000_0000_0001_0106);
        let subs: Vec<Bitboard> = set.subsets().collect();
        assert_eq!(subs.len(), 1 << set.count());
        let mut bits: Vec<u64> = subs.iter().map(|b| b.0).collect();
        bits.sort_unstable();
        bits.dedup();
        assert_eq!(bits.len(), 16);
        assert!(subs.iter().all(|s| (*s - set).is_empty()));
        assert_eq!(Bitboard::EMPTY.subsets().count(), 1);
    }

    #[test]
    fn iteration_and_scans() {
        let bb = Bitboard::from_square(Square::C3) | Square::H8 | Square::A1;
        assert_eq!(bb.collect::<Vec<_>>(), [Square::A1, Square::C3, Square::H8]);
        assert_eq!(bb.ls1b(), Some(Square::A1));
        assert_eq!(bb.ms1b(), Some(Square::H8));
        assert_eq!(bb.count(), 3);
        assert!(bb.more_than_one());
        assert!(!Bitboard::from_square(Square::D4).more_than_one());
        assert_eq!(Bitboard::EMPTY.ls1b(), None);
        assert_eq!(Bitboard::EMPTY.ms1b(), None);
    }

    #[test]
    fn colours_partition_the_board() {
        assert_eq!(
            Bitboard::LIGHT_SQUARES ^ Bitboard::DARK_SQUARES,
            Bitboard::FULL
        );
        assert!(Bitboard::DARK_SQUARES.contains(Square::A1));
        assert!(Bitboard::LIGHT_SQUARES.contains(Square::H1));
    }
}
