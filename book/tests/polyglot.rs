//! Agreement with Debian's `polyglot` tool (PolyGlot 1.4 / 2.0): books it
//! makes from the sample games are read by our reader with the same moves
//! and shares that `polyglot dump-book` prints, and our builder (library and
//! `book make`) makes the same entries from the same games.
//!
//! Without the tool these tests pass after printing a SKIPPED message:
//! install it with `apt-get install polyglot` (it lands in /usr/games), or
//! point `POLYGLOT` at the binary.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use book::{Book, BookBuilder, BuildOptions, Entry};
use movegen::Position;

fn polyglot() -> Option<PathBuf> {
    // POLYGLOT=/path/to/polyglot picks the binary; POLYGLOT= (empty) acts
    // as if there were none.
    if let Some(p) = std::env::var_os("POLYGLOT") {
        return (!p.is_empty()).then(|| PathBuf::from(p));
    }
    let mut dirs: Vec<PathBuf> = ["/usr/games", "/usr/local/games"]
        .iter()
        .map(PathBuf::from)
        .collect();
    if let Some(path) = std::env::var_os("PATH") {
        dirs.extend(std::env::split_paths(&path));
    }
    dirs.into_iter()
        .map(|d| d.join("polyglot"))
        .find(|p| p.is_file())
}

/// Says loudly that the comparison did not run. Written to the process's
/// stderr directly, not through `eprintln!`, which the test harness captures
/// and hides for a passing test.
fn skip(test: &str) {
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "\n*** SKIPPED {test}: the `polyglot` tool was not found (apt-get install polyglot, \
         or set POLYGLOT=/path/to/polyglot). Our books were NOT compared with Polyglot's. ***\n"
    );
}

fn run(tool: &Path, args: &[&str]) {
    let out = Command::new(tool)
        .args(args)
        .output()
        .expect("run polyglot");
    assert!(
        out.status.success(),
        "polyglot {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Entries in a canonical order: key, weight (highest first), move. Ties in
/// weight may come in any order from Polyglot (its qsort is not stable).
fn canonical(mut entries: Vec<Entry>) -> Vec<Entry> {
    entries.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.weight.cmp(&a.weight))
            .then(a.raw_move.cmp(&b.raw_move))
    });
    entries
}

