//! The experiment's model: a method changes the engine's strength only
//! through its speed (fixed-node games show the moves are the same), so its
//! Elo effect is what one doubling of speed is worth, the calibration slope
//! `s` (Elo = s · log2 f, from time-odds matches of one method against
//! itself), times log2 of its speed ratio to the baseline (from interleaved
//! bench runs). Both are measured with an error; the prediction's 95%
//! interval carries both by the delta method.

use matches::stats::{Interval, Z95};

/// The 97.5% quantile of Student's t distribution with `df` degrees of
/// freedom: the factor of a 95% interval from `df + 1` samples. By the
/// Cornish–Fisher expansion in `1/df` (Abramowitz and Stegun 26.7.5, four
/// terms); against the tables it is within 1e-3 at `df = 4`, 2e-5 at
/// `df = 9` and 1e-6 from `df = 29` (tested). `None` below 4 degrees of freedom, where the expansion
/// is poor and an interval from so few samples says little anyway.
pub fn t975(df: usize) -> Option<f64> {
    if df < 4 {
        return None;
    }
    let z = Z95;
    let v = df as f64;
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92_160.0;
    Some(z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v))
}

/// A method's speed relative to the baseline's, from runs made in pairs
/// (baseline, method, baseline, method, ...: each pair close in time, so
/// the machine's drift cancels within it).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SpeedRatio {
    /// The mean of log2(method / baseline) over the pairs.
    pub log2: f64,
    /// The half-width of its 95% interval (t distribution, pairs - 1
    /// degrees of freedom).
    pub half_width: f64,
    /// The pairs it comes from.
    pub pairs: usize,
}

impl SpeedRatio {
    /// The fewest pairs that give an interval (see [`t975`]).
    pub const MIN_PAIRS: usize = 5;

    /// The ratio from paired speeds (nodes per second, say), `base[i]` and
    /// `other[i]` measured together. `None` with fewer than
    /// [`MIN_PAIRS`](Self::MIN_PAIRS) pairs, unequal lengths or a speed that
    /// is not positive.
    pub fn from_pairs(base: &[f64], other: &[f64]) -> Option<SpeedRatio> {
        let n = base.len();
        if n != other.len() || n < Self::MIN_PAIRS {
            return None;
        }
        if base
            .iter()
            .chain(other)
            .any(|&x| x.is_nan() || x <= 0.0 || x.is_infinite())
        {
            return None;
        }
        let logs: Vec<f64> = base
            .iter()
            .zip(other)
            .map(|(b, o)| (o / b).log2())
            .collect();
        let mean = logs.iter().sum::<f64>() / n as f64;
        let var = logs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
        Some(SpeedRatio {
            log2: mean,
            half_width: t975(n - 1)? * (var / n as f64).sqrt(),
            pairs: n,
        })
    }

    /// The ratio (method / baseline) with its 95% interval.
    pub fn ratio(&self) -> Interval {
        Interval {
            value: self.log2.exp2(),
            lower: (self.log2 - self.half_width).exp2(),
            upper: (self.log2 + self.half_width).exp2(),
        }
    }
}

/// One time-odds match: the engine with `factor` times the time against
/// itself with the normal time, and the Elo it measured.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct OddsPoint {
    /// The time factor of the first engine (0.5: half the time).
    pub factor: f64,
    /// Its Elo against the engine at factor 1, with the 95% interval.
    pub elo: Interval,
}

/// The calibration line Elo = s · log2 f.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Slope {
    /// Elo per doubling of time (or speed).
    pub elo_per_doubling: f64,
    /// Its standard error, widened by the Birge ratio when the points
    /// scatter about the line more than their own errors allow.
    pub se: f64,
    /// The Birge ratio √(χ²/(points - 1)): about 1 when the line fits the
    /// points within their errors; 0 with one point.
    pub birge: f64,
    /// The points it was fitted to.
    pub points: usize,
}

impl Slope {
    /// The slope with its 95% interval.
    pub fn interval(&self) -> Interval {
        Interval {
            value: self.elo_per_doubling,
            lower: self.elo_per_doubling - Z95 * self.se,
            upper: self.elo_per_doubling + Z95 * self.se,
        }
    }
}

/// Fits Elo = s · log2 f through the origin (equal time, equal strength) by
/// least squares weighted by each point's variance, its standard error
/// taken as the 95% interval's half-width over 1.96. Points at factor 1
/// carry no information and are left out. `None` without a usable point, or
/// with a factor that is not positive or an interval of no width.
pub fn fit_slope(points: &[OddsPoint]) -> Option<Slope> {
    let mut used = Vec::new();
    for p in points {
        if p.factor.is_nan() || p.factor <= 0.0 {
            return None;
        }
        let se = p.elo.error() / Z95;
        if se.is_nan() || se <= 0.0 {
            return None;
        }
        let x = p.factor.log2();
        if x != 0.0 {
            used.push((x, p.elo.value, 1.0 / (se * se)));
        }
    }
    if used.is_empty() {
        return None;
    }
    let sxx: f64 = used.iter().map(|(x, _, w)| w * x * x).sum();
    let sxy: f64 = used.iter().map(|(x, y, w)| w * x * y).sum();
    let s = sxy / sxx;
    let chi2: f64 = used.iter().map(|(x, y, w)| w * (y - s * x).powi(2)).sum();
    let birge = if used.len() > 1 {
        (chi2 / (used.len() - 1) as f64).sqrt()
    } else {
        0.0
    };
    Some(Slope {
        elo_per_doubling: s,
        se: sxx.recip().sqrt() * birge.max(1.0),
        birge,
        points: used.len(),
    })
}

