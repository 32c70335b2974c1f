//! Legal move generation, generic over the sliding-attack method.
//!
//! The generator writes *sets* of moves into a [`MoveSink`]: all moves of a
//! piece at once as a target bitboard, pawn moves as one target set per
//! direction. A [`MoveList`] expands them into moves; a [`MoveCounter`]
//! only counts them with `popcount`, which is how perft bulk-counts the last
//! ply without making a single move.
//!
//! Steps, for the side to move:
//! 1. King moves, each target checked for enemy attacks with our king lifted
//!    off the board (so it cannot hide behind itself on a slider's line),
//!    together with the castling king's path: square by square when there
//!    are few to ask, else from one map of the squares the enemy attacks.
//! 2. In double check nothing else is legal.
//! 3. The check mask: with one checker, other pieces must capture it or step
//!    between it and the king; otherwise every square.
//! 4. Pinned pieces, by X-ray from our king through our own pieces onto
//!    enemy sliders ([`Position::pinned`]); a pinned piece moves only along
//!    the line of its pin, and not at all while in check.
//! 5. Knights, bishops, rooks, queens: attacks minus own pieces, masked.
//! 6. Pawns set-wise (pushes, double pushes, captures, promotions), pinned
//!    pawns one by one.
//! 7. En passant, checked by replaying the occupancy (this catches the
//!    horizontal pin where both pawns leave the king's rank).
//! 8. Castling (standard and Chess960): rights, the squares the king and rook
//!    cross empty, the king not in check and not passing through or landing on
//!    an attacked square (step 1's answer), nor on one the castling rook
//!    shielded along the back rank.

use arrayvec::ArrayVec;
use attacks::{
    Bitboard, Color, Rank, SliderAttacks, Square, between, king_attacks, knight_attacks, line,
    pawn_attacks,
};

use crate::castling::{self, back_rank};
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, Role};
use crate::position::Position;

/// Which moves to generate. Every stage generates only legal moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Every legal move (when in check: the evasions).
    All,
    /// Captures (en passant included) and promotions (by capture or push, all
    /// four pieces).
    Noisy,
    /// Everything else: non-capturing, non-promoting moves and castling.
    Quiet,
}

/// Receives generated moves as sets.
pub trait MoveSink {
    /// Normal moves of the piece on `from` to each square of `to` (never
    /// promotions, castling or en passant). `to` may be empty.
    fn piece_moves(&mut self, from: Square, to: Bitboard);
    /// Non-promoting pawn moves to each square of `to`, each from the square
    /// `back` indices below it (negative `back`: above it).
    fn pawn_moves(&mut self, to: Bitboard, back: i32);
    /// Promotions (four each: queen, rook, bishop, knight) to each square of
    /// `to`, each from the square `back` indices away as in `pawn_moves`.
    fn promotions(&mut self, to: Bitboard, back: i32);
    /// One castling or en-passant move.
    fn special(&mut self, m: Move);
}

/// Answers of the generator that a caller may know already, for it not to
/// find them again (see [`Position::generate_but_pieces`]).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Known {
    /// The pinned pieces of step 4.
    pub pinned: Option<Bitboard>,
    /// The castling candidates of step 1
    /// ([`Position::castling_candidates`] of the side to move).
    pub castling: Option<(Bitboard, Bitboard)>,
}

impl Known {
    /// Nothing known: the generator finds everything itself.
    pub const NOTHING: Known = Known {
        pinned: None,
        castling: None,
    };
}

/// The pieces a pawn may promote to, in the order every sink lists them.
pub(crate) const PROMOTION_ROLES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A list of moves on the stack; 256 holds the 218 of the richest position.
pub type MoveList = ArrayVec<Move, 256>;

