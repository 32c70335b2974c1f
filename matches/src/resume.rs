//! Resuming a stopped match from its own PGN (`-resume`): the games of the
//! rounds the PGN holds whole count again, and only the other rounds are
//! played. A long match (a 300-game gauntlet leg at 10+0.1 takes about 85
//! minutes on two cores) can so span a Ctrl-C, a reboot or a killed job.
//! A game written just before an SPRT decided, whose pair had not been
//! counted yet, counts when resumed: the verdict is taken again on all
//! the whole pairs in the file.
//!
//! The PGN must be the one this runner wrote (`-pgnout`), for the same
//! match: the same engine names, clocks and openings in the same order
//! (`-openings`, `-srand`). Every game is checked against that, and a game
//! that does not fit is an error naming its line, not a silent mix of two
//! matches. A round with only some of its games in the file (the first
//! game of a pair, when the match stopped between the two) is cut from the
//! file and played again, so pairs stay whole for the pentanomial counts.

use std::collections::BTreeMap;
use std::path::Path;

use book::pgn::{self, BOOK_COMMENT, GameText};
use shakmaty::Color;

use crate::cli::MatchConfig;
use crate::game::{self, Termination};
use crate::openings::Opening;
use crate::schedule::{first_is_white, round_tag};
use crate::stats::Wdl;

/// A game read back from the PGN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumedGame {
    /// The round (0-based).
    pub round: usize,
    /// The game of the round (0-based).
    pub game: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The first engine's result.
    pub wdl: Wdl,
    /// Why the game ended.
    pub termination: Termination,
    /// The side whose engine failed, if one did.
    pub failed: Option<Color>,
}

/// What a match resumes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resumed {
    /// The games of whole rounds, by round and then game.
    pub games: Vec<ResumedGame>,
    /// Games of rounds the file did not hold whole, and a last game cut off
    /// mid-write, all cut from the file.
    pub dropped: usize,
}

impl Resumed {
    /// The rounds whose games all count, in order.
    pub fn rounds(&self) -> Vec<usize> {
        let mut r: Vec<usize> = self.games.iter().map(|g| g.round).collect();
        r.dedup();
        r
    }
}

/// Why a game of the file ended: its last comment, as the runner writes it.
fn reason<'a>(game: &GameText<'a>) -> Option<&'a str> {
    game.comments.last().copied()
}

/// A game's book plies: its `{book}` comments.
fn book_plies(game: &GameText<'_>) -> usize {
    game.comments.iter().filter(|&&c| c == BOOK_COMMENT).count()
}

/// Splits the runner's PGN into games ([`pgn::split_games`]): each from its
/// tags to its result's line and the blank line after it. What follows
/// the last whole game is the tail: a game cut off mid-write, or nothing.
/// A game that is not the runner's layout (a tag that is none, a game
/// without a result and more games after it) is an error with its line:
/// dropping what follows it could lose games.
fn split_games(text: &str) -> Result<(Vec<GameText<'_>>, &str), String> {
    pgn::split_games(text).map_err(|e| e.to_string())
}

/// The round (0-based) and game (0-based) of a `Round` tag: `R.G` for
/// pairs, `R` for single games.
fn parse_round(tag: &str, games_per_round: usize) -> Option<(usize, usize)> {
    let (r, g) = match tag.split_once('.') {
        Some((r, g)) if games_per_round == 2 => (r.parse().ok()?, g.parse().ok()?),
        None if games_per_round == 1 => (tag.parse().ok()?, 1),
        _ => return None,
    };
    let (r, g): (usize, usize) = (r, g);
    (r >= 1 && (1..=games_per_round).contains(&g)).then(|| (r - 1, g - 1))
}

/// The game's result from the first engine's side.
fn wdl_of(result: &str, first_is_white: bool) -> Option<Wdl> {
    let white = match result {
        "1-0" => Wdl::Win,
        "0-1" => Wdl::Loss,
        "1/2-1/2" => Wdl::Draw,
        _ => return None,
    };
    Some(match (white, first_is_white) {
        (w, true) | (w @ Wdl::Draw, false) => w,
        (Wdl::Win, false) => Wdl::Loss,
        (_, false) => Wdl::Win,
    })
}

