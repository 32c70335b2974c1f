//! The search: iterative deepening with aspiration windows over a principal
//! variation search, quiescence search with SEE, and the usual pruning and
//! ordering heuristics; Lazy SMP for several threads. Generic over the attack
//! method, so each method gets its own monomorphised instance.
//!
//! The search knows nothing of text: it reads [`Limits`] and tells a
//! [`Reporter`] what it found.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use attacks::{Color, SliderAttacks};
use movegen::{Move, MoveKind, MoveList, Position, Role};

use crate::eval::evaluate;
use crate::tt::{Bound, Entry, Table, score_from_tt, score_to_tt};

/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;

/// What to search for, and for how long.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exact with one thread).
    pub nodes: Option<u64>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Do not start a new iteration after this long.
    pub soft_time: Option<Duration>,
    /// Stop at once after this long.
    pub hard_time: Option<Duration>,
    /// Search until told to stop (also while pondering).
    pub infinite: bool,
    /// Search only these root moves (all if empty).
    pub searchmoves: Vec<Move>,
    /// How many best lines to report.
    pub multipv: usize,
}

/// A score as a user reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The user's view of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

/// One line of progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Nominal depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1 for the best line.
    pub multipv: usize,
    /// The score.
    pub score: Score,
    /// `Some(Bound::Lower)` / `Some(Bound::Upper)` when the aspiration window
    /// failed and the score is only a bound.
    pub bound: Option<Bound>,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Permille of the hash table in use.
    pub hashfull: u32,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
}

/// Receives the search's progress.
pub trait Reporter: Sync {
    /// A finished (or bound-changing) line.
    fn report(&self, report: &Report);
}

/// A reporter that says nothing.
pub struct Silent;
impl Reporter for Silent {
    fn report(&self, _: &Report) {}
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The move to play, or the null move when there is none.
    pub best: Move,
    /// The expected reply, if known.
    pub ponder: Option<Move>,
    /// The best line's score.
    pub score: i32,
    /// Deepest completed depth.
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
}

/// State shared by all threads of a search and kept between searches.
pub struct Shared {
    /// The transposition table.
    pub tt: Table,
    /// Set to stop the search.
    pub stop: AtomicBool,
    /// `true` while pondering: time limits do not apply yet.
    pub pondering: AtomicBool,
    /// When `ponderhit` arrived: time limits count from then.
    pub ponderhit_at: Mutex<Option<Instant>>,
    nodes: AtomicU64,
}

impl Shared {
    /// Shared state with a table of `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Shared {
        Shared::with_table(Table::new(hash_mb))
    }

    /// Shared state around the table `tt`.
    pub fn with_table(tt: Table) -> Shared {
        Shared {
            tt,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(false),
            ponderhit_at: Mutex::new(None),
            nodes: AtomicU64::new(0),
        }
    }
}

