//! Opening books: a small EPD reader, a minimal PGN reader, and the order
//! in which a match plays the openings.
//!
//! These readers are deliberately small and local to the match runner; once
//! the workspace's `book` crate (`book::openings::{read_epd, read_pgn,
//! Opening}`) is in, this module can become a thin adapter over it.
//!
//! - **EPD**: one position a line. The first four fields are the FEN's
//!   board, side to move, castling and en passant; fields five and six are
//!   taken as the half-move clock and move number when they are integers;
//!   the rest are opcodes (`hmvc N;` and `fmvn N;` are honoured, the others
//!   ignored). Blank lines and lines starting with `#` are skipped; a line
//!   that is not a legal position is reported with its line number and
//!   skipped.
//! - **PGN**: tag pairs and SAN movetext. Comments (`{...}`, `;...`),
//!   variations (`(...)`), NAGs (`$n`), move numbers and `!?`-style
//!   annotations are skipped; a `FEN` tag gives the start position. SAN is
//!   resolved by shakmaty; a game with an illegal move is reported with the
//!   line of that move and skipped. `plies` keeps only the first moves.

use std::fmt;
use std::path::Path;

use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

/// The standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A start position and the moves played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position's FEN (normalised by shakmaty).
    pub fen: String,
    /// Moves from it, in UCI notation.
    pub moves: Vec<String>,
    /// The 1-based line where the opening starts in its file (0 if none).
    pub line: usize,
}

impl Opening {
    /// The start position, no moves.
    pub fn startpos() -> Opening {
        Opening {
            fen: START_FEN.to_string(),
            moves: Vec::new(),
            line: 0,
        }
    }

    /// Whether it starts from the standard start position.
    pub fn is_startpos(&self) -> bool {
        self.fen == START_FEN
    }

    /// The start position.
    pub fn position(&self) -> Result<Chess, String> {
        parse_fen(&self.fen)
    }
}

/// A line of an opening file that was skipped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningError {
    /// 1-based line number.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// The format of an opening file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One EPD position a line.
    Epd,
    /// PGN games.
    Pgn,
}

/// The order in which openings are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// File order.
    Sequential,
    /// Shuffled once with the match's seed.
    Random,
}

/// Parses a FEN into a legal standard-chess position.
pub fn parse_fen(fen: &str) -> Result<Chess, String> {
    let f = Fen::from_ascii(fen.as_bytes()).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    f.into_position(CastlingMode::Standard)
        .map_err(|e| format!("illegal position '{fen}': {e}"))
}

fn normalised_fen(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Reads EPD text: the openings, and the lines that were skipped.
pub fn read_epd(text: &str) -> (Vec<Opening>, Vec<OpeningError>) {
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match epd_line(line) {
            Ok(pos) => openings.push(Opening {
                fen: normalised_fen(&pos),
                moves: Vec::new(),
                line: i + 1,
            }),
            Err(message) => errors.push(OpeningError {
                line: i + 1,
                message,
            }),
        }
    }
    (openings, errors)
}

fn epd_line(line: &str) -> Result<Chess, String> {
    let fields: Vec<&str> = line.split_ascii_whitespace().collect();
    if fields.len() < 4 {
        return Err(format!(
            "expected at least 4 FEN fields, found {}",
            fields.len()
        ));
    }
    let mut rest = 4;
    let mut clocks = Vec::new();
    while clocks.len() < 2 {
        match fields.get(rest).and_then(|f| f.parse::<u32>().ok()) {
            Some(n) => {
                clocks.push(n);
                rest += 1;
            }
            None => break,
        }
    }
    let opcodes = fields[rest..].join(" ");
    let opcode = |name: &str| -> Option<u32> {
        opcodes.split(';').find_map(|op| {
            let mut w = op.split_ascii_whitespace();
            (w.next() == Some(name))
                .then(|| w.next()?.parse().ok())
                .flatten()
        })
    };
    let halfmoves = clocks
        .first()
        .copied()
        .or_else(|| opcode("hmvc"))
        .unwrap_or(0);
    let fullmoves = clocks
        .get(1)
        .copied()
        .or_else(|| opcode("fmvn"))
        .unwrap_or(1);
    let fen = format!("{} {halfmoves} {}", fields[..4].join(" "), fullmoves.max(1));
    let pos = parse_fen(&fen)?;
    if pos.legal_moves().is_empty() {
        return Err(format!("no legal moves in '{fen}'"));
    }
    Ok(pos)
}

