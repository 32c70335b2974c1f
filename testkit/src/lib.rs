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

#![deny(missing_docs)]

use shakmaty::{Chess, Position as _};

pub use rng::Rng;

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
