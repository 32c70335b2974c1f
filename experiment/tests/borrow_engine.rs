//! The real engine in matches: `borrow-uci` (the engine library's UCI loop,
//! built with this package) against itself at fixed nodes, and the
//! attack-method experiment's `--quick` run.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Mutex;

use matches::cli::{MatchConfig, OpeningsConfig};
use matches::clock::Limits;
use matches::openings::{Format, Order};
use matches::tournament::{self, Progress, StopReason};
use matches::uci_engine::EngineConfig;

const BORROW: &str = env!("CARGO_BIN_EXE_borrow-uci");
const EXPERIMENT: &str = env!("CARGO_BIN_EXE_borrow-experiment");
const SUITE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../matches/openings/noob_3moves_3000.epd"
);

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("borrow-engine-{}-{name}", std::process::id()))
}

fn borrow(name: &str, method: &str, nodes: u64) -> EngineConfig {
    EngineConfig {
        name: name.into(),
        cmd: BORROW.into(),
        options: vec![("AttackMethod".into(), method.into())],
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        ..EngineConfig::default()
    }
}

/// A game: its round, its game in the round, its moves and its result.
type Game = (usize, usize, Vec<String>, String);

/// A short match of the engine against itself at fixed nodes (two methods,
/// two pairs, two games at once); its games in order, and the result.
fn self_match() -> (Vec<Game>, tournament::MatchResult) {
    let mut c = MatchConfig::new(
        borrow("A", "obstruction-difference", 500),
        borrow("B", "magic", 500),
    );
    c.rounds = Some(2);
    c.concurrency = 2;
    c.openings = Some(OpeningsConfig {
        file: SUITE.into(),
        format: Format::Epd,
        order: Order::Random,
        plies: None,
        start: 1,
    });
    c.seed = 5;
    let mut games = Vec::new();
    let r = tournament::run_observed(&c, &|| false, Progress::Quiet, &mut |g| {
        let moves = g.record.moves.iter().map(|m| m.uci.clone()).collect();
        games.push((g.round, g.game, moves, g.record.result.as_str().to_string()));
    })
    .expect("the match runs");
    games.sort();
    (games, r)
}

/// The two tests play real games with clocks: one at a time, so that neither
/// starves the other's engines of the machine's cores (a time loss in the
/// quick experiment is reported as a defect).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn borrow_against_itself_at_fixed_nodes_is_deterministic() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let (first, r) = self_match();
    assert_eq!(r.stop, StopReason::Completed);
    assert_eq!(r.wdl.games(), 4);
    assert_eq!(r.pairs.total(), 2);
    assert_eq!(r.failures, [[0; 4]; 2], "{r:#?}");
    assert_eq!(r.terminations.values().sum::<u64>(), 4);
    assert_eq!(first.len(), 4);
    assert!(first.iter().all(|g| g.2.len() >= 10), "{first:?}");
    // The default 16 MB table is resident (it is zeroed), and not much more.
    for kib in r.peak_memory_kib {
        let kib = kib.expect("the engines' memory is read on Linux");
        assert!((16 * 1024..64 * 1024).contains(&kib), "{kib} KiB");
    }
    // Played again (games finishing in another order, on other workers):
    // the same games, move for move.
    let (second, _) = self_match();
    assert_eq!(first, second);
}