/// Checks one game against the match and reads its result.
fn check_game(
    raw: &GameText<'_>,
    config: &MatchConfig,
    openings: &[Opening],
) -> Result<ResumedGame, String> {
    let tag = |name: &str| {
        raw.tag(name)
            .ok_or_else(|| format!("line {}: the game has no {name} tag", raw.line))
    };
    let round_tag = tag("Round")?;
    let (round, game) = parse_round(round_tag, config.games).ok_or_else(|| {
        format!(
            "line {}: Round \"{round_tag}\" is not a round of a match of {} game(s) a round",
            raw.line, config.games
        )
    })?;
    if config.rounds.is_some_and(|r| round >= r) {
        return Err(format!(
            "line {}: round {} is past this match's -rounds {}",
            raw.line,
            round + 1,
            config.rounds.unwrap_or(0)
        ));
    }
    let names = [&config.engines[0].name, &config.engines[1].name];
    let (white, black) = (tag("White")?, tag("Black")?);
    let first_is_white = first_is_white(config.games, round, game);
    let expected = if first_is_white {
        (names[0], names[1])
    } else {
        (names[1], names[0])
    };
    if (white, black) != (expected.0.as_str(), expected.1.as_str()) {
        return Err(format!(
            "line {}: round {round_tag} is {white} against {black}; this match plays it {} against {}",
            raw.line, expected.0, expected.1
        ));
    }
    let limits = [
        config.engines[0].limits.describe(),
        config.engines[1].limits.describe(),
    ];
    let (lw, lb) = if first_is_white {
        (&limits[0], &limits[1])
    } else {
        (&limits[1], &limits[0])
    };
    let played = match raw.tag("TimeControl") {
        Some(tc) => (tc, tc),
        None => (tag("WhiteTimeControl")?, tag("BlackTimeControl")?),
    };
    if played != (lw.as_str(), lb.as_str()) {
        return Err(format!(
            "line {}: round {round_tag} was played at {} / {}, this match plays at {lw} / {lb}",
            raw.line, played.0, played.1
        ));
    }
    if (raw.tag("Variant") == Some("Chess960")) != config.chess960 {
        return Err(format!(
            "line {}: round {round_tag} is of another variant than this match",
            raw.line
        ));
    }
    let opening = &openings[round % openings.len()];
    // The runner writes a FEN tag for every start but the standard one.
    let fen = raw.tag("FEN");
    let same_start = fen.map_or(opening.is_startpos(), |f| f == opening.fen);
    if !same_start || book_plies(raw) != opening.moves.len() {
        return Err(format!(
            "line {}: round {round_tag} was played from {} ({} book plies); this match's \
             round {} starts from {} ({} book plies): resume with the same -openings and -srand",
            raw.line,
            fen.unwrap_or("the standard start"),
            book_plies(raw),
            round + 1,
            opening.fen,
            opening.moves.len()
        ));
    }
    let result = tag("Result")?;
    let wdl = wdl_of(result, first_is_white).ok_or_else(|| {
        format!(
            "line {}: round {round_tag} has no result ({result})",
            raw.line
        )
    })?;
    let why = reason(raw).unwrap_or("");
    let (termination, failed) = game::parse_reason(why).ok_or_else(|| {
        format!(
            "line {}: round {round_tag} ends with '{{{why}}}', which is not how this runner ends a game",
            raw.line
        )
    })?;
    Ok(ResumedGame {
        round,
        game,
        first_is_white,
        wdl,
        termination,
        failed,
    })
}

