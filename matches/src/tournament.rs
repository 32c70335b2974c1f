//! The match: worker threads that each own a pair of engine processes and
//! play whole game pairs (one opening, colours swapped), and the main
//! thread that collects the results, writes the PGN, shows progress, runs
//! the SPRT and decides when to stop.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use shakmaty::Color;

use crate::cli::MatchConfig;
use crate::game::{self, Failure, GameRecord, Seat};
use crate::openings::{self, Opening};
use crate::pgn;
use crate::resume::{self, Resumed};
use crate::schedule::{first_is_white, round_tag};
use crate::sprt::{Decision, Sprt};
use crate::stats::{Pairs, Trinomial, Wdl};
use crate::uci_engine::{EngineConfig, EngineError, UciEngine, UciLog};

/// What a match produced, and why it stopped: the reports' input, which
/// [`run`] returns.
pub use crate::report::{MatchResult, StopReason};

/// How progress is shown on stderr.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Nothing.
    Quiet,
    /// A short line per finished game.
    Lines,
    /// A progress bar with the running score (a terminal).
    Bar,
}

enum Event {
    Game {
        round: usize,
        game: usize,
        record: Box<GameRecord>,
        first_is_white: bool,
    },
    Pair([Wdl; 2]),
    /// Peak resident memory of the worker's two engines, in KiB.
    Memory([Option<u64>; 2]),
    Warning(String),
    Fatal(String),
}

/// The first engine's result of a game.
fn wdl_of(record: &GameRecord, first_is_white: bool) -> Wdl {
    let first = if first_is_white {
        Color::White
    } else {
        Color::Black
    };
    match record.result.winner() {
        None => Wdl::Draw,
        Some(w) if w == first => Wdl::Win,
        Some(_) => Wdl::Loss,
    }
}

/// Reads the opening book, reporting skipped lines on stderr, and arranges
/// it in playing order: round `r` plays opening `r % len`.
pub fn load_openings(config: &MatchConfig) -> Result<Vec<Opening>, String> {
    let Some(o) = &config.openings else {
        return Ok(vec![Opening::startpos()]);
    };
    let (suite, errors) = openings::load(&o.file, o.format, o.plies)?;
    for e in errors.iter().take(20) {
        eprintln!(
            "warning: {}: {} (skipped)",
            o.file.display(),
            openings::describe(e)
        );
    }
    if errors.len() > 20 {
        eprintln!(
            "warning: {}: {} more lines skipped",
            o.file.display(),
            errors.len() - 20
        );
    }
    if suite.is_empty() {
        return Err(format!("{}: no usable opening", o.file.display()));
    }
    openings::arrange(suite, o.order, o.start, config.seed)
        .map_err(|e| format!("{}: {e}", o.file.display()))
}

/// A finished game, as [`run_observed`] shows it to its observer.
#[derive(Clone, Copy, Debug)]
pub struct FinishedGame<'a> {
    /// The round (0-based): the opening's index in playing order.
    pub round: usize,
    /// The game of the round (0-based): 1 is the colour-swapped replay.
    pub game: usize,
    /// Whether the first engine had White.
    pub first_is_white: bool,
    /// The game.
    pub record: &'a GameRecord,
}

struct Shared {
    config: MatchConfig,
    openings: Vec<Opening>,
    next_round: AtomicUsize,
    /// Rounds already played (resumed from the PGN), skipped.
    done: HashSet<usize>,
    stop: Arc<AtomicBool>,
    log: Option<UciLog>,
}

fn start_engine(
    shared: &Shared,
    config: &EngineConfig,
    worker: usize,
) -> Result<UciEngine, EngineError> {
    let grace = shared.config.stall_timeout;
    // The name only labels the UCI log: say which worker's instance it is.
    let labelled = EngineConfig {
        name: format!("{}#{}", config.name, worker + 1),
        ..config.clone()
    };
    UciEngine::start(
        &labelled,
        grace.max(Duration::from_secs(10)),
        grace,
        shared.stop.clone(),
        shared.log.clone(),
    )
}

