//! Squares, files and ranks in little-endian rank-file mapping.
//!
//! Square `a1` is bit 0, `b1` bit 1, ..., `h1` bit 7, `a2` bit 8, ..., `h8` bit 63:
//! `index = 8 * rank + file`. This is the mapping of the chessprogramming pages
//! the attack methods come from.

use core::fmt;
use core::str::FromStr;

/// A file (column), `a` to `h`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A rank (row), `1` to `8`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files from `a` to `h`.
    pub const ALL: [File; 8] = [
        File::A,
        File::B,
        File::C,
        File::D,
        File::E,
        File::F,
        File::G,
        File::H,
    ];

    /// The file with index `i & 7` (0 is `a`).
    #[inline(always)]
    pub const fn new(i: u32) -> File {
        // SAFETY: `File` is `repr(u8)` with the eight variants 0..=7 in
        // order (the `discriminants_are_indices` test checks it), and
        // `i & 7` is one of them. Measured reason: see `Square::new`.
        unsafe { core::mem::transmute::<u8, File>((i & 7) as u8) }
    }

    /// Index 0 (`a`) to 7 (`h`).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter of the file.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// The file of a letter `a`..`h`.
    pub const fn from_char(c: char) -> Option<File> {
        match c {
            'a'..='h' => Some(File::new(c as u32 - 'a' as u32)),
            _ => None,
        }
    }
}

impl Rank {
    /// All ranks from `1` to `8`.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i & 7` (0 is the first rank).
    #[inline(always)]
    pub const fn new(i: u32) -> Rank {
        // SAFETY: `Rank` is `repr(u8)` with the eight variants 0..=7 in
        // order (the `discriminants_are_indices` test checks it), and
        // `i & 7` is one of them. Measured reason: see `Square::new`.
        unsafe { core::mem::transmute::<u8, Rank>((i & 7) as u8) }
    }

    /// Index 0 (first rank) to 7 (eighth rank).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit of the rank.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// The rank of a digit `1`..`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        match c {
            '1'..='8' => Some(Rank::new(c as u32 - '1' as u32)),
            _ => None,
        }
    }

    /// The same rank seen from the other side (1 ↔ 8).
    #[inline]
    pub const fn flip(self) -> Rank {
        Rank::new(7 - self as u32)
    }
}

macro_rules! squares {
    ($($sq:ident),* $(,)?) => {
        /// A square of the board, `A1 = 0` to `H8 = 63`.
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum Square { $($sq),* }

        impl Square {
            /// All 64 squares in index order, `A1` first.
            pub const ALL: [Square; 64] = [$(Square::$sq),*];
        }
    };
}

squares! {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
}

impl Square {
    /// The square with index `i & 63` (the mask keeps this total: a bit
    /// scan of an empty set, 64, gives `A1`).
    #[inline(always)]
    pub const fn new(i: u32) -> Square {
        // SAFETY: `Square` is `repr(u8)` with the 64 variants 0..=63 in
        // order (the `discriminants_are_indices` test checks it), and
        // `i & 63` is one of them. Measured reason: the read of `ALL` this
        // replaces (every bit scan goes through here) was 3.5% of the
        // instructions of start-position perft 5 (callgrind).
        unsafe { core::mem::transmute::<u8, Square>((i & 63) as u8) }
    }

    /// The square with index `i`, or `None` if `i >= 64`.
    #[inline]
    pub const fn try_new(i: u32) -> Option<Square> {
        if i < 64 { Some(Square::new(i)) } else { None }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::new(file as u32 | (rank as u32) << 3)
    }

    /// Index 0 (`a1`) to 63 (`h8`).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File::new(self as u32)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank::new(self as u32 >> 3)
    }

    /// The square mirrored vertically (`a1` ↔ `a8`): the same square seen from
    /// the other side of the board.
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::new(self as u32 ^ 56)
    }

    /// The square `df` files and `dr` ranks away, if it is on the board.
    pub const fn offset(self, df: i32, dr: i32) -> Option<Square> {
        let f = self.file() as i32 + df;
        let r = self.rank() as i32 + dr;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::new((r * 8 + f) as u32))
        } else {
            None
        }
    }

    /// The diagonal number `rank - file + 7` (0..15), constant along a
    /// diagonal (`a1-h8` direction).
    #[inline]
    pub const fn diagonal(self) -> u32 {
        self.rank() as u32 + 7 - self.file() as u32
    }

    /// The anti-diagonal number `rank + file` (0..15), constant along an
    /// anti-diagonal (`h1-a8` direction).
    #[inline]
    pub const fn anti_diagonal(self) -> u32 {
        self.rank() as u32 + self.file() as u32
    }

    /// Chebyshev (king-move) distance between two squares.
    pub const fn distance(self, other: Square) -> u32 {
        let df = (self.file() as i32 - other.file() as i32).unsigned_abs();
        let dr = (self.rank() as i32 - other.rank() as i32).unsigned_abs();
        if df > dr { df } else { dr }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The error of parsing a square name other than `a1`..`h8`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name (expected a1..h8)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (File::from_char(f), Rank::from_char(r)) {
                (Some(f), Some(r)) => Ok(Square::from_coords(f, r)),
                _ => Err(ParseSquareError),
            },
            _ => Err(ParseSquareError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `new` functions turn an index into a variant by `transmute`:
    /// each enum's variants must be exactly 0, 1, 2, ... in order.
    #[test]
    fn discriminants_are_indices() {
        for (i, sq) in Square::ALL.into_iter().enumerate() {
            assert_eq!(sq as usize, i);
            assert_eq!(Square::new(i as u32), sq);
            assert_eq!(Square::new(i as u32 + 64), sq);
        }
        for (i, f) in File::ALL.into_iter().enumerate() {
            assert_eq!((f as usize, File::new(i as u32 + 8)), (i, f));
        }
        for (i, r) in Rank::ALL.into_iter().enumerate() {
            assert_eq!((r as usize, Rank::new(i as u32 + 8)), (i, r));
        }
        assert_eq!(core::mem::size_of::<Square>(), 1);
    }

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), sq);
        }
        assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert!("a1 ".parse::<Square>().is_err());
    }

    #[test]
    fn geometry() {
        assert_eq!(Square::E4.file(), File::E);
        assert_eq!(Square::E4.rank(), Rank::Fourth);
        assert_eq!(Square::A1.flip_vertical(), Square::A8);
        assert_eq!(Square::A1.distance(Square::H8), 7);
        assert_eq!(Square::H1.offset(1, 0), None);
        assert_eq!(Square::G1.offset(1, 1), Some(Square::H2));
    }
}
