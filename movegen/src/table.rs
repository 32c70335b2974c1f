//! A table of 64-bit values by Zobrist key, shared by threads without
//! locks: the engine's transposition table and perft's count cache are both
//! built on it.
//!
//! Slots come in 64-byte [`Bucket`]s of four, one cache line each: the
//! engine probes a key's whole bucket for the price of one memory access,
//! and perft's cache uses one slot of it.
//!
//! Each slot is two `AtomicU64`: the key XOR the value, and the value. A
//! reader accepts a value only if the two words still XOR to its key, so a
//! slot torn by a concurrent writer reads as a miss, never as wrong data
//! (the scheme of Hyatt and Mann's "lockless transposition table").

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU64, Ordering};

/// One slot: a key and a value, checked against each other.
#[derive(Debug, Default)]
pub struct Slot {
    check: AtomicU64,
    value: AtomicU64,
}

impl Slot {
    /// The value stored for `key`, if this slot holds it untorn.
    #[inline]
    pub fn get(&self, key: u64) -> Option<u64> {
        let (k, v) = self.read();
        (k == key).then_some(v)
    }

    /// The key and value the slot holds (a torn slot gives a key that
    /// matches no position's).
    #[inline]
    pub fn read(&self) -> (u64, u64) {
        let check = self.check.load(Ordering::Relaxed);
        let value = self.value.load(Ordering::Relaxed);
        (check ^ value, value)
    }

    /// Stores `value` for `key`, replacing what the slot held.
    #[inline]
    pub fn set(&self, key: u64, value: u64) {
        self.check.store(key ^ value, Ordering::Relaxed);
        self.value.store(value, Ordering::Relaxed);
    }

    fn clear(&self) {
        self.check.store(0, Ordering::Relaxed);
        self.value.store(0, Ordering::Relaxed);
    }
}

/// The slots of a bucket.
pub const BUCKET_SLOTS: usize = 4;

/// The largest table a tool allocates, in MB: the engine's `Hash` and the
/// `perft` tool's `--hash` (one limit for both, as a user expects).
pub const MAX_HASH_MB: usize = 65_536;

/// The most threads that share one table: the engine's `Threads` and the
/// `perft` tool's `--threads`.
pub const MAX_THREADS: usize = 256;

/// Four slots on one cache line.
#[derive(Debug, Default)]
#[repr(C, align(64))]
pub struct Bucket {
    slots: [Slot; BUCKET_SLOTS],
}

/// A power-of-two number of [`Bucket`]s, indexed by the key's low bits.
#[derive(Debug)]
pub struct AtomicTable {
    buckets: Vec<Bucket>,
}

/// The number of buckets in `mb` megabytes: the largest power of two that
/// fits, and at least one.
fn buckets_for(mb: usize) -> usize {
    let n = mb.saturating_mul(1 << 20) / size_of::<Bucket>();
    1 << n.max(1).ilog2()
}

/// `n` empty buckets, or the error if the memory cannot be had.
fn empty_buckets(n: usize) -> Result<Vec<Bucket>, TryReserveError> {
    let mut buckets = Vec::new();
    buckets.try_reserve_exact(n)?;
    buckets.resize_with(n, Bucket::default);
    Ok(buckets)
}

impl AtomicTable {
    /// A table of at most `mb` megabytes (at least one bucket), or the error
    /// if the memory cannot be had: the size may come from a user (a GUI
    /// may offer any `Hash`, whatever the machine).
    pub fn try_new(mb: usize) -> Result<AtomicTable, TryReserveError> {
        Ok(AtomicTable {
            buckets: empty_buckets(buckets_for(mb))?,
        })
    }

