//! What the threads of a search share and keep between searches: the
//! table, the stop and ponder flags, the counters, and what each thread
//! learned ([`Learned`]). Below the worker, the iteration and the threads,
//! which all read it.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::correction::Correction;
use super::history::Histories;
use crate::tt::Table;

/// What a search thread learns that stays useful for the next search of
/// the same game: its move-ordering statistics.
pub struct Learned {
    pub hist: Histories,
    pub correction: Correction,
}

impl Learned {
    /// Nothing learned yet.
    pub fn new() -> Learned {
        Learned {
            hist: Histories::new(),
            correction: Correction::new(),
        }
    }
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
    pub(super) nodes: AtomicU64,
    /// Tablebase probes that answered, all threads, this search.
    pub(super) tbhits: AtomicU64,
    /// The root's tablebase score, reported instead of the search's unless
    /// that is a mate; `NO_TB_SCORE` when the root is not in the tables.
    pub(super) tb_root_score: AtomicI32,
    /// Each thread's statistics, kept from one search to the next of a game.
    learned: Mutex<Vec<Learned>>,
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
            tbhits: AtomicU64::new(0),
            tb_root_score: AtomicI32::new(NO_TB_SCORE),
            learned: Mutex::new(Vec::new()),
        }
    }

    /// A new game: the table is emptied and what the threads learned is
    /// forgotten.
    pub fn new_game(&self) {
        self.tt.clear();
        if let Ok(mut l) = self.learned.lock() {
            l.clear();
        }
    }

    /// What thread `id` learned in the last search (aged), or nothing.
    pub(super) fn take_learned(&self, threads: usize) -> Vec<Learned> {
        let mut kept = self
            .learned
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default();
        kept.truncate(threads);
        for l in &mut kept {
            l.hist.age();
        }
        while kept.len() < threads {
            kept.push(Learned::new());
        }
        kept
    }

    pub(super) fn keep_learned(&self, learned: Vec<Learned>) {
        if let Ok(mut l) = self.learned.lock() {
            *l = learned;
        }
    }
}

/// `Shared::tb_root_score` when the root is not in the tablebases.
pub(super) const NO_TB_SCORE: i32 = i32::MIN;

/// Infinite and ponder searches (`infinite`, or `shared.pondering` set) wait
/// for `stop` (or `ponderhit` with time): UCI forbids `bestmove` before
/// that, even when there is nothing to search, or no position.
pub fn wait_for_stop(infinite: bool, shared: &Shared) {
    while (infinite || shared.pondering.load(Ordering::Relaxed))
        && !shared.stop.load(Ordering::Relaxed)
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}
