//! What the search learns about moves as it goes: killer moves per ply,
//! quiet-move history by side, origin and destination, continuation history
//! (a quiet move's record after the moves one, two and four plies before
//! it), pawn history (its record in positions with the same pawns), and
//! counter moves.

use attacks::{Color, SliderAttacks};
use movegen::{Move, Position};
use nnue::score::MAX_PLY;

use super::params::params;

/// Move-ordering statistics of one search thread.
pub struct Histories {
    /// Two quiet moves per ply that caused a cut-off.
    killers: [[Move; 2]; MAX_PLY + 2],
    /// Quiet history: `[side][from][to]`.
    quiet: Box<[[[i32; 64]; 64]; 2]>,
    /// The quiet move that refuted each previous move, by its from and to.
    counter: Box<[[Move; 64]; 64]>,
    /// Continuation history: `[earlier move's piece and square][this move's]`.
    cont: Box<[[i16; PIECE_SQUARES]; PIECE_SQUARES]>,
    /// Pawn history: `[hashed pawn structure][this move's piece and square]`.
    pawn: Box<[[i16; PIECE_SQUARES]; PAWN_ENTRIES]>,
}

/// Pawn-structure entries of the pawn history (a power of two).
const PAWN_ENTRIES: usize = 1024;

/// What a quiet move's score depends on besides the move: the continuation
/// keys of the moves one, two and four plies before it, and the index of the
/// position's pawn structure in the pawn history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuietContext {
    /// The continuation keys one, two and four plies up (our own move
    /// two moves ago; [`NO_CONT`] if none).
    pub conts: [usize; 3],
    /// The pawn structure's entry ([`pawn_index`]).
    pub pawns: usize,
}

#[cfg(test)]
impl QuietContext {
    /// No earlier moves, and the pawn entry of `pos`.
    pub fn of<A: SliderAttacks>(pos: &Position<A>) -> QuietContext {
        QuietContext {
            conts: [NO_CONT; 3],
            pawns: pawn_index(pos),
        }
    }
}

/// The pawn-history entry of `pos`: a hash of both sides' pawns.
#[inline]
pub fn pawn_index<A: SliderAttacks>(pos: &Position<A>) -> usize {
    use movegen::Role;
    crate::board_hash::index(
        &[
            pos.pieces(Color::White, Role::Pawn).0,
            pos.pieces(Color::Black, Role::Pawn).0,
        ],
        PAWN_ENTRIES.trailing_zeros(),
    )
}

/// Pieces (colour and role) times destination squares.
pub const PIECE_SQUARES: usize = 12 * 64;
/// The continuation key of no move (the root, a null move).
pub const NO_CONT: usize = PIECE_SQUARES;

/// The continuation key of `m` in `pos`: its piece and where it lands (the
/// king's square for castling).
#[inline]
pub fn cont_key<A: SliderAttacks>(pos: &Position<A>, m: Move) -> usize {
    let role = pos.role_at(m.from()).map_or(0, |r| r.index());
    (pos.turn().index() * 6 + role) * 64 + m.king_to().index()
}

/// A zeroed boxed table, built on the heap (too large for the stack).
fn zeroed<T: Default + Clone, const N: usize, const M: usize>() -> Box<[[T; N]; M]> {
    let v: Vec<[T; N]> = vec![core::array::from_fn(|_| T::default()); M];
    v.into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("M rows"))
}

/// `h` moved toward `±max` by `bonus`, less the further it already is.
#[inline]
fn gravity(h: i32, bonus: i32) -> i32 {
    h + bonus - h * bonus.abs() / params().history_max
}

