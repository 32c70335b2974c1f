//! The perft suites in `suites/` (provenance in `suites/README.txt`), for
//! every attack method, against the counts the files give; and the library's
//! perft variants against one another.
//!
//! CI budget: every method runs every (position, depth) pair of at most
//! [`ALL_METHODS_CAP`] nodes; the default method also runs those up to
//! [`DEFAULT_METHOD_CAP`]. Two `#[ignore]`d runs go deeper: the default
//! method up to [`DEEP_CAP`] (every pair the files give, 1.3e10 nodes), and
//! every method up to [`DEEP_ALL_METHODS_CAP`]
//! (`cargo test -p perft --test suites -- --ignored`).

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use attacks::Method;
use movegen::Position;
use perft::suite::{self, Entry};

/// Per-(entry, depth) node cap for every method.
const ALL_METHODS_CAP: u64 = 1_000_000;
/// Per-(entry, depth) node cap for [`Method::default()`].
const DEFAULT_METHOD_CAP: u64 = 10_000_000;
/// Per-(entry, depth) node caps for the ignored deep runs: the default
/// method, and every method.
const DEEP_CAP: u64 = 1_000_000_000;
const DEEP_ALL_METHODS_CAP: u64 = 10_000_000;

/// Per-(entry, depth) node caps for the 960 Chess960 start positions of
/// `shakmaty_chess960.perft`: every method up to the first (2e7 nodes a
/// method), the default method up to the second (2.2e9 nodes). The ignored
/// [`deep_chess960_every_method`] takes every method to the second.
const CHESS960_ALL_METHODS_CAP: u64 = 100_000;
const CHESS960_DEFAULT_METHOD_CAP: u64 = 10_000_000;

/// shakmaty_tricky.perft's Chess960 entries (X-FEN rights naming rooks off
/// the a/h files, Shredder's `Ff`), counted like the rest since movegen
/// reads Chess960; named here to check they stay in the suite.
const CHESS960: &[&str] = &[
    "xfen-00",
    "xfen-01",
    "xfen-02",
    "xfen-03",
    "xfen-04",
    "hside-rook-blocks-aside-castling",
];

/// Standard-chess entries we do not count, and why. The test
/// [`refusals_are_exactly_the_listed_ones`] checks that each is still refused
/// (and nothing else is), so this list cannot go stale unnoticed.
const REFUSED: &[(&str, &str)] = &[(
    "max-legals-too-much-material",
    "28 white pieces and 270 legal moves: more material than a game allows, which \
     movegen refuses (PositionError::TooMuchMaterial)",
)];

/// Why we do not count `fen`, if we do not: the FEN reader refuses it (the
/// CLI uses the same rule).
fn refusal(fen: &str) -> Option<String> {
    Position::<attacks::Reference>::from_fen(fen)
        .err()
        .map(|e| e.to_string())
}

