//! Scripted UCI conversations with the real `borrow` binary, run as a child
//! process. Every read has a timeout, so an engine that hangs fails the test
//! instead of blocking CI. Moves and positions are checked with `shakmaty`,
//! which shares no code with the engine.
//!
//! Timing bounds are generous on purpose (seconds where the engine needs
//! milliseconds): the tests check that the engine acts, not how fast.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use attacks::Method;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

const BIN: &str = env!("CARGO_BIN_EXE_borrow");

/// How long any single expected line may take (searches here are tiny).
const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the engine may take to act on `stop`, `quit`, `ponderhit`, or a
/// nearly empty clock. It needs milliseconds; this only catches hangs.
const ACT: Duration = Duration::from_secs(3);

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// ---------------------------------------------------------------------------
// The engine as a child process.

/// A running engine: lines go to its stdin; its stdout lines arrive through a
/// reader thread and a channel, so every read can time out.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
    /// The lines since the last `go`, and when it was sent.
    search_lines: Vec<String>,
    go_sent: Instant,
    /// Whether the engine closed its output (exited).
    closed: bool,
    /// Everything said so far, both ways, for failure messages.
    transcript: Vec<String>,
    /// Every line the engine printed.
    output: Vec<String>,
}

impl Engine {
    fn new() -> Engine {
        Engine::spawn(Command::new(BIN))
    }

    fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = stderr.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        });
        Engine {
            child,
            stdin,
            lines: rx,
            stderr: Some(stderr),
            search_lines: Vec::new(),
            go_sent: Instant::now(),
            closed: false,
            transcript: Vec::new(),
            output: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        if line.starts_with("go") {
            self.search_lines.clear();
            self.go_sent = Instant::now();
        }
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.log('>', String::from_utf8_lossy(bytes).trim_end());
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    /// Closes the engine's stdin (end of input).
    fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// Adds a (possibly shortened) line to the transcript.
    fn log(&mut self, dir: char, line: &str) {
        let short: String = line.chars().take(300).collect();
        let more = if short.len() < line.len() {
            " [...]"
        } else {
            ""
        };
        self.transcript.push(format!("{dir} {short}{more}"));
    }

    fn context(&self) -> String {
        let start = self.transcript.len().saturating_sub(60);
        self.transcript[start..].join("\n")
    }

    /// The next line, or `None` if none comes within `timeout`.
    fn try_recv(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log('<', &line);
                self.output.push(line.clone());
                self.search_lines.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => {
                if !self.closed {
                    self.closed = true;
                    self.transcript.push("< <end of output>".into());
                }
                // Do not spin on a closed channel.
                std::thread::sleep(timeout.min(Duration::from_millis(10)));
                None
            }
        }
    }

    /// Reads lines until one satisfies `done`; returns all of them, that one
    /// last. Fails the test if it does not come within `timeout`.
    fn read_until(
        &mut self,
        timeout: Duration,
        what: &str,
        done: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.try_recv(left) {
                Some(line) => {
                    let stop = done(&line);
                    got.push(line);
                    if stop {
                        return got;
                    }
                }
                None if self.closed => panic!(
                    "the engine exited before {what}; stderr and transcript:\n{}\n{}",
                    self.stderr
                        .take()
                        .map(|h| h.join().unwrap())
                        .unwrap_or_default(),
                    self.context()
                ),
                None => panic!(
                    "no {what} within {timeout:?}; transcript:\n{}",
                    self.context()
                ),
            }
        }
    }

    /// Asserts that nothing matching `bad` arrives for `quiet`, returning the
    /// lines that did.
    fn expect_no(
        &mut self,
        quiet: Duration,
        what: &str,
        bad: impl Fn(&str) -> bool,
    ) -> Vec<String> {
        let deadline = Instant::now() + quiet;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return got;
            }
            if let Some(line) = self.try_recv(left) {
                assert!(
                    !bad(&line),
                    "unexpected {what}: '{line}'; transcript:\n{}",
                    self.context()
                );
                got.push(line);
            }
        }
    }

    /// `isready` → `readyok`; returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(LINE_TIMEOUT, "readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// The `info string` lines the engine printed in answer to `line`.
    fn info_strings_after(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
            .into_iter()
            .filter(|l| l.starts_with("info string"))
            .collect()
    }

    /// The engine's position, from the `d` command.
    fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.sync();
        let fen = lines.iter().find_map(|l| l.strip_prefix("fen "));
        fen.unwrap_or_else(|| panic!("no 'fen' line from 'd': {lines:?}"))
            .to_owned()
    }

    /// Sends a `go` command and collects the search up to `bestmove`.
    fn go(&mut self, go: &str) -> Search {
        self.send(go);
        self.bestmove(LINE_TIMEOUT)
    }

    /// Reads the rest of a search, up to `bestmove`, within `timeout`; the
    /// search is everything since the last `go`.
    fn bestmove(&mut self, timeout: Duration) -> Search {
        self.read_until(timeout, "bestmove", |l| l.starts_with("bestmove"));
        self.bestmove_from_lines()
    }

    /// The search since the last `go`, whose `bestmove` has been read.
    fn bestmove_from_lines(&mut self) -> Search {
        let elapsed = self.go_sent.elapsed();
        let lines = std::mem::take(&mut self.search_lines);
        Search::parse(lines, elapsed, &self.context())
    }

    /// Sends `quit` and waits for a prompt, clean exit with nothing alarming
    /// on stderr. Also checks that every output line is clean text.
    fn quit(mut self) {
        self.send("quit");
        self.finish();
    }

    /// Waits for the process to end by itself, then runs the common checks.
    fn finish(mut self) {
        let status = wait_with_timeout(&mut self.child, ACT)
            .unwrap_or_else(|| panic!("engine did not exit; transcript:\n{}", self.context()));
        assert!(
            status.success(),
            "exit status {status}; transcript:\n{}",
            self.context()
        );
        // Drain what is left of stdout.
        while self.try_recv(Duration::from_millis(200)).is_some() {}
        let stderr = self.stderr.take().unwrap().join().unwrap();
        assert!(
            !stderr.contains("panicked"),
            "the engine panicked:\n{stderr}\ntranscript:\n{}",
            self.context()
        );
        for line in &self.output {
            assert!(
                !line.chars().any(char::is_control),
                "output line with control characters: {line:?}"
            );
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // A failed test must not leave an engine running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn wait_with_timeout(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(status) = child.try_wait().expect("wait for the engine") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `borrow` with `args` to completion (with a timeout).
fn run(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start borrow");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let o = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out.read_to_end(&mut v);
        v
    });
    let e = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err.read_to_end(&mut v);
        v
    });
    let status = match wait_with_timeout(&mut child, Duration::from_secs(30)) {
        Some(s) => s,
        None => {
            let _ = child.kill();
            panic!("borrow {args:?} did not finish in 30 s");
        }
    };
    Output {
        status,
        stdout: o.join().unwrap(),
        stderr: e.join().unwrap(),
    }
}

// ---------------------------------------------------------------------------
// What the engine says.

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Score {
    Cp(i32),
    Mate(i32),
}

/// One `info` line with a principal variation.
#[derive(Clone, Debug, Default)]
struct Info {
    depth: Option<u32>,
    multipv: Option<u32>,
    score: Option<Score>,
    bound: bool,
    nodes: Option<u64>,
    pv: Vec<String>,
}

