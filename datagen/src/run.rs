//! A run: games numbered from the seed, played on threads, written in
//! their order, and the state file that lets a stopped run go on.

use std::collections::BTreeMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use movegen::Position;
use rng::Rng;

use crate::game::{self, Game};
use engine::selfplay::{GameSettings, read_starts};
use nnue::data::Format;
use nnue::data::marlinformat::RECORD_SIZE;

use engine::evaluator::Evaluator;
use engine::search::Shared;
use engine::tablebase::{Syzygy, Tables};
use engine::tt::Table;

/// The most random plies `--plies` takes: beyond this an opening is noise.
pub const MAX_PLIES: usize = 100;

/// What `borrow-datagen` is asked to do.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games in all (a resumed run counts the ones already written).
    pub games: u64,
    /// The number of the first game: the output holds games `first_game`
    /// to `first_game + games - 1` of the seed.
    pub first_game: u64,
    /// Nodes per move: the hard cap of a search.
    pub nodes: u64,
    /// A soft node limit: a search finishes the iteration that passes it
    /// and starts no other (`None`: `nodes` alone, a hard limit).
    pub soft_nodes: Option<u64>,
    /// Random legal plies after the start position (or the suite's).
    pub random_plies: usize,
    /// An opening suite (EPD or PGN), played in a seeded random order.
    pub openings: Option<PathBuf>,
    /// The share of games, in percent, that start from a double Chess960
    /// position (each side's back rank drawn apart) in place of the start
    /// position or the suite's; 0 draws nothing, so a seed's games are
    /// those of a run without the option.
    pub dfrc_percent: u64,
    /// Games played at once, one a thread.
    pub threads: usize,
    /// Each thread's hash table, in MB.
    pub hash_mb: usize,
    /// The seed of every random choice.
    pub seed: u64,
    /// How positions are written.
    pub format: Format,
    /// The output file.
    pub out: PathBuf,
    /// Continue the run whose state is beside `out`.
    pub resume: bool,
    /// The static evaluation of the searches.
    pub evaluator: Evaluator,
    /// Syzygy tables (folders as `SyzygyPath` takes them): games end with
    /// their verdict once they cover a position.
    pub syzygy: Option<String>,
}

impl Config {
    /// The defaults: 5,000 nodes, 8 random plies, one thread per core,
    /// 16 MB each, seed 1, viriformat games.
    pub fn new(games: u64, out: PathBuf) -> Config {
        Config {
            games,
            first_game: 0,
            nodes: 5_000,
            soft_nodes: None,
            random_plies: 8,
            openings: None,
            dfrc_percent: 0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hash_mb: 16,
            seed: 1,
            format: Format::Viri,
            out,
            resume: false,
            evaluator: Evaluator::default(),
            syzygy: None,
        }
    }
}

/// Why a run could not start or go on.
#[derive(Debug)]
pub enum DatagenError {
    /// The setup is wrong: a message for the user (exit status 2).
    Setup(String),
    /// Reading or writing a file failed.
    Io(String, io::Error),
    /// Something failed while games were played (the games written are kept).
    Failed(String),
}

impl fmt::Display for DatagenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatagenError::Setup(m) => f.write_str(m),
            DatagenError::Io(what, e) => write!(f, "{what}: {e}"),
            DatagenError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for DatagenError {}

/// Counts so far.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Bytes of the output.
    pub bytes: u64,
    /// Games won by White, drawn, won by Black.
    pub wdl: [u64; 3],
    /// Games without a playable opening (no positions).
    pub skipped: u64,
}

/// What the progress callback is told.
#[derive(Copy, Clone, Debug)]
pub struct Progress {
    /// Counts over the whole output, resumed games included.
    pub tally: Tally,
    /// Games asked for in all.
    pub target: u64,
    /// Positions written in this run.
    pub new_positions: u64,
    /// Time since this run started.
    pub elapsed: Duration,
}

/// The end of a run.
#[derive(Copy, Clone, Debug)]
pub struct Summary {
    /// The last progress.
    pub progress: Progress,
    /// Whether the run stopped before its target (interrupted).
    pub interrupted: bool,
    /// The share of the threads' time spent inside the searches (the rest:
    /// playing the games, adjudication, writing).
    pub search_share: f64,
}

