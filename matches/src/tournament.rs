//! The match: worker threads that each own a pair of engine processes and
//! play whole game pairs (one opening, colours swapped), and the main
//! thread that collects the results, writes the PGN, shows progress, runs
//! the SPRT and decides when to stop.
//!
//! This file sets a match up (the openings, the resumed games, the output
//! files) and runs it ([`run`], [`run_observed`]); the two sides of a
//! running match are files of their own below it:
//! - `worker`: the worker threads, which play the games;
//! - `collector`: the main thread's side, which counts them.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::BufWriter;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use shakmaty::Color;

use crate::cli::MatchConfig;
use crate::game::GameRecord;
use crate::openings::{self, Opening};
use crate::resume::{self, Resumed};
use crate::stats::{Pairs, Trinomial, Wdl};
use crate::uci_engine::UciLog;

mod collector;
mod worker;

use collector::{Collector, restore};
use worker::{Shared, spawn_workers};

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

/// What a worker tells the main thread.
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