fn parse_info(line: &str) -> Option<Info> {
    let mut words = line.split_ascii_whitespace();
    if words.next() != Some("info") {
        return None;
    }
    let words: Vec<&str> = words.collect();
    if words.first() == Some(&"string") {
        return None;
    }
    let mut info = Info::default();
    let mut i = 0;
    let num = |i: usize| -> &str { words.get(i + 1).copied().unwrap_or("") };
    while i < words.len() {
        match words[i] {
            "depth" => {
                info.depth = Some(num(i).parse().expect("depth"));
                i += 2;
            }
            "multipv" => {
                info.multipv = Some(num(i).parse().expect("multipv"));
                i += 2;
            }
            "nodes" => {
                info.nodes = Some(num(i).parse().expect("nodes"));
                i += 2;
            }
            "score" => {
                let v: i32 = words
                    .get(i + 2)
                    .and_then(|w| w.parse().ok())
                    .unwrap_or_else(|| panic!("bad score in '{line}'"));
                info.score = Some(match words.get(i + 1) {
                    Some(&"cp") => Score::Cp(v),
                    Some(&"mate") => Score::Mate(v),
                    _ => panic!("bad score in '{line}'"),
                });
                i += 3;
            }
            "lowerbound" | "upperbound" => {
                info.bound = true;
                i += 1;
            }
            "pv" => {
                info.pv = words[i + 1..].iter().map(|s| (*s).to_owned()).collect();
                break;
            }
            _ => i += 2, // seldepth, nps, hashfull, time, currmove, ...
        }
    }
    Some(info)
}

/// A search as the engine reported it.
#[derive(Debug)]
struct Search {
    lines: Vec<String>,
    infos: Vec<Info>,
    bestmove: String,
    ponder: Option<String>,
    /// From sending `go` to reading `bestmove`.
    elapsed: Duration,
}

impl Search {
    fn parse(lines: Vec<String>, elapsed: Duration, context: &str) -> Search {
        let last = lines.last().unwrap();
        let words: Vec<&str> = last.split_ascii_whitespace().collect();
        let (bestmove, ponder) = match words[..] {
            ["bestmove", m] => (m.to_owned(), None),
            ["bestmove", m, "ponder", p] => (m.to_owned(), Some(p.to_owned())),
            _ => panic!("malformed '{last}'; transcript:\n{context}"),
        };
        let infos = lines.iter().filter_map(|l| parse_info(l)).collect();
        Search {
            lines,
            infos,
            bestmove,
            ponder,
            elapsed,
        }
    }

    /// The last reported best line (multipv 1).
    fn last_pv(&self) -> Option<&Info> {
        self.infos
            .iter()
            .rev()
            .find(|i| !i.pv.is_empty() && i.multipv.unwrap_or(1) == 1)
    }

    fn last_score(&self) -> Option<Score> {
        self.last_pv().and_then(|i| i.score)
    }

    fn max_depth(&self) -> u32 {
        self.infos.iter().filter_map(|i| i.depth).max().unwrap_or(0)
    }
}

// ---------------------------------------------------------------------------
// The rules, from shakmaty.

fn chess(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes())
        .unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("test FEN {fen}: {e}"))
}

fn play(pos: &Chess, uci: &str) -> Result<Chess, String> {
    let m = UciMove::from_ascii(uci.as_bytes())
        .map_err(|e| format!("'{uci}' is not UCI: {e}"))?
        .to_move(pos)
        .map_err(|e| format!("'{uci}' is illegal in {}: {e}", fen_of(pos)))?;
    Ok(pos.clone().play(m).expect("legal"))
}

fn play_all(fen: &str, moves: &[&str]) -> Chess {
    moves.iter().fold(chess(fen), |p, m| play(&p, m).unwrap())
}

fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Whether two FENs describe the same position (the en-passant square is
/// compared only where a capture is possible).
fn same_position(a: &str, b: &str) -> bool {
    fen_of(&chess(a)) == fen_of(&chess(b))
}

/// Checks everything a search printed against the position it ran in: the
/// best move is legal (or `0000` with no legal move), every PV is a legal
/// line, the ponder move is legal after the best move, and `bestmove` is the
/// first move of the last best line shown.
fn check_search(pos: &Chess, s: &Search) {
    let fail =
        |why: String| -> ! { panic!("{why}\nin {}\nsearch:\n{}", fen_of(pos), s.lines.join("\n")) };
    if pos.legal_moves().is_empty() {
        if s.bestmove != "0000" {
            fail(format!("no legal move, yet bestmove {}", s.bestmove));
        }
        return;
    }
    let after = play(pos, &s.bestmove).unwrap_or_else(|e| fail(format!("bestmove: {e}")));
    if let Some(p) = &s.ponder {
        play(&after, p).unwrap_or_else(|e| fail(format!("ponder move: {e}")));
    }
    for info in &s.infos {
        let mut p = pos.clone();
        for m in &info.pv {
            p = play(&p, m).unwrap_or_else(|e| fail(format!("pv {:?}: {e}", info.pv)));
        }
    }
    match s.last_pv() {
        Some(info) if info.pv[0] == s.bestmove => {}
        Some(info) => fail(format!(
            "bestmove {} is not the first move of the last pv {:?}",
            s.bestmove, info.pv
        )),
        None => fail("no pv before bestmove".into()),
    }
}

/// Whether the side to move can force mate in at most `n` moves.
fn mates_within(pos: &Chess, n: u32) -> bool {
    n > 0
        && pos.legal_moves().into_iter().any(|m| {
            let p = pos.clone().play(m).unwrap();
            p.is_checkmate() || (n > 1 && all_replies_mated(&p, n - 1))
        })
}

/// Whether every reply (there being at least one) allows mate in `n`.
fn all_replies_mated(pos: &Chess, n: u32) -> bool {
    let replies = pos.legal_moves();
    !replies.is_empty()
        && replies
            .into_iter()
            .all(|r| mates_within(&pos.clone().play(r).unwrap(), n))
}

// ---------------------------------------------------------------------------
// The handshake and the options.

#[test]
fn uci_lists_identity_and_every_option_then_uciok() {
    let mut e = Engine::new();
    e.send("uci");
    let lines = e.read_until(LINE_TIMEOUT, "uciok", |l| l == "uciok");
    assert!(lines[0].starts_with("id name Borrow"), "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("id author ") && l.len() > "id author ".len()),
        "{lines:?}"
    );
    let options: Vec<&String> = lines.iter().filter(|l| l.starts_with("option ")).collect();
    assert_eq!(
        lines.len(),
        options.len() + 3,
        "only id, option and uciok lines: {lines:?}"
    );
    let expect = [
        "option name Hash type spin default 16 min 1 max 65536",
        "option name Threads type spin default 1 min 1 max 256",
        "option name MultiPV type spin default 1 min 1 max 256",
        "option name Ponder type check default false",
        "option name Move Overhead type spin default 10 min 0 max 5000",
        "option name Clear Hash type button",
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookDepth type spin default 20 min 1 max 1000",
    ];
    for want in expect {
        assert!(
            options.iter().any(|l| *l == want),
            "missing '{want}' in {options:?}"
        );
    }
    let combo = options
        .iter()
        .find(|l| l.starts_with("option name AttackMethod type combo default "))
        .unwrap_or_else(|| panic!("no AttackMethod combo in {options:?}"));
    let words: Vec<&str> = combo.split_ascii_whitespace().collect();
    assert_eq!(words[6], Method::DEFAULT.name(), "{combo}");
    let vars: Vec<&str> = words
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1])
        .collect();
    let all: Vec<&str> = Method::ALL.iter().map(|m| m.name()).collect();
    assert_eq!(vars, all, "{combo}");
    assert_eq!(
        options.len(),
        expect.len() + 1,
        "unexpected options: {options:?}"
    );

    // Every listed option is accepted under the listed name.
    for (set, what) in [
        ("setoption name Hash value 16", "Hash"),
        ("setoption name Threads value 1", "Threads"),
        ("setoption name MultiPV value 1", "MultiPV"),
        ("setoption name Ponder value false", "Ponder"),
        ("setoption name Move Overhead value 10", "Move Overhead"),
        ("setoption name Clear Hash", "Clear Hash"),
        ("setoption name AttackMethod value magic", "AttackMethod"),
        ("setoption name OwnBook value false", "OwnBook"),
        ("setoption name BookFile value <empty>", "BookFile"),
        ("setoption name BookDepth value 20", "BookDepth"),
    ] {
        let said = e.info_strings_after(set);
        assert!(said.is_empty(), "{what} refused: {said:?}");
    }
    assert!(e.sync().is_empty(), "isready answers just readyok");
    e.quit();
}

