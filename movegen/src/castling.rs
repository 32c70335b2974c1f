//! Castling, standard and Chess960 (Fischer random) alike.
//!
//! A castling right belongs to a rook: the set of rooks that may still castle
//! is a [`Bitboard`] ([`Position::castling_rooks`]). A right is on the king
//! side when its rook stands on a higher file than its king. Whatever the
//! files, castling puts the king on the `g` (king side) or `c` file and the
//! rook on the `f` or `d` file; every square between the king and its
//! destination and between the rook and its destination must be empty (but
//! for the king and the rook themselves), and the king must not be in check,
//! pass through an attacked square or land on one.
//!
//! [`CastlingRights`] is the summary of four flags (`KQkq`) that Polyglot's
//! Zobrist keys and most tools use. [`CastlingNotation`] is how a FEN writes
//! the rights: `KQkq` (X-FEN, where `K` means the outermost rook on that side
//! and an inner rook is named by its file) or Shredder-FEN's file letters
//! (`HAha`).
//!
//! [`Position::castling_rooks`]: crate::Position::castling_rooks

use core::fmt;

use attacks::{Bitboard, Color, File, Rank, Square};

/// Castling rights as four flags: White king side (`K`), White queen side
/// (`Q`), Black king side (`k`), Black queen side (`q`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CastlingRights(pub u8);

impl CastlingRights {
    /// No right.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);
    /// White, king side.
    pub const WHITE_KING_SIDE: u8 = 1;
    /// White, queen side.
    pub const WHITE_QUEEN_SIDE: u8 = 2;
    /// Black, king side.
    pub const BLACK_KING_SIDE: u8 = 4;
    /// Black, queen side.
    pub const BLACK_QUEEN_SIDE: u8 = 8;

    /// The flag of `color` castling on the king side (`king_side`) or queen side.
    #[inline(always)]
    pub const fn flag(color: Color, king_side: bool) -> u8 {
        1 << (2 * color as u8 + if king_side { 0 } else { 1 })
    }

    /// `true` if `color` may still castle on that side.
    #[inline(always)]
    pub const fn has(self, color: Color, king_side: bool) -> bool {
        self.0 & CastlingRights::flag(color, king_side) != 0
    }

    /// `true` if no right is left.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The flags of the castling rooks `rooks`, given each side's king.
    pub fn of_rooks(rooks: Bitboard, kings: [Square; 2]) -> CastlingRights {
        let mut flags = 0;
        for rook in rooks {
            let color = if rook.rank() == Rank::First {
                Color::White
            } else {
                Color::Black
            };
            let king = kings[color.index()];
            flags |= CastlingRights::flag(color, rook.file() > king.file());
        }
        CastlingRights(flags)
    }
}

impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 0 {
            return f.write_str("-");
        }
        for (bit, c) in [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')] {
            if self.0 & bit != 0 {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// How a FEN writes castling rights; a FEN is written back the way it was read.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingNotation {
    /// `KQkq`: the outermost rook on each side, or the file of an inner one
    /// (X-FEN). For standard chess this is the usual FEN.
    #[default]
    XFen,
    /// Shredder-FEN: every right by its rook's file (`HAha`).
    Shredder,
}

/// Which castling rights the lenient reading keeps
/// ([`Position::from_fen_lenient`](crate::Position::from_fen_lenient)), as
/// shakmaty's `CastlingMode` does. The strict reading needs no mode: it
/// takes every right that can stand, standard or Chess960.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum CastlingMode {
    /// Standard chess: a right needs its king on the `e` file and its rook
    /// in the corner (`a1`, `h1`, `a8`, `h8`).
    #[default]
    Standard,
    /// Chess960: a right needs its king and its rook on their back rank, the
    /// rook the outermost of the rights on its side of the king.
    Chess960,
}

