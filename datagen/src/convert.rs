//! `borrow-datagen convert`: match games into training data. The PGN that
//! cutechess-cli, fastchess and `borrow-match` write puts each engine move's
//! score in the comment after it, from the mover's side and in pawns:
//! `{+0.34/12 0.105s}`, or `{-M3/20 0.01s}` for a mate. Each game becomes a
//! viriformat game ([`ViriGame`]) from its first scored move: the moves
//! before it (the opening book's, `{book}`) make the start position, and
//! the game is cut at the first later move without a score (data after it
//! would have no label).
//!
//! The output's format follows its name, as `borrow-datagen`'s does: games
//! (`*.vf`), or the trainable positions as records (`*.bin`) or text.

use std::fmt;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use attacks::Color;
use book::pgn::{Game as PgnGame, MoveComment, Outcome as PgnOutcome, Reader, Score};

use crate::DatagenError;
use engine::search::MATE;
use nnue::data::marlinformat::Format;
use nnue::data::viriformat::ViriGame;

/// The score of a move comment, centipawns from the mover's side: the
/// first word when it reads `+0.34`, `-1.20/15`, `0.00/1` or `+M5/20` (a
/// mate in 5 moves; `-M3` mated in 3, in the search's mate scale), none
/// for any other comment (`book`, a time alone, prose). The comment's
/// format is the book crate's ([`MoveComment`]), which `borrow-match`
/// writes with.
pub fn comment_score(comment: &str) -> Option<i32> {
    Some(match MoveComment::parse(comment).score? {
        Score::Cp(cp) => cp,
        // Mating in n moves is 2n - 1 plies away; being mated in n, 2n.
        Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
        Score::Mate(n) => -(MATE - 2 * n.abs()),
    })
}

/// Why a game gave no data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Skipped {
    /// Its result is `*`.
    Unfinished,
    /// No move has a score.
    Unscored,
}

/// `game` as a viriformat game (scores turned to White's side), and the
/// moves cut after the first unscored one.
pub fn to_viri(game: &PgnGame) -> Result<(ViriGame, usize), Skipped> {
    let result = match game.outcome {
        PgnOutcome::WhiteWins => 1.0,
        PgnOutcome::BlackWins => 0.0,
        PgnOutcome::Draw => 0.5,
        PgnOutcome::Unknown => return Err(Skipped::Unfinished),
    };
    let scores: Vec<Option<i32>> = game
        .comments
        .iter()
        .map(|c| c.as_deref().and_then(comment_score))
        .collect();
    let first = scores
        .iter()
        .position(Option::is_some)
        .ok_or(Skipped::Unscored)?;
    let mut pos = game.start;
    for &m in &game.moves[..first] {
        pos.play_unchecked(m);
    }
    let start = pos;
    let mut plies = Vec::new();
    for (&m, score) in game.moves[first..].iter().zip(&scores[first..]) {
        let Some(score) = *score else { break };
        let white = if pos.turn() == Color::White {
            score
        } else {
            -score
        };
        plies.push((m, white));
        pos.play_unchecked(m);
    }
    let cut = game.moves.len() - first - plies.len();
    Ok((
        ViriGame {
            start,
            result,
            plies,
        },
        cut,
    ))
}

/// What a conversion did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Converted {
    /// Games written.
    pub games: usize,
    /// Positions written (every ply of a game; the trainable ones of records).
    pub positions: u64,
    /// Games left out for a `*` result.
    pub unfinished: usize,
    /// Games left out for having no scored move.
    pub unscored: usize,
    /// Moves cut after an unscored move.
    pub cut: usize,
    /// Games the PGN reader could not read (an illegal move, a bad tag...),
    /// with the first few messages.
    pub unreadable: usize,
    /// The first messages of unreadable games.
    pub messages: Vec<String>,
}

impl fmt::Display for Converted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} written ({} positions); left out: {} unfinished, {} without scores, {} unreadable; {} moves cut after an unscored one",
            book::plural(self.games, "game"),
            self.positions,
            self.unfinished,
            self.unscored,
            self.unreadable,
            self.cut
        )
    }
}