impl Histories {
    /// Empty statistics.
    pub fn new() -> Histories {
        Histories {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            quiet: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[Move::NULL; 64]; 64]),
            cont: zeroed(),
            pawn: zeroed(),
        }
    }

    /// Ages the statistics before a new search from another root: the
    /// histories keep half their weight, killers (by ply) are forgotten,
    /// counter moves stay.
    pub fn age(&mut self) {
        self.killers = [[Move::NULL; 2]; MAX_PLY + 2];
        // Over flat slices, which the compiler vectorises: through nested
        // iterators this took 12% of a 5,000-node datagen search.
        for h in self.quiet.as_flattened_mut().as_flattened_mut() {
            *h /= 2;
        }
        for h in self.cont.as_flattened_mut() {
            *h /= 2;
        }
        for h in self.pawn.as_flattened_mut() {
            *h /= 2;
        }
    }

    /// The killer moves of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The counter move to `prev` (null if none or `prev` is null).
    #[inline]
    pub fn counter(&self, prev: Move) -> Move {
        if prev.is_null() {
            Move::NULL
        } else {
            self.counter[prev.from().index()][prev.king_to().index()]
        }
    }

    /// The history of quiet move `m` for `side`. The from-to tables use the
    /// square the piece lands on (the king's, for castling), as the
    /// continuation key does.
    #[inline]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        self.quiet[side.index()][m.from().index()][m.king_to().index()]
    }

    /// The ordering score of quiet move `m` (continuation key `key`) for
    /// `side` in the context `ctx`.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, key: usize, ctx: QuietContext) -> i32 {
        let mut s = self.quiet(side, m) + i32::from(self.pawn[ctx.pawns][key]);
        for c in ctx.conts {
            if c != NO_CONT {
                s += i32::from(self.cont[c][key]);
            }
        }
        s
    }

    /// The bonus for a cut-off at `depth`.
    #[inline]
    pub fn bonus(depth: i32) -> i32 {
        (depth * depth * params().history_bonus_scale).min(params().history_bonus_max)
    }

    fn update_quiet(&mut self, side: Color, m: Move, key: usize, ctx: QuietContext, bonus: i32) {
        let h = &mut self.quiet[side.index()][m.from().index()][m.king_to().index()];
        *h = gravity(*h, bonus);
        let h = &mut self.pawn[ctx.pawns][key];
        *h = gravity(i32::from(*h), bonus) as i16;
        for c in ctx.conts {
            if c != NO_CONT {
                let h = &mut self.cont[c][key];
                *h = gravity(i32::from(*h), bonus) as i16;
            }
        }
    }

    /// A quiet move `best` caused a cut-off at `ply` and `depth`, after the
    /// quiet moves `tried` failed (each with its continuation key); `prev` is
    /// the move that led here and `ctx` the node's context.
    #[allow(clippy::too_many_arguments)]
    pub fn on_quiet_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: (Move, usize),
        tried: &[(Move, usize)],
        prev: Move,
        ctx: QuietContext,
    ) {
        let bonus = Histories::bonus(depth);
        let (best, key) = best;
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        self.update_quiet(side, best, key, ctx, bonus);
        for &(q, k) in tried {
            self.update_quiet(side, q, k, ctx, -bonus);
        }
        if !prev.is_null() {
            self.counter[prev.from().index()][prev.king_to().index()] = best;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attacks::Magic;

    #[test]
    fn pawn_history_follows_the_pawn_structure() {
        // The same knight move, in two positions whose pawns differ by one
        // push: a cut-off in one raises its score there, and in the other
        // only through the tables the pawns do not key.
        let a: Position<Magic> = "4k3/pppp4/8/8/8/8/PPPP4/4K1N1 w - - 0 1".parse().unwrap();
        let b: Position<Magic> = "4k3/pppp4/8/8/8/P7/1PPP4/4K1N1 w - - 0 1".parse().unwrap();
        let (ca, cb) = (QuietContext::of(&a), QuietContext::of(&b));
        assert_ne!(ca.pawns, cb.pawns, "two structures, two entries");
        let m = Move::normal(attacks::Square::G1, attacks::Square::F3);
        let key = cont_key(&a, m);
        assert_eq!(key, cont_key(&b, m));
        let mut hist = Histories::new();
        hist.on_quiet_cutoff(Color::White, 0, 6, (m, key), &[], Move::NULL, ca);
        let side = Color::White;
        let only_quiet = hist.quiet(side, m);
        assert!(only_quiet > 0);
        assert_eq!(hist.quiet_score(side, m, key, cb), only_quiet);
        assert_eq!(
            hist.quiet_score(side, m, key, ca),
            only_quiet + i32::from(hist.pawn[ca.pawns][key])
        );
        assert!(hist.pawn[ca.pawns][key] > 0);
        // A failed try lowers it again, and ageing halves it.
        let before = hist.pawn[ca.pawns][key];
        let king = Move::normal(attacks::Square::E1, attacks::Square::E2);
        hist.on_quiet_cutoff(
            side,
            0,
            6,
            (king, cont_key(&a, king)),
            &[(m, key)],
            Move::NULL,
            ca,
        );
        assert!(hist.pawn[ca.pawns][key] < before);
        let now = hist.pawn[ca.pawns][key];
        hist.age();
        assert_eq!(hist.pawn[ca.pawns][key], now / 2);
    }
}
