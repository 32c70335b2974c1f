//! `borrow-train`: trains an evaluation net for Borrow (see the `train`
//! crate's docs and the README's "The learned evaluation").

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Parser;
use nnue::HIDDEN;
use train::data::{Filter, Loaded, load, split_validation};
use train::model::Model;
use train::sample::Sample;
use train::scale;
use train::trainer::{
    Config, EpochReport, Progress, TrainError, mean_loss, measure, quantisation_error, run,
};

/// Trains Borrow's evaluation net, (768->H)x2->1 with SCReLU and 1 or 8 output buckets, on labelled
/// positions (`borrow-datagen` output: viriformat games in files named *.vf,
/// 32-byte marlinformat records in files named *.bin, or 'FEN | score |
/// result' text, plain or gzip), on the CPU.
/// After each epoch it writes DIR/checkpoint.bin (for --resume), the
/// quantised net DIR/net-eN.nnue (the engine's EvalFile) and a line of
/// DIR/log.csv. Ctrl-C stops it after the epoch under way. With --epochs 0
/// it trains nothing and gives the validation loss of the --init net.
#[derive(Parser, Debug)]
#[command(name = "borrow-train", version, after_help = AFTER_HELP)]
struct Args {
    /// Data files (repeat the option, or give several); needed unless
    /// --epochs 0 measures a net on --validation-data
    #[arg(long, num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Where the checkpoint, the nets and the log go
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Neurons in the hidden layer (the engine loads nets of its own width)
    #[arg(long, default_value_t = HIDDEN, value_name = "H")]
    hidden: usize,
    /// Output buckets: 1, or 8 chosen by the number of pieces on the board
    /// (bullet's MaterialCount<8>). A net of one bucket given to --init
    /// starts each of the 8
    #[arg(long, default_value_t = 1, value_name = "N")]
    output_buckets: usize,
    /// Passes over the data; 0 trains nothing and gives the validation
    /// loss of the --init net
    #[arg(long, default_value_t = 10, value_name = "N")]
    epochs: u32,
    /// Positions per optimiser step
    #[arg(long, default_value_t = 16_384, value_name = "N")]
    batch_size: usize,
    /// Learning rate after the warm-up (AdamW)
    #[arg(long, default_value_t = 0.001, value_name = "X")]
    lr: f32,
    /// Learning rate at the end of the cosine decay
    #[arg(long, default_value_t = 0.000_01, value_name = "X")]
    lr_end: f32,
    /// Steps of linear warm-up
    #[arg(long, default_value_t = 100, value_name = "N")]
    warmup: u64,
    /// AdamW's weight decay
    #[arg(long, default_value_t = 0.01, value_name = "X")]
    weight_decay: f32,
    /// Weight of the game result in the target, 0 (score only) to 1
    #[arg(long, default_value_t = 0.3, value_name = "LAMBDA")]
    wdl: f32,
    /// The logistic scale K of the target, sigmoid(score / K) blended with
    /// the result, and of the prediction, sigmoid(cp / K): centipawns, or
    /// 'fit' for the K whose sigmoid(score / K) predicts the training
    /// positions' results best (a --wdl blend then inflates the scores
    /// less)
    #[arg(long, default_value = "400", value_name = "CP|fit", value_parser = parse_scale)]
    scale: Scale,
    /// Threads [default: the cores]
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
    /// Seed of the initial weights and the shuffles
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Fraction of the data, taken from its end, held out for validation
    #[arg(long, default_value_t = 0.01, value_name = "X")]
    validation: f64,
    /// Validate on these files' positions (the same filters), held out from
    /// training, in place of --validation's tail of --data: the same
    /// held-out games for nets trained on different data
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "validation")]
    validation_data: Vec<PathBuf>,
    /// Leave out positions whose |score| is above this
    #[arg(long, default_value_t = 3000, value_name = "CP")]
    max_score: i32,
    /// Keep positions whose side to move is in check
    #[arg(long)]
    keep_check: bool,
    /// Keep the positions of games (*.vf) whose move was a capture or a
    /// promotion (the record formats hold none)
    #[arg(long)]
    keep_noisy: bool,
    /// Leave out positions with fewer pieces than this
    #[arg(long, default_value_t = 0, value_name = "N")]
    min_pieces: usize,
    /// Leave out positions before this ply of their game, two a full move
    /// and one more with Black to move (the viriformat crate's filter counts
    /// so, and defaults to 16)
    #[arg(long, default_value_t = 0, value_name = "N")]
    min_ply: u32,
    /// Start from this net's weights, not random ones: fine-tuning (a
    /// quantised net file of --hidden's width, such as the engine's
    /// engine/nets/default.nnue, or narrower: its neurons kept, the new
    /// ones starting with no say in the output)
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Go on from DIR/checkpoint.bin (same data and options, --mirror
    /// included)
    #[arg(long)]
    resume: bool,
    /// Mirror the inputs horizontally: each side's view turned round
    /// (files a-h) when its king stands on files e-h, so that every king
    /// is seen on a-d (bullet's ChessBucketsMirrored). Only an engine built
    /// with nnue::MIRRORED evaluates such a net rightly (any build loads it)
    #[arg(long)]
    mirror: bool,
    /// With --mirror: the --init net has plain inputs (any net before
    /// mirroring); its rows are turned round so that the new net starts
    /// as that net wherever both kings stand on files e-h
    #[arg(long, requires_all = ["mirror", "init"])]
    init_plain: bool,
}

