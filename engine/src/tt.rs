//! The transposition table: shared by all search threads without locks,
//! each entry packed into one 64-bit value of a [`AtomicTable`] (where an
//! entry torn by a concurrent writer reads as a miss, never as wrong data).

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

impl Table {
    /// A table of `mb` megabytes (at least one slot; a power of two slots).
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
        self.table.slot(key).get(key).and_then(unpack)
    }

    /// Stores an entry, replacing the old one unless that is deeper, from this
    /// search and for the same position without a better bound.
    #[inline]
    pub fn store(&self, key: u64, mut entry: Entry) {
        let slot = self.table.slot(key);
        let age = self.age.load(Ordering::Relaxed);
        let (old_key, old_data) = slot.read();
        let same = old_key == key;
        if let Some(old) = unpack(old_data) {
            let old_age = (old_data >> 58) & 63;
            if same {
                if entry.mv.is_null() {
                    entry.mv = old.mv;
                }
                if entry.bound != Bound::Exact && old.depth > entry.depth + 3 && old_age == age & 63
                {
                    return;
                }
            } else if old_age == age & 63
                && old.depth > entry.depth + 2
                && old.bound == Bound::Exact
            {
                return;
            }
        }
        slot.set(key, pack(&entry, age));
    }

    /// Permille of slots used by the current search (from the first 1000).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let slots = self.table.slots();
        let n = slots.len().min(1000);
        let used = slots[..n]
            .iter()
            .filter(|s| {
                let (_, d) = s.read();
                unpack(d).is_some() && (d >> 58) & 63 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
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
    use crate::tablebase::TB_WIN_BOUND as MATE_BOUND;
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
    use crate::tablebase::TB_WIN_BOUND as MATE_BOUND;
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
}