#[test]
fn isready_answers_readyok_at_once_and_twice() {
    let mut e = Engine::new();
    assert!(e.sync().is_empty());
    e.send("isready");
    e.send("isready");
    let lines = e.read_until(LINE_TIMEOUT, "first readyok", |l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    e.read_until(LINE_TIMEOUT, "second readyok", |l| l == "readyok");
    e.quit();
}

// ---------------------------------------------------------------------------
// Positions, and legal best moves in them.

#[test]
fn position_forms_give_the_right_position_and_a_legal_bestmove() {
    let kiwipete = format!("position fen {KIWIPETE}");
    let cases: [(&str, &str, &[&str]); 7] = [
        ("position startpos", STARTPOS, &[]),
        ("position startpos moves", STARTPOS, &[]),
        (
            "position startpos moves e2e4 e7e5",
            STARTPOS,
            &["e2e4", "e7e5"],
        ),
        (
            "position startpos moves e2e4 c7c5 g1f3 d7d6 f1b5 c8d7 e1g1",
            STARTPOS,
            &["e2e4", "c7c5", "g1f3", "d7d6", "f1b5", "c8d7", "e1g1"],
        ),
        (&kiwipete, KIWIPETE, &[]),
        (
            "position fen 4k3/8/8/8/8/8/4P3/4K3 w - -",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            &[],
        ),
        (
            "position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7b8q e8d7",
            "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
            &["b7b8q", "e8d7"],
        ),
    ];
    let mut e = Engine::new();
    for (command, fen, moves) in cases {
        let pos = play_all(fen, moves);
        let said = e.info_strings_after(command);
        assert!(said.is_empty(), "'{command}': {said:?}");
        let shown = e.fen();
        assert!(
            same_position(&shown, &fen_of(&pos)),
            "'{command}': engine has {shown}, expected {}",
            fen_of(&pos)
        );
        let s = e.go("go depth 5");
        check_search(&pos, &s);
        assert_eq!(s.max_depth(), 5, "{:?}", s.lines);
    }
    e.quit();
}

#[test]
fn ucinewgame_and_repeated_searches_stay_legal() {
    let mut e = Engine::new();
    let mut moves: Vec<String> = Vec::new();
    // Play a short game against itself: each bestmove must be legal in the
    // position reached by the moves so far.
    for _ in 0..12 {
        let pos = play_all(
            STARTPOS,
            &moves.iter().map(String::as_str).collect::<Vec<_>>(),
        );
        if pos.legal_moves().is_empty() {
            break;
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        let s = e.go("go depth 4");
        check_search(&pos, &s);
        moves.push(s.bestmove);
    }
    e.send("ucinewgame");
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 4"));
    e.quit();
}

// ---------------------------------------------------------------------------
// The parameters of `go`.

#[test]
fn go_with_clocks_stops_by_itself() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go wtime 2000 btime 2000 winc 20 binc 20 movestogo 10");
    check_search(&chess(STARTPOS), &s);
    assert!(s.elapsed < Duration::from_secs(5), "{:?}", s.elapsed);

    // Black to move uses black's clock: 300 ms left means a quick move even
    // though white has plenty.
    e.send("position startpos moves e2e4");
    let s = e.go("go wtime 600000 btime 300 winc 0 binc 0");
    check_search(&play_all(STARTPOS, &["e2e4"]), &s);
    assert!(
        s.elapsed < ACT,
        "black's 300 ms clock ignored: {:?}",
        s.elapsed
    );

    // And white's clock for white.
    e.send("position startpos");
    let s = e.go("go wtime 300 btime 600000");
    check_search(&chess(STARTPOS), &s);
    assert!(
        s.elapsed < ACT,
        "white's 300 ms clock ignored: {:?}",
        s.elapsed
    );
    e.quit();
}

#[test]
fn go_movetime_uses_about_that_time() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go movetime 300");
    check_search(&chess(STARTPOS), &s);
    assert!(
        s.elapsed >= Duration::from_millis(150),
        "stopped early: {:?}",
        s.elapsed
    );
    assert!(s.elapsed < ACT, "{:?}", s.elapsed);
    e.quit();
}

#[test]
fn go_depth_searches_exactly_that_deep() {
    let mut e = Engine::new();
    for depth in [1, 3, 6] {
        e.send("position startpos moves d2d4");
        let s = e.go(&format!("go depth {depth}"));
        check_search(&play_all(STARTPOS, &["d2d4"]), &s);
        assert_eq!(s.max_depth(), depth, "{:?}", s.lines);
    }
    e.quit();
}

#[test]
fn go_nodes_stops_near_the_node_limit() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go nodes 3000");
    check_search(&chess(STARTPOS), &s);
    let most = s.infos.iter().filter_map(|i| i.nodes).max().unwrap();
    // The limit is checked every 1024 nodes (after the first iteration).
    assert!(
        most <= 3000 + 1024,
        "searched {most} nodes for 'nodes 3000'"
    );
    e.quit();
}

const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// 1.Nf6+ gxf6 2.Bxf7#.
const MATE_IN_2: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
/// 1.Kf7 Kh7 2.Rh1#: a quiet first move, then a quiet checking move.
const MATE_IN_2_QUIET: &str = "7k/8/5K2/8/8/8/8/6R1 w - - 0 1";
/// Black mates: 1...Bc5+ 2.Kxc5 Qb6+ 3.Kd5 Qd6#.
const MATE_IN_3: &str = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
const MATE_IN_3_B: &str = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1";
const MATE_IN_3_KRK: &str = "1k6/8/3K4/4R3/8/8/8/8 w - - 0 1";
/// Black to move is mated: 1...Kh7 2.Rh1#.
const MATED_IN_1: &str = "7k/5K2/8/8/8/8/8/6R1 b - - 0 1";
const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
const CHECKMATE: &str = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";

