//! The UCI driver fed arbitrary lines, as the engine's input loop feeds it,
//! with an output buffer instead of stdout. Nothing may panic; every `go`
//! gets exactly one `bestmove`, legal in the position searched (or `0000`
//! where there is none), with a legal `ponder` move; every `isready` gets a
//! `readyok`; every output line is one line of printable text. FENs are
//! read leniently (issue 74): where a `position` gave no position to play,
//! `d` says so and every `go` answers `bestmove 0000`, never a move of an
//! older position; where it gave one, `d` shows a FEN the strict reading
//! accepts.
//!
//! To keep each input fast, the harness tames what would run long or touch
//! the machine: `go` searches to depth 2 at most, `perft` to depth 2,
//! `Hash` is 1 MB, `Threads` at most 2, and `BookFile` is not set (it opens
//! files). `SyzygyPath`, whatever its value, opens the engine tests'
//! tables (`engine/tests/data/syzygy`: every 3-piece table and a few of 4),
//! so that positions with few pieces reach the tablebase probes. One driver serves every input and is reset at the start
//! of each.

#![no_main]

use std::sync::{Arc, Mutex, OnceLock};

use engine::driver::{Driver, Output};
use engine::uci::{Command, parse};
use libfuzzer_sys::fuzz_target;
use movegen::Position;

struct Harness {
    driver: Driver,
    out: Arc<Mutex<Vec<u8>>>,
}

static HARNESS: OnceLock<Mutex<Harness>> = OnceLock::new();

fn harness() -> &'static Mutex<Harness> {
    HARNESS.get_or_init(|| {
        let out = Arc::new(Mutex::new(Vec::new()));
        let sink: Output = out.clone();
        let mut driver = Driver::new(sink);
        driver.handle(parse("setoption name Hash value 1"));
        Mutex::new(Harness { driver, out })
    })
}

const RESET: &[&str] = &[
    "stop",
    "debug off",
    "setoption name Threads value 1",
    "setoption name MultiPV value 1",
    "setoption name Ponder value false",
    "setoption name Move Overhead value 10",
    "setoption name OwnBook value false",
    "setoption name BookFile value",
    "setoption name BookDepth value 20",
    "setoption name SyzygyPath value",
    "setoption name UCI_Chess960 value false",
    "ucinewgame",
    "position startpos",
];

/// The command as the harness lets it run: `None` to skip it.
fn tame(cmd: Command) -> Option<Command> {
    Some(match cmd {
        Command::Go(mut go) => {
            go.depth = Some(go.depth.unwrap_or(2).min(2));
            Command::Go(go)
        }
        Command::Perft(d) => Command::Perft(d.min(2)),
        // Each position is a 5,000-node search: one is enough, from the
        // start position (a book is a file the fuzzer would name at random).
        Command::Genfens(mut r) => {
            r.count = r.count.min(1);
            r.book = None;
            Command::Genfens(r)
        }
        Command::SetOption { name, value } => {
            let key = name.to_ascii_lowercase();
            let number = value.as_deref().and_then(|v| v.trim().parse::<u64>().ok());
            match (key.as_str(), number) {
                ("bookfile", _) | ("evalfile", _) => return None,
                ("syzygypath", _) => Command::SetOption {
                    name,
                    value: Some(syzygy_tables()?.to_owned()),
                },
                ("hash", Some(_)) => Command::SetOption {
                    name,
                    value: Some("1".into()),
                },
                ("threads", Some(n)) if n > 2 => Command::SetOption {
                    name,
                    value: Some("2".into()),
                },
                _ => Command::SetOption { name, value },
            }
        }
        other => other,
    })
}

/// The engine tests' tables, if they are there.
fn syzygy_tables() -> Option<&'static str> {
    static DIR: OnceLock<Option<String>> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/data/syzygy");
        std::path::Path::new(dir)
            .join("KQvK.rtbw")
            .is_file()
            .then(|| dir.to_owned())
    })
    .as_deref()
}

