//! [`golden_section_min`]: the one-dimensional minimiser of the fits of a
//! logistic scale (the Texel tuner's `K`, the trainer's `--scale fit`).

/// The `x` in `lo..=hi` where `f` is least, to within `tol`, for an `f`
/// with one minimum there (unimodal): a golden-section search, one call
/// of `f` a step after the first two. A minimum outside the range gives
/// the nearer end. Ties go to the upper part of the bracket.
pub fn golden_section_min(f: impl Fn(f64) -> f64, lo: f64, hi: f64, tol: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > tol {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_least_of_a_unimodal_function_or_the_nearer_end() {
        for m in [-3.0, 0.0, 0.25, 7.5] {
            let x = golden_section_min(|x| (x - m) * (x - m) + 1.0, -10.0, 10.0, 1e-6);
            assert!((x - m).abs() < 1e-5, "{x} for {m}");
        }
        let x = golden_section_min(|x| (x - 2.0).abs(), 0.0, 1.0, 1e-6);
        assert!((x - 1.0).abs() < 1e-5, "{x}");
        let x = golden_section_min(|x| x, 0.0, 1.0, 1e-6);
        assert!(x < 1e-5, "{x}");
    }
}