#[test]
fn go_mate_finds_the_mate_and_stops() {
    let mut e = Engine::new();
    e.send(&format!("position fen {MATE_IN_2}"));
    let s = e.go("go mate 2");
    let pos = chess(MATE_IN_2);
    check_search(&pos, &s);
    assert_eq!(s.last_score(), Some(Score::Mate(2)), "{:?}", s.lines);
    assert!(
        all_replies_mated(&play(&pos, &s.bestmove).unwrap(), 1),
        "{} does not mate in 2",
        s.bestmove
    );

    e.send(&format!("position fen {MATE_IN_3}"));
    let s = e.go("go mate 3");
    check_search(&chess(MATE_IN_3), &s);
    assert_eq!(s.last_score(), Some(Score::Mate(3)), "{:?}", s.lines);
    e.quit();
}

#[test]
fn go_infinite_waits_for_stop() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_no(Duration::from_millis(300), "bestmove before stop", |l| {
        l.starts_with("bestmove")
    });
    e.send("stop");
    let s = e.bestmove(ACT);
    check_search(&chess(STARTPOS), &s);

    // Even with a depth limit reached at once, `infinite` waits for `stop`.
    e.send("go depth 2 infinite");
    e.expect_no(Duration::from_millis(300), "bestmove before stop", |l| {
        l.starts_with("bestmove")
    });
    e.send("stop");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn go_ponder_then_ponderhit_plays_on_our_clock() {
    let mut e = Engine::new();
    let moves = ["e2e4", "e7e5", "g1f3"];
    e.send("position startpos moves e2e4 e7e5 g1f3");
    e.send("go ponder wtime 1000 btime 1000 winc 10 binc 10");
    e.expect_no(
        Duration::from_millis(400),
        "bestmove while pondering",
        |l| l.starts_with("bestmove"),
    );
    e.send("ponderhit");
    let s = e.bestmove(ACT);
    check_search(&play_all(STARTPOS, &moves), &s);
    e.quit();
}

#[test]
fn go_ponder_then_stop() {
    let mut e = Engine::new();
    e.send("position startpos moves d2d4 g8f6");
    e.send("go ponder wtime 1000 btime 1000");
    e.expect_no(
        Duration::from_millis(300),
        "bestmove while pondering",
        |l| l.starts_with("bestmove"),
    );
    e.send("stop");
    check_search(&play_all(STARTPOS, &["d2d4", "g8f6"]), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn go_ponder_with_a_depth_limit_still_waits_for_ponderhit() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go ponder depth 2 wtime 1000 btime 1000");
    e.expect_no(
        Duration::from_millis(300),
        "bestmove while pondering",
        |l| l.starts_with("bestmove"),
    );
    e.send("ponderhit");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn go_searchmoves_restricts_the_root() {
    let mut e = Engine::new();
    e.send("position startpos");
    let s = e.go("go depth 5 searchmoves a2a3 h2h3");
    check_search(&chess(STARTPOS), &s);
    assert!(
        ["a2a3", "h2h3"].contains(&s.bestmove.as_str()),
        "{}",
        s.bestmove
    );
    for info in s.infos.iter().filter(|i| !i.pv.is_empty()) {
        assert!(
            ["a2a3", "h2h3"].contains(&info.pv[0].as_str()),
            "{:?}",
            info.pv
        );
    }

    // The mate is not among the allowed moves: the allowed one is played.
    e.send(&format!("position fen {MATE_IN_1}"));
    let s = e.go("go depth 4 searchmoves g1f1");
    check_search(&chess(MATE_IN_1), &s);
    assert_eq!(s.bestmove, "g1f1");

    // Searchmoves after other parameters, and an illegal one left out.
    e.send("position startpos");
    let s = e.go("go depth 3 searchmoves e2e5 b1c3");
    check_search(&chess(STARTPOS), &s);
    assert_eq!(s.bestmove, "b1c3");
    assert!(
        s.lines
            .iter()
            .any(|l| l.starts_with("info string") && l.contains("e2e5")),
        "{:?}",
        s.lines
    );
    e.quit();
}

#[test]
fn bad_or_missing_clocks_still_give_a_legal_move_quickly() {
    let mut e = Engine::new();
    for (moves, go) in [
        ("", "go wtime -100 btime -100"),
        ("", "go wtime 0 btime 0"),
        ("", "go wtime -5000 btime 1000 winc 100 binc 100"),
        ("", "go movetime -5"),
        ("", "go movetime 0"),
        // Our clock missing: only the opponent's, only increments, only movestogo.
        ("", "go btime 60000"),
        ("e2e4", "go wtime 60000"),
        ("", "go winc 1000 binc 1000"),
        ("", "go movestogo 20"),
        ("", "go wtime 1000 btime 1000 movestogo 0"),
    ] {
        let list: Vec<&str> = moves.split_whitespace().collect();
        e.send(&format!("position startpos moves {moves}"));
        e.send(go);
        let s = e.bestmove(ACT);
        check_search(&play_all(STARTPOS, &list), &s);
    }
    e.quit();
}

// ---------------------------------------------------------------------------
// Acting during a search.

#[test]
fn stop_during_infinite_answers_promptly() {
    let mut e = Engine::new();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    let sent = Instant::now();
    e.send("stop");
    let s = e.bestmove(ACT);
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "stop took {:?}",
        sent.elapsed()
    );
    check_search(&chess(KIWIPETE), &s);
    // A second `stop` with no search running says nothing.
    e.send("stop");
    assert!(e.sync().is_empty());
    e.quit();
}

#[test]
fn isready_during_a_search_is_answered_before_bestmove() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.read_until(ACT, "readyok during the search", |l| l == "readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut e = Engine::new();
    e.send(&format!("position fen {KIWIPETE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    e.quit(); // waits at most ACT for the exit
}

#[test]
fn end_of_input_during_a_search_exits_promptly() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.close_stdin();
    e.finish();
}

#[test]
fn a_new_go_or_position_during_a_search_ends_it_first() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    // A GUI that forgets `stop`: the old search answers, then the new one.
    e.send("position startpos moves e2e4");
    check_search(&chess(STARTPOS), &e.bestmove(ACT));
    e.send("go depth 3");
    check_search(&play_all(STARTPOS, &["e2e4"]), &e.bestmove(LINE_TIMEOUT));
    e.quit();
}

// ---------------------------------------------------------------------------
// Mates, stalemate, checkmate.

#[test]
fn mates_in_one_two_and_three_are_found_with_their_distance() {
    let mut e = Engine::new();
    for (fen, n) in [
        (MATE_IN_1, 1),
        (MATE_IN_2, 2),
        (MATE_IN_2_QUIET, 2),
        (MATE_IN_3, 3),
        (MATE_IN_3_B, 3),
        (MATE_IN_3_KRK, 3),
    ] {
        let pos = chess(fen);
        // The test data: mate in exactly n.
        assert!(mates_within(&pos, n) && !mates_within(&pos, n - 1), "{fen}");
        e.send("ucinewgame");
        e.send(&format!("position fen {fen}"));
        let s = e.go("go depth 8");
        check_search(&pos, &s);
        assert_eq!(
            s.last_score(),
            Some(Score::Mate(n as i32)),
            "{fen}:\n{}",
            s.lines.join("\n")
        );
        let after = play(&pos, &s.bestmove).unwrap();
        let mates = if n == 1 {
            after.is_checkmate()
        } else {
            all_replies_mated(&after, n - 1)
        };
        assert!(mates, "{fen}: {} does not mate in {n}", s.bestmove);
    }
    e.quit();
}

#[test]
fn the_side_being_mated_reports_a_negative_mate() {
    let mut e = Engine::new();
    e.send(&format!("position fen {MATED_IN_1}"));
    let s = e.go("go depth 6");
    check_search(&chess(MATED_IN_1), &s);
    assert_eq!(s.bestmove, "h8h7", "the only legal move");
    assert_eq!(s.last_score(), Some(Score::Mate(-1)), "{:?}", s.lines);
    e.quit();
}

#[test]
fn stalemate_and_checkmate_answer_the_null_move() {
    let mut e = Engine::new();
    for fen in [STALEMATE, CHECKMATE] {
        let pos = chess(fen);
        assert!(pos.legal_moves().is_empty(), "{fen}");
        e.send(&format!("position fen {fen}"));
        for go in [
            "go depth 5",
            "go wtime 1000 btime 1000",
            "go movetime 100",
            "go nodes 100",
        ] {
            e.send(go);
            let s = e.bestmove(ACT);
            assert_eq!(s.bestmove, "0000", "{fen} {go}: {:?}", s.lines);
            assert_eq!(s.ponder, None);
        }
        // Infinite and ponder searches still wait for `stop` / `ponderhit`.
        e.send("go infinite");
        e.expect_no(Duration::from_millis(200), "bestmove before stop", |l| {
            l.starts_with("bestmove")
        });
        e.send("stop");
        assert_eq!(e.bestmove(ACT).bestmove, "0000");
        e.send("go ponder wtime 1000 btime 1000");
        e.expect_no(
            Duration::from_millis(200),
            "bestmove while pondering",
            |l| l.starts_with("bestmove"),
        );
        e.send("ponderhit");
        assert_eq!(e.bestmove(ACT).bestmove, "0000");
        assert!(e.sync().is_empty());
    }
    // After a game-over position, the engine plays on normally.
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 3"));
    e.quit();
}

#[test]
fn a_game_with_many_repetitions_and_a_long_move_list() {
    // 25 times round Nf3 Nf6 Ng1 Ng8: 100 half-moves, the 50-move rule and
    // repetitions everywhere; the engine must still answer legally.
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let moves: Vec<&str> = cycle
        .iter()
        .copied()
        .cycle()
        .take(100)
        .chain(["e2e4"])
        .collect();
    let mut e = Engine::new();
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let pos = play_all(STARTPOS, &moves);
    assert!(same_position(&e.fen(), &fen_of(&pos)));
    check_search(&pos, &e.go("go depth 5"));
    e.quit();
}

// ---------------------------------------------------------------------------
// Options in use.

#[test]
fn multipv_3_reports_three_distinct_lines() {
    let mut e = Engine::new();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos");
    let s = e.go("go depth 5");
    for depth in 1..=5 {
        let at: Vec<&Info> = s
            .infos
            .iter()
            .filter(|i| i.depth == Some(depth) && !i.bound && !i.pv.is_empty())
            .collect();
        let ids: Vec<u32> = at.iter().map(|i| i.multipv.unwrap()).collect();
        assert_eq!(ids, [1, 2, 3], "depth {depth}: {:?}", s.lines);
        let mut firsts: Vec<&str> = at.iter().map(|i| i.pv[0].as_str()).collect();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(
            firsts.len(),
            3,
            "depth {depth}: first moves not distinct: {:?}",
            s.lines
        );
    }
    check_search(&chess(STARTPOS), &s);

    // Fewer legal moves than lines: only as many lines as moves.
    let two_moves = "k7/8/8/8/8/8/r7/1K6 w - - 0 1"; // Kxa2 and Kc1
    let pos = chess(two_moves);
    let n = pos.legal_moves().len();
    assert_eq!(n, 2);
    e.send(&format!("position fen {two_moves}"));
    let s = e.go("go depth 3");
    check_search(&pos, &s);
    let most = s.infos.iter().filter_map(|i| i.multipv).max().unwrap();
    assert_eq!(most as usize, n, "{:?}", s.lines);

    // Lines come best first at every depth, even where the search of a later
    // line finds more than an earlier one did (KRK: mates among plain scores).
    let krk = "8/8/8/R7/3K4/8/8/3k4 w - - 0 1";
    e.send("setoption name MultiPV value 4");
    e.send(&format!("position fen {krk}"));
    let s = e.go("go depth 7");
    check_search(&chess(krk), &s);
    let value = |sc: &Score| match *sc {
        Score::Mate(m) if m > 0 => 100_000 - m,
        Score::Mate(m) => -100_000 - m,
        Score::Cp(cp) => cp,
    };
    for depth in 1..=7 {
        let scores: Vec<i32> = s
            .infos
            .iter()
            .filter(|i| i.depth == Some(depth) && !i.bound && !i.pv.is_empty())
            .filter_map(|i| i.score.as_ref().map(value))
            .collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "depth {depth}: {scores:?}\n{:?}",
            s.lines
        );
    }
    e.quit();
}

