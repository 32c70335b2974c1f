//! Match statistics as pure functions: W/D/L, pentanomial counts, Elo with a
//! 95% interval, normalised Elo (nElo) and the likelihood of superiority.
//!
//! Conventions (those of fishtest and fastchess):
//!
//! - Results are counted from the point of view of the *first* engine.
//! - A **trinomial** sample is the per-game counts `[losses, draws, wins]`
//!   with scores `0, ½, 1`; a **pentanomial** sample is the per-pair counts
//!   `[n0, n1, n2, n3, n4]`, `nk` being the number of game pairs (the same
//!   opening with colours swapped) in which the first engine scored `k/2`
//!   points. Both are *empirical distributions* over equally spaced scores
//!   `i/(k-1)` in `[0, 1]`, so a pair's score is its points divided by 2 and
//!   its mean is the mean score per game.
//! - A count of zero is replaced by `1e-3` (fishtest's regularisation) so
//!   that no estimate is infinite; the tests use samples without zeros.
//!
//! With `N` samples (games or pairs), mean `x̄` and variance `σ²` of the
//! per-sample score:
//!
//! - Elo: `elo(x̄)` with `elo(s) = -400·log10(1/s - 1)`; the 95% interval is
//!   `[elo(x̄ - z·σ/√N), elo(x̄ + z·σ/√N)]`, `z = Φ⁻¹(0.975)`, reported as
//!   `elo ± (upper - lower)/2`.
//! - nElo (van den Bergh's normalised Elo): `(x̄ - ½)/σ_game · 800/ln 10`
//!   with `σ_game = σ` for games and `σ_game = √2·σ` for pairs (the
//!   variance of a pair's mean score is half that of one game when the games
//!   are independent); its interval is `± z·(800/ln 10)/√games`.
//! - LOS: `Φ((x̄ - ½)/(σ/√N))`.

use std::f64::consts::LN_10;

/// `Φ⁻¹(0.975)`: the half-width of a 95% interval in standard deviations.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800/ln 10 ≈ 347.4356`: normalised Elo per unit of `t = (x̄ - ½)/σ`.
pub const NELO_PER_T: f64 = 800.0 / LN_10;

/// What a zero count is replaced with (fishtest's regularisation).
pub const REGULARISATION: f64 = 1e-3;

/// The result of one game from the first engine's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The first engine won.
    Win,
    /// A draw.
    Draw,
    /// The first engine lost.
    Loss,
}

impl Wdl {
    /// Points scored: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            Wdl::Win => 1.0,
            Wdl::Draw => 0.5,
            Wdl::Loss => 0.0,
        }
    }

    /// The same game from the other engine's point of view.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trinomial {
    /// Games the first engine won.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games the first engine lost.
    pub losses: u64,
}

