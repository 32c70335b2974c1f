//! PGN output: a [`GameRecord`] as the tags and moves of book's PGN
//! [`Writer`], one game per call, with the engines' scores, depths and
//! times in comments (`{+0.35/12 0.512s}`, cutechess style, as the book
//! crate's [`MoveComment`] defines it), `{book}` for opening moves, and the
//! reason the game ended as the last comment.

use book::pgn::{BOOK_COMMENT, MoveComment, Outcome, Writer};
use shakmaty::{Color, KnownOutcome, Position};

use crate::game::GameRecord;

/// The comment after an engine's move: `+0.35/12 0.512s`, in the format
/// of [`MoveComment`] (which `borrow-datagen convert` reads).
pub fn move_comment(m: &crate::game::MoveRecord) -> String {
    MoveComment {
        score: m.info.score,
        depth: m.info.depth,
        time: Some(m.elapsed),
    }
    .to_string()
}

/// The game as PGN text, ending with a blank line.
pub fn format_game(g: &GameRecord, event: &str, round: &str, date: &str) -> String {
    let start = crate::openings::start_position(&g.opening).ok();
    let turn = start.as_ref().map_or(Color::White, |p| p.turn());
    let number = start.as_ref().map_or(1, |p| p.fullmoves().get());
    let mut w = Writer::new(color(turn), number);
    write_tags(&mut w, g, event, round, date);
    for san in &g.opening_san {
        w.push_move(san, BOOK_COMMENT);
    }
    for m in &g.moves {
        w.push_move(&m.san, &move_comment(m));
    }
    w.finish(Some(&g.reason()), outcome(g.result))
}

/// The game's tags: the seven of PGN's roster, the start position when
/// it is not the standard one, the time controls, the plies and why the
/// game ended.
fn write_tags(w: &mut Writer, g: &GameRecord, event: &str, round: &str, date: &str) {
    w.tag("Event", event);
    w.tag("Site", "?");
    w.tag("Date", date);
    w.tag("Round", round);
    w.tag("White", &g.white);
    w.tag("Black", &g.black);
    w.tag("Result", g.result.as_str());
    if g.chess960 {
        w.tag("Variant", "Chess960");
    }
    if g.chess960 || !g.opening.is_startpos() {
        w.tag("FEN", &g.opening.fen);
        w.tag("SetUp", "1");
    }
    let (white, black) = (g.limits[0].describe(), g.limits[1].describe());
    if white == black {
        w.tag("TimeControl", &white);
    } else {
        w.tag("WhiteTimeControl", &white);
        w.tag("BlackTimeControl", &black);
    }
    w.tag(
        "PlyCount",
        &(g.opening_san.len() + g.moves.len()).to_string(),
    );
    w.tag("Termination", g.termination.pgn_tag());
}

/// shakmaty's colour as book's.
fn color(c: Color) -> attacks::Color {
    match c {
        Color::White => attacks::Color::White,
        Color::Black => attacks::Color::Black,
    }
}

/// shakmaty's outcome as book's.
fn outcome(result: KnownOutcome) -> Outcome {
    match result {
        KnownOutcome::Decisive {
            winner: Color::White,
        } => Outcome::WhiteWins,
        KnownOutcome::Decisive {
            winner: Color::Black,
        } => Outcome::BlackWins,
        KnownOutcome::Draw => Outcome::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::Limits;
    use crate::game::{Failure, MoveRecord, Termination};
    use crate::openings::Opening;
    use crate::uci_engine::{Info, Score};
    use shakmaty::KnownOutcome;
    use std::time::Duration;

    fn mv(san: &str, score: Option<Score>, depth: Option<u32>, ms: u64) -> MoveRecord {
        MoveRecord {
            san: san.into(),
            uci: String::new(),
            info: Info {
                score,
                depth,
                nodes: None,
            },
            elapsed: Duration::from_millis(ms),
        }
    }

    #[test]
    fn a_game() {
        let after_e4: movegen::Position = movegen::Position::from_fen(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        )
        .unwrap();
        let e5 = after_e4.parse_uci("e7e5").unwrap();
        let g = GameRecord {
            chess960: false,
            white: "A".into(),
            black: "B \"quoted\"".into(),
            opening: Opening {
                fen: "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".into(),
                moves: vec![e5],
            },
            opening_san: vec!["e5".into()],
            moves: vec![
                mv("Nf3", Some(Score::Cp(35)), Some(12), 512),
                mv("Nc6", Some(Score::Mate(-3)), Some(20), 1000),
                mv("Bb5", None, None, 5),
            ],
            result: KnownOutcome::Decisive {
                winner: Color::White,
            },
            termination: Termination::Failure(Failure::IllegalMove, Some("a1a1".into())),
            failed: Some(Color::Black),
            limits: [Limits {
                tc: Some("10+0.1".parse().unwrap()),
                ..Limits::default()
            }; 2],
        };
        let text = format_game(&g, "test", "3", "2024.01.01");
        let expected = r#"[Event "test"]
[Site "?"]
[Date "2024.01.01"]
[Round "3"]
[White "A"]
[Black "B \"quoted\""]
[Result "1-0"]
[FEN "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"]
[SetUp "1"]
[TimeControl "10+0.1"]
[PlyCount "4"]
[Termination "illegal move"]

1... e5 {book} 2. Nf3 {+0.35/12 0.512s} Nc6 {-M3/20 1.000s} 3. Bb5 {0.005s}
{Black makes an illegal move: a1a1} 1-0

"#;
        assert_eq!(text, expected);
    }
}
