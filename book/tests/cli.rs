//! The `book` binary, run as a user would.

mod common;

use std::process::{Command, Output};

use attacks::Square;
use book::{Entry, entries_to_bytes};
use movegen::Position;

fn book(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_book"))
        .args(args)
        .output()
        .expect("run the book binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn raw(from: Square, to: Square) -> u16 {
    to as u16 | (from as u16) << 6
}

/// A hand-made book: the start position (e2e4 10, d2d4 5, an illegal
/// e2e5) and a position where both castlings are legal.
fn sample_book(dir: &testkit::TempDir) -> String {
    let start: Position = Position::startpos();
    let castle: Position = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let e = |key, raw_move, weight| Entry {
        key,
        raw_move,
        weight,
        learn: 0,
    };
    let mut entries = vec![
        e(start.key(), raw(Square::E2, Square::E4), 10),
        e(start.key(), raw(Square::D2, Square::D4), 5),
        e(start.key(), raw(Square::E2, Square::E5), 1),
        e(castle.key(), raw(Square::E1, Square::H1), 3),
        e(castle.key(), raw(Square::E1, Square::A1), 1),
    ];
    entries.sort_by_key(|e| e.key);
    let path = dir.join("sample.bin");
    std::fs::write(&path, entries_to_bytes(&entries)).unwrap();
    path.to_str().unwrap().to_owned()
}

#[test]
fn probe_lists_moves_with_san_weights_and_shares() {
    let dir = testkit::TempDir::new("cli-probe");
    let file = sample_book(&dir);
    let o = book(&["probe", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("key       0x463b96181691fc9c"), "{out}");
    let e4 = out.lines().find(|l| l.starts_with("e2e4")).expect(&out);
    assert!(
        e4.contains(" e4 ") && e4.contains("10") && e4.contains("66.67%"),
        "{e4}"
    );
    let d4 = out.lines().find(|l| l.starts_with("d2d4")).expect(&out);
    assert!(d4.contains("33.33%"), "{d4}");
    let bad = out.lines().find(|l| l.starts_with("e2e5")).expect(&out);
    assert!(bad.contains("skipped"), "{bad}");

    // The FEN as separate arguments; castling shown as the king's move.
    let o = book(&[
        "probe",
        &file,
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R",
        "w",
        "KQkq",
        "-",
        "0",
        "1",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        out.lines()
            .any(|l| l.starts_with("e1g1") && l.contains("O-O ") && l.contains("75.00%")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("e1c1") && l.contains("O-O-O")),
        "{out}"
    );

    // The same with the file after the FEN's fields.
    let o = book(&[
        "probe",
        "--fen",
        "r3k2r/8/8/8/8/8/8/R3K2R",
        "w",
        "KQkq",
        "-",
        "0",
        "1",
        &file,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).lines().any(|l| l.starts_with("e1c1")),
        "{}",
        stdout(&o)
    );

    // After some moves: not in the book.
    let o = book(&["probe", &file, "--moves", "e4 e7e5,Nf3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("no book entries"), "{}", stdout(&o));
    assert!(stdout(&o).contains("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"));
}

#[test]
fn probe_errors_exit_2_with_a_message() {
    let dir = testkit::TempDir::new("cli-errors");
    let file = sample_book(&dir);
    let check = |args: &[&str], needle: &str| {
        let o = book(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    };
    let missing = dir.join("missing.bin");
    check(&["probe", missing.to_str().unwrap()], "cannot read");

    let odd = dir.join("odd.bin");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes.push(0);
    std::fs::write(&odd, &bytes).unwrap();
    check(&["probe", odd.to_str().unwrap()], "not a multiple of 16");

    let unsorted = dir.join("unsorted.bin");
    let bytes = std::fs::read(&file).unwrap();
    let mut swapped = bytes[bytes.len() - 16..].to_vec();
    swapped.extend_from_slice(&bytes[..bytes.len() - 16]);
    std::fs::write(&unsorted, &swapped).unwrap();
    check(&["probe", unsorted.to_str().unwrap()], "not sorted");

    check(&["probe", &file, "--fen", "8/8/8 w - - 0 1"], "--fen");
    check(&["probe", &file, "--moves", "e5"], "--moves");
    check(&["probe", &file, "--fen"], "a value is required for '--fen");
    check(&["probe"], "needs a book file");
    check(&["probe", &file, &file], "unexpected argument");
    check(
        &["probe", &file, "--bogus"],
        "unexpected argument '--bogus'",
    );
    check(&[], "Usage: book <COMMAND>");
    check(&["frobnicate"], "unrecognized subcommand 'frobnicate'");
    let o = book(&["--help"]);
    assert!(o.status.success());
    assert!(stdout(&o).contains("make"), "{}", stdout(&o));
    assert!(stdout(&o).contains("probe"), "{}", stdout(&o));
}

#[test]
fn make_builds_a_book_and_reports_bad_games() {
    let dir = testkit::TempDir::new("cli-make");
    let pgn = dir.join("games.pgn");
    let text = format!(
        "{}\n[Event \"broken\"]\n1. e4 e5 2. Qxf7 *\n\n[Event \"fine\"]\n1. e4 e5 1-0\n",
        common::SAMPLE_PGN
    );
    std::fs::write(&pgn, &text).unwrap();
    let bad_line = text.lines().position(|l| l.contains("2. Qxf7 *")).unwrap() + 1;
    let out = dir.join("out.bin");
    let o = book(&[
        "make",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--max-ply",
        "12",
        "--min-games",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("49 games read, 1 skipped"),
        "{}",
        stdout(&o)
    );
    let err = stderr(&o);
    assert!(
        err.contains(&format!("games.pgn:{bad_line}: move 2. Qxf7")),
        "{err}"
    );
    let written = book::Book::open(&out).unwrap();
    assert!(!written.is_empty());

    // Probing it: the start position has the three first moves.
    let o = book(&["probe", out.to_str().unwrap()]);
    assert!(o.status.success());
    for m in ["e2e4", "d2d4", "c2c4"] {
        assert!(
            stdout(&o).lines().any(|l| l.starts_with(m)),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn make_errors_exit_2() {
    let dir = testkit::TempDir::new("cli-make-errors");
    let out = dir.join("out.bin");
    let pgn = dir.join("g.pgn");
    std::fs::write(&pgn, "1. e4 *\n").unwrap();
    let (pgn, out) = (pgn.to_str().unwrap(), out.to_str().unwrap());
    for (args, needle) in [
        (vec!["make", "--pgn", pgn], "--out"),
        (vec!["make", "--out", out], "--pgn"),
        (
            vec!["make", "--pgn", "/nonexistent/x.pgn", "--out", out],
            "cannot read",
        ),
        (
            vec!["make", "--pgn", pgn, "--out", out, "--max-ply", "ten"],
            "whole number",
        ),
        (
            vec!["make", "--pgn", pgn, "--out", out, "--min-games"],
            "a value is required for '--min-games",
        ),
        (
            // --min-games 1: an entry to write (the one game's '*' counts as
            // a draw).
            vec![
                "make",
                "--pgn",
                pgn,
                "--out",
                "/nonexistent/dir/out.bin",
                "--min-games",
                "1",
            ],
            "cannot write",
        ),
        (
            vec!["make", "--pgn=", "--out", out],
            "a value is required for '--pgn",
        ),
    ] {
        let o = book(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

/// The output is never the input, also through links;
/// the games are left as they were.
#[test]
fn make_refuses_to_overwrite_its_input() {
    let dir = testkit::TempDir::new("cli-make-same");
    let pgn = dir.join("g.pgn");
    std::fs::write(&pgn, common::SAMPLE_PGN).unwrap();
    let symlink = dir.join("link.bin");
    std::os::unix::fs::symlink(&pgn, &symlink).unwrap();
    let hard = dir.join("hard.bin");
    std::fs::hard_link(&pgn, &hard).unwrap();
    let sub = dir.join("sub");
    std::fs::create_dir(&sub).unwrap();
    let dotted = sub.join("../g.pgn");
    let pgn_s = pgn.to_str().unwrap();
    for out in [&pgn, &symlink, &hard, &dotted] {
        let o = book(&["make", "--pgn", pgn_s, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{out:?}: {}", stdout(&o));
        assert!(stderr(&o).contains("refusing"), "{out:?}: {}", stderr(&o));
        assert_eq!(
            std::fs::read_to_string(&pgn).unwrap(),
            common::SAMPLE_PGN,
            "{out:?}: the games were overwritten"
        );
    }
    // `--opt=value` works as `--opt value`.
    let out = dir.join("book.bin");
    let o = book(&[
        "make",
        &format!("--pgn={pgn_s}"),
        &format!("--out={}", out.to_str().unwrap()),
        "--min-games=2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!book::Book::open(&out).unwrap().is_empty());
}

/// A PGN without a readable game is bad input (exit 2,
/// no book written). So are games that give no entry, with why
/// on stderr, and an existing book is left as it was.
#[test]
fn make_on_unreadable_games_or_no_entry_exits_2_and_says_why() {
    let dir = testkit::TempDir::new("cli-make-empty");
    let out = dir.join("out.bin");
    let out_s = out.to_str().unwrap();
    let binary: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    for (name, bytes) in [
        ("empty.pgn", Vec::new()),
        ("garbage.pgn", b"hello world\nthis is not chess\n".to_vec()),
        ("binary.pgn", binary),
    ] {
        let pgn = dir.join(name);
        std::fs::write(&pgn, bytes).unwrap();
        let o = book(&["make", "--pgn", pgn.to_str().unwrap(), "--out", out_s]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stdout(&o));
        assert!(stderr(&o).contains("no game"), "{name}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{name}");
        assert!(!out.exists(), "{name}: a book was written");
    }

    // One game: every move was played once, fewer than --min-games 3 (the
    // default). An earlier book at --out is kept.
    let pgn = dir.join("one.pgn");
    std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n").unwrap();
    std::fs::write(&out, b"an earlier book").unwrap();
    let o = book(&["make", "--pgn", pgn.to_str().unwrap(), "--out", out_s]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains(
            "1 game read, 0 skipped; no entry for a book: no move was played in at least 3 games"
        ),
        "{err}"
    );
    assert!(err.contains("(--min-games 3)"), "{err}");
    assert!(err.contains("no book written"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"an earlier book");
    // --min-games 1, and every move by the loser only: weight 0, no entry.
    let lost = dir.join("lost.pgn");
    std::fs::write(&lost, "[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n").unwrap();
    let o = book(&[
        "make",
        "--pgn",
        lost.to_str().unwrap(),
        "--out",
        out_s,
        "--min-games",
        "1",
        "--max-ply",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("only by the side that lost"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&out).unwrap(), b"an earlier book");
    // With --min-games 1: two entries for White's moves (Black lost: weight 0).
    let o = book(&[
        "make",
        "--pgn",
        pgn.to_str().unwrap(),
        "--out",
        out_s,
        "--min-games",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("1 game read, 0 skipped; 2 entries written"),
        "{}",
        stdout(&o)
    );
    assert!(!stdout(&o).contains("no entry"), "{}", stdout(&o));
    assert_eq!(book::Book::open(&out).unwrap().len(), 2);
}

/// Across the tools: `--version`, `COMMAND --help` with that
/// command's help and exit 0, exit codes in every help, "1 entry".
#[test]
fn version_and_command_help() {
    let o = book(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        format!("book {}", env!("CARGO_PKG_VERSION"))
    );
    for (args, has, lacks) in [
        (
            &["make", "--help"][..],
            "Keep entries played",
            "learn field",
        ),
        (&["probe", "--help"], "learn field", "Keep entries played"),
        (&["--help"], "Build a book", "--min-games"),
    ] {
        let o = book(args);
        assert!(o.status.success(), "{args:?}");
        let text = stdout(&o);
        assert!(text.contains(has), "{args:?}: {text}");
        assert!(!text.contains(lacks), "{args:?}: {text}");
        assert!(text.contains("Exit status: 0"), "{args:?}: {text}");
    }

    let dir = testkit::TempDir::new("cli-one-entry");
    let file = dir.join("one.bin");
    let start: Position = Position::startpos();
    let one = [Entry {
        key: start.key(),
        raw_move: raw(Square::E2, Square::E4),
        weight: 1,
        learn: 0,
    }];
    std::fs::write(&file, entries_to_bytes(&one)).unwrap();
    let o = book(&["probe", file.to_str().unwrap()]);
    assert!(stdout(&o).contains("(1 entry)"), "{}", stdout(&o));
}

/// `book probe FILE | head -1`: a closed pipe is a quiet success.
#[test]
fn probe_into_a_closed_pipe_is_a_quiet_success() {
    use std::process::Stdio;
    let dir = testkit::TempDir::new("cli-pipe");
    let file = sample_book(&dir);
    let mut child = Command::new(env!("CARGO_BIN_EXE_book"))
        .args(["probe", &file])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
}
