//! A concurrency stress test of the real `borrow` binary: several engines at
//! once, each driven by its own thread with random (seeded) bursts of `stop`,
//! `isready`, `ucinewgame`, `setoption name Hash|Threads`, `position`, `go`
//! (depth, nodes, movetime, clocks, `infinite`, `ponder` with or without
//! `ponderhit`), and `quit` (after which a new engine takes over), with
//! random short sleeps between commands, so commands land while searches
//! start, run and end.
//!
//! Checked throughout: the engine never hangs (every wait has a timeout),
//! never crashes or panics (it exits only on `quit`, with success and a
//! clean stderr), every `isready` gets its `readyok`, every `go` gets
//! exactly one `bestmove`, and that move (and its `ponder` move) is legal in
//! the position the `go` searched (checked with shakmaty), or `0000` where
//! there is no legal move or, after a FEN that gives no position to play,
//! no position.
//!
//! `stress_short` runs in CI (about 15 s); `stress_long` (ignored) runs the
//! same for several minutes:
//! `cargo test --release -p engine --test stress -- --ignored --nocapture`.
//! `STRESS_SEED=<n>` changes the seed.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};
use testkit::Rng;

const BIN: &str = env!("CARGO_BIN_EXE_borrow");

/// How long any awaited answer may take. The engine needs milliseconds;
/// this only catches hangs (on a loaded two-core machine).
const TIMEOUT: Duration = Duration::from_secs(30);

/// Start positions: ordinary, tactical, checkmated, stalemated, en passant.
const FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
    "8/8/8/8/8/2k5/1q6/K7 w - - 0 1",
];

/// One engine process: its stdin, its stdout as a channel of lines (so that
/// every read can time out), its stderr collected by a thread.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Option<JoinHandle<String>>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(BIN)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the engine");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let mut stderr = child.stderr.take().expect("stderr");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        Engine {
            child,
            stdin,
            lines,
            stderr: Some(stderr),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// What one driving thread knows: the engine, the position the engine
/// holds, and the answers it still owes.
struct Session {
    id: usize,
    rng: Rng,
    engine: Engine,
    /// The position the engine holds (every `position` sent is valid), or
    /// `None` after a deliberately invalid one, which leaves no position.
    position: Option<Chess>,
    /// For each `go` sent to this engine, the position it searched (`None`:
    /// none, and the answer is `bestmove 0000`).
    gos: Vec<Option<Chess>>,
    bestmoves: usize,
    ready_sent: usize,
    ready_got: usize,
    /// Whether a search may be running (for `ponderhit`).
    pondering: bool,
    transcript: Vec<String>,
    stats: Stats,
}

#[derive(Default, Debug, Clone, Copy)]
struct Stats {
    commands: usize,
    sequences: usize,
    gos: usize,
    quits: usize,
}

impl Session {
    fn new(id: usize, seed: u64) -> Session {
        Session {
            id,
            rng: Rng::new(seed ^ (id as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)),
            engine: Engine::start(),
            position: Some(Chess::default()),
            gos: Vec::new(),
            bestmoves: 0,
            ready_sent: 0,
            ready_got: 0,
            pondering: false,
            transcript: Vec::new(),
            stats: Stats::default(),
        }
    }

    fn fail(&self, what: &str) -> ! {
        let start = self.transcript.len().saturating_sub(80);
        panic!(
            "engine {}: {what}\nlast lines (> sent, < received):\n{}",
            self.id,
            self.transcript[start..].join("\n")
        );
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        self.stats.commands += 1;
        if writeln!(self.engine.stdin, "{line}")
            .and_then(|()| self.engine.stdin.flush())
            .is_err()
        {
            self.fail(&format!("cannot write '{line}': the engine is gone"));
        }
    }

    /// Takes one line of output into account.
    fn receive(&mut self, line: String) {
        if line == "readyok" {
            self.ready_got += 1;
            if self.ready_got > self.ready_sent {
                self.transcript.push(format!("< {line}"));
                self.fail("readyok without isready");
            }
        } else if line.starts_with("bestmove") {
            self.check_bestmove(&line);
        } else if line.starts_with("info string")
            && !line.contains("no position to")
            && !line.contains("left out")
        {
            // Only the harness's deliberate errors (an invalid FEN, an
            // illegal `searchmoves` move) may be reported.
            self.transcript.push(format!("< {line}"));
            self.fail("unexpected info string");
        }
        if !line.starts_with("info depth") {
            self.transcript.push(format!("< {line}"));
        }
    }

