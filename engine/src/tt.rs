//! The transposition table: shared by all search threads without locks.
//!
//! Slots are grouped four to a cache line (a bucket). Each slot is two
//! `AtomicU64`: the key XOR the data, and the data. A reader accepts an entry
//! only if the two words still XOR to its key, so an entry torn by a
//! concurrent writer is seen as a miss, never as wrong data.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};

use movegen::Move;

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

/// Entries a bucket holds: four 16-byte slots, one cache line.
const BUCKET_SLOTS: usize = 4;

/// Four slots on one cache line: a probe reads one line.
#[repr(C, align(64))]
struct Bucket([[AtomicU64; 2]; BUCKET_SLOTS]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(core::array::from_fn(|_| {
            [AtomicU64::new(0), AtomicU64::new(0)]
        }))
    }
}

/// The table: buckets of four entries. A new position replaces, within its
/// bucket, the entry worth least: an empty one, else the one with the
/// smallest depth less eight plies for every search it is older than the
/// current one.
pub struct Table {
    buckets: Vec<Bucket>,
    age: AtomicU64,
}

/// The number of buckets in `mb` megabytes: the largest power of two that
/// fits (at least one).
fn buckets_for(mb: usize) -> usize {
    let n = mb.max(1).saturating_mul(1 << 20) / size_of::<Bucket>();
    1 << n.max(1).ilog2()
}

/// `n` empty buckets, or the error if the memory cannot be had.
fn empty_buckets(n: usize) -> Result<Vec<Bucket>, TryReserveError> {
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(n)?;
    buckets.resize_with(n, Bucket::empty);
    Ok(buckets)
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
        | (age & 63) << 58
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

/// The age stored in packed data.
#[inline]
fn age_of(data: u64) -> u64 {
    (data >> 58) & 63
}

impl Table {
    /// A table of `mb` megabytes (at least one bucket; a power of two
    /// buckets). Panics if the memory cannot be had; see [`Table::try_new`].
    pub fn new(mb: usize) -> Table {
        Table::try_new(mb).unwrap_or_else(|e| panic!("hash table of {mb} MB: {e}"))
    }

    /// A table of `mb` megabytes, or the error if the memory cannot be had
    /// (a GUI may offer any `Hash` up to the maximum, whatever the machine).
    pub fn try_new(mb: usize) -> Result<Table, TryReserveError> {
        Ok(Table {
            buckets: empty_buckets(buckets_for(mb))?,
            age: AtomicU64::new(0),
        })
    }

    /// Resizes the table to `mb` megabytes, emptied. The old table is freed
    /// before the new one is allocated, so the process never holds both (a
    /// match runner setting `Hash` at start-up would otherwise see the
    /// default table's memory on top of the one asked for). If `mb` cannot
    /// be had, the table gets its old size back, empty, and the error is
    /// returned.
    pub fn resize(&mut self, mb: usize) -> Result<(), TryReserveError> {
        let old = self.buckets.len();
        self.buckets = Vec::new();
        match empty_buckets(buckets_for(mb)) {
            Ok(buckets) => {
                self.buckets = buckets;
                Ok(())
            }
            Err(e) => {
                // The old size fitted a moment ago; one bucket always fits.
                self.buckets = empty_buckets(old)
                    .or_else(|_| empty_buckets(1))
                    .unwrap_or_else(|e| panic!("hash table of one bucket: {e}"));
                Err(e)
            }
        }
    }

    /// Empties the table.
    pub fn clear(&self) {
        for b in &self.buckets {
            for s in &b.0 {
                s[0].store(0, Ordering::Relaxed);
                s[1].store(0, Ordering::Relaxed);
            }
        }
    }

    /// Starts a new search: older entries become easier to replace.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)]
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in &self.bucket(key).0 {
            let check = slot[0].load(Ordering::Relaxed);
            let data = slot[1].load(Ordering::Relaxed);
            if check ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores an entry. The position's own entry is updated (keeping its
    /// move if the new one has none) unless it is from this search, more
    /// than three plies deeper, and the new one is not exact; otherwise the
    /// bucket's least valuable entry is replaced.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in bucket.0.iter().enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            let check = slot[0].load(Ordering::Relaxed);
            let Some(old) = unpack(data) else {
                if victim_worth > i32::MIN {
                    victim = i;
                    victim_worth = i32::MIN;
                }
                continue;
            };
            if check ^ data == key {
                if entry.mv.is_null() {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact && old.depth > entry.depth + 3 && age_of(data) == age
                {
                    return;
                }
                victim = i;
                break;
            }
            let older = (age.wrapping_sub(age_of(data)) & 63) as i32;
            let worth = old.depth - 8 * older;
            if worth < victim_worth {
                victim = i;
                victim_worth = worth;
            }
        }
        let data = pack(&entry, age);
        let slot = &bucket.0[victim];
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }

    /// Permille of entries used by the current search (from the first 1000).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let mut n = 0;
        let mut used = 0;
        for b in self.buckets.iter().take(1000 / BUCKET_SLOTS) {
            for s in &b.0 {
                let d = s[1].load(Ordering::Relaxed);
                n += 1;
                if unpack(d).is_some() && age_of(d) == age {
                    used += 1;
                }
            }
        }
        (used * 1000 / n.max(1)) as u32
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }
}

/// Mate scores are stored relative to the node; convert from the root-relative
/// search score at `ply`.
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    use crate::search::MATE_BOUND;
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
    use crate::search::MATE_BOUND;
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

    #[test]
    fn a_deep_entry_survives_shallow_ones_of_its_bucket() {
        let t = Table::new(1);
        let buckets = t.buckets.len() as u64;
        // Keys that differ only above the index bits share a bucket.
        let key = |i: u64| 7 + i * buckets;
        let entry = |depth| Entry {
            mv: Move::normal(Square::E2, Square::E4),
            score: 0,
            eval: 0,
            depth,
            bound: Bound::Upper,
        };
        t.store(key(0), entry(12));
        for i in 1..20 {
            t.store(key(i), entry(0));
        }
        assert_eq!(t.probe(key(0)), Some(entry(12)));
        // The newest shallow entry is there too; the bucket holds four.
        assert_eq!(t.probe(key(19)), Some(entry(0)));
        let found = (0..20).filter(|&i| t.probe(key(i)).is_some()).count();
        assert_eq!(found, BUCKET_SLOTS);
        // Entries of older searches give way, however deep.
        for _ in 0..3 {
            t.new_search();
        }
        for i in 20..24 {
            t.store(key(i), entry(0));
        }
        assert_eq!(t.probe(key(0)), None);
    }

    #[test]
    fn resize_empties_and_keeps_the_old_size_when_refused() {
        let mut t = Table::new(1);
        let e = Entry {
            mv: Move::normal(Square::G1, Square::F3),
            score: 12,
            eval: 3,
            depth: 5,
            bound: Bound::Exact,
        };
        t.store(42, e);
        t.resize(2).expect("2 MB fit");
        assert_eq!(t.bytes(), 2 << 20);
        assert_eq!(t.probe(42), None);
        t.store(42, e);
        // More than the address space: refused without allocating.
        assert!(t.resize(usize::MAX).is_err());
        assert_eq!(t.bytes(), 2 << 20);
        assert_eq!(t.probe(42), None);
        t.store(42, e);
        assert_eq!(t.probe(42), Some(e));
    }
}
