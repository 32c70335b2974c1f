//! Fitting the win/draw/loss model of [`engine::win_rate`] to labelled positions:
//! maximum likelihood of each game's result given the position's score and
//! material, by Adam on the model's four parameters (the gradient is
//! analytic). `borrow-tune --wdl --data FILE` runs it and prints [`MODEL`]'s source.
//!
//! [`MODEL`]: engine::win_rate::MODEL

use std::path::PathBuf;

use engine::win_rate::{MODEL, Model, material};

/// One position: the score (White's side, centipawns), the material the
/// model reads, and the result (White's side: 1, 0.5 or 0).
#[derive(Copy, Clone, Debug)]
pub struct Sample {
    /// The score.
    pub cp: f64,
    /// The material.
    pub material: u32,
    /// The result.
    pub result: f32,
}

const EPS: f64 = 1e-12;

/// The mean negative log-likelihood of the results under `m`.
pub fn loss(m: &Model, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let [w, d, l] = m.probabilities(s.cp, s.material);
            let p = match s.result {
                r if r > 0.75 => w,
                r if r < 0.25 => l,
                _ => d,
            };
            -(p.max(EPS)).ln()
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The gradient of [`loss`] by `[a0, a1, b0, b1]`.
fn gradient(m: &Model, samples: &[Sample]) -> [f64; 4] {
    let mut g = [0.0; 4];
    for s in samples {
        let x = f64::from(s.material.clamp(10, 78)) / 58.0;
        let (a, b) = m.params(s.material);
        let w = 1.0 / (1.0 + ((a - s.cp) / b).exp());
        let l = 1.0 / (1.0 + ((a + s.cp) / b).exp());
        // d/da and d/db of the win and loss probabilities.
        let (dw_da, dw_db) = (-w * (1.0 - w) / b, -w * (1.0 - w) * (s.cp - a) / (b * b));
        let (dl_da, dl_db) = (-l * (1.0 - l) / b, l * (1.0 - l) * (s.cp + a) / (b * b));
        let (p, dp_da, dp_db) = match s.result {
            r if r > 0.75 => (w, dw_da, dw_db),
            r if r < 0.25 => (l, dl_da, dl_db),
            _ => (1.0 - w - l, -dw_da - dl_da, -dw_db - dl_db),
        };
        let k = -1.0 / p.max(EPS);
        g[0] += k * dp_da;
        g[1] += k * dp_da * x;
        g[2] += k * dp_db;
        g[3] += k * dp_db * x;
    }
    let n = samples.len().max(1) as f64;
    g.map(|v| v / n)
}

/// Fits the model by `iterations` full-batch Adam steps of `step`
/// centipawns from `start`; the fitted model and its loss.
pub fn fit(samples: &[Sample], start: Model, iterations: usize, step: f64) -> (Model, f64) {
    let mut p = [start.a[0], start.a[1], start.b[0], start.b[1]];
    let mut adam = optim::Adam::new(4, 1e-9);
    let model = |p: &[f64; 4]| Model {
        a: [p[0], p[1]],
        b: [p[2], p[3]],
    };
    for _ in 0..iterations {
        let g = gradient(&model(&p), samples);
        adam.step(&mut p, &g, step);
    }
    let fitted = model(&p);
    (fitted, loss(&fitted, samples))
}

/// Positions a fit uses at most: an even sample of the files beyond that.
pub const MAX_SAMPLES: usize = 400_000;

/// What `borrow-tune --wdl` found.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The model.
    pub model: Model,
    /// Positions read and positions fitted on.
    pub read: usize,
    /// Positions fitted on.
    pub used: usize,
    /// The loss of the current [`MODEL`] and of the fitted model.
    pub loss: (f64, f64),
}

/// The fewest positions [`run`] fits the model on: its four parameters are
/// learnt from game results, and the positions of one game share theirs.
pub const MIN_POSITIONS: usize = 10_000;

/// Reads `files` and fits the model to an even sample of their positions
/// (mate scores left out); the result, and the loss before and after.
pub fn run(files: &[PathBuf]) -> Result<Fitted, String> {
    let mut all = Vec::new();
    for f in files {
        nnue::data::read::read(f, |l| {
            if l.score.abs() < engine::search::MATE_BOUND {
                all.push(Sample {
                    cp: f64::from(l.score),
                    material: material(&l.pos),
                    result: l.result,
                });
            }
        })
        .map_err(|e| e.to_string())?;
    }
    if all.len() < MIN_POSITIONS {
        return Err(format!(
            "too few positions to fit the win/draw/loss model ({} read): it needs at least \
             {MIN_POSITIONS}, positions of many games (`borrow-datagen --games 200` writes about \
             19,000), and fits best on a million or more",
            all.len()
        ));
    }
    if all.iter().all(|s| s.result == all[0].result) {
        return Err(format!(
            "every position has the same result ({}): nothing to fit",
            all[0].result
        ));
    }
    let stride = all.len().div_ceil(MAX_SAMPLES);
    let samples: Vec<Sample> = all.iter().step_by(stride).copied().collect();
    let before = loss(&MODEL, &samples);
    let start = Model {
        a: [200.0, 100.0],
        b: [100.0, 50.0],
    };
    let (model, after) = fit(&samples, start, 1500, 2.0);
    Ok(Fitted {
        model,
        read: all.len(),
        used: samples.len(),
        loss: (before, after),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model are fitted back to it.
    #[test]
    fn a_known_model_is_recovered() {
        let truth = Model {
            a: [150.0, 120.0],
            b: [60.0, 40.0],
        };
        // A deterministic sample: scores and materials on a grid, each
        // result in proportion to the true probabilities.
        let mut samples = Vec::new();
        for cp in (-800..=800).step_by(40) {
            for material in (10..=78).step_by(8) {
                let [w, d, _] = truth.probabilities(f64::from(cp), material);
                for k in 0..100 {
                    let u = (f64::from(k) + 0.5) / 100.0;
                    let result = if u < w {
                        1.0
                    } else if u < w + d {
                        0.5
                    } else {
                        0.0
                    };
                    samples.push(Sample {
                        cp: f64::from(cp),
                        material,
                        result,
                    });
                }
            }
        }
        let start = Model {
            a: [300.0, 0.0],
            b: [100.0, 0.0],
        };
        let (fitted, l) = fit(&samples, start, 1500, 2.0);
        assert!(l <= loss(&truth, &samples) + 1e-3, "{fitted:?} {l}");
        for (got, want) in [
            (fitted.a[0], truth.a[0]),
            (fitted.a[1], truth.a[1]),
            (fitted.b[0], truth.b[0]),
            (fitted.b[1], truth.b[1]),
        ] {
            assert!((got - want).abs() < 15.0, "{fitted:?} against {truth:?}");
        }
    }

    /// Too little data, or one result only: refused, saying what is needed
    /// (139 positions once fitted to a loss of 0.00000 and exited 0).
    #[test]
    fn too_little_data_is_refused() {
        let dir = std::env::temp_dir().join(format!("borrow-wdl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let few = dir.join("few.txt");
        let line = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 0.5\n";
        std::fs::write(&few, line.repeat(139)).expect("write");
        let Err(e) = run(std::slice::from_ref(&few)) else {
            panic!("139 positions fitted")
        };
        assert!(
            e.contains("(139 read)") && e.contains("at least 10000"),
            "{e}"
        );
        std::fs::write(&few, line.repeat(MIN_POSITIONS)).expect("write");
        let Err(e) = run(&[few]) else {
            panic!("one result fitted")
        };
        assert!(e.contains("same result"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
