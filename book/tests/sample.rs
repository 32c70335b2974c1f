//! The shipped sample PGN is what its generator makes, and it has what the
//! other tests rely on: every kind of move, and games sharing openings.

mod common;

use book::pgn::read_games;
use movegen::MoveKind;

#[test]
fn sample_pgn_is_up_to_date() {
    let generated = common::generate_sample_pgn();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(common::sample_pgn_path(), &generated).unwrap();
        eprintln!("wrote {}", common::sample_pgn_path().display());
        return;
    }
    assert!(
        generated == common::SAMPLE_PGN,
        "tests/data/games.pgn differs from its generator: run BLESS=1 cargo test -p book --test sample"
    );
}

#[test]
fn sample_pgn_covers_every_kind_of_move() {
    let (games, errors) = read_games(common::SAMPLE_PGN);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(games.len(), 48);
    let mut kinds = std::collections::HashSet::new();
    let mut long_castles = 0;
    let mut mates = 0;
    for g in &games {
        let mut pos = g.start;
        for &m in &g.moves {
            match m.kind() {
                MoveKind::Promotion(r) => {
                    kinds.insert(format!("promotion to {r:?}"));
                }
                MoveKind::Castle if !m.is_king_side_castle() => long_castles += 1,
                k => {
                    kinds.insert(format!("{k:?}"));
                }
            }
            pos.play_unchecked(m);
        }
        if pos.is_checkmate() {
            mates += 1;
        }
    }
    for k in ["Normal", "Castle", "EnPassant", "promotion to Queen"] {
        assert!(kinds.contains(k), "no {k} in the sample games: {kinds:?}");
    }
    assert!(long_castles > 0, "no long castling in the sample games");
    eprintln!("sample games: {kinds:?}, {long_castles} long castlings, {mates} mates");
}