fn worker(shared: Arc<Shared>, tx: Sender<Event>, id: usize) {
    let mut engines: [Option<UciEngine>; 2] = [None, None];
    let mut warned = id != 0;
    let cfg = &shared.config;
    'rounds: loop {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let round = loop {
            let r = shared.next_round.fetch_add(1, Ordering::SeqCst);
            if !shared.done.contains(&r) {
                break r;
            }
        };
        if cfg.rounds.is_some_and(|r| round >= r) {
            break;
        }
        let opening = &shared.openings[round % shared.openings.len()];
        let mut results = Vec::new();
        for g in 0..cfg.games {
            for (i, slot) in engines.iter_mut().enumerate() {
                if slot.as_mut().is_some_and(|e| e.is_dead()) {
                    *slot = None;
                }
                if slot.is_none() {
                    match start_engine(&shared, &cfg.engines[i], id) {
                        Ok(e) => {
                            if !warned {
                                for o in e.undeclared(&cfg.engines[i]) {
                                    let _ = tx.send(Event::Warning(format!(
                                        "{} does not declare the option '{o}'",
                                        cfg.engines[i].name
                                    )));
                                }
                                for why in e.refused_values(&cfg.engines[i]) {
                                    let _ = tx.send(Event::Warning(format!(
                                        "{}: {why}",
                                        cfg.engines[i].name
                                    )));
                                }
                            }
                            *slot = Some(e);
                        }
                        Err(EngineError::Interrupted) => break 'rounds,
                        Err(e) => {
                            let _ = tx.send(Event::Fatal(format!(
                                "{}: {e}",
                                engine_label(&cfg.engines[i])
                            )));
                            break 'rounds;
                        }
                    }
                }
            }
            warned = true;
            // With pairs the first engine has White in the first game; with
            // single games colours alternate by round.
            let first_is_white = first_is_white(cfg.games, round, g);
            let [a, b] = &mut engines;
            let (Some(a), Some(b)) = (a.as_mut(), b.as_mut()) else {
                unreachable!("both engines were just started")
            };
            let seat_a = Seat {
                engine: a,
                config: &cfg.engines[0],
            };
            let seat_b = Seat {
                engine: b,
                config: &cfg.engines[1],
            };
            let seats = if first_is_white {
                [seat_a, seat_b]
            } else {
                [seat_b, seat_a]
            };
            match game::play(
                seats,
                opening,
                cfg.adjudication,
                cfg.stall_timeout,
                cfg.chess960,
            ) {
                Ok(record) => {
                    results.push(wdl_of(&record, first_is_white));
                    let _ = tx.send(Event::Game {
                        round,
                        game: g,
                        record: Box::new(record),
                        first_is_white,
                    });
                }
                Err(game::Interrupted) => break 'rounds,
            }
            let memory = engines
                .each_ref()
                .map(|e| e.as_ref().and_then(UciEngine::peak_memory_kib));
            let _ = tx.send(Event::Memory(memory));
        }
        if let [x, y] = results[..] {
            let _ = tx.send(Event::Pair([x, y]));
        }
    }
}

/// An engine in a message: its name, and its command when that says more
/// (`B (/x/b)`; not `engine (engine)`).
fn engine_label(e: &EngineConfig) -> String {
    let file = std::path::Path::new(&e.cmd)
        .file_name()
        .map(|f| f.to_string_lossy().into_owned());
    if file.as_deref() == Some(e.name.as_str()) || e.cmd == e.name {
        format!("engine '{}'", e.cmd)
    } else {
        format!("engine '{}' ({})", e.name, e.cmd)
    }
}

/// Counts a game's result, how it ended and the failure it was lost by.
fn count_game(
    result: &mut MatchResult,
    wdl: Wdl,
    termination: &game::Termination,
    failed: Option<Color>,
    first_is_white: bool,
) {
    result.wdl.add(wdl);
    *result.terminations.entry(termination.key()).or_default() += 1;
    if let (Some(side), game::Termination::Failure(f, _)) = (failed, termination) {
        let engine = usize::from((side == Color::White) != first_is_white);
        let k = Failure::ALL.iter().position(|x| x == f).unwrap_or(0);
        result.failures[engine][k] += 1;
    }
}

/// Counts the resumed games as if just played: results, pairs, how they
/// ended, and the SPRT's verdict on them.
fn restore(result: &mut MatchResult, resumed: &Resumed, config: &MatchConfig) {
    for g in &resumed.games {
        count_game(result, g.wdl, &g.termination, g.failed, g.first_is_white);
    }
    if config.games == 2 {
        // Whole rounds only, each in game order.
        for pair in resumed.games.chunks_exact(2) {
            result.pairs.add(pair[0].wdl, pair[1].wdl);
        }
    }
    if let Some(sprt) = &config.sprt
        && !resumed.games.is_empty()
    {
        judge(result, sprt);
    }
}

