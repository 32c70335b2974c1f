//! Loading the training data: every labelled position of the files
//! `borrow datagen` writes (text, gzip text, or 32-byte marlinformat
//! records; [`engine::tune::data`] reads them), filtered here, as the field
//! filters at load time so that one file serves many experiments.

use std::path::PathBuf;

use engine::tune::data::{DataError, read};

use crate::sample::Sample;

/// Which positions are left out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Positions whose side to move is in check (the score is the
    /// search's, about a forced reply, not the position's worth).
    pub skip_check: bool,
    /// Positions whose |score| exceeds this (mates, lost causes).
    pub max_score: i32,
    /// Positions with fewer pieces than this (tablebase territory).
    pub min_pieces: usize,
}

impl Default for Filter {
    /// In check out, |score| above 3,000 out, every piece count kept.
    fn default() -> Filter {
        Filter {
            skip_check: true,
            max_score: 3000,
            min_pieces: 0,
        }
    }
}

/// What loading found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Positions read.
    pub read: usize,
    /// Left out for being in check.
    pub in_check: usize,
    /// Left out for their score.
    pub extreme: usize,
    /// Left out for too few pieces.
    pub few_pieces: usize,
}

impl Loaded {
    /// Positions kept.
    pub fn kept(&self) -> usize {
        self.read - self.in_check - self.extreme - self.few_pieces
    }
}

/// Every position of `paths`, in file order, that `filter` keeps.
pub fn load(paths: &[PathBuf], filter: &Filter) -> Result<(Vec<Sample>, Loaded), DataError> {
    let mut samples = Vec::new();
    let mut tally = Loaded::default();
    for path in paths {
        read(path, |l| {
            tally.read += 1;
            if filter.skip_check && l.pos.is_check() {
                tally.in_check += 1;
            } else if l.score.abs() > filter.max_score {
                tally.extreme += 1;
            } else if (l.pos.occupied().count() as usize) < filter.min_pieces {
                tally.few_pieces += 1;
            } else {
                samples.push(Sample::new(&l));
            }
        })?;
    }
    Ok((samples, tally))
}

/// Splits off the last `fraction` of `samples` for validation. The data
/// keeps each game's positions together, so the tail holds whole games the
/// training part never saw (but one game at the cut).
pub fn split_validation(mut samples: Vec<Sample>, fraction: f64) -> (Vec<Sample>, Vec<Sample>) {
    let n = (samples.len() as f64 * fraction.clamp(0.0, 0.5)).round() as usize;
    let validation = samples.split_off(samples.len() - n);
    (samples, validation)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn the_filter_counts_what_it_leaves_out() {
        let dir = std::env::temp_dir().join(format!("borrow-train-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("d.txt");
        let mut f = std::fs::File::create(&path).unwrap();
        writeln!(
            f,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 35 | 0.5\n\
             rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3 | -30000 | 0.0\n\
             rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 | 500 | 1.0\n\
             8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 4000 | 1.0\n\
             8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 900 | 1.0"
        )
        .unwrap();
        drop(f);
        let (s, t) = load(std::slice::from_ref(&path), &Filter::default()).unwrap();
        assert_eq!(
            t,
            Loaded {
                read: 5,
                in_check: 2,
                extreme: 1,
                few_pieces: 0
            }
        );
        assert_eq!((s.len(), t.kept()), (2, 2));
        let (_, t) = load(
            std::slice::from_ref(&path),
            &Filter {
                skip_check: false,
                max_score: 100_000,
                min_pieces: 4,
            },
        )
        .unwrap();
        assert_eq!((t.kept(), t.few_pieces), (3, 2));
        let (train, val) = split_validation(s, 0.5);
        assert_eq!((train.len(), val.len()), (1, 1));
        assert_eq!(val[0].score(), 900);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
