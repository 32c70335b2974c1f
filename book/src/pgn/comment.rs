//! The comment that match runners (cutechess-cli, fastchess,
//! `borrow-match`) write after each engine move, `{+0.35/12 0.512s}` or
//! `{-M3/20 1.000s}` ([`MoveComment`], its [`Score`]), and `{book}` after
//! an opening move ([`BOOK_COMMENT`]): written and read here, for the
//! runner that writes it and the tools that read it.

use std::fmt;
use std::time::Duration;

/// The comment after an opening move that no engine played: `{book}`.
pub const BOOK_COMMENT: &str = "book";

/// An engine's evaluation, from its own point of view (the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Reads a score as its `Display` form (or cutechess-cli, fastchess)
    /// writes it: `+0.34`, `-1.20`, `0.00`, `+12.5`, `+M5`, `-M3`; at most
    /// two decimals and 300 whole pawns, mates in 1 to 500 moves. Anything else
    /// (`book`, a time, prose, `-M0`) is `None`.
    pub fn from_pgn(word: &str) -> Option<Score> {
        let (sign, unsigned) = match word.as_bytes().first()? {
            b'-' => (-1, &word[1..]),
            b'+' => (1, &word[1..]),
            _ => (1, word),
        };
        if let Some(moves) = unsigned.strip_prefix('M') {
            let n: i32 = moves
                .parse()
                .ok()
                .filter(|&n: &i32| (1..=500).contains(&n))?;
            return Some(Score::Mate(sign * n));
        }
        let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !digits(int) || !(frac.is_empty() || digits(frac)) || frac.len() > 2 {
            return None;
        }
        let pawns: i32 = int.parse().ok().filter(|&p: &i32| p <= 300)?;
        let hundredths: i32 = format!("{frac:0<2}").parse().ok()?;
        Some(Score::Cp(sign * (pawns * 100 + hundredths)))
    }
}

impl fmt::Display for Score {
    /// The PGN comment form: `+0.35`, `-1.20`, `+M3`, `-M2` (in pawns, two
    /// decimals, always signed; a mate in moves).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(cp) => {
                let sign = if cp < 0 { '-' } else { '+' };
                let a = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Mate(m) if m > 0 => write!(f, "+M{m}"),
            Score::Mate(m) => write!(f, "-M{}", m.unsigned_abs()),
        }
    }
}

/// The comment after an engine's move in a match PGN, cutechess style:
/// the score from the mover's side and the depth, then the time the move
/// took, `+0.35/12 0.512s` (each part may be missing: `0.005s`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveComment {
    /// The engine's last score.
    pub score: Option<Score>,
    /// Its last depth: written only after a score.
    pub depth: Option<u32>,
    /// The time the move took: written in milliseconds (`0.512s`).
    pub time: Option<Duration>,
}

impl MoveComment {
    /// Reads a move comment: the score (and `/depth`) from the first word,
    /// when it is one ([`Score::from_pgn`]), then the time from the next
    /// word when it is seconds (`0.512s`, `1s,`). Whatever follows (a
    /// runner's `, White mates`) is not read, and a comment that is none
    /// (`book`, prose) reads as no score, no depth and no time.
    pub fn parse(comment: &str) -> MoveComment {
        let mut words = comment.split_whitespace();
        let mut read = MoveComment::default();
        let mut word = words.next();
        if let Some(w) = word {
            let (value, depth) = match w.split_once('/') {
                Some((v, d)) => (v, Some(d)),
                None => (w, None),
            };
            if let Some(score) = Score::from_pgn(value) {
                read.score = Some(score);
                read.depth = depth.and_then(|d| d.parse().ok());
                word = words.next();
            }
        }
        read.time = word.and_then(seconds);
        read
    }
}

/// `0.512s` (or `1s`, and a `,` after it) as a duration: up to nine
/// decimals, so the milliseconds that are written read back exactly.
fn seconds(word: &str) -> Option<Duration> {
    let number = word.strip_suffix(',').unwrap_or(word).strip_suffix('s')?;
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || frac.len() > 9 {
        return None;
    }
    let nanos: u32 = format!("{frac:0<9}").parse().ok()?;
    Some(Duration::new(int.parse().ok()?, nanos))
}