/// The SPRT's verdict on the games counted so far: the log-likelihood
/// ratio goes into the result, and a decision stops the match. True when
/// the test has decided.
fn judge(result: &mut MatchResult, sprt: &Sprt) -> bool {
    let llr = sprt.llr(&result.sprt_counts());
    result.llr = Some(llr);
    let d = sprt.decision(llr);
    if d == Decision::Continue {
        return false;
    }
    result.stop = StopReason::Sprt(d);
    true
}

/// Checks before the first game that the JSON summary can be written
/// where `-jsonout` says (the PGN and the log are opened at the start
/// anyway): a file left as it was if it exists, created empty if not.
fn check_jsonout(config: &MatchConfig) -> Result<(), String> {
    match &config.jsonout {
        Some(p) => OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(p)
            .map(drop)
            .map_err(|e| format!("{}: {e}", p.display())),
        None => Ok(()),
    }
}

fn open_pgn(config: &MatchConfig) -> Result<Option<BufWriter<File>>, String> {
    config
        .pgnout
        .as_ref()
        .map(|p| {
            OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map(BufWriter::new)
                .map_err(|e| format!("{}: {e}", p.display()))
        })
        .transpose()
}

/// Plays the match. `interrupted` is polled (Ctrl-C); `progress` says how
/// to show progress on stderr. Setup errors, found before the first game,
/// are the `Err`: an output file that cannot be written, no usable
/// opening, an engine that cannot start.
pub fn run(
    config: &MatchConfig,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
) -> Result<MatchResult, String> {
    run_observed(config, interrupted, progress, &mut |_| {})
}

