//! Opening suites for a match, read by the workspace's `book` crate
//! ([`book::openings`]: EPD and PGN readers, the seeded shuffle and the
//! 1-based start), plus what only the match runner needs:
//!
//! - the `-openings` option's explicit `format=` ([`Format`]) and its
//!   seedless `order=` ([`Order`]; the seed comes from `-srand`);
//! - a second check of every opening by shakmaty, the match's referee: its
//!   start position and moves must be legal for shakmaty too, and the game
//!   must not already be over (no legal move) where it starts;
//! - shakmaty helpers for the referee ([`parse_fen`], [`start_position`],
//!   [`play_uci`]).
//!
//! Skipped lines and openings come back as [`book::LineError`]s: the line in
//! the file for read errors, or the opening's number in the file (from 1,
//! with its FEN) for the referee's objections, which have no line.

use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

pub use book::LineError;
pub use book::openings::Opening;

/// The format of an opening file (`-openings format=epd|pgn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One EPD position a line.
    Epd,
    /// PGN games.
    Pgn,
}

/// The order in which openings are played (`-openings order=...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// File order.
    Sequential,
    /// Shuffled once with the match's seed (`-srand`).
    Random,
}

impl Order {
    /// The `book` crate's order, with the match's seed.
    pub fn with_seed(self, seed: u64) -> book::openings::Order {
        match self {
            Order::Sequential => book::openings::Order::Sequential,
            Order::Random => book::openings::Order::Random { seed },
        }
    }
}

/// Parses a FEN into a legal position (shakmaty), in Chess960 mode where its
/// castling rights need it (`CastlingMode::detect`). shakmaty reads UCI
/// castling in either form in both modes.
pub fn parse_fen(fen: &str) -> Result<Chess, String> {
    let f = Fen::from_ascii(fen.as_bytes()).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let mode = CastlingMode::detect(f.as_setup());
    f.into_position(mode)
        .map_err(|e| format!("illegal position '{fen}': {e}"))
}

/// The opening's start position (before its moves) for the referee.
pub fn start_position(opening: &Opening) -> Result<Chess, String> {
    parse_fen(&opening.fen)
}

/// The opening's moves in UCI notation: castling as `e1g1`, or with
/// `chess960` as the king taking its rook (`e1h1`).
pub fn uci_moves(opening: &Opening, chess960: bool) -> Vec<String> {
    opening
        .moves
        .iter()
        .map(|m| m.uci(chess960).to_string())
        .collect()
}

