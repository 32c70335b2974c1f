//! Iterative deepening for one thread: deeper and deeper searches of the
//! root, each inside an aspiration window around the last score, with the
//! MultiPV lines and the reports to the [`Reporter`].

use std::sync::atomic::Ordering;
use std::time::Duration;

use attacks::SliderAttacks;
use movegen::{Move, Position};

use super::params::params;
use super::report::{Report, Reporter, SearchResult};
use super::shared::wait_for_stop;
use super::strength::pick;
use super::worker::Worker;
use crate::tt::Bound;
use nnue::score::{INFINITY, MATE, MATE_BOUND, MAX_PLY, Score};

/// Iterative deepening for one thread.
pub(super) fn iterate<A: SliderAttacks>(
    w: &mut Worker<'_, A>,
    pos: &Position<A>,
    reporter: &dyn Reporter,
) -> SearchResult {
    w.set_root(pos);
    let legal = pos.legal_moves();
    let fallback = w
        .limits
        .searchmoves
        .iter()
        .copied()
        .find(|m| legal.contains(m))
        .unwrap_or(legal[0]);
    let mut outcome = SearchResult {
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
    // The lines of the last completed depth, best first.
    let mut completed: Vec<(i32, Vec<Move>)> = Vec::new();
    let mut prev_score = 0;
    let first = 1 + (w.id as u32 % 2);
    for depth in first..=max_depth {
        w.root_excluded.clear();
        w.seldepth = 0;
        let mut lines: Vec<(i32, Vec<Move>)> = Vec::new();
        for line in 0..multipv {
            let score = aspiration(w, pos, depth, line, prev_score, reporter);
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
        completed = lines;
        if w.stopped || (w.id == 0 && enough(w, &outcome)) {
            break;
        }
    }
    outcome.nodes = w.nodes;
    finish(w, &mut outcome, &completed, reporter);
    outcome
}

/// One line of one depth, searched in aspiration windows around the
/// previous depth's score (from the depth the parameters say, first line
/// only), widened each time the score falls outside; a failed window's line
/// is shown on long searches. The score (the last one when stopped).
fn aspiration<A: SliderAttacks>(
    w: &mut Worker<'_, A>,
    pos: &Position<A>,
    depth: u32,
    line: usize,
    prev_score: i32,
    reporter: &dyn Reporter,
) -> i32 {
    let mut delta = params().aspiration_delta;
    let (mut alpha, mut beta) = if depth >= params().aspiration_min_depth && line == 0 {
        (prev_score - delta, prev_score + delta)
    } else {
        (-INFINITY, INFINITY)
    };
    loop {
        let s = w.negamax(pos, alpha, beta, depth as i32, 0, false);
        if w.stopped {
            return s;
        }
        // Which way the window failed, before it moves.
        let bound = if s <= alpha {
            beta = (alpha + beta) / 2;
            alpha = (s - delta).max(-INFINITY);
            Bound::Upper
        } else if s >= beta {
            beta = (s + delta).min(INFINITY);
            Bound::Lower
        } else {
            return s;
        };
        delta += delta;
        // A failed window's line, shown on long searches only.
        if w.id == 0 && w.start.elapsed() > Duration::from_secs(3) {
            let pv = w.pv[0][..w.pv_len[0]].to_vec();
            if !pv.is_empty() {
                w.last_reported = pv[0];
                reporter.report(&report(w, depth, line + 1, s, Some(bound), pv));
            }
        }
    }
}

/// Whether the main thread stops deepening after a completed depth: a
/// node budget spent (the next depth would be cut short and thrown away),
/// the soft node limit passed, the mate `go mate` asked for found, or the
/// soft time limit passed.
fn enough<A: SliderAttacks>(w: &Worker<'_, A>, outcome: &SearchResult) -> bool {
    if [w.limits.nodes, w.limits.soft_nodes]
        .into_iter()
        .flatten()
        .any(|n| w.nodes >= n)
    {
        return true;
    }
    if let Some(mate) = w.limits.mate
        && outcome.score.abs() >= MATE_BOUND
        && (MATE - outcome.score.abs() + 1) / 2 <= mate as i32
    {
        return true;
    }
    w.limits.soft_time.is_some_and(|soft| {
        !w.shared.pondering.load(Ordering::Relaxed) && w.clock_start().elapsed() >= soft
    })
}

/// The end of the search: below full strength the move is chosen among the
/// last depth's lines; the line played is shown if it was not the last
/// shown; the main thread waits for `stop` where the protocol asks it to.
fn finish<A: SliderAttacks>(
    w: &mut Worker<'_, A>,
    outcome: &mut SearchResult,
    completed: &[(i32, Vec<Move>)],
    reporter: &dyn Reporter,
) {
    // Below full strength, the move is chosen among the lines.
    let chosen = if w.id == 0 {
        pick(w.limits.strength, completed)
    } else {
        0
    };
    if let Some((score, pv)) = completed.get(chosen).filter(|_| chosen > 0) {
        outcome.best = pv[0];
        outcome.ponder = pv.get(1).copied();
        outcome.score = *score;
    }
    // `bestmove` must be the first move of the last PV shown: if a failed
    // window (or the strength limit's choice) showed another move last,
    // show the line played.
    if w.id == 0 && w.last_reported != outcome.best {
        let pv = match completed.get(chosen) {
            Some((_, pv)) if pv[0] == outcome.best => pv.clone(),
            _ => {
                let mut pv = vec![outcome.best];
                pv.extend(outcome.ponder);
                pv
            }
        };
        reporter.report(&report(w, outcome.depth, 1, outcome.score, None, pv));
    }
    if w.id == 0 {
        wait_for_stop(w.limits.infinite, w.shared);
    }
}

/// The report of one line.
pub(super) fn report<A: SliderAttacks>(
    w: &Worker<'_, A>,
    depth: u32,
    multipv: usize,
    score: i32,
    bound: Option<Bound>,
    pv: Vec<Move>,
) -> Report {
    /// At a tablebase root, the tables' verdict, unless the search saw mate.
    fn reported<A: SliderAttacks>(w: &Worker<'_, A>, score: i32) -> i32 {
        let tb = w.shared.tb_root_score.load(Ordering::Relaxed);
        if tb != super::shared::NO_TB_SCORE && score.abs() < MATE_BOUND {
            tb
        } else {
            score
        }
    }
    Report {
        depth,
        seldepth: w.seldepth as u32,
        multipv,
        score: Score::from_internal(reported(w, score)),
        bound,
        nodes: w.shared.nodes.load(Ordering::Relaxed).max(w.nodes),
        time: w.start.elapsed(),
        hashfull: w.shared.tt.hashfull(),
        pv,
        tbhits: w.shared.tbhits.load(Ordering::Relaxed),
    }
}