/// The seed of game `g`'s generator.
fn game_seed(seed: u64, g: u64) -> u64 {
    // Through one SplitMix step, so that neighbouring games' streams are
    // unrelated.
    Rng::new(seed ^ g.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
}

/// The state file beside `out`.
pub fn state_path(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".state");
    PathBuf::from(s)
}

/// The settings a resumed run must share with the one it continues, as
/// the state file holds them.
fn settings_text(config: &Config) -> String {
    let openings = config
        .openings
        .as_ref()
        .map_or_else(|| "-".to_owned(), |p| p.display().to_string());
    format!(
        "seed {}\nnodes {}\nplies {}\nhash {}\nopenings {openings}\nformat {}\neval {}\n",
        config.seed,
        config.nodes,
        config.random_plies,
        config.hash_mb,
        config.format,
        config.evaluator.kind().name()
    ) + &config
        .syzygy
        .as_ref()
        .map_or_else(String::new, |path| format!("syzygy {path}\n"))
        // Only when set: a run from game 0 or without a soft limit keeps
        // the state it always had.
        + &config
            .soft_nodes
            .map_or_else(String::new, |n| format!("soft {n}\n"))
        + &match config.first_game {
            0 => String::new(),
            g => format!("first {g}\n"),
        }
        + &match config.dfrc_percent {
            0 => String::new(),
            p => format!("dfrc {p}\n"),
        }
}

/// Game `number`'s start position and the generator of its random choices:
/// the suite's position (the start position without one) or, for
/// `dfrc_percent` of the games, a double Chess960 position.
fn start_of(config: &Config, starts: &[Position], number: u64) -> (Position, Rng) {
    let mut rng = Rng::new(game_seed(config.seed, number));
    let suite = starts[(number % starts.len() as u64) as usize];
    if config.dfrc_percent == 0 || rng.below(100) >= config.dfrc_percent {
        return (suite, rng);
    }
    let count = u64::from(movegen::chess960::COUNT);
    let [white, black] = [rng.below(count), rng.below(count)].map(|n| n as u16);
    let start = Position::double_chess960(white, black)
        .unwrap_or_else(|| unreachable!("both numbers are below 960"));
    (start, rng)
}

fn write_state(config: &Config, tally: &Tally) -> io::Result<()> {
    let path = state_path(&config.out);
    let tmp = {
        let mut s = path.as_os_str().to_owned();
        s.push(".tmp");
        PathBuf::from(s)
    };
    let text = format!(
        "borrow datagen state 1\n{}games {}\npositions {}\nbytes {}\nwhite {}\ndraws {}\nblack {}\nskipped {}\n",
        settings_text(config),
        tally.games,
        tally.positions,
        tally.bytes,
        tally.wdl[0],
        tally.wdl[1],
        tally.wdl[2],
        tally.skipped
    );
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, &path)
}

/// Reads the state of the run `config` resumes, checking that it was made
/// with the same settings.
fn read_state(config: &Config) -> Result<Tally, DatagenError> {
    let path = state_path(&config.out);
    let text = std::fs::read_to_string(&path).map_err(|e| {
        DatagenError::Setup(format!(
            "--resume: cannot read {} ({e}); without it the output cannot be continued",
            path.display()
        ))
    })?;
    let bad = |what: &str| {
        DatagenError::Setup(format!(
            "--resume: {} is not a datagen state file ({what})",
            path.display()
        ))
    };
    let mut lines = text.lines();
    if lines.next() != Some("borrow datagen state 1") {
        return Err(bad("first line"));
    }
    let expected = settings_text(config);
    let mut settings = String::new();
    for _ in 0..expected.lines().count() {
        settings.push_str(lines.next().ok_or_else(|| bad("settings"))?);
        settings.push('\n');
    }
    if settings != expected {
        return Err(DatagenError::Setup(format!(
            "--resume: {} was made with other settings:\n{settings}and this run has:\n{expected}\
             give the same seed, nodes, soft nodes, plies, hash, openings, format, eval, syzygy, first game and dfrc",
            config.out.display()
        )));
    }
    let mut number = |name: &str| -> Result<u64, DatagenError> {
        let line = lines.next().ok_or_else(|| bad(name))?;
        line.strip_prefix(name)
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| bad(name))
    };
    Ok(Tally {
        games: number("games")?,
        positions: number("positions")?,
        bytes: number("bytes")?,
        wdl: [number("white")?, number("draws")?, number("black")?],
        skipped: number("skipped")?,
    })
}

