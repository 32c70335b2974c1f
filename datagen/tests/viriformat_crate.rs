//! Borrow's viriformat files against the field's own reader and writer, the
//! `viriformat` crate (Viridithas's datagen format, read by bullet's
//! loaders): a `borrow-datagen` file read by the crate gives the same
//! positions, moves, scores and results as Borrow's reader; a file the crate
//! writes reads back the same in Borrow; and mates are written where the
//! crate's default filter treats them as mates.
//!
//! The crate is built with debug assertions here (the test profile), so its
//! reader also checks every start record and the legality of every move.

use std::io::BufReader;
use std::path::PathBuf;

use datagen::{Config, Format, run};
use movegen::Position;
use nnue::data::viriformat::{ViriGame, encode_move, read_games};
use nnue::score::{FILE_MATE_BOUND, MATE, MATE_BOUND, to_file_score};
use viriformat::chess::board::Board;
use viriformat::dataformat::{Filter, Game, WDL};

/// Every game of a viriformat file, read by the crate.
fn crate_games(bytes: &[u8]) -> Vec<Game> {
    let mut reader = BufReader::new(bytes);
    let mut games = Vec::new();
    while !std::io::BufRead::fill_buf(&mut reader).unwrap().is_empty() {
        games.push(Game::deserialise_from(&mut reader, Vec::new()).expect("the crate reads it"));
    }
    games
}

