//! Board geometry by `const fn` tables: directions, rays, lines, `between`,
//! and the leaper attacks (knight, king, pawn).

use crate::bitboard::Bitboard;
use crate::square::Square;

/// A side, White or Black.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Color {
    /// The side that moves first, pawns moving up the board.
    White,
    /// The side that moves second, pawns moving down the board.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl core::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.other()
    }
}

/// One of the eight directions a queen can move in.
///
/// The first four are *positive*: they go to higher square indices, so the
/// nearest blocker on a ray is its least significant bit. The last four are
/// *negative*: the nearest blocker is the most significant bit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// Up the board, `+8`.
    North,
    /// Towards the h-file, `+1`.
    East,
    /// Up and towards the h-file, `+9`.
    NorthEast,
    /// Up and towards the a-file, `+7`.
    NorthWest,
    /// Down the board, `-8`.
    South,
    /// Towards the a-file, `-1`.
    West,
    /// Down and towards the a-file, `-9`.
    SouthWest,
    /// Down and towards the h-file, `-7`.
    SouthEast,
}

impl Direction {
    /// All eight directions, the positive ones first; `ALL[i + 4]` is the
    /// reverse of `ALL[i]`.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::South,
        Direction::West,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// The four directions of a rook.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The four directions of a bishop.
    pub const DIAGONAL: [Direction; 4] = [
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::SouthEast,
        Direction::SouthWest,
    ];

    /// `(file step, rank step)` of one step in this direction.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (-1, 1),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
            Direction::SouthEast => (1, -1),
            Direction::SouthWest => (-1, -1),
        }
    }

    /// `true` if a step goes to a higher square index.
    #[inline(always)]
    pub const fn is_positive(self) -> bool {
        (self as u8) < 4
    }

    /// The opposite direction.
    pub const fn reverse(self) -> Direction {
        Direction::ALL[(self as usize + 4) & 7]
    }

    /// The line this direction runs along.
    pub const fn line(self) -> Line {
        match self {
            Direction::North | Direction::South => Line::File,
            Direction::East | Direction::West => Line::Rank,
            Direction::NorthEast | Direction::SouthWest => Line::Diagonal,
            Direction::NorthWest | Direction::SouthEast => Line::AntiDiagonal,
        }
    }
}

/// One of the four kinds of line through a square.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Line {
    /// Vertical.
    File,
    /// Horizontal.
    Rank,
    /// `a1-h8` direction.
    Diagonal,
    /// `h1-a8` direction.
    AntiDiagonal,
}

impl Line {
    /// The four lines, in the order of [`Line::index`].
    pub const ALL: [Line; 4] = [Line::File, Line::Rank, Line::Diagonal, Line::AntiDiagonal];

    /// 0 to 3.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction along this line that goes to higher square indices.
    pub const fn positive(self) -> Direction {
        match self {
            Line::File => Direction::North,
            Line::Rank => Direction::East,
            Line::Diagonal => Direction::NorthEast,
            Line::AntiDiagonal => Direction::NorthWest,
        }
    }
}

const fn walk(sq: Square, (df, dr): (i32, i32)) -> u64 {
    let mut bb = 0;
    let mut k = 1;
    while let Some(to) = sq.offset(df * k, dr * k) {
        bb |= 1 << to as u32;
        k += 1;
    }
    bb
}

const fn step_set(sq: Square, deltas: &[(i32, i32)]) -> u64 {
    let mut bb = 0;
    let mut i = 0;
    while i < deltas.len() {
        if let Some(to) = sq.offset(deltas[i].0, deltas[i].1) {
            bb |= 1 << to as u32;
        }
        i += 1;
    }
    bb
}

const RAYS: [[u64; 64]; 8] = {
    let mut t = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut s = 0;
        while s < 64 {
            t[d][s] = walk(Square::new(s as u32), Direction::ALL[d].delta());
            s += 1;
        }
        d += 1;
    }
    t
};

/// The squares from `sq` in direction `dir` up to the edge, `sq` excluded.
///
/// ```
/// use attacks::{ray, Direction, Square};
///
/// assert_eq!(ray(Direction::NorthEast, Square::E4).to_string(), "\
/// . . . . . . . .
/// . . . . . . . 1
/// . . . . . . 1 .
/// . . . . . 1 . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// ");
/// ```
#[inline(always)]
pub const fn ray(dir: Direction, sq: Square) -> Bitboard {
    Bitboard(RAYS[dir as usize][sq as usize])
}

/// The squares of `line` through `sq` from edge to edge, `sq` excluded.
#[inline(always)]
pub const fn line_through(line: Line, sq: Square) -> Bitboard {
    let pos = line.positive();
    Bitboard(RAYS[pos as usize][sq as usize] | RAYS[pos.reverse() as usize][sq as usize])
}

static ROOK_RAYS: [u64; 64] = {
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = RAYS[0][s] | RAYS[1][s] | RAYS[4][s] | RAYS[5][s];
        s += 1;
    }
    t
};

static BISHOP_RAYS: [u64; 64] = {
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = RAYS[2][s] | RAYS[3][s] | RAYS[6][s] | RAYS[7][s];
        s += 1;
    }
    t
};

/// A rook's attacks from `sq` on an empty board: its file and rank, `sq`
/// excluded. A cheap test of whether a rook could reach `sq` at all.
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq as usize])
}

/// A bishop's attacks from `sq` on an empty board: its two diagonals, `sq`
/// excluded.
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq as usize])
}

