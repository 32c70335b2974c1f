//! [`Setup`]: a parsed but unvalidated position, the first stage of reading a FEN.

use core::fmt;
use core::str::FromStr;

use attacks::{Bitboard, Color, File, Rank, Square};

use crate::castling::{self, CastlingNotation, back_rank};
use crate::error::{FenField, ParseFenError};
use crate::piece::{Piece, Role};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Everything a FEN says, parsed but not yet checked for legality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, `a1` first.
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// The rooks that may still castle (see [`castling`](crate::castling)).
    pub castling_rooks: Bitboard,
    /// How the FEN wrote the castling rights; the FEN is written back so.
    pub castling_notation: CastlingNotation,
    /// The en-passant square, if the last move was a double pawn push.
    pub ep_square: Option<Square>,
    /// Plies since the last capture or pawn move.
    pub halfmoves: u32,
    /// The full-move number, starting at 1.
    pub fullmoves: u32,
}

impl Setup {
    /// The squares holding `piece`.
    pub fn pieces(&self, piece: Piece) -> Bitboard {
        Square::ALL
            .into_iter()
            .filter(|&sq| self.board[sq.index()] == Some(piece))
            .collect()
    }

    /// The rooks that could hold a castling right on this board, whatever
    /// `castling_rooks` says: each side's rooks on its back rank, if its king
    /// stands there too. A position is valid only if its castling rooks are
    /// among these, with at most one on each side of each king.
    pub fn castling_allowed(&self) -> Bitboard {
        let mut rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            let rank = Bitboard::rank(back_rank(color));
            let own = |role| self.pieces(Piece { color, role }) & rank;
            if own(Role::King).any() {
                rooks |= own(Role::Rook);
            }
        }
        rooks
    }

    /// The rooks of `castling_rooks` that can castle on this board: those
    /// among [`castling_allowed`](Self::castling_allowed), and of several on
    /// one side of a king only the outermost (the rook X-FEN's `K` or `Q`
    /// names). shakmaty's reading with its invalid castling rights ignored
    /// and python-chess's `clean_castling_rights()` keep the same rooks.
    /// Equal to `castling_rooks` exactly when validation accepts the rights.
    pub fn valid_castling_rooks(&self) -> Bitboard {
        let rooks = self.castling_rooks & self.castling_allowed();
        let mut kept = Bitboard::EMPTY;
        for color in Color::ALL {
            let rank = Bitboard::rank(back_rank(color));
            let king = self.pieces(Piece {
                color,
                role: Role::King,
            }) & rank;
            let Some(king) = king.ls1b() else { continue };
            let mine = rooks & rank;
            // One rank: the lowest square is the lowest file.
            let queen_side = mine.filter(|r| r.file() < king.file()).min();
            let king_side = mine.filter(|r| r.file() > king.file()).max();
            for rook in queen_side.into_iter().chain(king_side) {
                kept = kept.with(rook);
            }
        }
        kept
    }

    /// The rooks that the flags `rights` stand for, as X-FEN reads `KQkq`:
    /// the outermost rook on each side of the king, where there is one.
    pub fn rooks_for(&self, rights: crate::CastlingRights) -> Bitboard {
        let mut rooks = Bitboard::EMPTY;
        for color in Color::ALL {
            for king_side in [true, false] {
                if rights.has(color, king_side)
                    && let Some(rook) = castling::outermost_rook(&self.board, color, king_side)
                {
                    rooks |= rook;
                }
            }
        }
        rooks
    }

    /// `true` if the en-passant square, where there is one, follows a double
    /// push of the side not to move: on the sixth rank (the third with Black
    /// to move), empty, with the pawn that passed it in front of it and the
    /// square it came from empty. Whether a pawn can capture there does not
    /// matter. A position is valid only if this holds.
    pub fn ep_square_follows_double_push(&self) -> bool {
        let Some(ep) = self.ep_square else {
            return true;
        };
        let us = self.turn;
        let (ep_rank, pawn_sq, origin) = match us {
            Color::White => (Rank::Sixth, ep.offset(0, -1), ep.offset(0, 1)),
            Color::Black => (Rank::Third, ep.offset(0, 1), ep.offset(0, -1)),
        };
        let at = |sq: Square| self.board[sq.index()];
        ep.rank() == ep_rank
            && at(ep).is_none()
            && origin.is_some_and(|o| at(o).is_none())
            && pawn_sq.is_some_and(|p| {
                at(p)
                    == Some(Piece {
                        color: !us,
                        role: Role::Pawn,
                    })
            })
    }
}

