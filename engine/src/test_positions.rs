//! Positions for the unit tests: from seeded random games, so each test
//! sees the same ones and needs no data files.

use movegen::Position;

/// `n` positions from random games seeded by `seed` (not 0), each up to
/// 80 plies long: every position after a move that is neither in check nor
/// drawn by material.
pub fn random_positions(seed: u64, n: usize) -> Vec<Position> {
    let mut rng = testkit::Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pos: Position = Position::startpos();
        for _ in 0..80 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[rng.index(moves.len())];
            pos.play_unchecked(m);
            if !pos.is_check() && !pos.is_insufficient_material() {
                out.push(pos);
            }
        }
    }
    out.truncate(n);
    out
}