/// Opens the output: new, or cut back to what the state file records.
fn open_output(config: &Config) -> Result<(File, Tally), DatagenError> {
    let out = &config.out;
    let io_err = |what: &str| {
        let what = format!("{what} {}", out.display());
        move |e| DatagenError::Io(what, e)
    };
    let exists = out.exists();
    if exists && !config.resume {
        return Err(DatagenError::Setup(format!(
            "{} exists: --resume continues it, or choose another --out",
            out.display()
        )));
    }
    if !exists {
        // The state first: an output is never left without one.
        write_state(config, &Tally::default()).map_err(|e| {
            DatagenError::Io(format!("cannot write {}", state_path(out).display()), e)
        })?;
        let file = File::create(out).map_err(io_err("cannot create"))?;
        return Ok((file, Tally::default()));
    }
    let tally = read_state(config)?;
    if config.format == Format::Binary && tally.bytes != tally.positions * RECORD_SIZE as u64 {
        return Err(DatagenError::Setup(format!(
            "--resume: {} records {} positions in {} bytes, not {} bytes a record: \
             it does not belong to this output",
            state_path(out).display(),
            tally.positions,
            tally.bytes,
            RECORD_SIZE
        )));
    }
    let file = OpenOptions::new()
        .write(true)
        .open(out)
        .map_err(io_err("cannot open"))?;
    let len = file.metadata().map_err(io_err("cannot read"))?.len();
    if len < tally.bytes {
        return Err(DatagenError::Setup(format!(
            "--resume: {} has {len} bytes, fewer than the {} its state records",
            out.display(),
            tally.bytes
        )));
    }
    // Anything past the last whole game (a crash mid-write) goes.
    file.set_len(tally.bytes).map_err(io_err("cannot cut"))?;
    let mut file = file;
    file.seek(SeekFrom::End(0)).map_err(io_err("cannot seek"))?;
    Ok((file, tally))
}

/// What a worker hands over: game `g`, or `None` when it had no playable
/// opening.
type Played = (u64, Option<Game>);

fn worker(
    config: &Config,
    settings: &GameSettings,
    shared: &Shared,
    starts: &[Position],
    next: &AtomicU64,
    stop: &AtomicBool,
    tx: mpsc::Sender<Played>,
) -> (Duration, Duration) {
    let began = Instant::now();
    let mut searching = Duration::ZERO;
    while !stop.load(Ordering::Relaxed) {
        let g = next.fetch_add(1, Ordering::Relaxed);
        if g >= config.games {
            break;
        }
        // The game's number in the seed's sequence.
        let number = config.first_game + g;
        let (start, mut rng) = start_of(config, starts, number);
        let game = game::play(&start, settings, &mut rng, shared, &|| {
            stop.load(Ordering::Relaxed)
        });
        if let Some(g) = &game {
            searching += g.search_time;
        }
        if game.is_none() && stop.load(Ordering::Relaxed) {
            break;
        }
        if tx.send((g, game)).is_err() {
            break;
        }
    }
    (began.elapsed(), searching)
}

/// The settings `run` refuses before it starts.
fn check(config: &Config) -> Result<(), DatagenError> {
    if config.threads == 0 || config.nodes == 0 {
        return Err(DatagenError::Setup(
            "--threads and --nodes must be at least 1".into(),
        ));
    }
    if let Some(soft) = config.soft_nodes
        && (soft == 0 || soft > config.nodes)
    {
        return Err(DatagenError::Setup(format!(
            "--soft-nodes {soft} must be at least 1 and at most --nodes {} (the hard cap)",
            config.nodes
        )));
    }
    if config.dfrc_percent > 100 {
        return Err(DatagenError::Setup(format!(
            "--dfrc {} is more than 100 percent",
            config.dfrc_percent
        )));
    }
    if config.random_plies > MAX_PLIES {
        return Err(DatagenError::Setup(format!(
            "--plies {} is more than {MAX_PLIES}",
            config.random_plies
        )));
    }
    if nnue::data::marlinformat::is_packed(&config.out) {
        return Err(DatagenError::Setup(format!(
            "--out {}: datagen writes a plain file (it is flushed after every game); \
             pack a finished one with xz",
            config.out.display()
        )));
    }
    if config.first_game.checked_add(config.games).is_none() {
        return Err(DatagenError::Setup(
            "--first-game plus --games is beyond the last game number".into(),
        ));
    }
    if Format::of_path(&config.out) != config.format {
        return Err(DatagenError::Setup(format!(
            "--out {}: the readers tell formats by the file's name; name a {} file {}",
            config.out.display(),
            config.format,
            config.format.naming()
        )));
    }
    if config.random_plies == 0 && config.openings.is_none() {
        return Err(DatagenError::Setup(
            "--plies 0 without --openings plays the same game every time".into(),
        ));
    }
    Ok(())
}

