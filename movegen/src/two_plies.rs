//! Perft's last two plies, where a perft spends nearly all its time: the
//! legal moves after each legal move, summed ([`Position::count_two_plies`]).
//!
//! Each child is made on the board alone and its moves are counted set-wise.
//! The child's side to move did not move in between: its knights, bishops,
//! rooks and queens stand where they stood in the parent, and most of them
//! attack the same squares. So their moves are counted once per parent, in
//! [`Unmoved`], and each child corrects that count only where the move that
//! made it changed something:
//! 1. the piece it captured, which no longer moves, and the pieces that
//!    guarded it, which may now capture on its square;
//! 2. the sliders whose attacks reach the square left or the square entered,
//!    looked up again on the child's board;
//! 3. the pieces the child has pinned, which keep only their moves along the
//!    pin (the parent's pins, unless the move left or entered a line through
//!    the king).
//!
//! The king's moves, the pawns', en passant, castling and the pins come from
//! the generator itself ([`Position::generate_but_pieces`]); a child in check
//! and the children of castling and en passant are counted by the generator
//! in full.

use arrayvec::ArrayVec;
use attacks::{
    Bitboard, SliderAttacks, Square, bishop_rays, knight_attacks, line, pawn_attacks, rook_rays,
};

use crate::castling::{self, back_rank};
use crate::generate::{Known, MoveCounter, MoveSink, PROMOTION_ROLES, Stage, attacks_of, from_of};
use crate::moves::{Move, MoveKind};
use crate::piece::{Piece, Role};
use crate::position::Position;

impl<A: SliderAttacks> Position<A> {
    /// The number of legal moves after each legal move here, summed: perft
    /// 2, the last two plies of a perft. The moves come from the generator
    /// as sets and are made as they come, with no list and no [`Move`] to
    /// decode, each child on the board alone as in
    /// [`count_legal_after`](Self::count_legal_after); its pieces' moves are
    /// counted from the parent's (see the module `two_plies`).
    ///
    /// ```
    /// use movegen::Position;
    ///
    /// let pos: Position = Position::startpos();
    /// assert_eq!(pos.count_two_plies(), 400);
    /// ```
    #[inline]
    pub fn count_two_plies(&self) -> u64 {
        let mut counter = ChildCounter {
            parent: self,
            unmoved: Unmoved::new(self),
            carried: Carried::new(self),
            checks: Checks::new(self),
            leaves: 0,
        };
        self.generate(Stage::All, &mut counter);
        counter.leaves
    }
}

/// A bishop, rook or queen of the side not to move in the parent.
#[derive(Clone, Copy)]
struct Slider {
    piece: Piece,
    sq: Square,
    /// Its moves on the parent's board, were it its turn and the piece not
    /// pinned: its attacks but on its own side's pieces.
    moves: u32,
}

/// The moves of the knights, bishops, rooks and queens of the side not to
/// move in the parent, on the parent's board, pins aside.
struct Unmoved {
    /// All their moves, added up.
    moves: u64,
    sliders: ArrayVec<Slider, 16>,
    /// By square: the sliders (bit `i` for `sliders[i]`) whose attacks
    /// reach it.
    reaching: [u16; 64],
}

impl Unmoved {
    /// Once per parent: their moves, the squares each slider reaches, the
    /// pins.
    #[inline(always)]
    fn new<A: SliderAttacks>(parent: &Position<A>) -> Unmoved {
        let them = !parent.turn();
        let theirs = parent.by_color(them);
        let occ = parent.occupied();
        let mut unmoved = Unmoved {
            moves: 0,
            sliders: ArrayVec::new(),
            reaching: [0; 64],
        };
        for sq in parent.pieces(them, Role::Knight) {
            unmoved.moves += u64::from((knight_attacks(sq) - theirs).count());
        }
        for sq in parent.bishop_likes(them) | parent.rook_likes(them) {
            let role = parent.role_at(sq).unwrap_or(Role::Queen);
            let piece = Piece { color: them, role };
            let attacks = attacks_of::<A>(piece, sq, occ);
            let moves = (attacks - theirs).count();
            let bit = 1 << unmoved.sliders.len();
            // At most thirteen sliders a side in a valid position (two
            // bishops, two rooks, a queen, eight promoted pawns): sixteen
            // always hold them.
            unmoved.sliders.push(Slider { piece, sq, moves });
            unmoved.moves += u64::from(moves);
            for reached in attacks {
                unmoved.reaching[reached.index()] |= bit;
            }
        }
        unmoved
    }

