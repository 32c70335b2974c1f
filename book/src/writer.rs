//! [`BookBuilder`]: a Polyglot book from games, weighted by their results.
//!
//! Each move of a game (up to a maximum ply) counts for the position it was
//! played in: one game, and points for the side that played it, win 2, draw
//! 1, loss 0 (`*` counts as a draw). An entry's weight is its points; it is
//! kept if it was played in at least `min_games` games and has points. This
//! is what `polyglot make-book` does, so the same games give the same
//! entries. Should a position gather more than 65535 points for a move, all
//! of that position's weights are scaled down together to fit 16 bits.
//!
//! The output is sorted by key, then by weight (highest first), then by
//! move, so it is the same from run to run.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use crate::entry::{Entry, encode_move, entries_to_bytes};
use crate::error::LineError;
use crate::pgn::{Game, Reader};

/// What goes into a book; the defaults are `polyglot make-book`'s.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Only the first `max_ply` moves (plies) of each game count (default
    /// 1024).
    pub max_ply: usize,
    /// An entry needs at least this many games (default 3).
    pub min_games: u32,
}

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            max_ply: 1024,
            min_games: 3,
        }
    }
}

#[derive(Copy, Clone, Debug, Default)]
struct Tally {
    games: u32,
    points: u64,
}

/// Gathers games, then gives the book's entries or bytes.
///
/// ```
/// use book::{Book, BookBuilder, BuildOptions};
/// use movegen::Position;
///
/// let mut builder = BookBuilder::new(BuildOptions { max_ply: 10, min_games: 1 });
/// let errors = builder.add_pgn("1. e4 e5 1-0\n\n1. d4 d5 1/2-1/2\n\n1. e4 c5 0-1\n");
/// assert!(errors.is_empty());
/// let book = Book::from_bytes(builder.to_bytes()).unwrap();
/// let start: Position = Position::startpos();
/// let weights: Vec<(String, u16)> =
///     book.probe(&start).iter().map(|m| (m.mv.to_string(), m.weight)).collect();
/// assert_eq!(weights, [("e2e4".to_owned(), 2), ("d2d4".to_owned(), 1)]);
/// ```
#[derive(Clone, Debug)]
pub struct BookBuilder {
    options: BuildOptions,
    tallies: HashMap<(u64, u16), Tally>,
    games: usize,
}

impl BookBuilder {
    /// An empty builder.
    pub fn new(options: BuildOptions) -> BookBuilder {
        BookBuilder {
            options,
            tallies: HashMap::new(),
            games: 0,
        }
    }

    /// Counts the moves of one game.
    pub fn add_game(&mut self, game: &Game) {
        let mut pos = game.start;
        for &m in game.moves.iter().take(self.options.max_ply) {
            let tally = self.tallies.entry((pos.key(), encode_move(m))).or_default();
            tally.games += 1;
            tally.points += u64::from(game.outcome.points(pos.turn()));
            pos.play_unchecked(m);
        }
        self.games += 1;
    }

    /// Reads the games of a PGN text and counts them; returns the problems
    /// of the games that were skipped.
    pub fn add_pgn(&mut self, text: &str) -> Vec<LineError> {
        let mut errors = Vec::new();
        for game in Reader::new(text).max_plies(Some(self.options.max_ply)) {
            match game {
                Ok(g) => self.add_game(&g),
                Err(e) => errors.push(e),
            }
        }
        errors
    }

    /// The number of games counted.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The book's entries, filtered, weighted and sorted.
    pub fn entries(&self) -> Vec<Entry> {
        let mut kept: Vec<(u64, u16, u64)> = self
            .tallies
            .iter()
            .filter(|(_, t)| t.games >= self.options.min_games && t.points > 0)
            .map(|(&(key, raw_move), t)| (key, raw_move, t.points))
            .collect();
        kept.sort_unstable_by_key(|&(key, raw_move, _)| (key, raw_move));
        let mut entries = Vec::with_capacity(kept.len());
        for group in kept.chunk_by(|a, b| a.0 == b.0) {
            let max = group.iter().map(|g| g.2).max().unwrap_or(0);
            for &(key, raw_move, points) in group {
                entries.push(Entry {
                    key,
                    raw_move,
                    weight: scale(points, max),
                    learn: 0,
                });
            }
        }
        entries.sort_unstable_by(|a, b| {
            a.key
                .cmp(&b.key)
                .then(b.weight.cmp(&a.weight))
                .then(a.raw_move.cmp(&b.raw_move))
        });
        entries
    }

