//! Matches between scripted fake engines (`src/bin/fake-engine.rs`): each
//! failure must lose the game and be counted against the right engine.

use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use matches::cli::{MatchConfig, OpeningsConfig};
use matches::clock::Limits;
use matches::game::{Adjudication, DrawRule, Failure, ResignRule};
use matches::openings::{Format, Order};
use matches::sprt::{Decision, EloModel, Sprt};
use matches::stats::Pairs;
use matches::tournament::{self, MatchResult, Progress, StopReason};
use matches::uci_engine::EngineConfig;

const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");
const RUNNER: &str = env!("CARGO_BIN_EXE_borrow-match");

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("borrow-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

fn fake(name: &str, args: &str, tc: &str) -> EngineConfig {
    EngineConfig {
        name: name.into(),
        cmd: FAKE.into(),
        args: args.split_ascii_whitespace().map(String::from).collect(),
        limits: Limits {
            tc: Some(tc.parse().unwrap()),
            ..Limits::default()
        },
        ..EngineConfig::default()
    }
}

fn play(config: &MatchConfig) -> MatchResult {
    tournament::run(config, &|| false, Progress::Quiet).expect("the match runs")
}

/// One round (a game pair) with a short stall timeout.
fn pair(a: EngineConfig, b: EngineConfig) -> MatchConfig {
    let mut c = MatchConfig::new(a, b);
    c.stall_timeout = Duration::from_millis(300);
    c.adjudication.maxmoves = Some(40);
    c
}

/// Engine `engine` failed `n` times with `f`, and nothing else failed.
#[track_caller]
fn assert_failures(r: &MatchResult, engine: usize, f: Failure, n: u64) {
    for i in 0..2 {
        for k in Failure::ALL {
            let expected = if (i, k) == (engine, f) { n } else { 0 };
            assert_eq!(r.failures_of(i, k), expected, "engine {i} {k:?}: {r:#?}");
        }
    }
}

#[test]
fn a_crash_loses_for_the_crashing_engine() {
    let r = play(&pair(
        fake("A", "", "10+0.1"),
        fake("B", "--crash-after 3", "10+0.1"),
    ));
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (2, 0, 0));
    assert_eq!(r.pairs.ww, 1);
    assert_failures(&r, 1, Failure::Crash, 2);
    assert_eq!(r.terminations.get("crash"), Some(&2));
    assert_eq!(r.stop, StopReason::Completed);
}

#[test]
fn an_illegal_move_loses_for_the_engine_that_made_it() {
    let r = play(&pair(
        fake("A", "--illegal-after 2", "10+0.1"),
        fake("B", "", "10+0.1"),
    ));
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (0, 0, 2));
    assert_eq!(r.pairs.ll, 1);
    assert_failures(&r, 0, Failure::IllegalMove, 2);
    assert_eq!(r.terminations.get("illegal_move"), Some(&2));
}

#[test]
fn a_time_loss_loses_for_the_slow_engine() {
    // The slow engine sleeps 200 ms past its clock at its third move.
    let r = play(&pair(
        fake("A", "--slow-after 2", "0.3+0"),
        fake("B", "", "0.3+0"),
    ));
    assert_eq!((r.wdl.wins, r.wdl.draws, r.wdl.losses), (0, 0, 2));
    assert_failures(&r, 0, Failure::TimeLoss, 2);
    assert_eq!(r.terminations.get("time_loss"), Some(&2));
}

#[test]
fn the_time_margin_forgives_a_little_lateness() {
    // 50 ms late with a 500 ms margin: no time loss; the clock runs negative
    // within the margin and the game goes on to the move limit.
    let mut slow = fake("A", "--slow-after 2 --slow-by 50", "0.3+0.1");
    slow.limits.margin = Duration::from_millis(500);
    let r = play(&pair(slow, fake("B", "", "0.3+0.1")));
    assert_eq!(r.failures, [[0; 4]; 2], "{r:#?}");
}

