//! Property tests (proptest) of positions and attack methods:
//! - copy-make: making a move on a copy leaves the original as it was, and
//!   after any sequence of moves the incremental key equals `compute_key()`,
//!   for every attack method, and every method reaches the same position;
//! - FEN: any setup prints and parses back to itself, and any legal position
//!   round-trips through `fen()` with the same key;
//! - every attack method agrees with `attacks::Reference` on random squares
//!   and occupancies, the slider's own square occupied or not.

mod common;

use attacks::{Bitboard, Color, Method, Reference, SliderAttacks, Square, dispatch};
use common::positions;
use movegen::{CastlingNotation, Piece, Position, Role, Setup};
use proptest::prelude::*;

/// Start positions with castling rights, en passant, promotions and checks:
/// Ethereal's perft suite.
fn suite() -> Vec<Position> {
    include_str!("../../perft/suites/ethereal_standard.epd")
        .lines()
        .filter_map(|l| l.split(';').next())
        .filter(|fen| !fen.trim().is_empty())
        .map(|fen| Position::from_fen(fen.trim()).expect("suite FENs are legal"))
        .collect()
}

fn start_positions() -> impl Strategy<Value = Position> {
    let suite = suite();
    prop_oneof![(0..suite.len()).prop_map(move |i| suite[i]), positions(),]
}

/// Plays the moves `choices` pick, checking copy-make at every ply with every
/// legal move; returns the FEN and key of each position reached.
fn walk<A: SliderAttacks>(start: &Position, choices: &[u16]) -> Vec<(String, u64)> {
    let mut pos: Position<A> = start.with_method::<A>();
    let mut seen = Vec::new();
    for &choice in choices {
        seen.push((pos.fen(), pos.key()));
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let (fen, key, checkers) = (pos.fen(), pos.key(), pos.checkers());
        for &m in &moves {
            let mut copy = pos;
            copy.play_unchecked(m);
            assert_eq!(copy.key(), copy.compute_key(), "{}: {fen} {m}", A::METHOD);
            assert_eq!(pos.play(m).as_ref(), Ok(&copy), "{fen} {m}");
        }
        // Nothing to restore: the original is untouched.
        assert_eq!((pos.fen(), pos.key(), pos.checkers()), (fen, key, checkers));
        pos.play_unchecked(moves[usize::from(choice) % moves.len()]);
        assert_eq!(pos.key(), pos.compute_key(), "{}: {}", A::METHOD, pos.fen());
    }
    seen.push((pos.fen(), pos.key()));
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn copy_make_restores_nothing_and_keys_stay_incremental(
        start in start_positions(),
        choices in prop::collection::vec(any::<u16>(), 0..60),
    ) {
        let reference = walk::<Reference>(&start, &choices);
        for &method in Method::ALL {
            let seen = dispatch!(method, A => walk::<A>(&start, &choices));
            prop_assert_eq!(&seen, &reference, "{}", method);
        }
    }
}

fn setups() -> impl Strategy<Value = Setup> {
    let piece = prop::option::weighted(
        0.4,
        (any::<bool>(), 0usize..6).prop_map(|(black, r)| Piece {
            color: if black { Color::Black } else { Color::White },
            role: Role::ALL[r],
        }),
    );
    (
        prop::collection::vec(piece, 64),
        any::<bool>(),
        any::<u64>(),
        any::<bool>(),
        prop::option::of(0u32..64),
        any::<u32>(),
        1u32..,
    )
        .prop_map(
            |(board, black, castling, shredder, ep, halfmoves, fullmoves)| {
                let mut setup = Setup {
                    board: board.try_into().expect("64 squares"),
                    turn: if black { Color::Black } else { Color::White },
                    castling_rooks: Bitboard::EMPTY,
                    castling_notation: if shredder {
                        CastlingNotation::Shredder
                    } else {
                        CastlingNotation::XFen
                    },
                    ep_square: ep.map(Square::new),
                    halfmoves,
                    fullmoves,
                };
                // Rights where a FEN can name them: back-rank rooks of a
                // side whose king is on the back rank.
                setup.castling_rooks = Bitboard(castling) & setup.castling_allowed();
                setup
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Any setup, legal or not, prints as a FEN that parses back to it.
    /// (Castling letters that are all files read as Shredder-FEN, which
    /// X-FEN's inner-rook letters are too: only the notation may differ.)
    #[test]
    fn any_setup_round_trips_through_fen(setup in setups()) {
        let fen = setup.to_string();
        let back = fen.parse::<Setup>();
        prop_assert_eq!(back.as_ref().map(|s| s.to_string()), Ok(fen.clone()));
        let back = back.map(|b| Setup { castling_notation: setup.castling_notation, ..b });
        prop_assert_eq!(back, Ok(setup), "{}", fen);
    }

    /// A legal position, and every position a few moves from it, round-trips
    /// through `fen()`: same position, same FEN, same key, same checkers.
    #[test]
    fn legal_positions_round_trip_through_fen(
        start in start_positions(),
        choices in prop::collection::vec(any::<u16>(), 0..12),
    ) {
        let mut pos = start;
        for choice in choices.into_iter().chain([0]) {
            let fen = pos.fen();
            let back: Position = Position::from_fen(&fen).expect("our own FEN is legal");
            prop_assert_eq!(back, pos, "{}", fen);
            prop_assert_eq!(back.fen(), fen.clone());
            prop_assert_eq!(back.key(), pos.key(), "{}", fen);
            prop_assert_eq!(back.checkers(), pos.checkers(), "{}", fen);
            prop_assert_eq!(fen.parse::<Setup>().map(|s| s.to_string()), Ok(fen.clone()));
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[usize::from(choice) % moves.len()]);
        }
    }
}

/// Occupancies of every density: dense (any `u64`), sparser (the AND of two
/// or three), and nearly empty (a few squares).
fn occupancies() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (any::<u64>(), any::<u64>()).prop_map(|(a, b)| a & b),
        (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(a, b, c)| a & b & c),
        prop::collection::vec(0u32..64, 0..4).prop_map(|v| v.iter().fold(0, |o, &s| o | 1 << s)),
    ]
}

fn check_method<A: SliderAttacks>(sq: Square, occ: Bitboard) -> Result<(), TestCaseError> {
    let m = A::METHOD;
    prop_assert_eq!(
        A::rook_attacks(sq, occ),
        Reference::rook_attacks(sq, occ),
        "{} rook {:?} {:#x}",
        m,
        sq,
        occ.0
    );
    prop_assert_eq!(
        A::bishop_attacks(sq, occ),
        Reference::bishop_attacks(sq, occ),
        "{} bishop {:?} {:#x}",
        m,
        sq,
        occ.0
    );
    prop_assert_eq!(
        A::queen_attacks(sq, occ),
        Reference::queen_attacks(sq, occ),
        "{} queen {:?} {:#x}",
        m,
        sq,
        occ.0
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    fn every_method_agrees_with_the_reference(
        sq in 0u32..64,
        occ in occupancies(),
        own_square_occupied in any::<bool>(),
    ) {
        let sq = Square::new(sq);
        let occ = if own_square_occupied {
            Bitboard(occ).with(sq)
        } else {
            Bitboard(occ).without(sq)
        };
        for &method in Method::ALL {
            dispatch!(method, A => check_method::<A>(sq, occ))?;
        }
    }
}
