//! The `perft` binary, run as a user would.

use std::path::PathBuf;
use std::process::{Command, Output};

fn perft(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_perft"))
        .args(args)
        .output()
        .expect("run the perft binary")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A file in a fresh temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let dir =
            std::env::temp_dir().join(format!("perft-cli-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn path(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        if let Some(dir) = self.0.parent() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

#[test]
fn startpos_small_depth() {
    let o = perft(&["--depth", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.contains(&"8902"), "{out}");
    let last = lines.last().unwrap();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!(words[0], "8902");
    assert_eq!(words[1], "nodes");
    assert!(words[2].parse::<u64>().is_ok(), "{last}");
    assert_eq!(words[3], "nps");
    assert!(out.contains("bulk-counted"), "{out}");
}

#[test]
fn default_depth_is_five() {
    let o = perft(&["--method", "magic"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "4865609"), "{}", stdout(&o));
}

#[test]
fn divide_lists_moves_then_total() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = perft(&["--fen", kiwipete, "--depth", "2", "--divide"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let moves: Vec<(&str, u64)> = out
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter_map(|(m, n)| Some((m, n.parse().ok()?)))
        .collect();
    assert_eq!(moves.len(), 48, "{out}");
    assert_eq!(moves.iter().map(|&(_, n)| n).sum::<u64>(), 2039);
    assert!(moves.contains(&("e1g1", 43)), "{out}");
    assert!(moves.contains(&("e1c1", 43)), "{out}");
    assert!(out.lines().any(|l| l == "2039"), "{out}");
    assert!(
        out.lines().last().unwrap().starts_with("2039 nodes "),
        "{out}"
    );
}

#[test]
fn unquoted_fen_fields_and_compare() {
    let o = perft(&[
        "--fen",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8",
        "w",
        "-",
        "-",
        "--depth",
        "3",
        "--compare",
        "--divide",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "2812"), "{out}");
    assert!(!out.contains("MISMATCH"), "{out}");
    assert!(out.lines().last().unwrap().contains("shakmaty"), "{out}");
}

#[test]
fn all_methods_table() {
    let o = perft(&["--method", "all", "--depth", "3", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for m in attacks::Method::ALL {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{m} "))),
            "{m} missing:\n{out}"
        );
    }
    assert!(out.contains("vs fastest"), "{out}");
    assert!(out.lines().any(|l| l == "8902"), "{out}");
}

#[test]
fn epd_suite_with_one_wrong_count_fails() {
    let suite = TempFile::new(
        "tiny.epd",
        "# a comment\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401\n",
    );
    let o = perft(&["--epd", suite.path()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"), "{out}");
    let fail = out.lines().find(|l| l.starts_with("FAIL")).unwrap();
    assert!(fail.contains("401") && fail.contains("400"), "{fail}");
    assert!(out.lines().any(|l| l.starts_with("ok ")), "{out}");
}

#[test]
fn epd_block_format_all_methods_and_max_nodes() {
    let suite = TempFile::new(
        "tiny.perft",
        "# shakmaty's format\n\
         id pos-3\n\
         epd 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -\n\
         perft 1 14\n\
         perft 2 191\n\
         perft 3 2812\n\
         perft 6 11030083\n\
         \n\
         id prison\n\
         epd 2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - -\n\
         perft 1 1\n\
         perft 2 1\n",
    );
    let o = perft(&[
        "--epd",
        suite.path(),
        "--method",
        "all",
        "--max-nodes",
        "1e4",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}\n{out}", stderr(&o));
    let n = attacks::Method::ALL.len();
    assert_eq!(
        out.lines().last(),
        Some(format!("{} passed, 0 failed", 5 * n).as_str()),
        "{out}"
    );
    assert!(out.contains("above --max-nodes"), "{out}");
}

#[test]
fn epd_skips_refused_positions_with_a_reason() {
    let suite = TempFile::new(
        "refused.perft",
        "id crowded\n\
         epd kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - -\n\
         perft 1 270\n\
         \n\
         id start\n\
         epd rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
         perft 2 400\n",
    );
    let o = perft(&["--epd", suite.path()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{}\n{out}", stderr(&o));
    assert!(
        out.lines()
            .any(|l| l.starts_with("skip crowded") && l.contains("too much material")),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("1 passed, 0 failed"), "{out}");
}

fn assert_bad_input(args: &[&str], message: &str) {
    let o = perft(args);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    // The first line names the problem (clap adds a hint line after its
    // own errors).
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.contains(message),
        "{args:?}: expected '{message}' in the first line of: {err}"
    );
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    assert_bad_input(&["--fen", "not a fen"], "invalid FEN");
    assert_bad_input(
        &[
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0",
        ],
        "invalid FEN",
    );
    // Black to move while White's king is attacked.
    assert_bad_input(
        &["--fen", "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1"],
        "not to move is in check",
    );
    assert_bad_input(
        &["--fen", "4k3/8/8/8/8/8/8/4K3 w K - 0 1"],
        "castling right",
    );
    assert_bad_input(&["--fen", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1"], "en-passant");
    assert_bad_input(
        &[
            "--fen",
            "kBQQQQQQ/BR5Q/Q6Q/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1",
        ],
        "too much material",
    );
    assert_bad_input(&["--epd", "/nonexistent/suite.epd"], "cannot read");
    let junk = TempFile::new("junk.epd", "this is not a suite\n");
    assert_bad_input(&["--epd", junk.path()], "line 1");
    assert_bad_input(&["--method", "bogus"], "unknown attack method 'bogus'");
    assert_bad_input(&["--depth", "x"], "not a whole number");
    assert_bad_input(&["--depth", "-1"], "not a whole number");
    assert_bad_input(&["--depth", "99"], "out of range");
    assert_bad_input(&["--depth"], "a value is required");
    assert_bad_input(&["--threads", "0"], "out of range");
    assert_bad_input(&["--hash", "lots"], "not a whole number");
    assert_bad_input(&["--bogus"], "unexpected argument '--bogus'");
    assert_bad_input(&["extra"], "unexpected argument 'extra'");
    assert_bad_input(
        &["--fen", "8/8/8/8/8/8/8/K6k w - -", "--epd", "x"],
        "cannot be used with",
    );
    assert_bad_input(
        &["--max-nodes", "10"],
        "required arguments were not provided",
    );
    assert_bad_input(&["--divide", "--method", "all"], "one method, not 'all'");
    assert_bad_input(&["--divide", "--epd", "x"], "cannot be used with");
}

#[test]
fn help_describes_the_options() {
    let o = perft(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for option in [
        "--method",
        "--depth",
        "--fen",
        "--epd",
        "--divide",
        "--threads",
        "--hash",
        "--max-nodes",
        "--compare",
        "bulk-counted",
    ] {
        assert!(out.contains(option), "{option} missing from --help");
    }
}

/// `perft ... | head -1` is a quiet success (exit 1
/// means a count was wrong, and none was).
#[test]
fn a_closed_pipe_is_a_quiet_success() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    for args in [&["--depth", "5"][..], &["--depth", "4", "--divide"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_perft"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        assert!(first.starts_with("position "), "{first}");
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(o.stderr.is_empty(), "{args:?}: {}", stderr(&o));
    }
}

/// A suite with a byte that is not UTF-8 (a Latin-1 name
/// in a comment) is read, as `book make` reads such files.
#[test]
fn epd_suite_with_latin_1_bytes_is_read() {
    let dir = std::env::temp_dir().join(format!("perft-cli-test-{}-latin1", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.epd");
    let mut bytes = b"# suite by M\xfcller\n".to_vec();
    bytes.extend_from_slice(
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400\n",
    );
    std::fs::write(&path, bytes).unwrap();
    let o = perft(&["--epd", path.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().last(), Some("2 passed, 0 failed"));
}

/// An invalid FEN is named once in the error.
#[test]
fn a_bad_fen_is_named_once() {
    for fen in ["garbage", "8/8/8/8/8/8/8/8 w - - 0 1"] {
        let o = perft(&["--fen", fen]);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert_eq!(err.matches(fen).count(), 1, "{err}");
    }
}

/// Across the tools: `--version`, `--opt=value`, exit codes in
/// the help, perft's limits for threads and hash (the engine's:
/// `movegen::table`'s constants).
#[test]
fn version_equals_form_and_limits() {
    let o = perft(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        format!("perft {}", env!("CARGO_PKG_VERSION"))
    );
    let o = perft(&["--depth=2", "--method=magic"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "400"), "{}", stdout(&o));
    let help = stdout(&perft(&["--help"]));
    assert!(help.contains("Exit status: 0"), "{help}");
    // The limits of perft's --threads and --hash.
    let threads = perft::MAX_THREADS;
    let hash = perft::MAX_HASH_MB;
    assert_bad_input(
        &["--threads", &(threads + 1).to_string()],
        &format!("1 to {threads}"),
    );
    assert_bad_input(
        &["--hash", &(hash + 1).to_string()],
        &format!("0 to {hash}"),
    );
    let o = perft(&["--depth", "1", "--threads", &threads.to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
}
