//! A table of 64-bit values by Zobrist key, shared by threads without
//! locks: the engine's transposition table and perft's count cache are both
//! built on it.
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

/// A power-of-two number of [`Slot`]s, indexed by the key's low bits.
#[derive(Debug)]
pub struct AtomicTable {
    slots: Vec<Slot>,
}

/// The number of slots in `mb` megabytes: the largest power of two that
/// fits, and at least one.
fn slots_for(mb: usize) -> usize {
    let n = mb.saturating_mul(1 << 20) / size_of::<Slot>();
    1 << n.max(1).ilog2()
}

/// `n` empty slots, or the error if the memory cannot be had.
fn empty_slots(n: usize) -> Result<Vec<Slot>, TryReserveError> {
    let mut slots = Vec::new();
    slots.try_reserve_exact(n)?;
    slots.resize_with(n, Slot::default);
    Ok(slots)
}

impl AtomicTable {
    /// A table of at most `mb` megabytes (at least one slot), or the error
    /// if the memory cannot be had: the size may come from a user (a GUI
    /// may offer any `Hash`, whatever the machine).
    pub fn try_new(mb: usize) -> Result<AtomicTable, TryReserveError> {
        Ok(AtomicTable {
            slots: empty_slots(slots_for(mb))?,
        })
    }

    /// Resizes the table to `mb` megabytes, emptied. The old slots are
    /// freed before the new ones are allocated, so the process never holds
    /// both. If `mb` cannot be had, the table gets its old size back, empty,
    /// and the error is returned.
    pub fn resize(&mut self, mb: usize) -> Result<(), TryReserveError> {
        let old = self.slots.len();
        self.slots = Vec::new();
        match empty_slots(slots_for(mb)) {
            Ok(slots) => {
                self.slots = slots;
                Ok(())
            }
            Err(e) => {
                // The old size fitted a moment ago; one slot always fits.
                self.slots = empty_slots(old)
                    .or_else(|_| empty_slots(1))
                    .unwrap_or_else(|e| panic!("a table of one slot: {e}"));
                Err(e)
            }
        }
    }

    /// The slot of `key`.
    #[inline]
    pub fn slot(&self, key: u64) -> &Slot {
        &self.slots[(key as usize) & (self.slots.len() - 1)]
    }

    /// Every slot, in index order.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Empties every slot.
    pub fn clear(&self) {
        for s in &self.slots {
            s.clear();
        }
    }

    /// The size in bytes.
    pub fn bytes(&self) -> usize {
        self.slots.len() * size_of::<Slot>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        assert_eq!(size_of::<Slot>(), 16);
        for mb in [0, 1, 3, 16, 100] {
            let t = AtomicTable::try_new(mb).expect("small tables fit");
            assert!(t.slots().len().is_power_of_two());
            assert!(t.bytes() <= (mb.max(1)) << 20, "{mb} MB: {}", t.bytes());
            assert!(t.bytes() * 2 > mb << 20, "{mb} MB: {}", t.bytes());
        }
        assert_eq!(AtomicTable::try_new(0).expect("one slot").bytes(), 16);
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