#[test]
fn a_stall_loses_for_the_silent_engine_which_is_restarted() {
    let r = play(&pair(
        fake("A", "", "0.2+0"),
        fake("B", "--stall-after 1", "0.2+0"),
    ));
    assert_eq!((r.wdl.wins, r.wdl.losses), (2, 0));
    assert_failures(&r, 1, Failure::Stall, 2);
}

#[test]
fn no_readyok_is_a_stall() {
    let r = play(&pair(
        fake("A", "--hang-on-newgame", "1+0"),
        fake("B", "", "1+0"),
    ));
    assert_eq!((r.wdl.wins, r.wdl.losses), (0, 2));
    assert_failures(&r, 0, Failure::Stall, 2);
}

#[test]
fn a_movetime_overrun_is_a_time_loss() {
    let mut a = fake("A", "", "1+0");
    a.limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let mut b = a.clone();
    b.name = "B".into();
    b.args = vec![
        "--slow-after".into(),
        "0".into(),
        "--slow-by".into(),
        "150".into(),
    ];
    let r = play(&pair(a, b));
    assert_eq!(r.wdl.wins, 2);
    assert_failures(&r, 1, Failure::TimeLoss, 2);
}

#[test]
fn resign_and_draw_adjudication() {
    let mut c = pair(
        fake("A", "--score -900", "10+0.1"),
        fake("B", "--score 900", "10+0.1"),
    );
    c.adjudication.resign = Some(ResignRule {
        movecount: 3,
        score: 500,
        twosided: true,
    });
    let r = play(&c);
    assert_eq!(r.wdl.losses, 2);
    assert_eq!(r.terminations.get("resign_adjudication"), Some(&2));
    assert_eq!(r.failures, [[0; 4]; 2]);

    let mut c = pair(
        fake("A", "--score 3", "10+0.1"),
        fake("B", "--score -3", "10+0.1"),
    );
    c.adjudication = Adjudication {
        draw: Some(DrawRule {
            movenumber: 5,
            movecount: 2,
            score: 10,
        }),
        ..Adjudication::default()
    };
    let r = play(&c);
    assert_eq!(r.wdl.draws, 2);
    assert_eq!(r.terminations.get("draw_adjudication"), Some(&2));
}

#[test]
fn the_sprt_stops_the_match() {
    // B loses every game at once. Logistic [0, 300], α = β = 0.05: each
    // won pair adds ~0.53 to the LLR, so the 6th pair passes B = 2.944.
    let mut c = pair(
        fake("A", "", "10+0.1"),
        fake("B", "--illegal-after 0", "10+0.1"),
    );
    c.rounds = None;
    c.sprt = Some(Sprt::new(0.0, 300.0, 0.05, 0.05, EloModel::Logistic).unwrap());
    let r = play(&c);
    assert_eq!(r.stop, StopReason::Sprt(Decision::AcceptH1));
    assert_eq!(
        r.pairs,
        Pairs {
            ww: 6,
            ..Pairs::default()
        }
    );
    assert!(r.llr.unwrap() >= 2.944, "{:?}", r.llr);
}

const EPD: &str = "\
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
this line is not a position
r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3
";

#[test]
fn a_short_match_with_openings_concurrency_and_pgn() {
    let book = temp("book.epd");
    std::fs::write(&book, EPD).unwrap();
    let pgn = temp("games.pgn");
    let mut c = MatchConfig::new(
        fake("A", "--random 1", "10+0.1"),
        fake("B", "--random 2", "10+0.1"),
    );
    c.rounds = Some(4);
    c.concurrency = 2;
    c.adjudication.maxmoves = Some(30);
    c.openings = Some(OpeningsConfig {
        file: book.clone(),
        format: Format::Epd,
        order: Order::Random,
        plies: None,
        start: 1,
    });
    c.seed = 11;
    c.pgnout = Some(pgn.clone());
    let started = Instant::now();
    let r = play(&c);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert_eq!(r.wdl.games(), 8);
    assert_eq!(r.pairs.total(), 4);
    assert_eq!(r.failures, [[0; 4]; 2]);
    assert_eq!(r.terminations.values().sum::<u64>(), 8);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), 8);
    assert_eq!(text.matches("[SetUp \"1\"]").count(), 8);
    assert!(text.contains("{book}") || text.contains("[FEN "));
    assert!(text.contains("+0.00/1 "), "scores and depths in comments");
    for round in 1..=4 {
        assert!(text.contains(&format!("[Round \"{round}.2\"]")));
    }
    let _ = std::fs::remove_file(book);
    let _ = std::fs::remove_file(pgn);
}