/// [`run`], showing each game that counts (finished before the match
/// stopped) to `observe`, in the order they finish, on the calling thread.
pub fn run_observed(
    config: &MatchConfig,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
    observe: &mut dyn FnMut(FinishedGame<'_>),
) -> Result<MatchResult, String> {
    let started = Instant::now();
    let setup = set_up(config)?;
    let mut result = fresh_result(config);
    restore(&mut result, &setup.resumed, config);
    let done: HashSet<usize> = setup.resumed.rounds().into_iter().collect();
    if progress != Progress::Quiet
        && config.resume
        && let Some(path) = &config.pgnout
    {
        announce_resumed(path, &setup.resumed, done.len());
    }
    // Set already when the resumed games decided the SPRT: no game is played.
    let stop = Arc::new(AtomicBool::new(result.stop != StopReason::Completed));
    let shared = Arc::new(Shared {
        config: config.clone(),
        openings: setup.openings,
        next_round: AtomicUsize::new(0),
        done,
        stop: stop.clone(),
        log: setup.log.clone(),
    });
    let (tx, rx) = mpsc::channel();
    let handles = spawn_workers(&shared, tx)?;

    let mut collector = Collector::new(config, progress, result, stop, setup.pgn_out);
    collector.collect(&rx, interrupted, observe);
    for h in handles {
        let _ = h.join();
    }
    let finished = collector.finish();
    if let Some(log) = &setup.log {
        log.flush();
    }
    let mut result = finished?;
    result.duration = started.elapsed();
    Ok(result)
}

/// What a match opens before its first game.
struct Setup {
    openings: Vec<Opening>,
    resumed: Resumed,
    pgn_out: Option<BufWriter<File>>,
    log: Option<UciLog>,
}

/// Checks the JSON output, reads the openings, resumes from the PGN (when
/// asked) and opens the PGN and the UCI log: the setup errors.
fn set_up(config: &MatchConfig) -> Result<Setup, String> {
    check_jsonout(config)?;
    let openings = load_openings(config)?;
    // Before the PGN is opened for appending: resuming may rewrite it.
    let resumed = match (config.resume, &config.pgnout) {
        (false, _) => Resumed::default(),
        (true, Some(pgn)) => resume::resume(pgn, config, &openings)?,
        (true, None) => return Err(crate::cli::NEEDS_PGNOUT.into()),
    };
    let pgn_out = open_pgn(config)?;
    let log = match &config.log {
        Some(p) => Some(UciLog::new(Box::new(BufWriter::new(
            File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )))),
        None => None,
    };
    Ok(Setup {
        openings,
        resumed,
        pgn_out,
        log,
    })
}

/// The result of a match before its first game.
fn fresh_result(config: &MatchConfig) -> MatchResult {
    MatchResult {
        names: [
            config.engines[0].name.clone(),
            config.engines[1].name.clone(),
        ],
        limits: [
            config.engines[0].limits.describe(),
            config.engines[1].limits.describe(),
        ],
        wdl: Trinomial::default(),
        pairs: Pairs::default(),
        failures: [[0; 4]; 2],
        terminations: BTreeMap::new(),
        llr: config.sprt.map(|_| 0.0),
        stop: StopReason::Completed,
        duration: Duration::ZERO,
        seed: config.seed,
        games_per_round: config.games,
        peak_memory_kib: [None; 2],
    }
}

/// Says on stderr what was resumed from the PGN at `path`.
fn announce_resumed(path: &std::path::Path, resumed: &Resumed, rounds: usize) {
    eprintln!(
        "resumed {} games of {rounds} whole rounds from {}{}",
        resumed.games.len(),
        path.display(),
        match resumed.dropped {
            0 => String::new(),
            n => format!("; {n} game(s) of rounds cut short dropped from the file"),
        }
    );
}

/// Starts the worker threads: `-concurrency` of them, fewer when fewer
/// rounds are left to play. They stop sending when the last one ends.
fn spawn_workers(
    shared: &Arc<Shared>,
    tx: Sender<Event>,
) -> Result<Vec<thread::JoinHandle<()>>, String> {
    let config = &shared.config;
    let left = config.rounds.map(|r| r.saturating_sub(shared.done.len()));
    let workers = left
        .map_or(config.concurrency, |r| config.concurrency.min(r))
        .max(1);
    (0..workers)
        .map(|i| {
            let (shared, tx) = (shared.clone(), tx.clone());
            thread::Builder::new()
                .name(format!("match-worker-{i}"))
                .spawn(move || worker(shared, tx, i))
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// The bar (drawn only where stderr is a terminal): games played, out of
/// the `total` when the match has one, and the running score; `played`
/// already (the resumed games).
fn progress_bar(total: Option<usize>, played: u64) -> ProgressBar {
    let (bar, template) = match total {
        Some(t) => (ProgressBar::new(t as u64), "[{pos}/{len}] {msg}"),
        None => (ProgressBar::no_length(), "[{pos}] {msg}"),
    };
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
    bar.set_position(played);
    bar
}

/// The main thread's side of a running match: it counts the workers'
/// games, writes them to the PGN, shows progress, runs the SPRT and
/// decides when to stop.
struct Collector<'a> {
    config: &'a MatchConfig,
    progress: Progress,
    result: MatchResult,
    /// Tells the workers to stop.
    stop: Arc<AtomicBool>,
    pgn_out: Option<BufWriter<File>>,
    /// The PGN's `Date`.
    date: String,
    /// The games of the match, when it has a number of rounds.
    total: Option<usize>,
    bar: Option<ProgressBar>,
    /// The warnings shown, each once.
    warnings: HashSet<String>,
    /// The games counted before the first was played: the resumed ones.
    resumed_games: u64,
    /// An engine that could not start before the first game.
    setup_error: Option<String>,
}

impl<'a> Collector<'a> {
    /// The collector of a match whose `result` counts the resumed games.
    fn new(
        config: &'a MatchConfig,
        progress: Progress,
        result: MatchResult,
        stop: Arc<AtomicBool>,
        pgn_out: Option<BufWriter<File>>,
    ) -> Collector<'a> {
        let total = config.rounds.map(|r| r * config.games);
        Collector {
            config,
            progress,
            pgn_out,
            date: book::pgn::today(),
            total,
            warnings: HashSet::new(),
            bar: (progress == Progress::Bar).then(|| progress_bar(total, result.wdl.games())),
            resumed_games: result.wdl.games(),
            result,
            stop,
            setup_error: None,
        }
    }

    /// The match's result, once the workers have ended; the bar stays on
    /// the screen as it is. An engine that could not start before the
    /// first game is the `Err`.
    fn finish(self) -> Result<MatchResult, String> {
        if let Some(bar) = self.bar {
            bar.abandon();
        }
        match self.setup_error {
            Some(e) => Err(e),
            None => Ok(self.result),
        }
    }

    fn stopped(&self) -> bool {
        self.result.stop != StopReason::Completed
    }

    /// Takes the workers' events until they have all ended, polling
    /// `interrupted` at least every 50 ms.
    fn collect(
        &mut self,
        rx: &mpsc::Receiver<Event>,
        interrupted: &dyn Fn() -> bool,
        observe: &mut dyn FnMut(FinishedGame<'_>),
    ) {
        loop {
            let event = match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(e) => Some(e),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if interrupted() && !self.stopped() {
                self.result.stop = StopReason::Interrupted;
                self.stop.store(true, Ordering::SeqCst);
            }
            if let Some(event) = event {
                self.event(event, observe);
            }
        }
    }

    /// One event of a worker: counted unless the match has stopped.
    fn event(&mut self, event: Event, observe: &mut dyn FnMut(FinishedGame<'_>)) {
        if let Event::Memory(m) = event {
            // Measured even after the decision: the processes ran anyway.
            for (peak, m) in self.result.peak_memory_kib.iter_mut().zip(m) {
                *peak = (*peak).max(m);
            }
            return;
        }
        if self.stopped() {
            return; // games finishing after the decision are not counted
        }
        let sprt_update = match event {
            Event::Memory(_) => unreachable!("handled above"),
            Event::Warning(w) => {
                if self.warnings.insert(w.clone()) {
                    eprintln!("warning: {w}");
                }
                false
            }
            Event::Fatal(e) => {
                // Before the first game, an engine that cannot start is a
                // setup error: no match was played.
                if self.result.wdl.games() == self.resumed_games {
                    self.setup_error = Some(e.clone());
                }
                self.result.stop = StopReason::Error(e);
                self.stop.store(true, Ordering::SeqCst);
                false
            }
            Event::Pair([x, y]) => {
                self.result.pairs.add(x, y);
                self.config.games == 2
            }
            Event::Game {
                round,
                game,
                record,
                first_is_white,
            } => {
                let finished = FinishedGame {
                    round,
                    game,
                    first_is_white,
                    record: &record,
                };
                self.game(finished, observe);
                self.config.games == 1
            }
        };
        if let (true, Some(sprt)) = (sprt_update, &self.config.sprt)
            && judge(&mut self.result, sprt)
        {
            self.stop.store(true, Ordering::SeqCst);
        }
    }

    /// A finished game: counted, written to the PGN, shown to `observe`
    /// and in the progress.
    fn game(&mut self, g: FinishedGame<'_>, observe: &mut dyn FnMut(FinishedGame<'_>)) {
        let record = g.record;
        count_game(
            &mut self.result,
            wdl_of(record, g.first_is_white),
            &record.termination,
            record.failed,
            g.first_is_white,
        );
        if let Some(out) = self.pgn_out.as_mut() {
            let round_tag = round_tag(self.config.games, g.round, g.game);
            let text = pgn::format_game(record, &self.config.event, &round_tag, &self.date);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                eprintln!("warning: cannot write the PGN: {e}");
            }
        }
        observe(g);
        self.show(record);
    }

    /// The progress after a game: a line or the bar, and the summary
    /// every `-ratinginterval` games.
    fn show(&self, record: &GameRecord) {
        let played = self.result.wdl.games();
        let of = self.total.map_or(String::new(), |t| format!("/{t}"));
        let sprt = self.config.sprt.as_ref();
        match self.progress {
            Progress::Quiet => {}
            Progress::Lines => eprintln!(
                "[{played}{of}] {} vs {}: {} {{{}}}",
                record.white,
                record.black,
                record.result,
                record.reason()
            ),
            Progress::Bar => {
                if let Some(bar) = &self.bar {
                    bar.set_message(crate::report::progress_line(&self.result, sprt));
                    bar.set_position(played);
                }
            }
        }
        if self.config.rating_interval > 0
            && played.is_multiple_of(self.config.rating_interval as u64)
        {
            // Not `println!`, which panics on a closed pipe.
            let print = || {
                let _ = writeln!(
                    std::io::stdout(),
                    "{}",
                    crate::report::text(&self.result, sprt)
                );
            };
            match &self.bar {
                Some(bar) => bar.suspend(print),
                None => print(),
            }
        }
    }
}
