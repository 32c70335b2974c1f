#![allow(dead_code, unused_imports)]
//! What the UCI test files share: the real `borrow` binary run as a child
//! process, and shakmaty to check its moves. Every read has a timeout, so an engine that hangs fails the test
//! instead of blocking CI. Moves and positions are checked with `shakmaty`,
//! which shares no code with the engine.
//!
//! Timing bounds are generous on purpose (seconds where the engine needs
//! milliseconds): the tests check that the engine acts, not how fast.

pub use std::io::{BufRead, BufReader, Read, Write};
pub use std::process::{Child, ChildStdin, Command, ExitStatus, Output, Stdio};
pub use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
pub use std::thread::JoinHandle;
pub use std::time::{Duration, Instant};

pub use attacks::Method;
pub use shakmaty::fen::Fen;
pub use shakmaty::uci::UciMove;
pub use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

pub const BIN: &str = env!("CARGO_BIN_EXE_borrow");

/// How long any single expected line may take (searches here are tiny).
pub const LINE_TIMEOUT: Duration = Duration::from_secs(20);
/// How long the engine may take to act on `stop`, `quit`, `ponderhit`, or a
/// nearly empty clock. It needs milliseconds; this only catches hangs.
pub const ACT: Duration = Duration::from_secs(3);

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
pub const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// ---------------------------------------------------------------------------
// The engine as a child process.

/// A running engine: lines go to its stdin; its stdout lines arrive through a
/// reader thread and a channel, so every read can time out.
pub struct Engine {
    pub child: Child,
    pub stdin: Option<ChildStdin>,
    pub lines: Receiver<String>,
    pub stderr: Option<JoinHandle<String>>,
    /// The lines since the last `go`, and when it was sent.
    pub search_lines: Vec<String>,
    pub go_sent: Instant,
    /// Whether the engine closed its output (exited).
    pub closed: bool,
    /// Everything said so far, both ways, for failure messages.
    pub transcript: Vec<String>,
    /// Every line the engine printed.
    pub output: Vec<String>,
}

impl Engine {
    pub fn new() -> Engine {
        Engine::spawn(Command::new(BIN))
    }

