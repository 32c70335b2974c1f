//! A PGN reader: games with their tags, start position, moves (SAN checked
//! against the legal moves) and result.
//!
//! What it understands, from the PGN standard:
//! - tag pairs `[Name "value"]` with `\"` and `\\` escapes; a `FEN` tag sets
//!   the start position; a `Variant` tag other than standard chess makes the
//!   game unusable;
//! - movetext: SAN moves (`Nf3`, `exd6`, `O-O`, `e8=Q+`, `0-0` too), move
//!   numbers (`12.`, `12...`, `12.e4`), the results `1-0`, `0-1`, `1/2-1/2`
//!   and `*` that end a game;
//! - comments `{ ... }` (across lines): the first after each main-line move
//!   is kept ([`Game::comments`]: match PGNs put the engine's score there);
//! - things that are skipped: other comments, `; ...` to the end of the
//!   line, variations `( ... )` (nested), NAGs `$n` and `!`, `?`, `!!`,
//!   `?!`..., and lines starting with `%`.
//!
//! A game with a problem (an illegal or ambiguous move, an unknown token, an
//! unclosed comment, a bad FEN tag, no result before the next game or the
//! end of the file) is reported as a [`LineError`] with the line of the
//! problem, and reading goes on with the next game.

use std::fmt;

use attacks::Color;
use movegen::{Move, Position};

use crate::error::LineError;

mod lexer;

use lexer::{Lexer, Tok, Token};

/// How a game ended, from its termination marker.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: unfinished or unknown.
    Unknown,
}

impl Outcome {
    /// The points of `color` on Polyglot's scale: win 2, draw 1, loss 0; an
    /// unknown result counts as a draw, as in `polyglot make-book`.
    pub fn points(self, color: Color) -> u32 {
        match (self, color) {
            (Outcome::WhiteWins, Color::White) | (Outcome::BlackWins, Color::Black) => 2,
            (Outcome::WhiteWins, Color::Black) | (Outcome::BlackWins, Color::White) => 0,
            (Outcome::Draw | Outcome::Unknown, _) => 1,
        }
    }
}

impl fmt::Display for Outcome {
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unknown => "*",
        })
    }
}

/// One game read from PGN.
#[derive(Clone, Debug)]
pub struct Game {
    /// The line where the game starts (its first tag or move).
    pub line: usize,
    /// The tag pairs in file order, unescaped.
    pub tags: Vec<(String, String)>,
    /// The start position: the `FEN` tag's, or the standard one.
    pub start: Position,
    /// The moves of the main line, played from [`start`](Self::start); only
    /// the first `max_plies` when the reader was given a limit.
    pub moves: Vec<Move>,
    /// The text of the first comment after each of [`moves`](Self::moves)
    /// (before the next move, outside variations), trimmed.
    pub comments: Vec<Option<String>>,
    /// The result given by the game's termination marker.
    pub outcome: Outcome,
}

impl Game {
    /// The value of the first tag called `name` (exact case), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads every game of `text`: the games that could be read, and one error
/// for each game that could not (with the line of the problem).
///
/// ```
/// let pgn = "[Event \"x\"]\n\n1. e4 {best by test} e5 2. Nf3 (2. f4) Nc6 1-0\n";
/// let (games, errors) = book::pgn::read_games(pgn);
/// assert!(errors.is_empty());
/// assert_eq!(games[0].moves.len(), 4);
/// assert_eq!(games[0].outcome, book::pgn::Outcome::WhiteWins);
/// ```
pub fn read_games(text: &str) -> (Vec<Game>, Vec<LineError>) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for g in Reader::new(text) {
        match g {
            Ok(game) => games.push(game),
            Err(e) => errors.push(e),
        }
    }
    (games, errors)
}

/// An iterator over the games of a PGN text: `Ok` for a game read, `Err` for
/// a game skipped because of a problem.
pub struct Reader<'a> {
    lexer: Lexer<'a>,
    pushed_back: Option<Token<'a>>,
    max_plies: Option<usize>,
}

