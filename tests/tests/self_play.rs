//! Whole games of the engine against itself, through the library: every
//! move checked by shakmaty, and (the attack-method experiment's premise)
//! the same game for every attack method when the search is node-limited.

use attacks::{Method, SliderAttacks, dispatch};
use engine::search::{Limits, Shared, Silent, search};
use movegen::{Move, Position};
use pretty_assertions::assert_eq;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position as _};

/// Plays up to `max_plies` plies from `fen` with `nodes` per move; returns
/// the moves in UCI notation. Every move is checked against shakmaty.
fn play<A: SliderAttacks>(fen: &str, nodes: u64, max_plies: usize) -> Vec<String> {
    let mut pos: Position<A> = Position::from_fen(fen).expect("valid FEN");
    let mut oracle: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .expect("fen")
        .into_position(CastlingMode::Standard)
        .expect("legal");
    let shared = Shared::new(4);
    let mut history: Vec<u64> = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        if oracle.is_game_over() || pos.halfmoves() >= 100 {
            break;
        }
        let limits = Limits {
            nodes: Some(nodes),
            multipv: 1,
            ..Limits::default()
        };
        let outcome = search(&pos, &history, &limits, 1, &shared, &Silent);
        let m: Move = outcome.best;
        assert!(
            !m.is_null(),
            "no move in a position with legal moves: {}",
            pos.fen()
        );
        let uci = m.to_string();
        let s_move = UciMove::from_ascii(uci.as_bytes())
            .expect("UCI syntax")
            .to_move(&oracle)
            .unwrap_or_else(|_| panic!("illegal move {uci} in {}", pos.fen()));
        oracle.play_unchecked(s_move);
        history.push(pos.key());
        pos.play_unchecked(m);
        moves.push(uci);
    }
    moves
}

#[test]
fn fixed_node_games_are_identical_for_every_method() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let baseline = dispatch!(Method::Reference, A => play::<A>(fen, 3_000, 60));
    assert!(baseline.len() >= 20, "game too short: {baseline:?}");
    for &method in Method::ALL {
        let game = dispatch!(method, A => play::<A>(fen, 3_000, 60));
        assert_eq!(game, baseline, "{method} played a different game");
    }
}

/// Whether `game` (UCI moves from `fen`) ends in checkmate.
fn ends_in_mate(fen: &str, game: &[String]) -> bool {
    let mut oracle: Chess = fen
        .parse::<shakmaty::fen::Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    for uci in game {
        let m = UciMove::from_ascii(uci.as_bytes())
            .unwrap()
            .to_move(&oracle)
            .unwrap();
        oracle.play_unchecked(m);
    }
    oracle.is_checkmate()
}

#[test]
fn endgame_self_play_is_legal_and_ends() {
    // King and rook against king: the engine must mate within the 50-move rule.
    let fen = "8/8/8/4k3/8/8/8/R3K3 w - - 0 1";
    let game = play::<attacks::Magic>(fen, 20_000, 120);
    assert!(
        ends_in_mate(fen, &game),
        "KR v K not mated after {} plies: {game:?}",
        game.len()
    );
}

#[test]
fn bare_kings_are_driven_to_the_edge_and_mated() {
    // Without the mop-up terms (eval.rs) these took 63 plies, 52 plies and
    // never (a draw by the 50-move rule) at 20,000 nodes a move; with them
    // 29, 32 and 47. The longest of such mates take 10, 16 and 19 moves.
    for (fen, max_plies) in [
        ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1", 40),
        ("8/8/3k4/8/8/8/8/K6R b - - 0 1", 44),
        ("8/8/8/4k3/8/8/8/2B1KB2 w - - 0 1", 70),
    ] {
        let game = play::<attacks::Magic>(fen, 20_000, max_plies);
        assert!(
            ends_in_mate(fen, &game),
            "{fen}: not mated within {max_plies} plies: {game:?}"
        );
    }
}

#[test]
fn perft_and_movegen_agree_through_the_workspace() {
    let pos: Position = Position::startpos();
    assert_eq!(perft::perft(&pos, 4), 197_281);
    let oracle = perft::oracle::position(movegen::STARTING_FEN).unwrap();
    assert_eq!(perft::oracle::perft(&oracle, 4), 197_281);
}
