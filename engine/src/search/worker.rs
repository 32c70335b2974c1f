//! One search thread's state: its statistics, its search stack, the
//! principal variation, and the checks of the limits.

use std::sync::atomic::Ordering;
use std::time::Instant;

use attacks::SliderAttacks;
use movegen::{Move, Position};

use super::correction::Correction;
use super::history::{Histories, NO_CONT, QuietContext, cont_key, pawn_index};
use super::limits::Limits;
use super::params::{self, params};
use super::shared::{Learned, Shared};
use super::stack::{Stack, new_stack};
use crate::eval::{PawnTable, evaluate_cached};
use crate::evaluator::{Evaluator, net_defers};
use crate::tt::Entry;
use nnue::AccumulatorStack;
use nnue::score::{INFINITY, MAX_PLY, TB_WIN_BOUND};

/// Late-move reductions by depth and move number.
fn lmr_table() -> Box<[[i32; 64]; 64]> {
    // Both in hundredths: 75 / 100 and 225 / 100 are exact in binary.
    let base = f64::from(params().lmr_base) / 100.0;
    let divisor = f64::from(params().lmr_divisor) / 100.0;
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (n as f64).ln() / divisor) as i32;
        }
    }
    t
}

/// One search thread's state.
pub(super) struct Worker<'a, A: SliderAttacks> {
    /// 0 for the main thread.
    pub id: usize,
    pub shared: &'a Shared,
    pub limits: &'a Limits,
    pub start: Instant,
    /// The keys of the positions before this node, oldest first.
    pub keys: Vec<u64>,
    /// How many of `keys` come from before the root (the game so far).
    pub root_len: usize,
    /// `keys` below this index lie before the last null move on the path:
    /// no repetition is looked for across it.
    pub null_floor: usize,
    pub nodes: u64,
    pub seldepth: usize,
    pub hist: Histories,
    pub correction: Correction,
    /// The pawn terms of the structures this thread has evaluated.
    pub pawns: PawnTable,
    /// The net's hidden layer at each ply (with [`Evaluator::Nnue`]).
    pub accumulators: AccumulatorStack,
    /// What the search keeps at each ply of the path.
    pub stack: Stack,
    pub pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pub pv_len: [usize; MAX_PLY + 2],
    pub lmr: Box<[[i32; 64]; 64]>,
    /// Root moves excluded from this search (MultiPV lines already found).
    pub root_excluded: Vec<Move>,
    pub stopped: bool,
    /// False until the first iteration completes, so there is always a move.
    pub may_stop: bool,
    /// The first move of the last PV reported.
    pub last_reported: Move,
    _method: core::marker::PhantomData<A>,
}

impl<'a, A: SliderAttacks> Worker<'a, A> {
    pub fn new(
        id: usize,
        shared: &'a Shared,
        limits: &'a Limits,
        keys: Vec<u64>,
        start: Instant,
        learned: Learned,
    ) -> Self {
        params::load();
        Worker {
            id,
            shared,
            limits,
            start,
            root_len: keys.len(),
            null_floor: 0,
            keys,
            nodes: 0,
            seldepth: 0,
            hist: learned.hist,
            correction: learned.correction,
            pawns: PawnTable::new(),
            accumulators: AccumulatorStack::new(MAX_PLY + 2),
            stack: new_stack(),
            pv: Box::new([[Move::NULL; MAX_PLY + 2]; MAX_PLY + 2]),
            pv_len: [0; MAX_PLY + 2],
            lmr: lmr_table(),
            root_excluded: Vec::new(),
            stopped: false,
            may_stop: false,
            last_reported: Move::NULL,
            _method: core::marker::PhantomData,
        }
    }

    /// What this thread learned, for the next search.
    pub fn into_learned(self) -> Learned {
        Learned {
            hist: self.hist,
            correction: self.correction,
        }
    }

    /// Readies the evaluation for a search from `root` (ply 0).
    pub fn set_root(&mut self, root: &Position<A>) {
        if let Evaluator::Nnue(net) = &self.limits.evaluator {
            self.accumulators.set_root(net, root);
        }
    }