#[test]
fn pgn_openings_are_played_with_their_moves() {
    let book = temp("book.pgn");
    std::fs::write(
        &book,
        "[Event \"x\"]\n\n1. e4 c5 2. Nf3 d6 3. d4 cxd4 *\n\n1. d4 {x} Nf6 (1... d5) 2. c4 e6 *\n",
    )
    .unwrap();
    let pgn = temp("pgn-games.pgn");
    let mut c = pair(fake("A", "", "10+0.1"), fake("B", "", "10+0.1"));
    c.rounds = Some(2);
    c.openings = Some(OpeningsConfig {
        file: book.clone(),
        format: Format::Pgn,
        order: Order::Sequential,
        plies: Some(4),
        start: 1,
    });
    c.pgnout = Some(pgn.clone());
    let r = play(&c);
    assert_eq!(r.wdl.games(), 4);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("1. e4 {book} c5 {book} 2. Nf3 {book} d6 {book} 3.")
            .count(),
        2
    );
    assert_eq!(
        text.matches("1. d4 {book} Nf6 {book} 2. c4 {book} e6 {book} 3.")
            .count(),
        2
    );
    let _ = std::fs::remove_file(book);
    let _ = std::fs::remove_file(pgn);
}

/// Before the first game, an engine that cannot start is a setup error
/// (the `Err` of `run`; exit 2 in `borrow-match`), not a match result.
#[test]
fn an_engine_that_cannot_start_is_a_setup_error() {
    let mut bad = fake("B", "", "1+0");
    bad.cmd = "/nonexistent/engine".into();
    let config = pair(fake("A", "", "1+0"), bad);
    let e = tournament::run(&config, &|| false, Progress::Quiet).unwrap_err();
    assert!(
        e.contains("nonexistent") && e.contains("cannot start"),
        "{e}"
    );
}

