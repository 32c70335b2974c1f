//! Move ordering: every move gets a score once, and the best remaining one
//! is picked at each step (selection, so a cut-off after the first few moves
//! sorts nothing else). The scores live beside the moves in a fixed-size
//! array: nothing is allocated per node.
//!
//! A capture's SEE is taken only when it is about to be picked (most never
//! are: the node is cut first), and the search asks the picker what it
//! found rather than taking it again. The order is exactly that of scoring
//! every move in full first; a test compares the two.

use arrayvec::ArrayVec;
use attacks::SliderAttacks;
use movegen::{Move, MoveList, Position, Role, Stage};

use super::history::{Histories, QuietContext, cont_key};
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
    /// Each move's score above its place in `moves` (see [`rank`]).
    ranks: ArrayVec<i32, 256>,
    /// Tactical moves scored as if their exchange did not lose (bit `i`
    /// for `moves[i]`): their SEE is taken only when one of them is about
    /// to be picked, and most are never reached.
    see_pending: Bits256,
    /// Tactical moves whose SEE was taken and is below zero.
    see_negative: Bits256,
    next: usize,
    /// What the SEE of the move returned last is known to be.
    last_see: SeeSign,
}

/// A score and a place in one `i32`: the score shifted up, `255 - place`
/// below it, so that the largest of them is the first of the best scores.
/// Scores are within ±2^22 (the debug build checks).
#[inline(always)]
fn rank(score: i32, place: usize) -> i32 {
    debug_assert!(score.abs() < 1 << 22, "{score}");
    score << 8 | (255 - place) as i32
}

/// A set of move indices.
#[derive(Copy, Clone, Default)]
struct Bits256([u64; 4]);

impl Bits256 {
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 != 0
    }

    #[inline(always)]
    fn set(&mut self, i: usize, on: bool) {
        let bit = 1 << (i % 64);
        if on {
            self.0[i / 64] |= bit;
        } else {
            self.0[i / 64] &= !bit;
        }
    }

    /// Exchanges the bits of `a` and `b`, as their moves are.
    #[inline(always)]
    fn swap(&mut self, a: usize, b: usize) {
        let (x, y) = (self.get(a), self.get(b));
        self.set(a, y);
        self.set(b, x);
    }
}

/// What the picker knows of a move's static exchange evaluation.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum SeeSign {
    /// Not taken (a quiet move, or the TT move).
    Unknown,
    /// At least zero.
    NonNegative,
    /// Below zero.
    Negative,
}

/// The ordering score of a tactical move: `GOOD_NOISY` or `BAD_NOISY` as
/// its exchange holds or loses, then the victim and the attacker.
#[inline]
fn tactical_score<A: SliderAttacks>(pos: &Position<A>, m: Move, good: bool) -> i32 {
    let victim = pos.captured(m).map_or(0, value);
    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
    let promo = if m.promotion_role() == Some(Role::Queen) {
        QUEEN_PROMOTION
    } else {
        0
    };
    let base = if good { GOOD_NOISY } else { BAD_NOISY };
    base + promo + victim * 10 - attacker
}

impl MovePicker {
    /// The legal moves of `stage` in `pos`, not yet ordered: the caller may
    /// [`retain`](Self::retain) some, then must [`order`](Self::order) them.
    #[inline(always)]
    pub fn new<A: SliderAttacks>(pos: &Position<A>, stage: Stage) -> MovePicker {
        let mut picker = MovePicker {
            moves: MoveList::new(),
            ranks: ArrayVec::new(),
            see_pending: Bits256::default(),
            see_negative: Bits256::default(),
            next: 0,
            last_see: SeeSign::Unknown,
        };
        pos.generate(stage, &mut picker.moves);
        picker
    }

    /// `true` if there are no moves.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Keeps only the moves `keep` accepts (before [`order`](Self::order)).
    pub fn retain(&mut self, keep: impl FnMut(&mut Move) -> bool) {
        debug_assert!(self.ranks.is_empty(), "retain before order");
        self.moves.retain(keep);
    }

    /// Scores the moves for `pos` at `ply`, `prev` being the move that led
    /// here and `ctx` what the quiet moves' histories are read by.
    #[inline]
    pub fn order<A: SliderAttacks>(
        &mut self,
        pos: &Position<A>,
        tt_move: Move,
        ply: usize,
        prev: Move,
        ctx: QuietContext,
        hist: &Histories,
    ) {
        let us = pos.turn();
        let counter = hist.counter(prev);
        let killers = hist.killers(ply);
        for (i, &m) in self.moves.iter().enumerate() {
            let score = if m == tt_move {
                TT_MOVE
            } else if is_tactical(pos, m) {
                self.see_pending.set(i, true);
                tactical_score(pos, m, true)
            } else if m == killers[0] {
                KILLER_1
            } else if m == killers[1] {
                KILLER_2
            } else if m == counter {
                COUNTER
            } else {
                hist.quiet_score(us, m, cont_key(pos, m), ctx)
            };
            // At most 256 moves: the capacity of both lists.
            self.ranks.push(rank(score, i));
        }
    }

