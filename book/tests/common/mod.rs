//! Shared by the integration tests: the sample PGN and its generator, and
//! temporary directories.

#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use movegen::{Move, MoveKind, Position};
use rng::Rng;

/// The shipped sample games (made by [`generate_sample_pgn`]).
pub const SAMPLE_PGN: &str = include_str!("../data/games.pgn");

/// Where the sample PGN lives in the source tree.
pub fn sample_pgn_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games.pgn")
}

/// Real openings, so that games share their first moves.
const OPENINGS: [&str; 6] = [
    "e4 e5 Nf3 Nc6 Bb5 a6",
    "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6",
    "d4 d5 c4 e6 Nc3 Nf6",
    "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6",
    "e4 e6 d4 d5 e5 c5",
    "c4 e5 Nc3 Nf6",
];

/// How much more likely a move is than a plain one, to make the random
/// games show castling, en passant, promotions, captures and checks.
fn appeal(pos: &Position, m: Move) -> u64 {
    match m.kind() {
        MoveKind::Castle => 60,
        MoveKind::EnPassant => 40,
        MoveKind::Promotion(movegen::Role::Queen) => 30,
        MoveKind::Promotion(_) => 10,
        MoveKind::Normal if pos.captured(m).is_some() => 4,
        MoveKind::Normal if pos.role_at(m.from()) == Some(movegen::Role::Pawn) => 3,
        MoveKind::Normal => 1,
    }
}

fn pick(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let legal: Vec<Move> = pos.legal_moves().into_iter().collect();
    let total: u64 = legal.iter().map(|&m| appeal(pos, m)).sum();
    let mut r = rng.below(total);
    for &m in &legal {
        let w = appeal(pos, m);
        if r < w {
            return Some(m);
        }
        r -= w;
    }
    None
}

/// Made-up games: a real opening, then legal moves at random (biased to
/// show every kind of move), ended by mate, stalemate, insufficient
/// material, or a made-up result. Some games carry comments, variations,
/// NAGs and line comments, which every PGN reader must skip.
pub fn generate_sample_pgn() -> String {
    let mut out = String::new();
    out.push_str("% Made-up games for the book crate's tests: regenerate with\n");
    out.push_str("% BLESS=1 cargo test -p book --test sample\n\n");
    for g in 0..48u64 {
        let mut rng = Rng::new(0xb00c + g);
        let mut pos: Position = Position::startpos();
        let mut moves: Vec<Move> = Vec::new();
        for san in OPENINGS[(g % 6) as usize].split(' ') {
            let m = pos.parse_san(san).expect("opening moves are legal");
            pos.play_unchecked(m);
            moves.push(m);
        }
        let length = 20 + rng.below(if g % 8 == 7 { 240 } else { 100 }) as usize;
        while moves.len() < length && !pos.is_insufficient_material() && pos.halfmoves() < 100 {
            let Some(m) = pick(&pos, &mut rng) else { break };
            pos.play_unchecked(m);
            moves.push(m);
        }
        let result = if pos.is_checkmate() {
            if pos.turn() == attacks::Color::White {
                "0-1"
            } else {
                "1-0"
            }
        } else if pos.count_legal() == 0 || pos.is_insufficient_material() {
            "1/2-1/2"
        } else {
            ["1-0", "0-1", "1/2-1/2"][rng.below(3) as usize]
        };
        let _ = writeln!(out, "[Event \"Generated game {}\"]", g + 1);
        let _ = writeln!(out, "[Site \"book crate tests\"]");
        let _ = writeln!(out, "[Round \"{}\"]", g + 1);
        let _ = writeln!(out, "[White \"Random {}\"]", g % 3);
        let _ = writeln!(out, "[Black \"Random {}\"]", (g + 1) % 3);
        let _ = writeln!(out, "[Result \"{result}\"]");
        out.push('\n');

        let mut words: Vec<String> = Vec::new();
        let mut replay: Position = Position::startpos();
        for (ply, &m) in moves.iter().enumerate() {
            let number = ply / 2 + 1;
            if ply % 2 == 0 {
                words.push(format!("{number}."));
            }
            words.push(replay.san(m));
            match (g % 5, ply) {
                (1, 3) => words.push("{a comment, with (parentheses) and a move: Nf3}".into()),
                (2, 4) => {
                    // A variation: another legal move instead of this one.
                    let other = replay
                        .legal_moves()
                        .into_iter()
                        .find(|&o| o != m)
                        .expect("more than one legal move");
                    let dots = if ply % 2 == 0 { "." } else { "..." };
                    words.push(format!("({number}{dots} {} {{inside}})", replay.san(other)));
                }
                (3, 5) => words.push("$1".into()),
                (3, 6) => words.push("!?".into()),
                _ => {}
            }
            replay.play_unchecked(m);
        }
        words.push(result.to_owned());
        let mut line = String::new();
        for w in words {
            if !line.is_empty() && line.len() + 1 + w.len() > 79 {
                if g % 5 == 4 {
                    line.push_str(" ; a line comment");
                }
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&w);
        }
        out.push_str(&line);
        out.push_str("\n\n");
    }
    out
}
