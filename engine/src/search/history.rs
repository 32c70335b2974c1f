//! What the search learns about moves as it goes: killer moves per ply,
//! quiet-move history by side, origin and destination, and counter moves.

use attacks::Color;
use movegen::Move;

use super::api::MAX_PLY;
use super::params::PARAMS;

/// Move-ordering statistics of one search thread.
pub struct Histories {
    /// Two quiet moves per ply that caused a cut-off.
    killers: [[Move; 2]; MAX_PLY + 2],
    /// Quiet history: `[side][from][to]`.
    quiet: Box<[[[i32; 64]; 64]; 2]>,
    /// The quiet move that refuted each previous move, by its from and to.
    counter: Box<[[Move; 64]; 64]>,
}

impl Histories {
    /// Empty statistics.
    pub fn new() -> Histories {
        Histories {
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            quiet: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[Move::NULL; 64]; 64]),
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
            self.counter[prev.from().index()][prev.to().index()]
        }
    }

    /// The history of quiet move `m` for `side`.
    #[inline]
    pub fn quiet(&self, side: Color, m: Move) -> i32 {
        self.quiet[side.index()][m.from().index()][m.to().index()]
    }

    /// The bonus for a cut-off at `depth`.
    #[inline]
    pub fn bonus(depth: i32) -> i32 {
        (depth * depth * PARAMS.history_bonus_scale).min(PARAMS.history_bonus_max)
    }

    fn update_quiet(&mut self, side: Color, m: Move, bonus: i32) {
        let h = &mut self.quiet[side.index()][m.from().index()][m.to().index()];
        *h += bonus - *h * bonus.abs() / PARAMS.history_max;
    }

    /// A quiet move `best` caused a cut-off at `ply` and `depth`, after the
    /// quiet moves `tried` failed; `prev` is the move that led here.
    pub fn on_quiet_cutoff(
        &mut self,
        side: Color,
        ply: usize,
        depth: i32,
        best: Move,
        tried: &[Move],
        prev: Move,
    ) {
        let bonus = Histories::bonus(depth);
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
        self.update_quiet(side, best, bonus);
        for &q in tried {
            self.update_quiet(side, q, -bonus);
        }
        if !prev.is_null() {
            self.counter[prev.from().index()][prev.to().index()] = best;
        }
    }
}
