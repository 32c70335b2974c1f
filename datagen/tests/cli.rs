//! `borrow-datagen` as a user runs it: the smallest run, its records and
//! games checked by shakmaty, its help, and its refusals.

use std::path::PathBuf;
use std::process::{Command, Output};

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};

const BIN: &str = env!("CARGO_BIN_EXE_borrow-datagen");

fn datagen(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("borrow runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("borrow-datagen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(path.with_extension("txt.state"));
    path
}

#[test]
fn the_smallest_run_writes_legal_quiet_labelled_positions() {
    let out = scratch("ten.txt");
    let o = datagen(&[
        "--games",
        "10",
        "--nodes",
        "2000",
        "--text",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(stdout.contains("done: 10 games"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let mut results = std::collections::HashSet::new();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(" | ").collect();
        assert_eq!(fields.len(), 3, "{line}");
        let fen: Fen = fields[0].parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let pos: Chess = fen
            .into_position(CastlingMode::Standard)
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(!pos.is_check(), "{line}");
        let score: i32 = fields[1].parse().unwrap();
        assert!(score.abs() < 30_000, "{line}");
        assert!(["1.0", "0.5", "0.0"].contains(&fields[2]), "{line}");
        results.insert(fields[2]);
    }
    assert!(
        text.lines().count() >= 10 * 20,
        "{} positions",
        text.lines().count()
    );
    // The same command again: the output exists, and --resume has nothing left to do.
    let o = datagen(&[
        "--games",
        "10",
        "--nodes",
        "2000",
        "--text",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--resume"));
    let o = datagen(&[
        "--games",
        "10",
        "--nodes",
        "2000",
        "--text",
        "--resume",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
}

#[test]
fn games_replay_in_shakmaty_and_hold_the_text_runs_positions() {
    use shakmaty::uci::UciMove;
    let games = scratch("four.vf");
    let text = scratch("four.txt");
    for (out, format) in [(&games, "viri"), (&text, "text")] {
        let o = datagen(&[
            "--games",
            "4",
            "--nodes",
            "1000",
            "--format",
            format,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let mut trainable = Vec::new();
    let mut plies = 0;
    let n = nnue::data::read::read_games(&games, |game| {
        // Every move is legal where shakmaty stands, from the start record.
        let fen: Fen = game.start.fen().parse().unwrap();
        let mut pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        for (before, m, score) in game.positions() {
            assert_eq!(
                Fen::from_position(&pos, shakmaty::EnPassantMode::Always).to_string(),
                before.fen()
            );
            let uci: UciMove = m.to_string().parse().unwrap();
            let legal = uci
                .to_move(&pos)
                .unwrap_or_else(|e| panic!("{m} in {}: {e}", before.fen()));
            if engine::nnue::data::trainable(&before, m, score) {
                trainable.push(format!("{} | {score}", before.fen()));
            }
            pos.play_unchecked(legal);
            plies += 1;
        }
    })
    .unwrap();
    assert_eq!(n, 4);
    // The text run (the same seed) kept exactly the games' trainable plies.
    let text = std::fs::read_to_string(&text).unwrap();
    let lines: Vec<String> = text
        .lines()
        .map(|l| l.rsplit_once(" | ").unwrap().0.to_owned())
        .collect();
    assert!(lines == trainable, "the text run kept other positions");
    assert!(plies > lines.len());
}

#[test]
fn help_lists_every_option_and_bad_input_exits_2() {
    let o = datagen(&["--help"]);
    assert!(o.status.success());
    let help = String::from_utf8_lossy(&o.stdout);
    for opt in [
        "--out",
        "--games",
        "--nodes",
        "--plies",
        "--openings",
        "--threads",
        "--hash",
        "--seed",
        "--format",
        "--text",
        "--resume",
    ] {
        assert!(help.contains(opt), "{opt} missing from the help");
    }
    for (args, what) in [
        (vec!["--games", "10"], "--out <FILE>"),
        (vec!["--out", "x", "--nodes", "0"], "--nodes"),
        (vec!["--out", "x", "--games", "ten"], "--games"),
        (
            vec!["--out", "x", "--frobnicate"],
            "unexpected argument '--frobnicate'",
        ),
        (
            vec!["--out", "x.vf", "--openings", "/nonexistent/suite.epd"],
            "openings",
        ),
        (
            vec!["--out", "x", "--format", "pgn"],
            "'pgn' is not a format",
        ),
        (vec!["--out", "x.bin"], "name a viri file *.vf"),
        (
            vec!["--out", "x.vf", "--format", "text"],
            "name a text file",
        ),
    ] {
        let o = datagen(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(what), "{args:?}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_whole_records_and_resume_goes_on() {
    use std::io::{BufRead, BufReader};
    let out = scratch("stopped.vf");
    let args = [
        "--games",
        "400",
        "--nodes",
        "500",
        "--threads",
        "2",
        "--out",
    ];
    let mut child = Command::new(BIN)
        .args(args)
        .arg(&out)
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The first progress line comes after two seconds of games.
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while err.read_line(&mut line).unwrap() > 0 && !line.contains(" positions (") {
        line.clear();
    }
    // SAFETY: kill(2) on our own child's pid with SIGINT; no memory involved.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{line}");
    let len = std::fs::metadata(&out).unwrap().len();
    let games = nnue::data::read::read_games(&out, |_| {}).expect("whole games only");
    assert!(len > 0 && games > 0, "{len} bytes, {games} games");
    let state = std::fs::read_to_string(out.with_extension("vf.state")).unwrap();
    assert!(state.contains(&format!("bytes {len}\n")), "{state}");
    // --resume with the same settings continues; the run is not redone.
    let o = Command::new(BIN)
        .args([
            "--games",
            "2",
            "--nodes",
            "500",
            "--threads",
            "2",
            "--resume",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::metadata(&out).unwrap().len(), len);
}

#[test]
fn convert_turns_match_games_into_data_and_says_why_when_it_cannot() {
    let dir = testkit::TempDir::new("convert-cli");
    let pgn = dir.join("m.pgn");
    std::fs::write(
        &pgn,
        "[Result \"1-0\"]\n\n1. e4 {book} e5 {+0.10/9 0.1s} 2. Nf3 {+0.31/10 0.1s} \
         Nc6 {-0.22/10 0.1s} 1-0\n\n[Result \"1-0\"]\n\n1. d4 d5 1-0\n",
    )
    .unwrap();
    let run = |args: &[&std::path::Path]| {
        Command::new(BIN)
            .arg("convert")
            .args(args)
            .output()
            .unwrap()
    };
    let out = dir.join("m.vf");
    let o = run(&[std::path::Path::new("--out"), &out, &pgn]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(
        said.contains("1 game written (3 positions)") && said.contains("1 without scores"),
        "{said}"
    );
    let mut scores = Vec::new();
    nnue::data::read::read_games(&out, |g| scores.extend(g.plies.iter().map(|p| p.1))).unwrap();
    // Black's +0.10 for itself is White's -0.10.
    assert_eq!(scores, [-10, 31, 22]);

    let bare = dir.join("bare.pgn");
    std::fs::write(&bare, "1. d4 d5 1-0\n").unwrap();
    let empty = dir.join("none.vf");
    let o = run(&[std::path::Path::new("--out"), &empty, &bare]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no game to write"));
    assert!(!empty.exists());
    let o = run(&[
        std::path::Path::new("--out"),
        &empty,
        &dir.join("missing.pgn"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
}
