//! A UCI engine as a child process.
//!
//! A reader thread per engine turns its standard output into timestamped
//! lines on a channel; the match thread waits on the channel with
//! deadlines, so a silent engine can never block the match. Engines run in
//! their own process group, so a Ctrl-C at the terminal reaches only the
//! runner, which then quits them itself.

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::clock::Limits;

/// An engine's evaluation, from its own point of view: the book crate's
/// type, whose PGN form (`+0.35`, `-M3`) the move comments use.
pub use book::pgn::Score;

/// How an engine is started and configured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    /// Display name (PGN tags, summary).
    pub name: String,
    /// The program.
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Its working directory, if not ours.
    pub dir: Option<PathBuf>,
    /// UCI options, sent as `setoption name X value Y`.
    pub options: Vec<(String, String)>,
    /// Search limits.
    pub limits: Limits,
}

/// What an engine declares of an option in answer to `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `type spin min A max B`.
    Spin {
        /// The least value.
        min: i64,
        /// The largest value.
        max: i64,
    },
    /// `type check`: `true` or `false`.
    Check,
    /// `type combo var A var B ...`: one of the values.
    Combo(Vec<String>),
    /// `type string`, `type button`, or a spin without its bounds: any value.
    Other,
}

impl OptionKind {
    /// Reads the words after `type` of an `option` line.
    pub fn parse(words: &[&str]) -> OptionKind {
        let after = |key: &str| {
            words
                .iter()
                .position(|&w| w == key)
                .and_then(|i| words.get(i + 1))
                .and_then(|v| v.parse().ok())
        };
        match words.first() {
            Some(&"spin") => match (after("min"), after("max")) {
                (Some(min), Some(max)) => OptionKind::Spin { min, max },
                _ => OptionKind::Other,
            },
            Some(&"check") => OptionKind::Check,
            Some(&"combo") => {
                // Values run from one `var` to the next and may hold spaces.
                let mut vars: Vec<String> = Vec::new();
                let mut current: Option<Vec<&str>> = None;
                for &w in &words[1..] {
                    match w {
                        "var" | "default" => {
                            if let Some(v) = current.take() {
                                vars.push(v.join(" "));
                            }
                            if w == "var" {
                                current = Some(Vec::new());
                            }
                        }
                        _ => {
                            if let Some(v) = current.as_mut() {
                                v.push(w);
                            }
                        }
                    }
                }
                if let Some(v) = current {
                    vars.push(v.join(" "));
                }
                OptionKind::Combo(vars)
            }
            _ => OptionKind::Other,
        }
    }

    /// Why `value` is not a value of this option, if it is not.
    pub fn refuses(&self, value: &str) -> Option<String> {
        match self {
            OptionKind::Spin { min, max } => match value.trim().parse::<i64>() {
                Ok(n) if (*min..=*max).contains(&n) => None,
                Ok(n) => Some(format!("{n} is outside the declared {min} to {max}")),
                Err(_) => Some(format!(
                    "'{value}' is not a number (the engine declares {min} to {max})"
                )),
            },
            OptionKind::Check => match value.trim() {
                "true" | "false" => None,
                _ => Some(format!("'{value}' is not true or false")),
            },
            OptionKind::Combo(vars) => {
                if vars.iter().any(|v| v.eq_ignore_ascii_case(value.trim())) {
                    None
                } else {
                    Some(format!(
                        "'{value}' is not one of the declared values ({})",
                        vars.join(", ")
                    ))
                }
            }
            OptionKind::Other => None,
        }
    }
}

/// Why an engine could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The process could not be started.
    Spawn(String),
    /// The process exited or closed its pipes.
    Crashed,
    /// No answer in time; the string names what was awaited.
    Timeout(&'static str),
    /// The match is being stopped.
    Interrupted,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot start: {e}"),
            EngineError::Crashed => f.write_str("the engine exited"),
            EngineError::Timeout(what) => write!(f, "no '{what}' in time"),
            EngineError::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// What the last `info` lines of a search said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// The last score.
    pub score: Option<Score>,
    /// The last depth.
    pub depth: Option<u32>,
    /// The last node count.
    pub nodes: Option<u64>,
}

