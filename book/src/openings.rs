//! Opening suites for matches: start positions from EPD or PGN files, in
//! file order or shuffled with a seed, from any starting index.
//!
//! A match runner reads a suite once, arranges it, and gives each opening to
//! a pair of games (one with each colour):
//!
//! ```
//! use book::openings::{self, Order};
//!
//! let pgn = "[Event \"a\"]\n1. e4 e5 2. Nf3 *\n\n[Event \"b\"]\n1. d4 d5 *\n";
//! let (suite, errors) = openings::read_pgn(pgn, Some(2)); // 2 plies each
//! assert!(errors.is_empty());
//! let suite = openings::arrange(suite, 1, Order::Sequential).unwrap();
//! let first = &suite[0];
//! assert_eq!(first.uci_position(), "startpos moves e2e4 e7e5");
//! assert_eq!(
//!     first.final_fen().unwrap(),
//!     "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
//! );
//! ```
//!
//! EPD lines are a FEN's first four fields, then either the two clocks or
//! EPD operations (`hmvc 0; fmvn 1; id "x";`); `hmvc`/`fmvn` set the clocks.
//! Blank lines and lines starting with `#` are skipped. Every problem is a
//! [`LineError`] with its line, and that opening is left out.

use std::fmt;
use std::io;
use std::path::Path;

use movegen::{FenError, Move, MoveError, Position, STARTING_FEN};

use crate::error::LineError;
use crate::pgn::Reader;
use rng::Rng;

/// One opening: a start position and moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position's FEN, with all six fields.
    pub fen: String,
    /// The moves played from `fen` (none for EPD openings).
    pub moves: Vec<Move>,
}

/// Why an [`Opening`] made by hand does not describe a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The FEN is not a legal position.
    Fen(FenError),
    /// The move at `ply` (0-based) is not legal there.
    Move {
        /// The index of the move in [`Opening::moves`].
        ply: usize,
        /// Why it is not legal.
        error: MoveError,
    },
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningError::Fen(e) => e.fmt(f),
            OpeningError::Move { ply, error } => write!(f, "ply {}: {error}", ply + 1),
        }
    }
}

impl std::error::Error for OpeningError {}

impl Opening {
    /// The standard start position, no moves.
    pub fn startpos() -> Opening {
        Opening {
            fen: STARTING_FEN.to_owned(),
            moves: Vec::new(),
        }
    }

    /// Whether the opening starts from the standard start position (then
    /// games send `position startpos`).
    pub fn is_startpos(&self) -> bool {
        self.fen == STARTING_FEN
    }

    /// An opening of a start position alone.
    pub fn from_position(pos: &Position) -> Opening {
        Opening {
            fen: pos.fen(),
            moves: Vec::new(),
        }
    }

    /// The start position. Openings read by this module always have one;
    /// the error is for openings built by hand.
    pub fn start_position(&self) -> Result<Position, OpeningError> {
        Position::from_fen(&self.fen).map_err(OpeningError::Fen)
    }

    /// The position after the moves: where the games start.
    pub fn position(&self) -> Result<Position, OpeningError> {
        let mut pos = self.start_position()?;
        for (ply, &m) in self.moves.iter().enumerate() {
            pos.try_play(m)
                .map_err(|error| OpeningError::Move { ply, error })?;
        }
        Ok(pos)
    }

    /// The FEN after the moves (six fields).
    pub fn final_fen(&self) -> Result<String, OpeningError> {
        self.position().map(|p| p.fen())
    }

    /// Where a UCI `position` command starts: `startpos`, or `fen FEN`.
    pub fn uci_start(&self) -> String {
        if self.is_startpos() {
            "startpos".to_owned()
        } else {
            format!("fen {}", self.fen)
        }
    }

    /// The arguments of a UCI `position` command for this opening:
    /// `startpos` or `fen <FEN>`, then `moves <m1> <m2>...` if there are
    /// moves (castling as `e1g1`).
    pub fn uci_position(&self) -> String {
        let mut s = self.uci_start();
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.to_string());
            }
        }
        s
    }
}

/// The openings of an EPD text, one per line, and the lines that could not
/// be read.
pub fn read_epd(text: &str) -> (Vec<Opening>, Vec<LineError>) {
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match epd_line(line) {
            Ok(o) => openings.push(o),
            Err(message) => errors.push(LineError::new(i + 1, message)),
        }
    }
    (openings, errors)
}