/// The first three fields of a FEN: placement, side to move, castling.
fn board_fields(fen: &str) -> String {
    fen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn result_of(wdl: WDL) -> f32 {
    match wdl {
        WDL::Win => 1.0,
        WDL::Draw => 0.5,
        WDL::Loss => 0.0,
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("borrow-viriformat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The bytes of a `borrow-datagen` viriformat file of `games` games at 400
/// nodes a move, seeded with `seed`, `dfrc_percent` of them from double
/// Chess960 starts, written to the scratch file `name`.
fn datagen_file(name: &str, games: u64, seed: u64, dfrc_percent: u64) -> Vec<u8> {
    let mut config = Config::new(games, scratch(name));
    config.dfrc_percent = dfrc_percent;
    config.nodes = 400;
    config.threads = 2;
    config.hash_mb = 1;
    config.seed = seed;
    config.format = Format::Viri;
    let _ = std::fs::remove_file(&config.out);
    run(&config, &|| false, |_| {}).expect("datagen runs");
    std::fs::read(&config.out).unwrap()
}

#[test]
fn a_borrow_datagen_file_reads_the_same_in_the_crate() {
    reads_the_same_in_the_crate(&datagen_file("datagen.vf", 6, 20261129, 0));
}

#[test]
fn a_double_chess960_datagen_file_reads_the_same_in_the_crate() {
    // Every game from a double Chess960 start: castling rights on rooks
    // off the a- and h-files, and castling as the king taking its rook.
    reads_the_same_in_the_crate(&datagen_file("dfrc.vf", 6, 20261207, 100));
}

/// Borrow's reader and the crate's give the same games: results, moves,
/// boards (placement, side to move, castling) and scores.
fn reads_the_same_in_the_crate(bytes: &[u8]) {
    let mut ours = Vec::new();
    assert_eq!(read_games(bytes, |g| ours.push(g)), Ok(6));
    let theirs = crate_games(bytes);
    assert_eq!(theirs.len(), ours.len());

    let mut plies = 0;
    for (n, (our, their)) in ours.iter().zip(&theirs).enumerate() {
        assert_eq!(result_of(their.outcome()), our.result, "game {n}");
        assert_eq!(their.len(), our.plies.len(), "game {n}");
        let moves: Vec<u16> = their.moves().map(|m| m.inner()).collect();
        let expect: Vec<u16> = our.plies.iter().map(|&(m, _)| encode_move(m)).collect();
        assert_eq!(moves, expect, "game {n}");
        let mut boards = Vec::new();
        their.visit_positions(|board, eval| boards.push((board.to_string(), eval)));
        for (ply, ((pos, _, score), (fen, eval))) in our.positions().zip(&boards).enumerate() {
            assert_eq!(
                board_fields(fen),
                board_fields(&pos.fen()),
                "game {n} ply {ply}"
            );
            assert_eq!(*eval, i32::from(to_file_score(score)), "game {n} ply {ply}");
        }
        plies += boards.len();
    }
    assert!(plies > 100, "{plies} plies");
}

#[test]
fn a_file_the_crate_writes_reads_the_same_in_borrow() {
    // Games the crate plays itself: its own legal moves, chosen by a fixed
    // walk, with scores that include mates on its scale.
    let fens = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r1bqkbnr/pppp1pp1/2n5/4p3/4P1Pp/2N2N2/PPPP1P1P/R1BQKBR1 b Qkq g3 0 5",
    ];
    let mut bytes = Vec::new();
    let mut written = Vec::new();
    for (g, fen) in fens.iter().enumerate() {
        let mut board = Board::new();
        board.set_from_fen(fen, false).unwrap();
        let mut game = Game::new(&board);
        let mut record = Vec::new();
        for ply in 0..30usize {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(ply * 7 + g * 3) % moves.len()];
            let eval: i16 = match ply % 5 {
                0 => 32_000 - ply as i16,    // a mate on the crate's scale
                1 => -(31_400 + ply as i16), // beyond its filter bound
                _ => (ply as i16 - 15) * 37,
            };
            record.push((board.to_string(), m.inner(), eval));
            game.add_move(m, eval);
            board.make_move_simple(m);
        }
        game.set_outcome(viriformat::chess::board::GameOutcome::Draw(
            viriformat::chess::board::DrawType::Repetition,
        ));
        game.serialise_into(&mut bytes).unwrap();
        written.push(record);
    }

    let mut ours: Vec<ViriGame> = Vec::new();
    assert_eq!(read_games(&bytes[..], |g| ours.push(g)), Ok(fens.len()));
    for (n, (our, record)) in ours.iter().zip(&written).enumerate() {
        assert_eq!(our.result, 0.5);
        assert_eq!(our.plies.len(), record.len(), "game {n}");
        for (ply, ((pos, m, score), (fen, bits, eval))) in our.positions().zip(record).enumerate() {
            assert_eq!(
                board_fields(&pos.fen()),
                board_fields(fen),
                "game {n} ply {ply}"
            );
            assert_eq!(encode_move(m), *bits, "game {n} ply {ply}");
            if i32::from(*eval).abs() >= FILE_MATE_BOUND {
                // A game-theoretic score is a mate to Borrow.
                assert!(
                    score.abs() >= MATE_BOUND && score.signum() == i32::from(eval.signum()),
                    "game {n} ply {ply}: {eval} read as {score}"
                );
            } else {
                assert_eq!(score, i32::from(*eval));
            }
        }
    }
}

#[test]
fn borrows_mates_are_mates_to_the_crates_default_filter() {
    // 1. f3 e5 2. g4 Qh4#: Black's last two searches found the mate.
    let mut pos: Position = Position::startpos();
    let mut plies = Vec::new();
    for (uci, score) in [
        ("f2f3", -20),
        ("e7e5", -150),
        ("g2g4", -(MATE - 2)),
        ("d8h4", -(MATE - 1)),
    ] {
        let m = pos.parse_uci(uci).unwrap();
        plies.push((m, score));
        pos.play_unchecked(m);
    }
    let game = ViriGame {
        start: Position::startpos(),
        result: 0.0,
        plies,
    };
    let theirs = crate_games(&game.to_bytes());
    assert_eq!(theirs.len(), 1);
    // The default filter's score bound alone (the rest of it unrestricted):
    // the two mate-scored plies are dropped, the others kept.
    let filter = Filter {
        max_eval: Filter::default().max_eval,
        ..Filter::UNRESTRICTED
    };
    assert_eq!(theirs[0].filter_pass_count(&filter), 2);
    assert_eq!(theirs[0].filter_pass_count(&Filter::UNRESTRICTED), 4);
    // And Borrow reads its own mates back exactly.
    let mut back = Vec::new();
    read_games(&game.to_bytes()[..], |g| back.push(g)).unwrap();
    assert_eq!(back, [game]);
}

#[test]
fn borrows_filter_keeps_what_the_crates_keeps() {
    let bytes = datagen_file("filter.vf", 8, 20261128, 0);
    let mut ours = Vec::new();
    read_games(&bytes[..], |g| ours.push(g)).unwrap();
    let theirs = crate_games(&bytes);
    let kept = |filter: &nnue::data::Filter| -> u64 {
        ours.iter()
            .flat_map(|g| g.positions())
            .filter(|(pos, best, score)| {
                filter.verdict(pos, Some(*best), *score) == nnue::data::Verdict::Keep
            })
            .count() as u64
    };
    let unrestricted = nnue::data::Filter {
        skip_check: false,
        max_score: i32::MAX,
        min_pieces: 0,
        min_ply: 0,
        skip_noisy: false,
    };
    // The crate's minimum ply alone, and its whole default filter (ply 16,
    // four pieces, mates, tactical moves and checks out).
    let pairs = [
        (
            Filter {
                min_ply: 16,
                ..Filter::UNRESTRICTED
            },
            nnue::data::Filter {
                min_ply: 16,
                ..unrestricted
            },
        ),
        (
            Filter::default(),
            nnue::data::Filter {
                skip_check: true,
                max_score: MATE_BOUND - 1,
                min_pieces: 4,
                min_ply: 16,
                skip_noisy: true,
            },
        ),
    ];
    let total: u64 = theirs.iter().map(|g| g.len() as u64).sum();
    for (theirs_filter, our_filter) in pairs {
        let passed: u64 = theirs
            .iter()
            .map(|g| g.filter_pass_count(&theirs_filter))
            .sum();
        assert_eq!(kept(&our_filter), passed, "{our_filter:?}");
        assert!(passed < total, "the filter left nothing out");
    }
}
