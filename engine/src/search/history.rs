//! What the search learns about moves as it goes: killer moves per ply,
//! quiet-move history by side, origin and destination, continuation history
//! (a quiet move's record after the moves one and two plies before it), and
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
    /// `side`, after the moves whose continuation keys are `conts`.
    #[inline]
    pub fn quiet_score(&self, side: Color, m: Move, key: usize, conts: [usize; 2]) -> i32 {
        let mut s = self.quiet(side, m);
        for c in conts {
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

    fn update_quiet(&mut self, side: Color, m: Move, key: usize, conts: [usize; 2], bonus: i32) {
        let h = &mut self.quiet[side.index()][m.from().index()][m.king_to().index()];
        *h = gravity(*h, bonus);
        for c in conts {
            if c != NO_CONT {
                let h = &mut self.cont[c][key];
                *h = gravity(i32::from(*h), bonus) as i16;
            }
        }
    }

    /// A quiet move `best` caused a cut-off at `ply` and `depth`, after the
    /// quiet moves `tried` failed (each with its continuation key); `prev` is
    /// the move that led here and `conts` the continuation keys one and two
    /// plies up.
    #[allow(clippy::too_many_arguments)]
    pub fn on_quiet_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: (Move, usize),
        tried: &[(Move, usize)],
        prev: Move,
        conts: [usize; 2],
    ) {
        let bonus = Histories::bonus(depth);
        let (best, key) = best;
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        self.update_quiet(side, best, key, conts, bonus);
        for &(q, k) in tried {
            self.update_quiet(side, q, k, conts, -bonus);
        }
        if !prev.is_null() {
            self.counter[prev.from().index()][prev.king_to().index()] = best;
        }
    }
}