    fn check_bestmove(&mut self, line: &str) {
        self.transcript.push(format!("< {line}"));
        self.bestmoves += 1;
        let Some(pos) = self.gos.get(self.bestmoves - 1).cloned() else {
            self.fail("bestmove without go");
        };
        let words: Vec<&str> = line.split(' ').collect();
        let Some(pos) = pos else {
            if words != ["bestmove", "0000"] {
                self.fail("no position, but bestmove is not 0000");
            }
            return;
        };
        let legal = pos.legal_moves();
        if words.len() < 2 {
            self.fail("bestmove without a move");
        }
        if legal.is_empty() {
            if words[1] != "0000" || words.len() != 2 {
                self.fail("no legal move, but bestmove is not 0000");
            }
            return;
        }
        let Some(after) = play(&pos, words[1]) else {
            self.fail(&format!(
                "illegal bestmove {} in {}",
                words[1],
                Fen::from_position(&pos, EnPassantMode::Legal)
            ));
        };
        match words[2..] {
            [] => {}
            ["ponder", p] => {
                if play(&after, p).is_none() {
                    self.fail(&format!("illegal ponder move {p}"));
                }
            }
            _ => self.fail("malformed bestmove line"),
        }
    }

    /// Reads what has arrived, without waiting.
    fn drain(&mut self) {
        loop {
            match self.engine.lines.try_recv() {
                Ok(line) => self.receive(line),
                Err(_) => return,
            }
        }
    }

    /// Reads until `done`, failing on a timeout or the engine's exit.
    fn wait_for(&mut self, what: &str, done: impl Fn(&Session) -> bool) {
        let deadline = Instant::now() + TIMEOUT;
        while !done(self) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.engine.lines.recv_timeout(left) {
                Ok(line) => self.receive(line),
                Err(RecvTimeoutError::Timeout) => {
                    self.fail(&format!("hang: no {what} within {TIMEOUT:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let stderr = self
                        .engine
                        .stderr
                        .take()
                        .map(|h| h.join().unwrap_or_default());
                    self.fail(&format!(
                        "the engine exited while waiting for {what}; stderr:\n{}",
                        stderr.unwrap_or_default()
                    ))
                }
            }
        }
    }

    /// `stop` then `isready`: afterwards no search runs, so every `go` has
    /// had its `bestmove`, and every `isready` its `readyok`.
    fn settle(&mut self) {
        self.send("stop");
        self.pondering = false;
        self.send("isready");
        self.ready_sent += 1;
        self.wait_for("readyok", |s| s.ready_got == s.ready_sent);
        if self.bestmoves != self.gos.len() {
            self.fail(&format!(
                "{} go, {} bestmove after stop and readyok",
                self.gos.len(),
                self.bestmoves
            ));
        }
    }

    /// `quit`: the engine answers what it owes and exits cleanly; a new one
    /// takes over if `restart`.
    fn quit(&mut self, restart: bool) {
        self.send("quit");
        // A search running at `quit` still ends with its bestmove.
        self.wait_for("the bestmove owed at quit", |s| s.bestmoves == s.gos.len());
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            match self.engine.child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(2))
                }
                _ => self.fail("the engine did not exit after quit"),
            }
        };
        // Whatever else it printed.
        while let Ok(line) = self.engine.lines.recv_timeout(Duration::from_millis(500)) {
            self.receive(line);
        }
        let stderr = self
            .engine
            .stderr
            .take()
            .map(|h| h.join().unwrap_or_default())
            .unwrap_or_default();
        if !status.success() || !stderr.trim().is_empty() {
            self.fail(&format!("exit status {status}, stderr:\n{stderr}"));
        }
        if self.ready_got != self.ready_sent {
            self.fail("isready without readyok before quit");
        }
        self.stats.quits += 1;
        if !restart {
            return;
        }
        self.engine = Engine::start();
        self.position = Some(Chess::default());
        self.gos.clear();
        self.bestmoves = 0;
        self.ready_sent = 0;
        self.ready_got = 0;
        self.pondering = false;
        self.transcript.push("--- new engine ---".into());
    }

    fn nap(&mut self) {
        // Mostly nothing or a moment, now and then long enough for a search
        // to get going.
        let ms = match self.rng.below(10) {
            0..=3 => 0,
            4..=7 => self.rng.below(3),
            _ => self.rng.below(25),
        };
        if ms > 0 {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }

    fn position_command(&mut self) {
        if self.rng.chance(5) {
            // Invalid: the engine says so and holds no position.
            self.send("position fen 8/8/8/8/8/8/8/8 w - - 0 1");
            self.position = None;
            return;
        }
        let fen = FENS[self.rng.below(FENS.len() as u64) as usize];
        let mut pos: Chess = fen
            .parse::<Fen>()
            .expect("FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal");
        let mut moves = Vec::new();
        for _ in 0..self.rng.below(24) {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[self.rng.below(legal.len() as u64) as usize];
            moves.push(m.to_uci(CastlingMode::Standard).to_string());
            pos.play_unchecked(m);
        }
        let head = if fen == FENS[0] && self.rng.chance(50) {
            "position startpos".to_owned()
        } else {
            format!("position fen {fen}")
        };
        let line = if moves.is_empty() && self.rng.chance(50) {
            head
        } else {
            format!("{head} moves {}", moves.join(" "))
        };
        self.send(&line);
        self.position = Some(pos);
    }

    fn go_command(&mut self) {
        let r = &mut self.rng;
        let (line, ponder) = match r.below(9) {
            0 => (format!("go depth {}", 1 + r.below(6)), false),
            1 => (format!("go nodes {}", 1 + r.below(20_000)), false),
            2 => (format!("go movetime {}", r.below(30)), false),
            3 => {
                let (t, i) = (r.below(3000), r.below(40));
                (format!("go wtime {t} btime {t} winc {i} binc {i}"), false)
            }
            4 => (
                format!(
                    "go movestogo {} wtime {} btime 100",
                    1 + r.below(5),
                    r.below(300)
                ),
                false,
            ),
            5 => ("go infinite".to_owned(), false),
            6 => (
                format!("go ponder wtime {0} btime {0}", r.below(2000)),
                true,
            ),
            7 => (format!("go mate {} depth 4", 1 + r.below(3)), false),
            _ => {
                // A legal root move to search alone, or an illegal one.
                let legal = self
                    .position
                    .as_ref()
                    .map(Chess::legal_moves)
                    .unwrap_or_default();
                let m = if legal.is_empty() {
                    "e2e4".to_owned()
                } else {
                    legal[r.below(legal.len() as u64) as usize]
                        .to_uci(CastlingMode::Standard)
                        .to_string()
                };
                (format!("go depth 3 searchmoves {m}"), false)
            }
        };
        self.send(&line);
        self.gos.push(self.position.clone());
        self.pondering = ponder;
        self.stats.gos += 1;
    }

    /// One burst of random commands, then (usually) a check that everything
    /// owed has been answered.
    fn sequence(&mut self) {
        for _ in 0..1 + self.rng.below(6) {
            match self.rng.below(100) {
                0..=11 => self.send("stop"),
                12..=23 => {
                    self.send("isready");
                    self.ready_sent += 1;
                }
                24..=28 => self.send("ucinewgame"),
                29..=32 => {
                    let mb = 1 + self.rng.below(32);
                    self.send(&format!("setoption name Hash value {mb}"));
                }
                33..=38 => {
                    let n = 1 + self.rng.below(3);
                    self.send(&format!("setoption name Threads value {n}"));
                }
                39..=41 => {
                    if self.pondering {
                        self.send("ponderhit");
                        self.pondering = false;
                    }
                }
                42..=60 => self.position_command(),
                61..=98 => self.go_command(),
                _ => self.quit(true),
            }
            self.nap();
            self.drain();
        }
        if self.rng.chance(70) {
            self.settle();
        }
        self.stats.sequences += 1;
    }
}