fn output_len(out: &Arc<Mutex<Vec<u8>>>) -> usize {
    out.lock().map(|o| o.len()).unwrap_or(0)
}

fuzz_target!(|data: &[u8]| {
    let mut h = harness().lock().unwrap_or_else(|e| e.into_inner());
    let Harness { driver, out } = &mut *h;
    out.lock().unwrap().clear();
    for line in RESET {
        driver.handle(parse(line));
    }
    driver.handle(parse(&format!(
        "setoption name AttackMethod value {}",
        attacks::Method::default()
    )));
    out.lock().unwrap().clear();

    let text = String::from_utf8_lossy(data);
    // Where each `go`'s output starts (a `fen` line the harness asked for).
    let mut go_starts = Vec::new();
    let mut readies = 0;
    for line in text.split('\n').take(64) {
        let Some(cmd) = tame(parse(line)) else {
            continue;
        };
        match &cmd {
            Command::Go(_) => {
                // `go` stops a running search first anyway; stopping here
                // puts the previous `bestmove` before this `go`'s output.
                driver.handle(Command::Stop);
                go_starts.push(output_len(out));
                driver.handle(Command::Display);
            }
            Command::IsReady => readies += 1,
            _ => {}
        }
        if !driver.handle(cmd) {
            break; // quit
        }
    }
    driver.handle(Command::Stop);

    let output = String::from_utf8(std::mem::take(&mut *out.lock().unwrap()))
        .expect("the driver writes UTF-8");
    for l in output.lines() {
        assert!(
            !l.chars().any(char::is_control),
            "control character in {l:?}"
        );
        let first = l.split(' ').next().unwrap_or("");
        // `d` draws the board (lines starting with a space) and names the
        // side to move, castling, en passant and checkers before the FEN.
        let board = l.starts_with(' ')
            || ["side to move: ", "castling: ", "en passant: ", "checkers: "]
                .iter()
                .any(|p| l.starts_with(p));
        assert!(
            board
                || [
                    "id", "option", "uciok", "readyok", "info", "bestmove", "fen", "key", "eval",
                    "perft"
                ]
                .contains(&first),
            "unexpected output line {l:?}"
        );
    }
    assert_eq!(
        output.lines().filter(|l| *l == "readyok").count(),
        readies,
        "{output}"
    );
    let mut ends: Vec<usize> = go_starts.iter().skip(1).copied().collect();
    ends.push(output.len());
    for (&start, &end) in go_starts.iter().zip(&ends) {
        let chunk = &output[start..end];
        let best: Vec<&str> = chunk
            .lines()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(best.len(), 1, "one bestmove per go:\n{chunk}");
        // The harness's `d` comes first: the board, then the FEN; or that
        // there is no position, and then nothing but `0000` (a later `d`
        // of the input may show a FEN: not the one searched).
        let shown = chunk.lines().next().unwrap_or("");
        if shown.starts_with("info string no position to show") {
            assert_eq!(best[0], "bestmove 0000", "no position:\n{chunk}");
            continue;
        }
        let fen = chunk
            .lines()
            .find_map(|l| l.strip_prefix("fen "))
            .unwrap_or_else(|| panic!("no fen before go: {chunk}"));
        let pos: Position = Position::from_fen(fen).expect("the driver's FEN is legal");
        let words: Vec<&str> = best[0].split(' ').collect();
        if pos.legal_moves().is_empty() {
            assert_eq!(words, ["bestmove", "0000"], "{fen}");
            continue;
        }
        let m = pos
            .parse_uci(words[1])
            .unwrap_or_else(|e| panic!("{fen}: {}: {e}", best[0]));
        match words[2..] {
            [] => {}
            ["ponder", p] => {
                let after = pos.play(m).expect("legal");
                after
                    .parse_uci(p)
                    .unwrap_or_else(|e| panic!("{fen}: {}: {e}", best[0]));
            }
            _ => panic!("{fen}: malformed {}", best[0]),
        }
    }
});