impl Trinomial {
    /// Counts one game.
    pub fn add(&mut self, r: Wdl) {
        match r {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points of the first engine.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The counts in score order: `[losses, draws, wins]`.
    pub fn counts(&self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// Game-pair results of the first engine, keeping apart the two ways of
/// scoring one point (a win and a loss, or two draws).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Two losses (0 points).
    pub ll: u64,
    /// A loss and a draw (½ point).
    pub ld: u64,
    /// A win and a loss (1 point).
    pub wl: u64,
    /// Two draws (1 point).
    pub dd: u64,
    /// A win and a draw (1½ points).
    pub wd: u64,
    /// Two wins (2 points).
    pub ww: u64,
}

impl Pairs {
    /// Counts one pair, given its two games in either order.
    pub fn add(&mut self, a: Wdl, b: Wdl) {
        use Wdl::*;
        match (a, b) {
            (Loss, Loss) => self.ll += 1,
            (Loss, Draw) | (Draw, Loss) => self.ld += 1,
            (Win, Loss) | (Loss, Win) => self.wl += 1,
            (Draw, Draw) => self.dd += 1,
            (Win, Draw) | (Draw, Win) => self.wd += 1,
            (Win, Win) => self.ww += 1,
        }
    }

    /// Pairs counted.
    pub fn total(&self) -> u64 {
        self.ll + self.ld + self.wl + self.dd + self.wd + self.ww
    }

    /// The pentanomial counts `[n0, n1, n2, n3, n4]` (pairs scoring
    /// 0, ½, 1, 1½, 2 points).
    pub fn pentanomial(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }
}

/// An empirical distribution over the scores `i/(k-1)`, `i = 0..k`.
#[derive(Clone, Debug, PartialEq)]
pub struct Empirical {
    /// Number of samples (after regularisation).
    pub n: f64,
    /// The possible scores, ascending, from 0 to 1.
    pub values: Vec<f64>,
    /// Their relative frequencies (regularised, summing to 1).
    pub probs: Vec<f64>,
}

impl Empirical {
    /// The regularised distribution of `counts`; `None` without any sample
    /// or with fewer than two categories.
    pub fn new(counts: &[u64]) -> Option<Empirical> {
        if counts.len() < 2 || counts.iter().all(|&c| c == 0) {
            return None;
        }
        let reg: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { REGULARISATION } else { c as f64 })
            .collect();
        let n: f64 = reg.iter().sum();
        let k = counts.len();
        Some(Empirical {
            n,
            values: (0..k).map(|i| i as f64 / (k - 1) as f64).collect(),
            probs: reg.iter().map(|c| c / n).collect(),
        })
    }

    /// Mean and variance of the score of one sample.
    pub fn mean_variance(&self) -> (f64, f64) {
        mean_variance(&self.values, &self.probs)
    }

    /// Games one sample stands for: 1 for trinomial, 2 for pentanomial.
    pub fn games_per_sample(&self) -> f64 {
        (self.values.len() - 1) as f64 / 2.0
    }
}

/// Mean and variance of the distribution `probs` over `values`.
pub fn mean_variance(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mean: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    let var: f64 = values
        .iter()
        .zip(probs)
        .map(|(a, p)| p * (a - mean) * (a - mean))
        .sum();
    (mean, var)
}

/// An estimate with a 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The point estimate.
    pub value: f64,
    /// Lower end of the 95% interval.
    pub lower: f64,
    /// Upper end of the 95% interval.
    pub upper: f64,
}

impl Interval {
    /// Half the interval's width: the `±` of `value ± error`.
    pub fn error(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Expected score of a player `elo` logistic Elo stronger:
/// `1/(1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Logistic Elo difference of an expected score: `-400·log10(1/s - 1)`,
/// the score clamped to `[0.001, 0.999]` (±1200 Elo) as fishtest does.
pub fn elo_from_score(s: f64) -> f64 {
    let s = s.clamp(REGULARISATION, 1.0 - REGULARISATION);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The error function: `libm`'s (a port of FreeBSD's msun, within an ulp).
pub fn erf(x: f64) -> f64 {
    libm::erf(x)
}

/// The standard normal distribution function `Φ(x) = (1 + erf(x/√2))/2`.
pub fn phi(x: f64) -> f64 {
    0.5 * (1.0 + erf(x / std::f64::consts::SQRT_2))
}

/// Logistic Elo with its 95% interval from trinomial `[L, D, W]` or
/// pentanomial `[n0..n4]` counts; `None` without samples.
pub fn elo(counts: &[u64]) -> Option<Interval> {
    let e = Empirical::new(counts)?;
    let (mean, var) = e.mean_variance();
    let se = (var / e.n).sqrt();
    Some(Interval {
        value: elo_from_score(mean),
        lower: elo_from_score(mean - Z95 * se),
        upper: elo_from_score(mean + Z95 * se),
    })
}

/// Normalised Elo with its 95% interval from trinomial or pentanomial
/// counts; `None` without samples.
pub fn nelo(counts: &[u64]) -> Option<Interval> {
    let e = Empirical::new(counts)?;
    let (mean, var) = e.mean_variance();
    let games_per_sample = e.games_per_sample();
    // σ of one game's score: for pairs, √2 times the σ of a pair's mean.
    let sigma_game = (games_per_sample * var).sqrt();
    if sigma_game <= 0.0 {
        return None;
    }
    let value = (mean - 0.5) / sigma_game * NELO_PER_T;
    let error = Z95 * NELO_PER_T / (games_per_sample * e.n).sqrt();
    Some(Interval {
        value,
        lower: value - error,
        upper: value + error,
    })
}

/// Likelihood of superiority of the first engine, from trinomial or
/// pentanomial counts; `None` without samples.
pub fn los(counts: &[u64]) -> Option<f64> {
    let e = Empirical::new(counts)?;
    let (mean, var) = e.mean_variance();
    let se = (var / e.n).sqrt();
    if se <= 0.0 {
        return None;
    }
    Some(phi((mean - 0.5) / se))
}

/// The fewest game pairs (or, for single games, twice as many games) whose
/// Elo interval a summary shows. The interval is `z·σ/√n` with `σ` estimated
/// from the same few samples: the relative standard error of that estimate
/// is about `1/√(2(n-1))`, a third at 5 pairs and under a quarter from 10;
/// and with few pairs most pentanomial counts are empty, so the
/// regularisation (`1e-3` a count) stands in for the variance and the
/// interval shrinks toward nothing (one drawn pair gave `0.0 ± 34.0`, one
/// win and one draw `+189.7 ± 56.0`). Below this the summary says "too few
/// games" instead of an interval.
pub const MIN_PAIRS: u64 = 10;

/// Why a summary shows no interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TooFew {
    /// Fewer samples than [`MIN_PAIRS`] pairs (or twice as many games).
    Samples {
        /// Pairs, or games when no pair is complete.
        have: u64,
        /// The minimum.
        need: u64,
        /// Whether `have` and `need` count pairs.
        pairs: bool,
    },
}

impl std::fmt::Display for TooFew {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TooFew::Samples { have, need, pairs } => {
                let unit = if pairs { "pair" } else { "game" };
                write!(
                    f,
                    "too few games ({}; {need} needed)",
                    book::plural(have as usize, unit)
                )
            }
        }
    }
}

