//! # testkit
//!
//! What the workspace's tests share, so that each exists once (dev-only:
//! nothing outside tests depends on it, and it depends on no crate of the
//! workspace but `rng`, so even `attacks` can use it).
//!
//! - [`Rng`]: the workspace's seeded generator (the `rng` crate), so that a
//!   failing random case reproduces from its seed.
//! - [`sorted_legal_uci`]: the outside oracle's (shakmaty's) legal moves,
//!   the list differential tests compare with.
//! - [`TempDir`]: a scratch folder, removed when dropped.

#![deny(missing_docs)]

use std::path::{Path, PathBuf};

use shakmaty::{Chess, Position as _};

pub use rng::Rng;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_twenty_sorted_moves() {
        let moves = sorted_legal_uci(&Chess::default());
        assert_eq!(moves.len(), 20);
        assert!(moves.windows(2).all(|w| w[0] < w[1]));
        assert!(moves.contains(&"e2e4".to_string()));
    }
}
