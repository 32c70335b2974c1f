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