/// Whether `counts` (pentanomial when `pairs`, else trinomial) are enough
/// for an interval.
pub fn too_few(counts: &[u64], pairs: bool) -> Option<TooFew> {
    let have: u64 = counts.iter().sum();
    let need = if pairs { MIN_PAIRS } else { 2 * MIN_PAIRS };
    (have < need).then_some(TooFew::Samples { have, need, pairs })
}

/// Everything the summary shows, computed from the counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Wins, draws, losses of the first engine.
    pub wdl: Trinomial,
    /// Completed game pairs.
    pub pairs: Pairs,
    /// Elo from the pentanomial model when there are pairs, else trinomial.
    pub elo: Option<Interval>,
    /// Elo from the trinomial model (games taken as independent).
    pub elo_trinomial: Option<Interval>,
    /// Normalised Elo (pentanomial when there are pairs, else trinomial).
    pub nelo: Option<Interval>,
    /// Likelihood of superiority (same model as `elo`).
    pub los: Option<f64>,
    /// Set when the samples are too few for the figures above, which are
    /// then `None`.
    pub too_few: Option<TooFew>,
}

impl Summary {
    /// Computes the statistics; the pentanomial model is used as soon as a
    /// pair is complete. Below [`MIN_PAIRS`] (see [`too_few`]) there are
    /// none.
    pub fn new(wdl: Trinomial, pairs: Pairs) -> Summary {
        let tri = wdl.counts();
        let penta = pairs.pentanomial();
        let main: &[u64] = if pairs.total() > 0 { &penta } else { &tri };
        let few = too_few(main, pairs.total() > 0);
        let shown = |x| if few.is_some() { None } else { x };
        Summary {
            wdl,
            pairs,
            elo: shown(elo(main)),
            elo_trinomial: shown(elo(&tri)),
            nelo: shown(nelo(main)),
            los: if few.is_some() { None } else { los(main) },
            too_few: few,
        }
    }

    /// Whether the main figures come from the pentanomial model.
    pub fn pentanomial(&self) -> bool {
        self.pairs.total() > 0
    }

