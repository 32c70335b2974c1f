//! [`Position`]: the board, side to move, castling rights, en-passant square,
//! clocks and Polyglot Zobrist key, and making moves on it.

use core::fmt;
use core::marker::PhantomData;
use core::str::FromStr;

use attacks::{
    Bitboard, Color, Magic, Rank, SliderAttacks, Square, bishop_rays, king_attacks, knight_attacks,
    pawn_attacks, pawn_attacks_setwise, rook_rays,
};

use crate::castling::{CastlingNotation, CastlingRights, back_rank};
use crate::error::{FenError, PositionError};
use crate::piece::{Piece, Role};
use crate::setup::{STARTING_FEN, Setup};
use crate::zobrist;

mod play;

/// A set of squares of the first and eighth ranks in 16 bits.
#[derive(Clone, Copy, PartialEq, Eq, Default)]
struct BackRanks(u16);

impl BackRanks {
    const EMPTY: BackRanks = BackRanks(0);

    /// The back-rank squares of `bb`.
    #[inline(always)]
    const fn pack(bb: Bitboard) -> BackRanks {
        BackRanks((bb.0 & 0xff | (bb.0 >> 56) << 8) as u16)
    }

    #[inline(always)]
    const fn bitboard(self) -> Bitboard {
        let x = self.0 as u64;
        Bitboard(x & 0xff | (x >> 8) << 56)
    }
}

/// A legal chess position, with the sliding-attack method `A` that its move
/// generation, checks and attack queries use.
///
/// Every method gives the same results; only speed differs. The default is
/// fancy magic, so `Position` alone names a working type:
///
/// ```
/// use movegen::Position;
///
/// let pos: Position = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 20);
/// assert_eq!(pos.key(), 0x463b96181691fc9c); // the Polyglot key
/// ```
#[derive(Clone, Copy)]
pub struct Position<A: SliderAttacks = Magic> {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    mailbox: [Option<Role>; 64],
    turn: Color,
    castling: CastlingRights,
    /// The rooks that may castle and their kings, all on the back ranks:
    /// a move from or to any of these squares changes the rights (the one
    /// test `play_unchecked` makes). Packed into 16 bits, ranks 1 and 8,
    /// which keeps `Position` at 160 bytes for copy-make (see the test).
    castling_squares: BackRanks,
    castling_notation: CastlingNotation,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
    key: u64,
    checkers: Bitboard,
    method: PhantomData<A>,
}

impl<A: SliderAttacks> Position<A> {
    /// The standard starting position.
    pub fn startpos() -> Position<A> {
        Position::from_setup(&Setup::default())
            .unwrap_or_else(|_| unreachable!("the starting position is legal"))
    }

    /// Reads a FEN (6 fields, or 4 without the clocks) in its two stages,
    /// strictly: for the lenient reading a GUI's FEN wants, see
    /// [`from_fen_lenient`](Position::from_fen_lenient).
    pub fn from_fen(fen: &str) -> Result<Position<A>, FenError> {
        let setup: Setup = fen.parse()?;
        Ok(Position::from_setup(&setup)?)
    }

