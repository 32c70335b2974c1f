//! Texel's method: fit the scaling constant `K` of the logistic model first, then
//! run full-batch gradient descent (Adam) on every weight at once over the
//! training positions, printing the training and validation loss, and
//! write the result as the Rust source of `engine/src/eval/weights.rs`.
//! The data is read by the `nnue` crate's readers ([`nnue::data::read`]);
//! the positions become [`crate::model`]'s sparse coefficients.

use std::path::PathBuf;
use std::time::Instant;

use crate::model::{PARAM_COUNT, Samples, params_of, weights_from};
use engine::eval::{WEIGHTS, Weights};

/// What a tuning run does.
#[derive(Clone, Debug)]
pub struct Config {
    /// The labelled position files.
    pub data: Vec<PathBuf>,
    /// Use at most this many positions (all: `usize::MAX`).
    pub max_positions: usize,
    /// Passes of gradient descent.
    pub epochs: usize,
    /// Adam's step size, centipawns.
    pub learning_rate: f64,
    /// The weight of the game result in the target (the rest is the score).
    pub lambda: f64,
    /// `K`, or `None` to fit it.
    pub k: Option<f64>,
    /// Threads for the gradient.
    pub threads: usize,
    /// Print the losses every this many epochs.
    pub report_every: usize,
    /// Where to write the weights' source (`None`: do not write).
    pub out: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: Vec::new(),
            max_positions: usize::MAX,
            epochs: 400,
            learning_rate: 1.0,
            lambda: 0.5,
            k: None,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            report_every: 25,
            out: None,
        }
    }
}

/// A tuning run's result.
pub struct Tuned {
    /// The new weights.
    pub weights: Weights,
    /// `K`.
    pub k: f64,
    /// Positions trained on and validated on.
    pub train: usize,
    /// Positions held out.
    pub validation: usize,
    /// Losses before and after: training, validation.
    pub loss_before: (f64, f64),
    /// See `loss_before`.
    pub loss_after: (f64, f64),
}

/// Every 20th block of 256 consecutive lines is held out for validation:
/// lines of one game are consecutive in the data, so blocks keep most games
/// on one side of the split.
fn held_out(line: usize) -> bool {
    (line / 256) % 20 == 7
}

/// Whether one side has nothing but its king and the other no pawns: the
/// positions the evaluation scores by material and mop-up alone.
fn bare_king(pos: &movegen::Position) -> bool {
    [attacks::Color::White, attacks::Color::Black]
        .into_iter()
        .any(|c| pos.by_color(c).count() == 1 && pos.pieces(!c, movegen::Role::Pawn).is_empty())
}

/// Reads the data into training and validation samples.
pub fn load(cfg: &Config, w: &Weights) -> Result<(Samples, Samples), String> {
    let mut train = Samples::new();
    let mut validation = Samples::new();
    let mut line = 0usize;
    for path in &cfg.data {
        let mut full = false;
        nnue::data::read::read(path, |l| {
            if full || train.len() + validation.len() >= cfg.max_positions {
                full = true;
                return;
            }
            // A bare king against pieces alone: the evaluation is material
            // and mop-up only, not the weighted terms: nothing there to fit.
            if bare_king(&l.pos) {
                return;
            }
            let set = if held_out(line) {
                &mut validation
            } else {
                &mut train
            };
            set.push(&l.pos, w, l.score, l.result);
            line += 1;
        })
        .map_err(|e| e.to_string())?;
    }
    if train.is_empty() || validation.is_empty() {
        return Err(format!(
            "too few positions to tune ({} for training, {} for validation): the \
             validation set is one block of 256 positions in every 20 (the eighth), so at \
             least 1,793 are needed, and a fit of the evaluation's {PARAM_COUNT} weights \
             wants a million or more (`borrow-datagen --games 10000` writes about 950,000)",
            train.len(),
            validation.len()
        ));
    }
    let mut results = train.distinct_results();
    results.extend(validation.distinct_results());
    results.sort_by(f32::total_cmp);
    results.dedup();
    if results.len() < 2 {
        return Err(format!(
            "every position has the same result ({}): nothing to fit",
            results[0]
        ));
    }
    Ok((train, validation))
}

/// The `K` that makes the evaluation with `p` predict the results best
/// (golden-section search over 0.05..10).
pub fn fit_k(s: &Samples, p: &[f64]) -> f64 {
    optim::golden_section_min(|k| s.loss(0..s.len(), p, k, 1.0), 0.05, 10.0, 1e-4)
}