    /// Share of drawn games, in [0, 1].
    pub fn draw_ratio(&self) -> f64 {
        let g = self.wdl.games();
        if g == 0 {
            0.0
        } else {
            self.wdl.draws as f64 / g as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[track_caller]
    fn assert_close(a: f64, b: f64, tol: f64) {
        assert!(close(a, b, tol), "{a} is not within {tol} of {b}");
    }

    #[test]
    fn pairs_are_counted_in_either_order() {
        let mut p = Pairs::default();
        p.add(Wdl::Win, Wdl::Loss);
        p.add(Wdl::Loss, Wdl::Win);
        p.add(Wdl::Draw, Wdl::Draw);
        p.add(Wdl::Draw, Wdl::Win);
        p.add(Wdl::Loss, Wdl::Loss);
        p.add(Wdl::Draw, Wdl::Loss);
        p.add(Wdl::Win, Wdl::Win);
        assert_eq!(p.pentanomial(), [1, 1, 3, 1, 1]);
        assert_eq!((p.wl, p.dd), (2, 1));
        assert_eq!(p.total(), 7);
    }

    #[test]
    fn trinomial_counts() {
        let mut t = Trinomial::default();
        for r in [Wdl::Win, Wdl::Win, Wdl::Draw, Wdl::Loss] {
            t.add(r);
        }
        assert_eq!(t.counts(), [1, 1, 2]);
        assert_eq!(t.points(), 2.5);
        assert_eq!(Wdl::Win.flip(), Wdl::Loss);
    }

    #[test]
    fn erf_and_phi_known_values() {
        // Tabulated: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929,
        // erf(2) = 0.9953222650, erf(3) = 0.9999779095.
        assert_close(erf(0.0), 0.0, 1e-15);
        assert_close(erf(0.5), 0.520_499_877_813_046_5, 1e-12);
        assert_close(erf(1.0), 0.842_700_792_949_714_9, 1e-12);
        assert_close(erf(2.0), 0.995_322_265_018_952_7, 1e-12);
        assert_close(erf(3.0), 0.999_977_909_503_001_4, 1e-12);
        assert_close(erf(-1.0), -0.842_700_792_949_714_9, 1e-12);
        assert_close(erf(2.5), 0.999_593_047_982_555, 1e-12);
        assert_close(erf(10.0), 1.0, 1e-15);
        // Φ(1.959964) = 0.975, Φ(0) = ½.
        assert_close(phi(Z95), 0.975, 1e-9);
        assert_close(phi(0.0), 0.5, 1e-15);
    }

    #[test]
    fn elo_score_round_trip() {
        // 10^(-100/400) = 0.5623413; 1/(1 + 0.5623413) = 0.6400649.
        assert_close(score_from_elo(100.0), 0.640_064_9, 1e-7);
        assert_close(elo_from_score(0.640_064_9), 100.0, 1e-4);
        assert_close(elo_from_score(0.5), 0.0, 1e-12);
        // Clamped at 0.999: -400·log10(1/0.999 - 1) = -400·log10(0.001001)
        // = -400·(-2.999566) = 1199.83.
        assert_close(elo_from_score(1.0), 1199.83, 0.01);
    }

    #[test]
    fn empty_samples_give_no_estimate() {
        assert_eq!(elo(&[0, 0, 0]), None);
        assert_eq!(nelo(&[0, 0, 0, 0, 0]), None);
        assert_eq!(los(&[]), None);
        let s = Summary::new(Trinomial::default(), Pairs::default());
        assert_eq!(s.elo, None);
        assert_eq!(s.draw_ratio(), 0.0);
    }

    // The worked example: 100 game pairs with pentanomial counts
    // [n0, n1, n2, n3, n4] = [5, 15, 40, 30, 10].
    //
    // Pair scores are 0, ¼, ½, ¾, 1 (points / 2).
    //   x̄   = (0·5 + ¼·15 + ½·40 + ¾·30 + 1·10)/100
    //       = (3.75 + 20 + 22.5 + 10)/100                 = 0.5625
    //   E x² = (1/16·15 + ¼·40 + 9/16·30 + 1·10)/100
    //       = (0.9375 + 10 + 16.875 + 10)/100             = 0.378125
    //   σ²  = 0.378125 - 0.5625²  = 0.378125 - 0.31640625 = 0.06171875
    //   se  = √(σ²/100) = √0.0006171875                   = 0.02484326
    //   z·se = 1.959964 · 0.02484326                      = 0.04869217
    //
    // Elo   = -400·log10(1/0.5625 - 1) = -400·log10(0.777778)
    //       = -400·(-0.1091445)                           = 43.658
    // lower = elo(0.5625 - 0.0486922 = 0.5138078)
    //       = -400·log10(0.4861922/0.5138078 = 0.9462533) =  9.597
    // upper = elo(0.5625 + 0.0486922 = 0.6111922)
    //       = -400·log10(0.3888078/0.6111922 = 0.6361470) = 78.577
    // ±     = (78.577 - 9.597)/2                          = 34.490
    //
    // nElo  = (x̄ - ½)/√(2σ²) · 800/ln 10
    //       = 0.0625/√0.1234375 · 347.43559
    //       = 0.0625/0.3513367 · 347.43559 = 0.1778919 · 347.43559 = 61.806
    // ±     = z · 347.43559/√(2·100) = 680.9612/14.142136      = 48.151
    //
    // LOS   = Φ(0.0625/0.02484326) = Φ(2.515773)               = 0.99406
    const EXAMPLE: [u64; 5] = [5, 15, 40, 30, 10];

    #[test]
    fn worked_example_mean_and_variance() {
        let e = Empirical::new(&EXAMPLE).unwrap();
        let (m, v) = e.mean_variance();
        assert_close(e.n, 100.0, 1e-12);
        assert_close(m, 0.5625, 1e-12);
        assert_close(v, 0.06171875, 1e-12);
    }

    #[test]
    fn worked_example_elo() {
        let i = elo(&EXAMPLE).unwrap();
        assert_close(i.value, 43.658, 0.001);
        assert_close(i.lower, 9.597, 0.001);
        assert_close(i.upper, 78.577, 0.001);
        assert_close(i.error(), 34.490, 0.001);
    }

    #[test]
    fn worked_example_nelo_and_los() {
        let n = nelo(&EXAMPLE).unwrap();
        assert_close(n.value, 61.806, 0.001);
        assert_close(n.error(), 48.151, 0.001);
        assert_close(los(&EXAMPLE).unwrap(), 0.99406, 0.00001);
    }

    // A trinomial example: 40 wins, 30 draws, 30 losses (counts [L, D, W] =
    // [30, 30, 40]).
    //   x̄  = (0·30 + ½·30 + 1·40)/100 = 0.55
    //   E x² = (¼·30 + 1·40)/100 = 0.475;  σ² = 0.475 - 0.3025 = 0.1725
    //   se = √(0.1725/100) = 0.04153312;  z·se = 0.08140342
    // Elo   = -400·log10(0.45/0.55 = 0.8181818) = -400·(-0.0871502) = 34.860
    // lower = elo(0.4685966) = -400·log10(0.5314034/0.4685966 = 1.1340325)
    //       = -400·0.0546253 = -21.850
    // upper = elo(0.6314034) = -400·log10(0.3685966/0.6314034 = 0.5837739)
    //       = -400·(-0.2337556) = 93.502
    // nElo  = 0.05/√0.1725 · 347.43559 = 0.1203859·347.43559 = 41.826
    //   ± z·347.43559/√100 = 68.096
    // LOS   = Φ(0.05/0.04153312 = 1.203859) = 0.88568
    #[test]
    fn trinomial_example() {
        let counts = [30, 30, 40];
        let i = elo(&counts).unwrap();
        assert_close(i.value, 34.860, 0.001);
        assert_close(i.lower, -21.850, 0.001);
        assert_close(i.upper, 93.502, 0.001);
        let n = nelo(&counts).unwrap();
        assert_close(n.value, 41.826, 0.001);
        assert_close(n.error(), 68.096, 0.001);
        assert_close(los(&counts).unwrap(), 0.88568, 0.00001);
    }

    #[test]
    fn symmetric_results_are_zero_elo_and_even_los() {
        let i = elo(&[10, 20, 40, 20, 10]).unwrap();
        assert_close(i.value, 0.0, 1e-9);
        assert_close(i.lower, -i.upper, 1e-9);
        assert_close(los(&[10, 20, 40, 20, 10]).unwrap(), 0.5, 1e-12);
        assert_close(nelo(&[7, 3, 7]).unwrap().value, 0.0, 1e-9);
    }

    #[test]
    fn pentanomial_interval_is_narrower_than_trinomial_for_correlated_pairs() {
        // Every pair is a win and a loss: the games of a pair are perfectly
        // anti-correlated (an unbalanced opening), so the pentanomial
        // variance is ~0 while the trinomial one is ¼.
        let mut pairs = Pairs::default();
        let mut wdl = Trinomial::default();
        for _ in 0..50 {
            pairs.add(Wdl::Win, Wdl::Loss);
            wdl.add(Wdl::Win);
            wdl.add(Wdl::Loss);
        }
        let s = Summary::new(wdl, pairs);
        assert!(s.pentanomial());
        let penta = s.elo.unwrap();
        let tri = s.elo_trinomial.unwrap();
        assert_close(penta.value, 0.0, 1e-6);
        assert!(penta.error() < tri.error() / 10.0, "{penta:?} vs {tri:?}");
    }

    #[test]
    fn zero_counts_are_regularised() {
        // Ten wins and nothing else: finite, large, and LOS ≈ 1.
        let i = elo(&[0, 0, 10]).unwrap();
        assert!(i.value.is_finite() && i.value > 1000.0);
        assert!(los(&[0, 0, 10]).unwrap() > 0.999);
    }

    // Cross-check against fastchess's published test values (its own
    // implementation; here only as independent reference numbers).
    // fastchess Stats(ll, ld, wl, dd, wd, ww) = (34, 54, 31, 32, 64, 75):
    // nElo 57.94 ± 28.28, Elo 55.58 ± 27.65.
    #[test]
    fn agrees_with_fastchess_reference_values() {
        let counts = [34, 54, 31 + 32, 64, 75];
        let e = elo(&counts).unwrap();
        let n = nelo(&counts).unwrap();
        assert_close(e.value, 55.58, 0.01);
        assert_close(e.error(), 27.65, 0.01);
        assert_close(n.value, 57.94, 0.01);
        assert_close(n.error(), 28.28, 0.01);
        // Trinomial W=136 L=96 D=111: Elo 40.70 ± 30.43, nElo 49.77 ±
        // 36.77, LOS 99.60 %.
        let tri = [96, 111, 136];
        assert_close(elo(&tri).unwrap().value, 40.70, 0.01);
        assert_close(elo(&tri).unwrap().error(), 30.43, 0.01);
        assert_close(nelo(&tri).unwrap().value, 49.77, 0.01);
        assert_close(nelo(&tri).unwrap().error(), 36.77, 0.01);
        assert_close(los(&tri).unwrap(), 0.9960, 0.0001);
    }

    #[test]
    fn a_few_pairs_give_no_interval_but_say_why() {
        let pairs = |ll, ld, wl, dd, wd, ww| Pairs {
            ll,
            ld,
            wl,
            dd,
            wd,
            ww,
        };
        let wdl = |w, d, l| Trinomial {
            wins: w,
            draws: d,
            losses: l,
        };
        // The two cases the issue saw: one drawn pair, one win and one draw.
        for (w, p) in [
            (wdl(0, 2, 0), pairs(0, 0, 0, 1, 0, 0)),
            (wdl(1, 1, 0), pairs(0, 0, 0, 0, 1, 0)),
        ] {
            let s = Summary::new(w, p);
            assert_eq!(
                s.too_few,
                Some(TooFew::Samples {
                    have: 1,
                    need: 10,
                    pairs: true
                })
            );
            assert_eq!(
                (s.elo, s.nelo, s.los, s.elo_trinomial),
                (None, None, None, None)
            );
            assert_eq!(
                s.too_few.unwrap().to_string(),
                "too few games (1 pair; 10 needed)"
            );
        }
        // Nine pairs are too few, ten are enough.
        let nine = Summary::new(wdl(6, 6, 6), pairs(1, 2, 2, 2, 1, 1));
        assert!(nine.elo.is_none() && nine.too_few.is_some());
        let ten = Summary::new(wdl(7, 6, 7), pairs(1, 2, 3, 2, 1, 1));
        assert!(ten.too_few.is_none());
        assert!(ten.elo.is_some() && ten.nelo.is_some() && ten.los.is_some());
        // Single games: twenty are needed.
        let games = Summary::new(wdl(8, 3, 8), Pairs::default());
        assert_eq!(
            games.too_few.unwrap().to_string(),
            "too few games (19 games; 20 needed)"
        );
        assert!(Summary::new(wdl(8, 4, 8), Pairs::default()).elo.is_some());
    }
}
