//! # perft
//!
//! Counting the leaves of the legal move tree, the standard check of a move
//! generator.
//!
//! - [`perft`]: leaf count, the last ply bulk-counted (set-wise `popcount`
//!   of the legal targets, no move made); [`perft_full`] makes every move;
//!   [`perft_until`] stops when asked (the engine's `perft N` command).
//! - [`divide`]: the count below each root move.
//! - [`PerftHash`] and [`perft_hashed`]: a transposition table for deep runs.
//! - [`parallel_perft`] and [`split_root`]: root moves split across threads
//!   (the counts below each, for any move generator).
//! - [`MAX_THREADS`] and [`MAX_HASH_MB`]: the `perft` tool's limits.
//! - [`suite`]: the EPD and shakmaty-block perft suites, parsed.
//! - `by_method` (feature `tool`): the counts by a method named at run
//!   time, compiled here once for every method.
//! - `oracle` (feature `oracle`, on by default): the same counts from
//!   `shakmaty`, the outside oracle.
//!
//! The `perft` binary is the command-line front end (`perft --help`): one
//! position or a whole suite, any or all attack methods, timed against
//! shakmaty with `--compare`. `benches/compare.rs` times the methods against
//! cozy-chess and shakmaty; `suites/` holds the reference suites.

#![deny(missing_docs)]

// Not in the crate's own unit-test build, which does not call it: it is the
// move generator compiled for every method once more (tests/suites.rs and
// the tool's tests run it).
#[cfg(all(feature = "tool", not(test)))]
pub mod by_method;
#[cfg(feature = "oracle")]
pub mod oracle;
pub mod suite;

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use attacks::SliderAttacks;
use movegen::{AtomicTable, Move, Position};

/// Leaf nodes `depth` plies below `pos`; the last ply is bulk-counted.
///
/// ```
/// use movegen::Position;
///
/// let pos: Position = Position::startpos();
/// assert_eq!(perft::perft(&pos, 3), 8_902);
/// ```
pub fn perft<A: SliderAttacks>(pos: &Position<A>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        2 => pos.count_two_plies(),
        _ => sum_over_children(pos, |child| perft(child, depth - 1)),
    }
}

/// The sum of `count` over the positions after each legal move of `pos`.
#[inline]
fn sum_over_children<A: SliderAttacks>(
    pos: &Position<A>,
    mut count: impl FnMut(&Position<A>) -> u64,
) -> u64 {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            count(&child)
        })
        .sum()
}

/// The most threads a count may use, and the largest [`PerftHash`] in MB:
/// the limits of the table the engine shares too.
pub use movegen::table::{MAX_HASH_MB, MAX_THREADS};

/// [`perft`], or `None` as soon as `stop` is seen set (it is read at every
/// node above the last ply).
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use movegen::Position;
///
/// let pos: Position = Position::startpos();
/// assert_eq!(perft::perft_until(&pos, 3, &AtomicBool::new(false)), Some(8_902));
/// assert_eq!(perft::perft_until(&pos, 3, &AtomicBool::new(true)), None);
/// ```
pub fn perft_until<A: SliderAttacks>(
    pos: &Position<A>,
    depth: u32,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut sum = 0;
    for &m in pos.legal_moves().iter() {
        let mut child = *pos;
        child.play_unchecked(m);
        sum += perft_until(&child, depth - 1, stop)?;
    }
    Some(sum)
}

/// Leaf nodes `depth` plies below `pos`, making every move down to the
/// leaves (no bulk counting). Slower; a check on [`perft`]'s counting.
pub fn perft_full<A: SliderAttacks>(pos: &Position<A>, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    sum_over_children(pos, |child| perft_full(child, depth - 1))
}

