//! `borrow-train` as a user runs it: its summary of the data names only the
//! filters that are on, and a run ends with the net it reports.

use std::path::PathBuf;
use std::process::Command;

fn train(extra: &[&str], name: &str) -> (String, PathBuf) {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-4096.bin");
    let out = std::env::temp_dir().join(format!("borrow-train-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(env!("CARGO_BIN_EXE_borrow-train"))
        .arg("--data")
        .arg(&data)
        .arg("--out")
        .arg(&out)
        .args(["--epochs", "1", "--hidden", "8", "--batch-size", "512"])
        .args(["--threads", "1"])
        .args(extra)
        .output()
        .expect("borrow-train runs");
    let stderr = String::from_utf8_lossy(&run.stderr).into_owned();
    assert!(run.status.success(), "{stderr}");
    (stderr, out)
}

/// The last validation loss `text` reports (a run's stderr, a measure's
/// stdout).
fn last_loss(text: &str) -> f64 {
    text.split("validation loss ")
        .skip(1)
        .last()
        .and_then(|rest| rest.split(' ').next())
        .and_then(|x| x.parse().ok())
        .unwrap_or_else(|| panic!("no validation loss in: {text}"))
}

#[test]
fn the_data_summary_names_the_filters_that_are_on() {
    let (stderr, out) = train(&[], "default");
    let summary = stderr
        .lines()
        .find(|l| l.starts_with("read "))
        .expect(&stderr);
    assert!(summary.contains("read 4096 positions"), "{summary}");
    assert!(summary.contains("in check"), "{summary}");
    assert!(summary.contains("beyond 3000 cp"), "{summary}");
    assert!(
        !summary.contains("pieces"),
        "the piece filter is off: {summary}"
    );
    // The run's last net is where the summary says.
    assert!(
        stderr.contains(&*out.join("net.nnue").to_string_lossy()),
        "{stderr}"
    );
    // The last net is the last epoch's.
    let last = std::fs::read(out.join("net.nnue")).expect("net.nnue");
    assert_eq!(
        last,
        std::fs::read(out.join("net-e1.nnue")).expect("net-e1.nnue")
    );
    std::fs::remove_dir_all(&out).unwrap();

    assert!(
        !summary.contains("before ply"),
        "the ply filter is off: {summary}"
    );
    let (stderr, out) = train(
        &["--min-pieces", "20", "--keep-check", "--min-ply", "16"],
        "filters",
    );
    let summary = stderr
        .lines()
        .find(|l| l.starts_with("read "))
        .expect(&stderr);
    assert!(summary.contains("with fewer than 20 pieces"), "{summary}");
    assert!(summary.contains(" before ply 16"), "{summary}");
    assert!(!summary.contains("in check"), "--keep-check: {summary}");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_logistic_scale_is_fitted_when_asked_and_a_bad_one_is_refused() {
    let (stderr, out) = train(&["--scale", "fit", "--wdl", "0.5"], "scale-fit");
    let fitted = stderr
        .lines()
        .find(|l| l.starts_with("logistic scale fitted"))
        .expect(&stderr);
    let k: f64 = fitted
        .split("K = ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|k| k.parse().ok())
        .expect(fitted);
    assert!((50.0..=5_000.0).contains(&k), "{fitted}");
    // The run's target uses the fitted scale.
    assert!(
        stderr.contains(&format!("sigmoid(score / {k:.1})")),
        "{stderr}"
    );
    std::fs::remove_dir_all(&out).unwrap();

    let (stderr, out) = train(&[], "scale-default");
    assert!(stderr.contains("sigmoid(score / 400.0)"), "{stderr}");
    assert!(!stderr.contains("fitted"), "{stderr}");
    std::fs::remove_dir_all(&out).unwrap();

    for bad in ["0", "-3", "nan", "fitted"] {
        let run = Command::new(env!("CARGO_BIN_EXE_borrow-train"))
            .args(["--data", "x.bin", "--out", "never"])
            .arg(format!("--scale={bad}"))
            .output()
            .expect("borrow-train runs");
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "--scale {bad}: {stderr}");
        assert!(stderr.contains("--scale"), "--scale {bad}: {stderr}");
        assert!(stderr.contains("'fit'"), "--scale {bad}: {stderr}");
    }
}

#[test]
fn a_net_is_measured_on_held_out_files_and_a_measure_without_a_net_is_refused() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-4096.bin");
    let data = data.to_str().expect("a UTF-8 path");
    // Validating on a file of its own: every position of --data trains.
    let (stderr, out) = train(&["--validation-data", data], "validation-data");
    let kept: usize = stderr
        .lines()
        .find(|l| l.starts_with("read ") && !l.contains("to validate on"))
        .and_then(|l| l.split("kept ").nth(1))
        .and_then(|rest| rest.split(',').next())
        .and_then(|n| n.parse().ok())
        .expect(&stderr);
    assert!(
        stderr.contains(&format!("on {kept} positions, validating on {kept};")),
        "{stderr}"
    );
    let reported = last_loss(&stderr);

    // --epochs 0 trains nothing: the loss of the net it was given, which
    // is the run's own (quantised, so not to the last digit).
    let net = out.join("net.nnue");
    let measure = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_borrow-train"))
            .args(["--epochs", "0", "--hidden", "8", "--out"])
            .arg(out.join("measure"))
            .args(extra)
            .output()
            .expect("borrow-train runs")
    };
    let run = measure(&["--init", net.to_str().unwrap(), "--validation-data", data]);
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let measured = last_loss(&stdout);
    assert!(
        (measured - reported).abs() < 0.02 * reported,
        "measured {measured}, trained to {reported}: {stdout}"
    );
    assert!(stdout.contains(&format!("on {kept} positions")), "{stdout}");
    assert!(!out.join("measure").exists(), "a measure writes no net");

    // Refused before any reading: no net, a fitted scale, no data, and
    // both ways of choosing the validation positions.
    for (extra, says) in [
        (vec!["--validation-data", data], "--init"),
        (
            vec![
                "--init",
                "n.nnue",
                "--validation-data",
                data,
                "--scale",
                "fit",
            ],
            "--scale fit",
        ),
        (vec!["--init", "n.nnue"], "--validation-data"),
        (
            vec![
                "--init",
                "n.nnue",
                "--data",
                data,
                "--validation",
                "0.1",
                "--validation-data",
                data,
            ],
            "--validation",
        ),
    ] {
        let run = measure(&extra);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{extra:?}: {stderr}");
        assert!(stderr.contains(says), "{extra:?}: {stderr}");
    }
    let run = Command::new(env!("CARGO_BIN_EXE_borrow-train"))
        .args(["--out", "never", "--validation-data", data])
        .output()
        .expect("borrow-train runs");
    assert_eq!(run.status.code(), Some(2), "training wants --data");
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn a_mirrored_net_is_measured_as_it_was_trained_and_init_plain_needs_mirror() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/selfplay-4096.bin");
    let data = data.to_str().expect("a UTF-8 path");
    let (stderr, out) = train(&["--mirror", "--validation-data", data], "mirror");
    assert!(stderr.contains("inputs mirrored"), "{stderr}");
    let reported = last_loss(&stderr);
    let net = out.join("net.nnue");
    let borrow_train = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_borrow-train"))
            .args(["--hidden", "8", "--out"])
            .arg(out.join("again"))
            .args(extra)
            .output()
            .expect("borrow-train runs")
    };
    let measure = |mirror: bool| -> f64 {
        let mut args = vec!["--epochs", "0", "--init", net.to_str().unwrap()];
        args.extend(["--validation-data", data]);
        if mirror {
            args.push("--mirror");
        }
        let run = borrow_train(&args);
        let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        last_loss(&stdout)
    };
    // Read back mirrored, the net gives the loss it was trained to; read
    // as a plain net, the same weights see other inputs.
    let mirrored = measure(true);
    assert!(
        (mirrored - reported).abs() < 0.02 * reported,
        "measured {mirrored}, trained to {reported}"
    );
    assert_ne!(measure(false), mirrored);
    // Turning a plain --init round means nothing without --mirror.
    let run = borrow_train(&[
        "--data",
        data,
        "--init",
        net.to_str().unwrap(),
        "--init-plain",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success());
    assert!(stderr.contains("--mirror"), "{stderr}");
    assert!(!out.join("again").exists(), "a refused run writes nothing");
}