fn read(name: &str) -> String {
    let path = format!("{}/suites/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every entry of the standard suites (shakmaty_tricky.perft's few Chess960
/// positions included).
fn all_entries() -> Vec<Entry> {
    let mut entries = Vec::new();
    for file in [
        "cpw_perft_results.epd",
        "ethereal_standard.epd",
        "tgct_tricky.epd",
    ] {
        entries.extend(suite::parse_epd(&read(file), file).expect(file));
    }
    entries.extend(suite::parse_blocks(&read("shakmaty_tricky.perft"), &[]).expect("blocks"));
    entries
}

/// The 960 Chess960 start positions, Shredder-FEN, depths 1 to 6.
fn chess960_entries() -> Vec<Entry> {
    suite::parse_blocks(&read("shakmaty_chess960.perft"), &[]).expect("960 blocks")
}

/// The entries we count.
fn counted_entries() -> Vec<Entry> {
    all_entries()
        .into_iter()
        .filter(|e| !REFUSED.iter().any(|(n, _)| *n == e.name))
        .collect()
}

/// Checks every depth of `entries` whose expected count is at most `cap`
/// by `method`; returns one line per wrong count.
fn check_method(method: Method, entries: &[Entry], cap: u64, threads: usize) -> Vec<String> {
    let mut failures = Vec::new();
    for e in entries {
        // Depth 0 reads the FEN: a refusal is reported whatever the caps.
        if let Err(err) = perft::by_method::count(method, &e.fen, 0, 1, None) {
            failures.push(format!("{}: {err} ({})", e.name, e.fen));
            continue;
        }
        for &(depth, expected) in &e.counts {
            if expected > cap {
                continue;
            }
            let got = perft::by_method::count(method, &e.fen, depth, threads, None)
                .expect("the FEN was read at depth 0");
            if got != expected {
                failures.push(format!(
                    "{} [{method}] depth {depth}: expected {expected}, got {got} ({})",
                    e.name, e.fen
                ));
            }
        }
    }
    failures
}

fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} wrong counts:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

#[test]
fn suites_have_the_expected_shape() {
    let entries = all_entries();
    // 7 + 128 + 174 EPD lines, 26 blocks.
    assert_eq!(entries.len(), 7 + 128 + 174 + 26);
    let pairs: usize = entries.iter().map(|e| e.counts.len()).sum();
    assert!(pairs > 1600, "{pairs} (position, depth) pairs");
    for e in &entries {
        assert!(!e.counts.is_empty(), "{} has no counts", e.name);
    }
    // The Chess960 names are really in the file.
    for name in CHESS960 {
        assert!(entries.iter().any(|e| e.name == *name), "{name} not found");
    }
    let chess960 = chess960_entries();
    assert_eq!(chess960.len(), 960);
    for e in &chess960 {
        assert_eq!(e.counts.len(), 6, "{}", e.name);
        // Read, and written back in the form read (Shredder-FEN here).
        let pos: Position = Position::from_fen(&e.fen).expect(&e.fen);
        assert_eq!(pos.fen(), e.fen);
    }
}

#[test]
fn chess960_every_method_small_depths() {
    assert_no_failures(&check_methods(
        Method::ALL,
        &chess960_entries(),
        CHESS960_ALL_METHODS_CAP,
    ));
}

#[test]
fn chess960_default_method_larger_depths() {
    let bigger: Vec<Entry> = chess960_entries()
        .into_iter()
        .map(|mut e| {
            e.counts.retain(|&(_, n)| n > CHESS960_ALL_METHODS_CAP);
            e
        })
        .collect();
    assert_no_failures(&check_method(
        Method::default(),
        &bigger,
        CHESS960_DEFAULT_METHOD_CAP,
        threads(),
    ));
}

#[test]
#[ignore = "deep: 2.2e9 nodes per method; run with --ignored"]
fn deep_chess960_every_method() {
    assert_no_failures(&check_methods(
        Method::ALL,
        &chess960_entries(),
        CHESS960_DEFAULT_METHOD_CAP,
    ));
}

#[test]
#[ignore = "deep: every count of the 960 positions to depth 6, 5e11 nodes; hours"]
fn deep_chess960_default_method() {
    assert_no_failures(&check_method(
        Method::default(),
        &chess960_entries(),
        u64::MAX,
        threads(),
    ));
}

#[test]
fn refusals_are_exactly_the_listed_ones() {
    let mut refused = Vec::new();
    for e in all_entries() {
        if let Some(why) = refusal(&e.fen) {
            refused.push(e.name.clone());
            assert!(
                REFUSED.iter().any(|(n, _)| *n == e.name),
                "{} is refused but not listed in REFUSED: {why} ({})",
                e.name,
                e.fen
            );
        }
    }
    for (name, why) in REFUSED {
        assert!(
            refused.iter().any(|n| n == name),
            "{name} is listed in REFUSED ({why}) but is no longer refused: count it"
        );
    }
}

#[test]
fn every_method_small_depths() {
    assert_no_failures(&check_methods(
        Method::ALL,
        &counted_entries(),
        ALL_METHODS_CAP,
    ));
}

#[test]
fn default_method_larger_depths() {
    let entries = counted_entries();
    // The pairs above the all-methods cap only (those below are checked above).
    let bigger: Vec<Entry> = entries
        .into_iter()
        .map(|mut e| {
            e.counts.retain(|&(_, n)| n > ALL_METHODS_CAP);
            e
        })
        .filter(|e| !e.counts.is_empty())
        .collect();
    assert_no_failures(&check_method(
        Method::default(),
        &bigger,
        DEFAULT_METHOD_CAP,
        threads(),
    ));
}

/// Runs `methods` over `entries` up to `cap`, methods shared among threads.
fn check_methods(methods: &[Method], entries: &[Entry], cap: u64) -> Vec<String> {
    let failures = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads().min(methods.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&method) = methods.get(i) else {
                        break;
                    };
                    let f = check_method(method, entries, cap, 1);
                    failures.lock().unwrap().extend(f);
                }
            });
        }
    });
    failures.into_inner().unwrap()
}

#[test]
#[ignore = "deep: 1.3e10 nodes, about a minute; run with --ignored"]
fn deep_default_method() {
    assert_no_failures(&check_method(
        Method::default(),
        &counted_entries(),
        DEEP_CAP,
        threads(),
    ));
}

#[test]
#[ignore = "deep: 6e8 nodes per method; run with --ignored"]
fn deep_every_method() {
    assert_no_failures(&check_methods(
        Method::ALL,
        &counted_entries(),
        DEEP_ALL_METHODS_CAP,
    ));
}