impl<'a> Reader<'a> {
    /// A reader of the games of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            lexer: Lexer::new(text),
            pushed_back: None,
            max_plies: None,
        }
    }

    /// Keeps only the first `plies` moves of each game (`None`: all). The
    /// moves after them are read as tokens but not checked, which is quicker
    /// and lets a game with a bad move late on still give its opening.
    pub fn max_plies(mut self, plies: Option<usize>) -> Reader<'a> {
        self.max_plies = plies;
        self
    }

    fn token(&mut self) -> Result<Token<'a>, LineError> {
        match self.pushed_back.take() {
            Some(t) => Ok(t),
            None => self.lexer.next_token(),
        }
    }

    /// Reads `Name "value"]` after a `[`.
    fn tag(&mut self) -> Result<(String, String), LineError> {
        let name = self.token()?;
        let Tok::Symbol(n) = name.tok else {
            let line = name.line;
            self.pushed_back = Some(name);
            return Err(LineError::new(
                line,
                "malformed tag: expected a tag name after '['",
            ));
        };
        let value = self.token()?;
        let Tok::Str(v) = value.tok else {
            let line = value.line;
            self.pushed_back = Some(value);
            return Err(LineError::new(
                line,
                format!("malformed tag {n}: expected a quoted value"),
            ));
        };
        let close = self.token()?;
        if close.tok != Tok::Close {
            let line = close.line;
            self.pushed_back = Some(close);
            return Err(LineError::new(
                line,
                format!("malformed tag {n}: expected ']'"),
            ));
        }
        Ok((n.to_owned(), v))
    }
}

/// What the reader has of the game being read.
struct Partial {
    line: usize,
    tags: Vec<(String, String)>,
    position: Position,
    start: Position,
    moves: Vec<Move>,
    comments: Vec<Option<String>>,
    /// The last main-line token was a kept move (numbers and NAGs aside).
    after_move: bool,
    in_movetext: bool,
    depth: usize,
    /// The first problem; once set, tokens are skipped to the game's end.
    failed: Option<LineError>,
}

