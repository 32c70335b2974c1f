//! `borrow-spsa` run as a user would, against the scripted engine: a run
//! saves every iteration and goes on where it stopped; the mistakes that
//! would tune nothing stop it before the first game.

use std::process::{Command, Output};

use matches::spsa::{Tuner, parse_params};
use testkit::TempDir;

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");
const SPSA: &str = env!("CARGO_BIN_EXE_borrow-spsa");

/// Two of the fake engine's spins, tuned as if they were constants.
const PARAMS: &str = "Hash, int, 16, 1, 64, 2, 0.002\nThreads, int, 4, 1, 8, 1, 0.002\n";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `borrow-spsa` on random-moving fake engines, 10 moves a game.
fn spsa(dir: &TempDir, own: &[&str], params: &str) -> Output {
    let file = dir.join("params.txt");
    std::fs::write(&file, params).unwrap();
    let state = dir.join("run.state");
    Command::new(SPSA)
        .args(["-engine", FAKE, "-params", file.to_str().unwrap()])
        .args(["-state", state.to_str().unwrap()])
        .args(own)
        .args([
            "--",
            "-each",
            "nodes=100",
            "args=--random 5",
            "-maxmoves",
            "10",
        ])
        .output()
        .unwrap()
}

#[test]
fn a_run_saves_each_iteration_and_resumes_where_it_stopped() {
    let dir = TempDir::new("spsa-run");
    let o = spsa(
        &dir,
        &["-iterations", "3", "-pairs", "2", "-seed", "9"],
        PARAMS,
    );
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    let saved = Tuner::from_text(&std::fs::read_to_string(dir.join("run.state")).unwrap()).unwrap();
    assert_eq!(saved.done, 3);
    assert_eq!(saved.wdl.iter().sum::<u64>(), 3 * 2 * 2, "{:?}", saved.wdl);
    // A line per iteration in the log: the iteration, W D L, the values.
    let log = std::fs::read_to_string(dir.join("run.state.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert!(
        lines[2].starts_with("3 ") && lines[2].contains("Hash="),
        "{log}"
    );
    // stdout: the values in the input's form, ready for the next run.
    let out = parse_params(&text(&o.stdout)).unwrap();
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].value, saved.params[0].value.round());

    // Starting over on the same state is refused; -resume goes on.
    let o = spsa(
        &dir,
        &["-iterations", "3", "-pairs", "2", "-seed", "9"],
        PARAMS,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("-resume"), "{}", text(&o.stderr));
    // A finished run resumed plays nothing more.
    let o = spsa(
        &dir,
        &["-iterations", "3", "-pairs", "2", "-seed", "9", "-resume"],
        PARAMS,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let again = std::fs::read_to_string(dir.join("run.state.log")).unwrap();
    assert_eq!(again, log);
    // Another plan is not this run.
    let o = spsa(
        &dir,
        &["-iterations", "3", "-pairs", "2", "-seed", "10", "-resume"],
        PARAMS,
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("seed"), "{}", text(&o.stderr));
}

#[test]
fn a_constant_the_engine_lacks_stops_it_before_any_game() {
    let dir = TempDir::new("spsa-missing");
    let o = spsa(
        &dir,
        &["-iterations", "2"],
        "rfp_margin, int, 80, 20, 200, 9, 0.002\n",
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no option rfp_margin") && err.contains("--features spsa"),
        "{err}"
    );
    assert!(!dir.join("run.state").exists());
}

#[test]
fn options_it_sets_itself_and_bad_input_are_refused() {
    let dir = TempDir::new("spsa-args");
    let file = dir.join("p.txt");
    std::fs::write(&file, PARAMS).unwrap();
    let run = |args: &[&str]| {
        let o = Command::new(SPSA).args(args).output().unwrap();
        (o.status.code(), text(&o.stderr))
    };
    let params = file.to_str().unwrap();
    let state = dir.join("s").to_str().unwrap().to_string();
    let base = [
        "-engine",
        FAKE,
        "-params",
        params,
        "-state",
        &state,
        "-iterations",
        "1",
    ];
    let (code, err) = run(&[&base[..], &["--", "-each", "nodes=10", "-rounds", "5"]].concat());
    assert_eq!(code, Some(2));
    assert!(err.contains("-rounds is borrow-spsa's to set"), "{err}");
    let (code, err) = run(&["-engine", FAKE, "-params", params, "-state", &state]);
    assert_eq!(code, Some(2));
    assert!(err.contains("-iterations is missing"), "{err}");
    let (code, err) = run(&[&base[..], &["-pairs", "x"]].concat());
    assert_eq!(code, Some(2));
    assert!(err.contains("not a whole number"), "{err}");
    // No limit for the games: borrow-match's own error.
    let (code, err) = run(&base);
    assert_eq!(code, Some(2));
    assert!(err.contains("no time control"), "{err}");
    std::fs::write(&file, "Hash, int, 99, 1, 64, 2, 0.002\n").unwrap();
    let (code, err) = run(&[&base[..], &["--", "-each", "nodes=10"]].concat());
    assert_eq!(code, Some(2));
    assert!(err.contains("line 1") && err.contains("outside"), "{err}");
    let o = Command::new(SPSA).arg("-help").output().unwrap();
    assert!(o.status.success() && text(&o.stdout).contains("-iterations N"));
}
