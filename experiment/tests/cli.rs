//! `borrow-experiment` run as a user would: its help, version, options in
//! the `--opt=value` form, `sample-openings` and `--compare`.

use testkit::TempDir;

use std::process::Command;

const EXPERIMENT: &str = env!("CARGO_BIN_EXE_borrow-experiment");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `sample-openings --help` is that command's help.
#[test]
fn sample_openings_help_is_help() {
    let run = |args: &[&str]| Command::new(EXPERIMENT).args(args).output().unwrap();
    let o = run(&["sample-openings", "--help"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let help = text(&o.stdout);
    assert!(help.contains("--count <N>"), "{help}");
    assert!(help.contains("Exit status"), "{help}");
}

/// The bench depth in the help is the engine's default, from the one
/// constant.
#[test]
fn experiment_help_shows_the_engines_bench_depth() {
    let run = |args: &[&str]| Command::new(EXPERIMENT).args(args).output().unwrap();
    let o = run(&["--help"]);
    assert!(o.status.success());
    let help = text(&o.stdout);
    let depth = format!("default, {}]", engine::bench::DEFAULT_DEPTH);
    assert!(help.contains(&depth), "no '{depth}' in:\n{help}");
    assert!(
        help.contains("Exit status") || help.contains("exit status"),
        "{help}"
    );
}

/// `--version`, `--opt=value`, exit codes, the engine's depth range.
#[test]
fn version_and_the_equals_form() {
    let run = |args: &[&str]| Command::new(EXPERIMENT).args(args).output().unwrap();

    let o = run(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        text(&o.stdout).trim(),
        format!("borrow-experiment {}", env!("CARGO_PKG_VERSION"))
    );
    // `--opt=value`, and the engine's depth range.
    let o = run(&["--bench-depth=65"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("1 to 64"), "{}", text(&o.stderr));

    // `sample-openings` with `--opt=value` and a Latin-1 byte in the suite.
    let dir = TempDir::new("sample");
    let from = dir.join("suite.epd");
    std::fs::write(
        &from,
        b"# by M\xfcller\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
          rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
    )
    .unwrap();
    let out = dir.join("out.epd");
    let o = run(&[
        "sample-openings",
        &format!("--from={}", from.display()),
        "--count=1",
        "--seed=3",
        &format!("--out={}", out.display()),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1);
}

/// `--compare`: the classical full run beside itself, and a file that is not
/// an experiment's results (exit 2, saying so).
#[test]
fn compare_two_runs() {
    let last = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../records/experiment/2026-11-25-classical/results.json"
    );
    let dir = TempDir::new("compare");
    let out = dir.join("cmp");
    let o = Command::new(EXPERIMENT)
        .args(["--compare", last, last])
        .arg(format!("--out={}", out.display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    let md = text(&o.stdout);
    assert!(
        md.starts_with("# Attack methods: two runs side by side"),
        "{md}"
    );
    assert!(md.contains("| evaluation    | classical "), "{md}");
    assert_eq!(
        std::fs::read_to_string(out.join("comparison.md")).unwrap(),
        md
    );
    assert!(out.join("comparison.svg").exists());

    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{}").unwrap();
    let o = Command::new(EXPERIMENT)
        .arg("--compare")
        .arg(last)
        .arg(&bad)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("bad.json: not the results.json of borrow-experiment: missing field"),
        "{err}"
    );
}