#[test]
fn threads_2_returns_legal_moves() {
    let mut e = Engine::new();
    e.send("setoption name Threads value 2");
    e.send(&format!("position fen {KIWIPETE}"));
    check_search(&chess(KIWIPETE), &e.go("go depth 6"));
    e.send("position startpos moves e2e4");
    let s = e.go("go movetime 200");
    check_search(&play_all(STARTPOS, &["e2e4"]), &s);
    e.send(&format!("position fen {MATE_IN_2}"));
    let s = e.go("go depth 6");
    check_search(&chess(MATE_IN_2), &s);
    assert_eq!(s.last_score(), Some(Score::Mate(2)));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("stop");
    check_search(&chess(MATE_IN_2), &e.bestmove(ACT));
    e.quit();
}

#[test]
fn hash_resize_and_clear_hash_then_search() {
    let mut e = Engine::new();
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    assert!(
        e.info_strings_after("setoption name Hash value 64")
            .is_empty()
    );
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    assert!(e.info_strings_after("setoption name Clear Hash").is_empty());
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    assert!(
        e.info_strings_after("setoption name Hash value 1")
            .is_empty()
    );
    check_search(&chess(STARTPOS), &e.go("go depth 5"));
    e.quit();
}

/// The engine's peak resident memory so far, in MiB (`VmHWM`).
#[cfg(target_os = "linux")]
fn peak_mib(e: &Engine) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", e.child.id()))
        .expect("the engine is running");
    let line = status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .expect("VmHWM");
    let kib: f64 = line
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("VmHWM: <n> kB");
    kib / 1024.0
}

/// Memory follows `Hash`: the default table is never made when `Hash` is set
/// before the first `isready`, and a resize frees the old table before it
/// makes the new one (a match runner measuring the engine sees only the
/// table it asked for).
#[cfg(target_os = "linux")]
#[test]
fn memory_is_the_hash_asked_for_plus_a_little() {
    let mut e = Engine::new();
    e.send("uci");
    e.read_until(LINE_TIMEOUT, "uciok", |l| l == "uciok");
    // `info_strings_after` ends with `isready`: the table is made there.
    assert!(
        e.info_strings_after("setoption name Hash value 1")
            .is_empty()
    );
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 6"));
    let small = peak_mib(&e);
    assert!(small < 12.0, "Hash 1: peak {small:.1} MiB");
    for mb in [64.0, 128.0] {
        let set = format!("setoption name Hash value {mb}");
        assert!(e.info_strings_after(&set).is_empty());
        check_search(&chess(STARTPOS), &e.go("go depth 6"));
        let peak = peak_mib(&e);
        assert!(
            peak >= mb && peak < mb + 12.0,
            "Hash {mb}: peak {peak:.1} MiB"
        );
    }
    e.quit();
}

