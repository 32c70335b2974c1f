//! The threads of a search (Lazy SMP: every thread searches the same root
//! and they share the transposition table) and the state they share.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use attacks::SliderAttacks;
use movegen::{Move, Position};

use super::api::{Limits, MATE, Outcome, Reporter, Silent};
use super::iterate::iterate;
use super::worker::Worker;
use crate::tt::Table;

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
    pub(super) nodes: AtomicU64,
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

/// Infinite and ponder searches wait for `stop` (or `ponderhit` with time):
/// UCI forbids `bestmove` before that, even when there is nothing to search.
pub(super) fn wait_for_stop(limits: &Limits, shared: &Shared) {
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed))
        && !shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}
