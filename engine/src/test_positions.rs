//! Positions for the unit tests: from seeded random games
//! ([`testkit::random_fens`]), so each test sees the same ones and needs no
//! data files.

use movegen::Position;

/// `n` positions from random games seeded by `seed`: every position after a
/// move that is neither in check nor drawn by material.
pub fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    testkit::random_fens(seed, n)
        .iter()
        .map(|fen| Position::from_fen(fen).expect("shakmaty's FEN of a legal position"))
        .collect()
}