/// The mean loss and gradient over all of `s`, on `threads` threads.
fn loss_and_gradient(
    s: &Samples,
    p: &[f64],
    k: f64,
    lambda: f64,
    threads: usize,
) -> (f64, Vec<f64>) {
    let n = s.len();
    let chunk = n.div_ceil(threads.max(1));
    let parts: Vec<(f64, Vec<f64>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let range = (t * chunk).min(n)..((t + 1) * chunk).min(n);
                scope.spawn(move || {
                    let mut g = vec![0.0; PARAM_COUNT];
                    let l = s.gradient(range, p, k, lambda, &mut g);
                    (l, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| (0.0, vec![0.0; PARAM_COUNT])))
            .collect()
    });
    let mut grad = vec![0.0; PARAM_COUNT];
    let mut loss = 0.0;
    for (l, g) in parts {
        loss += l;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    let inv = 1.0 / n.max(1) as f64;
    grad.iter_mut().for_each(|g| *g *= inv);
    (loss * inv, grad)
}

/// Adam's `eps` in the tuner.
const EPS: f64 = 1e-12;

/// Fits the weights, starting from `start`, on `train`, printing progress
/// through `progress`.
pub fn fit(
    cfg: &Config,
    start: &Weights,
    train: &Samples,
    validation: &Samples,
    mut progress: impl FnMut(&str),
) -> Tuned {
    let t0 = Instant::now();
    let mut p = params_of(start);
    let k = cfg.k.unwrap_or_else(|| fit_k(train, &p));
    progress(&format!("K = {k:.4}"));
    let val = |p: &[f64]| validation.loss(0..validation.len(), p, k, cfg.lambda);
    let before = (train.loss(0..train.len(), &p, k, cfg.lambda), val(&p));
    progress(&format!(
        "epoch 0: training loss {:.6}, validation loss {:.6}",
        before.0, before.1
    ));
    let mut adam = optim::Adam::new(PARAM_COUNT, EPS);
    for epoch in 1..=cfg.epochs {
        // The last fifth at a quarter of the step, to settle.
        let lr = if epoch * 5 > cfg.epochs * 4 {
            cfg.learning_rate / 4.0
        } else {
            cfg.learning_rate
        };
        let (loss, grad) = loss_and_gradient(train, &p, k, cfg.lambda, cfg.threads);
        adam.step(&mut p, &grad, lr);
        if epoch % cfg.report_every.max(1) == 0 || epoch == cfg.epochs {
            progress(&format!(
                "epoch {epoch}: training loss {loss:.6}, validation loss {:.6} ({:.1} s)",
                val(&p),
                t0.elapsed().as_secs_f64()
            ));
        }
    }
    let weights = weights_from(start, &p);
    let rounded = params_of(&weights);
    let after = (
        train.loss(0..train.len(), &rounded, k, cfg.lambda),
        val(&rounded),
    );
    Tuned {
        weights,
        k,
        train: train.len(),
        validation: validation.len(),
        loss_before: before,
        loss_after: after,
    }
}

/// Runs `cfg`: loads, fits, writes. Progress goes to `progress`.
pub fn run(cfg: &Config, mut progress: impl FnMut(&str)) -> Result<Tuned, String> {
    let t0 = Instant::now();
    let (train, validation) = load(cfg, &WEIGHTS)?;
    progress(&format!(
        "{} positions for training, {} for validation, read in {:.1} s",
        train.len(),
        validation.len(),
        t0.elapsed().as_secs_f64()
    ));
    let tuned = fit(cfg, &WEIGHTS, &train, &validation, &mut progress);
    if let Some(out) = &cfg.out {
        let files: Vec<String> = cfg
            .data
            .iter()
            .map(|p| {
                p.file_name().map_or_else(
                    || p.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                )
            })
            .collect();
        let header = format!(
            "The evaluation's weights, written by `borrow-tune` (the tune crate): Texel's\n\
             method, Adam, {} epochs at step {}, λ = {} (result share of the target), K = {:.4}.\n\
             Data: {} ({} positions for training, {} held out).\n\
             Loss (training, validation): before {:.6}, {:.6}; after {:.6}, {:.6}.\n\
             Do not edit by hand: tune again, or edit and say so here.",
            cfg.epochs,
            cfg.learning_rate,
            cfg.lambda,
            tuned.k,
            files.join(", "),
            tuned.train,
            tuned.validation,
            tuned.loss_before.0,
            tuned.loss_before.1,
            tuned.loss_after.0,
            tuned.loss_after.1
        );
        std::fs::write(out, tuned.weights.to_rust(&header))
            .map_err(|e| format!("{}: {e}", out.display()))?;
        progress(&format!("wrote {}", out.display()));
    }
    Ok(tuned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sigmoid;
    use engine::eval::{S, evaluate_with};
    use movegen::Position;

    /// Positions from seeded random games (the tests' own data).
    fn positions(n: usize) -> Vec<Position> {
        testkit::random_fens(12_345, n)
            .iter()
            .map(|fen| Position::from_fen(fen).unwrap())
            .collect()
    }

    #[test]
    fn the_gradient_is_the_loss_s_slope() {
        let mut s = Samples::new();
        for (i, pos) in positions(300).iter().enumerate() {
            s.push(
                pos,
                &WEIGHTS,
                (i as i32 % 7 - 3) * 40,
                [0.0, 0.5, 1.0][i % 3],
            );
        }
        let p = params_of(&WEIGHTS);
        let (k, lambda) = (1.3, 0.6);
        let mut grad = vec![0.0; PARAM_COUNT];
        s.gradient(0..s.len(), &p, k, lambda, &mut grad);
        let n = s.len() as f64;
        let mut checked = 0;
        for i in (0..PARAM_COUNT).filter(|&i| grad[i].abs() > 1e-9) {
            let h = 0.5;
            let mut q = p.clone();
            q[i] += h;
            let up = s.loss(0..s.len(), &q, k, lambda) * n;
            q[i] -= 2.0 * h;
            let down = s.loss(0..s.len(), &q, k, lambda) * n;
            let numeric = (up - down) / (2.0 * h);
            assert!(
                (numeric - grad[i]).abs() <= 1e-3 * grad[i].abs().max(1e-6),
                "parameter {i}: gradient {} but the loss changes by {numeric}",
                grad[i]
            );
            checked += 1;
        }
        assert!(checked > 100, "only {checked} parameters had a gradient");
    }

    #[test]
    fn the_tuner_recovers_known_weights() {
        // The truth: today's weights with some terms moved far. (Material and
        // piece-square terms are not told apart by any position, only their
        // sums: the moved terms are ones the data pins down alone, and the
        // evaluations are compared as a whole below.)
        let mut terms = WEIGHTS.to_terms();
        let moved = [
            (engine::eval::layout::DOUBLED, S(-45, -70)),
            (engine::eval::layout::BISHOP_PAIR, S(80, 10)),
            (engine::eval::layout::MOBILITY + 2, S(12, 1)),
            (engine::eval::layout::TEMPO, S(40, -20)),
        ];
        for &(i, v) in &moved {
            terms[i] = v;
        }
        let truth = WEIGHTS.with_terms(&terms);
        let k = 1.0;
        let mut train = Samples::new();
        let mut validation = Samples::new();
        for (i, pos) in positions(4_000).iter().enumerate() {
            let e = evaluate_with(pos, &truth, &mut engine::eval::NoTrace);
            let white = if pos.turn() == attacks::Color::White {
                e.cp
            } else {
                -e.cp
            };
            // The "result" is the truth's expectation: λ = 1 fits it exactly.
            let result = sigmoid(k * f64::from(white) / 400.0) as f32;
            let set = if i % 10 == 0 {
                &mut validation
            } else {
                &mut train
            };
            set.push(pos, &WEIGHTS, 0, result);
        }
        let cfg = Config {
            epochs: 1_500,
            learning_rate: 2.0,
            lambda: 1.0,
            k: Some(k),
            threads: 2,
            report_every: 10_000,
            ..Config::default()
        };
        let tuned = fit(&cfg, &WEIGHTS, &train, &validation, |_| {});
        let got = tuned.weights.to_terms();
        // The terms each position counts on its own come back to within a
        // few centipawns. (The bishop pair, moved too, trades off against
        // the bishops' material and squares in these random-game positions,
        // so it is checked through the evaluations below.)
        for &(i, v) in moved
            .iter()
            .filter(|(i, _)| *i != engine::eval::layout::BISHOP_PAIR)
        {
            let g = got[i];
            assert!(
                (g.mg - v.mg).abs() <= 3 && (g.eg - v.eg).abs() <= 3,
                "term {i}: tuned {g:?}, truth {v:?}"
            );
        }
        assert!(tuned.loss_after.1 < tuned.loss_before.1 / 10.0);
        let (mut diff, mut n) = (0i64, 0i64);
        for pos in positions(500) {
            let a = evaluate_with(&pos, &tuned.weights, &mut engine::eval::NoTrace).cp;
            let b = evaluate_with(&pos, &truth, &mut engine::eval::NoTrace).cp;
            diff += i64::from((a - b).abs());
            n += 1;
        }
        assert!(
            diff / n <= 4,
            "tuned and true evaluations differ by {} cp on average",
            diff / n
        );
    }

    #[test]
    fn empty_and_one_result_data_are_refused() {
        let dir = std::env::temp_dir().join(format!("borrow-tune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, "").expect("write");
        let cfg = Config {
            data: vec![empty],
            ..Config::default()
        };
        let e = load(&cfg, &WEIGHTS).err().expect("refused");
        assert!(
            e.contains("too few positions") && e.contains("at least 1,793"),
            "{e}"
        );
        let one = dir.join("one.txt");
        let line = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 1.0\n";
        std::fs::write(&one, line.repeat(6_000)).expect("write");
        let cfg = Config {
            data: vec![one],
            ..Config::default()
        };
        let e = load(&cfg, &WEIGHTS).err().expect("refused");
        assert!(e.contains("same result"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
