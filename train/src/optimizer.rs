//! [`AdamW`]: Adam with decoupled weight decay, the weights clipped to
//! [`crate::model::WEIGHT_CLIP`] after each step; and [`Schedule`], the
//! learning rate over the run.

use crate::model::WEIGHT_CLIP;

/// The optimiser's state: a first and second moment per parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct AdamW {
    /// Steps taken.
    pub steps: u64,
    /// The first moments.
    pub m: Vec<f32>,
    /// The second moments.
    pub v: Vec<f32>,
    /// Decay of the first moment.
    pub beta1: f32,
    /// Decay of the second moment.
    pub beta2: f32,
    /// Weight decay, per unit of learning rate.
    pub decay: f32,
}

impl AdamW {
    /// A fresh optimiser for `n` parameters (β₁ 0.9, β₂ 0.999).
    pub fn new(n: usize, decay: f32) -> AdamW {
        AdamW {
            steps: 0,
            m: vec![0.0; n],
            v: vec![0.0; n],
            beta1: 0.9,
            beta2: 0.999,
            decay,
        }
    }

    /// One step of `params` down `grad` at learning rate `lr`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const EPS: f32 = 1e-8;
        self.steps += 1;
        let t = self.steps as i32;
        let c1 = 1.0 - self.beta1.powi(t);
        let c2 = 1.0 - self.beta2.powi(t);
        let (b1, b2, decay) = (self.beta1, self.beta2, self.decay);
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + EPS);
            *p = (*p * (1.0 - lr * decay) - lr * update).clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }
}

/// The learning rate at each point of a run: a linear warm-up over the
/// first steps, then a cosine from `start` down to `end`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The rate after the warm-up.
    pub start: f32,
    /// The rate at the end.
    pub end: f32,
    /// Steps of warm-up.
    pub warmup: u64,
    /// Steps in the whole run.
    pub total: u64,
}

impl Schedule {
    /// The rate at step `step` (0-based).
    pub fn at(&self, step: u64) -> f32 {
        if step < self.warmup {
            return self.start * (step + 1) as f32 / self.warmup as f32;
        }
        let span = self.total.saturating_sub(self.warmup).max(1);
        let x = ((step - self.warmup) as f32 / span as f32).min(1.0);
        self.end + (self.start - self.end) * 0.5 * (1.0 + (std::f32::consts::PI * x).cos())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adamw_walks_a_bowl_down_to_its_bottom() {
        // f(x) = Σ (x_i − c_i)², gradient 2(x − c).
        let c = [0.5f32, -1.0, 1.5];
        let mut x = vec![0.0f32; 3];
        let mut opt = AdamW::new(3, 0.0);
        for _ in 0..2000 {
            let g: Vec<f32> = x.iter().zip(&c).map(|(&x, &c)| 2.0 * (x - c)).collect();
            opt.step(&mut x, &g, 0.01);
        }
        for (x, c) in x.iter().zip(&c) {
            assert!((x - c).abs() < 1e-3, "{x} vs {c}");
        }
    }

    #[test]
    fn weights_are_clipped_and_decayed() {
        let mut x = vec![1.9f32, 1.0];
        let mut opt = AdamW::new(2, 0.1);
        // A gradient pushing the first past the clip: Adam's first step is
        // the rate itself, 1.9 × (1 − 0.9 × 0.1) + 0.9 = 2.63.
        opt.step(&mut x, &[-1.0, 0.0], 0.9);
        assert_eq!(x[0], WEIGHT_CLIP);
        // No gradient: only the decay, 1.0 × (1 − 0.9 × 0.1).
        assert!((x[1] - 0.91).abs() < 1e-6, "{}", x[1]);
    }

    #[test]
    fn the_schedule_warms_up_then_falls_to_its_end() {
        let s = Schedule {
            start: 0.01,
            end: 0.0001,
            warmup: 10,
            total: 110,
        };
        assert!((s.at(0) - 0.001).abs() < 1e-9);
        assert!((s.at(9) - 0.01).abs() < 1e-9);
        assert!((s.at(10) - 0.01).abs() < 1e-9);
        assert!((s.at(60) - 0.00505).abs() < 1e-6);
        assert!((s.at(110) - 0.0001).abs() < 1e-9);
        assert!((s.at(500) - 0.0001).abs() < 1e-9);
        let mut last = f32::MAX;
        for step in 10..=110 {
            assert!(s.at(step) <= last);
            last = s.at(step);
        }
    }
}