/// `--scale`: the logistic scale `K` ([`train::scale`]).
#[derive(Clone, Copy, Debug)]
enum Scale {
    /// This many centipawns.
    Fixed(f32),
    /// Fitted to the training positions' results.
    Fit,
}

/// `--scale`'s value: centipawns within [`scale::FIT_RANGE`], or `fit`.
fn parse_scale(s: &str) -> Result<Scale, String> {
    let (lo, hi) = scale::FIT_RANGE;
    if s == "fit" {
        return Ok(Scale::Fit);
    }
    match s.parse::<f32>() {
        Ok(k) if (lo as f32..=hi as f32).contains(&k) => Ok(Scale::Fixed(k)),
        _ => Err(format!(
            "'{s}' is neither a number of centipawns from {lo} to {hi} nor 'fit'"
        )),
    }
}

const AFTER_HELP: &str = "Example: borrow-train --data gen0.bin --out nets/run1 --epochs 10\n\
Then: borrow, 'setoption name EvalFile value nets/run1/net-e10.nnue', \
'setoption name Evaluation value nnue'.\n\n\
Exit status: 0 done; 1 a file could not be read or written; 2 bad options or data.";

/// Exit status: 0 done; 1 a file could not be read or written; 2 bad
/// options or data (as `AFTER_HELP` says).
fn main() -> ExitCode {
    match train_net(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure { status, message }) => {
            eprintln!("borrow-train: {message}");
            ExitCode::from(status)
        }
    }
}

/// Why a run ends early: the message for stderr and the exit status.
struct Failure {
    status: u8,
    message: String,
}

impl Failure {
    /// Bad options or data: exit status 2.
    fn bad(message: impl Into<String>) -> Failure {
        Failure {
            status: 2,
            message: message.into(),
        }
    }
}

impl From<TrainError> for Failure {
    /// A setup the trainer refuses is bad options (2); a checkpoint, a net
    /// or the log that cannot be read or written, 1.
    fn from(e: TrainError) -> Failure {
        let status = if matches!(e, TrainError::Setup(_)) {
            2
        } else {
            1
        };
        Failure {
            status,
            message: e.to_string(),
        }
    }
}