/// Reads PGN text, keeping at most `plies` moves of each game: the
/// openings, and the games that were skipped.
pub fn read_pgn(text: &str, plies: Option<usize>) -> (Vec<Opening>, Vec<OpeningError>) {
    let mut openings = Vec::new();
    let mut errors = Vec::new();
    let mut game = PgnGame::default();
    let mut line = 1;
    let b = text.as_bytes();
    let mut i = 0;
    let mut depth = 0usize; // variation nesting
    let mut at_line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line += 1;
            at_line_start = true;
            i += 1;
            continue;
        }
        let line_start = std::mem::replace(&mut at_line_start, false);
        match c {
            b'%' if line_start => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b';' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'{' => {
                while i < b.len() && b[i] != b'}' {
                    if b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                depth = depth.saturating_sub(1);
                i += 1;
            }
            b'[' if depth == 0 => {
                if game.has_moves() {
                    game.finish(plies, &mut openings, &mut errors);
                }
                let start = i + 1;
                let mut in_quote = false;
                i += 1;
                while i < b.len() && (in_quote || b[i] != b']') && b[i] != b'\n' {
                    if b[i] == b'\\' && in_quote {
                        i += 1;
                    } else if b[i] == b'"' {
                        in_quote = !in_quote;
                    }
                    i += 1;
                }
                game.tag(&text[start..i.min(b.len())], line);
                if i < b.len() && b[i] == b']' {
                    i += 1;
                }
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() && !b"{}();[]".contains(&b[i]) {
                    i += 1;
                }
                if i == start {
                    i += 1; // a stray `}`, `]` or `[` inside a variation
                    continue;
                }
                let token = &text[start..i];
                if depth > 0 {
                    continue;
                }
                match token {
                    "1-0" | "0-1" | "1/2-1/2" | "*" => {
                        game.finish(plies, &mut openings, &mut errors);
                    }
                    t if t.starts_with('$') => {}
                    t => {
                        // `12.`, `12...`, or `12.e4` glued together.
                        let san = t.trim_start_matches(|c: char| c.is_ascii_digit());
                        let san = if san.len() < t.len() {
                            san.trim_start_matches('.')
                        } else {
                            t
                        };
                        let san = san.trim_end_matches(['!', '?']);
                        if !san.is_empty() {
                            game.moves.push((san.to_string(), line));
                        }
                    }
                }
            }
        }
    }
    if game.has_moves() || game.fen.is_some() {
        game.finish(plies, &mut openings, &mut errors);
    }
    (openings, errors)
}

#[derive(Default)]
struct PgnGame {
    first_line: Option<usize>,
    fen: Option<String>,
    moves: Vec<(String, usize)>,
}

impl PgnGame {
    fn has_moves(&self) -> bool {
        !self.moves.is_empty()
    }

    fn tag(&mut self, body: &str, line: usize) {
        self.first_line.get_or_insert(line);
        let body = body.trim();
        let Some((name, value)) = body.split_once(char::is_whitespace) else {
            return;
        };
        let value = value.trim().trim_start_matches('"').trim_end_matches('"');
        if name == "FEN" {
            self.fen = Some(value.to_string());
        }
    }

    fn finish(
        &mut self,
        plies: Option<usize>,
        openings: &mut Vec<Opening>,
        errors: &mut Vec<OpeningError>,
    ) {
        let game = std::mem::take(self);
        let first_line = game
            .first_line
            .or(game.moves.first().map(|m| m.1))
            .unwrap_or(1);
        match game.resolve(plies) {
            Ok((pos, moves)) => openings.push(Opening {
                fen: normalised_fen(&pos),
                moves,
                line: first_line,
            }),
            Err(e) => errors.push(e),
        }
    }

    fn resolve(&self, plies: Option<usize>) -> Result<(Chess, Vec<String>), OpeningError> {
        let first_line = self.first_line.unwrap_or(1);
        let start = match &self.fen {
            Some(fen) => parse_fen(fen).map_err(|message| OpeningError {
                line: first_line,
                message,
            })?,
            None => Chess::default(),
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for (san, line) in self.moves.iter().take(plies.unwrap_or(usize::MAX)) {
            let err = |message: String| OpeningError {
                line: *line,
                message,
            };
            let parsed = SanPlus::from_ascii(san.as_bytes())
                .map_err(|_| err(format!("'{san}' is not SAN")))?;
            let m = parsed
                .san
                .to_move(&pos)
                .map_err(|e| err(format!("'{san}' in '{}': {e}", normalised_fen(&pos))))?;
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        Ok((start, moves))
    }
}

/// Reads an opening file.
pub fn load(
    path: &Path,
    format: Format,
    plies: Option<usize>,
) -> Result<(Vec<Opening>, Vec<OpeningError>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(match format {
        Format::Epd => {
            let (mut o, e) = read_epd(&text);
            // `plies` only shortens PGN lines; EPD openings have no moves.
            o.iter_mut()
                .for_each(|o| o.moves.truncate(plies.unwrap_or(usize::MAX)));
            (o, e)
        }
        Format::Pgn => read_pgn(&text, plies),
    })
}

/// Plays `moves` (UCI) from the opening's start; the position after them.
pub fn play_uci(start: &Chess, moves: &[String]) -> Result<Chess, String> {
    let mut pos = start.clone();
    for m in moves {
        let u: UciMove = m.parse().map_err(|_| format!("bad UCI move '{m}'"))?;
        let mv = u.to_move(&pos).map_err(|_| format!("illegal move '{m}'"))?;
        pos.play_unchecked(mv);
    }
    Ok(pos)
}

/// SplitMix64: a small, well-mixed generator for shuffling (`-srand`).
#[derive(Clone, Copy, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// Which opening each round plays: from the `start`-th (1-based) opening
/// on, in file order or shuffled once with the seed, wrapping around.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    order: Vec<usize>,
    first: usize,
}

impl Schedule {
    /// A schedule over `count` openings (`count > 0`).
    pub fn new(count: usize, order: Order, start: usize, seed: u64) -> Schedule {
        let mut book: Vec<usize> = (0..count.max(1)).collect();
        if order == Order::Random {
            let mut rng = SplitMix64(seed);
            for i in (1..book.len()).rev() {
                book.swap(i, rng.below(i + 1));
            }
        }
        Schedule {
            first: start.saturating_sub(1) % book.len(),
            order: book,
        }
    }

