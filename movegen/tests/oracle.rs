//! Differential tests against shakmaty, the outside oracle, on positions from
//! random play, for every attack method: legal move lists, check status,
//! Zobrist keys (Polyglot), FEN, `gives_check`, and perft counts.

use attacks::{Method, SliderAttacks, dispatch};
use movegen::{Move, Position, STARTING_FEN};
use pretty_assertions::assert_eq;
use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};
use testkit::{Rng, sorted_legal_uci};

/// FENs of positions from random games (seeded), each game up to `plies`
/// plies or until it ends. Played with shakmaty so the sample does not depend
/// on the generator under test.
fn random_positions(games: usize, plies: usize, seed: u64) -> Vec<String> {
    random_positions_from(|_| Chess::default(), games, plies, seed)
}

/// The same from double Chess960 start positions (each side's back rank a
/// random one of the 960, drawn apart), made by the library under test and
/// read by the oracle.
fn random_chess960_positions(games: usize, plies: usize, seed: u64) -> Vec<String> {
    let mut pick = Rng::new(seed ^ 0x960);
    random_positions_from(
        |_| {
            let [white, black] = [pick.index(960), pick.index(960)].map(|n| n as u16);
            let start = Position::<attacks::Magic>::double_chess960(white, black).unwrap();
            shakmaty_pos(&start.fen())
        },
        games,
        plies,
        seed,
    )
}

fn random_positions_from(
    mut start: impl FnMut(usize) -> Chess,
    games: usize,
    plies: usize,
    seed: u64,
) -> Vec<String> {
    let mut rng = Rng::new(seed);
    let mut fens = Vec::new();
    for game in 0..games {
        let mut pos = start(game);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Prefer captures and promotions now and then to reach endgames.
            let noisy: Vec<_> = moves
                .iter()
                .filter(|m| m.is_capture() || m.is_promotion())
                .collect();
            let m = if !noisy.is_empty() && rng.index(3) == 0 {
                *noisy[rng.index(noisy.len())]
            } else {
                moves[rng.index(moves.len())]
            };
            pos.play_unchecked(m);
            fens.push(Fen::from_position(&pos, EnPassantMode::Always).to_string());
        }
    }
    fens
}

/// shakmaty's position, in Chess960 mode where the castling rights need it.
fn shakmaty_pos(fen: &str) -> Chess {
    let fen: Fen = fen.parse().expect("shakmaty parses");
    let mode = CastlingMode::detect(fen.as_setup());
    fen.into_position(mode).expect("shakmaty accepts")
}

/// UCI as shakmaty writes it for `pos`: Chess960 castling (`e1h1`) when
/// the position needs Chess960.
fn uci<A: SliderAttacks>(pos: &Position<A>, m: Move) -> String {
    m.uci(pos.is_chess960()).to_string()
}

fn sorted_uci<A: SliderAttacks>(pos: &Position<A>) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|&m| uci(pos, m)).collect();
    v.sort();
    v
}

fn check_position<A: SliderAttacks>(fen: &str) {
    let pos: Position<A> = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let oracle = shakmaty_pos(fen);
    assert_eq!(pos.fen(), fen, "FEN round trip");
    assert_eq!(
        sorted_uci(&pos),
        sorted_legal_uci(&oracle),
        "moves of {fen} ({})",
        A::METHOD
    );
    assert_eq!(pos.is_check(), oracle.is_check(), "check in {fen}");
    assert_eq!(pos.checkers().0, oracle.checkers().0, "checkers in {fen}");
    let key: Zobrist64 = oracle.zobrist_hash(EnPassantMode::PseudoLegal);
    assert_eq!(pos.key(), key.0, "Polyglot key of {fen}");
    assert_eq!(pos.key(), pos.compute_key());
    assert_eq!(pos.count_legal(), pos.legal_moves().len() as u64);
    assert_eq!(
        pos.count_two_plies(),
        pos.legal_moves()
            .iter()
            .map(|&m| pos.count_legal_after(m))
            .sum::<u64>(),
        "count_two_plies in {fen}"
    );
    assert_eq!(
        pos.is_insufficient_material(),
        oracle.is_insufficient_material(),
        "{fen}"
    );
    // The attack map of each side, with each king lifted off as the move
    // generator asks it, on every square and on the king's neighbourhood.
    for color in [attacks::Color::White, attacks::Color::Black] {
        let lifted = pos.occupied().without(pos.king_of(!color));
        let s_color = shakmaty::Color::from_white(color == attacks::Color::White);
        let s_lifted = shakmaty::Bitboard(lifted.0);
        for asked in [
            attacks::Bitboard::FULL,
            attacks::king_attacks(pos.king_of(!color)),
        ] {
            let expected: u64 = asked
                .into_iter()
                .filter(|&sq| {
                    let s_sq = shakmaty::Square::new(sq.index() as u32);
                    oracle.board().attacks_to(s_sq, s_color, s_lifted).any()
                })
                .fold(0, |bb, sq| bb | 1 << sq.index());
            assert_eq!(
                pos.attacked_among(color, asked, lifted).0,
                expected,
                "squares {color:?} attacks among {:#x} in {fen}",
                asked.0
            );
        }
    }
    for m in pos.legal_moves() {
        let mut next = pos;
        next.play_unchecked(m);
        assert_eq!(
            next.key(),
            next.compute_key(),
            "incremental key after {m} in {fen}"
        );
        assert_eq!(
            pos.gives_check(m),
            next.is_check(),
            "gives_check({m}) in {fen}"
        );
        assert_eq!(
            pos.count_legal_after(m),
            next.count_legal(),
            "count_legal_after({m}) in {fen}"
        );
        assert_eq!(pos.parse_uci(&uci(&pos, m)), Ok(m));
        if m.kind() == movegen::MoveKind::Castle {
            // Both castling forms are read, unless the king's two-square
            // form is also a normal king move (Chess960).
            let standard = m.uci(false).to_string();
            if !pos
                .legal_moves()
                .iter()
                .any(|o| o.to_string() == standard && *o != m)
            {
                assert_eq!(pos.parse_uci(&standard), Ok(m), "{standard} in {fen}");
            }
            assert_eq!(pos.parse_uci(&m.uci(true).to_string()), Ok(m));
        }
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "SAN {san} in {fen}");
        let s_move = shakmaty::uci::UciMove::from_ascii(uci(&pos, m).as_bytes())
            .expect("uci")
            .to_move(&oracle)
            .expect("legal for shakmaty");
        assert_eq!(
            san,
            shakmaty::san::SanPlus::from_move(oracle.clone(), s_move).to_string()
        );
    }
}

