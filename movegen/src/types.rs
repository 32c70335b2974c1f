//! Pieces, castling rights and moves.

use core::fmt;

use attacks::{Color, Square};

/// The kind of a piece, without its colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Role {
    Pawn,
    Knight,
    Bishop,
    Rook,
    Queen,
    King,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] = [
        Role::Pawn,
        Role::Knight,
        Role::Bishop,
        Role::Rook,
        Role::Queen,
        Role::King,
    ];

    /// 0 (pawn) to 5 (king).
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lowercase letter (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The uppercase letter used in SAN (`P N B R Q K`).
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// The role of a letter, either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }
}

/// A piece: a role and a colour.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: uppercase for White, lowercase for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// The piece of a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        match Role::from_char(c) {
            Some(role) => Some(Piece {
                color: if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                },
                role,
            }),
            None => None,
        }
    }
}

/// Castling rights: four flags, White king side (`K`), White queen side
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

/// What kind of move a [`Move`] is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others, captures and double pushes included.
    Normal,
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling; the move goes from the king's square to its destination.
    Castle,
    /// A pawn reaching the last rank and becoming this role.
    Promotion(Role),
}

/// A move in 16 bits: origin (6), destination (6) and kind (4).
///
/// Castling is stored as the king's move (`e1g1`), as UCI writes it.
/// [`Move::NULL`] (`0000` in UCI) passes the turn.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMOTION: u16 = 4; // + role - 1 (knight..queen)

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

    /// Castling, given as the king's origin and destination squares.
    #[inline(always)]
    pub const fn castle(king_from: Square, king_to: Square) -> Move {
        Move::with_kind(king_from, king_to, KIND_CASTLE)
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

    /// The destination square.
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::new((self.0 as u32 >> 6) & 63)
    }

    /// The kind of move.
    #[inline(always)]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_EN_PASSANT => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k if k >= KIND_PROMOTION => {
                MoveKind::Promotion(Role::ALL[(k - KIND_PROMOTION + 1) as usize & 7])
            }
            _ => MoveKind::Normal,
        }
    }

    /// The promotion role, if this is a promotion.
    #[inline(always)]
    pub const fn promotion_role(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(r) => Some(r),
            _ => None,
        }
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

/// UCI notation: `e2e4`, `e7e8q`, `e1g1` for castling, `0000` for the null move.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}
