//! The outside oracle: shakmaty's move generator on the same positions.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// A position read by shakmaty, in Chess960 mode where its castling rights
/// need it (`CastlingMode::detect`). Unusual but playable positions
/// (impossible checks, too much material) are accepted, as the tricky suites
/// need.
pub fn position(fen: &str) -> Result<Chess, String> {
    let fen: Fen = fen.parse().map_err(|e| format!("shakmaty: {e}"))?;
    let mode = CastlingMode::detect(fen.as_setup());
    match fen.into_position::<Chess>(mode) {
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
