//! [`AdamW`]: the `optim` crate's Adam with decoupled weight decay, the
//! weights clipped to [`crate::model::WEIGHT_CLIP`] after each step; and
//! [`Schedule`], the learning rate over the run.

use crate::model::WEIGHT_CLIP;

use optim::Adam;

/// The trainer's optimiser: Adam in `f32` with decoupled weight decay and
/// clipped weights ([`adamw`]).
pub type AdamW = Adam<f32>;

/// Adam's `eps` in the trainer.
pub const EPS: f32 = 1e-8;

/// AdamW for `n` parameters with weight decay `decay` (per unit of learning
/// rate), the weights clipped to [`WEIGHT_CLIP`].
pub fn adamw(n: usize, decay: f32) -> AdamW {
    Adam::new(n, EPS).with_decay(decay, WEIGHT_CLIP)
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
    fn the_trainers_adamw_clips_to_the_nets_limit() {
        let mut x = vec![1.9f32, 1.0];
        let mut opt = adamw(2, 0.1);
        opt.step(&mut x, &[-1.0, 0.0], 0.9);
        assert_eq!(x[0], WEIGHT_CLIP);
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
