//! # optim
//!
//! [`Adam`]: the one optimiser of Borrow's fits. `borrow-train` uses it in
//! `f32` with decoupled weight decay and clipped weights (AdamW, as bullet
//! trains); the Texel tuner (`borrow-tune`) and the win/draw/loss fit use it
//! in `f64` without either: a few hundred parameters over the whole data,
//! where `f64`'s precision is free and `f32`'s would show in the fit of `K`.
//! Each keeps its own `eps`, the one constant in which they differ.
//!
//! [`golden_section_min`] (in [`golden`]): the one-dimensional search
//! both fits of a logistic scale use.

#![deny(missing_docs)]

pub mod golden;

pub use golden::golden_section_min;

use num_traits::Float;

/// Adam's state and settings: a first and second moment per parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam<F> {
    /// Steps taken.
    pub steps: u64,
    /// The first moments.
    pub m: Vec<F>,
    /// The second moments.
    pub v: Vec<F>,
    /// Decay of the first moment (0.9).
    pub beta1: F,
    /// Decay of the second moment (0.999).
    pub beta2: F,
    /// Added to the second moment's root, against division by zero.
    pub eps: F,
    /// Decoupled weight decay, per unit of learning rate (AdamW; 0 for
    /// plain Adam).
    pub decay: F,
    /// The largest weight magnitude after a step, if any.
    pub clip: Option<F>,
}

impl<F: Float> Adam<F> {
    /// Plain Adam for `n` parameters: β = (0.9, 0.999), no decay, no clip.
    pub fn new(n: usize, eps: F) -> Adam<F> {
        Adam {
            steps: 0,
            m: vec![F::zero(); n],
            v: vec![F::zero(); n],
            beta1: F::from(0.9).expect("a float"),
            beta2: F::from(0.999).expect("a float"),
            eps,
            decay: F::zero(),
            clip: None,
        }
    }

    /// AdamW: Adam with decoupled weight `decay`, weights clipped to
    /// `±clip` after each step.
    pub fn with_decay(self, decay: F, clip: F) -> Adam<F> {
        Adam {
            decay,
            clip: Some(clip),
            ..self
        }
    }

    /// One step of learning rate `lr` along `grad`.
    pub fn step(&mut self, params: &mut [F], grad: &[F], lr: F) {
        self.steps += 1;
        let t = i32::try_from(self.steps).unwrap_or(i32::MAX);
        let one = F::one();
        let (b1, b2) = (self.beta1, self.beta2);
        let (c1, c2) = (one - b1.powi(t), one - b2.powi(t));
        let keep = one - lr * self.decay;
        for (((p, &g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut())
            .zip(self.v.iter_mut())
        {
            *m = b1 * *m + (one - b1) * g;
            *v = b2 * *v + (one - b2) * g * g;
            let update = (*m / c1) / ((*v / c2).sqrt() + self.eps);
            let w = *p * keep - lr * update;
            // As f32::clamp: a NaN stays NaN (a diverged run shows).
            *p = match self.clip {
                Some(c) if w < -c => -c,
                Some(c) if w > c => c,
                _ => w,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adam_walks_a_bowl_down_to_its_bottom_in_either_precision() {
        let c = [0.5, -1.0, 1.5];
        let mut x = vec![0.0f32; 3];
        let mut opt = Adam::new(3, 1e-8f32);
        let mut y = vec![0.0f64; 3];
        let mut opt64 = Adam::new(3, 1e-12f64);
        for _ in 0..2000 {
            let g: Vec<f32> = x
                .iter()
                .zip(&c)
                .map(|(&x, &c)| 2.0 * (x - c as f32))
                .collect();
            opt.step(&mut x, &g, 0.01);
            let g: Vec<f64> = y.iter().zip(&c).map(|(&y, &c)| 2.0 * (y - c)).collect();
            opt64.step(&mut y, &g, 0.01);
        }
        for ((x, y), c) in x.iter().zip(&y).zip(&c) {
            assert!((f64::from(*x) - c).abs() < 1e-3, "{x} vs {c}");
            assert!((y - c).abs() < 1e-3, "{y} vs {c}");
        }
        assert_eq!(opt.steps, 2000);
    }

    #[test]
    fn the_first_step_moves_each_weight_by_the_learning_rate() {
        // Bias-corrected, the first update is g / |g| (less eps).
        let mut p = vec![1.0f64, -2.0];
        Adam::new(2, 0.0).step(&mut p, &[3.0, -0.5], 0.1);
        assert!(
            (p[0] - 0.9).abs() < 1e-12 && (p[1] + 1.9).abs() < 1e-12,
            "{p:?}"
        );
    }

    #[test]
    fn adamw_decays_and_clips() {
        let mut x = vec![1.9f32, 1.0];
        let mut opt = Adam::new(2, 1e-8).with_decay(0.1, 1.98);
        opt.step(&mut x, &[-1.0, 0.0], 0.9);
        assert_eq!(x[0], 1.98);
        assert!((x[1] - 0.91).abs() < 1e-6, "{}", x[1]);
        // A diverged weight stays NaN, as f32::clamp leaves it.
        let mut y = vec![f32::NAN];
        opt.step(&mut y, &[1.0], 0.1);
        assert!(y[0].is_nan());
    }
}