/// The tablebases of `--syzygy`, all of them (no probe limit, the 50-move
/// rule applied); a path with no table is a setup error.
fn open_syzygy(config: &Config) -> Result<Option<Tables>, DatagenError> {
    let Some(path) = &config.syzygy else {
        return Ok(None);
    };
    let (tables, problems) = Syzygy::open(path, u32::MAX, 1, true)
        .map_err(|e| DatagenError::Setup(format!("--syzygy {path}: {e}")))?;
    for p in problems {
        eprintln!("datagen: warning: --syzygy: {p}");
    }
    Ok(Some(std::sync::Arc::new(tables)))
}

/// Every thread's table, before anything is written: a size the machine
/// cannot give is a setup error, not a thread that fails.
fn tables(config: &Config) -> Result<Vec<Table>, DatagenError> {
    (0..config.threads)
        .map(|_| Table::try_new(config.hash_mb))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| {
            DatagenError::Setup(format!(
                "--hash {} MB for each of {} threads: {e}",
                config.hash_mb, config.threads
            ))
        })
}

/// Writes a game (`None`: one without a playable opening, only counted)
/// and then the state that counts it: the tally after it.
fn write_game(
    out: &mut BufWriter<File>,
    config: &Config,
    game: Option<&Game>,
    tally: Tally,
) -> Result<Tally, DatagenError> {
    let mut done = tally;
    match game {
        Some(game) => {
            let (bytes, positions) = game
                .record
                .write_as(out, config.format)
                .and_then(|written| out.flush().map(|()| written))
                .map_err(|e| {
                    DatagenError::Io(format!("cannot write {}", config.out.display()), e)
                })?;
            done.bytes += bytes;
            done.positions += positions;
            done.wdl[(2.0 - 2.0 * game.record.result).round() as usize] += 1;
        }
        None => done.skipped += 1,
    }
    done.games += 1;
    write_state(config, &done).map_err(|e| {
        DatagenError::Io(
            format!("cannot write {}", state_path(&config.out).display()),
            e,
        )
    })?;
    Ok(done)
}

