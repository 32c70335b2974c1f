//! The trainer end to end: it recovers a net it was shown the scores of,
//! lowers the loss on real self-play data, and gives the same net for the
//! same seed and thread count, and fine-tunes the net it is given.

use std::path::PathBuf;

use movegen::Position;
use nnue::data::read::Labelled;
use nnue::{Network, SCALE};
use train::data::{Filter, load, split_validation};
use train::model::{Model, Scratch};
use train::sample::Sample;
use train::trainer::{Config, TrainError, mean_loss, measure, quantisation_error, run};

/// A fresh directory for one test's outputs.
fn out_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("borrow-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// `n` positions from random games seeded by `seed`
/// ([`testkit::random_fens`]).
fn random_positions(n: usize, seed: u64) -> Vec<Position> {
    testkit::random_fens(seed, n)
        .iter()
        .map(|fen| Position::from_fen(fen).expect("shakmaty's FEN of a legal position"))
        .collect()
}

fn real_data() -> Vec<Sample> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-4096.bin");
    let (samples, tally) = load(&[path], &Filter::default()).expect("the test data reads");
    assert_eq!(tally.read, 4096);
    samples
}

fn quiet(cfg: &Config, train: &[Sample], val: &[Sample]) -> Model {
    run(cfg, train, val, false, |_| {}, |_| true).expect("training runs")
}

#[test]
fn a_net_learns_the_scores_of_a_teacher_net() {
    // The teacher: a random net with larger output weights than the
    // initialisation (within the clip, so that the student can be it).
    let hidden = 16;
    let mut teacher = Model::new(hidden, 1, 99);
    let w1 = teacher.layout().w1();
    for w in &mut teacher.params[w1..] {
        *w *= 10.0;
    }
    let mut scratch = Scratch::new(hidden);
    let label = |pos: Position, scratch: &mut Scratch| {
        let blank = Sample::new(&Labelled {
            pos,
            score: 0,
            result: 0.5,
        });
        let stm = (teacher.forward(&blank, scratch) * SCALE as f32).round() as i32;
        let white = if pos.turn() == attacks::Color::White {
            stm
        } else {
            -stm
        };
        Sample::new(&Labelled {
            pos,
            score: white,
            result: 0.5,
        })
    };
    let train: Vec<Sample> = random_positions(50_000, 1)
        .into_iter()
        .map(|p| label(p, &mut scratch))
        .collect();
    let val: Vec<Sample> = random_positions(1_000, 2)
        .into_iter()
        .map(|p| label(p, &mut scratch))
        .collect();
    let spread = val.iter().map(|s| s.score().abs()).max().unwrap();
    assert!(spread > 100, "the teacher's scores are too flat: {spread}");

    let mut cfg = Config::new(hidden, out_dir("teacher"));
    cfg.wdl = 0.0;
    cfg.epochs = 40;
    cfg.batch_size = 1024;
    cfg.lr = 0.005;
    cfg.lr_end = 0.0001;
    cfg.warmup = 20;
    cfg.weight_decay = 0.0;
    cfg.seed = 7;
    let untrained = mean_loss(&Model::new(hidden, 1, 7), &val, &cfg);
    let student = quiet(&cfg, &train, &val);
    let trained = mean_loss(&student, &val, &cfg);
    assert!(
        trained < untrained / 10.0,
        "validation loss {untrained} fell only to {trained}"
    );
    // In centipawns: the student's scores on unseen positions.
    let mut err = 0.0;
    for s in &val {
        err += (student.forward(s, &mut scratch) * SCALE as f32 - s.score() as f32).abs();
    }
    let mean = err / val.len() as f32;
    let size = val.iter().map(|s| s.score().abs() as f32).sum::<f32>() / val.len() as f32;
    eprintln!(
        "the student is off by {mean:.1} cp on average on unseen positions (mean |score| {size:.0})"
    );
    assert!(
        mean < size / 10.0,
        "mean error {mean} cp on unseen positions, mean |score| {size}"
    );
    std::fs::remove_dir_all(&cfg.out_dir).unwrap();
}

