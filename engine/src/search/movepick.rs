//! Move ordering: every move gets a score once, and the best remaining one
//! is picked at each step (selection, so a cut-off after the first few moves
//! sorts nothing else). The scores live beside the moves in a fixed-size
//! array: nothing is allocated per node.

use arrayvec::ArrayVec;
use attacks::SliderAttacks;
use movegen::{Move, MoveList, Position, Role};

use super::history::{Histories, cont_key};
use super::see::{see, value};

/// The TT move first.
const TT_MOVE: i32 = 2_000_000;
/// Captures that do not lose material (by SEE), by victim then attacker.
const GOOD_NOISY: i32 = 1_000_000;
/// Queen promotions on top of their capture score.
const QUEEN_PROMOTION: i32 = 5_000;
/// The first and second killer, then the counter move.
const KILLER_1: i32 = 900_000;
const KILLER_2: i32 = 800_000;
const COUNTER: i32 = 700_000;
/// Captures that lose material, after the quiet moves.
const BAD_NOISY: i32 = -100_000;

/// `true` for the moves ordered and searched as tactical: captures and
/// queen promotions. A quiet under-promotion is ordered, reduced and pruned
/// as a quiet move (and left out of quiescence).
#[inline]
pub fn is_tactical<A: SliderAttacks>(pos: &Position<A>, m: Move) -> bool {
    pos.captured(m).is_some() || m.promotion_role() == Some(Role::Queen)
}

/// The moves of a node, in the order they are to be tried.
pub struct MovePicker {
    moves: MoveList,
    scores: ArrayVec<i32, 256>,
    next: usize,
}

impl MovePicker {
    /// Orders `moves` for `pos` at `ply`, `prev` being the move that led here
    /// and `conts` the continuation keys of the moves one and two plies up.
    pub fn new<A: SliderAttacks>(
        pos: &Position<A>,
        moves: MoveList,
        tt_move: Move,
        ply: usize,
        prev: Move,
        conts: [usize; 2],
        hist: &Histories,
    ) -> MovePicker {
        let us = pos.turn();
        let counter = hist.counter(prev);
        let killers = hist.killers(ply);
        let scores = moves
            .iter()
            .map(|&m| {
                if m == tt_move {
                    return TT_MOVE;
                }
                if is_tactical(pos, m) {
                    let victim = pos.captured(m).map_or(0, value);
                    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
                    let promo = if m.promotion_role() == Some(Role::Queen) {
                        QUEEN_PROMOTION
                    } else {
                        0
                    };
                    let base = if see(pos, m) >= 0 {
                        GOOD_NOISY
                    } else {
                        BAD_NOISY
                    };
                    return base + promo + victim * 10 - attacker;
                }
                if m == killers[0] {
                    KILLER_1
                } else if m == killers[1] {
                    KILLER_2
                } else if m == counter {
                    COUNTER
                } else {
                    hist.quiet_score(us, m, cont_key(pos, m), conts)
                }
            })
            .collect();
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// The best move not yet returned, or `None` when all have been.
    #[inline]
    pub fn next_move(&mut self) -> Option<Move> {
        let i = self.next;
        if i >= self.moves.len() {
            return None;
        }
        let mut best = i;
        for j in i + 1..self.moves.len() {
            if self.scores[j] > self.scores[best] {
                best = j;
            }
        }
        self.scores.swap(i, best);
        self.moves.swap(i, best);
        self.next += 1;
        Some(self.moves[i])
    }
}