    /// The second stage of reading a FEN: checks that the setup is a legal
    /// position. An en-passant square that no pawn can capture on is kept (as
    /// FEN has it) but does not enter the Zobrist key, as in Polyglot.
    pub fn from_setup(setup: &Setup) -> Result<Position<A>, PositionError> {
        let mut pos = Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            mailbox: [None; 64],
            turn: setup.turn,
            castling: CastlingRights::NONE,
            castling_squares: BackRanks::EMPTY,
            castling_notation: setup.castling_notation,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            key: 0,
            checkers: Bitboard::EMPTY,
            method: PhantomData,
        };
        for sq in Square::ALL {
            if let Some(piece) = setup.board[sq.index()] {
                pos.put(sq, piece);
            }
        }
        for color in Color::ALL {
            if pos.pieces(color, Role::King).count() != 1 {
                return Err(PositionError::Kings);
            }
        }
        for color in Color::ALL {
            let n = |role| pos.pieces(color, role).count();
            let pawns = n(Role::Pawn);
            let promoted = n(Role::Knight).saturating_sub(2)
                + n(Role::Bishop).saturating_sub(2)
                + n(Role::Rook).saturating_sub(2)
                + n(Role::Queen).saturating_sub(1);
            if pos.by_color(color).count() > 16 || pawns > 8 || promoted + pawns > 8 {
                return Err(PositionError::TooMuchMaterial);
            }
        }
        let back_ranks = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        if (pos.by_role[Role::Pawn.index()] & back_ranks).any() {
            return Err(PositionError::PawnsOnBackRank);
        }
        // Castling rooks: own rooks on the back rank with their king, at
        // most one on each side of it.
        if setup.valid_castling_rooks() != setup.castling_rooks {
            return Err(PositionError::InvalidCastlingRights);
        }
        let mut castling_squares = setup.castling_rooks;
        let kings = [pos.king_of(Color::White), pos.king_of(Color::Black)];
        for color in Color::ALL {
            if (setup.castling_rooks & Bitboard::rank(back_rank(color))).any() {
                castling_squares |= kings[color.index()];
            }
        }
        pos.castling_squares = BackRanks::pack(castling_squares);
        pos.castling = CastlingRights::of_rooks(setup.castling_rooks, kings);
        if !setup.ep_square_follows_double_push() {
            return Err(PositionError::InvalidEnPassant);
        }
        let them_king = pos.king_of(!pos.turn);
        if pos.attackers(pos.turn, them_king, pos.occupied()).any() {
            return Err(PositionError::OppositeCheck);
        }
        pos.checkers = pos.attackers(!pos.turn, pos.king_of(pos.turn), pos.occupied());
        pos.key = pos.compute_key();
        Ok(pos)
    }

    /// The same position with another attack method.
    pub fn with_method<B: SliderAttacks>(&self) -> Position<B> {
        Position {
            by_role: self.by_role,
            by_color: self.by_color,
            mailbox: self.mailbox,
            turn: self.turn,
            castling: self.castling,
            castling_squares: self.castling_squares,
            castling_notation: self.castling_notation,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
            key: self.key,
            checkers: self.checkers,
            method: PhantomData,
        }
    }

    /// What a FEN of this position says, as an editable [`Setup`].
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for sq in Square::ALL {
            board[sq.index()] = self.piece_at(sq);
        }
        Setup {
            board,
            turn: self.turn,
            castling_rooks: self.castling_rooks(),
            castling_notation: self.castling_notation,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The FEN of this position (all six fields).
    pub fn fen(&self) -> String {
        self.to_setup().to_string()
    }

    #[inline(always)]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()] |= sq;
        self.by_color[piece.color.index()] |= sq;
        self.mailbox[sq.index()] = Some(piece.role);
    }

    // --- Queries -----------------------------------------------------------

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Castling rights as the four `KQkq` flags.
    #[inline(always)]
    pub fn castling(&self) -> CastlingRights {
        self.castling
    }

    /// The rooks that may still castle: the castling rights of standard
    /// chess and Chess960 alike.
    #[inline(always)]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castling_squares.bitboard() - self.by_role[Role::King.index()]
    }

    /// `true` if castling here needs Chess960 to describe it: a castling
    /// rook off the `a` and `h` files, or its king off the `e` file (the
    /// test shakmaty's `CastlingMode::detect` makes).
    pub fn is_chess960(&self) -> bool {
        let odd = |rook: &Square| {
            let color = if rook.rank() == Rank::First {
                Color::White
            } else {
                Color::Black
            };
            !matches!(rook.file(), attacks::File::A | attacks::File::H)
                || self.king_of(color).file() != attacks::File::E
        };
        self.castling_rooks().into_iter().filter(odd).count() > 0
    }

    /// How this position's FEN writes castling rights (as it was read).
    pub fn castling_notation(&self) -> CastlingNotation {
        self.castling_notation
    }

    /// The en-passant square as FEN gives it: set after every double push,
    /// whether or not a capture there is possible.
    #[inline(always)]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Plies since the last capture or pawn move (the 50-move counter).
    #[inline(always)]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number, starting at 1 and counting up after Black moves.
    #[inline(always)]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// The Polyglot Zobrist key, kept up to date incrementally.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// `true` if the side to move is in check.
    #[inline(always)]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The squares of `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `color`'s pieces of `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    /// Rooks and queens of `color`.
    #[inline(always)]
    pub fn rook_likes(&self, color: Color) -> Bitboard {
        (self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()])
            & self.by_color[color.index()]
    }

    /// Bishops and queens of `color`.
    #[inline(always)]
    pub fn bishop_likes(&self, color: Color) -> Bitboard {
        (self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()])
            & self.by_color[color.index()]
    }

    /// The role of the piece on `sq`, if any.
    #[inline(always)]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        self.mailbox[sq.index()]
    }

    /// The piece on `sq`, if any.
    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.mailbox[sq.index()]?;
        let color = if self.by_color[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Square {
        self.pieces(color, Role::King).single_square()
    }

    /// The pieces of `color` that attack `sq`, given the occupied squares
    /// (which may differ from the board's, to look through pieces).
    #[inline(always)]
    pub fn attackers(&self, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[color.index()];
        let mut found = ((knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (king_attacks(sq) & self.by_role[Role::King.index()])
            | (pawn_attacks(!color, sq) & self.by_role[Role::Pawn.index()]))
            & them;
        // Sliders only where one stands on a line through `sq`: most squares
        // of most positions need no slider lookup at all.
        let rooks = self.rook_likes(color) & rook_rays(sq);
        if rooks.any() {
            found |= A::rook_attacks(sq, occupied) & rooks;
        }
        let bishops = self.bishop_likes(color) & bishop_rays(sq);
        if bishops.any() {
            found |= A::bishop_attacks(sq, occupied) & bishops;
        }
        found
    }

    /// `true` if `color` attacks `sq` on the current board.
    #[inline(always)]
    pub fn is_attacked(&self, color: Color, sq: Square) -> bool {
        self.attackers(color, sq, self.occupied()).any()
    }

    /// The squares of `asked` that `color` attacks, given the occupied
    /// squares (which may differ from the board's: the move generator lifts
    /// its king off to find where it may step). Pawns, knights and the king
    /// are mapped setwise or by table; a slider is looked up only when one of
    /// its empty-board lines crosses `asked`, so one lookup per slider at
    /// most, where [`attackers`](Self::attackers) costs up to two per square.
    #[inline(always)]
    pub fn attacked_among(&self, color: Color, asked: Bitboard, occupied: Bitboard) -> Bitboard {
        let mut seen = pawn_attacks_setwise(color, self.pieces(color, Role::Pawn))
            | king_attacks(self.king_of(color));
        for sq in self.pieces(color, Role::Knight) {
            seen |= knight_attacks(sq);
        }
        let (mut bishop_reach, mut rook_reach) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for sq in asked {
            bishop_reach |= bishop_rays(sq);
            rook_reach |= rook_rays(sq);
        }
        for sq in self.bishop_likes(color) & bishop_reach {
            seen |= A::bishop_attacks(sq, occupied);
        }
        for sq in self.rook_likes(color) & rook_reach {
            seen |= A::rook_attacks(sq, occupied);
        }
        seen & asked
    }

    /// `true` if the en-passant square can be captured on by a pawn of the
    /// side to move (pseudo-legally, as Polyglot keys count it).
    #[inline(always)]
    fn ep_capturable(&self) -> Option<Square> {
        let ep = self.ep_square?;
        (pawn_attacks(!self.turn, ep) & self.pieces(self.turn, Role::Pawn))
            .any()
            .then_some(ep)
    }

    /// The key computed from scratch; equals [`key`](Self::key).
    pub fn compute_key(&self) -> u64 {
        let mut key = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                key ^= zobrist::piece(p.color, p.role, sq);
            }
        }
        key ^= zobrist::castling(self.castling);
        if let Some(ep) = self.ep_capturable() {
            key ^= zobrist::en_passant(ep.file());
        }
        if self.turn == Color::White {
            key ^= zobrist::WHITE_TURN;
        }
        key
    }

    /// `true` if neither side has mating material: bare kings, a single minor
    /// piece, or only bishops all on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if heavy.any() {
            return false;
        }
        let knights = self.by_role(Role::Knight);
        let bishops = self.by_role(Role::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }
}