/// A `Hash` the machine cannot give is refused with a message, not an abort.
/// The address space is limited so that the test never allocates much.
#[cfg(target_os = "linux")]
#[test]
fn hash_larger_than_memory_is_refused_not_fatal() {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", "ulimit -v 2000000 && exec \"$0\"", BIN]);
    let mut e = Engine::spawn(cmd);
    let said = e.info_strings_after("setoption name Hash value 8192");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(said[0].contains("Hash"), "{said:?}");
    e.send("position startpos");
    check_search(&chess(STARTPOS), &e.go("go depth 4"));
    e.quit();
}

#[test]
fn every_attack_method_searches_identically() {
    let mut e = Engine::new();
    let mut seen: Vec<(Method, String, u64)> = Vec::new();
    for &m in Method::ALL {
        let said = e.info_strings_after(&format!("setoption name AttackMethod value {}", m.name()));
        assert!(said.is_empty(), "{m}: {said:?}");
        e.send("ucinewgame");
        e.send("position startpos");
        let s = e.go("go depth 6");
        check_search(&chess(STARTPOS), &s);
        let nodes = s.last_pv().unwrap().nodes.unwrap();
        seen.push((m, s.bestmove, nodes));
    }
    let (_, best, nodes) = &seen[0];
    for (m, b, n) in &seen {
        assert_eq!((b, n), (best, nodes), "{m} differs: {seen:?}");
    }
    // Aliases and any case are accepted too; a bad name is refused.
    assert!(
        e.info_strings_after("setoption name AttackMethod value HQ")
            .is_empty()
    );
    let said = e.info_strings_after("setoption name AttackMethod value nonsense");
    assert_eq!(said.len(), 1);
    assert!(
        said[0].contains("nonsense") && said[0].contains(Method::DEFAULT.name()),
        "{said:?}"
    );
    e.quit();
}

// ---------------------------------------------------------------------------
// Abuse.

#[test]
fn garbage_is_answered_with_info_string_and_the_engine_keeps_serving() {
    let mut e = Engine::new();
    e.send("position startpos moves e2e4");
    let pos = play_all(STARTPOS, &["e2e4"]);
    for line in [
        "xyzzy",
        "hello world",
        "readyok",
        "bestmove e2e4",
        "position",
        "position fen",
        "position sideways",
        "position startpos e2e4",
        "setoption",
        "setoption name",
        "setoption Hash 32",
        "setoption name NoSuchOption value 3",
        "setoption name Hash value abc",
        "setoption name Hash value 0",
        "setoption name Hash value -1",
        "setoption name Hash",
        "setoption name Threads value 0",
        "setoption name Threads value 100000",
        "setoption name MultiPV value 0",
        "setoption name MultiPV value 257",
        "setoption name Ponder value maybe",
        "setoption name Move Overhead value -5",
        "setoption name AttackMethod value",
        "setoption name AttackMethod value pext2",
        "perft",
        "perft x",
        "perft 99",
    ] {
        let said = e.info_strings_after(line);
        assert_eq!(
            said.len(),
            1,
            "'{line}' should give one info string: {said:?}"
        );
        assert!(
            said[0].len() > "info string ".len() + 5,
            "'{line}': {said:?}"
        );
    }
    // Harmless lines are silently accepted.
    for line in [
        "",
        "   ",
        "\t",
        "debug on",
        "debug off",
        "stop",
        "ponderhit",
    ] {
        let said = e.info_strings_after(line);
        assert!(said.is_empty(), "'{line}': {said:?}");
    }
    assert!(
        same_position(&e.fen(), &fen_of(&pos)),
        "garbage changed the position"
    );
    check_search(&pos, &e.go("go depth 4"));
    e.quit();
}

/// Issue 17, row 1. UCI: skip what cannot be read, search with the rest,
/// always answer `bestmove` (a GUI would wait for it until its clock ran
/// out). One rule for every numeric parameter: not a whole number, skipped;
/// out of range (`depth -1`, `wtime -100`), clamped; each said in an
/// `info string`.
#[test]
fn go_with_unreadable_parameters_still_searches_and_answers() {
    let mut e = Engine::new();
    e.send("position startpos");
    for (go, named) in [
        ("go wtime 1000 btime 1000 garbage", "garbage"),
        ("go depth -1", "depth -1"),
        ("go movestogo 1.5 wtime 1000 btime 1000", "1.5"),
        ("go wtime 1000.5 btime 1000", "1000.5"),
        ("go wtime -100 btime -100", "wtime -100"),
        ("go depth 3 frobnicate", "frobnicate"),
        ("go depth", "depth"),
        ("go depth x", "depth x"),
        ("go wtime 1e9 btime 1e9", "1e9"),
        ("go nodes 99999999999999999999999 depth 2", "nodes"),
    ] {
        e.send(go);
        let s = e.bestmove(LINE_TIMEOUT);
        check_search(&chess(STARTPOS), &s);
        let said: Vec<&String> = s
            .lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert!(
            said.iter().any(|l| l.contains(named)),
            "'{go}': no info string naming '{named}': {said:?}"
        );
    }
    // What was read is used: `go depth 3 frobnicate` searched to depth 3.
    e.send("go depth 3 frobnicate");
    let s = e.bestmove(LINE_TIMEOUT);
    let depths: Vec<u32> = s.infos.iter().filter_map(|i| i.depth).collect();
    assert_eq!(depths.iter().max(), Some(&3), "{:?}", s.lines);
    e.quit();
}

/// Issue 17, row 3: `perft` runs like a search, so the input loop stays
/// free: `isready` is answered at once, `stop` ends it, `quit` exits.
#[test]
fn perft_at_the_terminal_is_interruptible() {
    let mut e = Engine::new();
    e.send("position startpos");
    e.send("perft 3");
    e.read_until(LINE_TIMEOUT, "the perft 3 count", |l| l == "perft 3 8902");
    // Depth 9 takes hours.
    e.send("perft 9");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.read_until(ACT, "readyok during perft", |l| l == "readyok");
    assert!(!lines.iter().any(|l| l.starts_with("perft")), "{lines:?}");
    e.send("stop");
    e.read_until(ACT, "perft stopped", |l| {
        l.starts_with("info string") && l.contains("perft 9 stopped")
    });
    // `quit` during a perft exits promptly (`finish` waits at most ACT).
    e.send("perft 9");
    std::thread::sleep(Duration::from_millis(100));
    e.quit();
}

/// Issue 17, row 8: UCI takes UCI notation only; a SAN move is refused
/// with a message that says so.
#[test]
fn san_in_a_position_command_asks_for_uci_notation() {
    let mut e = Engine::new();
    let said = e.info_strings_after("position startpos moves e4 e5");
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("'e4'") && said[0].contains("UCI notation expected"),
        "{said:?}"
    );
    assert!(!said[0].contains("SAN"), "{said:?}");
    assert!(same_position(&e.fen(), STARTPOS));
    e.quit();
}