/// Converts the games of the PGN files `inputs` into `out` (which must not
/// exist), in the format its name says.
pub fn convert(inputs: &[PathBuf], out: &Path) -> Result<Converted, DatagenError> {
    if nnue::data::marlinformat::is_packed(out) {
        return Err(DatagenError::Setup(format!(
            "--out {}: convert writes a plain file; pack it with xz afterwards",
            out.display()
        )));
    }
    if out.exists() {
        return Err(DatagenError::Setup(format!(
            "{} exists: choose another --out",
            out.display()
        )));
    }
    let texts = inputs
        .iter()
        .map(|p| {
            book::read_text(p)
                .map_err(|e| DatagenError::Setup(format!("cannot read {}: {e}", p.display())))
        })
        .collect::<Result<Vec<String>, _>>()?;
    let file = std::fs::File::create(out)
        .map_err(|e| DatagenError::Io(format!("cannot create {}", out.display()), e))?;
    let mut w = BufWriter::new(file);
    let format = Format::of_path(out);
    let mut done = Converted::default();
    let write_err = |e| DatagenError::Io(format!("cannot write {}", out.display()), e);
    for (text, path) in texts.iter().zip(inputs) {
        for game in Reader::new(text) {
            let game = match game {
                Ok(g) => g,
                Err(e) => {
                    done.unreadable += 1;
                    if done.messages.len() < 5 {
                        done.messages.push(format!("{}:{e}", path.display()));
                    }
                    continue;
                }
            };
            let (viri, cut) = match to_viri(&game) {
                Ok(x) => x,
                Err(Skipped::Unfinished) => {
                    done.unfinished += 1;
                    continue;
                }
                Err(Skipped::Unscored) => {
                    done.unscored += 1;
                    continue;
                }
            };
            done.cut += cut;
            done.games += 1;
            let (_, positions) = viri.write_as(&mut w, format).map_err(write_err)?;
            done.positions += positions;
        }
    }
    w.flush().map_err(write_err)?;
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comment_scores_read_as_the_match_tools_write_them() {
        for (comment, score) in [
            ("+0.34/12 0.105s", Some(34)),
            ("-1.20/15 1.2s", Some(-120)),
            ("0.00/1 0s, White wins by adjudication", Some(0)),
            ("+12.5/30", Some(1250)),
            ("-0.07", Some(-7)),
            ("+M5/20 0.01s", Some(MATE - 9)),
            ("-M3/20 0.01s", Some(-(MATE - 6))),
            ("book", None),
            ("0.512s", None),
            ("+M0/1", None),
            ("+1.234/9", None),
            ("", None),
            ("-", None),
            ("+.5/3", None),
        ] {
            assert_eq!(comment_score(comment), score, "{comment:?}");
        }
    }

    const PGN: &str = r#"[White "a"]
[Black "b"]
[Result "0-1"]

1. e4 {book} e5 {book} 2. Nf3 {+0.30/10 0.1s} Nc6 {-0.25/11 0.1s}
3. Bb5 {+0.41/10 0.1s} a6 {+0.20/12} 4. Ba4 {0.1s} Nf6 {-0.50/9} 0-1

[White "a"]
[Black "b"]
[Result "*"]

1. d4 {+0.2/1} *

[White "a"]
[Black "b"]
[Result "1/2-1/2"]

1. c4 {book} c5 {book} 1/2-1/2
"#;

    #[test]
    fn a_game_starts_at_its_first_score_and_is_cut_at_the_next_unscored_move() {
        let games: Vec<PgnGame> = Reader::new(PGN).map(Result::unwrap).collect();
        let (viri, cut) = to_viri(&games[0]).unwrap();
        assert_eq!(
            viri.start.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"
        );
        assert_eq!(viri.result, 0.0);
        // Scores from White's side: Black's -0.25 is White's +0.25.
        let scores: Vec<i32> = viri.plies.iter().map(|p| p.1).collect();
        assert_eq!(scores, [30, 25, 41, -20]);
        assert_eq!(cut, 2);
        assert_eq!(to_viri(&games[1]).unwrap_err(), Skipped::Unfinished);
        assert_eq!(to_viri(&games[2]).unwrap_err(), Skipped::Unscored);
    }

    #[test]
    fn files_convert_to_each_format() {
        let dir = testkit::TempDir::new("convert");
        let pgn = dir.join("m.pgn");
        std::fs::write(&pgn, format!("{PGN}\n1. e4 Kxe8 *\n")).unwrap();
        let vf = dir.join("m.vf");
        let done = convert(std::slice::from_ref(&pgn), &vf).unwrap();
        assert_eq!(
            (
                done.games,
                done.positions,
                done.unfinished,
                done.unscored,
                done.cut,
                done.unreadable
            ),
            (1, 4, 1, 1, 2, 1)
        );
        let mut back = Vec::new();
        nnue::data::viriformat::read_games(&std::fs::read(&vf).unwrap()[..], |g| back.push(g))
            .unwrap();
        let games: Vec<PgnGame> = Reader::new(PGN).map(Result::unwrap).collect();
        assert_eq!(back, [to_viri(&games[0]).unwrap().0]);
        // Records hold the trainable plies: the four, none a capture or
        // in check.
        let txt = dir.join("m.txt");
        let done = convert(std::slice::from_ref(&pgn), &txt).unwrap();
        assert_eq!(done.positions, 4);
        let text = std::fs::read_to_string(&txt).unwrap();
        assert!(text.lines().all(|l| l.ends_with(" | 0.0")), "{text}");
        // An existing output is refused.
        assert!(convert(std::slice::from_ref(&pgn), &txt).is_err());
    }
}
