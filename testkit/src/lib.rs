//! # testkit
//!
//! What the workspace's tests share, so that each exists once (dev-only:
//! nothing outside tests depends on it, and it depends on no crate of the
//! workspace but `rng`, so even `attacks` can use it).
//!
//! - [`Rng`]: the workspace's seeded generator (the `rng` crate), so that a
//!   failing random case reproduces from its seed; [`Boards`] draws random
//!   squares and boards with it.
//! - [`sorted_legal_uci`]: the outside oracle's (shakmaty's) legal moves,
//!   the list differential tests compare with.
//! - [`random_fens`]: positions from seeded random games, for tests that
//!   need many ordinary positions and no data file.
//! - [`TempDir`]: a scratch folder, removed when dropped.

#![deny(missing_docs)]

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Position as _};

pub use rng::Rng;

/// Random squares and boards for tests, drawn from an [`Rng`].
pub trait Boards {
    /// A square index, `0..64`.
    fn square(&mut self) -> u32;
    /// A board with about 1/8 of its squares set (three draws ANDed): few
    /// pieces, or candidate magic numbers.
    fn sparse(&mut self) -> u64;
    /// A board with about 1/4 or 1/2 of its squares set, like the occupancy
    /// of real positions.
    fn occupancy(&mut self) -> u64;
}

impl Boards for Rng {
    fn square(&mut self) -> u32 {
        (self.next_u64() >> 58) as u32
    }

    fn sparse(&mut self) -> u64 {
        self.next_u64() & self.next_u64() & self.next_u64()
    }

    fn occupancy(&mut self) -> u64 {
        let a = self.next_u64();
        let b = self.next_u64();
        if a & 1 == 0 { a & b } else { a }
    }
}

/// A fresh scratch folder in the system's temporary folder, named after the
/// process and `name` (so tests running at once do not share one), removed
/// with everything in it when dropped. It derefs to its [`Path`].
///
/// ```
/// let dir = testkit::TempDir::new("doc");
/// std::fs::write(dir.join("a.txt"), "x").unwrap();
/// assert!(dir.join("a.txt").is_file());
/// ```
#[derive(Debug)]
pub struct TempDir(PathBuf);

impl TempDir {
    /// Makes the folder, empty.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("borrow-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary folder");
        TempDir(dir)
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
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

/// The FENs of `n` positions from random games seeded by `seed`, each game
/// up to 80 plies from the start position (its moves drawn from
/// [`sorted_legal_uci`]): every position after a move that neither gives
/// check nor leaves a draw by material. The same seed gives the same FENs.
pub fn random_fens(seed: u64, n: usize) -> Vec<String> {
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut pos = Chess::default();
        for _ in 0..80 {
            let moves = sorted_legal_uci(&pos);
            if moves.is_empty() {
                break;
            }
            let uci: UciMove = moves[rng.index(moves.len())]
                .parse()
                .expect("shakmaty's own UCI");
            let m = uci.to_move(&pos).expect("a legal move");
            pos.play_unchecked(m);
            if !pos.is_check() && !pos.is_insufficient_material() {
                out.push(Fen::from_position(&pos, shakmaty::EnPassantMode::Legal).to_string());
            }
        }
    }
    out.truncate(n);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_in_range_and_sparse_boards_are_sparser() {
        let mut rng = Rng::new(42);
        let (mut sparse, mut dense) = (0, 0);
        for _ in 0..1_000 {
            assert!(rng.square() < 64);
            sparse += rng.sparse().count_ones();
            dense += rng.occupancy().count_ones();
        }
        // Expected about 8,000 and 24,000 set bits.
        assert!((6_000..10_000).contains(&sparse), "{sparse}");
        assert!((20_000..28_000).contains(&dense), "{dense}");
    }

    #[test]
    fn random_fens_repeat_for_a_seed_and_are_legal_unchecked_positions() {
        use shakmaty::CastlingMode;
        use shakmaty::fen::Fen;
        let a = random_fens(5, 200);
        assert_eq!(a.len(), 200);
        assert_eq!(a, random_fens(5, 200));
        assert_ne!(a, random_fens(6, 200));
        for fen in &a {
            let pos: Chess = fen
                .parse::<Fen>()
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            assert!(!pos.is_check() && !pos.is_insufficient_material(), "{fen}");
        }
    }

    #[test]
    fn the_start_position_has_twenty_sorted_moves() {
        let moves = sorted_legal_uci(&Chess::default());
        assert_eq!(moves.len(), 20);
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        assert!(moves.contains(&"e2e4".to_string()));
    }
}