#[test]
fn the_command_line_runner() {
    let json = temp("result.json");
    let out = Command::new(RUNNER)
        .args([
            "-engine",
            &format!("cmd={FAKE}"),
            "name=Alpha",
            "args=--random 3",
        ])
        .args([
            "-engine",
            &format!("cmd={FAKE}"),
            "name=Beta",
            "args=--illegal-after 1",
        ])
        .args([
            "-each",
            "tc=5+0.05",
            "option.Hash=8",
            // -repeat is -games 2, the default, as in fastchess:
            // two rounds of a pair each, 4 games.
            "-repeat",
            "-rounds",
            "2",
            "-maxmoves",
            "20",
        ])
        .args(["-sprt", "elo0=0", "elo1=10", "-jsonout"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("Results of Alpha vs Beta (5+0.05): 4 games, 2 pairs"),
        "{stdout}"
    );
    assert!(stdout.contains("Ptnml(0-2): [0, 0, 0, 0, 2]"), "{stdout}");
    // The failures that happened, and only those.
    assert!(stdout.contains("\n  illegal moves"), "{stdout}");
    assert!(!stdout.contains("time losses"), "{stdout}");
    assert!(
        stdout.contains("SPRT (normalized elo0=0 elo1=10"),
        "{stdout}"
    );
    // A short line per finished game on stderr (not a terminal here).
    assert_eq!(
        stderr.matches("makes an illegal move").count(),
        4,
        "{stderr}"
    );
    let text = std::fs::read_to_string(&json).unwrap();
    let j: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(j["games"], 4, "{j}");
    assert_eq!(j["failures"]["Beta"]["time_losses"], 0, "{j}");
    assert_eq!(j["failures"]["Beta"]["illegal_moves"], 4, "{j}");
    let _ = std::fs::remove_file(json);

    let help = Command::new(RUNNER).arg("-help").output().unwrap();
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("-concurrency N"));
    let bad = Command::new(RUNNER)
        .args(["-engine", "cmd=x"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn ctrl_c_stops_cleanly_with_the_games_so_far() {
    let pgn = temp("interrupted.pgn");
    let child = Command::new(RUNNER)
        .args([
            "-engine",
            &format!("cmd={FAKE}"),
            "name=A",
            "args=--random 5",
        ])
        .args([
            "-engine",
            &format!("cmd={FAKE}"),
            "name=B",
            "args=--random 6",
        ])
        .args([
            "-each",
            "tc=5+0.05",
            "-rounds",
            "100000",
            "-maxmoves",
            "15",
            "-json",
            "-pgnout",
        ])
        .arg(&pgn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for a few games, then Ctrl-C.
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::fs::read_to_string(&pgn).map_or(0, |t| t.matches("[Event ").count()) < 3 {
        assert!(Instant::now() < deadline, "no games were played");
        std::thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: signalling our own child process.
    assert_eq!(
        unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) },
        0
    );
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("\"stop\": \"interrupted\""), "{stdout}");
    let saved = std::fs::read_to_string(&pgn)
        .unwrap()
        .matches("[Event ")
        .count();
    let counted: usize = stdout
        .split("\"games\": ")
        .nth(1)
        .and_then(|s| s.split(',').next())
        .and_then(|s| s.parse().ok())
        .unwrap();
    assert!(saved >= 3);
    assert_eq!(saved, counted, "every counted game is saved and no other");
    let _ = std::fs::remove_file(pgn);
}

/// The fixture's `--help` prints its usage, and a bad command line
/// is an error with exit status 2, not a panic.
#[test]
fn fake_engine_help_and_bad_arguments() {
    for help in ["--help", "-h"] {
        let o = Command::new(FAKE).arg(help).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{help}: {o:?}");
        assert!(out.starts_with("usage: fake-engine"), "{out}");
        assert!(out.contains("--crash-after N"), "{out}");
    }
    for (args, why) in [
        (&["--frobnicate"][..], "unknown argument '--frobnicate'"),
        (&["--crash-after"], "--crash-after needs a number"),
        (
            &["--crash-after", "x"],
            "--crash-after needs a number, not 'x'",
        ),
        (&["--score", "-"], "--score needs a number, not '-'"),
        (&["--name"], "--name needs a name"),
    ] {
        let o = Command::new(FAKE).args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: {o:?}");
    }
}

/// A match of `rounds` pairs from the EPD book in random order, in which B
/// sends an illegal move in every game: each game's result, termination
/// and failure are known, whatever the colours.
fn resumable(book: &std::path::Path, pgn: &std::path::Path, rounds: usize) -> MatchConfig {
    let mut c = pair(
        fake("A", "", "10+0.1"),
        fake("B", "--illegal-after 2", "10+0.1"),
    );
    c.rounds = Some(rounds);
    c.openings = Some(OpeningsConfig {
        file: book.to_path_buf(),
        format: Format::Epd,
        order: Order::Random,
        plies: None,
        start: 1,
    });
    c.seed = 5;
    c.pgnout = Some(pgn.to_path_buf());
    c
}

/// The Round tags of a PGN, in file order.
fn rounds_in(pgn: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(pgn)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \"")?.strip_suffix("\"]"))
        .map(String::from)
        .collect()
}

