//! The tuning model. The evaluation is linear in its weights once the
//! phase taper is applied: for each position the coefficient of every
//! weight (a term's White-minus-Black count, times the phase share of its
//! middlegame or endgame half) is computed once, sparsely, and the fit then
//! only multiplies and adds.
//!
//! The predicted result is `sigmoid(K · eval / 400)`; the target blends the
//! game's result with the search's score, `λ·result + (1-λ)·sigmoid(K ·
//! score / 400)`; the loss is the mean squared difference (Texel's method).

use movegen::Position;

use engine::eval::{S, TERMS, Tapered, Trace, Weights, evaluate_with};

/// Parameters: the middlegame and endgame half of every term.
pub const PARAM_COUNT: usize = 2 * TERMS;

/// The positions, each as its nonzero term counts and what the taper does
/// to them, in flat arrays (a few bytes per term).
#[derive(Default)]
pub struct Samples {
    /// Every position's nonzero `(term, White-minus-Black count)`, one
    /// position after another.
    terms: Vec<(u16, i16)>,
    /// Where each position's terms start in `terms` (one more than there
    /// are positions).
    starts: Vec<u32>,
    /// Each position's phase (0..=24) and endgame divisor.
    taper: Vec<(u8, u8)>,
    /// The part of each evaluation that is not a tuned term (mop-up), White's
    /// side, centipawns.
    fixed: Vec<f32>,
    /// Each position's game result and search score, White's side.
    labels: Vec<(f32, i16)>,
}

/// Collects the term counts of one evaluation.
struct Counts(Vec<i32>);
impl Trace for Counts {
    #[inline]
    fn add(&mut self, term: usize, count: i32) {
        self.0[term] += count;
    }
}

impl Samples {
    /// No positions.
    pub fn new() -> Samples {
        Samples {
            starts: vec![0],
            ..Samples::default()
        }
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// `true` if there are none.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The game results present (each of 0.0, 0.5, 1.0 at most once).
    pub fn distinct_results(&self) -> Vec<f32> {
        let mut seen: Vec<f32> = Vec::new();
        for &(r, _) in &self.labels {
            if !seen.contains(&r) {
                seen.push(r);
            }
        }
        seen
    }

    /// Adds `pos` with its labels, as the evaluation with `w` sees it. A
    /// position drawn by material (evaluated 0 whatever the weights) is
    /// left out; returns whether it was added.
    pub fn push(&mut self, pos: &Position, w: &Weights, score: i32, result: f32) -> bool {
        let mut counts = Counts(vec![0; TERMS]);
        let e = evaluate_with(pos, w, &mut counts);
        if e.insufficient {
            return false;
        }
        for (t, &c) in counts.0.iter().enumerate() {
            if c != 0 {
                self.terms.push((t as u16, c.clamp(-32_768, 32_767) as i16));
            }
        }
        self.starts.push(self.terms.len() as u32);
        self.taper.push((e.phase as u8, e.eg_divisor as u8));
        self.fixed
            .push(e.mop_up as f32 * (24 - e.phase) as f32 / 24.0);
        self.labels
            .push((result, score.clamp(-32_768, 32_767) as i16));
        true
    }

    /// The evaluation of position `i` (White's side) with the parameters
    /// `p` (middlegame, endgame of each term).
    #[inline]
    pub fn eval(&self, i: usize, p: &[f64]) -> f64 {
        let (mg, eg) = self.halves(i, p);
        let (phase, div) = self.taper[i];
        let rho = f64::from(phase) / 24.0;
        mg * rho + eg * (1.0 - rho) / f64::from(div) + f64::from(self.fixed[i])
    }

    fn halves(&self, i: usize, p: &[f64]) -> (f64, f64) {
        let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
        let mut mg = 0.0;
        let mut eg = 0.0;
        for &(t, c) in &self.terms[a..b] {
            let c = f64::from(c);
            mg += c * p[2 * t as usize];
            eg += c * p[2 * t as usize + 1];
        }
        (mg, eg)
    }

    /// The target of position `i`: `λ·result + (1-λ)·sigmoid(K·score/400)`.
    #[inline]
    pub fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        let (result, score) = self.labels[i];
        lambda * f64::from(result) + (1.0 - lambda) * sigmoid(k * f64::from(score) / 400.0)
    }

    /// The mean loss over the positions `range` with parameters `p`.
    pub fn loss(&self, range: std::ops::Range<usize>, p: &[f64], k: f64, lambda: f64) -> f64 {
        let n = range.len().max(1) as f64;
        range
            .map(|i| {
                let d = sigmoid(k * self.eval(i, p) / 400.0) - self.target(i, k, lambda);
                d * d
            })
            .sum::<f64>()
            / n
    }

    /// Adds the gradient of the summed loss over `range` to `grad`, and
    /// returns the summed loss.
    pub fn gradient(
        &self,
        range: std::ops::Range<usize>,
        p: &[f64],
        k: f64,
        lambda: f64,
        grad: &mut [f64],
    ) -> f64 {
        let mut total = 0.0;
        for i in range {
            let s = sigmoid(k * self.eval(i, p) / 400.0);
            let d = s - self.target(i, k, lambda);
            total += d * d;
            // d(loss)/d(eval).
            let g = 2.0 * d * s * (1.0 - s) * k / 400.0;
            let (phase, div) = self.taper[i];
            let rho = f64::from(phase) / 24.0;
            let gm = g * rho;
            let ge = g * (1.0 - rho) / f64::from(div);
            let (a, b) = (self.starts[i] as usize, self.starts[i + 1] as usize);
            for &(t, c) in &self.terms[a..b] {
                let c = f64::from(c);
                grad[2 * t as usize] += gm * c;
                grad[2 * t as usize + 1] += ge * c;
            }
        }
        total
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The parameters of `w`: middlegame, endgame of each term.
pub fn params_of(w: &Weights) -> Vec<f64> {
    w.to_terms()
        .iter()
        .flat_map(|s| [f64::from(s.mg), f64::from(s.eg)])
        .collect()
}

/// `w` with its terms set from `p`, rounded to whole centipawns.
pub fn weights_from(w: &Weights, p: &[f64]) -> Weights {
    let terms: Vec<Tapered> = p
        .chunks(2)
        .map(|c| S(c[0].round() as i32, c[1].round() as i32))
        .collect();
    w.with_terms(&terms)
}