const fn aligned_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let dir = Direction::ALL[d];
            let ray_a = RAYS[d][a];
            let mut b = 0;
            while b < 64 {
                if ray_a & (1 << b) != 0 {
                    between[a][b] = ray_a & RAYS[dir.reverse() as usize][b];
                    line[a][b] = ray_a | RAYS[dir.reverse() as usize][a] | 1 << a;
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

const ALIGNED: ([[u64; 64]; 64], [[u64; 64]; 64]) = aligned_tables();
static BETWEEN: [[u64; 64]; 64] = ALIGNED.0;
static LINE: [[u64; 64]; 64] = ALIGNED.1;

/// The squares strictly between `a` and `b`, **both ends excluded**, if the
/// two share a rank, file or diagonal; otherwise the empty set.
///
/// ```
/// use attacks::{between, Square};
///
/// assert_eq!(between(Square::B2, Square::F6).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . 1 . . .
/// . . . 1 . . . .
/// . . 1 . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// ");
/// assert!(between(Square::A1, Square::B3).is_empty());
/// ```
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN[a as usize][b as usize])
}

/// The whole line through `a` and `b` from edge to edge, **both included**, if
/// they share a rank, file or diagonal (and differ); otherwise the empty set.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINE[a as usize][b as usize])
}

/// `true` if `c` lies on the line through `a` and `b` (`a != b` and aligned).
#[inline(always)]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

const KNIGHT_DELTAS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];
const KING_DELTAS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0; 64];
    let mut s = 0;
    while s < 64 {
        t[s] = step_set(Square::new(s as u32), deltas);
        s += 1;
    }
    t
}

static KNIGHT: [u64; 64] = leaper_table(&KNIGHT_DELTAS);
static KING: [u64; 64] = leaper_table(&KING_DELTAS);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// The squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq as usize])
}

/// The squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq as usize])
}

/// The squares a pawn of `color` on `sq` attacks (its diagonal captures).
///
/// ```
/// use attacks::{pawn_attacks, Color, Square};
///
/// assert_eq!(pawn_attacks(Color::Black, Square::A5).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . 1 . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// ");
/// ```
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color as usize][sq as usize])
}

/// The squares the pawns of `color` in `pawns` attack, all at once: the
/// union of [`pawn_attacks`] over them, by two shifts.
///
/// ```
/// use attacks::{pawn_attacks_setwise, Bitboard, Color, Square};
///
/// let pawns = Bitboard::from_square(Square::A2) | Square::H2;
/// assert_eq!(
///     pawn_attacks_setwise(Color::White, pawns),
///     Bitboard::from_square(Square::B3) | Square::G3
/// );
/// ```
#[inline(always)]
pub fn pawn_attacks_setwise(color: Color, pawns: Bitboard) -> Bitboard {
    let (west, east) = (pawns & Bitboard::NOT_FILE_A, pawns & Bitboard::NOT_FILE_H);
    match color {
        Color::White => (west << 7) | (east << 9),
        Color::Black => (west >> 9) | (east >> 7),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_and_line_agree_with_rays() {
        for a in Square::ALL {
            for b in Square::ALL {
                let btw = between(a, b);
                assert!(!btw.contains(a) && !btw.contains(b));
                assert_eq!(btw, between(b, a));
                assert_eq!(line(a, b), line(b, a));
                if line(a, b).any() {
                    assert!(line(a, b).contains(a) && line(a, b).contains(b));
                    for c in btw {
                        assert!(aligned(a, b, c));
                        assert_eq!(a.distance(c) + c.distance(b), a.distance(b));
                    }
                    assert_eq!(btw.count() + 1, a.distance(b));
                } else {
                    assert!(btw.is_empty());
                }
            }
        }
        assert!(line(Square::A1, Square::A1).is_empty());
    }

    #[test]
    fn setwise_pawn_attacks_are_the_union_of_each_pawns() {
        use testkit::Boards;
        let mut rng = testkit::Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let pawns = Bitboard(rng.occupancy());
            for color in [Color::White, Color::Black] {
                let each = pawns
                    .into_iter()
                    .fold(Bitboard::EMPTY, |a, sq| a | pawn_attacks(color, sq));
                assert_eq!(
                    pawn_attacks_setwise(color, pawns),
                    each,
                    "{color:?} {pawns:?}"
                );
            }
        }
    }

    #[test]
    fn leaper_counts() {
        let knight: u32 = Square::ALL.iter().map(|&s| knight_attacks(s).count()).sum();
        let king: u32 = Square::ALL.iter().map(|&s| king_attacks(s).count()).sum();
        assert_eq!(knight, 336);
        assert_eq!(king, 420);
        assert_eq!(pawn_attacks(Color::White, Square::E2).count(), 2);
        assert!(pawn_attacks(Color::White, Square::E8).is_empty());
        assert!(pawn_attacks(Color::Black, Square::E1).is_empty());
    }

    #[test]
    fn ray_counts() {
        // A queen on an empty board reaches 1456 squares in all.
        let total: u32 = Square::ALL
            .iter()
            .flat_map(|&s| Direction::ALL.map(|d| ray(d, s).count()))
            .sum();
        assert_eq!(total, 1456);
        for s in Square::ALL {
            let rook = Direction::ORTHOGONAL
                .iter()
                .fold(Bitboard::EMPTY, |a, &d| a | ray(d, s));
            let bishop = Direction::DIAGONAL
                .iter()
                .fold(Bitboard::EMPTY, |a, &d| a | ray(d, s));
            assert_eq!(rook_rays(s), rook);
            assert_eq!(bishop_rays(s), bishop);
        }
        for d in Direction::ALL {
            for s in Square::ALL {
                assert_eq!(ray(d, s), line_through(d.line(), s) & ray(d, s));
                if let Some(t) = ray(d, s).ls1b() {
                    assert_eq!(t > s, d.is_positive(), "{d:?} from {s}");
                }
                assert_eq!(d.reverse().reverse(), d);
                assert_eq!(d.reverse().line(), d.line());
            }
        }
    }
}