fn epd_line(line: &str) -> Result<Opening, String> {
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "expected a FEN's first four fields (board, side, castling, en passant): '{line}'"
        ));
    }
    let (mut halfmoves, mut fullmoves) = ("0".to_owned(), "1".to_owned());
    let rest = &fields[4..];
    if rest.len() >= 2
        && rest[0].bytes().all(|b| b.is_ascii_digit())
        && rest[1].bytes().all(|b| b.is_ascii_digit())
    {
        // A plain FEN with its clocks (maybe with operations after them).
        halfmoves = rest[0].to_owned();
        fullmoves = rest[1].to_owned();
    } else {
        for op in rest.join(" ").split(';') {
            let mut words = op.split_ascii_whitespace();
            match (words.next(), words.next()) {
                (Some("hmvc"), Some(n)) => halfmoves = n.to_owned(),
                (Some("fmvn"), Some(n)) => fullmoves = n.to_owned(),
                _ => {}
            }
        }
    }
    let fen = format!("{} {halfmoves} {fullmoves}", fields[..4].join(" "));
    let pos: Position = Position::from_fen(&fen).map_err(|e| format!("{e}: '{fen}'"))?;
    Ok(Opening::from_position(&pos))
}

/// The openings of a PGN text, one per game: the game's start position
/// (its `FEN` tag, or the standard one) and its first `plies` moves (all of
/// them with `None`); and the games that could not be read.
pub fn read_pgn(text: &str, plies: Option<usize>) -> (Vec<Opening>, Vec<LineError>) {
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    for game in Reader::new(text).max_plies(plies) {
        match game {
            Ok(g) => openings.push(Opening {
                fen: g.start.fen(),
                moves: g.moves,
            }),
            Err(e) => errors.push(e),
        }
    }
    (openings, errors)
}

/// Reads a suite file: PGN if its name ends in `.pgn` (any case), EPD
/// otherwise. `plies` applies to PGN only. Read leniently, by
/// [`crate::read_text`].
pub fn read_file(
    path: impl AsRef<Path>,
    plies: Option<usize>,
) -> io::Result<(Vec<Opening>, Vec<LineError>)> {
    let path = path.as_ref();
    let text = crate::read_text(path)?;
    let is_pgn = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"));
    Ok(if is_pgn {
        read_pgn(&text, plies)
    } else {
        read_epd(&text)
    })
}

/// The order in which a match plays a suite's openings.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// As in the file.
    Sequential,
    /// Shuffled; the same seed gives the same order.
    Random {
        /// The seed of the shuffle.
        seed: u64,
    },
}

/// A `start` that is not an opening's number.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StartError {
    /// The `start` asked for.
    pub start: usize,
    /// How many openings there are.
    pub len: usize,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.len == 0 {
            write!(f, "the opening suite is empty")
        } else {
            write!(
                f,
                "start {} is not between 1 and the number of openings, {}",
                self.start, self.len
            )
        }
    }
}

impl std::error::Error for StartError {}