#[test]
fn the_loss_falls_on_real_self_play_data_and_the_engine_reads_the_net() {
    let (train, val) = split_validation(real_data(), 0.1);
    let mut cfg = Config::new(nnue::HIDDEN, out_dir("real"));
    cfg.epochs = 4;
    cfg.batch_size = 256;
    cfg.lr = 0.01;
    cfg.lr_end = 0.001;
    cfg.warmup = 5;
    cfg.threads = 2;
    let before = mean_loss(&Model::new(cfg.hidden, cfg.buckets, cfg.seed), &val, &cfg);
    let model = quiet(&cfg, &train, &val);
    let after = mean_loss(&model, &val, &cfg);
    assert!(after < 0.7 * before, "validation loss {before} -> {after}");

    // Every epoch left a net the engine loads, and a checkpoint.
    for e in 1..=4 {
        let net = std::fs::read(cfg.out_dir.join(format!("net-e{e}.nnue"))).unwrap();
        Network::from_bytes(&net).expect("the engine reads the trainer's net");
    }
    assert!(cfg.checkpoint_path().exists());

    // The quantised net scores as the trained float net, to the rounding
    // of its weights. The engine's arithmetic is exact to its truncation
    // (the model's unit test); rounding each hidden weight to 1/255 moves
    // the sum of ~30 of them by a few thousandths, which the output layer
    // turns into a few centipawns; the output weights' shared offset is
    // taken back by the bias (calibrated on the training positions).
    // Within one centipawn would need a finer QA than i16 accumulators
    // hold for 32 pieces.
    let last = Network::from_file(&cfg.net_path()).expect("the run's last net");
    let (mean, worst) = quantisation_error(&model, &last, &val);
    eprintln!("quantisation: {mean:.2} cp on average, {worst:.1} at worst");
    assert!(
        mean <= 4.0,
        "quantised net off by {mean} cp on average (worst {worst})"
    );
    assert!(
        worst <= 25.0,
        "quantised net off by {worst} cp at worst (mean {mean})"
    );
    std::fs::remove_dir_all(&cfg.out_dir).unwrap();
}

#[test]
fn a_run_is_the_same_for_the_same_seed_and_resumes_where_it_stopped() {
    let (train, val) = split_validation(real_data(), 0.1);
    let mut cfg = Config::new(8, out_dir("determinism-a"));
    cfg.epochs = 2;
    cfg.batch_size = 512;
    cfg.threads = 2;
    let a = quiet(&cfg, &train, &val);
    let mut cfg_b = cfg.clone();
    cfg_b.out_dir = out_dir("determinism-b");
    assert_eq!(a, quiet(&cfg_b, &train, &val));

    // Stopped after the first epoch, then resumed: the same as two at
    // once.
    let mut cfg_c = cfg.clone();
    cfg_c.out_dir = out_dir("determinism-c");
    let mut epochs_seen = 0;
    let first = run(
        &cfg_c,
        &train,
        &val,
        false,
        |_| {},
        |_| {
            epochs_seen += 1;
            false
        },
    )
    .unwrap();
    assert_eq!(epochs_seen, 1);
    assert_ne!(first, a);
    let resumed = run(&cfg_c, &train, &val, true, |_| {}, |_| true).unwrap();
    assert_eq!(resumed, a);
    for c in [&cfg, &cfg_b, &cfg_c] {
        let _ = std::fs::remove_dir_all(&c.out_dir);
    }
}

#[test]
fn a_bad_checkpoint_or_a_width_that_differs_is_refused_on_resume() {
    let (train, val) = split_validation(real_data(), 0.1);
    let mut cfg = Config::new(8, out_dir("resume-errors"));
    cfg.epochs = 1;
    cfg.batch_size = 512;
    assert!(
        run(&cfg, &train, &val, true, |_| {}, |_| true).is_err(),
        "no checkpoint yet"
    );
    quiet(&cfg, &train, &val);
    let mut wider = cfg.clone();
    wider.hidden = 16;
    let e = run(&wider, &train, &val, true, |_| {}, |_| true).unwrap_err();
    assert!(e.to_string().contains("16"), "{e}");
    std::fs::write(cfg.checkpoint_path(), b"garbage").unwrap();
    let e = run(&cfg, &train, &val, true, |_| {}, |_| true).unwrap_err();
    assert!(e.to_string().contains("checkpoint"), "{e}");
    std::fs::remove_dir_all(&cfg.out_dir).unwrap();
}