#[test]
fn a_stopped_match_resumes_from_its_pgn() {
    let book = temp("resume-book.epd");
    std::fs::write(&book, EPD).unwrap();
    let whole_pgn = temp("resume-whole.pgn");
    let whole = play(&resumable(&book, &whole_pgn, 4));
    assert_eq!(whole.wdl.wins, 8);
    let by_round = |pgn: &std::path::Path| {
        let mut r = rounds_in(pgn);
        r.sort();
        r
    };

    // The same match stopped after two rounds and the first game of the
    // third, with half of the next game written when it was killed.
    let pgn = temp("resume-cut.pgn");
    let first = play(&resumable(&book, &pgn, 2));
    assert_eq!(first.wdl.games(), 4);
    let text = std::fs::read_to_string(&whole_pgn).unwrap();
    let game_starts: Vec<usize> = text.match_indices("[Event ").map(|(i, _)| i).collect();
    let third_round = &text[game_starts[4]..game_starts[5]];
    let cut_off = &text[game_starts[5]..game_starts[5] + 200];
    let first_text = std::fs::read_to_string(&pgn).unwrap();
    let mut stopped = first_text.clone();
    stopped += third_round;
    stopped += cut_off;
    std::fs::write(&pgn, stopped).unwrap();

    let mut c = resumable(&book, &pgn, 4);
    c.resume = true;
    c.concurrency = 2;
    let r = play(&c);
    // Counted as the uninterrupted match: the engines play the first legal
    // move, so a round's games depend on its opening alone.
    assert_eq!(r.wdl, whole.wdl);
    assert_eq!(r.pairs, whole.pairs);
    assert_eq!(r.failures, whole.failures);
    assert_failures(&r, 1, Failure::IllegalMove, 8);
    assert_eq!(r.terminations, whole.terminations);
    // Each game once: the half pair and the cut-off game were dropped and
    // round 3 played again.
    assert_eq!(
        by_round(&pgn),
        ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2", "4.1", "4.2"]
    );
    // The first run's games stay first, as they were. (Compared with the
    // first run's own file: another run's move times may differ by a
    // millisecond.)
    let resumed_text = std::fs::read_to_string(&pgn).unwrap();
    assert!(
        resumed_text.starts_with(&first_text),
        "the resumed PGN does not begin with the first run's games:\n{resumed_text}"
    );

    // Resuming a finished match plays nothing and counts the same.
    let again = play(&c);
    assert_eq!(again.wdl, whole.wdl);
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), resumed_text);

    // Another match's PGN is refused, with the line of the first game
    // that does not fit.
    let mut other = resumable(&book, &pgn, 4);
    other.resume = true;
    other.seed = 6;
    let e = tournament::run(&other, &|| false, Progress::Quiet).unwrap_err();
    assert!(
        e.contains("line 1:") && e.contains("resume with the same -openings"),
        "{e}"
    );
    let mut renamed = c.clone();
    renamed.engines[1].name = "C".into();
    let e = tournament::run(&renamed, &|| false, Progress::Quiet).unwrap_err();
    assert!(
        e.contains("A against B") && e.contains("A against C"),
        "{e}"
    );
    let mut slower = c.clone();
    slower.engines[0].limits.tc = Some("20+0.2".parse().unwrap());
    let e = tournament::run(&slower, &|| false, Progress::Quiet).unwrap_err();
    assert!(e.contains("20+0.2"), "{e}");
    for f in [book, whole_pgn, pgn] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_resumed_match_whose_sprt_had_decided_plays_no_game() {
    let pgn = temp("resume-sprt.pgn");
    let mut c = pair(
        fake("A", "", "10+0.1"),
        fake("B", "--illegal-after 0", "10+0.1"),
    );
    c.rounds = None;
    c.sprt = Some(Sprt::new(0.0, 300.0, 0.05, 0.05, EloModel::Logistic).unwrap());
    c.pgnout = Some(pgn.clone());
    let first = play(&c);
    assert_eq!(first.stop, StopReason::Sprt(Decision::AcceptH1));
    c.resume = true;
    let r = play(&c);
    assert_eq!(r.stop, StopReason::Sprt(Decision::AcceptH1));
    assert_eq!(r.pairs, first.pairs);
    assert_eq!(r.llr, first.llr);
    assert_eq!(rounds_in(&pgn).len(), 12);
    let _ = std::fs::remove_file(pgn);
}