fn seed() -> u64 {
    std::env::var("STRESS_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_f0b0_a000)
}

/// Runs `engines` sessions side by side, each for `sequences` bursts or
/// until `time` is up; returns the totals.
fn stress(engines: usize, sequences: usize, time: Duration) -> Stats {
    let seed = seed();
    let start = Instant::now();
    let handles: Vec<_> = (0..engines)
        .map(|id| {
            std::thread::Builder::new()
                .name(format!("stress-{id}"))
                .spawn(move || {
                    let mut s = Session::new(id, seed);
                    for _ in 0..sequences {
                        if start.elapsed() > time {
                            break;
                        }
                        s.sequence();
                    }
                    s.settle();
                    s.quit(false);
                    s.stats
                })
                .expect("spawn")
        })
        .collect();
    let mut total = Stats::default();
    for h in handles {
        let s = h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        total.commands += s.commands;
        total.sequences += s.sequences;
        total.gos += s.gos;
        total.quits += s.quits;
    }
    eprintln!(
        "stress: seed {seed:#x}, {engines} engines, {:?}: {total:?}",
        start.elapsed()
    );
    total
}

fn play(pos: &Chess, uci: &str) -> Option<Chess> {
    let m = uci.parse::<UciMove>().ok()?.to_move(pos).ok()?;
    let mut next = pos.clone();
    next.play_unchecked(m);
    Some(next)
}

#[test]
fn stress_short() {
    let stats = stress(3, 800, Duration::from_secs(15));
    assert!(stats.sequences >= 300, "too few sequences ran: {stats:?}");
}

#[test]
#[ignore = "long: minutes; run by hand"]
fn stress_long() {
    let minutes = std::env::var("STRESS_MINUTES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    stress(4, usize::MAX, Duration::from_secs(60 * minutes));
}