fn check_all_methods(fens: &[String]) {
    for &method in Method::ALL {
        for fen in fens {
            dispatch!(method, A => check_position::<A>(fen));
        }
    }
}

#[test]
fn random_play_agrees_with_shakmaty() {
    let fens = random_positions(40, 120, 0x5eed_0001);
    assert!(fens.len() > 2_000, "{} positions", fens.len());
    check_all_methods(&fens);
}

#[test]
fn random_chess960_play_agrees_with_shakmaty() {
    let fens = random_chess960_positions(30, 60, 0x5eed_0960);
    assert!(fens.len() > 1_000, "{} positions", fens.len());
    let chess960 = fens
        .iter()
        .filter(|f| Position::<attacks::Magic>::from_fen(f).is_ok_and(|p| p.is_chess960()))
        .count();
    assert!(
        chess960 > 300,
        "{chess960} positions with Chess960 castling"
    );
    check_all_methods(&fens);
}

#[test]
fn perft_of_random_positions_agrees_with_shakmaty() {
    let fens = random_positions(10, 80, 0x5eed_0002);
    for &method in Method::ALL {
        for fen in fens.iter().step_by(3) {
            let oracle = shakmaty_pos(fen);
            let expected = shakmaty::perft(&oracle, 2);
            let ours = dispatch!(method, A => {
                let pos: Position<A> = Position::from_fen(fen).unwrap();
                count(&pos, 2)
            });
            assert_eq!(ours, expected, "perft 2 of {fen} with {method}");
        }
    }
}

fn count<A: SliderAttacks>(pos: &Position<A>, depth: u32) -> u64 {
    if depth == 1 {
        return pos.count_legal();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut c = *pos;
            c.play_unchecked(m);
            count(&c, depth - 1)
        })
        .sum()
}

#[test]
fn start_position_key_is_polyglots() {
    let pos: Position = STARTING_FEN.parse().unwrap();
    assert_eq!(pos.key(), 0x463b_9618_1691_fc9c);
}

#[test]
fn polyglot_reference_keys() {
    // The worked examples of the Polyglot book format description.
    let pos: Position = Position::startpos();
    let mut p = pos;
    let mut keys = vec![];
    for uci in ["e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"] {
        let m = p.parse_uci(uci).unwrap();
        p.play_unchecked(m);
        keys.push(p.key());
    }
    assert_eq!(
        keys,
        [
            0x823c_9b50_fd11_4196,
            0x0756_b944_61c5_0fb0,
            0x662f_afb9_65db_29d4,
            0x22a4_8b5a_8e47_ff78,
            0x652a_607c_a3f2_42c1,
            0x00fd_d303_c946_bdd9,
        ]
    );
}

