//! `borrow-match` run as a user would: the mistakes users made and what it
//! must answer.

use testkit::TempDir;

use std::process::{Command, Output};

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");
const RUNNER: &str = env!("CARGO_BIN_EXE_borrow-match");

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `borrow-match` with two fake engines at a fast clock, one game, and
/// `extra` options.
fn fake_match(extra: &[&str]) -> Output {
    Command::new(RUNNER)
        .args(["-engine", &format!("cmd={FAKE}"), "name=A"])
        .args(["-engine", &format!("cmd={FAKE}"), "name=B"])
        .args(["-each", "tc=5+0.05", "-rounds", "1", "-games", "1"])
        .args(["-maxmoves", "10"])
        .args(extra)
        .output()
        .unwrap()
}

/// Every output path is checked before the first game.
#[test]
fn a_jsonout_that_cannot_be_written_stops_before_the_first_game() {
    let dir = TempDir::new("jsonout");
    let pgn = dir.join("games.pgn");
    let o = fake_match(&[
        "-pgnout",
        pgn.to_str().unwrap(),
        "-jsonout",
        "/nonexistent-dir/x.json",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("/nonexistent-dir/x.json"), "{err}");
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
    // No game was played: none saved, none reported.
    assert!(
        std::fs::read_to_string(&pgn).unwrap_or_default().is_empty(),
        "a game was played"
    );
    assert!(!err.contains(" vs "), "{err}");

    // A writable one is written.
    let json = dir.join("r.json");
    let o = fake_match(&["-jsonout", json.to_str().unwrap()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        std::fs::read_to_string(&json)
            .unwrap()
            .contains("\"games\": 1")
    );
}

/// Opening suites are read leniently, as `book make`
/// reads the same file.
#[test]
fn openings_with_a_latin_1_byte_are_read() {
    let dir = TempDir::new("latin1");
    let pgn = dir.join("x.pgn");
    std::fs::write(&pgn, b"[Event \"M\xfcller\"]\n\n1. e4 e5 2. Nf3 *\n").unwrap();
    let epd = dir.join("x.epd");
    std::fs::write(
        &epd,
        b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ; c0 \"M\xfcller\"\n",
    )
    .unwrap();
    for file in [&pgn, &epd] {
        let o = fake_match(&["-openings", &format!("file={}", file.display())]);
        assert!(
            o.status.success(),
            "{}: {}",
            file.display(),
            text(&o.stderr)
        );
        assert!(
            text(&o.stdout).contains(": 1 game, 0 pairs"),
            "{}",
            text(&o.stdout)
        );
    }
}

/// A bare name is looked up on PATH; a file of that name
/// here gets a hint. An engine that cannot start is a setup error: a short
/// message, exit 2, no results table.
#[test]
fn an_engine_that_cannot_start_is_a_setup_error_with_a_hint() {
    let dir = TempDir::new("cmd-here");
    std::fs::write(dir.join("README.md"), "# not an engine\n").unwrap();
    let o = Command::new(RUNNER)
        .current_dir(&*dir)
        .args([
            "-engine",
            "cmd=README.md",
            "-engine",
            &format!("cmd={FAKE}"),
        ])
        .args(["-each", "tc=1+0.01"])
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cmd=./README.md"), "{err}");
    assert!(err.trim_end().lines().count() <= 2, "{err}");
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));

    // Not in the folder either: no hint, still exit 2; the engine is named
    // once ("engine 'engine' ..." not "engine engine (engine)").
    let o = Command::new(RUNNER)
        .args([
            "-engine",
            "cmd=/nonexistent/engine",
            "-engine",
            &format!("cmd={FAKE}"),
        ])
        .args(["-each", "tc=1+0.01"])
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("/nonexistent/engine"), "{err}");
    assert!(!err.contains("cmd=./"), "{err}");
    assert!(!err.contains("engine engine"), "{err}");
    assert_eq!(err.matches("/nonexistent/engine").count(), 1, "{err}");
    assert!(o.stdout.is_empty(), "{}", text(&o.stdout));
}

