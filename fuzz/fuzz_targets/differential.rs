//! Differential fuzzing against shakmaty for every attack method: from a
//! fuzzed position (a FEN line, or a board built from the line's bytes),
//! legal moves chosen by the remaining bytes. At every ply, for every
//! method: the legal moves, their count, check status, checkers, and the
//! Zobrist key, incremental and from scratch, against shakmaty's Polyglot key
//! with pseudo-legal en passant. Also at every ply, for one method in turn
//! (to keep each input fast): `gives_check` for every move, the noisy/quiet
//! split, and the FEN. Making the move on a copy leaves the original as it
//! was.

#![no_main]

use attacks::{Method, SliderAttacks, dispatch};
use borrow_fuzz::{fuzzed_position, shakmaty_position, split_line};
use libfuzzer_sys::fuzz_target;
use movegen::{CastlingNotation, Move, Position};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, EnPassantMode, Position as _};

const MAX_PLIES: usize = 32;

/// What shakmaty says about one position of the game.
struct Ply {
    fen: String,
    /// The legal moves as [`code`]s, sorted, each with whether it gives check.
    moves: Vec<(u32, bool)>,
    check: bool,
    checkers: u64,
    key: u64,
    /// The code of the move played next, if any.
    next: Option<u32>,
}

/// A move as origin, destination (the rook's, for castling: Chess960's
/// king-takes-rook, which both libraries can write) and promotion.
fn code(from: u32, to: u32, promotion: Option<char>) -> u32 {
    from | to << 6 | promotion.map_or(0, u32::from) << 12
}

fn our_code(m: Move) -> u32 {
    code(
        m.from() as u32,
        m.to() as u32,
        m.promotion_role().map(|r| r.char()),
    )
}

fn their_code(m: &shakmaty::Move) -> u32 {
    match m.to_uci(CastlingMode::Chess960) {
        UciMove::Normal {
            from,
            to,
            promotion,
        } => code(from as u32, to as u32, promotion.map(|r| r.char())),
        other => panic!("shakmaty gave {other}"),
    }
}

fuzz_target!(|data: &[u8]| {
    let (head, choices) = split_line(data);
    let start = fuzzed_position(head);
    let fen = start.fen();
    let mut chess = match shakmaty_position(&fen) {
        Some(Ok(c)) => c,
        other => panic!(
            "{fen}: Borrow accepts, shakmaty says {:?}",
            other.map(|r| r.err())
        ),
    };
    // The game by shakmaty, recorded.
    let mut plies = Vec::new();
    let mut choices = choices.iter();
    loop {
        let legal = chess.legal_moves();
        let mut moves: Vec<(u32, bool, &shakmaty::Move)> = legal
            .iter()
            .map(|m| {
                let mut c = chess.clone();
                c.play_unchecked(*m);
                (their_code(m), c.is_check(), m)
            })
            .collect();
        moves.sort_by_key(|m| m.0);
        let next = if plies.len() < MAX_PLIES && !moves.is_empty() {
            choices
                .next()
                .map(|&c| *moves[usize::from(c) % moves.len()].2)
        } else {
            None
        };
        plies.push(Ply {
            fen: Fen::from_position(&chess, EnPassantMode::Always).to_string(),
            moves: moves.iter().map(|m| (m.0, m.1)).collect(),
            check: chess.is_check(),
            checkers: chess.checkers().0,
            key: chess
                .zobrist_hash::<Zobrist64>(EnPassantMode::PseudoLegal)
                .0,
            next: next.as_ref().map(their_code),
        });
        match next {
            Some(m) => chess.play_unchecked(m),
            None => break,
        }
    }
    for (i, &method) in Method::ALL.iter().enumerate() {
        dispatch!(method, A => replay::<A>(&start.with_method::<A>(), &plies, i));
    }
});

fn replay<A: SliderAttacks>(start: &Position<A>, plies: &[Ply], index: usize) {
    let mut pos = *start;
    let method = A::METHOD;
    for (i, ply) in plies.iter().enumerate() {
        let mut moves: Vec<(u32, Move)> = pos
            .legal_moves()
            .iter()
            .map(|&m| (our_code(m), m))
            .collect();
        moves.sort_by_key(|m| m.0);
        let ours: Vec<u32> = moves.iter().map(|m| m.0).collect();
        let theirs: Vec<u32> = ply.moves.iter().map(|m| m.0).collect();
        if ours != theirs {
            let names: Vec<String> = moves.iter().map(|m| m.1.to_string()).collect();
            panic!("{method}: moves of {}: ours {names:?}", ply.fen);
        }
        assert_eq!(
            pos.count_legal(),
            moves.len() as u64,
            "{method}: count of {}",
            ply.fen
        );
        assert_eq!(pos.is_check(), ply.check, "{method}: check in {}", ply.fen);
        assert_eq!(
            pos.checkers().0,
            ply.checkers,
            "{method}: checkers in {}",
            ply.fen
        );
        assert_eq!(pos.key(), ply.key, "{method}: key of {}", ply.fen);
        assert_eq!(
            pos.compute_key(),
            ply.key,
            "{method}: computed key of {}",
            ply.fen
        );
        if i % Method::ALL.len() == index {
            // shakmaty writes X-FEN (`KQkq`), whatever form was read.
            let mut setup = pos.to_setup();
            setup.castling_notation = CastlingNotation::XFen;
            assert_eq!(setup.to_string(), ply.fen, "{method}: FEN");
            for ((_, m), &(_, check)) in moves.iter().zip(&ply.moves) {
                assert_eq!(
                    pos.gives_check(*m),
                    check,
                    "{method}: gives_check {m} in {}",
                    ply.fen
                );
            }
            // The stages split the legal moves.
            let noisy = pos.noisy_moves();
            let quiet = pos.quiet_moves();
            assert_eq!(
                noisy.len() + quiet.len(),
                moves.len(),
                "{method}: stages of {}",
                ply.fen
            );
            for m in &noisy {
                assert!(
                    pos.is_noisy(*m) && !quiet.contains(m),
                    "{method}: {m} in {}",
                    ply.fen
                );
            }
            for m in &quiet {
                assert!(!pos.is_noisy(*m), "{method}: {m} in {}", ply.fen);
            }
        }
        let Some(next) = ply.next else { break };
        let m = moves[ours.binary_search(&next).expect("compared above")].1;
        let before = pos;
        let mut copy = pos;
        copy.play_unchecked(m);
        assert_eq!(pos, before);
        assert_eq!(pos.key(), before.key());
        pos = copy;
    }
}
