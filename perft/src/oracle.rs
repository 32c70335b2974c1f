//! The outside oracle: shakmaty's move generator on the same positions.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

/// A position read by shakmaty. Unusual but playable positions (impossible
/// checks, too much material) are accepted, as the tricky suites need.
pub fn position(fen: &str) -> Result<Chess, String> {
    let fen: Fen = fen.parse().map_err(|e| format!("shakmaty: {e}"))?;
    match fen.into_position::<Chess>(CastlingMode::Standard) {
        Ok(p) => Ok(p),
        Err(e) => match e.ignore_too_much_material() {
            Ok(p) => Ok(p),
            Err(e) => e
                .ignore_impossible_check()
                .map_err(|e| format!("shakmaty: {e}")),
        },
    }
}

/// shakmaty's perft of `pos`.
pub fn perft(pos: &Chess, depth: u32) -> u64 {
    shakmaty::perft(pos, depth)
}

/// shakmaty's legal moves in UCI notation, sorted.
pub fn legal_moves_uci(pos: &Chess) -> Vec<String> {
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|m| m.to_uci(CastlingMode::Standard).to_string())
        .collect();
    v.sort();
    v
}