fn parse_board(field: &str) -> Result<[Option<Piece>; 64], ParseFenError> {
    let err = |reason| ParseFenError::new(FenField::Board, field, reason);
    let mut board = [None; 64];
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(err("expected 8 ranks separated by '/'"));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::new(7 - i as u32);
        let mut file = 0u32;
        let mut last_was_digit = false;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if !(1..=8).contains(&d) || last_was_digit {
                    return Err(err("empty-square counts must be 1 to 8 and not adjacent"));
                }
                file += d;
                last_was_digit = true;
            } else if let Some(piece) = Piece::from_char(c) {
                if file >= 8 {
                    return Err(err("a rank has more than 8 squares"));
                }
                board[Square::from_coords(File::new(file), rank).index()] = Some(piece);
                file += 1;
                last_was_digit = false;
            } else {
                return Err(err("unexpected character (pieces are PNBRQK/pnbrqk)"));
            }
            if file > 8 {
                return Err(err("a rank has more than 8 squares"));
            }
        }
        if file != 8 {
            return Err(err("a rank has fewer than 8 squares"));
        }
    }
    Ok(board)
}

fn parse_counter(field: &str, which: FenField) -> Result<u32, ParseFenError> {
    field
        .parse::<u32>()
        .map_err(|_| ParseFenError::new(which, field, "expected a non-negative whole number"))
}

impl FromStr for Setup {
    type Err = ParseFenError;

    /// Parses a FEN with 6 fields, or 4 (clocks omitted: 0 and 1).
    fn from_str(fen: &str) -> Result<Setup, ParseFenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.len() != 4 && fields.len() != 6 {
            return Err(ParseFenError {
                field: None,
                token: fen.trim().to_owned(),
                reason: "expected 6 fields (or 4 without the clocks)",
            });
        }
        Setup::from_fields(&fields)
    }
}

impl Setup {
    /// Parses the fields of a FEN: 4 (without the clocks: 0 and 1) or 6.
    pub(crate) fn from_fields(fields: &[&str]) -> Result<Setup, ParseFenError> {
        let (board, turn, castling, ep, clocks) = match *fields {
            [board, turn, castling, ep, ref clocks @ ..] if matches!(clocks.len(), 0 | 2) => {
                (board, turn, castling, ep, clocks)
            }
            _ => {
                return Err(ParseFenError {
                    field: None,
                    token: fields.join(" "),
                    reason: "expected 6 fields (or 4 without the clocks)",
                });
            }
        };
        let board = parse_board(board)?;
        let turn = match turn {
            "w" => Color::White,
            "b" => Color::Black,
            t => return Err(ParseFenError::new(FenField::Turn, t, "expected 'w' or 'b'")),
        };
        let (castling_rooks, castling_notation) = castling::parse_field(castling, &board)
            .map_err(|reason| ParseFenError::new(FenField::Castling, castling, reason))?;
        let ep_square = match ep {
            "-" => None,
            t => Some(t.parse::<Square>().map_err(|_| {
                ParseFenError::new(FenField::EnPassant, t, "expected '-' or a square a1..h8")
            })?),
        };
        let (halfmoves, fullmoves) = match *clocks {
            [half, full] => {
                let full = parse_counter(full, FenField::Fullmoves)?;
                (parse_counter(half, FenField::Halfmoves)?, full.max(1))
            }
            _ => (0, 1),
        };
        Ok(Setup {
            board,
            turn,
            castling_rooks,
            castling_notation,
            ep_square,
            halfmoves,
            fullmoves,
        })
    }
}

impl fmt::Display for Setup {
    /// The FEN with all six fields.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.board[Square::from_coords(file, *rank).index()] {
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if *rank != Rank::First {
                f.write_str("/")?;
            }
        }
        let turn = if self.turn == Color::White { 'w' } else { 'b' };
        write!(f, " {turn} ")?;
        castling::write_field(f, self.castling_rooks, self.castling_notation, &self.board)?;
        f.write_str(" ")?;
        match self.ep_square {
            Some(sq) => write!(f, "{sq}")?,
            None => f.write_str("-")?,
        }
        write!(f, " {} {}", self.halfmoves, self.fullmoves)
    }
}