/// The leaf count below each legal root move, in generation order.
pub fn divide<A: SliderAttacks>(pos: &Position<A>, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// A perft transposition table: leaf counts by key with the depth folded
/// in, in a lock-free [`AtomicTable`] the threads share.
pub struct PerftHash {
    table: AtomicTable,
}

impl PerftHash {
    /// A table of at most `mb` megabytes: the largest power-of-two number
    /// of 64-byte buckets of four slots that fits (at least one bucket).
    ///
    /// Panics if the memory cannot be had; see [`PerftHash::try_new`] for a
    /// table sized from user input.
    pub fn new(mb: usize) -> PerftHash {
        PerftHash::try_new(mb).unwrap_or_else(|| panic!("a perft table of {mb} MB"))
    }

    /// [`PerftHash::new`], or `None` if the memory cannot be allocated.
    pub fn try_new(mb: usize) -> Option<PerftHash> {
        Some(PerftHash {
            table: AtomicTable::try_new(mb).ok()?,
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }

    #[inline]
    fn tag(key: u64, depth: u32) -> u64 {
        key ^ (u64::from(depth)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn get(&self, key: u64, depth: u32) -> Option<u64> {
        let tag = PerftHash::tag(key, depth);
        self.table.slot(tag).get(tag).filter(|&n| n != 0)
    }

    fn put(&self, key: u64, depth: u32, count: u64) {
        let tag = PerftHash::tag(key, depth);
        self.table.slot(tag).set(tag, count);
    }
}

/// [`perft`] with a transposition table for plies 2 and deeper.
///
/// Keys are 64-bit Zobrist keys, so a collision could in principle give a
/// wrong count; use plain [`perft`] where the count must be beyond doubt.
pub fn perft_hashed<A: SliderAttacks>(pos: &Position<A>, depth: u32, hash: &PerftHash) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    if let Some(n) = hash.get(pos.key(), depth) {
        return n;
    }
    let n = match depth {
        2 => perft(pos, 2),
        _ => sum_over_children(pos, |child| perft_hashed(child, depth - 1, hash)),
    };
    hash.put(pos.key(), depth, n);
    n
}

/// Perft with the root moves shared among `threads` threads (and a shared
/// table when `hash` is given).
pub fn parallel_perft<A: SliderAttacks>(
    pos: &Position<A>,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
) -> u64 {
    let count = |p: &Position<A>, d: u32| match hash {
        Some(h) => perft_hashed(p, d, h),
        None => perft(p, d),
    };
    if threads <= 1 || depth < 2 {
        return count(pos, depth);
    }
    let children: Vec<Position<A>> = pos
        .legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            child
        })
        .collect();
    let (counts, _) = split_root(&children, |c| count(c, depth - 1), threads, None);
    counts.iter().sum()
}

/// Counts below each of `children` (the positions after the root moves, of
/// any move generator) with `count`, on `threads` threads that take the
/// root moves one at a time. `progress`, when given, is called on this
/// thread with (done, total) as they finish. Returns the counts in the
/// order of `children` and the moment the last one finished (not when the
/// threads were joined: that is the time a count took).
pub fn split_root<P: Sync>(
    children: &[P],
    count: impl Fn(&P) -> u64 + Sync,
    threads: usize,
    mut progress: Option<&mut dyn FnMut(usize, usize)>,
) -> (Vec<u64>, Instant) {
    let n = children.len();
    if threads <= 1 || n <= 1 {
        // On this thread: no start-up cost in the timing of small counts.
        let mut counts = Vec::with_capacity(n);
        for (i, c) in children.iter().enumerate() {
            counts.push(count(c));
            if let Some(p) = progress.as_mut() {
                p(i + 1, n);
            }
        }
        return (counts, Instant::now());
    }
    let results: Vec<AtomicU64> = (0..n).map(|_| AtomicU64::new(0)).collect();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let end = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..threads.min(n) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(child) = children.get(i) else { break };
                    results[i].store(count(child), Ordering::Relaxed);
                    if done.fetch_add(1, Ordering::AcqRel) + 1 == n {
                        *end.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
                    }
                }
            });
        }
        if let Some(p) = progress.as_mut() {
            loop {
                let d = done.load(Ordering::Acquire);
                if d >= n {
                    break;
                }
                p(d, n);
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    });
    let end = end
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .unwrap_or_else(Instant::now);
    (
        results.into_iter().map(AtomicU64::into_inner).collect(),
        end,
    )
}
