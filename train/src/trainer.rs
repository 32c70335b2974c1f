//! The training loop: epochs of shuffled mini-batches, each batch's
//! gradient computed by several threads over its parts and summed in a
//! fixed order (so a run is the same for the same seed and thread count),
//! an AdamW step, a validation loss and a checkpoint after every epoch.

use std::path::{Path, PathBuf};
use std::time::Instant;

use rng::Rng;

use crate::checkpoint::{Checkpoint, CheckpointError};
use crate::model::{Model, Scratch, supported_buckets};
use crate::optimizer::{AdamW, Schedule, adamw};
use crate::sample::Sample;

/// What a run is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Neurons in the hidden layer.
    pub hidden: usize,
    /// Output buckets: 1, or [`nnue::OUTPUT_BUCKETS`] by material.
    pub buckets: usize,
    /// Passes over the training data.
    pub epochs: u32,
    /// Positions per step.
    pub batch_size: usize,
    /// The learning rate after the warm-up.
    pub lr: f32,
    /// The learning rate at the end (cosine decay).
    pub lr_end: f32,
    /// Steps of linear warm-up.
    pub warmup: u64,
    /// AdamW's weight decay.
    pub weight_decay: f32,
    /// The weight of the game result in the target (0: the score alone).
    pub wdl: f32,
    /// The logistic scale `K`, centipawns: the target is `sigmoid(score /
    /// K)` blended with the result, and a net's output `o` (`o × SCALE`
    /// centipawns) predicts `sigmoid(o × SCALE / K)` ([`crate::scale`]).
    /// The engine's `SCALE` by default.
    pub scale: f32,
    /// Threads computing each batch's gradient.
    pub threads: usize,
    /// The seed of the initial weights and the shuffles.
    pub seed: u64,
    /// Where the checkpoint, the nets and the log go.
    pub out_dir: PathBuf,
    /// The net to start from (a quantised file of `hidden` neurons):
    /// fine-tuning. `None`: random weights drawn by `seed`.
    pub init: Option<PathBuf>,
    /// Whether [`Config::init`] is a net of plain inputs to be turned round
    /// for a mirrored run ([`Model::inputs_turned_round`]). The samples of
    /// a mirrored run are the caller's to turn round ([`Sample::mirrored`],
    /// as `borrow-train --mirror` does when it reads them).
    pub init_plain: bool,
}

impl Config {
    /// The defaults for `hidden` neurons, writing into `out_dir`.
    pub fn new(hidden: usize, out_dir: PathBuf) -> Config {
        Config {
            hidden,
            buckets: 1,
            epochs: 10,
            batch_size: 16_384,
            lr: 0.001,
            lr_end: 0.000_01,
            warmup: 100,
            weight_decay: 0.01,
            wdl: 0.3,
            scale: nnue::SCALE as f32,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            out_dir,
            init: None,
            init_plain: false,
        }
    }

    /// The net's output's factor in the prediction, `SCALE / scale`
    /// ([`Model::loss`]).
    pub fn slope(&self) -> f32 {
        nnue::SCALE as f32 / self.scale
    }

    /// The checkpoint's path.
    pub fn checkpoint_path(&self) -> PathBuf {
        self.out_dir.join("checkpoint.bin")
    }

    /// The path of the net a run ends with (each epoch's is beside it,
    /// `net-eN.nnue`).
    pub fn net_path(&self) -> PathBuf {
        self.out_dir.join("net.nnue")
    }
}

/// How far a run is, for the progress line.
#[derive(Clone, Debug)]
pub struct Progress {
    /// The epoch under way, 1-based.
    pub epoch: u32,
    /// Epochs in all.
    pub epochs: u32,
    /// Batches done in this epoch.
    pub batch: usize,
    /// Batches per epoch.
    pub batches: usize,
    /// The mean training loss of this epoch so far.
    pub loss: f64,
    /// Positions per second over the run so far.
    pub rate: f64,
    /// Seconds until the run ends, at that rate.
    pub eta: f64,
}

