//! # testkit
//!
//! What the workspace's tests share, so that each exists once (dev-only:
//! nothing outside tests depends on it, and it depends on no crate of the
//! workspace, so even `attacks` can use it).
//!
//! - [`Rng`]: a small fixed-seed generator, so that a failing random case
//!   reproduces from its seed.
//! - [`sorted_legal_uci`]: the outside oracle's (shakmaty's) legal moves,
//!   the list differential tests compare with.
//!
//! The engine's own run-time randomness (book choice, self-play openings,
//! the strength limit's draw) is `book::Rng`; this one is for tests.

#![deny(missing_docs)]

use shakmaty::{Chess, Position as _};

/// xorshift64* (Vigna): 64 bits of state, fast, and the same sequence on
/// every machine. The seed must not be zero.
///
/// ```
/// let mut a = testkit::Rng(7);
/// let mut b = testkit::Rng(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(10) < 10);
/// ```
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`; the modulo bias is far below what a test
    /// could see).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An index into a slice of length `len` (`len > 0`).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `true` with the chance `percent` in 100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A square index, `0..64`.
    pub fn square(&mut self) -> u32 {
        (self.next_u64() >> 58) as u32
    }

    /// A board with about 1/8 of its squares set (three draws ANDed): few
    /// pieces, or candidate magic numbers.
    pub fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }

    /// A board with about 1/4 or 1/2 of its squares set, like the
    /// occupancy of real positions.
    pub fn occupancy(&mut self) -> u64 {
        let a = self.next_u64();
        let b = self.next_u64();
        if a & 1 == 0 { a & b } else { a }
    }
}

/// shakmaty's legal moves of `pos` in UCI notation (Chess960's king-takes-rook
/// castling when the position was read in that mode), sorted: what a move
/// generator's sorted UCI list must equal.
pub fn sorted_legal_uci(pos: &Chess) -> Vec<String> {
    let mode = pos.castles().mode();
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(mode).to_string())
        .collect();
    v.sort();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first outputs of xorshift64* from seed 1, computed apart from
    /// this code (Python, from Vigna's definition).
    #[test]
    fn xorshift64_star_from_seed_one() {
        let mut rng = Rng(1);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                0x47e4_ce4b_896c_dd1d,
                0xabcf_a6a8_e079_651d,
                0xb9d1_0d8f_eb73_1f57
            ]
        );
    }

    #[test]
    fn ranges_hold() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..10_000 {
            assert!(rng.below(7) < 7);
            assert!(rng.index(3) < 3);
            assert!(rng.square() < 64);
        }
    }

    #[test]
    fn sparse_boards_are_sparser() {
        let mut rng = Rng(42);
        let (mut sparse, mut dense) = (0, 0);
        for _ in 0..1_000 {
            sparse += rng.sparse().count_ones();
            dense += rng.occupancy().count_ones();
        }
        // Expected about 8,000 and 24,000 set bits.
        assert!((6_000..10_000).contains(&sparse), "{sparse}");
        assert!((20_000..28_000).contains(&dense), "{dense}");
    }

    #[test]
    fn the_start_position_has_twenty_sorted_moves() {
        let moves = sorted_legal_uci(&Chess::default());
        assert_eq!(moves.len(), 20);
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        assert!(moves.contains(&"e2e4".to_string()));
    }
}
