//! What self-play shares: a game's settings, its fixed-node search, and its
//! opening (a start position, random legal plies, and a search that must not
//! find the game already decided). `borrow-datagen` (the `datagen` crate)
//! plays its games from these openings, and [`crate::genfens`] prints them
//! for OpenBench's distributed data generation: one opening, wherever it is
//! made.

use std::path::Path;
use std::time::{Duration, Instant};

use movegen::Position;
use rng::Rng;

use crate::evaluator::Evaluator;
use crate::search::{Limits, SearchResult, Shared, Silent, search};
use crate::tablebase::Tables;

/// An opening whose first search scores beyond this (or a mate) is too
/// lopsided to teach anything: another is drawn.
pub const OPENING_SCORE: i32 = 1_000;
/// Tries at a playable opening before the game is given up.
pub const OPENING_TRIES: usize = 100;

/// What a game is played with.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// Nodes per move: the hard cap of a search.
    pub nodes: u64,
    /// A soft limit: the search finishes the iteration that passes this
    /// many nodes and starts no other (`None`: `nodes` alone).
    pub soft_nodes: Option<u64>,
    /// Random legal plies played from the start position.
    pub random_plies: usize,
    /// The static evaluation of the searches.
    pub evaluator: Evaluator,
    /// Syzygy tables: a game that reaches a position they cover ends with
    /// their verdict, unsearched.
    pub syzygy: Option<Tables>,
}

/// The position after the opening, and the keys of the positions before
/// it (oldest first), or `None` when no try gave a playable opening.
pub fn opening(
    start: &Position,
    settings: &GameSettings,
    rng: &mut Rng,
    shared: &Shared,
    search_time: &mut Duration,
) -> Option<(Position, Vec<u64>, i32)> {
    'tries: for _ in 0..OPENING_TRIES {
        let mut pos = *start;
        let mut keys = Vec::new();
        for _ in 0..settings.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                continue 'tries;
            }
            let m = moves[rng.below(moves.len() as u64) as usize];
            keys.push(pos.key());
            pos.play_unchecked(m);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        shared.new_game();
        let (outcome, took) = think(&pos, &keys, settings, shared);
        *search_time += took;
        if outcome.score.abs() <= OPENING_SCORE {
            return Some((pos, keys, outcome.score));
        }
    }
    None
}

/// One fixed-node search (its outcome: the move, its score for the side to
/// move, the nodes) and the time it took.
pub fn think(
    pos: &Position,
    keys: &[u64],
    settings: &GameSettings,
    shared: &Shared,
) -> (SearchResult, Duration) {
    let limits = Limits {
        nodes: Some(settings.nodes),
        soft_nodes: settings.soft_nodes,
        multipv: 1,
        evaluator: settings.evaluator.clone(),
        ..Limits::default()
    };
    // The search looks back only as far as the last irreversible move.
    let keep = (pos.halfmoves() as usize).min(keys.len());
    // A search ends by setting `stop`: clear it, or every search after the
    // first would stop at its first check (1,024 nodes), as the driver
    // clears it before each `go`.
    shared
        .stop
        .store(false, std::sync::atomic::Ordering::Relaxed);
    let start = Instant::now();
    let outcome = search(pos, &keys[keys.len() - keep..], &limits, 1, shared, &Silent);
    (outcome, start.elapsed())
}

/// The positions of the suite at `path` (EPD or PGN) in an order shuffled
/// by `seed`, or the standard start position alone.
pub fn read_starts(path: Option<&Path>, seed: u64) -> Result<Vec<Position>, String> {
    let Some(path) = path else {
        return Ok(vec![Position::startpos()]);
    };
    let name = path.display();
    let (openings, errors) = book::openings::read_file(path, None)
        .map_err(|e| format!("cannot read the openings {name}: {e}"))?;
    if let Some(e) = errors.first() {
        return Err(format!("openings {name}: {e}"));
    }
    let mut starts = Vec::with_capacity(openings.len());
    for o in &openings {
        let mut pos = Position::from_fen(&o.fen).map_err(|e| format!("openings {name}: {e}"))?;
        for &m in &o.moves {
            pos.try_play(m)
                .map_err(|e| format!("openings {name}: {e}"))?;
        }
        starts.push(pos);
    }
    if starts.is_empty() {
        return Err(format!("openings {name}: no opening"));
    }
    Rng::new(seed).shuffle(&mut starts);
    Ok(starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_search_gets_its_nodes() {
        // A search ends by setting the shared stop flag; the next must
        // still run to its node limit, not stop at its first check.
        let shared = Shared::new(1);
        let pos = Position::startpos();
        for _ in 0..3 {
            let s = GameSettings {
                nodes: 5_000,
                soft_nodes: None,
                random_plies: 0,
                evaluator: Evaluator::default(),
                syzygy: None,
            };
            let (outcome, _) = think(&pos, &[], &s, &shared);
            assert!(outcome.nodes >= 5_000, "{} nodes", outcome.nodes);
            assert!(!outcome.best.is_null());
        }
    }

    #[test]
    fn a_soft_limit_finishes_its_iteration() {
        // Past the soft limit the search ends at the end of an iteration:
        // exactly the nodes of a search to that depth alone, more than the
        // soft limit and below the hard cap.
        let pos = Position::startpos();
        let s = GameSettings {
            nodes: 1_000_000,
            soft_nodes: Some(3_000),
            random_plies: 0,
            evaluator: Evaluator::default(),
            syzygy: None,
        };
        let (soft, _) = think(&pos, &[], &s, &Shared::new(1));
        assert!(
            soft.nodes >= 3_000 && soft.nodes < 1_000_000,
            "{} nodes",
            soft.nodes
        );
        let limits = Limits {
            depth: Some(soft.depth),
            multipv: 1,
            ..Limits::default()
        };
        let to_depth = search(&pos, &[], &limits, 1, &Shared::new(1), &Silent);
        assert_eq!(soft.nodes, to_depth.nodes);
        assert_eq!(soft.best, to_depth.best);
        // With the hard cap below the soft limit, the cap rules.
        let capped = GameSettings { nodes: 2_000, ..s };
        let (hard, _) = think(&pos, &[], &capped, &Shared::new(1));
        assert!(hard.nodes < 3_000, "{} nodes", hard.nodes);
    }
}