/// Plays `moves` (UCI) from `start`; the position after them.
pub fn play_uci(start: &Chess, moves: &[String]) -> Result<Chess, String> {
    let mut pos = start.clone();
    for m in moves {
        let u: UciMove = m.parse().map_err(|_| format!("bad UCI move '{m}'"))?;
        let mv = u.to_move(&pos).map_err(|_| format!("illegal move '{m}'"))?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

/// Why the referee cannot start a game from `opening`, if it cannot.
pub fn referee_check(opening: &Opening) -> Result<(), String> {
    let start = start_position(opening)?;
    let pos = play_uci(&start, &uci_moves(opening, false))?;
    if pos.legal_moves().is_empty() {
        return Err("the game is over: no legal move".into());
    }
    Ok(())
}

/// Reads opening text in `format` (`plies` cuts PGN games; EPD openings
/// have no moves): the openings the referee accepts, and what was skipped.
pub fn read(text: &str, format: Format, plies: Option<usize>) -> (Vec<Opening>, Vec<LineError>) {
    let (read, mut errors) = match format {
        Format::Epd => book::openings::read_epd(text),
        Format::Pgn => book::openings::read_pgn(text, plies),
    };
    let mut openings = Vec::with_capacity(read.len());
    for (i, o) in read.into_iter().enumerate() {
        match referee_check(&o) {
            Ok(()) => openings.push(o),
            Err(why) => errors.push(LineError::new(
                0,
                format!("opening {} ({}): {why}", i + 1, o.uci_position()),
            )),
        }
    }
    (openings, errors)
}

/// Reads an opening file (see [`read`]).
pub fn load(
    path: &Path,
    format: Format,
    plies: Option<usize>,
) -> Result<(Vec<Opening>, Vec<LineError>), String> {
    // Leniently (a Latin-1 byte in a tag or comment is no reason to refuse
    // the suite), with the reader every tool of the workspace uses.
    let text = book::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(read(&text, format, plies))
}

/// The openings in playing order (see [`book::openings::arrange`]): round
/// `r` of a match plays `openings[r % openings.len()]`.
pub fn arrange(
    openings: Vec<Opening>,
    order: Order,
    start: usize,
    seed: u64,
) -> Result<Vec<Opening>, String> {
    book::openings::arrange(openings, start, order.with_seed(seed)).map_err(|e| e.to_string())
}

/// A skipped line or opening as a warning: `line N: why`, or, for an
/// opening the referee refused, just the message (it names the opening).
pub fn describe(e: &LineError) -> String {
    if e.line == 0 {
        e.message.clone()
    } else {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_through_the_book_reader() {
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3; id \"x\";

8/8/8/8/8/8/8/8 w - -
rnbqkbnr/pppppppp/8/8 w KQkq
not a fen at all
4k3/8/8/8/8/8/8/4K2R w K - 7 40 c0 \"opcodes after clocks\";
";
        let (o, e) = read(text, Format::Epd, None);
        assert_eq!(o.len(), 3, "{o:?}");
        assert_eq!(
            o[0].fen,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert!(o[1].fen.ends_with(" w KQkq - 2 3"), "{}", o[1].fen);
        assert_eq!(o[2].fen, "4k3/8/8/8/8/8/8/4K2R w K - 7 40");
        assert!(o.iter().all(|o| o.moves.is_empty()));
        let lines: Vec<usize> = e.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![5, 6, 7], "{e:?}");
        assert!(
            describe(&e[0]).starts_with("line 5: "),
            "{}",
            describe(&e[0])
        );
    }

    #[test]
    fn positions_without_legal_moves_are_skipped() {
        // White is checkmated (fool's mate), then stalemate: both are legal
        // positions for the book reader, but no game can start there.
        let text = "\
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
7k/5Q2/6K1/8/8/8/8/8 b - - 0 1
4k3/8/8/8/8/8/8/4K3 w - - 0 1
";
        let (o, e) = read(text, Format::Epd, None);
        assert_eq!(o.len(), 1);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].line, 0);
        assert!(
            describe(&e[0]).starts_with("opening 1 (fen rnb1kbnr/"),
            "{}",
            describe(&e[0])
        );
        assert!(describe(&e[1]).starts_with("opening 2 "), "{e:?}");
    }

    const PGN: &str = r#"[Event "one"]
[White "A"]

1. e4 {best by test} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6!? 3.Bb5 a6 ; a comment
4. Ba4 Nf6 5. O-O 1-0

[Event "two"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
[SetUp "1"]

1. O-O+ Kd7 *

[Event "broken"]

1. e4 e5 2. Ke3 Nf6 1/2-1/2

[Event "four"]

1. d4 d5 2. c4 *
"#;

    #[test]
    fn pgn_games_tags_comments_and_variations() {
        let (o, e) = read(PGN, Format::Pgn, None);
        assert_eq!(o.len(), 3, "{o:?} {e:?}");
        assert_eq!(
            uci_moves(&o[0], false),
            [
                "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"
            ]
        );
        assert!(o[0].is_startpos());
        assert_eq!(o[1].fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(uci_moves(&o[1], false), ["e1g1", "e8d7"]);
        assert_eq!(uci_moves(&o[2], false), ["d2d4", "d7d5", "c2c4"]);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 15);
        assert!(e[0].message.contains("Ke3"), "{}", e[0].message);
    }

    #[test]
    fn pgn_plies_limit() {
        let (o, _) = read(PGN, Format::Pgn, Some(2));
        assert_eq!(uci_moves(&o[0], false), ["e2e4", "e7e5"]);
        // The broken game's bad move is past the limit: it is kept.
        assert_eq!(o.len(), 4);
        assert_eq!(uci_moves(&o[2], false), ["e2e4", "e7e5"]);
    }

    #[test]
    fn play_uci_checks_moves() {
        let start = Chess::default();
        assert!(play_uci(&start, &["e2e4".into(), "e7e5".into()]).is_ok());
        assert!(play_uci(&start, &["e2e5".into()]).is_err());
        assert!(play_uci(&start, &["zz".into()]).is_err());
        assert!(referee_check(&Opening::startpos()).is_ok());
        assert!(start_position(&Opening::startpos()).is_ok());
    }

    #[test]
    fn arranged_in_order_or_shuffled_by_the_seed() {
        let suite: Vec<Opening> = (0..100)
            .map(|i| Opening {
                fen: format!("7k/8/8/8/8/8/8/K7 w - - 0 {}", i + 1),
                moves: Vec::new(),
            })
            .collect();
        let seq = arrange(suite.clone(), Order::Sequential, 1, 0).unwrap();
        assert_eq!(seq, suite);
        let from3 = arrange(suite.clone(), Order::Sequential, 3, 0).unwrap();
        assert_eq!(from3[0], suite[2]);
        assert_eq!(from3[98], suite[0]);
        let a = arrange(suite.clone(), Order::Random, 1, 42).unwrap();
        let b = arrange(suite.clone(), Order::Random, 1, 42).unwrap();
        let c = arrange(suite.clone(), Order::Random, 1, 43).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_ne!(a, suite);
        let mut sorted = a.iter().map(|o| o.fen.clone()).collect::<Vec<_>>();
        sorted.sort();
        let mut expected = suite.iter().map(|o| o.fen.clone()).collect::<Vec<_>>();
        expected.sort();
        assert_eq!(sorted, expected);
        assert!(
            arrange(suite, Order::Sequential, 101, 0)
                .unwrap_err()
                .contains("start 101")
        );
        assert!(arrange(Vec::new(), Order::Random, 1, 0).is_err());
    }
}