/// `is_legal` answers as the generator's list for any 16 bits (a table's
/// move from another position, a sibling's killer): every one of the 65,536
/// moves, in positions from random play (checks, pins, en passant,
/// promotions, Chess960 castling among them), for two attack methods.
fn is_legal_agrees_with_the_list<A: SliderAttacks>(fen: &str) -> usize {
    let pos: Position<A> = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let legal = pos.legal_moves();
    let mut found = 0;
    for bits in 0..=u16::MAX {
        let m = Move::from_bits(bits);
        let listed = legal.contains(&m);
        assert_eq!(pos.is_legal(m), listed, "{m:?} ({bits:#06x}) in {fen}");
        found += usize::from(listed);
    }
    assert_eq!(found, legal.len(), "each listed move once, in {fen}");
    found
}

#[test]
fn is_legal_agrees_with_the_generator_for_every_16_bit_move() {
    let mut fens = random_positions(6, 120, 0x5eed_1e9a);
    fens.extend(random_chess960_positions(3, 60, 0x5eed_1e9b));
    fens.extend(TRICKY.map(String::from));
    fens.extend(
        [
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // A pinned pawn that may push along its pin, one that may not.
            "4r1k1/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "6k1/8/8/8/1q6/8/3P4/4K3 w - - 0 1",
            // A double push that blocks a check.
            "4k3/8/8/b7/8/8/1P6/4K3 w - - 0 1",
        ]
        .map(String::from),
    );
    assert!(fens.len() > 400, "{} positions", fens.len());
    let mut moves = 0;
    for fen in &fens {
        moves += is_legal_agrees_with_the_list::<attacks::Magic>(fen);
    }
    for fen in fens.iter().step_by(7) {
        is_legal_agrees_with_the_list::<attacks::Hyperbola>(fen);
    }
    assert!(moves > 10_000, "{moves} legal moves");
}

/// Positions where the rules are easy to get wrong.
const TRICKY: [&str; 6] = [
    // En passant would expose the king along the rank.
    "8/8/8/KPp4r/8/8/8/7k w - c6 0 2",
    // En passant resolves a check by the double-pushed pawn.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // Castling through an attacked square is illegal.
    "r3k2r/8/8/8/8/8/8/R3K1rR w KQkq - 0 1",
    // Double check: only king moves.
    "4k3/8/8/8/8/5n2/8/r3K3 w - - 0 1",
    // Promotions with capture, pinned pawn.
    "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
    "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
];

#[test]
fn tricky_rules() {
    for fen in TRICKY {
        check_all_methods(&[fen.to_owned()]);
    }
}

#[test]
fn position_errors_name_the_problem() {
    use movegen::{FenError, PositionError};
    let cases = [
        ("8/8/8/8/8/8/8/K7 w - - 0 1", PositionError::Kings),
        ("k6K/8/8/8/8/8/8/K7 w - - 0 1", PositionError::Kings),
        (
            "k7/8/8/8/8/8/8/K6P w - - 0 1",
            PositionError::PawnsOnBackRank,
        ),
        ("k6R/8/8/8/8/8/8/K7 w - - 0 1", PositionError::OppositeCheck),
        (
            "k7/8/8/8/8/8/8/K7 w K - 0 1",
            PositionError::InvalidCastlingRights,
        ),
        (
            "4k3/8/8/8/8/8/8/R3K3 w q - 0 1",
            PositionError::InvalidCastlingRights,
        ),
        (
            "k7/8/8/8/8/8/8/K7 w - e6 0 1",
            PositionError::InvalidEnPassant,
        ),
        (
            "k7/8/8/3Pp3/8/8/8/K7 w - e3 0 1",
            PositionError::InvalidEnPassant,
        ),
        // 28 white pieces: 270 legal moves, more than any game can reach.
        (
            "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
            PositionError::TooMuchMaterial,
        ),
        (
            "k7/pppppppp/p7/8/8/8/8/K7 b - - 0 1",
            PositionError::TooMuchMaterial,
        ),
        (
            "k7/8/8/8/8/8/PPPPPPPP/KQQ5 w - - 0 1",
            PositionError::TooMuchMaterial,
        ),
    ];
    for (fen, expected) in cases {
        assert_eq!(
            Position::<attacks::Magic>::from_fen(fen).err(),
            Some(FenError::Position(expected)),
            "{fen}"
        );
    }
    // The richest reachable position known: 9 queens, 218 legal moves.
    let rich = Position::<attacks::Magic>::from_fen(
        "3Q4/1Q4Q1/4Q3/2Q4R/Q4Q2/3Q4/1Q4Rp/1K1BBNNk w - - 0 1",
    )
    .expect("reachable material");
    assert_eq!(rich.legal_moves().len(), 218);
    // A legal en-passant square and a legal promotion count are accepted.
    assert!(Position::<attacks::Magic>::from_fen("k7/8/8/3Pp3/8/8/8/K7 w - e6 0 1").is_ok());
    assert!(Position::<attacks::Magic>::from_fen("k7/8/8/8/8/8/PPPPPPP1/KQQ5 w - - 0 1").is_ok());
}