    /// The best move not yet returned, or `None` when all have been.
    ///
    /// The first of the best scores, as a plain selection sort over every
    /// move's final score would pick: a tactical move still scored as a
    /// good exchange has its SEE taken when it comes first, and if that
    /// loses it is scored as a bad exchange and the choice made again. A
    /// score only ever falls to its final value, so no other move's turn
    /// changes.
    #[inline]
    pub fn next_move<A: SliderAttacks>(&mut self, pos: &Position<A>) -> Option<Move> {
        let i = self.next;
        let n = self.moves.len();
        if i >= n {
            return None;
        }
        let best = loop {
            // One pass that vectorizes.
            let top = self.ranks[i..n].iter().copied().max().unwrap_or(i32::MIN);
            let best = 255 - (top & 255) as usize;
            if !self.see_pending.get(best) {
                self.last_see = if self.see_negative.get(best) {
                    SeeSign::Negative
                } else {
                    SeeSign::Unknown
                };
                break best;
            }
            self.see_pending.set(best, false);
            let m = self.moves[best];
            if see(pos, m) >= 0 {
                self.last_see = SeeSign::NonNegative;
                break best;
            }
            self.see_negative.set(best, true);
            self.ranks[best] = rank(tactical_score(pos, m, false), best);
        };
        self.ranks.swap(i, best);
        // The places follow the moves.
        self.ranks[i] = rank(self.ranks[i] >> 8, i);
        self.ranks[best] = rank(self.ranks[best] >> 8, best);
        self.moves.swap(i, best);
        self.see_pending.swap(i, best);
        self.see_negative.swap(i, best);
        self.next += 1;
        Some(self.moves[i])
    }

    /// `true` if the SEE of `m`, the move [`next_move`](Self::next_move)
    /// returned last, is below `threshold`: from the sign ordering found
    /// where that decides it, else taken now.
    #[inline]
    pub fn see_below<A: SliderAttacks>(&self, pos: &Position<A>, m: Move, threshold: i32) -> bool {
        match self.last_see {
            SeeSign::NonNegative if threshold <= 0 => false,
            SeeSign::Negative if threshold >= 0 => true,
            _ => see(pos, m) < threshold,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attacks::Magic;

    /// The order of the first picker: every score taken at once, SEE
    /// included, then a selection sort that swaps the best forward.
    fn eager_order(
        pos: &Position<Magic>,
        tt_move: Move,
        prev: Move,
        hist: &Histories,
    ) -> Vec<Move> {
        let mut moves: Vec<Move> = pos.legal_moves().to_vec();
        let killers = hist.killers(0);
        let mut scores: Vec<i32> = moves
            .iter()
            .map(|&m| {
                if m == tt_move {
                    TT_MOVE
                } else if is_tactical(pos, m) {
                    tactical_score(pos, m, see(pos, m) >= 0)
                } else if m == killers[0] {
                    KILLER_1
                } else if m == killers[1] {
                    KILLER_2
                } else if m == hist.counter(prev) {
                    COUNTER
                } else {
                    hist.quiet_score(pos.turn(), m, cont_key(pos, m), QuietContext::of(pos))
                }
            })
            .collect();
        for i in 0..moves.len() {
            let mut best = i;
            for j in i + 1..moves.len() {
                if scores[j] > scores[best] {
                    best = j;
                }
            }
            scores.swap(i, best);
            moves.swap(i, best);
        }
        moves
    }

    #[test]
    fn lazy_see_picks_in_the_eager_order_and_knows_the_signs() {
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 8 12",
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        ];
        // Some history, a killer and a counter move, so that quiet scores
        // differ and tie.
        let mut hist = Histories::new();
        let prev = Move::normal(attacks::Square::A2, attacks::Square::A3);
        for fen in fens {
            let pos: Position<Magic> = fen.parse().expect("a FEN");
            let moves = pos.legal_moves();
            let quiets: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| !is_tactical(&pos, m))
                .collect();
            for (n, &q) in quiets.iter().enumerate().step_by(5) {
                let key = cont_key(&pos, q);
                let tried: Vec<(Move, usize)> = quiets[..n]
                    .iter()
                    .map(|&m| (m, cont_key(&pos, m)))
                    .collect();
                hist.on_quiet_cutoff(
                    pos.turn(),
                    0,
                    4,
                    (q, key),
                    &tried,
                    prev,
                    QuietContext::of(&pos),
                );
            }
            for tt_move in [Move::NULL, moves[moves.len() / 2]] {
                let mut picker = MovePicker::new(&pos, Stage::All);
                picker.order(&pos, tt_move, 0, prev, QuietContext::of(&pos), &hist);
                let mut lazy = Vec::new();
                while let Some(m) = picker.next_move(&pos) {
                    match picker.last_see {
                        SeeSign::NonNegative => assert!(see(&pos, m) >= 0, "{m} in {fen}"),
                        SeeSign::Negative => assert!(see(&pos, m) < 0, "{m} in {fen}"),
                        SeeSign::Unknown => {
                            assert!(m == tt_move || !is_tactical(&pos, m), "{m} in {fen}")
                        }
                    }
                    for threshold in [-200, -1, 0, 1, 200] {
                        assert_eq!(
                            picker.see_below(&pos, m, threshold),
                            see(&pos, m) < threshold,
                            "{m} in {fen} at {threshold}"
                        );
                    }
                    lazy.push(m);
                }
                assert_eq!(lazy, eager_order(&pos, tt_move, prev, &hist), "{fen}");
            }
        }
    }
}
