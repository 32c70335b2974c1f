//! A PGN reader and writer: [`Reader`] reads games with their tags, start
//! position, moves (SAN checked against the legal moves) and result;
//! [`Writer`] writes them.
//!
//! What the reader understands, from the PGN standard:
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
//!
//! Besides [`Reader`], which plays every move:
//! - [`split_games`] cuts a text into its games without reading their moves
//!   (any variant): each game's tags, comments, result and text, and the
//!   tail after the last whole game (a game cut off mid-write);
//! - [`MoveComment`], [`Score`] and [`BOOK_COMMENT`]: the comment that match
//!   runners (cutechess-cli, fastchess, `borrow-match`) write after each
//!   engine move, `{+0.35/12 0.512s}` or `{-M3/20 1.000s}`, and `{book}`
//!   after an opening move; written and read here, for the runner that
//!   writes it and the tools that read it;
//! - [`Writer`] writes a game: its tags (escaped), its moves in SAN from
//!   any side to move and move number, each with its comment, a last
//!   comment and the result, in lines of at most 79 columns (what
//!   `borrow-match` writes, and [`Reader`] reads back); [`today`] is the
//!   date for its `Date` tag.
//!
//! The lexer, the move comment and the writer are files of their own below
//! this one: `pgn/lexer.rs`, `pgn/comment.rs`, `pgn/write.rs`.

use std::fmt;

use attacks::Color;
use movegen::{Move, Position};

use crate::error::LineError;

mod comment;
mod lexer;
mod write;

pub use comment::{BOOK_COMMENT, MoveComment, Score};
use lexer::{Lexer, Tok, Token};
pub use write::{Writer, today};

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
        find_tag(&self.tags, name)
    }
}

/// The value of the first of `tags` called `name` (exact case), if any.
fn find_tag<'t>(tags: &'t [(String, String)], name: &str) -> Option<&'t str> {
    tags.iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
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
                return Some(Err(game?.unfinished(token.line, "the end of the file")));
            }
            if game.is_none() && matches!(token.tok, Tok::Comment(_)) {
                // A comment between games belongs to neither.
                continue;
            }
            let line = token.line;
            let g = game.get_or_insert_with(|| Partial::new(line));
            match token.tok {
                Tok::Open if g.in_movetext => {
                    // A new game starts before this one ended.
                    self.pushed_back = Some(token);
                    return Some(Err(game?.unfinished(line, "the next game's tags")));
                }
                Tok::Open => self.read_tag(g, line),
                Tok::Result(outcome) => return Some(game?.finish(outcome, line)),
                tok => self.movetext(g, tok, line),
            }
        }
    }
}

impl<'a> Reader<'a> {
    /// Reads the tag after a `[` into `g`, applying what it says about the
    /// game (its start position, its variant).
    fn read_tag(&mut self, g: &mut Partial, line: usize) {
        match self.tag() {
            Ok((name, value)) => {
                if g.failed.is_none()
                    && let Err(e) = g.apply_tag(&name, &value, line)
                {
                    g.fail(e);
                }
                g.tags.push((name, value));
            }
            Err(e) => g.fail(e),
        }
    }

    /// Takes a movetext token into `g` (tags and results aside): a move, a
    /// move number, a comment, a variation's bracket, a NAG.
    fn movetext(&mut self, g: &mut Partial, tok: Tok<'a>, line: usize) {
        match tok {
            Tok::Eof | Tok::Open | Tok::Result(_) => unreachable!("handled by next"),
            Tok::Comment(text) => g.comment(text),
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
                    g.play(s, line);
                }
            }
        }
    }
}

impl Partial {
    /// The error for a game that has no result before `before` (at `line`):
    /// its first problem if it had one.
    fn unfinished(self, line: usize, before: &str) -> LineError {
        self.failed.unwrap_or_else(|| {
            LineError::new(
                line,
                format!("the game has no result (1-0, 0-1, 1/2-1/2 or *) before {before}"),
            )
        })
    }

    /// The game, ended by its result `outcome` at `line`, or its first
    /// problem.
    fn finish(mut self, outcome: Outcome, line: usize) -> Result<Game, LineError> {
        if self.failed.is_none() && self.depth > 0 {
            self.fail(LineError::new(
                line,
                "the game ends inside a variation: a '(' is not closed",
            ));
        }
        match self.failed {
            Some(e) => Err(e),
            None => Ok(Game {
                line: self.line,
                tags: self.tags,
                start: self.start,
                moves: self.moves,
                comments: self.comments,
                outcome,
            }),
        }
    }

