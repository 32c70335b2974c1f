//! The logistic scale `K`: how many centipawns of score make the odds of a
//! win `e` times those of a loss, in the trainer's model of a result,
//! `sigmoid(score / K)`.
//!
//! The target blends `sigmoid(score / K)` with the game's result
//! ([`Sample::target`]), and the net's output predicts `sigmoid(cp / K)`
//! ([`crate::model::Model::loss`]). With the score alone (`--wdl 0`) `K`
//! only weighs the positions, but a blend keeps the net's scale only if
//! `K` is the data's own: fitted so that `sigmoid(score / K)` predicts
//! the results best, the result pulls scores neither up nor down on
//! average. With a `K` too large for the data (results more decisive than
//! `sigmoid(score / K)` says) a blend inflates every score. This is
//! Texel's fit of `K`, on the search's scores.

use crate::sample::{Sample, sigmoid};

/// The range [`fit`] searches, centipawns.
pub const FIT_RANGE: (f64, f64) = (50.0, 5_000.0);

/// At most this many positions, evenly spread, are fitted on.
pub const FIT_POSITIONS: usize = 1 << 20;

/// The mean `(sigmoid(score / k) − result)²` over `samples`.
pub fn result_loss(samples: &[Sample], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = f64::from(sigmoid((f64::from(s.score()) / k) as f32));
            let r = f64::from(s.result());
            (p - r) * (p - r)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `K` in [`FIT_RANGE`] whose [`result_loss`] is least over `samples`
/// (at most [`FIT_POSITIONS`] of them, evenly spread), to a tenth of a
/// centipawn: a golden-section search on `ln K`. `None` without samples.
pub fn fit(samples: &[Sample]) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let step = samples.len().div_ceil(FIT_POSITIONS).max(1);
    let some: Vec<Sample> = samples.iter().step_by(step).copied().collect();
    let loss = |ln_k: f64| result_loss(&some, ln_k.exp());
    let golden = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (FIT_RANGE.0.ln(), FIT_RANGE.1.ln());
    let mut c = b - golden * (b - a);
    let mut d = a + golden * (b - a);
    let (mut fc, mut fd) = (loss(c), loss(d));
    while b.exp() - a.exp() > 0.1 {
        if fc <= fd {
            (b, d, fd) = (d, c, fc);
            c = b - golden * (b - a);
            fc = loss(c);
        } else {
            (a, c, fc) = (c, d, fd);
            d = a + golden * (b - a);
            fd = loss(d);
        }
    }
    Some(((a + b) / 2.0).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn no_samples_no_fit() {
        assert_eq!(fit(&[]), None);
    }
}
