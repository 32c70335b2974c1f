//! The tuning build (`--features spsa`): the search runs, without a panic
//! and with a legal move, at every constant's smallest and largest value
//! and at random points of the whole range, since an SPSA run tries them
//! all. (`lmr_min_depth` 1 once made the reduction's clamp panic: every
//! game of the first SPSA run was lost by a crash.) One test, so that no
//! other search of this process sees the constants it sets.

#![cfg(feature = "spsa")]

use engine::search::params::{self, TUNABLES};
use engine::search::{Limits, Shared, Silent, search};
use movegen::Position;
use rng::Rng;

const FENS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
    "8/2k5/3p4/p2P1p2/P2P1P2/8/8/1K6 w - - 0 1",
    "6k1/5ppp/8/8/8/8/q4PPP/1R4K1 w - - 0 1",
];

/// Searches every position at a few thousand nodes: each answer is legal.
fn search_all(what: &str) {
    let shared = Shared::new(4);
    for fen in FENS {
        let pos: Position = Position::from_fen(fen).expect("valid FEN");
        let limits = Limits {
            nodes: Some(4_000),
            multipv: 1,
            ..Limits::default()
        };
        shared.new_game();
        shared
            .stop
            .store(false, std::sync::atomic::Ordering::Relaxed);
        let result = search(&pos, &[], &limits, 1, &shared, &Silent);
        assert!(
            pos.legal_moves().contains(&result.best),
            "{what}: {fen}: bestmove {:?} is not legal",
            result.best
        );
    }
}

fn set(name: &str, value: i64) {
    params::set_option(name, Some(&value.to_string()))
        .unwrap_or_else(|e| panic!("{name} = {value}: {e}"));
}

#[test]
fn every_constant_at_its_ends_and_at_random_points_plays_legally() {
    for t in TUNABLES {
        for value in [t.min, t.max] {
            set(t.name, value);
            search_all(&format!("{} = {value}", t.name));
        }
        set(t.name, t.default);
    }
    let mut rng = Rng::new(20_261_128);
    for round in 0..12 {
        let mut chosen = Vec::new();
        for t in TUNABLES {
            let value = t.min + rng.below((t.max - t.min + 1) as u64) as i64;
            set(t.name, value);
            chosen.push(format!("{}={value}", t.name));
        }
        search_all(&format!("random point {round}: {}", chosen.join(" ")));
    }
}