/// Runs `config`: plays the games on its threads and writes them in order,
/// until all are done or `interrupted()` says to stop. `progress` is
/// called after every game written.
pub fn run(
    config: &Config,
    interrupted: &(dyn Fn() -> bool + Sync),
    mut progress: impl FnMut(&Progress),
) -> Result<Summary, DatagenError> {
    check(config)?;
    let starts =
        read_starts(config.openings.as_deref(), config.seed).map_err(DatagenError::Setup)?;
    let settings = GameSettings {
        nodes: config.nodes,
        soft_nodes: config.soft_nodes,
        random_plies: config.random_plies,
        evaluator: config.evaluator.clone(),
        syzygy: open_syzygy(config)?,
    };
    let tables = tables(config)?;
    let (file, mut tally) = open_output(config)?;
    let began = Instant::now();
    let mut out = BufWriter::new(file);
    let next = AtomicU64::new(tally.games);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<Played>();
    let mut new_positions = 0;
    let report = |tally: Tally, new_positions| Progress {
        tally,
        target: config.games,
        new_positions,
        elapsed: began.elapsed(),
    };
    let failed = AtomicBool::new(false);
    let (times, failure) = std::thread::scope(|scope| {
        let handles: Vec<_> = tables
            .into_iter()
            .map(|table| {
                let tx = tx.clone();
                let (starts, next, stop, failed) = (&starts, &next, &stop, &failed);
                let settings = &settings;
                scope.spawn(move || {
                    let shared = Shared::with_table(table);
                    let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        worker(config, settings, &shared, starts, next, stop, tx)
                    }));
                    if played.is_err() {
                        // The panic's message is on stderr already.
                        failed.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                    }
                    played.unwrap_or_default()
                })
            })
            .collect();
        drop(tx);
        // Games that came back early wait here until those before them are in.
        let mut pending = BTreeMap::new();
        let mut failure = None;
        'receive: loop {
            if interrupted() {
                stop.store(true, Ordering::Relaxed);
            }
            if failed.load(Ordering::Relaxed) {
                failure = Some(DatagenError::Failed(
                    "a game thread failed (its message is above); the games written are kept"
                        .into(),
                ));
                break;
            }
            match rx.recv_timeout(Duration::from_millis(100)) {
                Ok((g, game)) => {
                    pending.insert(g, game);
                }
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
            while let Some(game) = pending.remove(&tally.games) {
                let done = match write_game(&mut out, config, game.as_ref(), tally) {
                    Ok(done) => done,
                    Err(e) => {
                        failure = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break 'receive;
                    }
                };
                new_positions += done.positions - tally.positions;
                tally = done;
                progress(&report(tally, new_positions));
            }
        }
        let times: Vec<(Duration, Duration)> = handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect();
        (times, failure)
    });
    if let Some(e) = failure {
        return Err(e);
    }
    let busy: f64 = times.iter().map(|t| t.0.as_secs_f64()).sum();
    let searching: f64 = times.iter().map(|t| t.1.as_secs_f64()).sum();
    Ok(Summary {
        progress: report(tally, new_positions),
        interrupted: tally.games < config.games,
        search_share: if busy > 0.0 { searching / busy } else { 1.0 },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use nnue::data::{marlinformat as format, viriformat};

    fn config(dir: &Path, name: &str, games: u64, threads: usize) -> Config {
        let mut c = Config::new(games, dir.join(name));
        // Above 1,024 nodes: the first stop check of a search (a flag left
        // set by the last search would show here).
        c.nodes = 1_500;
        c.threads = threads;
        c.hash_mb = 1;
        c.seed = 5;
        c.format = Format::of_path(&c.out);
        c
    }

    fn tmp(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("borrow-datagen-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_output_is_the_same_for_any_thread_count_and_resumes_where_it_stopped() {
        let dir = tmp("same");
        let one = config(&dir, "one.vf", 4, 1);
        let two = config(&dir, "two.vf", 4, 2);
        let s1 = run(&one, &|| false, |_| {}).unwrap();
        let s2 = run(&two, &|| false, |_| {}).unwrap();
        let a = std::fs::read(&one.out).unwrap();
        // (assert! rather than assert_eq!: a failure would print every byte)
        assert!(
            a == std::fs::read(&two.out).unwrap(),
            "1 and 2 threads differ"
        );
        assert_eq!(s1.progress.tally, s2.progress.tally);
        assert_eq!(a.len() as u64, s1.progress.tally.bytes);
        assert_eq!(s1.progress.tally.games, 4);
        assert!(!s1.interrupted);

        // Two games, then two more by --resume: the same four games.
        let mut part = config(&dir, "part.vf", 2, 2);
        run(&part, &|| false, |_| {}).unwrap();
        part.games = 4;
        assert!(matches!(
            run(&part, &|| false, |_| {}),
            Err(DatagenError::Setup(_))
        ));
        part.resume = true;
        // A half-written record after the last whole game is cut away.
        let mut f = OpenOptions::new().append(true).open(&part.out).unwrap();
        f.write_all(&[1, 2, 3]).unwrap();
        drop(f);
        let s = run(&part, &|| false, |_| {}).unwrap();
        assert!(
            std::fs::read(&part.out).unwrap() == a,
            "the resumed output differs"
        );
        assert_eq!(s.progress.tally, s1.progress.tally);
        // Other settings are refused.
        part.seed = 6;
        part.games = 5;
        let e = run(&part, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("other settings"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_run_from_a_later_game_writes_what_the_whole_run_writes_after_it() {
        let dir = tmp("first");
        let whole = config(&dir, "whole.vf", 4, 2);
        let head = config(&dir, "head.vf", 2, 1);
        let mut tail = config(&dir, "tail.vf", 2, 2);
        tail.first_game = 2;
        run(&whole, &|| false, |_| {}).unwrap();
        run(&head, &|| false, |_| {}).unwrap();
        let t = run(&tail, &|| false, |_| {}).unwrap();
        assert_eq!(t.progress.tally.games, 2);
        let joined = [
            std::fs::read(&head.out).unwrap(),
            std::fs::read(&tail.out).unwrap(),
        ]
        .concat();
        assert!(
            joined == std::fs::read(&whole.out).unwrap(),
            "games 0-1 and 2-3 are not the four games"
        );
        // The first game is a setting a resumed run must share.
        assert!(settings_text(&tail).ends_with("first 2\n"));
        let mut other = tail.clone();
        (other.first_game, other.games, other.resume) = (3, 3, true);
        let e = run(&other, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("other settings"), "{e}");
        // A packed name is refused: datagen writes plain files.
        let packed = config(&dir, "g.vf.xz", 1, 1);
        let e = run(&packed, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("plain"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_soft_node_limit_is_a_setting_of_its_own() {
        let dir = tmp("soft");
        let hard = config(&dir, "hard.vf", 2, 2);
        let mut soft = config(&dir, "soft.vf", 2, 2);
        soft.soft_nodes = Some(700);
        let h = run(&hard, &|| false, |_| {}).unwrap();
        let s = run(&soft, &|| false, |_| {}).unwrap();
        assert_eq!((h.progress.tally.games, s.progress.tally.games), (2, 2));
        // Searches that end at an iteration's end play other games.
        assert!(
            std::fs::read(&hard.out).unwrap() != std::fs::read(&soft.out).unwrap(),
            "the soft limit changed no game"
        );
        assert!(settings_text(&soft).contains("soft 700\n"));
        assert!(!settings_text(&hard).contains("soft"));
        // A resumed run must keep it.
        let mut other = soft.clone();
        (other.soft_nodes, other.games, other.resume) = (Some(800), 3, true);
        let e = run(&other, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("other settings"), "{e}");
        // Above the hard cap, or zero: refused.
        for bad in [1_501, 0] {
            let mut c = config(&dir, "bad.vf", 1, 1);
            c.soft_nodes = Some(bad);
            let e = run(&c, &|| false, |_| {}).unwrap_err().to_string();
            assert!(e.contains("--soft-nodes"), "{e}");
            assert!(!c.out.exists());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_share_of_the_games_starts_from_double_chess960() {
        let startpos = Position::startpos();
        let starts = [startpos];
        let dir = tmp("dfrc");
        // None asked: every game's start and generator are the plain run's.
        let plain = config(&dir, "plain.vf", 2, 2);
        for number in 0..50 {
            let (start, mut rng) = start_of(&plain, &starts, number);
            assert_eq!(start.key(), startpos.key());
            let mut fresh = Rng::new(game_seed(plain.seed, number));
            assert_eq!(rng.next_u64(), fresh.next_u64());
        }
        // Half: about half the games (400 of them: 200 ± 30 is three
        // standard deviations), each side with a back rank of its own.
        let mut half = plain.clone();
        half.dfrc_percent = 50;
        let (mut dfrc, mut apart) = (0, 0);
        for number in 0..400 {
            let (start, _) = start_of(&half, &starts, number);
            if start.key() != startpos.key() {
                dfrc += 1;
                let fen = start.fen();
                let ranks: Vec<&str> = fen.split(['/', ' ']).collect();
                apart += usize::from(ranks[0].to_ascii_uppercase() != ranks[7]);
            }
        }
        assert!((170..=230).contains(&dfrc), "{dfrc} of 400");
        assert!(apart >= dfrc - 2, "{apart} of {dfrc}");
        // Played and read back: one White ply, so Black's back rank is the
        // drawn one, in every game.
        let mut all = config(&dir, "dfrc.vf", 2, 2);
        all.dfrc_percent = 100;
        all.random_plies = 1;
        let played = run(&all, &|| false, |_| {}).unwrap();
        assert_eq!(played.progress.tally.games, 2);
        let mut backs = Vec::new();
        let n = viriformat::read_games(&std::fs::read(&all.out).unwrap()[..], |game| {
            backs.push(game.start.fen().split('/').next().unwrap().to_owned());
            assert!(game.positions().count() > 0);
        })
        .unwrap();
        assert_eq!(n, 2);
        assert!(backs.iter().all(|b| b != "rnbqkbnr"), "{backs:?}");
        assert!(settings_text(&all).ends_with("dfrc 100\n"));
        assert!(!settings_text(&plain).contains("dfrc"));
        // A resumed run must keep the share; more than 100 is refused.
        let mut other = all.clone();
        (other.dfrc_percent, other.games, other.resume) = (50, 3, true);
        let e = run(&other, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("other settings"), "{e}");
        let mut bad = config(&dir, "bad.vf", 1, 1);
        bad.dfrc_percent = 101;
        let e = run(&bad, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("--dfrc"), "{e}");
        assert!(!bad.out.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_games_hold_every_position_the_record_formats_keep() {
        let dir = tmp("formats");
        let games = config(&dir, "g.vf", 3, 2);
        let records = config(&dir, "r.bin", 3, 2);
        let g = run(&games, &|| false, |_| {}).unwrap();
        let r = run(&records, &|| false, |_| {}).unwrap();
        assert_eq!(g.progress.tally.wdl, r.progress.tally.wdl);
        let mut kept = Vec::new();
        let n = viriformat::read_games(&std::fs::read(&games.out).unwrap()[..], |game| {
            for (pos, best, score) in game.positions() {
                if nnue::data::trainable(&pos, best, score) {
                    kept.push(format::pack(&pos, score, game.result).to_vec());
                }
            }
        })
        .unwrap();
        assert_eq!(n, 3);
        let bytes = std::fs::read(&records.out).unwrap();
        let records: Vec<Vec<u8>> = bytes.chunks(RECORD_SIZE).map(<[u8]>::to_vec).collect();
        assert!(!records.is_empty());
        assert!(kept == records, "the two outputs hold other positions");
        // Every searched ply is in the games, so more than the records.
        assert!(g.progress.tally.positions > r.progress.tally.positions);
        // Four bytes a ply, 36 a game besides.
        assert_eq!(
            g.progress.tally.bytes,
            4 * g.progress.tally.positions + 36 * 3
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_interrupted_run_keeps_whole_games_only() {
        let dir = tmp("stop");
        let mut c = config(&dir, "stop.txt", 50, 2);
        c.format = Format::Text;
        let stop = AtomicBool::new(false);
        let s = run(&c, &|| stop.load(Ordering::Relaxed), |p| {
            stop.store(p.tally.games >= 1, Ordering::Relaxed)
        })
        .unwrap();
        assert!(s.interrupted);
        let text = std::fs::read_to_string(&c.out).unwrap();
        assert_eq!(text.len() as u64, s.progress.tally.bytes);
        assert_eq!(text.lines().count() as u64, s.progress.tally.positions);
        for line in text.lines() {
            format::parse_text(line).unwrap();
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn setups_that_cannot_work_are_refused_before_anything_is_written() {
        let dir = tmp("refused");
        let mut c = config(&dir, "x.bin", 2, 2);
        c.hash_mb = usize::MAX / 4;
        let e = run(&c, &|| false, |_| {}).unwrap_err();
        assert!(matches!(e, DatagenError::Setup(_)), "{e}");
        assert!(e.to_string().contains("--hash"), "{e}");
        let mut c = config(&dir, "x.bin", 2, 2);
        c.random_plies = 0;
        assert!(
            run(&c, &|| false, |_| {})
                .unwrap_err()
                .to_string()
                .contains("--plies 0")
        );
        c.random_plies = MAX_PLIES + 1;
        assert!(
            run(&c, &|| false, |_| {})
                .unwrap_err()
                .to_string()
                .contains("--plies")
        );
        // A name the readers would take for another format.
        let mut c = config(&dir, "x.bin", 2, 2);
        c.format = Format::Viri;
        let e = run(&c, &|| false, |_| {}).unwrap_err().to_string();
        assert!(e.contains("*.vf"), "{e}");
        assert!(!c.out.exists() && !state_path(&c.out).exists());
        // Tablebase folders without a table.
        let mut c = config(&dir, "x.bin", 2, 2);
        c.syzygy = Some(dir.join("no-tables").display().to_string());
        let e = run(&c, &|| false, |_| {}).unwrap_err();
        assert!(matches!(e, DatagenError::Setup(_)), "{e}");
        assert!(e.to_string().contains("--syzygy"), "{e}");
        assert!(!c.out.exists() && !state_path(&c.out).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn tablebases_are_a_setting_a_resumed_run_must_share() {
        let dir = tmp("syzygy-setting");
        let mut c = config(&dir, "x.bin", 2, 2);
        let without = settings_text(&c);
        c.syzygy = Some("/some/tables".into());
        let with = settings_text(&c);
        // A run without tables keeps the state it always had.
        assert!(!without.contains("syzygy"));
        assert_eq!(with, format!("{without}syzygy /some/tables\n"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