    /// Keeps `text` as the comment of the last move if it is the first
    /// comment after a kept main-line move.
    fn comment(&mut self, text: &str) {
        if self.failed.is_none()
            && self.depth == 0
            && self.after_move
            && let Some(slot) = self.comments.last_mut()
            && slot.is_none()
        {
            *slot = Some(text.trim().to_owned());
        }
    }

    /// Plays the main-line move `san` (at `line`), or fails with its move
    /// number and why it is not legal.
    fn play(&mut self, san: &str, line: usize) {
        match self.position.parse_san(san) {
            Ok(m) => {
                self.position.play_unchecked(m);
                self.moves.push(m);
                self.comments.push(None);
            }
            Err(e) => {
                let ply = self.moves.len();
                let number = self.start.fullmoves() as usize
                    + (ply + usize::from(self.start.turn() == Color::Black)) / 2;
                let dots = if self.position.turn() == Color::White {
                    "."
                } else {
                    "..."
                };
                self.fail(LineError::new(
                    line,
                    format!("move {number}{dots} {san}: {e}"),
                ));
            }
        }
    }

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

/// One game of a PGN text as [`split_games`] finds it: its tags, comments
/// and result, and its text. Its moves are not read, so a game of any
/// variant, or with moves that are not legal, is split all the same.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameText<'a> {
    /// The line where the game starts (its first tag or move).
    pub line: usize,
    /// The game's text: whole lines, from the start of its first line to
    /// the end of the line of its result, and the blank line after that if
    /// there is one.
    pub text: &'a str,
    /// The tag pairs in file order, unescaped.
    pub tags: Vec<(String, String)>,
    /// The text of each comment `{...}` of the game, in order, as it is
    /// between the braces (variations' comments too).
    pub comments: Vec<&'a str>,
    /// The result given by the game's termination marker.
    pub outcome: Outcome,
}

impl GameText<'_> {
    /// The value of the first tag called `name` (exact case), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        find_tag(&self.tags, name)
    }
}

/// What [`split_games`] has of the game being read.
struct Skimmed<'a> {
    line: usize,
    tags: Vec<(String, String)>,
    comments: Vec<&'a str>,
    in_movetext: bool,
    /// The first problem: the game is an error if its result comes.
    failed: Option<LineError>,
}

impl Skimmed<'_> {
    fn new(line: usize) -> Self {
        Skimmed {
            line,
            tags: Vec::new(),
            comments: Vec::new(),
            in_movetext: false,
            failed: None,
        }
    }

    fn fail(&mut self, e: LineError) {
        self.failed.get_or_insert(e);
    }
}