    /// Resizes the table to `mb` megabytes, emptied. The old buckets are
    /// freed before the new ones are allocated, so the process never holds
    /// both. If `mb` cannot be had, the table gets its old size back, empty,
    /// and the error is returned.
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
                    .unwrap_or_else(|e| panic!("a table of one bucket: {e}"));
                Err(e)
            }
        }
    }

    /// The bucket of `key`: the slots where an entry for it may stand.
    #[inline]
    pub fn bucket(&self, key: u64) -> &[Slot; BUCKET_SLOTS] {
        &self.buckets[(key as usize) & (self.buckets.len() - 1)].slots
    }

    /// The one slot of `key`, for a cache that keeps one entry a key: one
    /// of the slots of its bucket, picked by the key's next bits, so that
    /// every slot of the table is used.
    #[inline]
    pub fn slot(&self, key: u64) -> &Slot {
        let n = self.buckets.len();
        let i = (key as usize) & (n * BUCKET_SLOTS - 1);
        &self.buckets[i % n].slots[i / n]
    }

    /// Every slot, bucket by bucket.
    pub fn slots(&self) -> impl Iterator<Item = &Slot> {
        self.buckets.iter().flat_map(|b| &b.slots)
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for s in self.slots() {
            s.clear();
        }
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(size_of::<Slot>(), 16);
        assert_eq!(size_of::<Bucket>(), 64);
        assert_eq!(align_of::<Bucket>(), 64);
        for mb in [0, 1, 3, 16, 100] {
            let t = AtomicTable::try_new(mb).expect("small tables fit");
            assert!(t.slots().count().is_power_of_two());
            assert!(t.bytes() <= (mb.max(1)) << 20, "{mb} MB: {}", t.bytes());
            assert!(t.bytes() * 2 > mb << 20, "{mb} MB: {}", t.bytes());
        }
        assert_eq!(AtomicTable::try_new(0).expect("one bucket").bytes(), 64);
    }

    #[test]
    fn a_keys_slot_lies_in_its_bucket_and_every_slot_is_some_keys() {
        let t = AtomicTable::try_new(1).expect("1 MB");
        let n = t.bytes() / size_of::<Bucket>();
        let mut seen = vec![false; n * BUCKET_SLOTS];
        let base = t.slots().next().expect("a slot") as *const Slot as usize;
        for key in 0..(n * BUCKET_SLOTS) as u64 {
            let key = key | 0xabcd << 48;
            let slot = t.slot(key);
            assert!(
                t.bucket(key).iter().any(|s| std::ptr::eq(s, slot)),
                "key {key:#x}"
            );
            let i = (slot as *const Slot as usize - base) / size_of::<Slot>();
            seen[i] = true;
        }
        assert!(seen.iter().all(|&s| s), "some slot is no key's");
    }

    #[test]
    fn a_value_is_found_by_its_key_only() {
        let t = AtomicTable::try_new(1).expect("1 MB");
        t.slot(0xdead_beef).set(0xdead_beef, 7);
        assert_eq!(t.slot(0xdead_beef).get(0xdead_beef), Some(7));
        // Same slot, another key.
        let other = 0xdead_beef ^ (1 << 40);
        assert_eq!(t.slot(other).get(other), None);
        t.clear();
        assert_eq!(t.slot(0xdead_beef).get(0xdead_beef), None);
    }

    #[test]
    fn a_torn_slot_reads_as_a_miss() {
        let t = AtomicTable::try_new(1).expect("1 MB");
        let s = t.slot(5);
        s.set(5, 100);
        // A writer of another key got as far as the first word only.
        s.check.store(9 ^ 200, Ordering::Relaxed);
        assert_eq!(s.get(5), None);
        assert_eq!(s.get(9), None);
    }

    #[test]
    fn resize_empties_and_keeps_the_old_size_when_refused() {
        let mut t = AtomicTable::try_new(1).expect("1 MB");
        t.slot(42).set(42, 1);
        t.resize(2).expect("2 MB fit");
        assert_eq!(t.bytes(), 2 << 20);
        assert_eq!(t.slot(42).get(42), None);
        t.slot(42).set(42, 1);
        assert!(t.resize(usize::MAX).is_err());
        assert_eq!(t.bytes(), 2 << 20);
        assert_eq!(t.slot(42).get(42), None);
    }
}