/// Reads the match's PGN at `path` back: the games of whole rounds,
/// checked against `config` and `openings` (in playing order). The file is
/// rewritten without the games of rounds it does not hold whole and
/// without a game cut off mid-write, so that it holds each game once, in
/// the order they were played. A missing file is nothing to resume.
pub fn resume(path: &Path, config: &MatchConfig, openings: &[Opening]) -> Result<Resumed, String> {
    let at = |e: String| format!("{}: {e}", path.display());
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resumed::default()),
        Err(e) => return Err(at(e.to_string())),
    };
    // A file cut inside a character: that game is cut off anyway.
    let not_utf8 = || at("not UTF-8, so not this runner's PGN".into());
    let text = match std::str::from_utf8(&bytes) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).map_err(|_| not_utf8())?
        }
        Err(_) => return Err(not_utf8()),
    };
    let (raw, tail) = split_games(text).map_err(at)?;
    let mut checked: Vec<ResumedGame> = Vec::with_capacity(raw.len());
    let mut by_round: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, g) in raw.iter().enumerate() {
        let game = check_game(g, config, openings).map_err(at)?;
        let games = by_round.entry(game.round).or_default();
        if games.iter().any(|&j| checked[j].game == game.game) {
            return Err(at(format!(
                "line {}: round {} is in the file twice",
                g.line,
                round_tag(config.games, game.round, game.game)
            )));
        }
        games.push(i);
        checked.push(game);
    }
    let whole = |round: &usize| by_round[round].len() == config.games;
    let mut resumed = Resumed::default();
    // The file in its own order, less the games of rounds cut in two.
    let mut kept = String::new();
    for (g, raw) in checked.iter().zip(&raw) {
        if whole(&g.round) {
            // A game missing its blank line gets it.
            let newlines = raw.text.len() - raw.text.trim_end_matches('\n').len();
            kept += raw.text;
            kept += &"\n\n"[newlines.min(2)..];
        } else {
            resumed.dropped += 1;
        }
    }
    for (_, games) in by_round.iter().filter(|(r, _)| whole(r)) {
        let mut games: Vec<&ResumedGame> = games.iter().map(|&j| &checked[j]).collect();
        games.sort_by_key(|g| g.game);
        resumed.games.extend(games.into_iter().cloned());
    }
    if !tail.trim().is_empty() {
        resumed.dropped += 1;
    }
    if kept != text {
        rewrite(path, &kept).map_err(at)?;
    }
    Ok(resumed)
}