/// A run, step by step.
fn train_net(args: &Args) -> Result<(), Failure> {
    // 1. The trainer's configuration.
    let mut cfg = config(args)?;
    // 2. The data: read, filtered, and split for validation.
    let (train, validation) = read_data(args, &cfg)?;
    if args.epochs == 0 {
        return measure_net(&cfg, &validation);
    }
    // 3. The logistic scale, fitted to the training positions if asked.
    if let Scale::Fit = args.scale {
        cfg.scale = fit_scale(&train);
    }
    // 4. What the run will do.
    announce(&cfg, &train, &validation);
    // 5. Ctrl-C stops the run at the end of the epoch, with its checkpoint.
    if let Err(e) = interrupt::install() {
        eprintln!("borrow-train: note: {e}; Ctrl-C stops at once, losing the epoch");
    }
    // 6. The epochs.
    let started = Instant::now();
    let model = train_epochs(args, &cfg, &train, &validation)?;
    // 7. The report.
    report(&cfg, &model, &validation, started);
    Ok(())
}

/// Step 1: the options as the trainer's configuration. A `--wdl` outside 0
/// to 1 is an error; a width the engine does not load, a note.
fn config(args: &Args) -> Result<Config, Failure> {
    let mut cfg = Config::new(args.hidden, args.out.clone());
    cfg.buckets = args.output_buckets;
    cfg.epochs = args.epochs;
    cfg.batch_size = args.batch_size;
    cfg.lr = args.lr;
    cfg.lr_end = args.lr_end;
    cfg.warmup = args.warmup;
    cfg.weight_decay = args.weight_decay;
    cfg.wdl = args.wdl;
    if let Scale::Fixed(k) = args.scale {
        cfg.scale = k;
    }
    cfg.seed = args.seed;
    cfg.init = args.init.clone();
    cfg.init_plain = args.init_plain;
    if let Some(threads) = args.threads {
        cfg.threads = threads;
    }
    if args.epochs == 0 {
        if args.init.is_none() {
            return Err(Failure::bad(
                "--epochs 0 measures the net --init names: give --init",
            ));
        }
        if let Scale::Fit = args.scale {
            return Err(Failure::bad(
                "--scale fit fits K to training positions; measuring (--epochs 0) \
                 takes the K the net was trained at",
            ));
        }
    }
    if !(0.0..=1.0).contains(&cfg.wdl) {
        return Err(Failure::bad("--wdl must be between 0 and 1"));
    }
    if !train::model::supported_buckets(cfg.buckets) {
        return Err(Failure::bad(format!(
            "--output-buckets must be 1 or {}",
            nnue::OUTPUT_BUCKETS
        )));
    }
    if cfg.hidden != HIDDEN {
        eprintln!(
            "borrow-train: note: this build of the engine loads nets of {HIDDEN} neurons; \
             a net of {} needs HIDDEN changed in nnue/src/features.rs",
            cfg.hidden
        );
    }
    Ok(cfg)
}

/// Step 2: the positions the filters keep, with a line on what was read and
/// left out, split into training and validation positions. Data that cannot
/// be read, or fewer training positions than a batch, is an error.
fn read_data(args: &Args, cfg: &Config) -> Result<(Vec<Sample>, Vec<Sample>), Failure> {
    let filter = Filter {
        skip_check: !args.keep_check,
        max_score: args.max_score,
        min_pieces: args.min_pieces,
        min_ply: args.min_ply,
        skip_noisy: !args.keep_noisy,
    };
    let read = |files: &[PathBuf], what: &str| {
        let t = Instant::now();
        let (mut samples, tally) = load(files, &filter).map_err(|e| Failure::bad(e.to_string()))?;
        if args.mirror {
            samples.iter_mut().for_each(|s| *s = s.mirrored());
        }
        eprintln!(
            "read {} positions{what} in {:.1} s: kept {}, left out {}",
            tally.read,
            t.elapsed().as_secs_f64(),
            tally.kept(),
            left_out(args, &filter, &tally)
        );
        Ok::<_, Failure>(samples)
    };
    if args.data.is_empty() && (args.epochs > 0 || args.validation_data.is_empty()) {
        return Err(Failure::bad(
            "no --data: training needs data files, and measuring a net (--epochs 0) \
             needs --data or --validation-data",
        ));
    }
    if args.mirror {
        eprintln!("inputs mirrored: each side's view turned round when its king is on files e-h");
    }
    let samples = if args.data.is_empty() {
        Vec::new()
    } else {
        read(&args.data, "")?
    };
    let (train, validation) = if args.validation_data.is_empty() {
        split_validation(samples, args.validation)
    } else {
        (samples, read(&args.validation_data, " to validate on")?)
    };
    if args.epochs == 0 {
        return Ok((train, validation));
    }
    if train.len() < cfg.batch_size {
        return Err(Failure::bad(format!(
            "{} training positions, fewer than one batch ({}): generate more \
             with 'borrow-datagen' or lower --batch-size",
            train.len(),
            cfg.batch_size
        )));
    }
    Ok((train, validation))
}