/// Issue 17, row 15: `setoption name Hash` does not block the input loop;
/// `quit` right after a large one acts at once. (The table is made at the
/// next `isready`, `ucinewgame` or `go`; here none comes.)
#[test]
fn quit_right_after_a_large_hash_acts_at_once() {
    let mut e = Engine::new();
    e.send("setoption name Hash value 8192");
    let sent = Instant::now();
    e.send("quit");
    let status = wait_with_timeout(&mut e.child, Duration::from_secs(2));
    assert!(
        status.is_some_and(|s| s.success()),
        "no clean exit {:?} after quit: {status:?}",
        sent.elapsed()
    );
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
}

/// Issue 17, row 16: `register` is a UCI command; nothing to register.
#[test]
fn register_is_accepted_silently() {
    let mut e = Engine::new();
    for line in ["register later", "register name Someone code 1234"] {
        let said = e.info_strings_after(line);
        assert!(said.is_empty(), "'{line}': {said:?}");
    }
    e.quit();
}

/// Issue 17: a huge garbage line is quoted short in the `info string`.
#[test]
fn a_huge_garbage_line_is_quoted_short() {
    let mut e = Engine::new();
    let line = "y".repeat(100_000);
    let said = e.info_strings_after(&line);
    assert_eq!(said.len(), 1, "{} lines", said.len());
    assert!(said[0].len() < 300, "{} bytes echoed", said[0].len());
    assert!(said[0].contains("yyyy…"), "{}", &said[0][..100]);
    e.quit();
}