impl fmt::Display for MoveComment {
    /// `+0.35/12 0.512s`, `-M3 1.000s`, `0.005s`: the parts there are.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut space = "";
        if let Some(score) = self.score {
            write!(f, "{score}")?;
            if let Some(depth) = self.depth {
                write!(f, "/{depth}")?;
            }
            space = " ";
        }
        if let Some(time) = self.time {
            write!(f, "{space}{:.3}s", time.as_secs_f64())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_written_read_back() {
        for (score, text) in [
            (Score::Cp(35), "+0.35"),
            (Score::Cp(-120), "-1.20"),
            (Score::Cp(-5), "-0.05"),
            (Score::Cp(0), "+0.00"),
            (Score::Cp(30_000), "+300.00"),
            (Score::Mate(3), "+M3"),
            (Score::Mate(-2), "-M2"),
            (Score::Mate(500), "+M500"),
        ] {
            assert_eq!(score.to_string(), text);
            assert_eq!(Score::from_pgn(text), Some(score), "{text}");
        }
        // Other tools' forms.
        assert_eq!(Score::from_pgn("12.5"), Some(Score::Cp(1250)));
        assert_eq!(Score::from_pgn("-0.07"), Some(Score::Cp(-7)));
        assert_eq!(Score::from_pgn("M4"), Some(Score::Mate(4)));
        for bad in [
            "", "-", "+", "book", "0.512s", "+M0", "-M0", "+M501", "+1.234", "+.5", "+301.00",
            "1e3", "+-1",
        ] {
            assert_eq!(Score::from_pgn(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn move_comments_written_read_back() {
        let ms = Duration::from_millis;
        for (comment, text) in [
            (
                MoveComment {
                    score: Some(Score::Cp(35)),
                    depth: Some(12),
                    time: Some(ms(512)),
                },
                "+0.35/12 0.512s",
            ),
            (
                MoveComment {
                    score: Some(Score::Cp(-120)),
                    depth: Some(15),
                    time: Some(ms(1_200)),
                },
                "-1.20/15 1.200s",
            ),
            (
                MoveComment {
                    score: Some(Score::Mate(5)),
                    depth: Some(20),
                    time: Some(ms(10)),
                },
                "+M5/20 0.010s",
            ),
            (
                MoveComment {
                    score: Some(Score::Mate(-3)),
                    depth: Some(20),
                    time: Some(ms(1_000)),
                },
                "-M3/20 1.000s",
            ),
            (
                MoveComment {
                    score: Some(Score::Cp(7)),
                    depth: None,
                    time: Some(ms(0)),
                },
                "+0.07 0.000s",
            ),
            (
                MoveComment {
                    score: None,
                    depth: None,
                    time: Some(ms(5)),
                },
                "0.005s",
            ),
            (MoveComment::default(), ""),
        ] {
            assert_eq!(comment.to_string(), text);
            assert_eq!(MoveComment::parse(text), comment, "{text:?}");
        }
        // A depth without a score is not written.
        let depth_alone = MoveComment {
            score: None,
            depth: Some(9),
            time: Some(ms(5)),
        };
        assert_eq!(depth_alone.to_string(), "0.005s");
        // The book comment, prose and other tools' forms.
        assert_eq!(MoveComment::parse(BOOK_COMMENT), MoveComment::default());
        assert_eq!(MoveComment::parse("White mates"), MoveComment::default());
        assert_eq!(
            MoveComment::parse("-M1/1 0.002s, White mates"),
            MoveComment {
                score: Some(Score::Mate(-1)),
                depth: Some(1),
                time: Some(ms(2)),
            }
        );
        assert_eq!(
            MoveComment::parse("+0.34/x 1s"),
            MoveComment {
                score: Some(Score::Cp(34)),
                depth: None,
                time: Some(Duration::from_secs(1)),
            }
        );
    }
}
