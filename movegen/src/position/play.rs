//! Making moves on a [`Position`]: legal ones ([`Position::play_unchecked`]),
//! checked ones ([`Position::try_play`], [`Position::play`]), the null move,
//! and the board-only child move counting reads.

use attacks::{
    Bitboard, Color, SliderAttacks, Square, between, bishop_rays, knight_attacks, pawn_attacks,
    rook_rays,
};

use super::{BackRanks, Position};
use crate::castling::{self, CastlingRights, back_rank};
use crate::moves::{Move, MoveKind};
use crate::piece::Role;
use crate::zobrist;

impl<A: SliderAttacks> Position<A> {
    /// Plays a move known to be legal here (from this position's move
    /// generator, or checked with [`is_legal`](Self::is_legal)). Playing
    /// any other move leaves the position in an unspecified, but memory-safe,
    /// state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        self.make::<true>(m);
    }

    /// The number of legal moves after `m`, a legal move here. The child
    /// is made on the board alone, without the Zobrist key, the mailbox and
    /// the clocks, which counting does not read.
    #[inline]
    pub fn count_legal_after(&self, m: Move) -> u64 {
        let mut child = *self;
        child.make::<false>(m);
        child.count_legal()
    }

    /// [`play_unchecked`](Self::play_unchecked), or with `FULL` false only
    /// what move generation reads: the bitboards, the turn, the castling
    /// squares, the en-passant square and the checkers (the key, the mailbox,
    /// the castling rights and the clocks are left stale, so such a position
    /// must not escape).
    #[inline(always)]
    fn make<const FULL: bool>(&mut self, m: Move) {
        let from = m.from();
        let role = self.mailbox[from.index()].unwrap_or(Role::Pawn);
        // Decoded once: every step of `make_parts` asks.
        self.make_parts::<FULL>(from, m.to(), m.kind(), role);
    }

    /// [`make`](Self::make) of the move of `kind` from `from` to `to` by the
    /// piece of `role` standing on `from`: for callers that know these
    /// without a [`Move`] to decode (the move generator's sets).
    #[inline(always)]
    pub(crate) fn make_parts<const FULL: bool>(
        &mut self,
        from: Square,
        to: Square,
        kind: MoveKind,
        role: Role,
    ) {
        self.move_parts::<FULL>(from, to, kind, role, true);

        // 6. Checks against the new side to move. Castling and en passant
        // move two pieces and are rare: recomputed in full.
        let us = !self.turn;
        let king = self.king_of(self.turn);
        self.checkers = match kind {
            MoveKind::Castle | MoveKind::EnPassant => self.attackers(us, king, self.occupied()),
            MoveKind::Normal => self.checks_by(from, to, role, king),
            MoveKind::Promotion(promoted) => self.checks_by(from, to, promoted, king),
        };
        debug_assert_eq!(self.checkers, self.attackers(us, king, self.occupied()));
    }

    /// Steps 1 to 5 of [`make_parts`](Self::make_parts): all but the
    /// checkers, which are left stale for the caller to set with
    /// [`set_checkers`](Self::set_checkers). Without `castling_read`, step
    /// 4 is left out too and the castling squares are stale: for a caller
    /// that will not read them (perft's last two plies, when a child's
    /// castling candidates are known from its parent).
    #[inline(always)]
    pub(crate) fn move_parts<const FULL: bool>(
        &mut self,
        from: Square,
        to: Square,
        kind: MoveKind,
        role: Role,
        castling_read: bool,
    ) {
        let us = self.turn;
        let them = !us;
        let mut key = self.key;

        if FULL && let Some(ep) = self.ep_capturable() {
            key ^= zobrist::en_passant(ep.file());
        }
        self.ep_square = None;
        // Saturating: a FEN may give any clock up to u32::MAX.
        if FULL {
            self.halfmoves = self.halfmoves.saturating_add(1);
        }

        // 1-3. The move itself.
        if matches!(kind, MoveKind::Castle) {
            self.castle::<FULL>(from, to, &mut key);
        } else {
            self.move_piece::<FULL>(from, to, kind, role, &mut key);
        }

        // 4. Castling rights: a king that moves loses both, a rook that moves
        // or is captured its own.
        if FULL || castling_read {
            let touched = self.castling_squares.bitboard() & (Bitboard::from_square(from) | to);
            if touched.any() {
                self.update_castling::<FULL>(touched, &mut key);
            }
        }

        // 5. Turn, counters.
        self.turn = them;
        if FULL {
            if us == Color::Black {
                self.fullmoves = self.fullmoves.saturating_add(1);
            }
            key ^= zobrist::WHITE_TURN;
            if let Some(ep) = self.ep_capturable() {
                key ^= zobrist::en_passant(ep.file());
            }
            self.key = key;
        }
    }

    /// Sets the checkers after [`move_parts`](Self::move_parts): the pieces
    /// of the side not to move that attack the king of the side to move.
    #[inline(always)]
    pub(crate) fn set_checkers(&mut self, checkers: Bitboard) {
        debug_assert_eq!(
            checkers,
            self.attackers(!self.turn, self.king_of(self.turn), self.occupied())
        );
        self.checkers = checkers;
    }

    /// The checks on `king` (of the side now to move) after a move of one
    /// piece, now a `moved`, from `from` to `to`: its direct attack, and a
    /// slider of the mover uncovered behind `from` (a discovered check: an
    /// X-ray from the king along the one line through `from`). No other
    /// piece of the mover can check, as none did before the move.
    #[inline(always)]
    fn checks_by(&self, from: Square, to: Square, moved: Role, king: Square) -> Bitboard {
        let us = !self.turn;
        let occ = self.occupied();
        // A slider checks when the king is on its rays with nothing between.
        let slides = |rays: Bitboard| rays.contains(king) && (between(to, king) & occ).is_empty();
        let direct = match moved {
            Role::Pawn => pawn_attacks(us, to).contains(king),
            Role::Knight => knight_attacks(to).contains(king),
            Role::Bishop => slides(bishop_rays(to)),
            Role::Rook => slides(rook_rays(to)),
            Role::Queen => slides(bishop_rays(to) | rook_rays(to)),
            Role::King => false,
        };
        let checkers = if direct {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        };
        checkers | self.discovered_checkers(king, from)
    }

    /// The sliders of the side not to move that attack `king` (of the side
    /// to move) along the one line from it through `from`, if any: after a
    /// move from `from`, the checks it may have uncovered (an X-ray from the
    /// king that now sees past `from`).
    #[inline(always)]
    pub(crate) fn discovered_checkers(&self, king: Square, from: Square) -> Bitboard {
        let us = !self.turn;
        let occ = self.occupied();
        if rook_rays(king).contains(from) {
            A::rook_attacks(king, occ) & self.rook_likes(us)
        } else if bishop_rays(king).contains(from) {
            A::bishop_attacks(king, occ) & self.bishop_likes(us)
        } else {
            Bitboard::EMPTY
        }
    }

    /// Steps 1 to 3 of [`play_unchecked`](Self::play_unchecked) for every
    /// move but castling: the capture, the move, what is special about it.
    #[inline(always)]
    fn move_piece<const FULL: bool>(
        &mut self,
        from: Square,
        to: Square,
        kind: MoveKind,
        role: Role,
        key: &mut u64,
    ) {
        let us = self.turn;
        let them = !us;
        // 1. Remove a captured piece (not en passant: its victim is elsewhere).
        if let Some(victim) = self.mailbox[to.index()] {
            self.by_role[victim.index()] ^= to;
            self.by_color[them.index()] ^= to;
            if FULL {
                *key ^= zobrist::piece(them, victim, to);
            }
            self.halfmoves = 0;
        }

        // 2. Move the piece.
        let from_to = Bitboard::from_square(from) | to;
        self.by_role[role.index()] ^= from_to;
        self.by_color[us.index()] ^= from_to;
        if FULL {
            self.mailbox[from.index()] = None;
            self.mailbox[to.index()] = Some(role);
            *key ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
        }

        // 3. What is special about the move.
        match kind {
            MoveKind::Normal => {
                if role == Role::Pawn {
                    self.halfmoves = 0;
                    if from.index() ^ to.index() == 16 {
                        self.ep_square = Some(Square::new((from as u32 + to as u32) / 2));
                    }
                }
            }
            MoveKind::EnPassant => {
                let victim = Square::from_coords(to.file(), from.rank());
                self.by_role[Role::Pawn.index()] ^= victim;
                self.by_color[them.index()] ^= victim;
                if FULL {
                    self.mailbox[victim.index()] = None;
                    *key ^= zobrist::piece(them, Role::Pawn, victim);
                }
                self.halfmoves = 0;
            }
            MoveKind::Castle => unreachable!("castling is made by `castle`"),
            MoveKind::Promotion(promoted) => {
                self.by_role[Role::Pawn.index()] ^= to;
                self.by_role[promoted.index()] ^= to;
                if FULL {
                    self.mailbox[to.index()] = Some(promoted);
                    *key ^= zobrist::piece(us, Role::Pawn, to) ^ zobrist::piece(us, promoted, to);
                }
                self.halfmoves = 0;
            }
        }
    }

    /// Step 4 of [`play_unchecked`](Self::play_unchecked), when the move
    /// came from or went to one of `castling_squares` (`touched`): those
    /// squares lose their rights, a king gone from its square takes its
    /// rooks' along, and a king without rooks keeps none. The generator reads
    /// only the squares ([`castling_rooks`](Self::castling_rooks)), so without
    /// `FULL` the rights are left stale, as the key is.
    #[inline(always)]
    fn update_castling<const FULL: bool>(&mut self, touched: Bitboard, key: &mut u64) {
        let kings = self.by_role[Role::King.index()];
        let mut squares = self.castling_squares.bitboard() - touched;
        for color in Color::ALL {
            let rank = Bitboard::rank(back_rank(color));
            let here = squares & rank;
            if (here & kings).is_empty() || (here - kings).is_empty() {
                squares = squares - rank;
            }
        }
        self.castling_squares = BackRanks::pack(squares);
        if FULL {
            self.update_castling_rights(squares, key);
        }
    }

    /// The castling rights of the castling squares `squares` (kings and
    /// their rooks, as [`update_castling`](Self::update_castling) leaves
    /// them), into the position and the key.
    #[inline(never)]
    fn update_castling_rights(&mut self, squares: Bitboard, key: &mut u64) {
        let kings = self.by_role[Role::King.index()];
        let mut rights = 0;
        for color in Color::ALL {
            let here = (squares & Bitboard::rank(back_rank(color))).0;
            let king = here & kings.0;
            // The squares above the king's: its king side. (No king, no
            // rooks either: `here` is empty.)
            let above = !(king | king.wrapping_sub(1));
            let rooks = here & !king;
            if rooks & above != 0 {
                rights |= CastlingRights::flag(color, true);
            }
            if rooks & !above != 0 {
                rights |= CastlingRights::flag(color, false);
            }
        }
        let rights = CastlingRights(rights);
        *key ^= zobrist::castling(self.castling) ^ zobrist::castling(rights);
        self.castling = rights;
    }

    /// Castling: the king from `king` and the rook from `rook` to their
    /// destinations (either may land where the other stood, in Chess960).
    #[inline(always)]
    fn castle<const FULL: bool>(&mut self, king: Square, rook: Square, key: &mut u64) {
        let us = self.turn;
        let (king_to, rook_to) = castling::destinations(king, rook);
        let color = &mut self.by_color[us.index()];
        *color = color
            .without(king)
            .without(rook)
            .with(king_to)
            .with(rook_to);
        let kings = &mut self.by_role[Role::King.index()];
        *kings = kings.without(king).with(king_to);
        let rooks = &mut self.by_role[Role::Rook.index()];
        *rooks = rooks.without(rook).with(rook_to);
        if FULL {
            self.mailbox[king.index()] = None;
            self.mailbox[rook.index()] = None;
            self.mailbox[king_to.index()] = Some(Role::King);
            self.mailbox[rook_to.index()] = Some(Role::Rook);
            *key ^= zobrist::piece(us, Role::King, king)
                ^ zobrist::piece(us, Role::King, king_to)
                ^ zobrist::piece(us, Role::Rook, rook)
                ^ zobrist::piece(us, Role::Rook, rook_to);
        }
    }

    /// Plays `m` if it is legal here; otherwise returns an error and leaves
    /// the position unchanged.
    pub fn try_play(&mut self, m: Move) -> Result<(), crate::MoveError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(crate::IllegalMoveError::Illegal(m.to_string()).into())
        }
    }

    /// The position after `m`, or an error if `m` is not legal here.
    pub fn play(&self, m: Move) -> Result<Position<A>, crate::MoveError> {
        let mut next = *self;
        next.try_play(m)?;
        Ok(next)
    }

    /// Passes the turn (for null-move pruning). Not legal while in check:
    /// the caller must not pass when [`is_check`](Self::is_check).
    pub fn play_null(&mut self) {
        debug_assert!(!self.is_check());
        if let Some(ep) = self.ep_capturable() {
            self.key ^= zobrist::en_passant(ep.file());
        }
        self.ep_square = None;
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.key ^= zobrist::WHITE_TURN;
        self.checkers = Bitboard::EMPTY;
    }

    /// The piece that `m` captures, if any (the pawn for en passant).
    #[inline(always)]
    pub fn captured(&self, m: Move) -> Option<Role> {
        match m.kind() {
            MoveKind::EnPassant => Some(Role::Pawn),
            MoveKind::Castle => None,
            _ => self.mailbox[m.to().index()],
        }
    }

    /// `true` if `m` captures or promotes.
    #[inline(always)]
    pub fn is_noisy(&self, m: Move) -> bool {
        self.captured(m).is_some() || m.promotion_role().is_some()
    }
}