/// The openings in the order a match plays them: put in `order`, then
/// rotated so that the `start`-th (1-based, in that order) comes first and
/// the ones before it come last. With the same seed and the `start` where
/// an interrupted match stopped, the match goes on where it left off.
///
/// Fails if `start` is not in `1..=openings.len()` (so also on an empty
/// suite).
pub fn arrange(
    mut openings: Vec<Opening>,
    start: usize,
    order: Order,
) -> Result<Vec<Opening>, StartError> {
    if !(1..=openings.len()).contains(&start) {
        return Err(StartError {
            start,
            len: openings.len(),
        });
    }
    if let Order::Random { seed } = order {
        Rng::new(seed).shuffle(&mut openings);
    }
    openings.rotate_left(start - 1);
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_lines_of_every_shape() {
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
r3k2r/8/8/8/8/8/8/R3K2R w KQkq - bm O-O; id \"castles\";

4k3/8/8/8/8/8/8/4K3 w - - hmvc 12; fmvn 40; id \"kings\";
8/8/8 w - - 0 1
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR
4k3/8/8/8/8/8/8/4K3 w - - 3 60
";
        let (openings, errors) = read_epd(text);
        let fens: Vec<&str> = openings.iter().map(|o| o.fen.as_str()).collect();
        assert_eq!(
            fens,
            [
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                "4k3/8/8/8/8/8/8/4K3 w - - 12 40",
                "4k3/8/8/8/8/8/8/4K3 w - - 3 60",
            ]
        );
        assert!(openings.iter().all(|o| o.moves.is_empty()));
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [6, 7]);
        assert!(errors[0].message.contains("8/8/8"), "{}", errors[0]);
        assert!(errors[1].message.contains("four fields"), "{}", errors[1]);
        assert_eq!(openings[0].final_fen().unwrap(), openings[0].fen);
        assert_eq!(
            openings[2].uci_position(),
            "fen 4k3/8/8/8/8/8/8/4K3 w - - 12 40"
        );
    }

    #[test]
    fn pgn_openings_cut_to_plies() {
        let text = "\
[Event \"one\"]
1. e4 c5 2. Nf3 d6 3. d4 cxd4 *

[Event \"bad\"]
1. e4 e5 2. Ke3 *

[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]
1. e4 Kd7 2. e5 1/2-1/2
";
        let (all, errors) = read_pgn(text, None);
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 5);
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].moves.len(), 6);
        assert_eq!(all[0].fen, STARTING_FEN);
        assert_eq!(all[1].fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(
            all[1].uci_position(),
            "fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 moves e2e4 e8d7 e4e5"
        );
        let (cut, errors) = read_pgn(text, Some(2));
        // The bad move is past ply 2: that game's opening is fine now.
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(cut.len(), 3);
        assert!(cut.iter().all(|o| o.moves.len() == 2));
        assert_eq!(
            cut[0].final_fen().unwrap(),
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"
        );
        assert_eq!(cut[1].uci_position(), "startpos moves e2e4 e7e5");
        let (none, _) = read_pgn(text, Some(0));
        assert!(none.iter().all(|o| o.moves.is_empty()));
    }

    #[test]
    fn hand_made_openings_are_checked() {
        let start: Position = Position::startpos();
        let e4 = start.parse_uci("e2e4").unwrap();
        let bad = Opening {
            fen: STARTING_FEN.to_owned(),
            moves: vec![e4, e4],
        };
        assert!(matches!(
            bad.position(),
            Err(OpeningError::Move { ply: 1, .. })
        ));
        assert!(
            bad.final_fen()
                .unwrap_err()
                .to_string()
                .starts_with("ply 2")
        );
        let bad_fen = Opening {
            fen: "nonsense".to_owned(),
            moves: Vec::new(),
        };
        assert!(matches!(bad_fen.position(), Err(OpeningError::Fen(_))));
        assert_eq!(Opening::from_position(&start).uci_position(), "startpos");
    }

    fn numbered(n: usize) -> Vec<Opening> {
        // Distinct openings: the full-move number tells them apart.
        (0..n)
            .map(|i| Opening {
                fen: format!("7k/8/8/8/8/8/8/K7 w - - 0 {}", i + 1),
                moves: Vec::new(),
            })
            .collect()
    }

    #[test]
    fn arrange_sequential_and_random() {
        let suite = numbered(10);
        let seq = arrange(suite.clone(), 1, Order::Sequential).unwrap();
        assert_eq!(seq, suite);
        let from4 = arrange(suite.clone(), 4, Order::Sequential).unwrap();
        assert_eq!(from4[0], suite[3]);
        assert_eq!(from4[6], suite[9]);
        assert_eq!(from4[7], suite[0]);
        let r1 = arrange(suite.clone(), 1, Order::Random { seed: 9 }).unwrap();
        let r1again = arrange(suite.clone(), 1, Order::Random { seed: 9 }).unwrap();
        let r2 = arrange(suite.clone(), 1, Order::Random { seed: 10 }).unwrap();
        assert_eq!(r1, r1again);
        assert_ne!(r1, suite);
        assert_ne!(r1, r2);
        let r1from3 = arrange(suite.clone(), 3, Order::Random { seed: 9 }).unwrap();
        assert_eq!(r1from3[0], r1[2]);
        let mut sorted = r1.iter().map(|o| o.fen.clone()).collect::<Vec<_>>();
        sorted.sort();
        let mut expected = suite.iter().map(|o| o.fen.clone()).collect::<Vec<_>>();
        expected.sort();
        assert_eq!(sorted, expected);
        assert_eq!(
            arrange(suite.clone(), 0, Order::Sequential),
            Err(StartError { start: 0, len: 10 })
        );
        assert!(arrange(suite, 11, Order::Sequential).is_err());
        assert_eq!(
            arrange(Vec::new(), 1, Order::Sequential)
                .unwrap_err()
                .to_string(),
            "the opening suite is empty"
        );
    }

    #[test]
    fn read_file_picks_the_reader_by_extension() {
        let dir = std::env::temp_dir().join(format!("book-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("suite.PGN");
        std::fs::write(&pgn, "1. e4 e5 2. Nf3 *\n").unwrap();
        let (o, e) = read_file(&pgn, Some(1)).unwrap();
        assert!(e.is_empty());
        assert_eq!(o[0].moves.len(), 1);
        let epd = dir.join("suite.epd");
        std::fs::write(&epd, "4k3/8/8/8/8/8/8/4K3 b - -\n").unwrap();
        let (o, e) = read_file(&epd, Some(1)).unwrap();
        assert!(e.is_empty());
        assert_eq!(o[0].fen, "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
        assert!(read_file(dir.join("missing.epd"), None).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