/// `--epochs 0`: the validation loss of the `--init` net, training nothing.
fn measure_net(cfg: &Config, validation: &[Sample]) -> Result<(), Failure> {
    let loss = measure(cfg, validation)?;
    let net = cfg
        .init
        .as_deref()
        .expect("measure refuses a run without --init");
    println!(
        "validation loss {loss:.6} (at --wdl {} and K {:.1} cp) on {} positions: {}",
        cfg.wdl,
        cfg.scale,
        validation.len(),
        net.display()
    );
    Ok(())
}

/// What the filters left out: only the filters that are on.
fn left_out(args: &Args, filter: &Filter, tally: &Loaded) -> String {
    let mut left_out = Vec::new();
    if filter.skip_noisy {
        left_out.push(format!("{} with a noisy move", tally.noisy));
    }
    if filter.skip_check {
        left_out.push(format!("{} in check", tally.in_check));
    }
    left_out.push(format!("{} beyond {} cp", tally.extreme, args.max_score));
    if args.min_pieces > 0 {
        left_out.push(format!(
            "{} with fewer than {} pieces",
            tally.few_pieces, args.min_pieces
        ));
    }
    if args.min_ply > 0 {
        left_out.push(format!("{} before ply {}", tally.early, args.min_ply));
    }
    left_out.join(", ")
}

/// Step 3: the `K` whose `sigmoid(score / K)` predicts the training
/// positions' results best, with a line comparing it to the engine's
/// `SCALE`.
fn fit_scale(train: &[Sample]) -> f32 {
    let t = Instant::now();
    let k = scale::fit(train).expect("read_data keeps at least a batch") as f32;
    let loss = |k: f64| scale::result_loss(train, k);
    eprintln!(
        "logistic scale fitted to the results in {:.1} s: K = {k:.1} cp \
         (result loss {:.6}; {:.6} at {} cp)",
        t.elapsed().as_secs_f64(),
        loss(f64::from(k)),
        loss(f64::from(nnue::SCALE)),
        nnue::SCALE
    );
    if scale::at_an_end(f64::from(k)) {
        eprintln!(
            "borrow-train: note: K is at an end of the range searched ({:?} cp): \
             the results hardly depend on the scores",
            scale::FIT_RANGE
        );
    }
    k
}

/// Step 4: the net, the positions, the epochs and the threads.
fn announce(cfg: &Config, train: &[Sample], validation: &[Sample]) {
    eprintln!(
        "training (768->{})x2->1{} on {} positions, validating on {}; {} epochs of {} batches, {} threads",
        cfg.hidden,
        if cfg.buckets > 1 {
            format!(" with {} output buckets", cfg.buckets)
        } else {
            String::new()
        },
        train.len(),
        validation.len(),
        cfg.epochs,
        train.len().div_ceil(cfg.batch_size),
        cfg.threads
    );
    eprintln!(
        "target: {} x result + {} x sigmoid(score / {:.1})",
        cfg.wdl,
        1.0 - cfg.wdl,
        cfg.scale
    );
    if let Some(net) = &cfg.init {
        let turned = if cfg.init_plain {
            " (plain inputs, its rows turned round for the mirrored net)"
        } else {
            ""
        };
        eprintln!("starting from the weights of {}{turned}", net.display());
    }
}

