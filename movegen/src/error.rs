//! The two stages of reading a position: parsing ([`ParseFenError`]) and
//! validation ([`PositionError`]).

use core::fmt;

/// A field of a FEN record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    /// Piece placement, `rnbqkbnr/...`.
    Board,
    /// Side to move, `w` or `b`.
    Turn,
    /// Castling rights, `KQkq` or `-`.
    Castling,
    /// En-passant square, `e3` or `-`.
    EnPassant,
    /// Half-move clock (plies since the last capture or pawn move).
    Halfmoves,
    /// Full-move number, starting at 1.
    Fullmoves,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Board => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en-passant square",
            FenField::Halfmoves => "half-move clock",
            FenField::Fullmoves => "full-move number",
        })
    }
}

/// A FEN that could not be parsed: which field, which token, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFenError {
    /// The field that failed, or `None` for the record as a whole (too few or
    /// too many fields).
    pub field: Option<FenField>,
    /// The offending token (the whole field, or the part that failed).
    pub token: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl ParseFenError {
    pub(crate) fn new(field: FenField, token: &str, reason: &'static str) -> ParseFenError {
        ParseFenError {
            field: Some(field),
            token: token.to_owned(),
            reason,
        }
    }
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some(field) => write!(f, "invalid FEN: {field} '{}': {}", self.token, self.reason),
            None => write!(f, "invalid FEN '{}': {}", self.token, self.reason),
        }
    }
}

impl std::error::Error for ParseFenError {}

/// Why a parsed position is not a legal chess position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PositionError {
    /// A side has no king, or more than one.
    Kings,
    /// A pawn stands on the first or eighth rank.
    PawnsOnBackRank,
    /// The side not to move is in check (its king could be captured).
    OppositeCheck,
    /// A castling right without the king and rook on their home squares.
    InvalidCastlingRights,
    /// The en-passant square does not follow a double pawn push.
    InvalidEnPassant,
    /// More material than a game can reach: a side with more than 16
    /// pieces, more than 8 pawns, or more promoted pieces than missing pawns.
    /// (Such positions can also exceed the 256 moves a [`crate::MoveList`] holds.)
    TooMuchMaterial,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PositionError::Kings => "illegal position: each side needs exactly one king",
            PositionError::PawnsOnBackRank => "illegal position: pawn on the first or eighth rank",
            PositionError::OppositeCheck => "illegal position: the side not to move is in check",
            PositionError::InvalidCastlingRights => {
                "illegal position: castling right without king and rook on their home squares"
            }
            PositionError::InvalidEnPassant => {
                "illegal position: en-passant square does not follow a double pawn push"
            }
            PositionError::TooMuchMaterial => {
                "illegal position: too much material (a side has at most 16 pieces, 8 pawns, \
                 and one promoted piece per missing pawn)"
            }
        })
    }
}

impl std::error::Error for PositionError {}

/// Either stage's error, for callers that read a FEN in one go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not a FEN.
    Parse(ParseFenError),
    /// The FEN describes an illegal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => e.fmt(f),
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// Text that is not a move in the notation read: the first stage of reading
/// a move ([`UciMove`](crate::UciMove), [`SanMove`](crate::SanMove)), which
/// knows nothing of the position yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    notation: &'static str,
    text: String,
}

impl ParseMoveError {
    pub(crate) fn new(notation: &'static str, text: &str) -> ParseMoveError {
        ParseMoveError {
            notation,
            text: text.to_owned(),
        }
    }

    /// The text that was read.
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move in {} notation",
            self.text, self.notation
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// A well-formed move that the position does not allow: the second stage of
/// reading a move ([`UciMove::to_move`](crate::UciMove::to_move),
/// [`SanMove::to_move`](crate::SanMove::to_move)). Each variant holds the
/// move as written back from what was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMoveError {
    /// No legal move fits.
    Illegal(String),
    /// A SAN move that fits more than one legal move.
    Ambiguous(String),
}

impl IllegalMoveError {
    /// The move as it was given.
    pub fn text(&self) -> &str {
        match self {
            IllegalMoveError::Illegal(s) | IllegalMoveError::Ambiguous(s) => s,
        }
    }
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMoveError::Illegal(s) => write!(f, "illegal move '{s}'"),
            IllegalMoveError::Ambiguous(s) => write!(f, "ambiguous move '{s}'"),
        }
    }
}

impl std::error::Error for IllegalMoveError {}

/// Either stage, for text read straight into a legal move
/// ([`Position::parse_uci`](crate::Position::parse_uci), `parse_san`,
/// `parse_move`) or a move played with a check (`try_play`, `play`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move in the notation read.
    Syntax(ParseMoveError),
    /// Well-formed, but not a legal move here (or an ambiguous SAN move).
    Illegal(IllegalMoveError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(e) => e.fmt(f),
            MoveError::Illegal(e) => e.fmt(f),
        }
    }
}

// Display shows the inner error itself, so there is no `source` to chain.
impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> MoveError {
        MoveError::Syntax(e)
    }
}

impl From<IllegalMoveError> for MoveError {
    fn from(e: IllegalMoveError) -> MoveError {
        MoveError::Illegal(e)
    }
}