/// Cuts `text` into its games, reading their tags, comments and results
/// but not their moves: the whole games in file order, and the tail, the
/// text after the last whole game (blank, or a game cut off mid-write that
/// has no result before the end of the text). A comment between games
/// belongs to no game.
///
/// The text is expected to be whole games, as a program writes them: a
/// problem in a game that does reach its result (a tag that is not
/// `[Name "value"]`, a character that is no PGN) is the error, with its
/// line, and so is a game whose result is missing before the next game's
/// tags; a problem in the tail is not.
///
/// ```
/// let pgn = "[Round \"1\"]\n\n1. e4 {book} e5 {+0.10/3 0.1s} 1-0\n\n[Round \"2\"]\n\n1. d4";
/// let (games, tail) = book::pgn::split_games(pgn).unwrap();
/// assert_eq!(games[0].tag("Round"), Some("1"));
/// assert_eq!(games[0].comments, ["book", "+0.10/3 0.1s"]);
/// assert_eq!(games[0].outcome, book::pgn::Outcome::WhiteWins);
/// assert_eq!(tail, "[Round \"2\"]\n\n1. d4");
/// ```
pub fn split_games(text: &str) -> Result<(Vec<GameText<'_>>, &str), LineError> {
    // Where each line (1-based) starts and ends, its line end included.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let line_start = |line: usize| starts[line - 1];
    let line_end = |line: usize| starts.get(line).copied().unwrap_or(text.len());
    let mut reader = Reader::new(text);
    let mut games = Vec::new();
    let mut end = 0; // where the last whole game's text ends
    let mut game: Option<Skimmed<'_>> = None;
    loop {
        let token = match reader.token() {
            Ok(t) => t,
            Err(e) => {
                game.get_or_insert_with(|| Skimmed::new(e.line)).fail(e);
                continue;
            }
        };
        let line = token.line;
        if token.tok == Tok::Eof {
            return Ok((games, &text[end..]));
        }
        if game.is_none() && matches!(token.tok, Tok::Comment(_)) {
            continue; // between games
        }
        let g = game.get_or_insert_with(|| Skimmed::new(line));
        match token.tok {
            Tok::Open if g.in_movetext => {
                return Err(g.failed.take().unwrap_or_else(|| {
                    LineError::new(g.line, "a game without a result, and more games after it")
                }));
            }
            Tok::Open => match reader.tag() {
                Ok(tag) => g.tags.push(tag),
                Err(_) => {
                    let shown = text[line_start(line)..line_end(line)].trim_end();
                    g.fail(LineError::new(line, format!("not a PGN tag: {shown}")));
                }
            },
            Tok::Comment(c) => g.comments.push(c),
            Tok::Result(outcome) => {
                let Some(g) = game.take() else {
                    unreachable!("the game was just made")
                };
                if let Some(e) = g.failed {
                    return Err(e);
                }
                let start = line_start(g.line).max(end);
                end = line_end(line);
                // The blank line after the result is the game's own.
                if end < text.len() && text[end..line_end(line + 1)].trim().is_empty() {
                    end = line_end(line + 1);
                }
                games.push(GameText {
                    line: g.line,
                    text: &text[start..end],
                    tags: g.tags,
                    comments: g.comments,
                    outcome,
                });
            }
            _ => g.in_movetext = true,
        }
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

    #[test]
    fn split_games_keeps_each_games_text_tags_comments_and_result() {
        let pgn = "{before}\n[Event \"a \\\"b\\\" \\\\ c\"]\n[Round \"1\"]\n\n\
                   1. e4 {book} e5 {+0.10/3 0.1s}\n{White mates} 1-0\n\n\
                   [Round \"2\"]\n\n1. Ke9 {not a legal move} (1. d4 {in a variation}) 0-1\n\
                   [Round \"3\"]\n\n1/2-1/2\n\n\n[Round \"4\"]\n\n1. d4 {+0.2";
        let (games, tail) = split_games(pgn).unwrap();
        assert_eq!(games.len(), 3);
        let g = &games[0];
        assert_eq!((g.line, g.outcome), (2, Outcome::WhiteWins));
        assert_eq!(g.tag("Event"), Some("a \"b\" \\ c"));
        assert_eq!(g.comments, ["book", "+0.10/3 0.1s", "White mates"]);
        // From its first line to its result's, with the blank line after.
        assert!(g.text.starts_with("[Event") && g.text.ends_with("1-0\n\n"));
        // Moves are not read; a game without its blank line ends at its
        // result's line.
        assert_eq!(
            games[1].text,
            "[Round \"2\"]\n\n1. Ke9 {not a legal move} (1. d4 {in a variation}) 0-1\n"
        );
        assert_eq!(games[1].comments, ["not a legal move", "in a variation"]);
        assert_eq!((games[2].line, games[2].outcome), (11, Outcome::Draw));
        assert_eq!(games[2].text, "[Round \"3\"]\n\n1/2-1/2\n\n");
        // After the last whole game: a blank line, and a game cut off in a
        // comment.
        assert_eq!(tail, "\n[Round \"4\"]\n\n1. d4 {+0.2");
        let (games, tail) = split_games("1. e4 *").unwrap();
        assert_eq!((games[0].text, tail), ("1. e4 *", ""));
        let (games, _) = split_games(concat!(r#"[White "B \"quoted\" \\ x"]"#, "\n*\n")).unwrap();
        assert_eq!(games[0].tag("White"), Some(r#"B "quoted" \ x"#));
        for cut in ["", "\n\n", "[Event \"cut in a va", "[Ev", "1. e4 e5 1/2-"] {
            let (games, tail) = split_games(cut).unwrap();
            assert_eq!((games.len(), tail), (0, cut), "{cut:?}");
        }
    }

    #[test]
    fn split_games_refuses_what_is_not_whole_games_with_its_line() {
        let e = split_games("[Round \"1\"]\n\n1-0\n\n[Round 2]\n\n0-1\n\n").unwrap_err();
        assert_eq!(e.to_string(), "line 5: not a PGN tag: [Round 2]");
        let e = split_games("[White B]\n1-0\n").unwrap_err();
        assert_eq!(e.to_string(), "line 1: not a PGN tag: [White B]");
        let e =
            split_games("[Round \"1\"]\n\n1-0\n\n[Round \"2\"]\n\n1. e4\n\n[Round \"3\"]\n\n*\n")
                .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 5: a game without a result, and more games after it"
        );
        let e = split_games("1. e4 @ e5 1-0\n").unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (1, "unexpected character '@'")
        );
        // The same problems in the tail are the tail.
        let (games, tail) = split_games("1-0\n[Round 2]\n\n1. e4 @").unwrap();
        assert_eq!((games.len(), tail), (1, "[Round 2]\n\n1. e4 @"));
    }
}