impl Partial {
    fn fail(&mut self, e: LineError) {
        if self.failed.is_none() {
            self.failed = Some(e);
        }
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Game, LineError>;

    fn next(&mut self) -> Option<Result<Game, LineError>> {
        let mut game: Option<Partial> = None;
        loop {
            let token = match self.token() {
                Ok(t) => t,
                Err(e) => match game.as_mut() {
                    Some(g) => {
                        g.fail(e);
                        continue;
                    }
                    // Between games: reported alone, not held against the next game.
                    None => return Some(Err(e)),
                },
            };
            if token.tok == Tok::Eof {
                let g = game?;
                return Some(Err(g.failed.unwrap_or_else(|| {
                    LineError::new(
                        token.line,
                        "the game has no result (1-0, 0-1, 1/2-1/2 or *) before the end of the file",
                    )
                })));
            }
            if game.is_none() && matches!(token.tok, Tok::Comment(_)) {
                // A comment between games belongs to neither.
                continue;
            }
            let line = token.line;
            let g = game.get_or_insert_with(|| Partial::new(line));
            match token.tok {
                Tok::Eof => unreachable!("handled above"),
                Tok::Open if g.in_movetext => {
                    // A new game starts before this one ended.
                    self.pushed_back = Some(token);
                    return Some(Err(g.failed.take().unwrap_or_else(|| {
                        LineError::new(
                            line,
                            "the game has no result (1-0, 0-1, 1/2-1/2 or *) before the next game's tags",
                        )
                    })));
                }
                Tok::Open => match self.tag() {
                    Ok((name, value)) => {
                        if g.failed.is_none()
                            && let Err(e) = g.apply_tag(&name, &value, line)
                        {
                            g.fail(e);
                        }
                        g.tags.push((name, value));
                    }
                    Err(e) => g.fail(e),
                },
                Tok::Result(outcome) => {
                    if g.failed.is_none() && g.depth > 0 {
                        g.fail(LineError::new(
                            line,
                            "the game ends inside a variation: a '(' is not closed",
                        ));
                    }
                    let g = game.take()?;
                    return Some(match g.failed {
                        Some(e) => Err(e),
                        None => Ok(Game {
                            line: g.line,
                            tags: g.tags,
                            start: g.start,
                            moves: g.moves,
                            comments: g.comments,
                            outcome,
                        }),
                    });
                }
                Tok::Comment(text) => {
                    // The first comment after a kept main-line move.
                    if g.failed.is_none()
                        && g.depth == 0
                        && g.after_move
                        && let Some(slot) = g.comments.last_mut()
                        && slot.is_none()
                    {
                        *slot = Some(text.trim().to_owned());
                    }
                }
                _ if g.failed.is_some() => {
                    // Skipping to the end of a bad game.
                    g.in_movetext = true;
                }
                Tok::Close => g.fail(LineError::new(line, "']' outside a tag")),
                Tok::Str(_) => g.fail(LineError::new(line, "a quoted string outside a tag")),
                Tok::Dot | Tok::Nag => g.in_movetext = true,
                Tok::LParen => {
                    g.in_movetext = true;
                    g.depth += 1;
                }
                Tok::RParen => {
                    g.in_movetext = true;
                    match g.depth.checked_sub(1) {
                        Some(d) => g.depth = d,
                        None => g.fail(LineError::new(line, "')' without a '('")),
                    }
                }
                Tok::Symbol(s) => {
                    g.in_movetext = true;
                    let is_number = s.bytes().all(|b| b.is_ascii_digit());
                    let wanted = self.max_plies.is_none_or(|max| g.moves.len() < max);
                    if !is_number && g.depth == 0 {
                        // A comment from here on belongs to this move, if kept.
                        g.after_move = wanted;
                    }
                    if !is_number && g.depth == 0 && wanted {
                        match g.position.parse_san(s) {
                            Ok(m) => {
                                g.position.play_unchecked(m);
                                g.moves.push(m);
                                g.comments.push(None);
                            }
                            Err(e) => {
                                let ply = g.moves.len();
                                let number = g.start.fullmoves() as usize
                                    + (ply + usize::from(g.start.turn() == Color::Black)) / 2;
                                let dots = if g.position.turn() == Color::White {
                                    "."
                                } else {
                                    "..."
                                };
                                g.fail(LineError::new(
                                    line,
                                    format!("move {number}{dots} {s}: {e}"),
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
}

impl Partial {
    fn new(line: usize) -> Partial {
        let start = Position::startpos();
        Partial {
            line,
            tags: Vec::new(),
            position: start,
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            after_move: false,
            in_movetext: false,
            depth: 0,
            failed: None,
        }
    }

    fn apply_tag(&mut self, name: &str, value: &str, line: usize) -> Result<(), LineError> {
        match name {
            "FEN" => {
                let pos = Position::from_fen(value)
                    .map_err(|e| LineError::new(line, format!("FEN tag '{value}': {e}")))?;
                self.start = pos;
                self.position = pos;
            }
            "Variant" => {
                let v = value.to_ascii_lowercase();
                if !matches!(
                    v.as_str(),
                    "" | "standard" | "chess" | "normal" | "from position"
                ) {
                    return Err(LineError::new(
                        line,
                        format!("variant '{value}' is not supported (standard chess only)"),
                    ));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ucis(game: &Game) -> String {
        game.moves
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn tags_moves_and_result() {
        let pgn = "[Event \"Test \\\"quoted\\\" \\\\ back\"]\n[Result \"1/2-1/2\"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n";
        let (games, errors) = read_games(pgn);
        assert!(errors.is_empty(), "{errors:?}");
        let g = &games[0];
        assert_eq!(g.line, 1);
        assert_eq!(g.tag("Event"), Some("Test \"quoted\" \\ back"));
        assert_eq!(g.tag("Result"), Some("1/2-1/2"));
        assert_eq!(g.outcome, Outcome::Draw);
        assert_eq!(ucis(g), "e2e4 e7e5 g1f3 b8c6");
    }

    #[test]
    fn comments_variations_nags_and_escapes_are_skipped() {
        let pgn = "\
% an escaped line, with a move in it: 1. d4
[Event \"x\"]
; a line comment [Event \"not a tag\"]
1.e4 {a comment
over two lines (with a paren} e5! 2. Nf3?! $14 (2. f4 exf4 (2... d5) 3. Nf3) 2... Nc6 ; to the end
3. Bb5 a6!! 4. Ba4 Nf6 5. O-O $1 Be7 6. Re1 b5 7. Bb3 d6 8. c3 0-0 *
";
        let (games, errors) = read_games(pgn);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.line, 2);
        assert_eq!(g.outcome, Outcome::Unknown);
        assert_eq!(
            ucis(g),
            "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 e8g8"
        );
    }

    #[test]
    fn the_first_comment_after_each_main_line_move_is_kept() {
        let pgn = "{before the game}\n[Event \"x\"]\n\
            1. e4 {+0.30/10 0.1s} e5 $1 { -0.20/9 } 2. Nf3 (2. f4 {in a variation}) {+0.25/11}\n\
            Nc6 {first} {second} 3. Bb5 * {after the game}\n";
        let (games, errors) = read_games(pgn);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games.len(), 1);
        let comments: Vec<Option<&str>> = games[0].comments.iter().map(|c| c.as_deref()).collect();
        assert_eq!(
            comments,
            [
                Some("+0.30/10 0.1s"),
                Some("-0.20/9"),
                Some("+0.25/11"),
                Some("first"),
                None
            ]
        );
        // Moves past the limit are not kept, nor are their comments.
        let g = Reader::new(pgn).max_plies(Some(2)).next().unwrap().unwrap();
        assert_eq!(g.comments.len(), 2);
        assert_eq!(g.comments[1].as_deref(), Some("-0.20/9"));
    }

    #[test]
    fn several_games_and_move_number_styles() {
        let pgn =
            "[White \"a\"]\n1. d4 d5 1-0\n\n[White \"b\"]\n1.c4 1...e5 2.Nc3 0-1\n1. f4 1/2-1/2";
        let (games, errors) = read_games(pgn);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(games.len(), 3);
        assert_eq!(games.iter().map(|g| g.line).collect::<Vec<_>>(), [1, 4, 6]);
        assert_eq!(ucis(&games[1]), "c2c4 e7e5 b1c3");
        assert_eq!(games[1].outcome, Outcome::BlackWins);
        assert_eq!(ucis(&games[2]), "f2f4");
        assert!(games[2].tags.is_empty());
    }

    #[test]
    fn fen_tag_sets_the_start() {
        let pgn = "[SetUp \"1\"]\n[FEN \"4k3/P7/8/8/8/8/8/4K3 w - - 0 40\"]\n\n40. a8=Q+ Kd7 41. Qb7+ *\n";
        let (games, errors) = read_games(pgn);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(ucis(&games[0]), "a7a8q e8d7 a8b7");
        assert_eq!(games[0].start.fen(), "4k3/P7/8/8/8/8/8/4K3 w - - 0 40");
    }

    #[test]
    fn bad_games_are_reported_with_their_line_and_skipped() {
        let pgn = "\
[Event \"1: illegal move\"]
1. e4 e5
2. Ke3 Nc6 1-0

[Event \"2: fine\"]
1. d4 d5 0-1

[Event \"3: bad FEN\"]
[FEN \"8/8/8 w - - 0 1\"]
1. e4 *

[Event \"4: no result\"]
1. c4 c5

[Event \"5: unclosed variation\"]
1. e4 (1. d4 e5 1-0

[Event \"6: stray paren\"]
1. e4 ) e5 1-0

[Event \"7: unknown character\"]
1. e4 e5 2. Nf3 @ 1-0

[Event \"8: ambiguous\"]
[FEN \"4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1\"]
1. Nd2 *

[Event \"9: fine, after all that\"]
1. Nf3 1/2-1/2

[Event \"10: unclosed comment\"]
1. e4 {never closed
";
        let (games, errors) = read_games(pgn);
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [3, 9, 15, 16, 19, 22, 26, 32], "{errors:#?}");
        assert!(errors[0].message.contains("move 2. Ke3"), "{}", errors[0]);
        assert!(errors[1].message.contains("FEN tag"), "{}", errors[1]);
        assert!(errors[2].message.contains("no result"), "{}", errors[2]);
        assert!(errors[3].message.contains("variation"), "{}", errors[3]);
        assert!(errors[4].message.contains("')'"), "{}", errors[4]);
        assert!(errors[5].message.contains("'@'"), "{}", errors[5]);
        assert!(errors[6].message.contains("ambiguous"), "{}", errors[6]);
        assert!(errors[7].message.contains("comment"), "{}", errors[7]);
        let events: Vec<&str> = games.iter().filter_map(|g| g.tag("Event")).collect();
        assert_eq!(events, ["2: fine", "9: fine, after all that"]);
    }

    #[test]
    fn garbage_between_games_spoils_no_game() {
        let pgn = "1. e4 *\n}\n@\n[Event \"b\"]\n1. d4 *\n";
        let (games, errors) = read_games(pgn);
        assert_eq!(games.len(), 2, "{errors:?}");
        assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), [2, 3]);
    }

    #[test]
    fn black_move_numbers_in_errors() {
        let (_, errors) = read_games("1. e4 e5 2. Nf3 Ke6 *");
        assert_eq!(errors[0].line, 1);
        assert!(
            errors[0].message.starts_with("move 2... Ke6"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn malformed_tags() {
        let (games, errors) = read_games("[Event]\n1. e4 *\n[Event \"ok\"]\n1. d4 *\n");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].line, 1);
        assert_eq!(games.len(), 1);
        let (_, errors) = read_games("[Event \"x\"\n[Site \"y\"]\n1. e4 *\n");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].line, 2);
        let (_, errors) = read_games("[Event \"never closed]\n1. e4 *\n");
        assert_eq!(errors[0].line, 1);
        assert!(errors[0].message.contains("not closed"));
    }

    #[test]
    fn max_plies_keeps_the_start_and_ignores_the_rest() {
        let pgn = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke9 1-0";
        let (games, errors) = Reader::new(pgn).max_plies(Some(3)).fold(
            (Vec::new(), Vec::new()),
            |(mut g, mut e), r| {
                match r {
                    Ok(x) => g.push(x),
                    Err(x) => e.push(x),
                }
                (g, e)
            },
        );
        assert!(errors.is_empty());
        assert_eq!(ucis(&games[0]), "e2e4 e7e5 g1f3");
        // Without the limit, the bad move spoils the game.
        assert_eq!(read_games(pgn).1.len(), 1);
    }

    #[test]
    fn empty_and_blank_texts_have_no_games() {
        for text in ["", "\n\n  \n", "{just a comment}\n", "% only\n"] {
            let (games, errors) = read_games(text);
            assert!(games.is_empty() && errors.is_empty(), "{text:?}");
        }
    }

    #[test]
    fn variants_are_refused() {
        let (games, errors) = read_games("[Variant \"Chess960\"]\n1. e4 *\n");
        assert!(games.is_empty());
        assert!(errors[0].message.contains("Chess960"));
        let (games, _) = read_games("[Variant \"Standard\"]\n1. e4 *\n");
        assert_eq!(games.len(), 1);
    }

    #[test]
    fn crlf_line_ends() {
        let (games, errors) = read_games("[Event \"x\"]\r\n\r\n1. e4 e5\r\n2. Qh5 1-0\r\n");
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(ucis(&games[0]), "e2e4 e7e5 d1h5");
    }

    #[test]
    fn outcome_points() {
        assert_eq!(Outcome::WhiteWins.points(Color::White), 2);
        assert_eq!(Outcome::WhiteWins.points(Color::Black), 0);
        assert_eq!(Outcome::BlackWins.points(Color::Black), 2);
        assert_eq!(Outcome::Draw.points(Color::White), 1);
        assert_eq!(Outcome::Unknown.points(Color::Black), 1);
        assert_eq!(Outcome::Draw.to_string(), "1/2-1/2");
    }
}