impl CastlingMode {
    /// `Chess960` if `chess960`, else `Standard` (as UCI's `UCI_Chess960`).
    pub const fn from_chess960(chess960: bool) -> CastlingMode {
        if chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

/// The rank `color`'s pieces start on.
#[inline(always)]
pub const fn back_rank(color: Color) -> Rank {
    match color {
        Color::White => Rank::First,
        Color::Black => Rank::Eighth,
    }
}

/// Where castling with the rook on `rook` puts the king and the rook, for a
/// king on `king` of the same rank: `(king_to, rook_to)`.
#[inline(always)]
pub fn destinations(king: Square, rook: Square) -> (Square, Square) {
    let (king_file, rook_file) = if rook.file() > king.file() {
        (File::G, File::F)
    } else {
        (File::C, File::D)
    };
    let rank = king.rank();
    (
        Square::from_coords(king_file, rank),
        Square::from_coords(rook_file, rank),
    )
}

/// The squares of files `a` to `b` (either order) on `rank`, both included.
const fn span(rank: u32, a: u32, b: u32) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    ((1u64 << (hi + 1)) - (1u64 << lo)) << (8 * rank)
}

/// For each king square (on a back rank) and rook file: the squares that must be empty
/// (but for the king and the rook) and the squares the king passes through
/// and lands on, which must not be attacked. Move generation looks castling
/// up here at every node, so it is a table rather than a computation.
#[derive(Copy, Clone)]
struct Paths {
    empty: u64,
    king: u64,
}

static PATHS: [[Paths; 8]; 64] = {
    let mut t = [[Paths { empty: 0, king: 0 }; 8]; 64];
    let mut color = 0;
    while color < 2 {
        let rank = if color == 0 { 0 } else { 7 };
        let mut king = 0;
        while king < 8 {
            let mut rook = 0;
            while rook < 8 {
                if rook != king {
                    let (king_to, rook_to) = if rook > king { (6, 5) } else { (2, 3) };
                    let here = (1u64 << (8 * rank + king)) | (1u64 << (8 * rank + rook));
                    let empty = (span(rank, king, king_to) | span(rank, rook, rook_to)) & !here;
                    // The king's own square only when it does not move: it
                    // is known not to be in check, but lifting the rook may
                    // expose it.
                    let path = if king == king_to {
                        span(rank, king, king_to)
                    } else {
                        span(rank, king, king_to) & !(1u64 << (8 * rank + king))
                    };
                    t[(8 * rank + king) as usize][rook as usize] = Paths { empty, king: path };
                }
                rook += 1;
            }
            king += 1;
        }
        color += 1;
    }
    t
};

#[inline(always)]
fn paths(king: Square, rook: Square) -> Paths {
    PATHS[king.index()][rook.file().index()]
}

/// The squares that must be empty, but for the king and the rook, to castle
/// with the king on `king` and the rook on `rook` (both on one back rank).
#[inline(always)]
pub fn must_be_empty(king: Square, rook: Square) -> Bitboard {
    Bitboard(paths(king, rook).empty)
}

/// The squares the king passes through and lands on when castling with the
/// rook on `rook`, which must not be attacked (its own square, known not to
/// be in check, is left out unless the king does not move).
#[inline(always)]
pub fn king_path(king: Square, rook: Square) -> Bitboard {
    Bitboard(paths(king, rook).king)
}

/// The outermost rook of `color` on its back rank on the king side
/// (`king_side`) or queen side of its king there: the rook X-FEN's `K` or `Q`
/// names. `None` without a king or such a rook on the back rank.
pub fn outermost_rook(
    board: &[Option<crate::Piece>; 64],
    color: Color,
    king_side: bool,
) -> Option<Square> {
    use crate::{Piece, Role};
    let rank = back_rank(color);
    let at = |file: File, role| {
        board[Square::from_coords(file, rank).index()] == Some(Piece { color, role })
    };
    let king = File::ALL.into_iter().find(|&f| at(f, Role::King))?;
    let rook = if king_side {
        File::ALL
            .into_iter()
            .rev()
            .take_while(|&f| f != king)
            .find(|&f| at(f, Role::Rook))
    } else {
        File::ALL
            .into_iter()
            .take_while(|&f| f != king)
            .find(|&f| at(f, Role::Rook))
    }?;
    Some(Square::from_coords(rook, rank))
}

/// The square X-FEN's `K` or `Q` (`king_side`) names for `color`: the
/// outermost rook on that side, or the standard square (`h1`, `a1`) when
/// there is none, for the validation to reject.
fn x_fen_square(board: &[Option<crate::Piece>; 64], color: Color, king_side: bool) -> Square {
    let standard = if king_side { File::H } else { File::A };
    outermost_rook(board, color, king_side)
        .unwrap_or(Square::from_coords(standard, back_rank(color)))
}

/// Parses a FEN castling field against the board it goes with: `-`, `KQkq`
/// (the outermost rook on that side), or file letters (`HAha`, `Bb`).
///
/// A right whose rook cannot be found (no king on the back rank, or no rook
/// on that side) is read as the standard square (`h1` for `K`), which the
/// position's validation then rejects. Errors: an unknown character, a right
/// given twice.
pub(crate) fn parse_field(
    field: &str,
    board: &[Option<crate::Piece>; 64],
) -> Result<(Bitboard, CastlingNotation), &'static str> {
    let mut rooks = Bitboard::EMPTY;
    if field == "-" {
        return Ok((rooks, CastlingNotation::XFen));
    }
    let mut files = 0;
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = back_rank(color);
        let square = match c.to_ascii_lowercase() {
            side @ ('k' | 'q') => x_fen_square(board, color, side == 'k'),
            f @ 'a'..='h' => {
                files += 1;
                Square::from_coords(File::new(f as u32 - 'a' as u32), rank)
            }
            _ => return Err("expected '-', letters from KQkq, or rook files A-H/a-h"),
        };
        if rooks.contains(square) {
            return Err("a castling right is repeated");
        }
        rooks = rooks.with(square);
    }
    let notation = if files == field.len() {
        CastlingNotation::Shredder
    } else {
        CastlingNotation::XFen
    };
    Ok((rooks, notation))
}