impl Info {
    /// Folds one `info` line in (other lines are ignored).
    pub fn update(&mut self, line: &str) {
        let mut t = line.split_ascii_whitespace();
        if t.next() != Some("info") {
            return;
        }
        while let Some(tok) = t.next() {
            match tok {
                "string" => return,
                "depth" => {
                    if let Some(d) = t.next().and_then(|v| v.parse().ok()) {
                        self.depth = Some(d);
                    }
                }
                "nodes" => {
                    if let Some(n) = t.next().and_then(|v| v.parse().ok()) {
                        self.nodes = Some(n);
                    }
                }
                "score" => match (t.next(), t.next().and_then(|v| v.parse().ok())) {
                    (Some("cp"), Some(v)) => self.score = Some(Score::Cp(v)),
                    (Some("mate"), Some(v)) => self.score = Some(Score::Mate(v)),
                    _ => {}
                },
                _ => {}
            }
        }
    }
}

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Search {
    /// `bestmove` in time (the game still checks the clock and legality).
    BestMove {
        /// The move as sent.
        mv: String,
        /// From `go` to `bestmove`.
        elapsed: Duration,
        /// The last info.
        info: Info,
    },
    /// `bestmove` came after the hard deadline but within the grace.
    Late {
        /// From `go` to `bestmove`.
        elapsed: Duration,
        /// The last info.
        info: Info,
    },
    /// No `bestmove` long after the deadline (or no deadline at all).
    Stalled {
        /// The last info.
        info: Info,
    },
    /// The engine exited or its pipes broke.
    Crashed {
        /// The last info.
        info: Info,
    },
    /// The match is being stopped.
    Interrupted,
}

/// A shared log of all UCI traffic (`-log FILE`).
#[derive(Clone)]
pub struct UciLog {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
    start: Instant,
}

impl UciLog {
    /// Logs into `out`.
    pub fn new(out: Box<dyn Write + Send>) -> UciLog {
        UciLog {
            out: Arc::new(Mutex::new(out)),
            start: Instant::now(),
        }
    }

    fn write(&self, who: &str, dir: &str, line: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "[{t:10.3}] {who} {dir} {line}");
        }
    }

    /// Flushes the log.
    pub fn flush(&self) {
        if let Ok(mut out) = self.out.lock() {
            let _ = out.flush();
        }
    }
}

enum Msg {
    Line(Instant, String),
    Eof,
}

enum Recv {
    Line(Instant, String),
    Eof,
    Timeout,
    Stopped,
}

/// How often waits look at the stop flag.
const POLL: Duration = Duration::from_millis(25);

/// A search without a clock or move time is a stall after this long.
pub const UNTIMED_SEARCH_LIMIT: Duration = Duration::from_secs(60);

/// A running UCI engine.
pub struct UciEngine {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Msg>,
    stop: Arc<AtomicBool>,
    log: Option<UciLog>,
    id_name: Option<String>,
    declared: Vec<(String, OptionKind)>,
    dead: bool,
}