/// Replaces the file by `text`: written beside it, then renamed over it.
fn rewrite(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".resume-tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_of_pairs_and_single_games() {
        assert_eq!(parse_round("3.2", 2), Some((2, 1)));
        assert_eq!(parse_round("1.1", 2), Some((0, 0)));
        assert_eq!(parse_round("3", 1), Some((2, 0)));
        for bad in ["0.1", "3.3", "3", "x.1", "3.0"] {
            assert_eq!(parse_round(bad, 2), None, "{bad}");
        }
        assert_eq!(parse_round("3.1", 1), None);
        assert_eq!(parse_round("0", 1), None);
    }

    #[test]
    fn results_from_the_first_engines_side() {
        assert_eq!(wdl_of("1-0", true), Some(Wdl::Win));
        assert_eq!(wdl_of("1-0", false), Some(Wdl::Loss));
        assert_eq!(wdl_of("0-1", false), Some(Wdl::Win));
        assert_eq!(wdl_of("0-1", true), Some(Wdl::Loss));
        assert_eq!(wdl_of("1/2-1/2", false), Some(Wdl::Draw));
        assert_eq!(wdl_of("*", true), None);
    }

    #[test]
    fn games_split_and_a_cut_off_tail() {
        let text = "[Round \"1.1\"]\n[White \"A\"]\n\n1. e4 {book} e5 {+0.10/3 0.1s}\n{Draw by adjudication} 1/2-1/2\n\n\
                    [Round \"1.2\"]\n\n1. e4 {book} {White resigns} 0-1\n\n\
                    [Round \"2.1\"]\n\n1. d4 {book} d5";
        let (games, tail) = split_games(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].line, 1);
        assert_eq!(games[0].tag("White"), Some("A"));
        assert_eq!(reason(&games[0]), Some("Draw by adjudication"));
        assert_eq!(book_plies(&games[0]), 1);
        assert_eq!(games[1].line, 7);
        assert_eq!(reason(&games[1]), Some("White resigns"));
        assert!(tail.starts_with("[Round \"2.1\"]"), "{tail}");
        // A file ending right after a result has no tail.
        let (games, tail) = split_games("[Round \"1\"]\n\n{White mates} 1-0\n").unwrap();
        assert_eq!((games.len(), tail), (1, ""));
    }

    #[test]
    fn a_game_without_its_blank_line_ends_at_its_result() {
        // As a resumed run appends after a file cut right after a result.
        let text = "[Round \"1\"]\n\n{White mates} 1-0\n[Round \"2\"]\n\n{Black mates} 0-1\n\n";
        let (games, tail) = split_games(text).unwrap();
        assert_eq!(games.len(), 2, "{tail}");
        assert_eq!(games[0].text, "[Round \"1\"]\n\n{White mates} 1-0\n");
        assert_eq!((games[1].line, reason(&games[1])), (4, Some("Black mates")));
        assert_eq!(tail, "");
    }

    #[test]
    fn a_garbled_tag_is_an_error_with_its_line() {
        let text = "[Round \"1\"]\n\n{White mates} 1-0\n\n[Round 2]\n\n{Black mates} 0-1\n\n";
        let e = split_games(text).err().unwrap();
        assert!(e.starts_with("line 5: not a PGN tag"), "{e}");
    }

    /// What the writer writes, the reader reads back: single games, whose
    /// colours alternate by round, and a clock per engine.
    #[test]
    fn single_games_with_a_clock_each_read_back() {
        use crate::clock::Limits;
        use crate::game::{Failure, GameRecord};
        use crate::uci_engine::EngineConfig;
        use shakmaty::KnownOutcome;
        let engine = |name: &str, tc: &str| EngineConfig {
            name: name.into(),
            limits: Limits {
                tc: Some(tc.parse().unwrap()),
                ..Limits::default()
            },
            ..EngineConfig::default()
        };
        let mut config = MatchConfig::new(engine("A", "10+0.1"), engine("B", "5+0.05"));
        config.games = 1;
        config.rounds = Some(3);
        let openings = [Opening::startpos()];
        // Round 2 (0-based 1): B has White, and fails on time: A wins.
        let record = GameRecord {
            white: "B".into(),
            black: "A".into(),
            opening: Opening::startpos(),
            opening_san: Vec::new(),
            moves: Vec::new(),
            result: KnownOutcome::Decisive {
                winner: Color::Black,
            },
            termination: Termination::Failure(Failure::TimeLoss, None),
            failed: Some(Color::White),
            limits: [config.engines[1].limits, config.engines[0].limits],
            chess960: false,
        };
        let text = crate::pgn::format_game(&record, "e", &round_tag(1, 1, 0), "2026.11.28");
        assert!(text.contains("[WhiteTimeControl \"5+0.05\"]"), "{text}");
        let (games, tail) = split_games(&text).unwrap();
        assert_eq!((games.len(), tail), (1, ""));
        let game = check_game(&games[0], &config, &openings).unwrap();
        assert_eq!(
            game,
            ResumedGame {
                round: 1,
                game: 0,
                first_is_white: false,
                wdl: Wdl::Win,
                termination: Termination::Failure(Failure::TimeLoss, None),
                failed: Some(Color::White),
            }
        );
        // The same game read as round 1, where A has White, does not fit.
        let as_round_1 = text.replace("[Round \"2\"]", "[Round \"1\"]");
        let (games, _) = split_games(&as_round_1).unwrap();
        let e = check_game(&games[0], &config, &openings).unwrap_err();
        assert!(
            e.contains("B against A; this match plays it A against B"),
            "{e}"
        );
    }
}
