//! The engine's opening book options (`OwnBook`, `BookFile`, `BookDepth`),
//! through the real binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use book::{Entry, encode_move, entries_to_bytes};
use movegen::Position;
use testkit::TempDir;

/// Sends `lines` (each followed by a pause for the engine to answer), then
/// `quit`, and returns everything the engine printed.
fn converse(lines: &[&str]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_borrow"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("borrow starts");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("write");
        stdin.flush().expect("flush");
        if line.starts_with("go") {
            std::thread::sleep(Duration::from_millis(300));
        }
    }
    writeln!(stdin, "quit").expect("write");
    drop(stdin);
    let out: Vec<String> = BufReader::new(child.stdout.take().expect("stdout"))
        .lines()
        .map(|l| l.expect("utf-8"))
        .collect();
    let status = child.wait().expect("exit");
    assert!(status.success());
    out
}

/// A book for the start position: e2e4 (weight 3) and d2d4 (weight 1).
fn write_book(dir: &std::path::Path) -> std::path::PathBuf {
    let pos: Position = Position::startpos();
    let mut entries: Vec<Entry> = ["e2e4", "d2d4"]
        .iter()
        .zip([3u16, 1])
        .map(|(uci, weight)| Entry {
            key: pos.key(),
            raw_move: encode_move(pos.parse_uci(uci).expect("legal")),
            weight,
            learn: 0,
        })
        .collect();
    entries.sort_by_key(|e| (e.key, std::cmp::Reverse(e.weight)));
    let path = dir.join("test-book.bin");
    std::fs::write(&path, entries_to_bytes(&entries)).expect("write book");
    path
}

fn bestmove(out: &[String]) -> Vec<&str> {
    out.iter()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect()
}

#[test]
fn book_moves_are_played_at_once_and_announced() {
    let dir = TempDir::new("play");
    let path = write_book(&dir);
    let set_file = format!("setoption name BookFile value {}", path.display());
    let out = converse(&[
        "uci",
        "setoption name OwnBook value true",
        &set_file,
        "position startpos",
        "go wtime 60000 btime 60000",
        "isready",
    ]);
    assert!(
        out.iter()
            .any(|l| l == "option name OwnBook type check default false"),
        "{out:?}"
    );
    assert!(
        out.iter()
            .any(|l| l.starts_with("option name BookFile type string")),
        "{out:?}"
    );
    assert!(
        out.iter().any(|l| l.starts_with("info string book move")),
        "{out:?}"
    );
    let played = bestmove(&out);
    assert_eq!(played.len(), 1, "{out:?}");
    assert!(played[0] == "e2e4" || played[0] == "d2d4", "{out:?}");
    // A book move is answered without searching.
    assert!(!out.iter().any(|l| l.starts_with("info depth")), "{out:?}");
}

#[test]
fn out_of_book_positions_are_searched() {
    let dir = TempDir::new("out");
    let path = write_book(&dir);
    let set_file = format!("setoption name BookFile value {}", path.display());
    let out = converse(&[
        "setoption name OwnBook value true",
        &set_file,
        "position startpos moves g1f3",
        "go depth 3",
        "isready",
    ]);
    assert!(
        !out.iter().any(|l| l.starts_with("info string book move")),
        "{out:?}"
    );
    assert!(out.iter().any(|l| l.starts_with("info depth 3")), "{out:?}");
    assert_eq!(bestmove(&out).len(), 1, "{out:?}");
}

#[test]
fn book_off_or_too_deep_is_not_used() {
    let dir = TempDir::new("off");
    let path = write_book(&dir);
    let set_file = format!("setoption name BookFile value {}", path.display());
    // OwnBook left false.
    let out = converse(&[&set_file, "position startpos", "go depth 2", "isready"]);
    assert!(
        !out.iter().any(|l| l.starts_with("info string book move")),
        "{out:?}"
    );
    assert_eq!(bestmove(&out).len(), 1, "{out:?}");
    // An infinite search is the user's analysis: no book move either.
    let out = converse(&[
        "setoption name OwnBook value true",
        &set_file,
        "position startpos",
        "go infinite",
        "stop",
        "isready",
    ]);
    assert!(
        !out.iter().any(|l| l.starts_with("info string book move")),
        "{out:?}"
    );
}

#[test]
fn missing_and_corrupt_books_are_reported_and_play_goes_on() {
    let dir = TempDir::new("bad");
    let corrupt = dir.join("corrupt.bin");
    std::fs::write(&corrupt, [1u8; 17]).expect("write");
    let missing = dir.join("does-not-exist.bin");
    for path in [missing, corrupt] {
        let set_file = format!("setoption name BookFile value {}", path.display());
        let out = converse(&[
            "setoption name OwnBook value true",
            &set_file,
            "position startpos",
            "go depth 2",
            "isready",
        ]);
        let said: Vec<&String> = out
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert!(
            said.iter()
                .any(|l| l.contains("cannot use book") && l.contains("without a book")),
            "{out:?}"
        );
        assert_eq!(bestmove(&out).len(), 1, "{out:?}");
        assert!(out.iter().any(|l| l == "readyok"), "{out:?}");
    }
}
