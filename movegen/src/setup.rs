//! [`Setup`]: a parsed but unvalidated position, the first stage of reading a FEN.

use core::fmt;
use core::str::FromStr;

use attacks::{Bitboard, Color, File, Rank, Square};

use crate::error::{FenField, ParseFenError};
use crate::position::castling_squares;
use crate::types::{CastlingRights, Piece, Role};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Everything a FEN says, parsed but not yet checked for legality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, `a1` first.
    pub board: [Option<Piece>; 64],
    /// The side to move.
    pub turn: Color,
    /// Castling rights.
    pub castling: CastlingRights,
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

    /// The castling rights this board allows, whatever `castling` says:
    /// those whose king and rook stand on their home squares. A position
    /// is valid only if its rights are among these.
    pub fn castling_allowed(&self) -> CastlingRights {
        let mut rights = CastlingRights::NONE;
        for color in Color::ALL {
            for king_side in [true, false] {
                let (king, _, rook, _) = castling_squares(color, king_side);
                let at = |sq: Square, role| self.board[sq.index()] == Some(Piece { color, role });
                if at(king, Role::King) && at(rook, Role::Rook) {
                    rights.0 |= CastlingRights::flag(color, king_side);
                }
            }
        }
        rights
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

fn parse_castling(field: &str) -> Result<CastlingRights, ParseFenError> {
    if field == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = 0u8;
    for c in field.chars() {
        let bit = match c {
            'K' => CastlingRights::WHITE_KING_SIDE,
            'Q' => CastlingRights::WHITE_QUEEN_SIDE,
            'k' => CastlingRights::BLACK_KING_SIDE,
            'q' => CastlingRights::BLACK_QUEEN_SIDE,
            _ => {
                return Err(ParseFenError::new(
                    FenField::Castling,
                    field,
                    "expected '-' or letters from KQkq",
                ));
            }
        };
        if rights & bit != 0 {
            return Err(ParseFenError::new(
                FenField::Castling,
                field,
                "a castling right is repeated",
            ));
        }
        rights |= bit;
    }
    Ok(CastlingRights(rights))
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
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            t => return Err(ParseFenError::new(FenField::Turn, t, "expected 'w' or 'b'")),
        };
        let castling = parse_castling(fields[2])?;
        let ep_square = match fields[3] {
            "-" => None,
            t => Some(t.parse::<Square>().map_err(|_| {
                ParseFenError::new(FenField::EnPassant, t, "expected '-' or a square a1..h8")
            })?),
        };
        let (halfmoves, fullmoves) = if fields.len() == 6 {
            let full = parse_counter(fields[5], FenField::Fullmoves)?;
            (parse_counter(fields[4], FenField::Halfmoves)?, full.max(1))
        } else {
            (0, 1)
        };
        Ok(Setup {
            board,
            turn,
            castling,
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
        write!(f, " {turn} {} ", self.castling)?;
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

    #[test]
    fn castling_allowed_needs_king_and_rook_at_home() {
        let s: Setup = STARTING_FEN.parse().unwrap();
        assert_eq!(s.castling_allowed(), CastlingRights::ALL);
        // No h1 rook: White keeps only the queen side.
        let s: Setup = "r3k2r/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        assert_eq!(s.castling_allowed().to_string(), "Qkq");
        // The black king off e8: Black keeps nothing.
        let s: Setup = "r2k3r/8/8/8/8/8/8/R3K3 w - - 0 1".parse().unwrap();
        assert_eq!(s.castling_allowed().to_string(), "Q");
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