/// Option values are checked against what the engine
/// declares, as option names are.
#[test]
fn option_values_outside_the_declared_ranges_are_warned_about() {
    let o = Command::new(RUNNER)
        .args(["-engine", &format!("cmd={FAKE}"), "name=X"])
        .args(["-engine", &format!("cmd={FAKE}"), "name=Y"])
        .args(["-each", "depth=1", "option.Hash=abc", "option.Threads=0"])
        .args(["option.AttackMethod=nonsense", "option.Ponder=maybe"])
        .args(["-rounds", "1", "-games", "1", "-maxmoves", "5"])
        .output()
        .unwrap();
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    for want in [
        "option 'Hash': 'abc' is not a number (the engine declares 1 to 65536)",
        "option 'Threads': 0 is outside the declared 1 to 256",
        "option 'AttackMethod': 'nonsense' is not one of the declared values",
        "option 'Ponder': 'maybe' is not true or false",
    ] {
        assert!(err.contains(want), "no '{want}' in:\n{err}");
    }
    // Good values: no warning.
    let o = Command::new(RUNNER)
        .args(["-engine", &format!("cmd={FAKE}"), "name=X"])
        .args(["-engine", &format!("cmd={FAKE}"), "name=Y"])
        .args(["-each", "depth=1", "option.Hash=2", "option.Threads=1"])
        .args(["-rounds", "1", "-games", "1", "-maxmoves", "5"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
}

/// `-event` without a value is an error, as other
/// options are.
#[test]
fn event_without_a_value_is_an_error() {
    let o = fake_match(&["-event"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("-event needs a value"),
        "{}",
        text(&o.stderr)
    );
    let o = fake_match(&["-concurrency", "x"]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("-concurrency needs a number"), "{err}");
    assert!(!err.contains("'concurrency'"), "{err}");
}

/// `gauntlet.sh --help` prints its usage (the comment block at
/// the top, without the `#`s) and nothing of the script, from any folder.
#[test]
fn gauntlet_help_is_the_usage_block() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/gauntlet.sh");
    let mut outputs = Vec::new();
    // A relative path from the script's folder (the one that used to fail),
    // and an absolute one from elsewhere.
    for (cwd, path, flag) in [(dir, "./gauntlet.sh", "--help"), ("/", script, "-h")] {
        let o = Command::new("bash")
            .arg(path)
            .arg(flag)
            .current_dir(cwd)
            .output()
            .unwrap();
        let (out, err) = (text(&o.stdout), text(&o.stderr));
        assert_eq!(o.status.code(), Some(0), "{path} {flag}: {err}");
        assert!(err.is_empty(), "{err}");
        assert!(out.starts_with("The gauntlet:"), "{out}");
        assert!(out.contains("\nOptions:\n  --games N"), "{out}");
        assert!(
            out.ends_with("run nothing else on the machine meanwhile.\n"),
            "{out}"
        );
        assert!(!out.contains("\n#") && !out.contains("set -e"), "{out}");
        outputs.push(out);
    }
    assert_eq!(outputs[0], outputs[1]);
    let o = Command::new("bash")
        .arg(script)
        .arg("--frobnicate")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown option '--frobnicate'"));
}

/// `gauntlet.sh --dry-run` prints each opponent's `-engine` arguments one a
/// line, so an option whose name holds a space ("Use NNUE", Stockfish's
/// classical evaluation) reaches `borrow-match` as one argument; an unknown
/// opponent is refused before anything is built.
#[test]
fn gauntlet_engine_arguments() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/gauntlet.sh");
    let o = Command::new("bash")
        .args([script, "--dry-run", "sfclassical", "toga2"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "== sfclassical",
            "cmd=/usr/games/stockfish",
            "name=stockfish-15.1-classical",
            "option.Threads=1",
            "option.Use NNUE=false",
            "== toga2",
            "cmd=/usr/games/toga2",
            "name=toga-ii-3.0",
            "option.OwnBook=false",
        ]
    );
    let o = Command::new("bash")
        .args([script, "--dry-run", "nosuch"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("unknown opponent 'nosuch'"));
}

/// `--version` and `-help`.
#[test]
fn version_and_help() {
    let o = Command::new(RUNNER).arg("--version").output().unwrap();
    assert!(o.status.success());
    assert_eq!(
        text(&o.stdout).trim(),
        format!("borrow-match {}", env!("CARGO_PKG_VERSION"))
    );
    let o = Command::new(RUNNER).arg("-help").output().unwrap();
    assert!(
        text(&o.stdout).contains("Exit status: 0"),
        "{}",
        text(&o.stdout)
    );
}

/// `borrow-match ... | head -1`: the summary into a closed pipe is no
/// panic and no failure (the games were played).
#[test]
fn the_summary_into_a_closed_pipe_is_a_quiet_success() {
    use std::process::Stdio;
    let mut child = Command::new(RUNNER)
        .args(["-engine", &format!("cmd={FAKE}"), "name=A"])
        .args(["-engine", &format!("cmd={FAKE}"), "name=B"])
        .args(["-each", "tc=5+0.05", "-rounds", "1", "-maxmoves", "10"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = text(&o.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(o.status.code(), Some(0), "{err}");
}

/// Chess960: a match from the committed 960 start positions finishes with
/// no illegal move or failure, both engines told `UCI_Chess960`, castling
/// sent as the king taking its rook and written `O-O` in the PGN, which
/// says the variant. The fake engines play at random and castle whenever
/// they can; the real engine's 960 match is the experiment crate's test.
#[test]
fn a_chess960_match_plays_legal_games() {
    let dir = TempDir::new("chess960");
    let pgn = dir.join("games.pgn");
    let log = dir.join("uci.log");
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/openings/chess960.epd");
    let o = Command::new(RUNNER)
        .args(["-engine", &format!("cmd={FAKE}"), "name=A"])
        .args(["-engine", &format!("cmd={FAKE}"), "name=B"])
        .args(["-each", "nodes=3000", "option.Hash=4"])
        .args(["args=--random 960 --castle"])
        .args([
            "-variant",
            "fischerandom",
            "-rounds",
            "6",
            "-concurrency",
            "2",
        ])
        .args(["-openings", &format!("file={openings}"), "order=random"])
        .args(["-srand", "960", "-maxmoves", "40"])
        .args([
            "-pgnout",
            pgn.to_str().unwrap(),
            "-log",
            log.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let out = text(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", text(&o.stderr));
    assert!(out.contains("12 games"), "{out}");
    assert!(out.contains("\nGames lost by failing: none\n"), "{out}");
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Variant \"Chess960\"]").count(), 12);
    assert!(games.contains("O-O"), "no game castled:\n{games}");
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("setoption name UCI_Chess960 value true"));
}