#[test]
fn the_quick_experiment() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let out = temp("experiment");
    let _ = std::fs::remove_dir_all(&out);
    let run = Command::new(EXPERIMENT)
        .args(["--quick", "--engine", BORROW, "--out"])
        .arg(&out)
        .args(["--methods", "obstruction-difference"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("No defects"), "{stdout}");
    // --quick fixes the pairs, so it claims no budget.
    assert!(
        stderr.contains("[plan] no budget (--quick's pairs): 2 pair(s) per calibration point at 1+0.01, 2 direct pair(s)"),
        "{stderr}"
    );
    assert!(
        stdout.contains(" No budget (--quick's pairs): 2 pair(s) per calibration point"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Budget") && !stderr.contains("budget 2.00 h"),
        "{stdout}\n{stderr}"
    );
    // The table's rows, cell by cell.
    let rows: Vec<Vec<&str>> = stdout
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert!(rows.len() >= 3, "{stdout}");
    let magic = rows
        .iter()
        .find(|r| r[0] == "`magic`")
        .expect("the baseline's row");
    let bench_nodes = magic[1];
    assert!(
        bench_nodes.replace(',', "").parse::<u64>().is_ok(),
        "{stdout}"
    );
    for r in &rows {
        assert_eq!(r.len(), 8, "{r:?}");
        match r[0] {
            "`magic`" => {
                assert_eq!((r[3], r[5]), ("1", "baseline"), "{r:?}");
                assert_eq!(r[7], "baseline, deterministic (2 games twice)");
            }
            // The one method measured: a speed ratio from five pairs, no
            // prediction (two pairs per calibration point are too few for
            // a slope), and the direct check against the baseline.
            "`obstruction-difference`" => {
                assert_eq!(r[1], bench_nodes, "the same bench nodes: {stdout}");
                assert!(r[3].contains(" ["), "{r:?}");
                assert_eq!(r[5], "no calibration slope", "{r:?}");
                assert!(r[6].contains("`"), "{r:?}");
                assert_eq!(r[7], "yes (2 games)", "{r:?}");
            }
            _ => assert_eq!(
                (r[3], r[5], r[7]),
                ("-", "no speed ratio", "yes (2 games)"),
                "{r:?}"
            ),
        }
    }
    assert!(stdout.contains("Slope at 1+0.01: none"), "{stdout}");
    assert!(stdout.contains("No verdict"), "{stdout}");
    let json = std::fs::read_to_string(out.join("results.json")).unwrap();
    assert!(json.contains("\"quick\": true,"), "{json}");
    assert!(json.contains("\"budget_hours\": null,"), "{json}");
    assert!(json.contains("\"defects\": []"), "{json}");
    // The evaluation measured: the engine's default and its net's name.
    let evaluation = serde_json::json!({
        "kind": engine::evaluator::Evaluator::default_kind().name(),
        "net_sha256": engine::evaluator::BUILT_IN_NET_SHA256,
    });
    let results: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(results["evaluation"], evaluation, "{json}");
    let svg = std::fs::read_to_string(out.join("results.svg")).unwrap();
    assert!(svg.starts_with("<svg ") && svg.trim_end().ends_with("</svg>"));
    assert!(
        svg.contains("too few games"),
        "the plot says what it left out"
    );
    assert!(
        std::fs::read_to_string(out.join("results.md"))
            .unwrap()
            .contains("| method ")
    );
    // Two time factors and the direct check, two pairs each.
    let pgn = std::fs::read_to_string(out.join("timed-games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 12);

    // --resume adds games to what the run has: one more direct pair.
    let again = Command::new(EXPERIMENT)
        .arg("--resume")
        .arg(&out)
        .args(["--direct-pairs", "3"])
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    let pgn = std::fs::read_to_string(out.join("timed-games.pgn")).unwrap();
    assert_eq!(pgn.matches("[Event ").count(), 14);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(json["direct"]["result"]["games"], 6, "{json}");
    assert_eq!(json["calibration"][0]["result"]["games"], 4, "{json}");
    assert_eq!(json["evaluation"], evaluation, "kept by --resume: {json}");
    let _ = std::fs::remove_dir_all(&out);

    // Bad input: nothing runs, exit 2 with a message.
    for (args, says) in [
        (&["--budget", "0.01"][..], "--budget"),
        (&["--methods", "bogus"], "does not offer the method 'bogus'"),
        (&["--resume", "/nonexistent/run"], "earlier run"),
    ] {
        let o = Command::new(EXPERIMENT)
            .args(["--engine", BORROW])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }

    let missing = Command::new(EXPERIMENT)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("cargo build --release"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
}

/// Chess960: the real engine against itself from the committed 960 start
/// positions, at 3,000 nodes a move for 40 moves: no game lost by failing
/// (an illegal move, a crash, a stall), and castling played, as the king
/// taking its rook.
#[test]
fn borrow_plays_legal_chess960_games() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let chess960 = |name| {
        let mut e = borrow(name, "magic", 3000);
        // What `-variant fischerandom` adds on the command line.
        e.options.push(("UCI_Chess960".into(), "true".into()));
        e
    };
    let mut c = MatchConfig::new(chess960("A"), chess960("B"));
    c.chess960 = true;
    c.rounds = Some(6);
    c.concurrency = 2;
    c.openings = Some(OpeningsConfig {
        file: concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../matches/openings/chess960.epd"
        )
        .into(),
        format: Format::Epd,
        order: Order::Random,
        plies: None,
        start: 1,
    });
    c.seed = 960;
    c.adjudication.maxmoves = Some(40);
    let mut castled = 0;
    let r = tournament::run_observed(&c, &|| false, Progress::Quiet, &mut |g| {
        if g.record.moves.iter().any(|m| m.san.starts_with("O-O")) {
            castled += 1;
        }
    })
    .expect("the match runs");
    assert_eq!(r.stop, StopReason::Completed);
    assert_eq!(r.wdl.games(), 12);
    assert_eq!(r.failures, [[0; 4]; 2], "games lost by failing");
    assert!(castled > 0, "no game castled");
}