/// A method's predicted Elo effect, s · log2(ratio), with the 95% interval
/// of the delta method: the two are measured independently, so
/// `var = log2(ratio)² · var(s) + s² · var(log2 ratio)`, the speed's
/// standard error taken as its interval's half-width over 1.96.
pub fn predicted_elo(slope: &Slope, speed: &SpeedRatio) -> Interval {
    let s = slope.elo_per_doubling;
    let l = speed.log2;
    let se_l = speed.half_width / Z95;
    let value = s * l;
    let sd = (l * l * slope.se * slope.se + s * s * se_l * se_l).sqrt();
    Interval {
        value,
        lower: value - Z95 * sd,
        upper: value + Z95 * sd,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn close(a: f64, b: f64, tol: f64) {
        assert!((a - b).abs() <= tol, "{a} is not within {tol} of {b}");
    }

    fn around(value: f64, se: f64) -> Interval {
        Interval {
            value,
            lower: value - Z95 * se,
            upper: value + Z95 * se,
        }
    }

    #[test]
    fn t_quantiles_match_the_tables() {
        assert_eq!(t975(3), None);
        close(t975(4).unwrap(), 2.776_445, 1e-3);
        close(t975(9).unwrap(), 2.262_157, 2e-5);
        close(t975(29).unwrap(), 2.045_230, 1e-6);
        close(t975(1_000_000).unwrap(), Z95, 1e-5);
    }

    #[test]
    fn a_speed_ratio_by_hand() {
        // log2 ratios 0.1, 0.2, 0.3, 0.2, 0.2: mean 0.2, sample variance
        // (0.01 + 0.01)/4 = 0.005, standard error √(0.005/5) = 0.0316228.
        let base = [1.0e6, 0.9e6, 1.1e6, 1.0e6, 0.8e6];
        let other: Vec<f64> = base
            .iter()
            .zip([0.1, 0.2, 0.3, 0.2, 0.2])
            .map(|(b, x): (&f64, f64)| b * x.exp2())
            .collect();
        let r = SpeedRatio::from_pairs(&base, &other).unwrap();
        close(r.log2, 0.2, 1e-12);
        close(r.half_width, t975(4).unwrap() * 0.031_622_78, 1e-8);
        close(r.ratio().value, 1.148_698, 1e-6);
        assert!(r.ratio().lower < r.ratio().value && r.ratio().value < r.ratio().upper);
        assert_eq!(r.pairs, 5);
        // Too few pairs, unequal lengths, a zero speed: nothing.
        assert_eq!(SpeedRatio::from_pairs(&base[..4], &other[..4]), None);
        assert_eq!(SpeedRatio::from_pairs(&base, &other[..4]), None);
        assert_eq!(SpeedRatio::from_pairs(&[0.0; 5], &other), None);
    }

    #[test]
    fn the_slope_by_hand() {
        // f = 2: +100 (se 10); f = 0.5: -80 (se 20). Weights 0.01, 0.0025:
        // s = (1 + 0.2) / 0.0125 = 96, se = 1/√0.0125 = 8.94427;
        // χ² = 0.01·4² + 0.0025·16² = 0.8 (Birge 0.894: not widened).
        let pts = [
            OddsPoint {
                factor: 2.0,
                elo: around(100.0, 10.0),
            },
            OddsPoint {
                factor: 0.5,
                elo: around(-80.0, 20.0),
            },
            OddsPoint {
                factor: 1.0,
                elo: around(3.0, 10.0),
            },
        ];
        let s = fit_slope(&pts).unwrap();
        close(s.elo_per_doubling, 96.0, 1e-9);
        close(s.se, 8.944_272, 1e-6);
        close(s.birge, 0.8f64.sqrt(), 1e-9);
        assert_eq!(s.points, 2);
        close(s.interval().error(), Z95 * 8.944_272, 1e-5);
        // +100 and -40 (se 10 each): s = 70, χ² = 18, Birge √18, so the
        // standard error 1/√0.02 = 7.0711 is widened to 30.
        let pts = [
            OddsPoint {
                factor: 2.0,
                elo: around(100.0, 10.0),
            },
            OddsPoint {
                factor: 0.5,
                elo: around(-40.0, 10.0),
            },
        ];
        let s = fit_slope(&pts).unwrap();
        close(s.elo_per_doubling, 70.0, 1e-9);
        close(s.se, 30.0, 1e-9);
        // Nothing to fit.
        assert_eq!(fit_slope(&[]), None);
        assert_eq!(fit_slope(&pts[..0]), None);
        let flat = [OddsPoint {
            factor: 1.0,
            elo: around(0.0, 10.0),
        }];
        assert_eq!(fit_slope(&flat), None);
        let bad = [OddsPoint {
            factor: 0.0,
            elo: around(0.0, 10.0),
        }];
        assert_eq!(fit_slope(&bad), None);
    }

    #[test]
    fn the_prediction_carries_both_errors() {
        // s = 96 ± (se 8.94427), log2 ratio 0.2 ± (se 0.02):
        // 19.2, var = 0.04·80 + 9216·0.0004 = 6.8864, sd 2.624195.
        let slope = Slope {
            elo_per_doubling: 96.0,
            se: 80f64.sqrt(),
            birge: 1.0,
            points: 2,
        };
        let speed = SpeedRatio {
            log2: 0.2,
            half_width: Z95 * 0.02,
            pairs: 20,
        };
        let e = predicted_elo(&slope, &speed);
        close(e.value, 19.2, 1e-9);
        close(e.error(), Z95 * 2.624_195, 1e-5);
        // A method as fast as the baseline: no effect, and only the speed's
        // error remains.
        let same = SpeedRatio { log2: 0.0, ..speed };
        let e = predicted_elo(&slope, &same);
        close(e.value, 0.0, 1e-12);
        close(e.error(), Z95 * 96.0 * 0.02, 1e-9);
    }
}