const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Static exchange evaluation of `m`: the material balance of the best
/// sequence of captures on its destination. Attackers hidden behind others
/// (X-rays) join as the pieces in front of them leave the occupancy.
pub fn see<A: SliderAttacks>(pos: &Position<A>, m: Move) -> i32 {
    let (from, to) = (m.from(), m.to());
    if m.kind() == MoveKind::Castle {
        return 0;
    }
    let mut occ = pos.occupied().without(from);
    let mut gain = [0i32; 32];
    gain[0] = pos.captured(m).map_or(0, |r| PIECE_VALUE[r.index()]);
    let mut victim = pos.role_at(from).map_or(0, |r| PIECE_VALUE[r.index()]);
    if let Some(p) = m.promotion_role() {
        gain[0] += PIECE_VALUE[p.index()] - PIECE_VALUE[0];
        victim = PIECE_VALUE[p.index()];
    }
    if m.kind() == MoveKind::EnPassant {
        occ = occ.without(attacks::Square::from_coords(to.file(), from.rank()));
    }
    let rooks = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let bishops = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let mut attackers =
        (pos.attackers(Color::White, to, occ) | pos.attackers(Color::Black, to, occ)) & occ;
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let mine = attackers & pos.by_color(side) & occ;
        if mine.is_empty() {
            break;
        }
        // The least valuable attacker.
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (mine & pos.by_role(r)).ls1b().map(|s| (r, s)))
        else {
            break;
        };
        if role == Role::King && (attackers & pos.by_color(!side) & occ.without(sq)).any() {
            break; // the king may not capture into a defended square
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = victim - gain[d - 1];
        victim = PIECE_VALUE[role.index()];
        occ = occ.without(sq);
        // X-rays: sliders behind the piece that just captured.
        attackers |= (A::rook_attacks(to, occ) & rooks) | (A::bishop_attacks(to, occ) & bishops);
        attackers &= occ;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Late-move reductions by depth and move number.
fn lmr_table() -> Box<[[i32; 64]; 64]> {
    let mut t = Box::new([[0; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as i32;
        }
    }
    t
}

/// One search thread's state.
struct Worker<'a, A: SliderAttacks> {
    id: usize,
    shared: &'a Shared,
    limits: &'a Limits,
    start: Instant,
    keys: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Box<[[[i32; 64]; 64]; 2]>,
    counter: Box<[[Move; 64]; 64]>,
    played: [Move; MAX_PLY + 2],
    evals: [i32; MAX_PLY + 2],
    pv: Box<[[Move; MAX_PLY + 2]; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    lmr: Box<[[i32; 64]; 64]>,
    root_excluded: Vec<Move>,
    stopped: bool,
    /// False until the first iteration completes, so there is always a move.
    may_stop: bool,
    /// The first move of the last PV reported.
    last_reported: Move,
    _method: core::marker::PhantomData<A>,
}

impl<'a, A: SliderAttacks> Worker<'a, A> {
    fn new(
        id: usize,
        shared: &'a Shared,
        limits: &'a Limits,
        keys: Vec<u64>,
        start: Instant,
    ) -> Self {
        Worker {
            id,
            shared,
            limits,
            start,
            keys,
            nodes: 0,
            seldepth: 0,
            killers: [[Move::NULL; 2]; MAX_PLY + 2],
            history: Box::new([[[0; 64]; 64]; 2]),
            counter: Box::new([[Move::NULL; 64]; 64]),
            played: [Move::NULL; MAX_PLY + 2],
            evals: [0; MAX_PLY + 2],
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

    /// The time the limits count from: the start, or `ponderhit`.
    fn clock_start(&self) -> Instant {
        self.shared
            .ponderhit_at
            .lock()
            .ok()
            .and_then(|g| *g)
            .unwrap_or(self.start)
    }

    /// Checks the stop flag, and (main thread) the node and time limits.
    #[inline]
    fn should_stop(&mut self) -> bool {
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

    fn is_repetition(&self, pos: &Position<A>) -> bool {
        let n = self.keys.len();
        let window = (pos.halfmoves() as usize).min(n);
        let key = pos.key();
        let mut i = 2;
        while i <= window {
            if self.keys[n - i] == key {
                return true;
            }
            i += 2;
        }
        false
    }

    fn is_draw(&self, pos: &Position<A>) -> bool {
        (pos.halfmoves() >= 100 && !pos.is_checkmate())
            || pos.is_insufficient_material()
            || self.is_repetition(pos)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    fn score_moves(
        &self,
        pos: &Position<A>,
        moves: &MoveList,
        tt_move: Move,
        ply: usize,
    ) -> Vec<i32> {
        let us = pos.turn().index();
        let prev = if ply > 0 {
            self.played[ply - 1]
        } else {
            Move::NULL
        };
        let counter = if prev.is_null() {
            Move::NULL
        } else {
            self.counter[prev.from().index()][prev.to().index()]
        };
        moves
            .iter()
            .map(|&m| {
                if m == tt_move {
                    return 2_000_000;
                }
                if pos.is_noisy(m) {
                    let victim = pos.captured(m).map_or(0, |r| PIECE_VALUE[r.index()]);
                    let attacker = pos.role_at(m.from()).map_or(0, |r| r.index() as i32);
                    let promo = if m.promotion_role() == Some(Role::Queen) {
                        5_000
                    } else {
                        0
                    };
                    let base = if see(pos, m) >= 0 {
                        1_000_000
                    } else {
                        -100_000
                    };
                    return base + promo + victim * 10 - attacker;
                }
                if m == self.killers[ply][0] {
                    900_000
                } else if m == self.killers[ply][1] {
                    800_000
                } else if m == counter {
                    700_000
                } else {
                    self.history[us][m.from().index()][m.to().index()]
                }
            })
            .collect()
    }

    fn update_history(&mut self, color: Color, m: Move, bonus: i32) {
        let h = &mut self.history[color.index()][m.from().index()][m.to().index()];
        *h += bonus - *h * bonus.abs() / 16_384;
    }

    /// Quiescence search: captures and promotions (all evasions in check)
    /// until the position is quiet.
    fn qsearch(&mut self, pos: &Position<A>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return evaluate(pos);
        }
        if pos.halfmoves() >= 100 || pos.is_insufficient_material() {
            return 0;
        }
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
        let mut best = -INFINITY;
        let stand_pat = if in_check {
            -INFINITY
        } else {
            tt.map_or_else(|| evaluate(pos), |e| e.eval)
        };
        if !in_check {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best = stand_pat;
        }
        let mut moves = if in_check {
            pos.legal_moves()
        } else {
            pos.noisy_moves()
        };
        if in_check && moves.is_empty() {
            return -MATE + ply as i32;
        }
        let mut scores = self.score_moves(pos, &moves, tt.map_or(Move::NULL, |e| e.mv), ply);
        let mut best_move = Move::NULL;
        for i in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, i);
            if !in_check {
                // Delta pruning and losing captures.
                let gain = pos.captured(m).map_or(0, |r| PIECE_VALUE[r.index()]);
                if m.promotion_role().is_none() && stand_pat + gain + 200 <= alpha {
                    continue;
                }
                if see(pos, m) < 0 {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.keys.push(key);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
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
                eval: if in_check { 0 } else { stand_pat },
                depth: 0,
                bound,
            },
        );
        best
    }

    /// The principal variation search.
    #[allow(clippy::too_many_lines)]
    fn negamax(
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
                return evaluate(pos);
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

        // 5. Static evaluation.
        let in_check = pos.is_check();
        let eval = if in_check {
            -INFINITY
        } else {
            tt.map_or_else(|| evaluate(pos), |e| e.eval)
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        let us = pos.turn();

        if !in_check && !pv_node {
            // 6. Reverse futility pruning.
            let margin = 80 * depth - if improving { 40 } else { 0 };
            if depth <= 8 && eval - margin >= beta && eval.abs() < MATE_BOUND {
                return eval;
            }
            // 7. Null-move pruning.
            let non_pawn =
                pos.by_color(us) - pos.pieces(us, Role::Pawn) - pos.pieces(us, Role::King);
            if null_ok && depth >= 3 && eval >= beta && non_pawn.any() {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let mut child = *pos;
                child.play_null();
                self.keys.push(key);
                self.played[ply] = Move::NULL;
                let score = -self.negamax(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.keys.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // 8. Internal iterative reduction: no stored move, search shallower.
        if depth >= 4 && tt_move.is_null() {
            depth -= 1;
        }

        // 9. The moves.
        let mut moves = pos.legal_moves();
        if root {
            if !self.limits.searchmoves.is_empty() {
                moves.retain(|m| self.limits.searchmoves.contains(m));
            }
            moves.retain(|m| !self.root_excluded.contains(m));
        }
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = self.score_moves(pos, &moves, tt_move, ply);
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut searched = 0usize;
        let mut quiets_tried: MoveList = MoveList::new();
        let original_alpha = alpha;

        for i in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, i);
            let quiet = !pos.is_noisy(m);

            // 10. Pruning of late moves once a line that does not lose is known.
            if !root && best > -MATE_BOUND {
                if quiet && !in_check && depth <= 6 {
                    let limit = (3 + depth * depth) as usize / if improving { 1 } else { 2 };
                    // Checks are exempt: a quiet check is often the mate.
                    let check = pos.gives_check(m);
                    if quiets_tried.len() >= limit.max(2) && !check {
                        continue;
                    }
                    if eval + 100 + 90 * depth <= alpha && !check {
                        continue;
                    }
                }
                if depth <= 6 {
                    let threshold = if quiet {
                        -60 * depth
                    } else {
                        -25 * depth * depth
                    };
                    if see(pos, m) < threshold {
                        continue;
                    }
                }
            }

            let mut child = *pos;
            child.play_unchecked(m);
            self.keys.push(key);
            self.played[ply] = m;
            // 11. Check extension.
            let extension = i32::from(child.is_check());
            let new_depth = depth - 1 + extension;

            // 12. Principal variation search with late-move reductions.
            let score = if searched == 0 {
                -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true)
            } else {
                let mut r = 0;
                if depth >= 3 && searched >= 2 + usize::from(pv_node) && quiet {
                    r = self.lmr[depth.min(63) as usize][searched.min(63)];
                    r -= i32::from(pv_node) + i32::from(in_check);
                    r += i32::from(!improving);
                    let h = self.history[us.index()][m.from().index()][m.to().index()];
                    r -= h / 8_000;
                    r = r.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, -alpha - 1, -alpha, new_depth, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, true);
                }
                s
            };
            self.keys.pop();
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
                        // 13. A cut: remember the quiet move that made it.
                        if quiet {
                            let bonus = (depth * depth * 16).min(1_600);
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            self.update_history(us, m, bonus);
                            for &q in &quiets_tried {
                                self.update_history(us, q, -bonus);
                            }
                            if ply > 0 {
                                let prev = self.played[ply - 1];
                                if !prev.is_null() {
                                    self.counter[prev.from().index()][prev.to().index()] = m;
                                }
                            }
                        }
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(m);
            }
        }

        if searched == 0 {
            // Every move was pruned: fall back to the static view.
            return alpha;
        }

        // 14. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if !root || self.root_excluded.is_empty() {
            self.shared.tt.store(
                key,
                Entry {
                    mv: best_move,
                    score: score_to_tt(best, ply),
                    eval: if in_check { 0 } else { eval },
                    depth,
                    bound,
                },
            );
        }
        best
    }
}

/// Moves the best-scored remaining move to `i` and returns it.
#[inline]
fn pick(moves: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
    let mut best = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    scores.swap(i, best);
    moves.swap(i, best);
    moves[i]
}

/// Searches `pos` (reached through positions whose keys are `history`, oldest
/// first) with `threads` threads until the limits or `shared.stop`.
pub fn search<A: SliderAttacks>(
    pos: &Position<A>,
    history: &[u64],
    limits: &Limits,
    threads: usize,
    shared: &Shared,
    reporter: &dyn Reporter,
) -> Outcome {
    let start = Instant::now();
    shared.tt.new_search();
    shared.nodes.store(0, Ordering::Relaxed);
    let legal = pos.legal_moves();
    if legal.is_empty() {
        wait_for_stop(limits, shared);
        return Outcome {
            best: Move::NULL,
            ponder: None,
            score: if pos.is_check() { -MATE } else { 0 },
            depth: 0,
            nodes: 0,
        };
    }
    let threads = threads.max(1);
    std::thread::scope(|s| {
        for id in 1..threads {
            let keys = history.to_vec();
            s.spawn(move || {
                let mut w = Worker::<A>::new(id, shared, limits, keys, start);
                iterate(&mut w, pos, &Silent);
            });
        }
        let mut main = Worker::<A>::new(0, shared, limits, history.to_vec(), start);
        let mut outcome = iterate(&mut main, pos, reporter);
        shared.stop.store(true, Ordering::Relaxed);
        outcome.nodes = shared.nodes.load(Ordering::Relaxed).max(main.nodes);
        outcome
    })
}

/// Iterative deepening for one thread.
fn iterate<A: SliderAttacks>(
    w: &mut Worker<'_, A>,
    pos: &Position<A>,
    reporter: &dyn Reporter,
) -> Outcome {
    let legal = pos.legal_moves();
    let fallback = w
        .limits
        .searchmoves
        .iter()
        .copied()
        .find(|m| legal.contains(m))
        .unwrap_or(legal[0]);
    let mut outcome = Outcome {
        best: fallback,
        ponder: None,
        score: 0,
        depth: 0,
        nodes: 0,
    };
    let max_depth = w
        .limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 1)
        .clamp(1, MAX_PLY as u32 - 1);
    let multipv = w.limits.multipv.clamp(1, legal.len());
    let mut prev_score = 0;
    let first = 1 + (w.id as u32 % 2);
    for depth in first..=max_depth {
        w.root_excluded.clear();
        w.seldepth = 0;
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        for line in 0..multipv {
            // Aspiration windows around the previous score.
            let mut delta = 25;
            let (mut alpha, mut beta) = if depth >= 5 && line == 0 {
                (prev_score - delta, prev_score + delta)
            } else {
                (-INFINITY, INFINITY)
            };
            let score = loop {
                let s = w.negamax(pos, alpha, beta, depth as i32, 0, false);
                if w.stopped {
                    break s;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITY);
                } else if s >= beta {
                    beta = (s + delta).min(INFINITY);
                } else {
                    break s;
                }
                delta += delta;
                // A failed window's line, shown on long searches only.
                if w.id == 0 && w.start.elapsed() > Duration::from_secs(3) {
                    let pv = w.pv[0][..w.pv_len[0]].to_vec();
                    if !pv.is_empty() {
                        let bound = if s >= beta {
                            Bound::Lower
                        } else {
                            Bound::Upper
                        };
                        w.last_reported = pv[0];
                        reporter.report(&report(w, depth, line + 1, s, Some(bound), pv));
                    }
                }
            };
            if w.stopped && depth > first {
                break;
            }
            let pv: Vec<Move> = w.pv[0][..w.pv_len[0]].to_vec();
            if pv.is_empty() {
                break;
            }
            w.root_excluded.push(pv[0]);
            lines.push((score, pv));
            if w.stopped {
                break;
            }
        }
        if lines.is_empty() || (w.stopped && depth > first) {
            break;
        }
        // Each MultiPV line is the best of the moves the earlier lines left,
        // so the scores fall, except where the search was unstable: show (and
        // play) the lines best first.
        lines.sort_by_key(|(score, _)| core::cmp::Reverse(*score));
        if w.id == 0 {
            for (i, (score, pv)) in lines.iter().enumerate() {
                reporter.report(&report(w, depth, i + 1, *score, None, pv.clone()));
            }
            w.last_reported = lines[0].1[0];
        }
        w.may_stop = true;
        let (score, pv) = &lines[0];
        outcome.best = pv[0];
        outcome.ponder = pv.get(1).copied();
        outcome.score = *score;
        outcome.depth = depth;
        prev_score = *score;
        if w.stopped {
            break;
        }
        if w.id == 0 {
            if let Some(mate) = w.limits.mate
                && score.abs() >= MATE_BOUND
                && (MATE - score.abs() + 1) / 2 <= mate as i32
            {
                break;
            }
            if let Some(soft) = w.limits.soft_time
                && !w.shared.pondering.load(Ordering::Relaxed)
                && w.clock_start().elapsed() >= soft
            {
                break;
            }
        }
    }
    outcome.nodes = w.nodes;
    // `bestmove` must be the first move of the last PV shown: if a failed
    // window showed another move last, show the line played.
    if w.id == 0 && w.last_reported != outcome.best {
        let mut pv = vec![outcome.best];
        pv.extend(outcome.ponder);
        reporter.report(&report(w, outcome.depth, 1, outcome.score, None, pv));
    }
    if w.id == 0 {
        wait_for_stop(w.limits, w.shared);
    }
    outcome
}

/// Infinite and ponder searches wait for `stop` (or `ponderhit` with time):
/// UCI forbids `bestmove` before that, even when there is nothing to search.
fn wait_for_stop(limits: &Limits, shared: &Shared) {
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
        && !shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

fn report<A: SliderAttacks>(
    w: &Worker<'_, A>,
    depth: u32,
    multipv: usize,
    score: i32,
    bound: Option<Bound>,
    pv: Vec<Move>,
) -> Report {
    Report {
        depth,
        seldepth: w.seldepth as u32,
        multipv,
        score: Score::from_internal(score),
        bound,
        nodes: w.shared.nodes.load(Ordering::Relaxed).max(w.nodes),
        time: w.start.elapsed(),
        hashfull: w.shared.tt.hashfull(),
        pv,
    }
}
