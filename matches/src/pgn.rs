//! PGN output: one game per call, with the engines' scores, depths and
//! times in comments (`{+0.35/12 0.512s}`, cutechess style, as the book
//! crate's [`MoveComment`] defines it), `{book}` for opening moves, and the
//! reason the game ended as the last comment.

use std::time::{SystemTime, UNIX_EPOCH};

use book::pgn::{BOOK_COMMENT, MoveComment};
use shakmaty::{Color, Position};

use crate::game::GameRecord;

/// Today's date (UTC) as PGN writes it: `YYYY.MM.DD`.
pub fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to a Gregorian (year, month, day), after Howard
/// Hinnant's `civil_from_days`.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

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
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out += &format!("[{k} \"{}\"]\n", escape(v));
    tag("Event", event);
    tag("Site", "?");
    tag("Date", date);
    tag("Round", round);
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", g.result.as_str());
    if g.chess960 {
        tag("Variant", "Chess960");
    }
    if g.chess960 || !g.opening.is_startpos() {
        tag("FEN", &g.opening.fen);
        tag("SetUp", "1");
    }
    let (w, b) = (g.limits[0].describe(), g.limits[1].describe());
    if w == b {
        tag("TimeControl", &w);
    } else {
        tag("WhiteTimeControl", &w);
        tag("BlackTimeControl", &b);
    }
    tag(
        "PlyCount",
        &(g.opening_san.len() + g.moves.len()).to_string(),
    );
    tag("Termination", g.termination.pgn_tag());
    out.push('\n');

    let start = crate::openings::start_position(&g.opening).ok();
    let mut turn = start.as_ref().map_or(Color::White, |p| p.turn());
    let mut number = start.as_ref().map_or(1, |p| p.fullmoves().get());
    let mut units: Vec<String> = Vec::new();
    let mut first = true;
    let sans = g
        .opening_san
        .iter()
        .map(|s| (s.as_str(), BOOK_COMMENT.to_string()))
        .chain(g.moves.iter().map(|m| (m.san.as_str(), move_comment(m))));
    for (san, comment) in sans {
        if turn == Color::White {
            units.push(format!("{number}. {san}"));
        } else if first {
            units.push(format!("{number}... {san}"));
        } else {
            units.push(san.to_string());
        }
        units.push(format!("{{{comment}}}"));
        first = false;
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    units.push(format!("{{{}}}", g.reason()));
    units.push(g.result.as_str().to_string());
    let mut line = String::new();
    for u in units {
        if !line.is_empty() && line.len() + 1 + u.len() > 79 {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += &u;
    }
    out += &line;
    out += "\n\n";
    out
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

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(today().len(), 10);
    }

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