    pub fn spawn(mut cmd: Command) -> Engine {
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

    pub fn send(&mut self, line: &str) {
        if line.starts_with("go") {
            self.search_lines.clear();
            self.go_sent = Instant::now();
        }
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.log('>', String::from_utf8_lossy(bytes).trim_end());
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    /// Closes the engine's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.transcript.push("> <end of input>".into());
        self.stdin = None;
    }

    /// Adds a (possibly shortened) line to the transcript.
    pub fn log(&mut self, dir: char, line: &str) {
        let short: String = line.chars().take(300).collect();
        let more = if short.len() < line.len() {
            " [...]"
        } else {
            ""
        };
        self.transcript.push(format!("{dir} {short}{more}"));
    }

    pub fn context(&self) -> String {
        let start = self.transcript.len().saturating_sub(60);
        self.transcript[start..].join("\n")
    }

    /// The next line, or `None` if none comes within `timeout`.
    pub fn try_recv(&mut self, timeout: Duration) -> Option<String> {
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
    pub fn read_until(
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
    pub fn expect_no(
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
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(LINE_TIMEOUT, "readyok", |l| l == "readyok");
        lines.pop();
        lines
    }

    /// The `info string` lines the engine printed in answer to `line`.
    pub fn info_strings_after(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
            .into_iter()
            .filter(|l| l.starts_with("info string"))
            .collect()
    }

    /// The engine's position, from the `d` command.
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.sync();
        let fen = lines.iter().find_map(|l| l.strip_prefix("fen "));
        fen.unwrap_or_else(|| panic!("no 'fen' line from 'd': {lines:?}"))
            .to_owned()
    }

    /// Sends a `go` command and collects the search up to `bestmove`.
    pub fn go(&mut self, go: &str) -> Search {
        self.send(go);
        self.bestmove(LINE_TIMEOUT)
    }

    /// Reads the rest of a search, up to `bestmove`, within `timeout`; the
    /// search is everything since the last `go`.
    pub fn bestmove(&mut self, timeout: Duration) -> Search {
        self.read_until(timeout, "bestmove", |l| l.starts_with("bestmove"));
        self.bestmove_from_lines()
    }

    /// The search since the last `go`, whose `bestmove` has been read.
    pub fn bestmove_from_lines(&mut self) -> Search {
        let elapsed = self.go_sent.elapsed();
        let lines = std::mem::take(&mut self.search_lines);
        Search::parse(lines, elapsed, &self.context())
    }

    /// Sends `quit` and waits for a prompt, clean exit with nothing alarming
    /// on stderr. Also checks that every output line is clean text.
    pub fn quit(mut self) {
        self.send("quit");
        self.finish();
    }

    /// Waits for the process to end by itself, then runs the common checks.
    pub fn finish(mut self) {
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

pub fn wait_with_timeout(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
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
pub fn run(args: &[&str]) -> Output {
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
pub enum Score {
    Cp(i32),
    Mate(i32),
}

/// One `info` line with a principal variation.
#[derive(Clone, Debug, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub bound: bool,
    pub nodes: Option<u64>,
    pub pv: Vec<String>,
}

pub fn parse_info(line: &str) -> Option<Info> {
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
pub struct Search {
    pub lines: Vec<String>,
    pub infos: Vec<Info>,
    pub bestmove: String,
    pub ponder: Option<String>,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

impl Search {
    pub fn parse(lines: Vec<String>, elapsed: Duration, context: &str) -> Search {
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
    pub fn last_pv(&self) -> Option<&Info> {
        self.infos
            .iter()
            .rev()
            .find(|i| !i.pv.is_empty() && i.multipv.unwrap_or(1) == 1)
    }

    pub fn last_score(&self) -> Option<Score> {
        self.last_pv().and_then(|i| i.score)
    }

    pub fn max_depth(&self) -> u32 {
        self.infos.iter().filter_map(|i| i.depth).max().unwrap_or(0)
    }
}

// ---------------------------------------------------------------------------
// The rules, from shakmaty.

/// shakmaty's position of `fen`, in Chess960 mode where its castling rights
/// need it (then UCI castling is the king taking its rook).
pub fn chess(text: &str) -> Chess {
    let fen = Fen::from_ascii(text.as_bytes()).unwrap_or_else(|e| panic!("test FEN {text}: {e}"));
    let mode = CastlingMode::detect(fen.as_setup());
    fen.into_position(mode)
        .unwrap_or_else(|e| panic!("test FEN {text}: {e}"))
}

pub fn play(pos: &Chess, uci: &str) -> Result<Chess, String> {
    let m = UciMove::from_ascii(uci.as_bytes())
        .map_err(|e| format!("'{uci}' is not UCI: {e}"))?
        .to_move(pos)
        .map_err(|e| format!("'{uci}' is illegal in {}: {e}", fen_of(pos)))?;
    Ok(pos.clone().play(m).expect("legal"))
}

pub fn play_all(fen: &str, moves: &[&str]) -> Chess {
    moves.iter().fold(chess(fen), |p, m| play(&p, m).unwrap())
}

pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Whether two FENs describe the same position (the en-passant square is
/// compared only where a capture is possible).
pub fn same_position(a: &str, b: &str) -> bool {
    fen_of(&chess(a)) == fen_of(&chess(b))
}

/// Checks everything a search printed against the position it ran in: the
/// best move is legal (or `0000` with no legal move), every PV is a legal
/// line, the ponder move is legal after the best move, and `bestmove` is the
/// first move of the last best line shown.
pub fn check_search(pos: &Chess, s: &Search) {
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
pub fn mates_within(pos: &Chess, n: u32) -> bool {
    n > 0
        && pos.legal_moves().into_iter().any(|m| {
            let p = pos.clone().play(m).unwrap();
            p.is_checkmate() || (n > 1 && all_replies_mated(&p, n - 1))
        })
}

/// Whether every reply (there being at least one) allows mate in `n`.
pub fn all_replies_mated(pos: &Chess, n: u32) -> bool {
    let replies = pos.legal_moves();
    !replies.is_empty()
        && replies
            .into_iter()
            .all(|r| mates_within(&pos.clone().play(r).unwrap(), n))
}

// ---------------------------------------------------------------------------
// Positions with known mates.

pub const MATE_IN_1: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
/// 1.Nf6+ gxf6 2.Bxf7#.
pub const MATE_IN_2: &str = "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1";
/// 1.Kf7 Kh7 2.Rh1#: a quiet first move, then a quiet checking move.
pub const MATE_IN_2_QUIET: &str = "7k/8/5K2/8/8/8/8/6R1 w - - 0 1";
/// Black mates: 1...Bc5+ 2.Kxc5 Qb6+ 3.Kd5 Qd6#.
pub const MATE_IN_3: &str = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
pub const MATE_IN_3_B: &str = "2r3k1/p4p2/3Rp2p/1p2P1pK/8/1P4P1/P3Q2P/1q6 b - - 0 1";
pub const MATE_IN_3_KRK: &str = "1k6/8/3K4/4R3/8/8/8/8 w - - 0 1";
/// Black to move is mated: 1...Kh7 2.Rh1#.
pub const MATED_IN_1: &str = "7k/5K2/8/8/8/8/8/6R1 b - - 0 1";
pub const STALEMATE: &str = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
pub const CHECKMATE: &str = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1";