    /// The static evaluation of `pos`, the position at `ply`, for the side
    /// to move.
    #[inline]
    pub fn evaluate(&mut self, pos: &Position<A>, ply: usize) -> i32 {
        match &self.limits.evaluator {
            Evaluator::Classical => evaluate_cached(pos, &mut self.pawns),
            // Against a bare king the hand-crafted mop-up mates.
            Evaluator::Nnue(_) if net_defers(pos) => evaluate_cached(pos, &mut self.pawns),
            // Kept below the tablebase scores, which the search tells apart
            // from evaluations.
            Evaluator::Nnue(net) => self
                .accumulators
                .evaluate(net, ply, pos)
                .clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1),
        }
    }

    /// The static evaluation of `pos` at `ply` as the search uses it: the
    /// raw one (the table entry's when there is one; the table keeps the
    /// raw one) and the one corrected by what searches of alike positions
    /// found. In check there is none: `-INFINITY` both.
    #[inline]
    pub fn static_eval(
        &mut self,
        pos: &Position<A>,
        ply: usize,
        tt: Option<Entry>,
        in_check: bool,
    ) -> (i32, i32) {
        if in_check {
            return (-INFINITY, -INFINITY);
        }
        let raw = match tt {
            Some(e) => e.eval,
            None => self.evaluate(pos, ply),
        };
        (raw, self.correction.corrected(pos, raw))
    }

    /// Plays `m` (a null move when null) from `pos`, the position at `ply`,
    /// and returns the child: the one place the search makes a move. It
    /// records the move and its continuation key in the stack's frame at
    /// `ply` (for the counter move and continuation history below, in the
    /// main search and quiescence alike), pushes `pos`'s key for the
    /// repetition checks and brings the evaluation along; [`Self::unmake`]
    /// takes the key back.
    #[inline]
    pub fn make(&mut self, pos: &Position<A>, m: Move, ply: usize) -> Position<A> {
        let mut child = *pos;
        let frame = &mut self.stack[ply];
        frame.played = m;
        if m.is_null() {
            frame.cont_key = NO_CONT;
            child.play_null();
        } else {
            frame.cont_key = cont_key(pos, m);
            child.play_unchecked(m);
        }
        self.keys.push(pos.key());
        if let Evaluator::Nnue(net) = &self.limits.evaluator {
            self.accumulators.push(net, ply, pos, &child);
        }
        child
    }

    /// Undoes [`Self::make`]'s bookkeeping (the child position is a copy).
    #[inline]
    pub fn unmake(&mut self) {
        self.keys.pop();
    }

    /// The time the limits count from: the start, or `ponderhit`.
    pub fn clock_start(&self) -> Instant {
        self.shared
            .ponderhit_at
            .lock()
            .ok()
            .and_then(|g| *g)
            .unwrap_or(self.start)
    }

    /// Checks the stop flag, and (main thread) the node and time limits.
    #[inline]
    pub fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 && self.may_stop {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.id == 0 {
                if let Some(n) = self.limits.nodes
                    && self.nodes >= n
                {
                    self.stopped = true;
                }
                if let Some(hard) = self.limits.hard_time
                    && !self.shared.pondering.load(Ordering::Relaxed)
                    && self.clock_start().elapsed() >= hard
                {
                    self.stopped = true;
                }
                if self.stopped {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.stopped
    }

    /// A repetition that scores as a draw: one earlier occurrence inside the
    /// search (from the root on), or two before the root (a threefold
    /// repetition in the game). The look-back stops at the last irreversible
    /// move and at a null move.
    fn is_repetition(&self, pos: &Position<A>) -> bool {
        let n = self.keys.len();
        let window = (pos.halfmoves() as usize).min(n - self.null_floor.min(n));
        let key = pos.key();
        let mut before_root = 0;
        let mut i = 2;
        while i <= window {
            let j = n - i;
            if self.keys[j] == key {
                if j >= self.root_len {
                    return true;
                }
                before_root += 1;
                if before_root >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// A draw by the fifty-move rule, material or repetition.
    pub fn is_draw(&self, pos: &Position<A>) -> bool {
        (pos.halfmoves() >= 100 && !pos.is_checkmate())
            || pos.is_insufficient_material()
            || self.is_repetition(pos)
    }

    /// The move played one ply up, or null at the root.
    #[inline]
    pub fn prev_move(&self, ply: usize) -> Move {
        if ply > 0 {
            self.stack[ply - 1].played
        } else {
            Move::NULL
        }
    }

    /// The context of a quiet move at `ply` in `pos`: the continuation
    /// keys of the moves one, two and four plies before, and the pawn
    /// entry.
    #[inline]
    pub fn quiet_context(&self, pos: &Position<A>, ply: usize) -> QuietContext {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].cont_key
            } else {
                NO_CONT
            }
        };
        let conts = [back(1), back(2), back(4)];
        QuietContext {
            conts,
            pawns: pawn_index(pos),
        }
    }

    /// The PV at `ply` becomes `m` and the child's PV.
    pub fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}