    /// The moves of the knights, bishops, rooks and queens of `child`'s side
    /// to move, made from the parent by a move from `from` to `to` (not
    /// castling, not en passant) and not in check; `pinned` are its pinned
    /// pieces.
    #[inline(always)]
    fn count<A: SliderAttacks>(
        &self,
        parent: &Position<A>,
        child: &Position<A>,
        from: Square,
        to: Square,
        pinned: Bitboard,
    ) -> u64 {
        let them = child.turn();
        let theirs = child.by_color(them);
        let occ = child.occupied();
        let mut moves = self.moves;
        let mut changed = self.reaching[from.index()] | self.reaching[to.index()];

        // 1. A capture: the victim's moves go, and the knights that guarded
        // its square gain a capture there (the sliders that did are looked
        // up again in step 2).
        if let Some(victim) = parent.role_at(to) {
            let knights = parent.pieces(them, Role::Knight);
            moves += u64::from((knight_attacks(to) & knights).count());
            match victim {
                Role::Knight => {
                    moves -= u64::from((knight_attacks(to) - parent.by_color(them)).count());
                }
                Role::Bishop | Role::Rook | Role::Queen => {
                    if let Some(i) = self.sliders.iter().position(|s| s.sq == to) {
                        moves -= u64::from(self.sliders[i].moves);
                        changed &= !(1 << i);
                    }
                }
                Role::Pawn | Role::King => {}
            }
        }

        // 2. The sliders whose lines the move opened or closed.
        while changed != 0 {
            let s = &self.sliders[changed.trailing_zeros() as usize];
            changed &= changed - 1;
            let now = (attacks_of::<A>(s.piece, s.sq, occ) - theirs).count();
            moves = moves + u64::from(now) - u64::from(s.moves);
        }

        // 3. Pinned pieces move only along their pin (a knight not at all).
        let king = child.king_of(them);
        for sq in pinned - child.pieces(them, Role::Pawn) {
            let role = parent.role_at(sq).unwrap_or(Role::Queen);
            let piece = Piece { color: them, role };
            let off_line = (attacks_of::<A>(piece, sq, occ) - theirs) - line(king, sq);
            moves -= u64::from(off_line.count());
        }
        moves
    }
}

/// Answers of the generator for the side not to move in the parent that
/// most of its children share ([`Known`]), found once per parent.
struct Carried {
    /// Their pinned pieces, and the lines through their king: a child made
    /// by a move that neither leaves nor enters these lines has the same
    /// pins.
    pinned: Bitboard,
    king_lines: Bitboard,
    /// Their castling candidates, and the squares whose change may change
    /// them: their castling rooks (a capture takes the right) and the
    /// squares that must be empty to castle with them.
    castling: (Bitboard, Bitboard),
    castling_squares: Bitboard,
}

impl Carried {
    #[inline(always)]
    fn new<A: SliderAttacks>(parent: &Position<A>) -> Carried {
        let them = !parent.turn();
        let king = parent.king_of(them);
        let rooks = parent.castling_rooks() & Bitboard::rank(back_rank(them));
        let mut castling_squares = rooks;
        for rook in rooks {
            castling_squares |= castling::must_be_empty(king, rook);
        }
        Carried {
            pinned: parent.blockers(them, them),
            king_lines: bishop_rays(king) | rook_rays(king),
            castling: parent.castling_candidates(them),
            castling_squares,
        }
    }

    /// What a child made by a move from `from` to `to` shares.
    #[inline(always)]
    fn known(&self, from: Square, to: Square) -> Known {
        let touched = Bitboard::from_square(from) | to;
        Known {
            pinned: (self.king_lines & touched)
                .is_empty()
                .then_some(self.pinned),
            castling: (self.castling_squares & touched)
                .is_empty()
                .then_some(self.castling),
        }
    }
}