    /// The book file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        entries_to_bytes(&self.entries())
    }

    /// Writes the book file.
    pub fn write(&self, path: impl AsRef<Path>) -> io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }
}

/// `points` as a 16-bit weight, given the largest points `max` of the same
/// position: unchanged when `max` fits, else scaled by 65535 / `max` (and at
/// least 1, so that a move with points stays playable).
fn scale(points: u64, max: u64) -> u16 {
    let limit = u64::from(u16::MAX);
    let w = if max <= limit {
        points
    } else {
        (u128::from(points) * u128::from(limit) / u128::from(max)) as u64
    };
    w.clamp(1, limit) as u16
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;
    use movegen::Position;

    #[test]
    fn weights_from_results() {
        let pgn = "1. e4 e5 1-0\n1. e4 e5 1/2-1/2\n1. e4 c5 0-1\n1. d4 d5 *\n1. d4 Nf6 1-0\n";
        let mut b = BookBuilder::new(BuildOptions {
            max_ply: 1024,
            min_games: 1,
        });
        assert!(b.add_pgn(pgn).is_empty());
        assert_eq!(b.games(), 5);
        let start: Position = Position::startpos();
        let e = b.entries();
        let at_start: Vec<(u16, u16)> = e
            .iter()
            .filter(|x| x.key == start.key())
            .map(|x| (x.raw_move, x.weight))
            .collect();
        // e4: 2 + 1 + 0 = 3 in 3 games; d4: 1 + 2 = 3 in 2 games; equal
        // weights in move order.
        assert_eq!(at_start, [(0x02db, 3), (0x031c, 3)]);
        // 1... e5 after 1. e4: 0 + 1; 1... c5: 2.
        let after_e4 = start.play(start.parse_uci("e2e4").unwrap()).unwrap();
        let replies: Vec<u16> = e
            .iter()
            .filter(|x| x.key == after_e4.key())
            .map(|x| x.weight)
            .collect();
        assert_eq!(replies, [2, 1]);
        // 1... Nf6 lost: no points, no entry.
        let after_d4 = start.play(start.parse_uci("d2d4").unwrap()).unwrap();
        assert_eq!(e.iter().filter(|x| x.key == after_d4.key()).count(), 1);
        // Sorted by key.
        assert!(e.windows(2).all(|w| w[0].key <= w[1].key));
    }

    #[test]
    fn min_games_and_max_ply() {
        let pgn = "1. e4 e5 2. Nf3 1-0\n1. e4 e5 2. Nc3 1-0\n1. e4 c5 1-0\n";
        let (games, _) = read_games(pgn);
        let mut b = BookBuilder::new(BuildOptions {
            max_ply: 2,
            min_games: 2,
        });
        for g in &games {
            b.add_game(g);
        }
        // e4 (3 games) is kept; e5 has 2 games but lost: no points; the
        // third plies are past max_ply.
        let e = b.entries();
        assert_eq!(e.len(), 1, "{e:?}");
        assert_eq!((e[0].raw_move, e[0].weight), (0x031c, 6));
    }

    #[test]
    fn equal_weights_sort_by_move() {
        let pgn = "1. d4 1-0\n1. e4 1-0\n1. c4 1-0\n";
        let mut b = BookBuilder::new(BuildOptions {
            max_ply: 1,
            min_games: 1,
        });
        b.add_pgn(pgn);
        let moves: Vec<u16> = b.entries().iter().map(|e| e.raw_move).collect();
        let mut sorted = moves.clone();
        sorted.sort_unstable();
        assert_eq!(moves, sorted);
    }

    #[test]
    fn big_points_are_scaled_per_position() {
        assert_eq!(scale(5, 10), 5);
        assert_eq!(scale(65_535, 65_535), 65_535);
        assert_eq!(scale(200_000, 200_000), 65_535);
        assert_eq!(scale(100_000, 200_000), 32_767);
        assert_eq!(scale(1, 200_000), 1);
        // Through the builder: 40000 wins for e4, 1 draw for d4.
        let (games, _) = read_games("1. e4 1-0\n1. d4 1/2-1/2\n");
        let mut b = BookBuilder::new(BuildOptions {
            max_ply: 1,
            min_games: 1,
        });
        for _ in 0..40_000 {
            b.add_game(&games[0]);
        }
        b.add_game(&games[1]);
        let w: Vec<u16> = b.entries().iter().map(|e| e.weight).collect();
        assert_eq!(w, [65_535, 1]);
    }
}
