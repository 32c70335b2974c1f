//! Loading the training data: every labelled position of the files
//! `borrow-datagen` writes (whole games in viriformat, 32-byte marlinformat
//! records, text or gzip text; [`nnue::data::read`] reads them), filtered
//! here, as the field filters at load time so that one file serves many
//! experiments. Games hold every searched ply; the record formats hold only
//! the positions datagen found trainable.

use std::path::PathBuf;

pub use nnue::data::Filter;
use nnue::data::read::{DataError, Labelled, read, read_games};
use nnue::data::{Format, Verdict};

use crate::sample::Sample;

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
    /// Left out for coming before the first ply kept.
    pub early: usize,
    /// Left out for a noisy move (games only).
    pub noisy: usize,
}

impl Loaded {
    /// Positions kept.
    pub fn kept(&self) -> usize {
        self.read - self.in_check - self.extreme - self.few_pieces - self.early - self.noisy
    }
}

/// Every position of `paths`, in file order, that `filter` keeps.
pub fn load(paths: &[PathBuf], filter: &Filter) -> Result<(Vec<Sample>, Loaded), DataError> {
    let mut samples = Vec::new();
    let mut tally = Loaded::default();
    let mut take =
        |l: Labelled, best, tally: &mut Loaded| match filter.verdict(&l.pos, best, l.score) {
            Verdict::Keep => samples.push(Sample::new(&l)),
            Verdict::InCheck => tally.in_check += 1,
            Verdict::Extreme => tally.extreme += 1,
            Verdict::FewPieces => tally.few_pieces += 1,
            Verdict::Early => tally.early += 1,
            Verdict::Noisy => tally.noisy += 1,
        };
    for path in paths {
        if Format::of_path(path) == Format::Viri {
            read_games(path, |game| {
                for (pos, best, score) in game.positions() {
                    tally.read += 1;
                    let result = game.result;
                    take(Labelled { pos, score, result }, Some(best), &mut tally);
                }
            })?;
        } else {
            read(path, |l| {
                tally.read += 1;
                take(l, None, &mut tally);
            })?;
        }
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
                few_pieces: 0,
                early: 0,
                noisy: 0
            }
        );
        assert_eq!((s.len(), t.kept()), (2, 2));
        let (_, t) = load(
            std::slice::from_ref(&path),
            &Filter {
                skip_check: false,
                max_score: 100_000,
                min_pieces: 4,
                min_ply: 0,
                skip_noisy: true,
            },
        )
        .unwrap();
        assert_eq!((t.kept(), t.few_pieces), (3, 2));
        let (train, val) = split_validation(s, 0.5);
        assert_eq!((train.len(), val.len()), (1, 1));
        assert_eq!(val[0].score(), 900);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_games_plies_are_filtered_when_loaded() {
        use movegen::Position;
        use nnue::data::viriformat::ViriGame;
        let dir = std::env::temp_dir().join(format!("borrow-train-vf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("g.vf");
        // Two captures (noisy), then Qe5+: the last ply's position is in check.
        let mut pos: Position = Position::startpos();
        let moves = ["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5e5", "f1e2"];
        let plies = moves
            .iter()
            .enumerate()
            .map(|(i, uci)| {
                let m = pos.parse_uci(uci).unwrap();
                pos.play_unchecked(m);
                (m, 10 * i as i32)
            })
            .collect();
        let game = ViriGame {
            start: Position::startpos(),
            result: 0.5,
            plies,
        };
        std::fs::write(&path, game.to_bytes()).unwrap();
        let (s, t) = load(std::slice::from_ref(&path), &Filter::default()).unwrap();
        assert_eq!((t.read, t.noisy, t.in_check, t.kept()), (7, 2, 1, 4));
        let scores: Vec<i32> = s.iter().map(|s| s.score()).collect();
        // The side to move's view: White's 0 and 40, Black's -10 and -50.
        assert_eq!(scores, [0, -10, 40, -50]);
        let keep_noisy = Filter {
            skip_noisy: false,
            ..Filter::default()
        };
        let (_, t) = load(std::slice::from_ref(&path), &keep_noisy).unwrap();
        assert_eq!((t.noisy, t.kept()), (0, 6));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