    /// The opening index of round `round` (0-based).
    pub fn get(&self, round: usize) -> usize {
        self.order[(self.first + round) % self.order.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_fields_clocks_and_opcodes() {
        let text = "\
# a comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - hmvc 2; fmvn 3; id \"x\";

8/8/8/8/8/8/8/8 w - -
rnbqkbnr/pppppppp/8/8 w KQkq
not a fen at all
4k3/8/8/8/8/8/8/4K2R w K - 7 40 c0 \"opcodes after clocks\";
";
        let (o, e) = read_epd(text);
        assert_eq!(o.len(), 3, "{o:?}");
        // The e3 square is dropped: no black pawn can take en passant.
        assert_eq!(
            o[0].fen,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(o[0].line, 2);
        assert!(o[1].fen.ends_with(" w KQkq - 2 3"), "{}", o[1].fen);
        assert_eq!(o[2].fen, "4k3/8/8/8/8/8/8/4K2R w K - 7 40");
        assert_eq!(o[2].line, 8);
        let lines: Vec<usize> = e.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![5, 6, 7]);
        assert!(e[0].to_string().starts_with("line 5: illegal position"));
    }

    #[test]
    fn epd_without_legal_moves_is_skipped() {
        // Black is checkmated (fool's mate).
        let (o, e) = read_epd("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n");
        assert!(o.is_empty());
        assert_eq!(e.len(), 1);
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

% escaped line
1. d4 d5 2. c4 *
"#;

    #[test]
    fn pgn_games_tags_comments_and_variations() {
        let (o, e) = read_pgn(PGN, None);
        assert_eq!(o.len(), 3, "{o:?} {e:?}");
        assert_eq!(
            o[0].moves,
            [
                "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1"
            ]
        );
        assert!(o[0].is_startpos());
        assert_eq!(o[0].line, 1);
        assert_eq!(o[1].fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(o[1].moves, ["e1g1", "e8d7"]);
        assert_eq!(o[2].moves, ["d2d4", "d7d5", "c2c4"]);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 15);
        assert!(e[0].message.contains("Ke3"), "{}", e[0].message);
    }

    #[test]
    fn pgn_plies_limit() {
        let (o, _) = read_pgn(PGN, Some(2));
        assert_eq!(o[0].moves, ["e2e4", "e7e5"]);
        // The broken game's bad move is past the limit: it is kept.
        assert_eq!(o.len(), 4);
        assert_eq!(o[2].moves, ["e2e4", "e7e5"]);
        let (o, e) = read_pgn("1. e4 } ] e5 (1... c5 [ 2. Nf3) *", None);
        assert_eq!((o[0].moves.len(), e.len()), (2, 0));
    }

    #[test]
    fn play_uci_checks_moves() {
        let start = Chess::default();
        assert!(play_uci(&start, &["e2e4".into(), "e7e5".into()]).is_ok());
        assert!(play_uci(&start, &["e2e5".into()]).is_err());
        assert!(play_uci(&start, &["zz".into()]).is_err());
    }

    #[test]
    fn schedules() {
        let take = |s: &Schedule, n| (0..n).map(|r| s.get(r)).collect::<Vec<_>>();
        let seq = Schedule::new(3, Order::Sequential, 1, 0);
        assert_eq!(take(&seq, 5), vec![0, 1, 2, 0, 1]);
        let from3 = Schedule::new(3, Order::Sequential, 3, 0);
        assert_eq!(take(&from3, 4), vec![2, 0, 1, 2]);
        let a = take(&Schedule::new(100, Order::Random, 1, 42), 100);
        let b = take(&Schedule::new(100, Order::Random, 1, 42), 100);
        let c = take(&Schedule::new(100, Order::Random, 1, 43), 100);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..100).collect::<Vec<_>>());
    }
}
