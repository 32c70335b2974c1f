//! The PGN writer: a game's tags (escaped), then its movetext with a
//! comment after each move, a last comment and the result, in lines of at
//! most 79 columns; and today's date as PGN's `Date` tag writes it.

use std::time::{SystemTime, UNIX_EPOCH};

use attacks::Color;

use super::Outcome;

/// The longest line the movetext is wrapped to (a longer single token, a
/// long comment, stands alone on its line).
const LINE_WIDTH: usize = 79;

/// Writes one game as PGN text: tags first, in the order they are given,
/// then the moves from a start side to move and move number, each with its
/// comment, and [`finish`](Writer::finish) ends the game with a last
/// comment and the result.
///
/// ```
/// use book::pgn::{Outcome, Writer};
/// let mut w = Writer::new(attacks::Color::White, 1);
/// w.tag("White", "A \"quoted\" name");
/// w.push_move("e4", "book");
/// w.push_move("e5", "+0.10/3 0.100s");
/// let text = w.finish(Some("White resigns"), Outcome::BlackWins);
/// assert_eq!(
///     text,
///     "[White \"A \\\"quoted\\\" name\"]\n\n1. e4 {book} e5 {+0.10/3 0.100s} {White resigns} 0-1\n\n"
/// );
/// ```
#[derive(Clone, Debug)]
pub struct Writer {
    /// The tag section written so far.
    tags: String,
    /// The movetext's tokens: move numbers with moves, comments.
    units: Vec<String>,
    /// The side to move next, and its move number.
    turn: Color,
    number: u32,
    /// No move is written yet: a first move by Black gets `N...`.
    first: bool,
}

impl Writer {
    /// A writer of a game whose first move is `turn`'s, in move number
    /// `fullmove` (the start position's FEN has both).
    pub fn new(turn: Color, fullmove: u32) -> Writer {
        Writer {
            tags: String::new(),
            units: Vec::new(),
            turn,
            number: fullmove,
            first: true,
        }
    }

    /// Adds the tag pair `[name "value"]`, `\` and `"` in the value escaped.
    pub fn tag(&mut self, name: &str, value: &str) {
        self.tags += &format!("[{name} \"{}\"]\n", escape(value));
    }

    /// Adds the next move, in SAN, and the comment after it (written in
    /// braces): `1. e4 {comment}`, `1... e5` for a first move by Black.
    pub fn push_move(&mut self, san: &str, comment: &str) {
        let number = self.number;
        self.units.push(match self.turn {
            Color::White => format!("{number}. {san}"),
            Color::Black if self.first => format!("{number}... {san}"),
            Color::Black => san.to_string(),
        });
        self.units.push(format!("{{{comment}}}"));
        self.first = false;
        if self.turn == Color::Black {
            self.number += 1;
        }
        self.turn = !self.turn;
    }

    /// The game's text: the tags, a blank line, the movetext ending with
    /// `comment` (if any) and `outcome`, wrapped at 79 columns, and a
    /// blank line after it.
    pub fn finish(mut self, comment: Option<&str>, outcome: Outcome) -> String {
        if let Some(c) = comment {
            self.units.push(format!("{{{c}}}"));
        }
        self.units.push(outcome.to_string());
        let mut out = self.tags;
        out.push('\n');
        out += &wrap(&self.units);
        out += "\n\n";
        out
    }
}

/// `units` joined by spaces into lines of at most [`LINE_WIDTH`] columns
/// (a unit never split), without a line end after the last.
fn wrap(units: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for u in units {
        if !line.is_empty() && line.len() + 1 + u.len() > LINE_WIDTH {
            out += &line;
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += u;
    }
    out += &line;
    out
}

/// A tag value with `\` and `"` escaped, as the reader unescapes them.
fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::{BOOK_COMMENT, MoveComment, Reader, Score};
    use std::time::Duration;

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn long_movetext_wraps_at_79_columns() {
        let mut w = Writer::new(Color::White, 1);
        let mut one_line = Vec::new();
        for n in 1..=20 {
            for san in ["Nf3", "Nf6"] {
                w.push_move(san, "+0.00/10 0.100s");
                one_line.push(if san == "Nf3" {
                    format!("{n}. {san}")
                } else {
                    san.to_string()
                });
                one_line.push("{+0.00/10 0.100s}".to_string());
            }
        }
        one_line.push("1/2-1/2".to_string());
        let text = w.finish(None, Outcome::Draw);
        let movetext = text
            .strip_prefix('\n')
            .unwrap()
            .strip_suffix("\n\n")
            .unwrap();
        let lines: Vec<&str> = movetext.lines().collect();
        assert!(lines.len() > 5, "{text}");
        // Only spaces between tokens become line ends, never one in a comment.
        assert_eq!(lines.join(" "), one_line.join(" "));
        assert!(lines.iter().all(|l| l.len() <= 79), "{text}");
        assert!(
            lines
                .iter()
                .all(|l| l.matches('{').count() == l.matches('}').count()),
            "{text}"
        );
        // Each line is as full as it can be: the next token would not fit.
        for pair in lines.windows(2) {
            let next = one_line
                .iter()
                .find(|u| pair[1].starts_with(u.as_str()))
                .unwrap();
            assert!(pair[0].len() + 1 + next.len() > 79, "{text}");
        }
    }

    /// What the writer writes, the reader reads back: tags, moves, comments
    /// and the outcome.
    #[test]
    fn the_reader_reads_back_what_the_writer_writes() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let tags = [
            ("Event", "round trip"),
            ("White", "A \\ backslash"),
            ("Black", "B \"quoted\""),
            ("FEN", fen),
            ("SetUp", "1"),
        ];
        let engine = |cp, depth, ms| {
            MoveComment {
                score: Some(Score::Cp(cp)),
                depth: Some(depth),
                time: Some(Duration::from_millis(ms)),
            }
            .to_string()
        };
        let moves = [
            ("e5", BOOK_COMMENT.to_string()),
            ("Nf3", engine(35, 12, 512)),
            ("Nc6", engine(-20, 11, 1000)),
            ("Bb5", engine(40, 13, 5)),
            ("a6", engine(-15, 12, 700)),
            ("Ba4", engine(30, 14, 2500)),
            ("Nf6", engine(-25, 12, 333)),
            ("O-O", engine(33, 15, 1234)),
        ];
        let mut w = Writer::new(Color::Black, 1);
        for (name, value) in tags {
            w.tag(name, value);
        }
        for (san, comment) in &moves {
            w.push_move(san, comment);
        }
        let text = w.finish(Some("White wins on time"), Outcome::WhiteWins);

        let game = Reader::new(&text).next().unwrap().unwrap();
        let read: Vec<(&str, &str)> = game
            .tags
            .iter()
            .map(|(n, v)| (n.as_str(), v.as_str()))
            .collect();
        assert_eq!(read, tags);
        assert_eq!(game.start.fen(), fen);
        let mut pos = game.start;
        let sans: Vec<String> = game
            .moves
            .iter()
            .map(|&m| {
                let san = pos.san(m).to_string();
                pos.play_unchecked(m);
                san
            })
            .collect();
        assert_eq!(sans, moves.each_ref().map(|(san, _)| *san));
        let comments: Vec<&str> = game.comments.iter().flatten().map(String::as_str).collect();
        assert_eq!(comments, moves.each_ref().map(|(_, c)| c.as_str()));
        assert_eq!(game.outcome, Outcome::WhiteWins);
    }
}
