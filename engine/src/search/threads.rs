//! The threads of a search (Lazy SMP: every thread searches the same root
//! and they share the transposition table, [`super::shared`]).

use std::sync::atomic::Ordering;
use std::time::Instant;

use attacks::SliderAttacks;
use movegen::{Move, Position};

use super::iterate::iterate;
use super::limits::Limits;
use super::report::{Reporter, SearchResult, Silent};
use super::shared::{Learned, NO_TB_SCORE, Shared, wait_for_stop};
use super::worker::Worker;
use nnue::score::MATE;

/// Searches `pos` (reached through positions whose keys are `history`, oldest
/// first) with `threads` threads until the limits or `shared.stop`.
pub fn search<A: SliderAttacks>(
    pos: &Position<A>,
    history: &[u64],
    limits: &Limits,
    threads: usize,
    shared: &Shared,
    reporter: &dyn Reporter,
) -> SearchResult {
    let start = Instant::now();
    shared.tt.new_search();
    shared.nodes.store(0, Ordering::Relaxed);
    shared.tbhits.store(0, Ordering::Relaxed);
    shared.tb_root_score.store(NO_TB_SCORE, Ordering::Relaxed);
    // At a root the tablebases cover, only the moves that keep its outcome
    // (the fastest win, the longest defence) are searched.
    let restricted;
    let limits = match limits.syzygy.as_ref().and_then(|tb| tb.root_moves(pos)) {
        Some((keep, _, score)) => {
            shared.tbhits.fetch_add(1, Ordering::Relaxed);
            shared.tb_root_score.store(score, Ordering::Relaxed);
            let mut l = limits.clone();
            let chosen: Vec<Move> = if l.searchmoves.is_empty() {
                keep
            } else {
                keep.into_iter()
                    .filter(|m| l.searchmoves.contains(m))
                    .collect()
            };
            if !chosen.is_empty() {
                l.searchmoves = chosen;
            }
            restricted = l;
            &restricted
        }
        None => limits,
    };
    let legal = pos.legal_moves();
    if legal.is_empty() {
        wait_for_stop(limits.infinite, shared);
        return SearchResult {
            best: Move::NULL,
            ponder: None,
            score: if pos.is_check() { -MATE } else { 0 },
            depth: 0,
            nodes: 0,
        };
    }
    let threads = threads.max(1);
    let mut learned = shared.take_learned(threads).into_iter();
    let main_learned = learned.next().unwrap_or_else(Learned::new);
    let (outcome, kept) = std::thread::scope(|s| {
        let helpers: Vec<_> = (1..threads)
            .zip(learned)
            .map(|(id, l)| {
                let keys = history.to_vec();
                s.spawn(move || {
                    let mut w = Worker::<A>::new(id, shared, limits, keys, start, l);
                    iterate(&mut w, pos, &Silent);
                    w.into_learned()
                })
            })
            .collect();
        let mut main = Worker::<A>::new(0, shared, limits, history.to_vec(), start, main_learned);
        let mut outcome = iterate(&mut main, pos, reporter);
        shared.stop.store(true, Ordering::Relaxed);
        outcome.nodes = shared.nodes.load(Ordering::Relaxed).max(main.nodes);
        let mut kept = vec![main.into_learned()];
        kept.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        (outcome, kept)
    });
    shared.keep_learned(kept);
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use attacks::Magic;

    fn nodes(shared: &Shared, pos: &Position<Magic>) -> u64 {
        let limits = Limits {
            depth: Some(7),
            multipv: 1,
            ..Limits::default()
        };
        shared.stop.store(false, Ordering::Relaxed);
        search(pos, &[], &limits, 1, shared, &Silent).nodes
    }

    #[test]
    fn statistics_last_through_a_game_and_go_with_ucinewgame() {
        let pos: Position<Magic> = Position::from_fen(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        )
        .expect("valid FEN");
        let fresh = nodes(&Shared::new(16), &pos);
        // Kept: the second search orders by what the first one learned.
        let shared = Shared::new(16);
        nodes(&shared, &pos);
        shared.tt.clear();
        let kept = nodes(&shared, &pos);
        assert_ne!(
            kept, fresh,
            "the second search learned nothing from the first"
        );
        // A new game forgets: the same search as on a fresh engine.
        shared.new_game();
        assert_eq!(nodes(&shared, &pos), fresh);
    }
}