#[test]
fn a_wrong_count_is_reported() {
    // The checker itself must be able to fail.
    let mut entry = counted_entries().remove(0);
    entry.counts = vec![(1, 20), (2, 401)];
    let failures = check_method(Method::Magic, &[entry], u64::MAX, 1);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert!(
        failures[0].contains("expected 401, got 400"),
        "{failures:?}"
    );
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// (FEN, depth, count) from the chessprogramming.org "Perft Results" page.
const CPW: &[(&str, u32, u64)] = &[
    (movegen::STARTING_FEN, 4, 197_281),
    (KIWIPETE, 3, 97_862),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43_238),
    (
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        3,
        9_467,
    ),
    (
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        3,
        62_379,
    ),
    (
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        3,
        89_890,
    ),
];

#[test]
fn bulk_counting_equals_making_every_move() {
    for &method in Method::ALL {
        for &(fen, depth, expected) in CPW {
            for d in 0..=depth {
                assert_eq!(
                    perft::by_method::count(method, fen, d, 1, None).unwrap(),
                    perft::by_method::count_full(method, fen, d).unwrap(),
                    "{method} depth {d}: {fen}"
                );
            }
            assert_eq!(
                perft::by_method::count(method, fen, depth, 1, None).unwrap(),
                expected,
                "{fen}"
            );
        }
    }
}

#[test]
fn divide_by_method_sums_to_the_count_and_reads_fens_as_the_tool_does() {
    for &method in Method::ALL {
        let (moves, _) = perft::by_method::divide(method, KIWIPETE, 3, 2, None, None).unwrap();
        assert_eq!(moves.len(), 48, "{method}");
        assert_eq!(
            moves.iter().map(|&(_, n)| n).sum::<u64>(),
            97_862,
            "{method}"
        );
        let (moves, _) = perft::by_method::divide(method, KIWIPETE, 0, 1, None, None).unwrap();
        assert!(moves.is_empty(), "{method}: depth 0 has no moves");
        assert!(perft::by_method::divide(method, "8/8/8 w - - 0 1", 1, 1, None, None).is_err());
    }
}

#[test]
fn divide_sums_to_perft_and_matches_shakmaty() {
    for &(fen, depth, expected) in CPW {
        let pos: Position = Position::from_fen(fen).unwrap();
        let div = perft::divide(&pos, depth);
        assert_eq!(div.len() as u64, pos.count_legal(), "{fen}");
        assert_eq!(div.iter().map(|&(_, n)| n).sum::<u64>(), expected, "{fen}");
        assert_eq!(perft::perft(&pos, depth), expected, "{fen}");
        for &(m, n) in &div {
            let child = pos.play(m).unwrap();
            assert_eq!(perft::perft(&child, depth - 1), n, "{fen} {m}");
        }
        // Move by move against the oracle.
        let oracle = perft::oracle::position(fen).unwrap();
        let mut ours: Vec<(String, u64)> = div.iter().map(|&(m, n)| (m.to_string(), n)).collect();
        ours.sort();
        let mut theirs: Vec<(String, u64)> = testkit::sorted_legal_uci(&oracle)
            .into_iter()
            .map(|uci| {
                let m: shakmaty::uci::UciMove = uci.parse().unwrap();
                let mut child = oracle.clone();
                shakmaty::Position::play_unchecked(&mut child, m.to_move(&oracle).unwrap());
                (uci, perft::oracle::perft(&child, depth - 1))
            })
            .collect();
        theirs.sort();
        pretty_assertions::assert_eq!(ours, theirs, "{fen}");
    }
    // Depth 1: one leaf per move; depth 0 has no moves to divide.
    let pos: Position = Position::from_fen(KIWIPETE).unwrap();
    assert!(perft::divide(&pos, 1).iter().all(|&(_, n)| n == 1));
}

#[test]
fn hashed_and_parallel_agree_with_plain() {
    let hash = perft::PerftHash::new(16);
    assert!(hash.bytes() <= 16 << 20 && hash.bytes() > 8 << 20);
    for &(fen, depth, expected) in CPW {
        let pos: Position = Position::from_fen(fen).unwrap();
        assert_eq!(perft::perft_hashed(&pos, depth, &hash), expected, "{fen}");
        // Again, now mostly from the table.
        assert_eq!(perft::perft_hashed(&pos, depth, &hash), expected, "{fen}");
        for threads in [1, 2, 3] {
            assert_eq!(
                perft::parallel_perft(&pos, depth, threads, None),
                expected,
                "{fen}"
            );
            assert_eq!(
                perft::parallel_perft(&pos, depth, threads, Some(&hash)),
                expected,
                "{fen}"
            );
        }
    }
    assert_eq!(perft::PerftHash::new(0).bytes(), 64);
    assert!(perft::PerftHash::try_new(1).is_some());
}
