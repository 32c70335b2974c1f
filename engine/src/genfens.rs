//! `genfens`: start positions for data generation on many machines, as
//! OpenBench's DATAGEN workloads ask engines for them. Its client runs
//! `borrow "genfens N seed S book <None|FILE> [extra]" "quit"` and reads
//! `N` lines `info string genfens <FEN>`; the same seed gives the same
//! positions.
//!
//! Each position is this project's own opening for self-play
//! ([`crate::selfplay::opening`], the one `borrow-datagen` plays from): a start position (the book's, drawn by the
//! seed, or the standard one), eight or nine random legal plies, and a
//! fixed-node search that must not find the game already decided.

use std::path::Path;

use movegen::Position;
use rng::Rng;

use crate::evaluator::Evaluator;
use crate::search::Shared;
use crate::selfplay::{GameSettings, opening, read_starts};

/// What `genfens` is asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// Positions to print.
    pub count: u64,
    /// The seed of every random choice.
    pub seed: u64,
    /// An opening book (EPD or PGN) to start from, or the start position.
    pub book: Option<String>,
}

/// Nodes of the search that judges an opening.
const NODES: u64 = 5_000;

/// Parses the words after `genfens`: `N seed S book <None|FILE> [extra]`.
/// Anything after the book is OpenBench's to pass and ours to ignore.
pub fn parse(tokens: &[&str]) -> Result<Request, String> {
    let count = tokens
        .first()
        .and_then(|t| t.parse::<u64>().ok())
        .ok_or("'genfens' needs a count: genfens N seed S book <None|FILE>")?;
    let mut req = Request {
        count,
        seed: 0,
        book: None,
    };
    let mut seen_seed = false;
    let mut rest = tokens[1..].iter();
    while let Some(&key) = rest.next() {
        match key {
            "seed" => {
                req.seed = rest
                    .next()
                    .and_then(|t| t.parse::<u64>().ok())
                    .ok_or("'genfens ... seed' needs a whole number")?;
                seen_seed = true;
            }
            "book" => {
                let file = rest
                    .next()
                    .ok_or("'genfens ... book' needs a file or None")?;
                req.book = (!file.eq_ignore_ascii_case("none")).then(|| (*file).to_owned());
                // OpenBench's extra words follow the book.
                break;
            }
            other => return Err(format!("'genfens': unexpected '{other}'")),
        }
    }
    if !seen_seed {
        return Err("'genfens' needs a seed: genfens N seed S book <None|FILE>".into());
    }
    Ok(req)
}

/// Makes `req.count` positions, handing each to `each` as it is found.
pub fn genfens(req: &Request, mut each: impl FnMut(&Position)) -> Result<(), String> {
    let starts = read_starts(req.book.as_deref().map(Path::new), req.seed)
        .map_err(|e| format!("genfens: {e}"))?;
    let mut rng = Rng::new(req.seed);
    let shared = Shared::new(16);
    let mut time = std::time::Duration::ZERO;
    let mut made = 0;
    let mut failures = 0;
    while made < req.count {
        let start = &starts[rng.below(starts.len() as u64) as usize];
        let settings = GameSettings {
            nodes: NODES,
            soft_nodes: None,
            random_plies: 8 + rng.below(2) as usize,
            evaluator: Evaluator::default(),
            syzygy: None,
        };
        match opening(start, &settings, &mut rng, &shared, &mut time) {
            Some((pos, _, _)) => {
                each(&pos);
                made += 1;
                failures = 0;
            }
            None => {
                failures += 1;
                if failures > 10 {
                    return Err("genfens: no playable opening from the book's positions".into());
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_parse_as_openbench_sends_them() {
        assert_eq!(
            parse(&["3", "seed", "42", "book", "None"]),
            Ok(Request {
                count: 3,
                seed: 42,
                book: None
            })
        );
        assert_eq!(
            parse(&["1", "seed", "7", "book", "uho.epd", "extra", "words"]).map(|r| r.book),
            Ok(Some("uho.epd".into()))
        );
        assert!(parse(&[]).is_err());
        assert!(parse(&["x", "seed", "1", "book", "None"]).is_err());
        assert!(parse(&["2", "book", "None"]).unwrap_err().contains("seed"));
        assert!(parse(&["2", "seed"]).is_err());
        assert!(parse(&["2", "color", "1"]).is_err());
    }

    #[test]
    fn the_same_seed_gives_the_same_positions_and_another_seed_others() {
        let run = |seed| {
            let mut fens = Vec::new();
            let req = Request {
                count: 4,
                seed,
                book: None,
            };
            genfens(&req, |p| fens.push(p.fen())).unwrap();
            fens
        };
        let a = run(1);
        assert_eq!(a.len(), 4);
        assert_eq!(a, run(1));
        assert_ne!(a, run(2));
        for fen in &a {
            let pos: Position = Position::from_fen(fen).unwrap();
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            assert_eq!(fen.split(' ').count(), 6, "{fen}");
        }
    }
}