/// Writes the castling field of the rooks `rooks` on `board` in `notation`.
pub(crate) fn write_field(
    f: &mut fmt::Formatter<'_>,
    rooks: Bitboard,
    notation: CastlingNotation,
    board: &[Option<crate::Piece>; 64],
) -> fmt::Result {
    use crate::{Piece, Role};
    if rooks.is_empty() {
        return f.write_str("-");
    }
    for color in Color::ALL {
        let rank = back_rank(color);
        let at = |file: File, role| {
            board[Square::from_coords(file, rank).index()] == Some(Piece { color, role })
        };
        let king = File::ALL
            .into_iter()
            .find(|&f| at(f, Role::King))
            .unwrap_or(File::E);
        let mine = rooks & Bitboard::rank(rank);
        // King side first, then queen side, as in `KQkq`.
        let mut ordered: Vec<Square> = mine.into_iter().filter(|r| r.file() > king).collect();
        ordered.extend(mine.into_iter().filter(|r| r.file() <= king));
        for rook in ordered {
            // X-FEN's letter where it reads back as this square, else the file.
            let c = match notation {
                CastlingNotation::XFen if x_fen_square(board, color, true) == rook => 'k',
                CastlingNotation::XFen if x_fen_square(board, color, false) == rook => 'q',
                _ => rook.file().char(),
            };
            let c = match color {
                Color::White => c.to_ascii_uppercase(),
                Color::Black => c,
            };
            write!(f, "{c}")?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_destinations_and_squares() {
        assert_eq!(
            destinations(Square::E1, Square::H1),
            (Square::G1, Square::F1)
        );
        assert_eq!(
            destinations(Square::E8, Square::A8),
            (Square::C8, Square::D8)
        );
        let f1_g1 = Bitboard::from_square(Square::F1).with(Square::G1);
        assert_eq!(must_be_empty(Square::E1, Square::H1), f1_g1);
        assert_eq!(king_path(Square::E1, Square::H1), f1_g1);
        let b_c_d = Bitboard::from_square(Square::B8)
            .with(Square::C8)
            .with(Square::D8);
        assert_eq!(must_be_empty(Square::E8, Square::A8), b_c_d);
    }

    #[test]
    fn chess960_squares() {
        // King b1, rook a1, queen side: the king goes to c1, the rook to d1.
        let need = Bitboard::from_square(Square::C1).with(Square::D1);
        assert_eq!(must_be_empty(Square::B1, Square::A1), need);
        // King g1, rook h1: the king stays, the rook goes to f1.
        assert_eq!(
            must_be_empty(Square::G1, Square::H1),
            Bitboard::from_square(Square::F1)
        );
        assert_eq!(
            king_path(Square::G1, Square::H1),
            Bitboard::from_square(Square::G1)
        );
        // King b8, rook a8: the king's one step lands on c8.
        assert_eq!(
            king_path(Square::B8, Square::A8),
            Bitboard::from_square(Square::C8)
        );
        // King b1, rook h1: the king crosses c1 to g1.
        assert_eq!(king_path(Square::B1, Square::H1), Bitboard(0b0111_1100));
        // King f1, rook g1: the king lands on the rook's square, the rook on
        // the king's; nothing else needs to be empty.
        assert_eq!(must_be_empty(Square::F1, Square::G1), Bitboard::EMPTY);
    }
}