#[test]
fn polyglot_books_equal_ours() {
    let Some(tool) = polyglot() else {
        skip("polyglot_books_equal_ours");
        return;
    };
    let dir = testkit::TempDir::new("polyglot-make");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, common::SAMPLE_PGN).unwrap();
    for (max_ply, min_games) in [(1024, 1), (16, 2), (1024, 3), (7, 1)] {
        let theirs_path = dir.join(format!("polyglot-{max_ply}-{min_games}.bin"));
        run(
            &tool,
            &[
                "make-book",
                "-pgn",
                pgn.to_str().unwrap(),
                "-bin",
                theirs_path.to_str().unwrap(),
                "-max-ply",
                &max_ply.to_string(),
                "-min-game",
                &min_games.to_string(),
            ],
        );
        // Our reader accepts Polyglot's file: size and order checked.
        let theirs = Book::open(&theirs_path).expect("polyglot's book reads");
        let theirs_entries: Vec<Entry> = theirs.iter().collect();
        assert!(!theirs_entries.is_empty());
        assert!(
            theirs_entries.windows(2).all(
                |w| w[0].key < w[1].key || (w[0].key == w[1].key && w[0].weight >= w[1].weight)
            ),
            "polyglot sorts by key, then weight"
        );

        // The library's builder makes the same entries.
        let mut builder = BookBuilder::new(BuildOptions { max_ply, min_games });
        assert!(builder.add_pgn(common::SAMPLE_PGN).is_empty());
        let ours = builder.entries();
        assert_eq!(
            ours.len(),
            theirs_entries.len(),
            "max_ply {max_ply}, min_games {min_games}"
        );
        assert!(
            canonical(theirs_entries.clone()) == ours,
            "max_ply {max_ply}, min_games {min_games}: our entries differ from polyglot's"
        );

        // And so does the `book make` command.
        let cli_path = dir.join(format!("ours-{max_ply}-{min_games}.bin"));
        let out = Command::new(env!("CARGO_BIN_EXE_book"))
            .args(["make", "--pgn", pgn.to_str().unwrap(), "--out"])
            .arg(&cli_path)
            .args(["--max-ply", &max_ply.to_string()])
            .args(["--min-games", &min_games.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let cli: Vec<Entry> = Book::open(&cli_path).unwrap().iter().collect();
        assert!(canonical(theirs_entries.clone()) == cli);
        let same_bytes = std::fs::read(&cli_path).unwrap() == std::fs::read(&theirs_path).unwrap();
        eprintln!(
            "polyglot make-book -max-ply {max_ply} -min-game {min_games}: {} entries, the same \
             as ours (same file bytes: {same_bytes}; Polyglot's qsort leaves equal weights in no fixed order)",
            cli.len()
        );
    }
}

/// The lines of `polyglot dump-book`: `N: 1. e4{46%} c5 2. Nf3{100%} ...`,
/// ended maybe by `{trans: ...}` or `{cycle: ...}`. Each move with a share
/// is a book move of the colour dumped.
fn dump_moves(dump: &str) -> BTreeMap<u64, (String, BTreeSet<(String, u32)>)> {
    let mut positions: BTreeMap<u64, (String, BTreeSet<(String, u32)>)> = BTreeMap::new();
    for line in dump.lines().skip(1) {
        let line = line.split(" {trans").next().unwrap();
        let line = line.split(" {cycle").next().unwrap();
        let mut pos: Position = Position::startpos();
        for token in line.split_ascii_whitespace().skip(1) {
            if token.ends_with('.') && token[..token.len() - 1].bytes().all(|b| b.is_ascii_digit())
            {
                continue;
            }
            let (san, share) = match token.split_once('{') {
                Some((san, rest)) => {
                    let pct = rest.trim_end_matches("%}").parse::<u32>().expect(token);
                    (san, Some(pct))
                }
                None => (token, None),
            };
            let m = pos
                .parse_san(san)
                .unwrap_or_else(|e| panic!("{e} in {line}"));
            if let Some(pct) = share {
                positions
                    .entry(pos.key())
                    .or_insert_with(|| (pos.fen(), BTreeSet::new()))
                    .1
                    .insert((m.to_string(), pct));
            }
            pos.play_unchecked(m);
        }
    }
    positions
}

/// Checks every position that `polyglot dump-book` lists for both colours
/// of the book at `bin` against our probe of the same file: the same book
/// moves, with the same shares. Returns (positions, moves) checked.
fn check_dump(tool: &Path, dir: &testkit::TempDir, bin: &Path) -> (usize, usize) {
    let book = Book::open(bin).unwrap();
    let mut checked_positions = 0;
    let mut checked_moves = 0;
    for color in ["white", "black"] {
        let out = dir.join(format!("{color}.txt"));
        run(
            tool,
            &[
                "dump-book",
                "-bin",
                bin.to_str().unwrap(),
                "-color",
                color,
                "-out",
                out.to_str().unwrap(),
            ],
        );
        let dump = std::fs::read_to_string(&out).unwrap();
        let positions = dump_moves(&dump);
        assert!(!positions.is_empty(), "empty dump for {color}");
        for (key, (fen, dumped)) in positions {
            let pos: Position = Position::from_fen(&fen).unwrap();
            assert_eq!(pos.key(), key);
            let ours = book.probe(&pos);
            let total: u32 = ours.iter().map(|m| u32::from(m.weight)).sum();
            // The same moves...
            let our_moves: BTreeSet<String> = ours.iter().map(|m| m.mv.to_string()).collect();
            let their_moves: BTreeSet<String> = dumped.iter().map(|(m, _)| m.clone()).collect();
            assert_eq!(our_moves, their_moves, "{color} book moves differ in {fen}");
            // ...with the same shares (polyglot prints them rounded).
            for (mv, pct) in &dumped {
                let w = ours
                    .iter()
                    .find(|m| &m.mv.to_string() == mv)
                    .unwrap()
                    .weight;
                let share = 100.0 * f64::from(w) / f64::from(total);
                assert!(
                    (share - f64::from(*pct)).abs() <= 0.5 + 1e-9,
                    "{fen}: {mv} has {share:.2}% for us, {pct}% for polyglot"
                );
                checked_moves += 1;
            }
            checked_positions += 1;
        }
    }
    (checked_positions, checked_moves)
}

#[test]
fn polyglot_dump_agrees_with_our_probe() {
    let Some(tool) = polyglot() else {
        skip("polyglot_dump_agrees_with_our_probe");
        return;
    };
    let dir = testkit::TempDir::new("polyglot-dump");
    let pgn = dir.join("games.pgn");
    std::fs::write(&pgn, common::SAMPLE_PGN).unwrap();

    // Polyglot's book, read by us.
    let theirs = dir.join("polyglot.bin");
    run(
        &tool,
        &[
            "make-book",
            "-pgn",
            pgn.to_str().unwrap(),
            "-bin",
            theirs.to_str().unwrap(),
            "-min-game",
            "1",
        ],
    );
    let (positions, moves) = check_dump(&tool, &dir, &theirs);
    eprintln!(
        "polyglot dump-book of polyglot's book agrees with our probe: \
         {positions} positions, {moves} book moves"
    );
    assert!(positions > 100);

    // Our book, read by Polyglot.
    let ours = dir.join("ours.bin");
    let mut builder = BookBuilder::new(BuildOptions {
        max_ply: 1024,
        min_games: 1,
    });
    builder.add_pgn(common::SAMPLE_PGN);
    builder.write(&ours).unwrap();
    let (positions2, moves2) = check_dump(&tool, &dir, &ours);
    eprintln!(
        "polyglot dump-book of our book agrees with our probe: \
         {positions2} positions, {moves2} book moves"
    );
    assert_eq!((positions2, moves2), (positions, moves));
}