impl UciEngine {
    /// Starts the engine, waits for `uciok` (within `startup`), sends the
    /// options, and waits for `readyok` (within `ready`).
    pub fn start(
        config: &EngineConfig,
        startup: Duration,
        ready: Duration,
        stop: Arc<AtomicBool>,
        log: Option<UciLog>,
    ) -> Result<UciEngine, EngineError> {
        let mut cmd_path = PathBuf::from(&config.cmd);
        if cmd_path.is_relative()
            && config.cmd.contains('/')
            && let Ok(abs) = std::path::absolute(&cmd_path)
        {
            cmd_path = abs;
        }
        let mut cmd = Command::new(&cmd_path);
        cmd.args(&config.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0);
        if let Some(dir) = &config.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(spawn_error(config, &e)))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        thread::Builder::new()
            .name(format!("uci-{}", config.name))
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match reader.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let now = Instant::now();
                            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if tx.send(Msg::Line(now, line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Msg::Eof);
            })
            .map_err(|e| EngineError::Spawn(e.to_string()))?;
        let mut engine = UciEngine {
            name: config.name.clone(),
            child,
            stdin,
            rx,
            stop,
            log,
            id_name: None,
            declared: Vec::new(),
            dead: false,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + startup;
        loop {
            match engine.recv(deadline) {
                Recv::Line(_, line) => {
                    if line.trim() == "uciok" {
                        break;
                    }
                    let mut t = line.split_ascii_whitespace();
                    match (t.next(), t.next()) {
                        (Some("id"), Some("name")) => {
                            engine.id_name = Some(t.collect::<Vec<_>>().join(" "));
                        }
                        (Some("option"), Some("name")) => {
                            let rest: Vec<&str> = t.collect();
                            let at = rest.iter().position(|&w| w == "type");
                            let (name, kind) = match at {
                                Some(i) => (&rest[..i], OptionKind::parse(&rest[i + 1..])),
                                None => (&rest[..], OptionKind::Other),
                            };
                            engine.declared.push((name.join(" "), kind));
                        }
                        _ => {}
                    }
                }
                Recv::Eof => return Err(engine.died()),
                Recv::Timeout => return Err(EngineError::Timeout("uciok")),
                Recv::Stopped => return Err(EngineError::Interrupted),
            }
        }
        for (k, v) in &config.options {
            engine.send(&format!("setoption name {k} value {v}"))?;
        }
        engine.is_ready(ready)?;
        Ok(engine)
    }

    /// The name from `id name`, if the engine sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// Options of `config` that the engine did not declare.
    pub fn undeclared<'a>(&self, config: &'a EngineConfig) -> Vec<&'a str> {
        config
            .options
            .iter()
            .map(|(k, _)| k.as_str())
            .filter(|k| !self.declared.iter().any(|(d, _)| d.eq_ignore_ascii_case(k)))
            .collect()
    }

    /// The options of `config` whose value the engine's declaration
    /// refuses (a spin out of its range or not a number, a check not
    /// `true`/`false`, a combo value not offered), with why.
    pub fn refused_values(&self, config: &EngineConfig) -> Vec<String> {
        config
            .options
            .iter()
            .filter_map(|(k, v)| {
                let (name, kind) = self
                    .declared
                    .iter()
                    .find(|(d, _)| d.eq_ignore_ascii_case(k))?;
                kind.refuses(v).map(|why| format!("option '{name}': {why}"))
            })
            .collect()
    }

    fn died(&mut self) -> EngineError {
        self.dead = true;
        EngineError::Crashed
    }

    /// Sends one line; a broken pipe means the engine died.
    pub fn send(&mut self, line: &str) -> Result<(), EngineError> {
        if let Some(log) = &self.log {
            log.write(&self.name, "<", line);
        }
        let ok = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{line}")
                .and_then(|_| stdin.flush())
                .is_ok(),
            None => false,
        };
        if ok { Ok(()) } else { Err(self.died()) }
    }

    fn recv(&mut self, deadline: Instant) -> Recv {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Recv::Stopped;
            }
            // Lines already read count even if this thread is late.
            let now = Instant::now();
            let msg = match self.rx.try_recv() {
                Ok(m) => Ok(m),
                Err(TryRecvError::Disconnected) => Err(RecvTimeoutError::Disconnected),
                Err(TryRecvError::Empty) if now >= deadline => return Recv::Timeout,
                Err(TryRecvError::Empty) => self.rx.recv_timeout((deadline - now).min(POLL)),
            };
            match msg {
                Ok(Msg::Line(t, line)) => {
                    if let Some(log) = &self.log {
                        log.write(&self.name, ">", &line);
                    }
                    return Recv::Line(t, line);
                }
                Ok(Msg::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    self.dead = true;
                    return Recv::Eof;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// `isready`, then waits for `readyok`.
    pub fn is_ready(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline) {
                Recv::Line(_, l) if l.trim() == "readyok" => return Ok(()),
                Recv::Line(..) => {}
                Recv::Eof => return Err(self.died()),
                Recv::Timeout => return Err(EngineError::Timeout("readyok")),
                Recv::Stopped => return Err(EngineError::Interrupted),
            }
        }
    }

    /// `ucinewgame`, then `isready` / `readyok`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.is_ready(timeout)
    }

    /// Sends `position` and `go`, and waits for `bestmove`.
    ///
    /// `limit` is the hard time for the move (clock or move time plus the
    /// margin), `None` for untimed searches ([`UNTIMED_SEARCH_LIMIT`]).
    /// Past it the engine is told to `stop`; a `bestmove` within `grace`
    /// after that is [`Search::Late`] (a time loss when there was a
    /// limit), none is [`Search::Stalled`].
    pub fn search(
        &mut self,
        position: &str,
        go: &str,
        limit: Option<Duration>,
        grace: Duration,
    ) -> Search {
        let mut info = Info::default();
        if self.send(position).is_err() || self.send(go).is_err() {
            return Search::Crashed { info };
        }
        let start = Instant::now();
        let hard = start + limit.unwrap_or(UNTIMED_SEARCH_LIMIT);
        let mut deadline = hard;
        let mut late = false;
        loop {
            match self.recv(deadline) {
                Recv::Line(t, line) => {
                    let mut words = line.split_ascii_whitespace();
                    match words.next() {
                        Some("bestmove") => {
                            let mv = words.next().unwrap_or("").to_string();
                            let elapsed = t.saturating_duration_since(start);
                            // Judged by when the line was read, not by when
                            // this thread got to it.
                            return if limit.is_some() && t > hard {
                                Search::Late { elapsed, info }
                            } else {
                                Search::BestMove { mv, elapsed, info }
                            };
                        }
                        Some("info") => info.update(&line),
                        _ => {}
                    }
                }
                Recv::Eof => {
                    self.dead = true;
                    return Search::Crashed { info };
                }
                Recv::Timeout if !late => {
                    late = true;
                    deadline = hard + grace;
                    if self.send("stop").is_err() {
                        return Search::Crashed { info };
                    }
                }
                Recv::Timeout => {
                    self.dead = true;
                    return Search::Stalled { info };
                }
                Recv::Stopped => {
                    let _ = self.send("stop");
                    return Search::Interrupted;
                }
            }
        }
    }

    /// Whether the engine exited, crashed or stalled: it must be restarted.
    pub fn is_dead(&mut self) -> bool {
        self.dead || !matches!(self.child.try_wait(), Ok(None))
    }

    /// Marks the engine as unusable (after a stall, an illegal move...).
    pub fn mark_dead(&mut self) {
        self.dead = true;
    }

    /// The engine process's peak resident memory so far in KiB (`VmHWM` in
    /// `/proc/<pid>/status`; Linux only, `None` elsewhere or once the
    /// process has been reaped). Only the process the runner started is
    /// measured: an engine started through a wrapper script reports the
    /// script's memory.
    pub fn peak_memory_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        parse_vm_hwm(&status)
    }
}

