//! Round trip: a book built from the sample games holds exactly the moves
//! and weights that the games give, and plays from the start position.

mod common;

use std::collections::HashMap;

use attacks::Color;
use book::pgn::read_games;
use book::{Book, BookBuilder, BuildOptions};
use movegen::Position;
use rng::Rng;

/// What the sample games say, counted here directly: for each position and
/// move (UCI), the games and the points (from the `Result` tag) of the side
/// that played it.
/// (games, points) for each (key, UCI move).
type Tallies = HashMap<(u64, String), (u32, u32)>;

fn expected(max_ply: usize) -> (HashMap<u64, Position>, Tallies) {
    let (games, errors) = read_games(common::SAMPLE_PGN);
    assert!(errors.is_empty());
    let mut positions = HashMap::new();
    let mut tallies = Tallies::new();
    for g in &games {
        let result = g.tag("Result").unwrap();
        let mut pos = g.start;
        for &m in g.moves.iter().take(max_ply) {
            let points = match (result, pos.turn()) {
                ("1-0", Color::White) | ("0-1", Color::Black) => 2,
                ("1/2-1/2", _) => 1,
                _ => 0,
            };
            positions.insert(pos.key(), pos);
            let t = tallies.entry((pos.key(), m.to_string())).or_default();
            t.0 += 1;
            t.1 += points;
            pos.play_unchecked(m);
        }
    }
    (positions, tallies)
}

#[test]
fn built_book_holds_what_the_games_say() {
    for (max_ply, min_games) in [(1024, 1), (20, 2), (12, 3)] {
        let mut builder = BookBuilder::new(BuildOptions { max_ply, min_games });
        assert!(builder.add_pgn(common::SAMPLE_PGN).is_empty());
        assert_eq!(builder.games(), 48);
        let book = Book::from_bytes(builder.to_bytes()).expect("our own book reads back");
        let (positions, tallies) = expected(max_ply);
        let mut want: HashMap<u64, Vec<(String, u16)>> = HashMap::new();
        for ((key, mv), (games, points)) in &tallies {
            if *games >= min_games && *points > 0 {
                want.entry(*key)
                    .or_default()
                    .push((mv.clone(), *points as u16));
            }
        }
        let keys: std::collections::BTreeSet<u64> = book.iter().map(|e| e.key).collect();
        assert_eq!(
            keys.len(),
            want.len(),
            "max_ply {max_ply}, min_games {min_games}"
        );
        for (key, mut moves) in want {
            assert!(keys.contains(&key));
            let pos = &positions[&key];
            let mut got: Vec<(String, u16)> = book
                .probe(pos)
                .iter()
                .map(|m| (m.mv.to_string(), m.weight))
                .collect();
            // Every entry decodes to a legal move, highest weight first.
            assert_eq!(got.len(), book.entries(key).len(), "{}", pos.fen());
            assert!(got.windows(2).all(|w| w[0].1 >= w[1].1));
            got.sort();
            moves.sort();
            assert_eq!(got, moves, "{}", pos.fen());
        }
    }
}

#[test]
fn castling_and_promotions_round_trip_through_the_file() {
    let mut builder = BookBuilder::new(BuildOptions {
        max_ply: 1024,
        min_games: 1,
    });
    builder.add_pgn(common::SAMPLE_PGN);
    let book = Book::from_bytes(builder.to_bytes()).unwrap();
    let (games, _) = read_games(common::SAMPLE_PGN);
    let (mut castles, mut promotions) = (0, 0);
    for g in &games {
        let mut pos = g.start;
        for &m in &g.moves {
            let played_by_winner_or_draw = book
                .entries(pos.key())
                .iter()
                .any(|e| book::decode_move(&pos, e.raw_move) == Some(m));
            if played_by_winner_or_draw {
                match m.kind() {
                    movegen::MoveKind::Castle => castles += 1,
                    movegen::MoveKind::Promotion(_) => promotions += 1,
                    _ => {}
                }
            }
            pos.play_unchecked(m);
        }
    }
    assert!(
        castles > 0 && promotions > 0,
        "castles {castles}, promotions {promotions}"
    );
}

#[test]
fn playing_from_the_book() {
    let mut builder = BookBuilder::new(BuildOptions {
        max_ply: 1024,
        min_games: 1,
    });
    builder.add_pgn(common::SAMPLE_PGN);
    let book = Book::from_bytes(builder.to_bytes()).unwrap();
    let start: Position = Position::startpos();

    // The first moves of the sample openings, by weight.
    let first: Vec<String> = book
        .probe(&start)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    let mut sorted = first.clone();
    sorted.sort();
    assert_eq!(sorted, ["c2c4", "d2d4", "e2e4"]);

    // Weighted choice follows the weights.
    let weights: HashMap<String, u16> = book
        .probe(&start)
        .iter()
        .map(|m| (m.mv.to_string(), m.weight))
        .collect();
    let total: f64 = weights.values().map(|&w| f64::from(w)).sum();
    let mut rng = Rng::new(77);
    let mut counts: HashMap<String, u32> = HashMap::new();
    let draws = 20_000;
    for _ in 0..draws {
        let m = book.weighted_move(&start, &mut rng).unwrap();
        *counts.entry(m.to_string()).or_default() += 1;
    }
    for (mv, w) in &weights {
        let expected = f64::from(draws) * f64::from(*w) / total;
        let got = f64::from(counts[mv]);
        assert!(
            (got - expected).abs() < 0.05 * f64::from(draws),
            "{mv}: {got} vs {expected}"
        );
    }

    // A game from the book: every move legal, and the book lasts a while.
    let mut rng = Rng::new(3);
    let mut pos = start;
    let mut plies = 0;
    while let Some(m) = book.weighted_move(&pos, &mut rng) {
        assert!(pos.is_legal(m));
        pos.play_unchecked(m);
        plies += 1;
        assert!(plies < 1000);
    }
    assert!(plies >= 6, "left the book after {plies} plies");
    let mut pos = start;
    let mut plies = 0;
    while let Some(m) = book.best_move(&pos) {
        pos.play_unchecked(m);
        plies += 1;
        if plies > 400 {
            break; // best moves may cycle through a repetition
        }
    }
    assert!(plies >= 6);
}