/// Step 6: the training, with a progress line on a terminal and a line per
/// epoch on stderr and in DIR/log.csv. A log that cannot be written does
/// not stop the run: its first error is reported once the run is done.
fn train_epochs(
    args: &Args,
    cfg: &Config,
    train: &[Sample],
    validation: &[Sample],
) -> Result<Model, Failure> {
    let log_path = cfg.out_dir.join("log.csv");
    let terminal = std::io::stderr().is_terminal();
    let mut log_error = None;
    let model = run(
        cfg,
        train,
        validation,
        args.resume,
        |p| show_progress(terminal, p),
        |r| epoch_done(r, terminal, &log_path, &mut log_error),
    )?;
    if let Some(e) = log_error {
        eprintln!("borrow-train: {}: {e}", log_path.display());
    }
    Ok(model)
}

/// The progress line, on a terminal only.
fn show_progress(terminal: bool, p: &Progress) {
    if terminal {
        eprint!(
            "\repoch {}/{} batch {}/{} loss {:.6} {:.0} pos/s ETA {}   ",
            p.epoch,
            p.epochs,
            p.batch,
            p.batches,
            p.loss,
            p.rate,
            clock(p.eta)
        );
    }
}

/// After each epoch: its line on stderr and in the log (keeping the first
/// error writing it in `log_error`); `false`, to stop, after a Ctrl-C.
fn epoch_done(
    r: &EpochReport,
    terminal: bool,
    log_path: &Path,
    log_error: &mut Option<std::io::Error>,
) -> bool {
    if terminal {
        eprint!("\r");
    }
    eprintln!(
        "epoch {:>3}: train loss {:.6}, validation loss {}, lr {:.2e}, {:.0} pos/s, net {}",
        r.epoch,
        r.train_loss,
        r.validation_loss.map_or("-".into(), |v| format!("{v:.6}")),
        r.lr,
        r.rate,
        r.net.display()
    );
    if let Err(e) = append_log(log_path, r) {
        log_error.get_or_insert(e);
    }
    if interrupt::interrupted() {
        eprintln!(
            "stopped by Ctrl-C after epoch {}: --resume goes on from here",
            r.epoch
        );
        return false;
    }
    true
}

/// Appends the epoch's line to the log, after the header line in a new one.
fn append_log(log_path: &Path, r: &EpochReport) -> std::io::Result<()> {
    let line = format!(
        "{},{:.8},{},{:.3e},{:.0}\n",
        r.epoch,
        r.train_loss,
        r.validation_loss
            .map_or(String::new(), |v| format!("{v:.8}")),
        r.lr,
        r.rate
    );
    let fresh = !log_path.exists();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path)
        .and_then(|mut f| {
            if fresh {
                f.write_all(b"epoch,train_loss,validation_loss,lr,positions_per_second\n")?;
            }
            f.write_all(line.as_bytes())
        })
}

/// Step 7: the quantised net against the float one, the time, the
/// validation loss and where the last net is.
fn report(cfg: &Config, model: &Model, validation: &[Sample], started: Instant) {
    let last = cfg.net_path();
    // The engine's own reader: a net of another width than this
    // build's has no engine score to compare.
    if let Ok(net) = nnue::Network::from_file(&last) {
        let (mean, worst) = quantisation_error(model, &net, validation);
        eprintln!(
            "the quantised net against the float one on the validation positions: \
             {mean:.2} cp on average, {worst:.1} cp at worst"
        );
    }
    eprintln!(
        "done in {}: validation loss {}; the net is {}",
        clock(started.elapsed().as_secs_f64()),
        if validation.is_empty() {
            "-".into()
        } else {
            format!(
                "{:.6} (at --wdl {} and K {:.1} cp)",
                mean_loss(model, validation, cfg),
                cfg.wdl,
                cfg.scale
            )
        },
        last.display()
    );
}

/// Seconds as `h:mm:ss`.
fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}
