//! The sequential probability ratio test, as fishtest and fastchess run it:
//! a generalized SPRT (GSPRT) whose log-likelihood ratio is computed from
//! the pentanomial (game-pair) model, or the trinomial one when games are
//! not played in pairs.
//!
//! The hypotheses are `H0: elo = elo0` against `H1: elo = elo1`, in either
//! logistic or normalised Elo. With the empirical distribution `p̂` of the
//! per-sample scores (see [`stats`](crate::stats)) and `N` samples, the
//! GSPRT statistic is
//!
//! ```text
//! LLR = N · Σᵢ p̂ᵢ · ln(p1ᵢ / p0ᵢ)
//! ```
//!
//! where `p0`, `p1` are the maximum-likelihood distributions (on the same
//! scores) that satisfy `H0`, `H1` (M. van den Bergh, *Support of MLE for
//! multinomial distributions*, Proposition 1.1; *Comments on normalized
//! Elo*, Section 4.1):
//!
//! - **logistic**: the constraint is a mean score `s = 1/(1 + 10^(-elo/400))`.
//!   Maximising `Σ p̂ᵢ ln pᵢ` subject to `Σ pᵢ = 1` and `Σ aᵢ pᵢ = s` gives,
//!   by Lagrange, `pᵢ = p̂ᵢ / (1 + θ(aᵢ - s))` with `θ` the root of the
//!   secular equation `Σ p̂ᵢ (aᵢ - s)/(1 + θ(aᵢ - s)) = 0`.
//! - **normalised**: the constraint is `(μ(p) - ½)/σ(p) = t` with
//!   `t = nElo·ln 10/800` for games and `t = √2·nElo·ln 10/800` for pairs
//!   (a pair's mean score has half the variance of a game). With
//!   `φᵢ = aᵢ - ½ - (t/2)·σ·(1 + ((aᵢ - μ)/σ)²)` (so that `Σ pᵢ φᵢ` is the
//!   constraint `μ - ½ - tσ` and its gradient), the optimum again has the
//!   form `pᵢ = p̂ᵢ/(1 + θφᵢ)`, `θ` the root of `Σ p̂ᵢ φᵢ/(1 + θφᵢ) = 0`;
//!   since `φ` depends on `p`, this is iterated to a fixed point.
//!
//! For data near the bounds the statistic is close to the Brownian
//! approximation (van den Bergh, *A GSPRT approximation*), kept here as
//! [`llr_logistic_approx`] and [`llr_normalized_approx`] and used by the
//! tests:
//!
//! ```text
//! logistic:   LLR ≈ N·(s1 - s0)·(2x̄ - s0 - s1) / (2σ²)
//! normalised: LLR ≈ N·(t1 - t0)·(2t̂ - t0 - t1) / 2,   t̂ = (x̄ - ½)/σ
//! ```
//!
//! The test stops when `LLR ≤ A = ln(β/(1-α))` (H0 accepted) or
//! `LLR ≥ B = ln((1-β)/α)` (H1 accepted).

use std::fmt;

use crate::stats::{Empirical, NELO_PER_T, mean_variance, score_from_elo};

/// The unit of `elo0` and `elo1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo: an expected score `1/(1 + 10^(-elo/400))`.
    Logistic,
    /// Normalised Elo: `(score - ½)/σ_game · 800/ln 10`.
    Normalized,
}

impl EloModel {
    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

/// What the test has decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound reached.
    Continue,
    /// `LLR ≤ A`: H0 (`elo = elo0`) accepted; the test fails.
    AcceptH0,
    /// `LLR ≥ B`: H1 (`elo = elo1`) accepted; the test passes.
    AcceptH1,
}

impl Decision {
    /// A short human-readable word.
    pub fn name(self) -> &'static str {
        match self {
            Decision::Continue => "continue",
            Decision::AcceptH0 => "H0 accepted",
            Decision::AcceptH1 => "H1 accepted",
        }
    }
}

impl fmt::Display for Decision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The parameters of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Type I error: accepting H1 when `elo = elo0`.
    pub alpha: f64,
    /// Type II error: accepting H0 when `elo = elo1`.
    pub beta: f64,
    /// The unit of `elo0` and `elo1`.
    pub model: EloModel,
}

