//! # rng
//!
//! [`Rng`]: the workspace's one pseudo-random generator (SplitMix64),
//! seeded, so that every random choice replays from its seed: book moves,
//! shuffled opening suites, self-play openings, the strength limit's draw,
//! the trainer's shuffles, and the tests' random cases. It depends on
//! nothing, so that every crate, the lowest included, can use it.

#![deny(missing_docs)]

/// SplitMix64: 64 bits of state, a full period of 2^64, good enough
/// statistics for picking moves, shuffling and random test cases, the same
/// sequence on every machine. Not for cryptography.
///
/// ```
/// let mut a = rng::Rng::new(7);
/// let mut b = rng::Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole sequence is fixed by `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`, uniformly (Lemire's multiply-and-reject, no
    /// modulo bias). Returns 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as u64
    }

    /// An index into a slice of length `len` (0 when `len` is 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` with the chance `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // SplitMix64 with seed 0, as in the reference implementation.
        let mut r = Rng::new(0);
        assert_eq!(r.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(r.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    }

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut r = Rng::new(7);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            let x = r.below(6);
            seen[x as usize] += 1;
        }
        assert!(seen.iter().all(|&c| (850..1150).contains(&c)), "{seen:?}");
        assert_eq!(r.below(0), 0);
        assert_eq!(r.below(1), 0);
    }

    #[test]
    fn shuffle_is_a_permutation_fixed_by_the_seed() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        Rng::new(42).shuffle(&mut a);
        Rng::new(42).shuffle(&mut b);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }

    #[test]
    fn ranges_hold() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        for _ in 0..10_000 {
            assert!(rng.below(7) < 7);
            assert!(rng.index(3) < 3);
        }
        assert_eq!(rng.index(0), 0);
        assert!(!rng.chance(0));
        assert!(rng.chance(100));
    }
}