impl Default for Setup {
    /// The starting position.
    fn default() -> Setup {
        STARTING_FEN
            .parse()
            .unwrap_or_else(|_| unreachable!("the starting FEN parses"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(list: &[Square]) -> Bitboard {
        list.iter().copied().collect()
    }

    #[test]
    fn castling_allowed_needs_king_and_rook_on_the_back_rank() {
        use Square::*;
        let s: Setup = STARTING_FEN.parse().unwrap();
        assert_eq!(s.castling_allowed(), squares(&[A1, H1, A8, H8]));
        // Every back-rank rook of a side whose king is there too.
        let s: Setup = "r3k2r/8/8/8/8/8/8/RR2K3 w - - 0 1".parse().unwrap();
        assert_eq!(s.castling_allowed(), squares(&[A1, B1, A8, H8]));
        // The black king off the back rank: Black has none.
        let s: Setup = "r6r/3k4/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        assert_eq!(s.castling_allowed(), squares(&[A1]));
    }

    #[test]
    fn castling_fields_in_every_notation() {
        use Square::*;
        let read = |fen: &str| fen.parse::<Setup>().unwrap();
        // X-FEN: `K` is the outermost rook on the king side, `B` an inner one.
        let s = read("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KBkq - 0 1");
        assert_eq!(s.castling_rooks, squares(&[G1, B1, H8, B8]));
        assert_eq!(s.castling_notation, CastlingNotation::XFen);
        assert_eq!(s.to_string(), "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KBkq - 0 1");
        // Shredder-FEN: files only, written back as read.
        let s = read("1r2k1rr/8/8/8/8/8/8/RR2K1R1 w GBhb - 0 1");
        assert_eq!(s.castling_rooks, squares(&[G1, B1, H8, B8]));
        assert_eq!(s.castling_notation, CastlingNotation::Shredder);
        assert_eq!(s.to_string(), "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w GBhb - 0 1");
        // A Chess960 start position in both forms.
        let shredder = read("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1");
        let xfen = read("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1");
        assert_eq!(shredder.castling_rooks, xfen.castling_rooks);
        assert_eq!(xfen.castling_rooks, squares(&[E1, G1, E8, G8]));
        // A right with no rook on its side is read as the standard square,
        // for the validation to reject.
        assert_eq!(
            read("4k3/8/8/8/8/8/8/4K3 w K - 0 1").castling_rooks,
            squares(&[H1])
        );
        let e = "4k3/8/8/8/8/8/8/R3K3 w AA - 0 1"
            .parse::<Setup>()
            .unwrap_err();
        assert_eq!(e.field, Some(FenField::Castling));
        assert!(e.to_string().contains("repeated"), "{e}");
    }

    #[test]
    fn start_round_trips() {
        let s: Setup = STARTING_FEN.parse().unwrap();
        assert_eq!(s.to_string(), STARTING_FEN);
    }

    #[test]
    fn four_fields_accepted() {
        let s: Setup = "8/8/8/8/8/8/8/K6k w - -".parse().unwrap();
        assert_eq!((s.halfmoves, s.fullmoves), (0, 1));
    }

    #[test]
    fn errors_name_field_and_token() {
        let e = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"
            .parse::<Setup>()
            .unwrap_err();
        assert_eq!(e.field, Some(FenField::Turn));
        assert_eq!(e.token, "x");
        let e = "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
            .parse::<Setup>()
            .unwrap_err();
        assert_eq!(e.field, Some(FenField::Board));
        let e = "8/8/8/8/8/8/8/K6k w KQz - 0 1"
            .parse::<Setup>()
            .unwrap_err();
        assert_eq!(
            (e.field, e.token.as_str()),
            (Some(FenField::Castling), "KQz")
        );
        let e = "8/8/8/8/8/8/8/K6k w - e9 0 1".parse::<Setup>().unwrap_err();
        assert_eq!(e.field, Some(FenField::EnPassant));
        let e = "8/8/8/8/8/8/8/K6k w - - -1 1".parse::<Setup>().unwrap_err();
        assert_eq!(e.field, Some(FenField::Halfmoves));
        assert!(e.to_string().contains("half-move clock '-1'"));
        assert_eq!("".parse::<Setup>().unwrap_err().field, None);
        assert!("8/8/8/8/8/8/8/K6k w - - 0".parse::<Setup>().is_err());
        assert!("9/8/8/8/8/8/8/K6k w - - 0 1".parse::<Setup>().is_err());
        assert!("44/8/8/8/8/8/8/K6k w - - 0 1".parse::<Setup>().is_err());
        assert!(
            "ppppppppp/8/8/8/8/8/8/K6k w - - 0 1"
                .parse::<Setup>()
                .is_err()
        );
    }
}