#[test]
fn a_fine_tuning_run_starts_from_the_net_it_is_given() {
    let (train, val) = split_validation(real_data(), 0.1);
    let mut cfg = Config::new(8, out_dir("init-start"));
    cfg.epochs = 1;
    cfg.batch_size = 512;
    let start = quiet(&cfg, &train, &val);
    let start_file = std::fs::read(cfg.net_path()).unwrap();

    // A learning rate too small to move a weight off its grid: the run
    // ends where it started, whatever its seed.
    let mut tune = cfg.clone();
    tune.out_dir = out_dir("init-tuned");
    tune.init = Some(cfg.net_path());
    tune.seed = 77;
    tune.lr = 1e-12;
    tune.lr_end = 1e-12;
    tune.warmup = 0;
    let tuned = quiet(&tune, &train, &val);
    assert_eq!(std::fs::read(tune.net_path()).unwrap(), start_file);
    let fresh = Model::new(8, 1, 77);
    assert!(
        (mean_loss(&tuned, &val, &tune) - mean_loss(&start, &val, &cfg)).abs()
            < 0.05 * mean_loss(&fresh, &val, &tune),
        "the run began from the trained net, not from seed 77's random one"
    );
    // Measuring the net trains nothing: its loss is the loss of the run
    // that could not move it, and the wrong net's would differ.
    let measured = measure(&tune, &val).expect("the net measures");
    let unmoved = mean_loss(&tuned, &val, &tune);
    assert!(
        (measured - unmoved).abs() < 1e-6 * unmoved,
        "{measured} against {unmoved}"
    );
    assert!((measured - mean_loss(&fresh, &val, &tune)).abs() > 1e-3 * measured);
    let mut nothing = tune.clone();
    nothing.init = None;
    let e = measure(&nothing, &val).unwrap_err();
    assert!(e.to_string().contains("--init"), "{e}");
    assert!(measure(&tune, &[]).is_err(), "no positions, no loss");

    // The same into eight output buckets: each starts as the one bucket
    // was, and the run ends there.
    let mut bucketed = tune.clone();
    bucketed.out_dir = out_dir("init-bucketed");
    bucketed.buckets = nnue::OUTPUT_BUCKETS;
    let eight = quiet(&bucketed, &train, &val);
    let replicated = Model::from_file_bytes(&start_file, cfg.hidden, nnue::OUTPUT_BUCKETS)
        .expect("one bucket starts eight");
    assert_eq!(
        std::fs::read(bucketed.net_path()).unwrap(),
        replicated.quantised_bytes()
    );
    assert!(
        (mean_loss(&eight, &val, &bucketed) - mean_loss(&start, &val, &cfg)).abs()
            < 1e-4 * mean_loss(&start, &val, &cfg),
        "eight copies of the output layer score as the one"
    );
    // A checkpoint of eight buckets does not resume a run of one.
    let mut one_again = bucketed.clone();
    one_again.buckets = 1;
    let e = run(&one_again, &train, &val, true, |_| {}, |_| true).unwrap_err();
    assert!(e.to_string().contains("output buckets"), "{e}");
    // Nor does a net of eight start a run of one: the error says what to give.
    one_again.init = Some(bucketed.net_path());
    one_again.out_dir = out_dir("init-folded");
    let e = run(&one_again, &train, &val, false, |_| {}, |_| true).unwrap_err();
    assert!(e.to_string().contains("--output-buckets 8"), "{e}");

    // A wider run starts from the narrower net, widened: where it was.
    let mut wider = tune.clone();
    wider.hidden = 2 * cfg.hidden;
    wider.out_dir = out_dir("init-wider");
    let wide = quiet(&wider, &train, &val);
    assert_eq!(wide.hidden, 2 * cfg.hidden);
    assert!(
        (mean_loss(&wide, &val, &wider) - mean_loss(&start, &val, &cfg)).abs()
            < 1e-3 * mean_loss(&start, &val, &cfg),
        "the widened net scores as the narrow one"
    );

    // A narrower run, or no file at all, is refused before training.
    let mut narrower = tune.clone();
    narrower.hidden = cfg.hidden / 2;
    let e = run(&narrower, &train, &val, false, |_| {}, |_| true).unwrap_err();
    assert!(
        matches!(e, TrainError::Setup(_))
            && e.to_string().contains(&format!("768->{}", cfg.hidden / 2)),
        "{e}"
    );
    let mut missing = tune.clone();
    missing.init = Some(out_dir("init-missing").join("none.nnue"));
    let e = run(&missing, &train, &val, false, |_| {}, |_| true).unwrap_err();
    assert!(matches!(e, TrainError::Io(..)), "{e}");
    for c in [&cfg, &tune, &bucketed, &wider] {
        let _ = std::fs::remove_dir_all(&c.out_dir);
    }
}