/// What gives check to the king of the side not to move in the parent,
/// found once per parent (as Stockfish's check squares): a child's checkers
/// follow from the square its piece moved to and the square it left.
struct Checks {
    king: Square,
    /// By role: the squares from which a piece of the side to move would
    /// attack that king on the parent's board. A piece that moves there
    /// checks it: the square it left cannot stand between (were it between,
    /// the piece would have attacked the king along that line already).
    squares: [Bitboard; 6],
    /// The side to move's pieces alone between that king and one of its
    /// sliders: moved off the line, they uncover a check.
    discoverers: Bitboard,
}

impl Checks {
    #[inline(always)]
    fn new<A: SliderAttacks>(parent: &Position<A>) -> Checks {
        let them = !parent.turn();
        let king = parent.king_of(them);
        let occ = parent.occupied();
        let bishop = A::bishop_attacks(king, occ);
        let rook = A::rook_attacks(king, occ);
        Checks {
            king,
            squares: [
                pawn_attacks(them, king),
                knight_attacks(king),
                bishop,
                rook,
                bishop | rook,
                Bitboard::EMPTY,
            ],
            discoverers: parent.blockers(them, parent.turn()),
        }
    }

    /// The checkers of `child`, made by a move of the `role` from `from` to
    /// `to` (not castling, not en passant), promoting to `promoted`.
    #[inline(always)]
    fn of<A: SliderAttacks>(
        &self,
        child: &Position<A>,
        from: Square,
        to: Square,
        role: Role,
        promoted: Option<Role>,
    ) -> Bitboard {
        let us = !child.turn();
        let occ = child.occupied();
        let direct = match promoted {
            // The pawn's square may have stood between.
            Some(role) => attacks_of::<A>(Piece { color: us, role }, to, occ).contains(self.king),
            None => self.squares[role.index()].contains(to),
        };
        let mut checkers = if direct {
            Bitboard::from_square(to)
        } else {
            Bitboard::EMPTY
        };
        if self.discoverers.contains(from) && !line(self.king, from).contains(to) {
            checkers |= child.discovered_checkers(self.king, from);
        }
        checkers
    }
}

/// The [`MoveSink`] of [`Position::count_two_plies`]: makes each move on a
/// copy of `parent` (board only) and adds up the children's legal moves.
struct ChildCounter<'a, A: SliderAttacks> {
    parent: &'a Position<A>,
    unmoved: Unmoved,
    carried: Carried,
    checks: Checks,
    leaves: u64,
}

impl<A: SliderAttacks> ChildCounter<'_, A> {
    #[inline(always)]
    fn count(&mut self, from: Square, to: Square, kind: MoveKind, role: Role) {
        let known = self.carried.known(from, to);
        let mut child = *self.parent;
        // Castling squares the child will not read: its candidates are
        // known, and castling is not asked about in check.
        child.move_parts::<false>(from, to, kind, role, known.castling.is_none());
        let promoted = kind.promotion_role();
        child.set_checkers(self.checks.of(&child, from, to, role, promoted));
        if child.is_check() {
            self.leaves += child.count_legal();
            return;
        }
        let mut others = MoveCounter(0);
        let pinned = child.generate_but_pieces(&mut others, known);
        self.leaves += others.0 + self.unmoved.count(self.parent, &child, from, to, pinned);
    }
}

impl<A: SliderAttacks> MoveSink for ChildCounter<'_, A> {
    #[inline(always)]
    fn piece_moves(&mut self, from: Square, to: Bitboard) {
        let role = self.parent.role_at(from).unwrap_or(Role::Pawn);
        for to in to {
            self.count(from, to, MoveKind::Normal, role);
        }
    }
    #[inline(always)]
    fn pawn_moves(&mut self, to: Bitboard, back: i32) {
        for to in to {
            self.count(from_of(to, back), to, MoveKind::Normal, Role::Pawn);
        }
    }
    #[inline(always)]
    fn promotions(&mut self, to: Bitboard, back: i32) {
        for to in to {
            let from = from_of(to, back);
            for role in PROMOTION_ROLES {
                self.count(from, to, MoveKind::Promotion(role), Role::Pawn);
            }
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.leaves += self.parent.count_legal_after(m);
    }
}
