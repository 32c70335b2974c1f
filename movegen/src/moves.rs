//! [`Move`]: a move in 16 bits, and its [`MoveKind`]. Its notation (and
//! its `Display`) is [`crate::uci`]'s.

use attacks::Square;

use crate::piece::Role;

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others, captures and double pushes included.
    Normal,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; the move goes from the king's square to its rook's square.
    Castle,
    /// A pawn reaching the last rank and becoming this role.
    Promotion(Role),
}

impl MoveKind {
    /// The promotion role, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        match self {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
    }
}

/// A move in 16 bits: origin (6), destination (6) and kind (4).
///
/// Castling is stored as the king taking its own rook (`e1h1`), which names
/// the rook in Chess960 too; [`Move::king_to`] is the king's destination
/// (`g1`). [`Move::NULL`] (`0000` in UCI) passes the turn.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMOTION: u16 = 4; // + role - 1 (knight..queen)
const KIND_LAST_PROMOTION: u16 = KIND_PROMOTION + 3;

impl Move {
    /// The null move (all bits zero).
    pub const NULL: Move = Move(0);

    #[inline(always)]
    const fn with_kind(from: Square, to: Square, kind: u16) -> Move {
        Move(from as u16 | (to as u16) << 6 | kind << 12)
    }

    /// A normal move (also captures and double pushes).
    #[inline(always)]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::with_kind(from, to, KIND_NORMAL)
    }

    /// An en-passant capture (`to` is the square the capturing pawn lands on).
    #[inline(always)]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::with_kind(from, to, KIND_EN_PASSANT)
    }

    /// Castling, given as the king's square and its rook's square.
    #[inline(always)]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::with_kind(king, rook, KIND_CASTLE)
    }

    /// A promotion to `role` (knight, bishop, rook or queen).
    #[inline(always)]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        Move::with_kind(from, to, KIND_PROMOTION + role as u16 - 1)
    }

    /// The move of the given kind.
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        match kind {
            MoveKind::Normal => Move::normal(from, to),
            MoveKind::EnPassant => Move::en_passant(from, to),
            MoveKind::Castle => Move::castle(from, to),
            MoveKind::Promotion(role) => Move::promotion(from, to, role),
        }
    }

    /// The origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::new(self.0 as u32 & 63)
    }

    /// The destination square; for castling, the rook's square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 as u32 >> 6) & 63)
    }

    /// Where the moving piece lands: [`to`](Self::to), but for castling the
    /// king's destination (the `g` or `c` file).
    #[inline(always)]
    pub const fn king_to(self) -> Square {
        if self.0 >> 12 == KIND_CASTLE {
            let file = if self.is_king_side_castle() { 6 } else { 2 };
            Square::new(self.from() as u32 & !7 | file)
        } else {
            self.to()
        }
    }

    /// `true` for castling with the rook on a higher file than the king.
    #[inline(always)]
    pub const fn is_king_side_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE && (self.to() as u32 & 7) > (self.from() as u32 & 7)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k @ KIND_PROMOTION..=KIND_LAST_PROMOTION => {
                MoveKind::Promotion(Role::ALL[(k - KIND_PROMOTION + 1) as usize])
            }
            // Normal, and the kinds no constructor writes (bits from
            // anywhere: `Position::is_legal` turns them down).
            _ => MoveKind::Normal,
        }
    }

    /// The promotion role, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        self.kind().promotion_role()
    }

    /// `true` for [`Move::NULL`].
    #[inline(always)]
    pub const fn is_null(self) -> bool {
        self.0 == 0
    }

    /// The raw 16 bits.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move of raw bits made by [`Move::bits`]. Any value is a move, but
    /// not necessarily a legal one: check with `Position::is_legal`.
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Move {
        Move(bits)
    }
}