/// One finished epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// 1-based.
    pub epoch: u32,
    /// Mean training loss over the epoch.
    pub train_loss: f64,
    /// Mean loss on the validation set (none without one).
    pub validation_loss: Option<f64>,
    /// The learning rate at the epoch's end.
    pub lr: f32,
    /// Positions per second in this epoch.
    pub rate: f64,
    /// The quantised net written.
    pub net: PathBuf,
}

/// Why a run stopped early.
#[derive(Debug)]
pub enum TrainError {
    /// The setup cannot train (a message for the user).
    Setup(String),
    /// A checkpoint could not be read or written.
    Checkpoint(PathBuf, CheckpointError),
    /// A net could not be read, or a net or the log written.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for TrainError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TrainError::Setup(m) => f.write_str(m),
            TrainError::Checkpoint(p, e) => write!(f, "{}: {e}", p.display()),
            TrainError::Io(p, e) => write!(f, "{}: {e}", p.display()),
        }
    }
}

impl std::error::Error for TrainError {}

/// The mean loss of `model` over `samples`.
pub fn mean_loss(model: &Model, samples: &[Sample], cfg: &Config) -> f64 {
    let mut scratch = Scratch::new(model.hidden);
    let slope = cfg.slope();
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let target = s.target(cfg.wdl, cfg.scale);
            f64::from(model.loss(s, target, slope, &mut scratch))
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The mean loss over `validation` of the net [`Config::init`] names, as
/// the engine reads it (its quantised weights), training nothing: how a
/// net is measured on held-out games it was not trained on.
pub fn measure(cfg: &Config, validation: &[Sample]) -> Result<f64, TrainError> {
    if cfg.init.is_none() {
        return Err(TrainError::Setup(
            "measuring (--epochs 0) needs the net to measure: name it with --init".into(),
        ));
    }
    if validation.is_empty() {
        return Err(TrainError::Setup(
            "no validation positions to measure on".into(),
        ));
    }
    Ok(mean_loss(&initial_model(cfg)?, validation, cfg))
}

/// Positions at most this many: the output bias's correction when the net
/// is quantised ([`Model::quantised`]).
pub const CALIBRATION_POSITIONS: usize = 65_536;

/// The positions the quantised net's output bias is calibrated on: evenly
/// spread over `train`, at most [`CALIBRATION_POSITIONS`].
fn calibration_set(train: &[Sample]) -> Vec<Sample> {
    let step = train.len().div_ceil(CALIBRATION_POSITIONS).max(1);
    train.iter().step_by(step).copied().collect()
}

/// How far `net`, as the engine evaluates with it, is from the float
/// `model` it was quantised from on `samples`, in centipawns: (mean, worst).
pub fn quantisation_error(model: &Model, net: &nnue::Network, samples: &[Sample]) -> (f64, f64) {
    let mut scratch = Scratch::new(model.hidden);
    let (mut sum, mut worst) = (0.0f64, 0.0f64);
    for s in samples {
        let float = f64::from(model.forward(s, &mut scratch)) * f64::from(nnue::SCALE);
        let diff = (float - f64::from(s.engine_score(net))).abs();
        sum += diff;
        worst = worst.max(diff);
    }
    (sum / samples.len().max(1) as f64, worst)
}

/// The order of epoch `epoch`'s positions (0-based epoch).
fn epoch_order(n: usize, seed: u64, epoch: u32) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut rng = Rng::new(seed ^ (u64::from(epoch) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    rng.shuffle(&mut order);
    order
}

/// One thread's gradient and work space.
struct Lane {
    grad: Vec<f32>,
    scratch: Scratch,
}

/// Sums the gradient of `batch` (indices into `data`) into `lanes[0].grad`,
/// divided by the batch's size, and returns the summed loss.
fn batch_gradient(
    model: &Model,
    data: &[Sample],
    batch: &[u32],
    cfg: &Config,
    lanes: &mut [Lane],
) -> f64 {
    let part = batch.len().div_ceil(lanes.len());
    let slope = cfg.slope();
    let losses: Vec<f64> = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .chunks(part)
            .zip(lanes.iter_mut())
            .map(|(indices, lane)| {
                scope.spawn(move || {
                    lane.grad.fill(0.0);
                    let mut loss = 0.0f64;
                    for &i in indices {
                        let s = &data[i as usize];
                        let t = s.target(cfg.wdl, cfg.scale);
                        loss += f64::from(model.backward(
                            s,
                            t,
                            slope,
                            &mut lane.grad,
                            &mut lane.scratch,
                        ));
                    }
                    loss
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a gradient thread panicked"))
            .collect()
    });
    let used = batch.chunks(part).count();
    let (first, rest) = lanes.split_at_mut(1);
    for lane in &rest[..used - 1] {
        for (a, &b) in first[0].grad.iter_mut().zip(&lane.grad) {
            *a += b;
        }
    }
    let k = 1.0 / batch.len() as f32;
    first[0].grad.iter_mut().for_each(|g| *g *= k);
    losses.iter().sum()
}

/// Writes a net file's bytes to `path`.
fn write_net(bytes: &[u8], path: &Path) -> Result<(), TrainError> {
    std::fs::write(path, bytes).map_err(|e| TrainError::Io(path.to_owned(), e))
}

/// Refuses a run that cannot train: no positions, a batch size, thread
/// count or width of zero, output buckets the engine does not read.
fn check_config(cfg: &Config, train: &[Sample]) -> Result<(), TrainError> {
    if train.is_empty() {
        return Err(TrainError::Setup("no training positions".into()));
    }
    if cfg.batch_size == 0 || cfg.threads == 0 || cfg.hidden == 0 {
        return Err(TrainError::Setup(
            "batch size, threads and hidden width must be positive".into(),
        ));
    }
    if !supported_buckets(cfg.buckets) {
        return Err(TrainError::Setup(format!(
            "{} output buckets: the engine reads nets of 1 or {}",
            cfg.buckets,
            nnue::OUTPUT_BUCKETS
        )));
    }
    Ok(())
}

/// Where a run starts: the net, its optimiser and the epochs done, from
/// the checkpoint at `ckpt_path` (`resume`, whose net must have the
/// options' shape) or afresh.
fn starting_point(
    cfg: &Config,
    resume: bool,
    ckpt_path: &Path,
) -> Result<(Model, AdamW, u32), TrainError> {
    if !resume {
        let model = initial_model(cfg)?;
        let opt = adamw(model.params.len(), cfg.weight_decay);
        return Ok((model, opt, 0));
    }
    let c =
        Checkpoint::load(ckpt_path).map_err(|e| TrainError::Checkpoint(ckpt_path.to_owned(), e))?;
    if c.model.hidden != cfg.hidden || c.model.buckets != cfg.buckets {
        return Err(TrainError::Setup(format!(
            "the checkpoint's net has {} neurons and {} output buckets; the options ask for {} and {}",
            c.model.hidden, c.model.buckets, cfg.hidden, cfg.buckets
        )));
    }
    Ok((c.model, c.optimizer, c.epochs_done))
}

/// A fresh run's net: random weights drawn by the seed, or the net file
/// [`Config::init`] (fine-tuning), widened if it is narrower.
fn initial_model(cfg: &Config) -> Result<Model, TrainError> {
    let Some(path) = &cfg.init else {
        return Ok(Model::new(cfg.hidden, cfg.buckets, cfg.seed));
    };
    let bytes = std::fs::read(path).map_err(|e| TrainError::Io(path.clone(), e))?;
    let setup = |e: String| TrainError::Setup(format!("{}: {e}", path.display()));
    // A narrower net is widened; a wider one, or more buckets
    // than the run's, is refused.
    let hidden = match nnue::network::file_shape(bytes.len()) {
        Some((_, b)) if b > cfg.buckets => {
            return Err(setup(format!(
                "a net of {b} output buckets, which do not fold into {}: \
                 give --output-buckets {b}",
                cfg.buckets
            )));
        }
        Some((h, _)) if h < cfg.hidden => h,
        _ => cfg.hidden,
    };
    let model = Model::from_file_bytes(&bytes, hidden, cfg.buckets)
        .map_err(|e| setup(e.to_string()))?
        .widened(cfg.hidden, cfg.seed);
    Ok(if cfg.init_plain {
        model.inputs_turned_round()
    } else {
        model
    })
}

/// The run's pace, for the progress reports: when it started, the
/// positions trained on so far and those it has to train on in all.
struct Pace {
    start: Instant,
    done: u64,
    total: u64,
}

/// What training changes: the float net and its optimiser, and the
/// threads' gradients and work space.
struct Learner {
    model: Model,
    opt: AdamW,
    lanes: Vec<Lane>,
}

impl Learner {
    /// A learner of `model` with `opt`, over `cfg.threads` threads.
    fn new(model: Model, opt: AdamW, cfg: &Config) -> Learner {
        let lanes = (0..cfg.threads)
            .map(|_| Lane {
                grad: vec![0.0; model.params.len()],
                scratch: Scratch::new(cfg.hidden),
            })
            .collect();
        Learner { model, opt, lanes }
    }

    /// Epoch `epoch` (0-based) over `train`: a step for each batch, with a
    /// `progress` report every 16 batches and after the last. Returns the
    /// summed loss.
    fn epoch(
        &mut self,
        train: &[Sample],
        cfg: &Config,
        schedule: &Schedule,
        epoch: u32,
        pace: &mut Pace,
        progress: &mut impl FnMut(&Progress),
    ) -> f64 {
        let batches = train.len().div_ceil(cfg.batch_size);
        let order = epoch_order(train.len(), cfg.seed, epoch);
        let mut loss_sum = 0.0;
        for (b, batch) in order.chunks(cfg.batch_size).enumerate() {
            loss_sum += batch_gradient(&self.model, train, batch, cfg, &mut self.lanes);
            let lr = schedule.at(self.opt.steps);
            self.opt
                .step(&mut self.model.params, &self.lanes[0].grad, lr);
            pace.done += batch.len() as u64;
            if b % 16 == 15 || b + 1 == batches {
                let secs = pace.start.elapsed().as_secs_f64().max(1e-9);
                let rate = pace.done as f64 / secs;
                progress(&Progress {
                    epoch: epoch + 1,
                    epochs: cfg.epochs,
                    batch: b + 1,
                    batches,
                    loss: loss_sum / ((b * cfg.batch_size + batch.len()) as f64),
                    rate,
                    eta: (pace.total - pace.done) as f64 / rate,
                });
            }
        }
        loss_sum
    }

    /// After epoch `epoch` (0-based): the checkpoint saved to `ckpt_path`
    /// and the quantised net written to `net-e<N>.nnue`; that file and
    /// the net's bytes.
    fn save(
        &self,
        cfg: &Config,
        epoch: u32,
        calibration: &[Sample],
        ckpt_path: &Path,
    ) -> Result<(PathBuf, Vec<u8>), TrainError> {
        let checkpoint = Checkpoint {
            epochs_done: epoch + 1,
            model: self.model.clone(),
            optimizer: self.opt.clone(),
        };
        checkpoint
            .save(ckpt_path)
            .map_err(|e| TrainError::Checkpoint(ckpt_path.to_owned(), e))?;
        let net = cfg.out_dir.join(format!("net-e{}.nnue", epoch + 1));
        let bytes = self.model.quantised(calibration).quantised_bytes();
        write_net(&bytes, &net)?;
        Ok((net, bytes))
    }
}

/// Trains on `train`, measuring on `validation` after each epoch, from a
/// fresh net or (`resume`) the checkpoint in `cfg.out_dir`. Calls
/// `progress` as batches finish and `epoch_done` after each epoch, whose
/// checkpoint and net are then written: the run stops there when it returns
/// false (`--resume` goes on from it). Writes the last net to
/// [`Config::net_path`] and returns its float model.
pub fn run(
    cfg: &Config,
    train: &[Sample],
    validation: &[Sample],
    resume: bool,
    mut progress: impl FnMut(&Progress),
    mut epoch_done: impl FnMut(&EpochReport) -> bool,
) -> Result<Model, TrainError> {
    check_config(cfg, train)?;
    std::fs::create_dir_all(&cfg.out_dir).map_err(|e| TrainError::Io(cfg.out_dir.clone(), e))?;
    let ckpt_path = cfg.checkpoint_path();
    let (model, opt, first_epoch) = starting_point(cfg, resume, &ckpt_path)?;
    let batches = train.len().div_ceil(cfg.batch_size);
    let schedule = Schedule {
        start: cfg.lr,
        end: cfg.lr_end,
        warmup: cfg.warmup,
        total: batches as u64 * u64::from(cfg.epochs),
    };
    let mut learner = Learner::new(model, opt, cfg);
    let calibration = calibration_set(train);
    let mut last_net = None;
    let mut pace = Pace {
        start: Instant::now(),
        done: 0,
        total: train.len() as u64 * u64::from(cfg.epochs.saturating_sub(first_epoch)),
    };
    for epoch in first_epoch..cfg.epochs {
        let epoch_start = Instant::now();
        let loss_sum = learner.epoch(train, cfg, &schedule, epoch, &mut pace, &mut progress);
        let rate = train.len() as f64 / epoch_start.elapsed().as_secs_f64().max(1e-9);
        let validation_loss =
            (!validation.is_empty()).then(|| mean_loss(&learner.model, validation, cfg));
        let (net, bytes) = learner.save(cfg, epoch, &calibration, &ckpt_path)?;
        last_net = Some(bytes);
        let go_on = epoch_done(&EpochReport {
            epoch: epoch + 1,
            train_loss: loss_sum / train.len() as f64,
            validation_loss,
            lr: schedule.at(learner.opt.steps.saturating_sub(1)),
            rate,
            net,
        });
        if !go_on {
            break;
        }
    }
    // The last epoch's net, quantised once; a resumed run that had no
    // epoch left quantises the checkpoint's model.
    let model = learner.model;
    let bytes = last_net.unwrap_or_else(|| model.quantised(&calibration).quantised_bytes());
    write_net(&bytes, &cfg.net_path())?;
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;
    use nnue::data::read::Labelled;

    /// A net's output `o` is `o × SCALE` centipawns, so a net that scores a
    /// position exactly as its label does has no loss at `--wdl 0`,
    /// whatever the logistic scale: the prediction's slope is `SCALE / K`,
    /// not its inverse.
    #[test]
    fn a_net_that_scores_as_the_label_has_no_loss_at_any_scale() {
        let mut model = Model::new(16, 1, 5);
        let b1 = model.layout().b1();
        model.params[b1] += 0.7;
        let pos = Position::startpos();
        let unlabelled = Sample::new(&Labelled {
            pos,
            score: 0,
            result: 0.5,
        });
        let out = model.forward(&unlabelled, &mut Scratch::new(16));
        let cp = (out * nnue::SCALE as f32).round() as i32;
        assert!(cp > 150, "a clear score: {cp}");
        let s = Sample::new(&Labelled {
            pos,
            score: cp,
            result: 1.0,
        });
        for k in [150.0, 250.0, 400.0, 1_000.0] {
            let mut cfg = Config::new(16, PathBuf::new());
            (cfg.wdl, cfg.scale) = (0.0, k);
            let loss = mean_loss(&model, &[s], &cfg);
            assert!(loss < 1e-7, "K {k}: loss {loss}");
            // A net half a pawn off has a loss.
            let mut off = model.clone();
            off.params[b1] += 50.0 / nnue::SCALE as f32;
            assert!(mean_loss(&off, &[s], &cfg) > 1e-6, "K {k}");
        }
    }
}
