//! The transposition table: shared by all search threads without locks,
//! each entry packed into one 64-bit value of a [`AtomicTable`] (where an
//! entry torn by a concurrent writer reads as a miss, never as wrong data).
//!
//! A key may stand in any of the four slots of its bucket. A new key takes
//! an empty slot, or else the one worth least: the shallowest, counting
//! [`AGE_PLIES`] plies less for every search since it was stored.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};

use movegen::{AtomicTable, Move};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most this (no move reached alpha).
    Upper,
    /// The true score is at least this (a move reached beta).
    Lower,
    /// The true score.
    Exact,
}

/// One probed entry.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best move found, or the null move.
    pub mv: Move,
    /// The score, mate scores relative to this node (see [`score_from_tt`]).
    pub score: i32,
    /// The static evaluation.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// The kind of bound.
    pub bound: Bound,
}

/// How many plies of depth an entry loses in the replacement choice for
/// every search since it was stored.
pub const AGE_PLIES: i32 = 16;

/// The entry ages count modulo this (they have six bits).
const AGES: u64 = 64;

/// The table.
pub struct Table {
    table: AtomicTable,
    age: AtomicU64,
}

fn pack(e: &Entry, age: u64) -> u64 {
    let bound = match e.bound {
        Bound::Upper => 1u64,
        Bound::Lower => 2,
        Bound::Exact => 3,
    };
    u64::from(e.mv.bits())
        | (e.score as i16 as u16 as u64) << 16
        | (e.eval as i16 as u16 as u64) << 32
        | (e.depth.clamp(0, 255) as u64) << 48
        | bound << 56
        | (age % AGES) << 58
}

fn unpack(data: u64) -> Option<Entry> {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some(Entry {
        mv: Move::from_bits(data as u16),
        score: i32::from((data >> 16) as u16 as i16),
        eval: i32::from((data >> 32) as u16 as i16),
        depth: ((data >> 48) & 255) as i32,
        bound,
    })
}

impl Table {
    /// A table of `mb` megabytes (at least one bucket; a power of two of them).
    /// Panics if the memory cannot be had; see [`Table::try_new`].
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|e| panic!("hash table of {mb} MB: {e}"))
    }

    /// A table of `mb` megabytes, or the error if the memory cannot be had
    /// (a GUI may offer any `Hash` up to the maximum, whatever the machine).
    pub fn try_new(mb: usize) -> Result<Table, TryReserveError> {
        Ok(Table {
            table: AtomicTable::try_new(mb)?,
            age: AtomicU64::new(0),
        })
    }

    /// Resizes the table to `mb` megabytes, emptied, never holding the old
    /// and the new table at once (a match runner setting `Hash` at start-up
    /// would otherwise see the default table's memory on top of the one
    /// asked for). If `mb` cannot be had, the table gets its old size back,
    /// empty, and the error is returned.
    pub fn resize(&mut self, mb: usize) -> Result<(), TryReserveError> {
        self.table.resize(mb)
    }

    /// Empties the table.
    pub fn clear(&self) {
        self.table.clear();
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.table
            .bucket(key)
            .iter()
            .find_map(|s| s.get(key))
            .and_then(unpack)
    }

    /// Stores an entry. An entry for the same key is refreshed, unless it is
    /// from this search, much deeper and the new one is not exact; a new key
    /// replaces the empty slot of its bucket, or else the one worth least.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let age = self.age.load(Ordering::Relaxed) % AGES;
        let bucket = self.table.bucket(key);
        let mut victim = &bucket[0];
        let mut victim_worth = i32::MAX;
        for slot in bucket {
            let (old_key, old_data) = slot.read();
            let Some(old) = unpack(old_data) else {
                // Empty: taken unless the key turns up later in the bucket.
                if victim_worth > i32::MIN {
                    victim = slot;
                    victim_worth = i32::MIN;
                }
                continue;
            };
            let old_age = (old_data >> 58) % AGES;
            if old_key == key {
                if entry.mv.is_null() {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact && old.depth > entry.depth + 3 && old_age == age {
                    return;
                }
                slot.set(key, pack(&entry, age));
                return;
            }
            let searches_ago = ((age + AGES - old_age) % AGES) as i32;
            let worth = old.depth - AGE_PLIES * searches_ago;
            if worth < victim_worth {
                victim = slot;
                victim_worth = worth;
            }
        }
        victim.set(key, pack(&entry, age));
    }

    /// Permille of slots used by the current search (from the first 1000).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) % AGES;
        let (mut seen, mut used) = (0, 0);
        for s in self.table.slots().take(1000) {
            let (_, d) = s.read();
            seen += 1;
            if unpack(d).is_some() && (d >> 58) % AGES == age {
                used += 1;
            }
        }
        (used * 1000 / seen.max(1)) as u32
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.table.bytes()
    }
}

/// Mate scores are stored relative to the node; convert from the root-relative
/// search score at `ply`.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    // Mates and tablebase wins count from the node, not the root.
    use nnue::score::TB_WIN_BOUND as MATE_BOUND;
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    use nnue::score::TB_WIN_BOUND as MATE_BOUND;
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attacks::Square;

    #[test]
    fn round_trip() {
        let t = Table::new(1);
        let e = Entry {
            mv: Move::normal(Square::E2, Square::E4),
            score: -31_000,
            eval: 55,
            depth: 17,
            bound: Bound::Lower,
        };
        t.store(0xdead_beef, e);
        assert_eq!(t.probe(0xdead_beef), Some(e));
        assert_eq!(t.probe(0xdead_bee0), None);
        t.clear();
        assert_eq!(t.probe(0xdead_beef), None);
        assert!(t.bytes() <= 1 << 20);
    }

    fn entry(depth: i32) -> Entry {
        Entry {
            mv: Move::normal(Square::E2, Square::E4),
            score: 10,
            eval: 0,
            depth,
            bound: Bound::Lower,
        }
    }

    #[test]
    fn a_full_bucket_gives_up_its_shallowest_entry_counting_age() {
        let t = Table::new(1);
        let buckets = (t.bytes() / 64) as u64;
        // Five keys of one bucket.
        let key = |i: u64| 7 + i * buckets;
        for (i, depth) in [(0, 9), (1, 3), (2, 12), (3, 6)] {
            t.store(key(i), entry(depth));
        }
        t.store(key(4), entry(1));
        assert_eq!(t.probe(key(1)), None, "the shallowest goes");
        for i in [0, 2, 3, 4] {
            assert!(t.probe(key(i)).is_some(), "key {i}");
        }
        // A refresh of a stored key replaces nothing else, and keeps its move
        // when the new entry has none.
        t.store(
            key(0),
            Entry {
                mv: Move::NULL,
                ..entry(10)
            },
        );
        assert_eq!(t.probe(key(0)), Some(entry(10)));
        // A search later, the old entries are worth their depth less 16:
        // the depth-1 entry goes first, then the old depth 6 before the new
        // depth 2, then the old depth 10 before the new 2 and 1.
        t.new_search();
        t.store(key(1), entry(2));
        assert_eq!(t.probe(key(4)), None);
        t.store(key(4), entry(1));
        assert_eq!(t.probe(key(3)), None, "old depth 6 goes before new depth 2");
        t.store(key(5), entry(0));
        assert_eq!(
            t.probe(key(0)),
            None,
            "old depth 10 goes before new depth 1"
        );
        for i in [1, 2, 4, 5] {
            assert!(t.probe(key(i)).is_some(), "key {i}");
        }
    }
}
