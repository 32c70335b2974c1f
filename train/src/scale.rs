//! The logistic scale `K`, centipawns, of the trainer's model of a game's
//! expected result (a win 1, a draw ½) from a score: `sigmoid(score / K)`.
//!
//! The target blends `sigmoid(score / K)` with the game's result
//! ([`Sample::target`]), and the net's output predicts `sigmoid(cp / K)`
//! ([`crate::model::Model::loss`]). With the score alone (`--wdl 0`) `K`
//! only weighs the positions. With a `K` too large for the data (results
//! more decisive than `sigmoid(score / K)` says) a blend inflates the
//! scores; the `K` fitted so that `sigmoid(score / K)` predicts the
//! results best inflates them less, not never: one `K` serves every phase
//! of the game (records/nets-diary.md measured ×1.355 at 400 cp, ×1.152 fitted). This is Texel's
//! fit of `K`, on the search's scores; `borrow-tune`'s `K` is a factor
//! without unit, `sigmoid(K × eval / 400)`, so 400 over it is this one.
//!
//! Validation losses compare only between runs of the same `K` and `--wdl`:
//! both change the target.

use crate::sample::Sample;

/// The range [`fit`] searches, centipawns.
pub const FIT_RANGE: (f64, f64) = (50.0, 5_000.0);

/// At most this many positions, evenly spread, are fitted on.
pub const FIT_POSITIONS: usize = 1 << 20;

/// The mean `(sigmoid(score / k) − result)²` over `samples`.
pub fn result_loss(samples: &[Sample], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = 1.0 / (1.0 + (-f64::from(s.score()) / k).exp());
            let r = f64::from(s.result());
            (p - r) * (p - r)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `K` in [`FIT_RANGE`] whose [`result_loss`] is least over `samples`
/// (at most [`FIT_POSITIONS`] of them, evenly spread), to about a tenth of
/// a centipawn: a golden-section search on `ln K`. `None` without samples.
/// A `K` at an end of the range means the least lies beyond it (results
/// all drawn, say): [`at_an_end`] tells.
pub fn fit(samples: &[Sample]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let step = samples.len().div_ceil(FIT_POSITIONS).max(1);
    let some: Vec<Sample> = samples.iter().step_by(step).copied().collect();
    let ln_k = optim::golden_section_min(
        |ln_k| result_loss(&some, ln_k.exp()),
        FIT_RANGE.0.ln(),
        FIT_RANGE.1.ln(),
        1e-4,
    );
    Some(ln_k.exp())
}

/// Whether a fitted `k` is within 1% of an end of [`FIT_RANGE`].
pub fn at_an_end(k: f64) -> bool {
    k < FIT_RANGE.0 * 1.01 || k > FIT_RANGE.1 / 1.01
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::sigmoid;
    use movegen::Position;
    use nnue::data::read::Labelled;
    use rng::Rng;

    /// Positions whose results are drawn as wins with probability
    /// `sigmoid(score / k)`, losses otherwise.
    fn drawn_from(k: f64, n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let score = rng.below(3_001) as i32 - 1_500;
                let p = f64::from(sigmoid((f64::from(score) / k) as f32));
                let win = (rng.below(1 << 30) as f64) < p * f64::from(1u32 << 30);
                Sample::new(&Labelled {
                    pos: Position::startpos(),
                    score,
                    result: if win { 1.0 } else { 0.0 },
                })
            })
            .collect()
    }

    #[test]
    fn the_fit_finds_the_scale_the_results_were_drawn_with() {
        for k in [150.0, 250.0, 400.0, 800.0] {
            let samples = drawn_from(k, 200_000, k as u64);
            let fitted = fit(&samples).unwrap();
            assert!(
                (fitted / k - 1.0).abs() < 0.05,
                "drawn with {k}, fitted {fitted}"
            );
            // And it is the least loss: a tenth either way is worse.
            let best = result_loss(&samples, fitted);
            assert!(best < result_loss(&samples, fitted * 1.1));
            assert!(best < result_loss(&samples, fitted / 1.1));
        }
    }

    #[test]
    fn more_positions_than_are_fitted_on_still_fit() {
        let samples = drawn_from(300.0, FIT_POSITIONS + FIT_POSITIONS / 2, 3);
        let fitted = fit(&samples).unwrap();
        assert!((fitted / 300.0 - 1.0).abs() < 0.05, "fitted {fitted}");
        assert!(!at_an_end(fitted));
    }

    #[test]
    fn results_beyond_the_range_fit_at_an_end_and_say_so() {
        // Every game drawn: the flattest sigmoid fits best.
        let mut drawn = drawn_from(300.0, 1_000, 4);
        for s in &mut drawn {
            *s = Sample::new(&Labelled {
                pos: Position::startpos(),
                score: s.score(),
                result: 0.5,
            });
        }
        let k = fit(&drawn).unwrap();
        assert!(at_an_end(k) && k > 1_000.0, "{k}");
        // Every game won by the side ahead: the steepest.
        let decisive: Vec<Sample> = drawn
            .iter()
            .map(|s| {
                Sample::new(&Labelled {
                    pos: Position::startpos(),
                    score: s.score() | 1,
                    result: if s.score() > 0 { 1.0 } else { 0.0 },
                })
            })
            .collect();
        let k = fit(&decisive).unwrap();
        assert!(at_an_end(k) && k < 100.0, "{k}");
    }

    #[test]
    fn no_samples_no_fit() {
        assert_eq!(fit(&[]), None);
    }
}