/// The origin of a pawn move to `to` from `back` indices below it.
#[inline(always)]
pub(crate) fn from_of(to: Square, back: i32) -> Square {
    Square::new((to as i32 - back) as u32)
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, to: Bitboard) {
        for to in to {
            self.push(Move::normal(from, to));
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, back: i32) {
        for to in to {
            self.push(Move::normal(from_of(to, back), to));
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, back: i32) {
        for to in to {
            let from = from_of(to, back);
            for role in PROMOTION_ROLES {
                self.push(Move::promotion(from, to, role));
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Counts moves without listing them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn piece_moves(&mut self, _from: Square, to: Bitboard) {
        self.0 += u64::from(to.count());
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, _back: i32) {
        self.0 += u64::from(to.count());
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, _back: i32) {
        self.0 += 4 * u64::from(to.count());
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// The squares `piece` on `sq` attacks, given the occupied squares.
#[inline(always)]
pub fn attacks_of<A: SliderAttacks>(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn_attacks(piece.color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => A::bishop_attacks(sq, occupied),
        Role::Rook => A::rook_attacks(sq, occupied),
        Role::Queen => A::queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// The rank a pawn of `color` promotes on, and the one its single push
/// from the start reaches (where a double push goes on from).
const fn pawn_ranks(color: Color) -> (Bitboard, Bitboard) {
    match color {
        Color::White => (Bitboard::rank(Rank::Eighth), Bitboard::rank(Rank::Third)),
        Color::Black => (Bitboard::rank(Rank::First), Bitboard::rank(Rank::Sixth)),
    }
}

/// Shifts pawns one rank forward for `color` (White: up).
#[inline(always)]
fn forward(color: Color, bb: Bitboard) -> Bitboard {
    match color {
        Color::White => bb << 8,
        Color::Black => bb >> 8,
    }
}

/// Up to this many squares to check for enemy attacks (the king's targets
/// and castling paths), [`Position::attackers`] square by square; above it,
/// [`Position::attacked_among`] once. Set by callgrind instruction counts
/// of start-position and Kiwipete perft.
const ASK_SQUARE_BY_SQUARE: u32 = 1;

impl<A: SliderAttacks> Position<A> {
    /// Our pieces pinned to our king, found by X-ray: the rook and bishop
    /// attacks from the king through our own pieces that land on enemy
    /// sliders are the pinners; the piece between king and pinner is pinned.
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.blockers(self.turn(), self.turn())
    }

    /// Pieces of `owner` that stand alone between `king_color`'s king and a
    /// slider of the other side of `king_color`: pinned pieces when `owner`
    /// is the king's side, discovered-check candidates when it is the
    /// attacker's side. Found by [`attacks::xray::pins`]: X-ray from the king
    /// through `owner`'s pieces onto the sliders.
    #[inline(always)]
    pub fn blockers(&self, king_color: Color, owner: Color) -> Bitboard {
        let attacker = !king_color;
        attacks::xray::pins::<A>(
            self.king_of(king_color),
            self.occupied(),
            self.by_color(owner),
            self.rook_likes(attacker),
            self.bishop_likes(attacker),
        )
        .pinned
    }

    /// Our pieces whose move may give a discovered check: those alone between
    /// the enemy king and one of our sliders (X-ray from the enemy king
    /// through our pieces onto our sliders).
    #[inline(always)]
    pub fn discovered_check_candidates(&self) -> Bitboard {
        self.blockers(!self.turn(), self.turn())
    }

    /// Generates the legal moves of `stage` into `sink`.
    #[inline]
    pub fn generate<S: MoveSink>(&self, stage: Stage, sink: &mut S) {
        match self.turn() {
            Color::White => self.generate_for::<S, true, true>(stage, sink, Known::NOTHING),
            Color::Black => self.generate_for::<S, false, true>(stage, sink, Known::NOTHING),
        };
    }

    /// Every legal move but those of knights, bishops, rooks and queens (step
    /// 5), for a caller that counts those itself (perft's last two plies, in
    /// `two_plies`), which may know some of the generator's answers already.
    /// Returns the pinned pieces of step 4 (none in double check, where
    /// step 4 is not reached).
    #[inline(always)]
    pub(crate) fn generate_but_pieces<S: MoveSink>(&self, sink: &mut S, known: Known) -> Bitboard {
        match self.turn() {
            Color::White => self.generate_for::<S, true, false>(Stage::All, sink, known),
            Color::Black => self.generate_for::<S, false, false>(Stage::All, sink, known),
        }
    }

    /// The castling rooks of `color` whose castling squares are empty (but
    /// for the king and the rook themselves), and the squares their king
    /// would cross: step 1 asks whether the enemy attacks those, and step 8
    /// castles with the rooks whose paths it does not.
    #[inline(always)]
    pub(crate) fn castling_candidates(&self, color: Color) -> (Bitboard, Bitboard) {
        let king = self.king_of(color);
        let occ = self.occupied();
        let mut rooks = Bitboard::EMPTY;
        let mut paths = Bitboard::EMPTY;
        for rook in self.castling_rooks() & Bitboard::rank(back_rank(color)) {
            if (castling::must_be_empty(king, rook) & occ).is_empty() {
                rooks |= rook;
                paths |= castling::king_path(king, rook);
            }
        }
        (rooks, paths)
    }

    /// [`generate`](Self::generate) for the side to move named by `WHITE`:
    /// a constant, so that pawn directions and ranks are constants too and
    /// the generator has no colour branches. Without `PIECES`, step 5 is
    /// left out; steps 1 and 4 take what is `known`. Returns the pinned
    /// pieces (none in double check).
    #[inline(always)]
    fn generate_for<S: MoveSink, const WHITE: bool, const PIECES: bool>(
        &self,
        stage: Stage,
        sink: &mut S,
        known: Known,
    ) -> Bitboard {
        let us = if WHITE { Color::White } else { Color::Black };
        let them = !us;
        let occ = self.occupied();
        let own = self.by_color(us);
        let enemy = self.by_color(them);
        let king = self.king_of(us);
        let (noisy, quiet) = match stage {
            Stage::All => (enemy, !occ),
            Stage::Noisy => (enemy, Bitboard::EMPTY),
            Stage::Quiet => (Bitboard::EMPTY, !occ),
        };

        // 1. King moves, to squares the enemy does not attack with our king
        // lifted off the board. The castling king's path is asked about
        // here too, for the rooks whose castling squares are empty (castling
        // is step 8). With more than a few squares to ask, one map of every
        // attacked square is cheaper than asking square by square.
        let occ_without_king = occ.without(king);
        let checkers = self.checkers();
        let (castle_rooks, paths) = if stage != Stage::Noisy && checkers.is_empty() {
            known
                .castling
                .unwrap_or_else(|| self.castling_candidates(us))
        } else {
            (Bitboard::EMPTY, Bitboard::EMPTY)
        };
        let king_targets = king_attacks(king) & (noisy | quiet);
        let asked = king_targets | paths;
        let attacked = if asked.count() > ASK_SQUARE_BY_SQUARE {
            self.attacked_among(them, asked, occ_without_king)
        } else {
            let mut attacked = Bitboard::EMPTY;
            for sq in asked {
                if self.attackers(them, sq, occ_without_king).any() {
                    attacked |= sq;
                }
            }
            attacked
        };
        sink.piece_moves(king, king_targets - attacked);

        // 2. Double check: only the king moves.
        if checkers.more_than_one() {
            return Bitboard::EMPTY;
        }

        // 3. Check mask.
        let check_mask = match checkers.ls1b() {
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        let targets = (noisy | quiet) & check_mask;

        // 4. Pins. A pinned piece cannot help against a check.
        let pinned = known.pinned.unwrap_or_else(|| self.pinned());
        let movable = if checkers.any() { own - pinned } else { own };

        // 5. Pieces.
        if PIECES {
            self.piece_sets(sink, king, pinned, movable, targets, occ);
        }

        // 6. Pawns.
        let pawns = self.pieces(us, Role::Pawn) & movable;
        let up = match us {
            Color::White => 8,
            Color::Black => -8,
        };
        let (last_rank, third_rank) = pawn_ranks(us);
        self.pawn_sets::<S, WHITE>(
            sink,
            pawns - pinned,
            up,
            last_rank,
            third_rank,
            stage,
            enemy,
            check_mask,
        );
        for from in pawns & pinned {
            let pin_line = line(king, from);
            self.pawn_sets::<S, WHITE>(
                sink,
                Bitboard::from_square(from),
                up,
                last_rank,
                third_rank,
                stage,
                enemy & pin_line,
                check_mask & pin_line,
            );
        }

        // 7. En passant.
        if stage != Stage::Quiet {
            self.en_passant_moves(sink, us, king, up, occ);
        }

        // 8. Castling, with the rooks and king paths of step 1.
        self.castling_moves(sink, us, king, castle_rooks, attacked, occ_without_king);
        pinned
    }

    /// Step 7 of the generator: the en-passant captures of `us` (whose king
    /// stands on `king`, whose pawns move by `up`), each unless it uncovers
    /// an attack on the king (the two pawns leaving one rank at once).
    #[inline(always)]
    fn en_passant_moves<S: MoveSink>(
        &self,
        sink: &mut S,
        us: Color,
        king: Square,
        up: i32,
        occ: Bitboard,
    ) {
        let Some(ep) = self.ep_square() else {
            return;
        };
        let them = !us;
        let victim = Square::new((ep as i32 - up) as u32);
        for from in pawn_attacks(them, ep) & self.pieces(us, Role::Pawn) {
            let after = (occ.without(from).without(victim)).with(ep);
            let exposed = self.attackers(them, king, after).without(victim);
            if exposed.is_empty() {
                sink.special(Move::en_passant(from, ep));
            }
        }
    }

    /// Step 8 of the generator: castling with each of `castle_rooks` (those
    /// whose castling squares are empty) whose king path no square of
    /// `attacked` crosses. King side (the higher file) first, as standard
    /// chess lists it.
    #[inline(always)]
    fn castling_moves<S: MoveSink>(
        &self,
        sink: &mut S,
        us: Color,
        king: Square,
        mut castle_rooks: Bitboard,
        attacked: Bitboard,
        occ_without_king: Bitboard,
    ) {
        let rank_sliders = self.rook_likes(!us) & Bitboard::rank(back_rank(us));
        while let Some(rook) = castle_rooks.ms1b() {
            castle_rooks = castle_rooks.without(rook);
            let path = castling::king_path(king, rook);
            if (path & attacked).any() {
                continue;
            }
            // Lifting the rook shows an attack along the back rank that it
            // blocked (Chess960: a queen-side rook on b1 shielding a king on
            // c1 from a1), possible only with an enemy rook or queen on that
            // rank.
            if rank_sliders.any() {
                let after = occ_without_king.without(rook);
                let mut exposed = Bitboard::EMPTY;
                for sq in path {
                    exposed |= A::rook_attacks(sq, after) & rank_sliders;
                }
                if exposed.any() {
                    continue;
                }
            }
            sink.special(Move::castle(king, rook));
        }
    }

    /// Step 5 of the generator: knights, bishops, rooks and queens of the
    /// side to move, their attacks on `targets`; none of the `pinned`
    /// knights, and the `pinned` among the `movable` sliders only along
    /// their pin.
    #[inline(always)]
    fn piece_sets<S: MoveSink>(
        &self,
        sink: &mut S,
        king: Square,
        pinned: Bitboard,
        movable: Bitboard,
        targets: Bitboard,
        occ: Bitboard,
    ) {
        let us = self.turn();
        for from in self.pieces(us, Role::Knight) - pinned {
            sink.piece_moves(from, knight_attacks(from) & targets);
        }
        // Most nodes have no pinned slider: their loops test no pins. (The
        // order of the moves is the same either way; the search's tie-breaks
        // depend on it.)
        let bishops = self.bishop_likes(us) & movable;
        let rooks = self.rook_likes(us) & movable;
        let pinned_sliders = (bishops | rooks) & pinned;
        let pin_mask = |from: Square| {
            if pinned_sliders.contains(from) {
                line(king, from)
            } else {
                Bitboard::FULL
            }
        };
        if pinned_sliders.is_empty() {
            for from in bishops {
                sink.piece_moves(from, A::bishop_attacks(from, occ) & targets);
            }
            for from in rooks {
                sink.piece_moves(from, A::rook_attacks(from, occ) & targets);
            }
        } else {
            for from in bishops {
                sink.piece_moves(
                    from,
                    A::bishop_attacks(from, occ) & targets & pin_mask(from),
                );
            }
            for from in rooks {
                sink.piece_moves(from, A::rook_attacks(from, occ) & targets & pin_mask(from));
            }
        }
    }

    /// Set-wise pawn moves of `pawns` (none pinned, or one pinned pawn with
    /// `enemy` and `check_mask` already cut to its pin line).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn pawn_sets<S: MoveSink, const WHITE: bool>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        up: i32,
        last_rank: Bitboard,
        third_rank: Bitboard,
        stage: Stage,
        enemy: Bitboard,
        check_mask: Bitboard,
    ) {
        if pawns.is_empty() {
            return;
        }
        let us = if WHITE { Color::White } else { Color::Black };
        let empty = !self.occupied();
        let single = forward(us, pawns) & empty;
        let double = forward(us, single & third_rank) & empty;
        if stage != Stage::Noisy {
            sink.pawn_moves((single & check_mask) - last_rank, up);
            sink.pawn_moves(double & check_mask, 2 * up);
        }
        if stage == Stage::Quiet {
            return;
        }
        // Most nodes have no pawn a step from promoting: their sinks are
        // not asked about promotions (an empty set each; the order of the
        // moves is the same).
        let promoting = (forward(us, pawns) & last_rank).any();
        if promoting {
            sink.promotions(single & check_mask & last_rank, up);
        }
        // Captures towards the a-file and towards the h-file.
        let (west, east) = (
            forward(us, pawns & Bitboard::NOT_FILE_A) >> 1,
            forward(us, pawns & Bitboard::NOT_FILE_H) << 1,
        );
        let west = west & enemy & check_mask;
        let east = east & enemy & check_mask;
        sink.pawn_moves(west - last_rank, up - 1);
        if promoting {
            sink.promotions(west & last_rank, up - 1);
        }
        sink.pawn_moves(east - last_rank, up + 1);
        if promoting {
            sink.promotions(east & last_rank, up + 1);
        }
    }

    /// All legal moves.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Stage::All, &mut list);
        list
    }

    /// Legal captures and promotions.
    pub fn noisy_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Stage::Noisy, &mut list);
        list
    }

    /// Legal moves that neither capture nor promote (castling included).
    pub fn quiet_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Stage::Quiet, &mut list);
        list
    }

    /// The legal moves out of check. Only meaningful when
    /// [`is_check`](Position::is_check); otherwise the same as
    /// [`legal_moves`](Position::legal_moves).
    pub fn evasions(&self) -> MoveList {
        self.legal_moves()
    }

    /// The number of legal moves, counted set-wise without listing them.
    #[inline]
    pub fn count_legal(&self) -> u64 {
        let mut counter = MoveCounter(0);
        self.generate(Stage::All, &mut counter);
        counter.0
    }

    /// `true` if `m` is a legal move here. Any 16 bits are answered (a
    /// table's move from another position, a killer from a sibling), without
    /// generating the moves but for en passant and castling: the piece is
    /// ours, its kind and bits are those the generator writes, the piece
    /// reaches the square, and the rules of steps 1-4 (king safety, the check
    /// mask, pins) allow it. A test holds it to the generator's answer for
    /// every 16-bit move in a suite of positions.
    #[inline]
    pub fn is_legal(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        let us = self.turn();
        let Some(piece) = self.piece_at(from) else {
            return false;
        };
        if piece.color != us {
            return false;
        }
        // The bits the generator writes for this kind (unused kind bits
        // read as a normal move, and differ from its bits).
        let kind = m.kind();
        if m != Move::new(from, to, kind) {
            return false;
        }
        match kind {
            // Rare: the generator's own answer.
            MoveKind::EnPassant | MoveKind::Castle => return self.legal_moves().contains(&m),
            MoveKind::Promotion(_) if piece.role != Role::Pawn => return false,
            _ => {}
        }
        if self.by_color(us).contains(to) {
            return false;
        }
        let occ = self.occupied();
        let them = !us;
        // 1. The king, to a square no enemy attacks with the king lifted.
        if piece.role == Role::King {
            return king_attacks(from).contains(to)
                && self.attackers(them, to, occ.without(from)).is_empty();
        }
        let reach = if piece.role == Role::Pawn {
            // A pawn promotes exactly when it reaches the last rank.
            let (last, third) = pawn_ranks(us);
            if m.promotion_role().is_some() != last.contains(to) {
                return false;
            }
            let single = forward(us, Bitboard::from_square(from)) - occ;
            let double = forward(us, single & third) - occ;
            (pawn_attacks(us, from) & self.by_color(them)) | single | double
        } else {
            attacks_of::<A>(piece, from, occ)
        };
        if !reach.contains(to) {
            return false;
        }
        // 2-4. Double check, the check mask, pins (a pinned piece never
        // answers a check); the pins last, as the X-ray is the dearest step.
        let checkers = self.checkers();
        let king = self.king_of(us);
        match checkers.ls1b() {
            None => line(king, from).contains(to) || !self.pinned().contains(from),
            Some(checker) => {
                !checkers.more_than_one()
                    && between(king, checker).with(checker).contains(to)
                    && !self.pinned().contains(from)
            }
        }
    }

    /// `true` if the side to move has no legal move and is in check.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && self.count_legal() == 0
    }

    /// `true` if the side to move has no legal move and is not in check.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && self.count_legal() == 0
    }

    /// `true` if the legal move `m` gives check. Uses the discovered-check
    /// candidates for moves off a line to the enemy king, and the attacks of
    /// the moved (or promoted) piece for direct checks.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.turn();
        let enemy_king = self.king_of(!us);
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::EnPassant | MoveKind::Castle => {
                let mut next = *self;
                next.play_unchecked(m);
                return next.is_check();
            }
            MoveKind::Normal | MoveKind::Promotion(_) => {}
        }
        if self.discovered_check_candidates().contains(from) && !line(enemy_king, from).contains(to)
        {
            return true;
        }
        let occ = self.occupied().without(from).with(to);
        let role = m
            .promotion_role()
            .or(self.role_at(from))
            .unwrap_or(Role::Pawn);
        // A king's attacks never hold the other king after a legal move.
        attacks_of::<A>(Piece { color: us, role }, to, occ).contains(enemy_king)
    }
}