/// Issue 17: `d` shows the board, side to move, castling rights, en
/// passant square and checkers, as well as the FEN and key.
#[test]
fn d_shows_the_board() {
    let mut e = Engine::new();
    // Black to move, in check from the bishop on b5.
    e.send("position startpos moves e2e4 d7d5 f1b5");
    e.send("d");
    let lines = e.sync();
    let ranks: Vec<&String> = lines.iter().filter(|l| l.starts_with(" |")).collect();
    assert_eq!(ranks.len(), 8, "{lines:?}");
    assert_eq!(
        ranks[0].as_str(),
        " | r | n | b | q | k | b | n | r | 8",
        "{lines:?}"
    );
    assert_eq!(
        ranks[7].as_str(),
        " | R | N | B | Q | K |   | N | R | 1",
        "{lines:?}"
    );
    assert!(
        ranks[3].contains(" B |") && ranks[3].contains(" p |"),
        "{lines:?}"
    );
    for want in [
        "side to move: black",
        "castling: KQkq",
        "en passant: -",
        "checkers: b5",
    ] {
        assert!(lines.iter().any(|l| l == want), "no '{want}': {lines:?}");
    }
    assert!(lines.iter().any(|l| l.starts_with("fen ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("key ")), "{lines:?}");
    // An en passant capture is possible: e5xd6.
    e.send("position startpos moves e2e4 a7a6 e4e5 d7d5");
    e.send("d");
    let lines = e.sync();
    for want in ["side to move: white", "en passant: d6", "checkers: -"] {
        assert!(lines.iter().any(|l| l == want), "no '{want}': {lines:?}");
    }
    e.quit();
}

#[test]
fn binary_junk_and_odd_line_endings_do_not_break_the_engine() {
    let mut e = Engine::new();
    let junk: Vec<u8> = (0u8..=255).filter(|&b| b != b'\n').collect();
    e.send_bytes(&junk);
    e.send_bytes(b"\n");
    e.send_bytes(b"\x00\x01\x02\x1b[31m\xff\xfe\xc3\x28\n");
    e.send_bytes("\u{feff}\u{202e}gö ü\n".as_bytes());
    e.send_bytes(&[b'x'; 100_000]);
    e.send_bytes(b"\n");
    e.send_bytes(b"isready\r\n");
    e.read_until(LINE_TIMEOUT, "readyok after CRLF", |l| l == "readyok");
    e.send_bytes(b"position startpos moves e2e4 e7e5\r\n");
    e.send_bytes(b"go depth 3\r\n");
    let s = e.bestmove(LINE_TIMEOUT);
    check_search(&play_all(STARTPOS, &["e2e4", "e7e5"]), &s);
    e.quit(); // also checks the output has no control characters
}

#[test]
fn bad_fens_are_refused_and_the_position_kept() {
    let mut e = Engine::new();
    e.send("position startpos moves d2d4 d7d5");
    let pos = play_all(STARTPOS, &["d2d4", "d7d5"]);
    for fen in [
        "garbage",
        "8/8/8/8/8/8/8/8 w - - 0 1",                      // no kings
        "8/8/8/8/8/8/8/K6K w - - 0 1",                    // two white kings
        "k7/8/8/8/8/8/8/K6R b - - 0 1 extra",             // seven fields
        "k7/8/8/8/8/8/8/K7 w - -  5",                     // five fields
        "k7/9/8/8/8/8/8/K7 w - - 0 1",                    // bad digit
        "k7/8/8/8/8/8/8/K7/8 w - - 0 1",                  // nine ranks
        "k7/8/8/8/8/8/8/K6 w - - 0 1",                    // short rank
        "k7/8/8/8/8/8/8/K7 x - - 0 1",                    // side to move
        "kP6/8/8/8/8/8/8/K7 w - - 0 1",                   // pawn on rank 8
        "k7/8/8/8/8/8/8/K7 w KQkq - 0 1",                 // castling rights
        "k7/8/8/8/8/8/8/K7 w - e6 0 1",                   // en passant
        "k7/8/8/8/8/8/8/K7 w - z9 0 1",                   // en passant square
        "k6R/8/8/8/8/8/8/K7 w - - 0 1",                   // side not to move in check
        "k7/8/8/8/8/8/8/K7 w - - -1 1",                   // half-move clock
        "k7/8/8/8/8/8/8/K7 w - - 0 x",                    // move number
        "k7/8/8/8/8/8/8/K7 w - - 99999999999999999999 1", // overflow
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", // piece letter
    ] {
        let said = e.info_strings_after(&format!("position fen {fen}"));
        assert_eq!(said.len(), 1, "'{fen}': {said:?}");
        let shown = e.fen();
        assert!(
            same_position(&shown, &fen_of(&pos)),
            "'{fen}' changed the position to {shown}"
        );
        assert!(e.sync().is_empty());
    }
    check_search(&pos, &e.go("go depth 3"));
    e.quit();
}

#[test]
fn an_illegal_move_in_the_list_stops_the_list_there() {
    let mut e = Engine::new();
    for (line, bad, played) in [
        (
            "position startpos moves e2e4 e7e5 e1e3 g1f3",
            "e1e3",
            &["e2e4", "e7e5"][..],
        ),
        ("position startpos moves e2e4 e2e4", "e2e4", &["e2e4"][..]),
        ("position startpos moves e7e5", "e7e5", &[][..]),
        (
            "position startpos moves g1f3 zz9 b8c6",
            "zz9",
            &["g1f3"][..],
        ),
        (
            "position startpos moves e2e4 e7e5 e1g1",
            "e1g1",
            &["e2e4", "e7e5"][..],
        ),
        (
            "position startpos moves e2e4 d7d5 e4d5 e7e5 d5e6 e8e7 e6f7 e7e6 f7g8",
            "f7g8",
            &[
                "e2e4", "d7d5", "e4d5", "e7e5", "d5e6", "e8e7", "e6f7", "e7e6",
            ][..],
        ),
        (
            &format!("position fen {KIWIPETE} moves e1g1 a8a1"),
            "a8a1",
            &["e1g1"][..],
        ),
    ] {
        let said = e.info_strings_after(line);
        assert_eq!(said.len(), 1, "'{line}': {said:?}");
        assert!(
            said[0].contains(bad),
            "'{line}': the message should name '{bad}': {said:?}"
        );
        let start = if line.contains(KIWIPETE) {
            KIWIPETE
        } else {
            STARTPOS
        };
        let pos = play_all(start, played);
        let shown = e.fen();
        assert!(
            same_position(&shown, &fen_of(&pos)),
            "'{line}': engine has {shown}, expected {}",
            fen_of(&pos)
        );
        check_search(&pos, &e.go("go depth 3"));
    }
    e.quit();
}

#[test]
fn stray_ponderhit_does_not_stretch_a_timed_search() {
    let mut e = Engine::new();
    e.send("position startpos");
    // About 60 ms soft and 300 ms hard from this clock.
    e.send("go wtime 3000 btime 3000");
    // A confused GUI repeating `ponderhit` every 20 ms (less than either
    // limit) must not keep restarting the clock.
    let start = Instant::now();
    'search: loop {
        e.send("ponderhit");
        let tick = Instant::now() + Duration::from_millis(20);
        while let Some(line) = e.try_recv(tick.saturating_duration_since(Instant::now())) {
            if line.starts_with("bestmove") {
                break 'search;
            }
        }
        assert!(
            start.elapsed() < ACT,
            "no bestmove: ponderhit restarted the clock"
        );
    }
    check_search(&chess(STARTPOS), &e.bestmove_from_lines());
    assert!(e.sync().is_empty());
    e.quit();
}

// ---------------------------------------------------------------------------
// `borrow bench` and the command line.

fn bench_nodes(stdout: &[u8]) -> u64 {
    let text = String::from_utf8_lossy(stdout);
    let last = text.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split(' ').collect();
    match words[..] {
        [n, "nodes", nps, "nps"] if nps.parse::<u64>().is_ok() => n
            .parse()
            .unwrap_or_else(|_| panic!("bad node count in '{last}'")),
        _ => panic!("last line '{last}' is not '<nodes> nodes <nps> nps'"),
    }
}

#[test]
fn bench_prints_nodes_and_nps_and_exits_0() {
    let out = run(&["bench", "--depth", "5"]);
    assert!(out.status.success(), "{out:?}");
    assert!(bench_nodes(&out.stdout) > 0);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
}

#[test]
fn bench_node_count_is_the_same_for_every_attack_method() {
    let mut counts = Vec::new();
    for &m in Method::ALL {
        let out = run(&["bench", "--depth", "5", "--method", m.name()]);
        assert!(out.status.success(), "{m}: {out:?}");
        counts.push((m, bench_nodes(&out.stdout)));
    }
    let first = counts[0].1;
    assert!(
        counts.iter().all(|&(_, n)| n == first),
        "node counts differ: {counts:?}"
    );

    // `--method all` prints one row per method, all with that count.
    let out = run(&["bench", "--depth", "5", "--method", "all"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(bench_nodes(&out.stdout), first);
    let text = String::from_utf8_lossy(&out.stdout);
    for &m in Method::ALL {
        let row = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(m.name()))
            .unwrap_or_else(|| panic!("no row for {m}:\n{text}"));
        let n: u64 = row.split_whitespace().nth(1).unwrap().parse().unwrap();
        assert_eq!(n, first, "{row}");
    }
}

#[test]
fn bench_into_a_closed_pipe_does_not_panic() {
    // `borrow bench | head -1`: the reader goes away at once.
    let mut child = Command::new(BIN)
        .args(["bench", "--depth", "5", "--method", "all"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start borrow");
    drop(child.stdout.take());
    let mut err = child.stderr.take().unwrap();
    let status = wait_with_timeout(&mut child, Duration::from_secs(30)).expect("bench ends");
    let mut stderr = String::new();
    let _ = err.read_to_string(&mut stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    // Issue 17, row 14: a closed pipe is a quiet success, as for any tool
    // whose reader has what it wanted.
    assert_eq!(status.code(), Some(0), "{status}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
}

/// `borrow bench | head -1`: the reader takes a line and goes away.
#[test]
fn bench_into_head_1_is_a_quiet_success() {
    let mut child = Command::new(BIN)
        .args(["bench", "4"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start borrow");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let mut err = child.stderr.take().unwrap();
    let status = wait_with_timeout(&mut child, Duration::from_secs(30)).expect("bench ends");
    let mut stderr = String::new();
    let _ = err.read_to_string(&mut stderr);
    assert_eq!(status.code(), Some(0), "{status}: {stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    // The first line says what runs.
    assert!(
        first.contains(&format!("method {}", Method::DEFAULT)) && first.contains("depth 4"),
        "{first}"
    );
}

/// Issue 17, row 5: the bare depth (`borrow bench 13`, as OpenBench runs
/// it) has the check of `--depth`: 1 to 64.
#[test]
fn bench_depth_is_checked_however_it_is_given() {
    for args in [
        &["bench", "0"][..],
        &["bench", "500"],
        &["bench", "-3"],
        &["bench", "--depth", "500"],
        &["bench", "--depth=0"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("1 to 64"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing benched");
    }
    // Both spellings, and `--opt=value`, run the same search.
    let a = run(&["bench", "3"]);
    let b = run(&[
        "bench",
        "--depth=3",
        &format!("--method={}", Method::DEFAULT),
    ]);
    assert!(a.status.success() && b.status.success(), "{a:?} {b:?}");
    assert_eq!(bench_nodes(&a.stdout), bench_nodes(&b.stdout));
}

/// Issue 17, across the tools: `--version`, `bench --help`, exit codes in
/// the help, unknown methods listed with their aliases.
#[test]
fn version_help_and_method_names() {
    let out = run(&["--version"]);
    assert!(out.status.success(), "{out:?}");
    let v = String::from_utf8_lossy(&out.stdout);
    assert!(
        v.starts_with("Borrow ") && v.contains(env!("CARGO_PKG_VERSION")),
        "{v}"
    );

    let out = run(&["bench", "--help"]);
    assert!(out.status.success(), "{out:?}");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("--depth D"), "{help}");
    assert!(help.contains("Exit status: 0"), "{help}");
    assert!(help.contains("13"), "the default depth: {help}");

    let out = run(&["bench", "--method", "nonsense"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for m in Method::ALL {
        assert!(err.contains(m.name()), "{m}: {err}");
        for a in m.aliases() {
            assert!(err.contains(a), "{m} alias {a}: {err}");
        }
    }
}

#[test]
fn bench_with_a_bad_method_or_argument_exits_2_with_a_message() {
    let out = run(&["bench", "--depth", "5", "--method", "nonsense"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nonsense") && err.contains(Method::DEFAULT.name()),
        "{err}"
    );
    assert!(out.stdout.is_empty(), "nothing benched");

    for args in [
        &["bench", "--method"][..],
        &["bench", "--depth", "0"],
        &["bench", "--depth", "x"],
        &["bench", "--frobnicate"],
        &["frobnicate"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: no message");
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("panicked"),
            "{args:?}"
        );
    }
    let out = run(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("bench"));
}