impl Sprt {
    /// Checks the parameters: `elo0 < elo1`, `0 < α, β` and `α + β < 1`.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})"
            ));
        }
        if !(alpha > 0.0 && beta > 0.0 && alpha + beta < 1.0) {
            return Err(format!(
                "SPRT: alpha ({alpha}) and beta ({beta}) must be positive with alpha + beta < 1"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// `A = ln(β/(1-α))`: at or below it H0 is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// `B = ln((1-β)/α)`: at or above it H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of trinomial `[L, D, W]` or pentanomial
    /// `[n0..n4]` counts; 0 without samples.
    pub fn llr(&self, counts: &[u64]) -> f64 {
        match self.model {
            EloModel::Logistic => llr_logistic(counts, self.elo0, self.elo1),
            EloModel::Normalized => llr_normalized(counts, self.elo0, self.elo1),
        }
    }

    /// What an LLR means for this test.
    pub fn decision(&self, llr: f64) -> Decision {
        if llr >= self.upper_bound() {
            Decision::AcceptH1
        } else if llr <= self.lower_bound() {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }
}

/// `t` per sample for a normalised Elo: `nElo/(800/ln 10)` for games, and
/// `√2` times that for pairs.
fn t_of_nelo(nelo: f64, e: &Empirical) -> f64 {
    e.games_per_sample().sqrt() * nelo / NELO_PER_T
}

/// Exact GSPRT log-likelihood ratio for logistic Elo bounds; 0 without
/// samples.
pub fn llr_logistic(counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    let Some(e) = Empirical::new(counts) else {
        return 0.0;
    };
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    match (mle_with_mean(&e, s0), mle_with_mean(&e, s1)) {
        (Some(p0), Some(p1)) => llr_of(&e, &p0, &p1),
        _ => llr_logistic_approx(counts, elo0, elo1),
    }
}

/// Exact GSPRT log-likelihood ratio for normalised Elo bounds; 0 without
/// samples.
pub fn llr_normalized(counts: &[u64], nelo0: f64, nelo1: f64) -> f64 {
    let Some(e) = Empirical::new(counts) else {
        return 0.0;
    };
    let (t0, t1) = (t_of_nelo(nelo0, &e), t_of_nelo(nelo1, &e));
    match (mle_with_t(&e, 0.5, t0), mle_with_t(&e, 0.5, t1)) {
        (Some(p0), Some(p1)) => llr_of(&e, &p0, &p1),
        _ => llr_normalized_approx(counts, nelo0, nelo1),
    }
}

/// The Brownian approximation `N·(s1 - s0)·(2x̄ - s0 - s1)/(2σ²)` for
/// logistic bounds; 0 without samples.
pub fn llr_logistic_approx(counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    let Some(e) = Empirical::new(counts) else {
        return 0.0;
    };
    let (mean, var) = e.mean_variance();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    e.n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The Brownian approximation `N·(t1 - t0)·(2t̂ - t0 - t1)/2` for
/// normalised bounds; 0 without samples.
pub fn llr_normalized_approx(counts: &[u64], nelo0: f64, nelo1: f64) -> f64 {
    let Some(e) = Empirical::new(counts) else {
        return 0.0;
    };
    let (mean, var) = e.mean_variance();
    let t_hat = (mean - 0.5) / var.sqrt();
    let (t0, t1) = (t_of_nelo(nelo0, &e), t_of_nelo(nelo1, &e));
    e.n * (t1 - t0) * (2.0 * t_hat - t0 - t1) / 2.0
}

/// `N · Σ p̂ᵢ ln(p1ᵢ/p0ᵢ)`.
fn llr_of(e: &Empirical, p0: &[f64], p1: &[f64]) -> f64 {
    e.n * e
        .probs
        .iter()
        .zip(p0.iter().zip(p1))
        .map(|(ph, (a, b))| ph * (b / a).ln())
        .sum::<f64>()
}

/// The root `θ` of `f(θ) = Σ p̂ᵢ cᵢ/(1 + θcᵢ)` on the interval where every
/// `1 + θcᵢ > 0`, i.e. `(-1/max c, -1/min c)`; it needs `min c < 0 < max c`.
/// `f` decreases from `+∞` to `-∞` there (`f' = -Σ p̂ᵢ cᵢ²/(1 + θcᵢ)² < 0`),
/// so bisection finds the single root.
fn secular_root(c: &[f64], probs: &[f64]) -> Option<f64> {
    let lo_c = c.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_c = c.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo_c < 0.0 && hi_c > 0.0) {
        return None;
    }
    let f = |theta: f64| -> f64 {
        c.iter()
            .zip(probs)
            .map(|(ci, pi)| pi * ci / (1.0 + theta * ci))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / hi_c, -1.0 / lo_c);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

/// The maximum-likelihood distribution with mean `s`:
/// `pᵢ = p̂ᵢ/(1 + θ(aᵢ - s))`.
fn mle_with_mean(e: &Empirical, s: f64) -> Option<Vec<f64>> {
    let c: Vec<f64> = e.values.iter().map(|a| a - s).collect();
    let theta = secular_root(&c, &e.probs)?;
    Some(
        e.probs
            .iter()
            .zip(&c)
            .map(|(p, ci)| p / (1.0 + theta * ci))
            .collect(),
    )
}

/// The maximum-likelihood distribution with `(μ - reference)/σ = t`,
/// found by iterating `pᵢ = p̂ᵢ/(1 + θφᵢ(p))` from the uniform distribution.
fn mle_with_t(e: &Empirical, reference: f64, t: f64) -> Option<Vec<f64>> {
    let k = e.values.len();
    let mut p = vec![1.0 / k as f64; k];
    for _ in 0..1000 {
        let (mu, var) = mean_variance(&e.values, &p);
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            return None;
        }
        let phi: Vec<f64> = e
            .values
            .iter()
            .map(|a| {
                let z = (a - mu) / sigma;
                a - reference - 0.5 * t * sigma * (1.0 + z * z)
            })
            .collect();
        let theta = secular_root(&phi, &e.probs)?;
        let mut change: f64 = 0.0;
        for i in 0..k {
            let next = e.probs[i] / (1.0 + theta * phi[i]);
            change = change.max((next - p[i]).abs());
            p[i] = next;
        }
        if change < 1e-13 {
            return Some(p);
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn assert_close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} is not within {tol} of {b}");
    }

    const EXAMPLE: [u64; 5] = [5, 15, 40, 30, 10];

    #[test]
    fn bounds() {
        // α = β = 0.05: A = ln(0.05/0.95) = ln(0.0526316) = -2.944439,
        // B = ln(0.95/0.05) = ln 19 = 2.944439.
        let s = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        assert_close(s.lower_bound(), -2.944439, 1e-6);
        assert_close(s.upper_bound(), 2.944439, 1e-6);
        // α = 0.05, β = 0.1: A = ln(0.1/0.95) = -2.251292,
        // B = ln(0.9/0.05) = ln 18 = 2.890372.
        let s = Sprt::new(0.0, 5.0, 0.05, 0.1, EloModel::Logistic).unwrap();
        assert_close(s.lower_bound(), -2.251292, 1e-6);
        assert_close(s.upper_bound(), 2.890372, 1e-6);
        assert_eq!(s.decision(2.9), Decision::AcceptH1);
        assert_eq!(s.decision(-2.26), Decision::AcceptH0);
        assert_eq!(s.decision(0.0), Decision::Continue);
    }

    #[test]
    fn parameters_are_checked() {
        assert!(Sprt::new(5.0, 0.0, 0.05, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, EloModel::Logistic).is_err());
        assert!(Sprt::new(0.0, 5.0, 0.5, 0.5, EloModel::Normalized).is_err());
    }

    #[test]
    fn no_samples_no_evidence() {
        assert_eq!(llr_logistic(&[0; 5], 0.0, 5.0), 0.0);
        assert_eq!(llr_normalized(&[0; 3], 0.0, 5.0), 0.0);
    }

    // Worked example [5, 15, 40, 30, 10]: N = 100, x̄ = 0.5625,
    // σ² = 0.06171875 (see stats.rs). Bounds [0, 5] logistic:
    //   s0 = ½;  s1 = 1/(1 + 10^(-5/400)) = 1/(1 + 0.9716279) = 0.5071950
    //   LLR ≈ 100 · 0.0071950 · (1.125 - 1.0071950) / (2 · 0.06171875)
    //       = 100 · 0.0071950 · 0.1178050 / 0.1234375
    //       = 100 · 0.00084761 / 0.1234375                  = 0.6867
    #[test]
    fn logistic_approximation_by_hand() {
        assert_close(llr_logistic_approx(&EXAMPLE, 0.0, 5.0), 0.6867, 0.0005);
    }

    // Same sample, bounds [0, 5] normalised. Per pair:
    //   t1 = √2 · 5/347.43559 = 7.0710678/347.43559 = 0.0203522, t0 = 0
    //   t̂  = 0.0625/√0.06171875 = 0.0625/0.2484326 = 0.2515773
    //   LLR ≈ 100 · 0.0203522 · (0.5031546 - 0.0203522)/2
    //       = 100 · 0.0203522 · 0.2414012                   = 0.4913
    #[test]
    fn normalized_approximation_by_hand() {
        assert_close(llr_normalized_approx(&EXAMPLE, 0.0, 5.0), 0.4913, 0.0005);
    }

    // The exact statistic on the worked example, from an independent
    // Python script (bisection on the secular equation, no shared code):
    // logistic 0.63010, normalised 0.46854. At 43 Elo the sample is far
    // from both bounds, so the Brownian approximation overshoots a little.
    #[test]
    fn exact_llr_on_the_worked_example() {
        assert_close(llr_logistic(&EXAMPLE, 0.0, 5.0), 0.63010, 0.0005);
        assert_close(llr_normalized(&EXAMPLE, 0.0, 5.0), 0.46854, 0.0005);
    }

    #[test]
    fn mle_satisfies_its_constraint() {
        let e = Empirical::new(&EXAMPLE).unwrap();
        let p = mle_with_mean(&e, 0.51).unwrap();
        let (mu, _) = mean_variance(&e.values, &p);
        assert_close(p.iter().sum::<f64>(), 1.0, 1e-9);
        assert_close(mu, 0.51, 1e-9);
        let p = mle_with_t(&e, 0.5, 0.03).unwrap();
        let (mu, var) = mean_variance(&e.values, &p);
        assert_close(p.iter().sum::<f64>(), 1.0, 1e-9);
        assert_close((mu - 0.5) / var.sqrt(), 0.03, 1e-9);
    }

    #[test]
    fn exact_and_approximate_agree_near_the_bounds() {
        // fishtest's own example (logistic [-3, 1]): 188 000 games in pairs.
        // Exact 2.13107, approximation 2.13124 (Python, as above).
        let f = [10789, 19328, 33806, 19402, 10543];
        assert_close(llr_logistic(&f, -3.0, 1.0), 2.13107, 0.0005);
        assert_close(llr_logistic_approx(&f, -3.0, 1.0), 2.13124, 0.0005);
        assert_close(llr_normalized(&f, -3.0, 1.0), 0.30087, 0.0005);
        assert_close(llr_normalized_approx(&f, -3.0, 1.0), 0.30092, 0.0005);
    }

    // fastchess's published test values (independent reference numbers):
    // its Stats(ll, ld, wl, dd, wd, ww) and Stats(w, l, d).
    #[test]
    fn agrees_with_fastchess_reference_values() {
        let penta =
            |ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64| [ll, ld, wl + dd, wd, ww];
        let l = |c: &[u64], a, b| llr_logistic(c, a, b);
        let n = |c: &[u64], a, b| llr_normalized(c, a, b);
        let p1 = penta(223, 9863, 20279, 1000, 10037, 246);
        assert_close(l(&p1, 0.5, 2.5), -3.07, 0.01);
        let p2 = penta(871, 26175, 55003, 980, 26678, 821);
        assert_close(l(&p2, 0.0, 2.0), -4.98, 0.01);
        let p3 = penta(365, 16618, 36029, 200, 16974, 390);
        assert_close(n(&p3, 0.0, 2.0), 2.25, 0.01);
        let p4 = penta(127, 4883, 10311, 401, 5150, 104);
        assert_close(n(&p4, -1.75, 0.25), 3.01, 0.01);
        // Trinomial [L, D, W].
        assert_close(l(&[21184, 40708, 21404], 0.5, 2.5), -1.57, 0.01);
        assert_close(l(&[57030, 106593, 57433], 0.0, 2.0), -2.59, 0.01);
        assert_close(n(&[36027, 68692, 36433], 0.0, 2.0), 0.92, 0.01);
        assert_close(n(&[10650, 20431, 10871], -1.75, 0.25), 2.30, 0.01);
    }

    #[test]
    fn llr_grows_with_evidence_and_is_antisymmetric() {
        // Doubling every count doubles the LLR (same distribution, 2N).
        let one = llr_logistic(&EXAMPLE, 0.0, 5.0);
        let two = llr_logistic(&EXAMPLE.map(|c| 2 * c), 0.0, 5.0);
        assert_close(two, 2.0 * one, 1e-9);
        // Mirrored results with mirrored bounds give the opposite LLR.
        let mut mirrored = EXAMPLE;
        mirrored.reverse();
        assert_close(llr_logistic(&mirrored, -5.0, 0.0), -one, 1e-9);
    }
}
