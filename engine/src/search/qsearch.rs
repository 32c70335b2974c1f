//! Quiescence search: below the principal variation search's horizon,
//! captures and promotions (every evasion in check) until the position is
//! quiet, as numbered steps.

use attacks::SliderAttacks;
use movegen::{Move, Position, Stage};

use super::movepick::{MovePicker, is_tactical};
use super::params::params;
use super::see::value;
use super::worker::Worker;
use crate::tt::{Bound, Entry, score_from_tt, score_to_tt};
use nnue::score::{INFINITY, MATE, MAX_PLY};

impl<A: SliderAttacks> Worker<'_, A> {
    /// Quiescence search: captures and promotions (all evasions in check)
    /// until the position is quiet.
    pub fn qsearch(&mut self, pos: &Position<A>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        // 1. Limits, the maximum ply, draws.
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos, ply);
        }
        if pos.halfmoves() >= 100 || pos.is_insufficient_material() {
            return 0;
        }

        // 2. Transposition table.
        let in_check = pos.is_check();
        let key = pos.key();
        let tt = self.shared.tt.probe(key);
        if let Some(e) = tt {
            let s = score_from_tt(e.score, ply);
            if (e.bound == Bound::Exact)
                || (e.bound == Bound::Lower && s >= beta)
                || (e.bound == Bound::Upper && s <= alpha)
            {
                return s;
            }
        }

        // 3. Stand pat.
        let mut best = -INFINITY;
        let (raw_eval, stand_pat) = self.static_eval(pos, ply, tt, in_check);
        if !in_check {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }

        // 4. The moves: noisy ones, or every evasion in check.
        let stage = if in_check { Stage::All } else { Stage::Noisy };
        let mut picker = MovePicker::new(pos, stage);
        if in_check && picker.is_empty() {
            return -MATE + ply as i32;
        }
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        picker.order(
            pos,
            tt_move,
            ply,
            self.prev_move(ply),
            self.quiet_context(pos, ply),
            &self.hist,
        );
        let mut best_move = Move::NULL;
        while let Some(m) = picker.next_move(pos) {
            // 5. Delta pruning, losing captures, under-promotions.
            if !in_check {
                if !is_tactical(pos, m) {
                    continue;
                }
                let gain = pos.captured(m).map_or(0, value);
                if m.promotion_role().is_none()
                    && stand_pat + gain + params().qs_delta_margin <= alpha
                {
                    continue;
                }
                if picker.see_below(pos, m, 0) {
                    continue;
                }
            }
            let child = self.make(pos, m, ply);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }

        // 6. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: score_to_tt(best, ply),
                eval: if in_check { 0 } else { raw_eval },
                depth: 0,
                bound,
            },
        );
        best
    }
}
