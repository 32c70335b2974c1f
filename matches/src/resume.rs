//! Resuming a stopped match from its own PGN (`-resume`): the games of the
//! rounds the PGN holds whole count again, and only the other rounds are
//! played. A long match (a 300-game gauntlet leg at 10+0.1 takes about 85
//! minutes on two cores) can so span a Ctrl-C, a reboot or a killed job.
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

use shakmaty::Color;

use crate::cli::MatchConfig;
use crate::game::{self, Termination};
use crate::openings::Opening;
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
    /// Games of rounds the file did not hold whole, cut from the file.
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

/// One game of the file as text: where it starts, its tags, its last
/// comment (the reason it ended) and its book moves.
struct RawGame<'a> {
    line: usize,
    text: &'a str,
    tags: Vec<(String, String)>,
    reason: Option<&'a str>,
    book_plies: usize,
}

impl RawGame<'_> {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// `[Name "value"]`, unescaped.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (name, rest) = inner.split_once(' ')?;
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((name.to_string(), value))
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// A game's text from its first line: its last comment is the reason it
/// ended, `{book}` marks its book plies.
fn raw_game(line: usize, text: &str, tags: Vec<(String, String)>) -> RawGame<'_> {
    let reason = text
        .rfind('{')
        .and_then(|a| text[a + 1..].split_once('}'))
        .map(|(r, _)| r);
    RawGame {
        line,
        text,
        tags,
        reason,
        book_plies: text.matches("{book}").count(),
    }
}

/// Splits the runner's PGN into games: a block of tag lines, a blank line,
/// the movetext ending with a result, a blank line. What follows the last
/// whole game (a game cut off mid-write) is returned as the tail.
fn split_games(text: &str) -> (Vec<RawGame<'_>>, &str) {
    let mut games = Vec::new();
    let mut start = 0; // byte offset of the game being read
    let mut start_line = 1;
    let mut tags = Vec::new();
    let mut in_movetext = false;
    let mut ended = false; // the movetext's result was read
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        offset += line.len();
        let l = line.trim_end();
        if ended {
            if !l.is_empty() {
                break; // not the runner's layout: the rest is the tail
            }
            // The blank line after a game's movetext closes it.
            games.push(raw_game(
                start_line,
                &text[start..offset],
                std::mem::take(&mut tags),
            ));
            (start, start_line) = (offset, i + 2);
            (in_movetext, ended) = (false, false);
        } else if l.is_empty() {
            if tags.is_empty() && !in_movetext {
                (start, start_line) = (offset, i + 2); // between games
            }
        } else if !in_movetext && l.starts_with('[') {
            match parse_tag(l) {
                Some(t) => tags.push(t),
                None => break,
            }
        } else {
            in_movetext = true;
            ended = l.split_ascii_whitespace().last().is_some_and(is_result);
        }
    }
    if ended {
        // The file ends right after a game's result, without a blank line.
        games.push(raw_game(start_line, &text[start..], tags));
        return (games, "");
    }
    (games, &text[start..])
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
    raw: &RawGame<'_>,
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
    let first_is_white = if config.games == 2 {
        game == 0
    } else {
        round.is_multiple_of(2)
    };
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
    if !same_start || raw.book_plies != opening.moves.len() {
        let fen = fen.unwrap_or("the standard start");
        return Err(format!(
            "line {}: round {round_tag} was played from another opening than this match's \
             round {} ({fen}, {} book plies); resume with the same -openings and -srand",
            raw.line,
            round + 1,
            raw.book_plies
        ));
    }
    let result = tag("Result")?;
    let wdl = wdl_of(result, first_is_white).ok_or_else(|| {
        format!(
            "line {}: round {round_tag} has no result ({result})",
            raw.line
        )
    })?;
    let reason = raw.reason.unwrap_or("");
    let (termination, failed) = game::parse_reason(reason).ok_or_else(|| {
        format!(
            "line {}: round {round_tag} ends with '{{{reason}}}', which is not how this runner ends a game",
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

/// Reads the match's PGN (`config.pgnout`) back: the games of whole rounds,
/// checked against `config` and `openings` (in playing order). The file is
/// rewritten without the games of rounds it does not hold whole and without
/// a game cut off mid-write, so that it ends up holding each game once. A
/// missing file is a match with nothing to resume.
pub fn resume(config: &MatchConfig, openings: &[Opening]) -> Result<Resumed, String> {
    let Some(path) = &config.pgnout else {
        return Err("-resume needs -pgnout: the games are read back from it".into());
    };
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes)
            .map_err(|_| format!("{}: not UTF-8, so not this runner's PGN", path.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Resumed::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let (raw, tail) = split_games(&text);
    let mut by_round: BTreeMap<usize, Vec<(usize, ResumedGame)>> = BTreeMap::new();
    for (i, g) in raw.iter().enumerate() {
        let game =
            check_game(g, config, openings).map_err(|e| format!("{}: {e}", path.display()))?;
        let slot = by_round.entry(game.round).or_default();
        if slot.iter().any(|(_, x)| x.game == game.game) {
            return Err(format!(
                "{}: line {}: round {}.{} is in the file twice",
                path.display(),
                g.line,
                game.round + 1,
                game.game + 1
            ));
        }
        slot.push((i, game));
    }
    let mut resumed = Resumed::default();
    let mut kept = String::new();
    for (_, mut games) in by_round {
        if games.len() < config.games {
            resumed.dropped += games.len();
            continue;
        }
        games.sort_by_key(|(_, g)| g.game);
        for (i, g) in games {
            kept += raw[i].text;
            resumed.games.push(g);
        }
    }
    if resumed.dropped > 0 || !tail.trim().is_empty() {
        resumed.dropped += usize::from(!tail.trim().is_empty());
        rewrite(path, &kept)?;
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
        .map_err(|e| format!("{}: {e}", path.display()))
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
    fn tags_are_unescaped() {
        assert_eq!(
            parse_tag(r#"[White "B \"quoted\" \\ x"]"#),
            Some(("White".into(), r#"B "quoted" \ x"#.into()))
        );
        assert_eq!(parse_tag("[White B]"), None);
    }

    #[test]
    fn games_split_and_a_cut_off_tail() {
        let text = "[Round \"1.1\"]\n[White \"A\"]\n\n1. e4 {book} e5 {+0.10/3 0.1s}\n{Draw by adjudication} 1/2-1/2\n\n\
                    [Round \"1.2\"]\n\n1. e4 {book} {White resigns} 0-1\n\n\
                    [Round \"2.1\"]\n\n1. d4 {book} d5";
        let (games, tail) = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].line, 1);
        assert_eq!(games[0].tag("White"), Some("A"));
        assert_eq!(games[0].reason, Some("Draw by adjudication"));
        assert_eq!(games[0].book_plies, 1);
        assert_eq!(games[1].line, 7);
        assert_eq!(games[1].reason, Some("White resigns"));
        assert!(tail.starts_with("[Round \"2.1\"]"), "{tail}");
        // A file ending right after a result has no tail.
        let (games, tail) = split_games("[Round \"1\"]\n\n{White mates} 1-0\n");
        assert_eq!((games.len(), tail), (1, ""));
    }
}