/// The `VmHWM:` field of a `/proc/<pid>/status` text, in KiB.
fn parse_vm_hwm(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let mut words = line["VmHWM:".len()..].split_whitespace();
    let n: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") => Some(n),
        _ => None,
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        if !self.dead {
            let _ = self.send("quit");
        }
        self.stdin = None; // close the pipe: EOF is a quit too
        let until = Instant::now() + Duration::from_millis(if self.dead { 0 } else { 300 });
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peak_memory_field() {
        let status = "Name:\tborrow\nVmPeak:\t  300000 kB\nVmHWM:\t   12345 kB\nVmRSS:\t 1000 kB\n";
        assert_eq!(parse_vm_hwm(status), Some(12345));
        assert_eq!(parse_vm_hwm("VmRSS:\t 1000 kB\n"), None);
        assert_eq!(parse_vm_hwm("VmHWM:\t 12 MB\n"), None);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn peak_memory_of_a_process() {
        let mut child = Command::new("sleep").arg("5").spawn().expect("sleep runs");
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
        let kib = parse_vm_hwm(&status).expect("a live process has VmHWM");
        assert!(kib > 0 && kib < 1 << 20, "{kib} KiB for sleep");
        let _ = child.kill();
        let _ = child.wait();
    }

    #[test]
    fn info_lines() {
        let mut i = Info::default();
        i.update("info depth 12 seldepth 18 score cp 35 nodes 123456 pv e2e4 e7e5");
        assert_eq!(i.depth, Some(12));
        assert_eq!(i.score, Some(Score::Cp(35)));
        assert_eq!(i.nodes, Some(123456));
        i.update("info depth 13 score mate -3 lowerbound");
        assert_eq!(i.score, Some(Score::Mate(-3)));
        assert_eq!(i.depth, Some(13));
        i.update("info string depth 99 score cp 1");
        assert_eq!(i.depth, Some(13));
        i.update("bestmove e2e4");
        assert_eq!(i.depth, Some(13));
    }

    #[test]
    fn score_formats() {
        assert_eq!(Score::Cp(35).to_string(), "+0.35");
        assert_eq!(Score::Cp(-120).to_string(), "-1.20");
        assert_eq!(Score::Cp(-5).to_string(), "-0.05");
        assert_eq!(Score::Cp(0).to_string(), "+0.00");
        assert_eq!(Score::Mate(3).to_string(), "+M3");
        assert_eq!(Score::Mate(-2).to_string(), "-M2");
    }
}

/// The message of a program that cannot be started. A bare name (no `/`)
/// is looked up on `PATH` only, so a file of that name in the current (or
/// `dir=`) folder is not run: say how to run it.
fn spawn_error(config: &EngineConfig, e: &std::io::Error) -> String {
    let folder = config.dir.clone().unwrap_or_else(|| PathBuf::from("."));
    if e.kind() == std::io::ErrorKind::NotFound
        && !config.cmd.contains('/')
        && folder.join(&config.cmd).exists()
    {
        format!(
            "'{}' is not on PATH (a name without '/' is looked up there); for the file in {}, \
             write cmd=./{}",
            config.cmd,
            if config.dir.is_some() {
                "dir="
            } else {
                "the current folder"
            },
            config.cmd
        )
    } else {
        // The caller names the engine and its command.
        e.to_string()
    }
}

#[cfg(test)]
mod option_tests {
    use super::OptionKind;

    #[test]
    fn declared_options_refuse_what_they_do_not_offer() {
        let spin = OptionKind::parse(&["spin", "default", "16", "min", "1", "max", "65536"]);
        assert_eq!(spin, OptionKind::Spin { min: 1, max: 65536 });
        assert_eq!(spin.refuses("64"), None);
        assert!(spin.refuses("0").unwrap().contains("1 to 65536"));
        assert!(spin.refuses("abc").unwrap().contains("not a number"));
        let check = OptionKind::parse(&["check", "default", "false"]);
        assert_eq!(check.refuses("true"), None);
        assert!(check.refuses("maybe").is_some());
        let combo = OptionKind::parse(&[
            "combo",
            "default",
            "magic",
            "var",
            "magic",
            "var",
            "o2r",
            "var",
            "two words",
        ]);
        assert_eq!(
            combo,
            OptionKind::Combo(vec!["magic".into(), "o2r".into(), "two words".into()])
        );
        assert_eq!(combo.refuses("two words"), None);
        assert!(combo.refuses("pext2").unwrap().contains("magic, o2r"));
        assert_eq!(
            OptionKind::parse(&["string", "default", "<empty>"]).refuses("x"),
            None
        );
    }
}
