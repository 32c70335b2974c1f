//! The worker threads: each owns a pair of engine processes, takes the
//! next round to play and plays its games (one opening, colours swapped
//! in pairs), sending each game, pair and warning to the main thread.

use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Duration;

use super::{Event, wdl_of};
use crate::cli::MatchConfig;
use crate::game::{self, Seat};
use crate::openings::Opening;
use crate::schedule::first_is_white;
use crate::uci_engine::{EngineConfig, EngineError, UciEngine, UciLog};

/// What the workers share: the match, its openings, the next round to
/// take, and the flag that stops them.
pub(super) struct Shared {
    pub(super) config: MatchConfig,
    pub(super) openings: Vec<Opening>,
    pub(super) next_round: AtomicUsize,
    /// Rounds already played (resumed from the PGN), skipped.
    pub(super) done: HashSet<usize>,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) log: Option<UciLog>,
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

/// Starts the worker threads: `-concurrency` of them, fewer when fewer
/// rounds are left to play. They stop sending when the last one ends.
pub(super) fn spawn_workers(
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