impl<A: SliderAttacks> Default for Position<A> {
    fn default() -> Position<A> {
        Position::startpos()
    }
}

impl<A: SliderAttacks> PartialEq for Position<A> {
    /// Positions are equal when their FENs are.
    fn eq(&self, other: &Position<A>) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.castling_squares == other.castling_squares
            && self.ep_square == other.ep_square
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
    }
}

impl<A: SliderAttacks> Eq for Position<A> {}

impl<A: SliderAttacks> FromStr for Position<A> {
    type Err = FenError;
    fn from_str(fen: &str) -> Result<Position<A>, FenError> {
        Position::from_fen(fen)
    }
}

impl<A: SliderAttacks> fmt::Display for Position<A> {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_setup())
    }
}

impl<A: SliderAttacks> fmt::Debug for Position<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?}, \"{}\")", A::METHOD, self.fen())
    }
}

/// The starting position's FEN, for `position startpos`.
pub const STARTPOS: &str = STARTING_FEN;

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by fuzzing FENs: the clocks of a FEN may be anything up to
    /// `u32::MAX`, and making a move (or a null move) then overflowed them
    /// (a panic where overflow checks are on, a wrap to 0 elsewhere). They
    /// saturate now, as shakmaty's do.
    #[test]
    fn clocks_at_their_maximum_saturate() {
        let fen = "4k3/8/8/8/8/8/8/4K3 b - - 4294967295 4294967295";
        let pos: Position = Position::from_fen(fen).unwrap();
        let m = pos.legal_moves()[0];
        let mut next = pos;
        next.play_unchecked(m);
        assert_eq!((next.halfmoves(), next.fullmoves()), (u32::MAX, u32::MAX));
        assert_eq!(next.key(), next.compute_key());
        let mut null = pos;
        null.play_null();
        assert_eq!((null.halfmoves(), null.fullmoves()), (u32::MAX, u32::MAX));
    }
}

#[cfg(test)]
mod layout {
    use super::*;

    /// Copy-make copies the position at every node: Chess960's castling
    /// squares fit in the bytes standard chess left free.
    #[test]
    fn position_stays_160_bytes() {
        assert_eq!(core::mem::size_of::<Position>(), 160);
    }

    #[test]
    fn back_ranks_pack_and_unpack() {
        let bb = Bitboard::rank(Rank::First) | Bitboard::rank(Rank::Eighth);
        assert_eq!(BackRanks::pack(bb).bitboard(), bb);
        let some = Bitboard::from_square(Square::B1).with(Square::G8);
        assert_eq!(BackRanks::pack(some).bitboard(), some);
    }
}
