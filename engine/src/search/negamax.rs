//! The search proper: the principal variation search, as numbered steps
//! (the quiescence search below its horizon is `qsearch`).

use std::sync::atomic::Ordering;

use arrayvec::ArrayVec;
use attacks::SliderAttacks;
use movegen::{Move, Position, Role, Stage};

use super::movepick::{MovePicker, is_tactical};
use super::params::params;
use super::worker::Worker;
use crate::tablebase::TbResult;
use crate::tt::{Bound, Entry, score_from_tt, score_to_tt};
use nnue::score::{INFINITY, MATE, MATE_BOUND, MAX_PLY, TB_WIN};

impl<A: SliderAttacks> Worker<'_, A> {
    /// The principal variation search.
    pub fn negamax(
        &mut self,
        pos: &Position<A>,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        // 1. At the horizon, resolve captures.
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.pv_len[ply] = ply;
        let root = ply == 0;
        let pv_node = beta - alpha > 1;
        // A singular-extension search of this node without its TT move.
        let excluded = self.stack[ply].excluded;
        let singular_search = !excluded.is_null();

        // 2. Limits.
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // 3. Draws, maximum ply, mate-distance pruning.
        if !root {
            if self.is_draw(pos) {
                return 0;
            }
            if ply >= MAX_PLY {
                return self.evaluate(pos, ply);
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }

        // 4. Transposition table.
        let key = pos.key();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.map_or(Move::NULL, |e| e.mv);
        if let Some(e) = tt
            && !pv_node
            && !singular_search
            && e.depth >= depth
        {
            let s = score_from_tt(e.score, ply);
            if (e.bound == Bound::Exact)
                || (e.bound == Bound::Lower && s >= beta)
                || (e.bound == Bound::Upper && s <= alpha)
            {
                return s;
            }
        }

        // 5. Endgame tablebases: after a capture or pawn move, the WDL
        // tables know the outcome. A win is a lower bound, a loss an upper
        // one (the distance to mate is unknown), a draw exact.
        let (mut tb_floor, mut tb_ceiling) = (-INFINITY, INFINITY);
        if !root && !singular_search {
            match self.probe_tablebase(pos, key, alpha, beta, depth, ply) {
                TbProbe::Cut(score) => return score,
                TbProbe::Floor(score) if pv_node => {
                    tb_floor = score;
                    alpha = alpha.max(score);
                }
                TbProbe::Ceiling(score) if pv_node => tb_ceiling = score,
                _ => {}
            }
        }

        // 6. Static evaluation, corrected by what searches of alike
        // positions found (the TT keeps the raw one).
        let in_check = pos.is_check();
        let (raw_eval, eval) = self.static_eval(pos, ply, tt, in_check);
        self.stack[ply].eval = eval;
        // Improving: better than two plies ago, or four when the side was in
        // check then (no static evaluation); true when neither is known.
        let improving = !in_check && {
            let earlier = [2, 4]
                .into_iter()
                .filter(|&k| ply >= k)
                .map(|k| self.stack[ply - k].eval)
                .find(|&e| e != -INFINITY);
            earlier.is_none_or(|e| eval > e)
        };
        let us = pos.turn();

        // 7-8. Reverse futility and null-move pruning.
        if !in_check
            && !pv_node
            && !singular_search
            && let Some(score) = self.prune_node(pos, beta, depth, ply, eval, improving, null_ok)
        {
            return score;
        }

        // 9. Internal iterative reduction: no stored move, search shallower.
        if depth >= params().iir_min_depth && tt_move.is_null() {
            depth -= 1;
        }

        // 10. The moves.
        let mut picker = MovePicker::new(pos, Stage::All);
        if root {
            if !self.limits.searchmoves.is_empty() {
                picker.retain(|m| self.limits.searchmoves.contains(m));
            }
            picker.retain(|m| !self.root_excluded.contains(m));
        }
        if picker.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let prev = self.prev_move(ply);
        let ctx = self.quiet_context(pos, ply);
        picker.order(pos, tt_move, ply, prev, ctx, &self.hist);
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: ArrayVec<(Move, usize), 256> = ArrayVec::new();
        let original_alpha = alpha;

        while let Some(m) = picker.next_move(pos) {
            if m == excluded {
                continue;
            }
            let quiet = !is_tactical(pos, m);

            // 11. Pruning of late moves once a line that does not lose is known.
            if !root
                && best > -MATE_BOUND
                && self.prunes_late_move(LateMove {
                    pos,
                    picker: &picker,
                    m,
                    quiet,
                    in_check,
                    depth,
                    eval,
                    alpha,
                    improving,
                    quiets_tried: quiets_tried.len(),
                })
            {
                continue;
            }

            // 12. Singular extension. When every other move fails well below
            // the TT move's stored score, the TT move is searched a ply
            // deeper (two when far below); when even that lower bound
            // reaches beta, more than one move refutes and the node is cut
            // (multi-cut); when the TT score alone beats beta, the TT move
            // is searched a ply shallower.
            let mut singular = 0;
            if !root
                && m == tt_move
                && !singular_search
                && depth >= params().se_min_depth
                && let Some(e) = tt
            {
                match self.singular_extension(pos, m, e, beta, depth, ply, pv_node) {
                    Ok(extension) => singular = extension,
                    Err(score) => return score,
                }
            }
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + u8::from(singular == 2);

            let child = self.make(pos, m, ply);
            let key_m = self.stack[ply].cont_key;
            // 13. Check extension, unless the singular search extended.
            let extension = if singular > 0 {
                singular
            } else {
                singular + i32::from(child.is_check())
            };
            let new_depth = depth - 1 + extension;

            // 14. Principal variation search with late-move reductions.
            let score = if searched == 0 {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true)
            } else {
                let r = if depth >= params().lmr_min_depth
                    && searched >= 2 + usize::from(pv_node)
                    && quiet
                {
                    let history = self.hist.quiet_score(us, m, key_m, ctx);
                    let r = self.lmr[depth.min(63) as usize][searched.min(63)]
                        - i32::from(pv_node)
                        - i32::from(in_check)
                        + i32::from(!improving)
                        - history / params().lmr_history_divisor;
                    // At least a ply of search is left, whatever the
                    // constants (`lmr_min_depth` 1 reaches depth 1 here).
                    r.clamp(0, (new_depth - 1).max(0))
                } else {
                    0
                };
                self.search_late(&child, alpha, beta, best, new_depth, r, ply)
            };
            self.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;

            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        // 15. A cut: remember the quiet move that made it.
                        if quiet {
                            self.hist.on_quiet_cutoff(
                                us,
                                ply,
                                depth,
                                (m, key_m),
                                &quiets_tried,
                                prev,
                                ctx,
                            );
                        }
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push((m, key_m));
            }
        }

        if searched == 0 {
            // Every move was pruned: fall back to the static view.
            return alpha;
        }
        // A tablebase bound the moves did not reach (PV nodes only).
        best = best.max(tb_floor).min(tb_ceiling);

        // 16-17. Store the result; teach the correction history.
        if !singular_search {
            self.store_result(
                pos,
                key,
                Outcome {
                    best,
                    best_move,
                    original_alpha,
                    beta,
                    depth,
                    ply,
                    in_check,
                    raw_eval,
                    eval,
                },
            );
        }
        best
    }

    /// Step 5 of [`Self::negamax`]: after a capture or pawn move, the WDL
    /// tables know the outcome. A win is a lower bound, a loss an upper one
    /// (the distance to mate is unknown), a draw exact. A bound that cuts
    /// is stored and returned; one that does not is the node's floor or
    /// ceiling (PV nodes keep it).
    #[inline]
    fn probe_tablebase(
        &mut self,
        pos: &Position<A>,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> TbProbe {
        let Some(tb) = &self.limits.syzygy else {
            return TbProbe::Nothing;
        };
        if pos.halfmoves() != 0
            || !tb.covers(pos)
            || (pos.occupied().count() >= tb.cardinality && depth < tb.probe_depth)
        {
            return TbProbe::Nothing;
        }
        let Some(outcome) = tb.probe_wdl(pos) else {
            return TbProbe::Nothing;
        };
        self.shared.tbhits.fetch_add(1, Ordering::Relaxed);
        let (score, bound) = match outcome {
            TbResult::Win => (TB_WIN - ply as i32, Bound::Lower),
            TbResult::Loss => (-TB_WIN + ply as i32, Bound::Upper),
            TbResult::Draw => (0, Bound::Exact),
        };
        if bound == Bound::Exact
            || (bound == Bound::Lower && score >= beta)
            || (bound == Bound::Upper && score <= alpha)
        {
            self.shared.tt.store(
                key,
                Entry {
                    mv: Move::NULL,
                    score: score_to_tt(score, ply),
                    eval: if pos.is_check() {
                        0
                    } else {
                        self.evaluate(pos, ply)
                    },
                    depth: (depth + params().tb_depth_bonus).min(MAX_PLY as i32),
                    bound,
                },
            );
            return TbProbe::Cut(score);
        }
        if bound == Bound::Lower {
            TbProbe::Floor(score)
        } else {
            TbProbe::Ceiling(score)
        }
    }

    /// Steps 7 and 8 of [`Self::negamax`], at a non-PV node not in check:
    /// reverse futility pruning, then null-move pruning. The score to
    /// return, if either prunes the node (0 when the search was stopped).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        pos: &Position<A>,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        improving: bool,
        null_ok: bool,
    ) -> Option<i32> {
        // 7. Reverse futility pruning.
        let margin =
            params().rfp_margin * depth - if improving { params().rfp_improving } else { 0 };
        if depth <= params().rfp_max_depth && eval - margin >= beta && eval.abs() < MATE_BOUND {
            return Some(eval);
        }
        // 8. Null-move pruning.
        let us = pos.turn();
        let non_pawn = pos.by_color(us) - pos.pieces(us, Role::Pawn) - pos.pieces(us, Role::King);
        if null_ok && depth >= params().nmp_min_depth && eval >= beta && non_pawn.any() {
            let r = params().nmp_base
                + depth / params().nmp_depth_divisor
                + ((eval - beta) / params().nmp_eval_divisor).min(params().nmp_eval_max);
            let child = self.make(pos, Move::NULL, ply);
            let floor = core::mem::replace(&mut self.null_floor, self.keys.len());
            let score = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
            self.null_floor = floor;
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                return Some(if score >= MATE_BOUND { beta } else { score });
            }
        }
        None
    }

    /// Step 11 of [`Self::negamax`]: whether a late move is skipped once a
    /// line that does not lose is known: late-move and futility pruning of
    /// quiet moves (checks exempt: a quiet check is often the mate), and
    /// moves that lose material by SEE.
    #[inline]
    fn prunes_late_move(&self, l: LateMove<'_, A>) -> bool {
        let depth = l.depth;
        if l.quiet && !l.in_check && depth <= params().lmp_max_depth {
            let limit =
                (params().lmp_base + depth * depth) as usize / if l.improving { 1 } else { 2 };
            let check = l.pos.gives_check(l.m);
            if l.quiets_tried >= limit.max(2) && !check {
                return true;
            }
            if l.eval + params().futility_base + params().futility_per_depth * depth <= l.alpha
                && !check
            {
                return true;
            }
        }
        if depth <= params().see_prune_max_depth {
            let threshold = if l.quiet {
                -params().see_quiet_margin * depth
            } else {
                -params().see_noisy_margin * depth * depth
            };
            if l.picker.see_below(l.pos, l.m, threshold) {
                return true;
            }
        }
        false
    }

    /// Step 12 of [`Self::negamax`], for the TT move `m` of entry `e`: when
    /// every other move fails well below the TT move's stored score, the
    /// TT move is searched a ply deeper (two when far below); when even that
    /// lower bound reaches beta, more than one move refutes and the node is
    /// cut (multi-cut: `Err` with the score, or 0 when the search was
    /// stopped); when the TT score alone beats beta, the TT move is
    /// searched a ply shallower. `Ok` with the extension.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn singular_extension(
        &mut self,
        pos: &Position<A>,
        m: Move,
        e: Entry,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Result<i32, i32> {
        let tt_score = score_from_tt(e.score, ply);
        if e.bound == Bound::Upper
            || e.depth < depth - params().se_tt_depth_margin
            || tt_score.abs() >= MATE_BOUND
        {
            return Ok(0);
        }
        let s_beta = tt_score - params().se_beta_per_depth * depth;
        self.stack[ply].excluded = m;
        let s = self.negamax(pos, s_beta - 1, s_beta, (depth - 1) / 2, ply, false);
        self.stack[ply].excluded = Move::NULL;
        if self.stopped {
            return Err(0);
        }
        if s < s_beta {
            if !pv_node
                && s < s_beta - params().se_double_margin
                && self.stack[ply].double_extensions < params().se_max_doubles
            {
                return Ok(2);
            }
            Ok(1)
        } else if s_beta >= beta {
            Err(s_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// Step 14 of [`Self::negamax`] for a move after the first: a null
    /// window at the depth reduced by `r`; if it beats alpha, again at the
    /// full depth, a ply deeper when it beat the node's best by far and a
    /// ply shallower when barely; with the full window if it still lands
    /// inside it.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn search_late(
        &mut self,
        child: &Position<A>,
        alpha: i32,
        beta: i32,
        best: i32,
        mut new_depth: i32,
        r: i32,
        ply: usize,
    ) -> i32 {
        let reduced = new_depth - r;
        let mut s = -self.negamax(child, -alpha - 1, -alpha, reduced, ply + 1, true);
        if s > alpha && r > 0 {
            let deeper = s > best + params().lmr_deeper_margin + 2 * new_depth;
            let shallower = s < best + new_depth;
            new_depth += i32::from(deeper) - i32::from(shallower);
            if new_depth > reduced {
                s = -self.negamax(child, -alpha - 1, -alpha, new_depth, ply + 1, true);
            }
        }
        if s > alpha && s < beta {
            s = -self.negamax(child, -beta, -alpha, new_depth, ply + 1, true);
        }
        s
    }

    /// Steps 16 and 17 of [`Self::negamax`]: store the result (unless the
    /// root searches with moves left out), and teach the correction
    /// history where the result bounds the true score on the side that
    /// tells and no capture or promotion decided it.
    #[inline]
    fn store_result(&mut self, pos: &Position<A>, key: u64, o: Outcome) {
        let bound = if o.best >= o.beta {
            Bound::Lower
        } else if o.best > o.original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if o.ply != 0 || self.root_excluded.is_empty() {
            self.shared.tt.store(
                key,
                Entry {
                    mv: o.best_move,
                    score: score_to_tt(o.best, o.ply),
                    eval: if o.in_check { 0 } else { o.raw_eval },
                    depth: o.depth,
                    bound,
                },
            );
        }
        if !o.in_check
            && (o.best_move.is_null() || !is_tactical(pos, o.best_move))
            && o.best.abs() < MATE_BOUND
            && (bound != Bound::Lower || o.best > o.eval)
            && (bound != Bound::Upper || o.best < o.eval)
        {
            self.correction.update(pos, o.depth, o.raw_eval, o.best);
        }
    }
}

/// What a tablebase probe tells a node ([`Worker::probe_tablebase`]).
enum TbProbe {
    /// The tables do not cover the position, or were not probed.
    Nothing,
    /// The node's score: return it.
    Cut(i32),
    /// A win the search has not reached: a lower bound.
    Floor(i32),
    /// A loss: an upper bound.
    Ceiling(i32),
}

/// A move step 11 may prune, and what it is judged by.
struct LateMove<'a, A: SliderAttacks> {
    pos: &'a Position<A>,
    picker: &'a MovePicker,
    m: Move,
    quiet: bool,
    in_check: bool,
    depth: i32,
    eval: i32,
    alpha: i32,
    improving: bool,
    quiets_tried: usize,
}

/// A node's result, as steps 16 and 17 need it.
struct Outcome {
    best: i32,
    best_move: Move,
    original_alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
    in_check: bool,
    raw_eval: i32,
    eval: i32,
}
