//! The `perft` command: leaf counts of one position or a whole perft suite,
//! for one attack method or all of them, optionally timed against shakmaty.
//!
//! Exit status: 0 when every count is right, 1 when a count is wrong (or
//! disagrees with shakmaty or between methods), 2 on bad input.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use attacks::{Method, SliderAttacks};
use movegen::{Position, STARTING_FEN};
use perft::{PerftHash, oracle, suite};
use shakmaty::{CastlingMode, Chess, Position as _};

const DEFAULT_DEPTH: u32 = 5;
const DEFAULT_MAX_NODES: u64 = 10_000_000;
const MAX_DEPTH: u32 = 30;
/// As the engine's `Threads` (1 to 256) and `Hash` (at most 65536 MB): the
/// same limits wherever the same thing is set.
use perft::{MAX_HASH_MB, MAX_THREADS};
const BULK_NOTE: &str =
    "leaf moves are bulk-counted: at the last ply the legal moves are counted, not played";

fn help() -> String {
    // The methods of this build, wrapped at 78 columns.
    let mut methods = String::from(" ");
    let mut column = 1;
    for (i, m) in Method::ALL.iter().enumerate() {
        let word = format!("{m}{}", if i + 1 < Method::ALL.len() { "," } else { "" });
        if column + 1 + word.len() > 78 {
            methods.push_str("\n ");
            column = 1;
        }
        methods.push(' ');
        methods.push_str(&word);
        column += 1 + word.len();
    }
    format!(
        "\
perft: count the leaves of the legal move tree with Borrow's move generator

Usage:
  perft [--method NAME|all] [--depth D] [--fen FEN | --epd FILE] [--divide]
        [--threads N] [--hash MB] [--max-nodes N] [--compare] [--chess960]

Options:
  --method NAME|all    attack method (default {default}); 'all' runs every method on
                       the same work and prints nodes/s per method, fastest first
  --depth D            plies to count (default {DEFAULT_DEPTH}); with --epd, check only
                       depths <= D
  --fen FEN            the position (default: the start position); quote it, or give
                       its fields as separate arguments
  --epd FILE           a perft suite, one-line EPD ('FEN ;D1 20 ;D2 400') or shakmaty's
                       block format ('id', 'epd', 'perft D N'), told apart by content,
                       read leniently (bytes that are not UTF-8 are replaced);
                       checks every depth whose expected count is <= --max-nodes, one
                       line per check, and ends with 'N passed, M failed'
  --divide             print 'move: count' for each root move (UCI), then the total
  --chess960           write castling as Chess960's king-takes-rook ('e1h1'); implied
                       by Shredder-FEN castling letters ('HAha') and by castling
                       rights standard chess cannot have (X-FEN's inner rooks, a
                       king off the e file). Counts are the same either way.
  --threads N          share the root moves among N threads (1 to {MAX_THREADS}, default 1)
  --hash MB            a perft transposition table of at most MB megabytes (0 to
                       {MAX_HASH_MB}, default 0: none); 64-bit keys, so a collision
                       could in principle miscount
  --max-nodes N        with --epd, the largest expected count to check (default 1e7);
                       N may be written 10000000, 10_000_000 or 1e7
  --compare            also time shakmaty's perft on the same work (same threads, no
                       table) and print our speed relative to it
  -h, --help           print this help
  -V, --version        print the version

Options take their value as '--opt value' or '--opt=value'.

Methods in this build (short aliases such as 'od', 'hq', 'ref' work too):
{methods}

Leaf moves are bulk-counted: at the last ply the legal moves are counted, not
played. shakmaty's perft (for --compare) counts its last ply the same way.

Exit status: 0 all counts right (also when the reader of the output went
away: 'perft ... | head -1'); 1 a count was wrong or two move generators
disagreed; 2 bad input (options, FEN, file).
",
        default = Method::DEFAULT,
    )
}

// ---------------------------------------------------------------------------
// Errors and argument parsing

/// What stops a run early.
enum CliError {
    /// Bad input: a one-line message, exit status 2.
    Input(String),
    /// Writing the output failed (a closed pipe, say).
    Io(io::Error),
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> CliError {
        CliError::Io(e)
    }
}

fn input<T>(message: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Input(message.into()))
}

#[derive(Debug)]
struct Options {
    methods: Vec<Method>,
    depth: Option<u32>,
    fen: Option<String>,
    epd: Option<String>,
    divide: bool,
    threads: usize,
    hash_mb: usize,
    max_nodes: Option<u64>,
    compare: bool,
    chess960: bool,
}

enum Command {
    Help,
    Version,
    Run(Options),
}

/// A whole number: `10000000`, `10_000_000` or `1e7`.
fn parse_number(option: &str, text: &str) -> Result<u64, String> {
    let bad = || format!("{option}: '{text}' is not a whole number");
    let t = text.trim().replace('_', "");
    if t.is_empty() || t.starts_with('+') || t.starts_with('-') {
        return Err(bad());
    }
    match t.split_once(['e', 'E']) {
        Some((mantissa, exponent)) => {
            let m: u64 = mantissa.parse().map_err(|_| bad())?;
            let e: u32 = exponent.parse().map_err(|_| bad())?;
            10u64
                .checked_pow(e)
                .and_then(|p| m.checked_mul(p))
                .ok_or_else(|| format!("{option}: '{text}' is too large"))
        }
        None => t.parse().map_err(|_| bad()),
    }
}

fn parse_bounded(option: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    let n = parse_number(option, text)?;
    if n < min || n > max {
        return Err(format!(
            "{option}: {n} is out of range ({min} to {max} allowed)"
        ));
    }
    Ok(n)
}

fn parse_args(args: &[String]) -> Result<Command, String> {
    let mut o = Options {
        methods: vec![Method::DEFAULT],
        depth: None,
        fen: None,
        epd: None,
        divide: false,
        threads: 1,
        hash_mb: 0,
        max_nodes: None,
        compare: false,
        chess960: false,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
            _ => (arg, None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            match args.get(i) {
                Some(v) if !v.starts_with("--") => {
                    i += 1;
                    Ok(v.clone())
                }
                _ => Err(format!("{name} needs a value (see --help)")),
            }
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--method" => {
                let v = value()?;
                o.methods = Method::parse_list(&v).map_err(|e| e.to_string())?;
            }
            "--depth" => {
                o.depth = Some(parse_bounded(name, &value()?, 0, MAX_DEPTH.into())? as u32);
            }
            "--fen" => {
                let mut fen = value()?;
                // An unquoted FEN arrives as up to six arguments.
                if inline.is_none() {
                    while fen.split_whitespace().count() < 6
                        && args.get(i).is_some_and(|a| !a.starts_with("--"))
                    {
                        fen.push(' ');
                        fen.push_str(&args[i]);
                        i += 1;
                    }
                }
                o.fen = Some(fen);
            }
            "--epd" => o.epd = Some(value()?),
            "--divide" => o.divide = true,
            "--threads" => {
                o.threads = parse_bounded(name, &value()?, 1, MAX_THREADS as u64)? as usize;
            }
            "--hash" => {
                o.hash_mb = parse_bounded(name, &value()?, 0, MAX_HASH_MB as u64)? as usize;
            }
            "--max-nodes" => o.max_nodes = Some(parse_number(name, &value()?)?),
            "--compare" => o.compare = true,
            "--chess960" => o.chess960 = true,
            _ if name.starts_with('-') && name != "-" => {
                return Err(format!("unknown option '{arg}' (see --help)"));
            }
            _ => return Err(format!("unexpected argument '{arg}' (see --help)")),
        }
        if inline.is_some() && matches!(name, "--divide" | "--compare" | "--chess960" | "--help") {
            return Err(format!("{name} takes no value"));
        }
    }
    if o.fen.is_some() && o.epd.is_some() {
        return Err("give --fen or --epd, not both".into());
    }
    if o.epd.is_some() && o.divide {
        return Err("--divide needs a single position (--fen), not --epd".into());
    }
    if o.epd.is_none() && o.max_nodes.is_some() {
        return Err("--max-nodes applies to --epd only".into());
    }
    if o.divide && o.methods.len() > 1 {
        return Err("--divide takes one method, not 'all'".into());
    }
    Ok(Command::Run(o))
}

// ---------------------------------------------------------------------------
// Progress on stderr, only when it is a terminal and the run is long

struct Progress {
    enabled: bool,
    start: Instant,
    last: Option<Instant>,
    context: String,
}

impl Progress {
    fn new() -> Progress {
        Progress {
            enabled: io::stderr().is_terminal(),
            start: Instant::now(),
            last: None,
            context: String::new(),
        }
    }

    fn tick(&mut self, done: usize, total: usize) {
        let now = Instant::now();
        if now - self.start < Duration::from_secs(1)
            || self
                .last
                .is_some_and(|l| now - l < Duration::from_millis(200))
        {
            return;
        }
        self.last = Some(now);
        let mut err = io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[2K{} {done}/{total} root moves, {:.0}s",
            self.context,
            (now - self.start).as_secs_f64()
        );
        let _ = err.flush();
    }

    /// What `perft::split_root` calls as root moves finish: a tick when
    /// progress is shown, nothing (and no polling) otherwise.
    fn callback(&mut self) -> Option<impl FnMut(usize, usize) + '_> {
        self.enabled
            .then_some(move |done, total| self.tick(done, total))
    }

    fn clear(&mut self) {
        if self.last.take().is_some() {
            let mut err = io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }
}

// ---------------------------------------------------------------------------
// Counting

/// A timed count: the total and the count below each root move (UCI).
struct Run {
    nodes: u64,
    time: Duration,
    moves: Vec<(String, u64)>,
}

impl Run {
    fn nps(&self) -> f64 {
        nps(self.nodes, self.time)
    }
}

fn nps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9)
}

/// Why the position cannot be counted, if it cannot: the FEN reader refuses
/// it (bad syntax, or an illegal position, too much material included).
fn refusal(fen: &str) -> Option<String> {
    Position::<attacks::Reference>::from_fen(fen)
        .err()
        .map(|e| e.to_string())
}

fn run_ours<A: SliderAttacks>(
    fen: &str,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    chess960: bool,
    progress: &mut Progress,
) -> Result<Run, CliError> {
    let pos = Position::<A>::from_fen(fen).map_err(|e| CliError::Input(e.to_string()))?;
    let start = Instant::now();
    if depth == 0 {
        return Ok(Run {
            nodes: 1,
            time: start.elapsed(),
            moves: Vec::new(),
        });
    }
    let moves = pos.legal_moves();
    let children: Vec<Position<A>> = moves
        .iter()
        .map(|&m| {
            let mut child = pos;
            child.play_unchecked(m);
            child
        })
        .collect();
    let (counts, end) = perft::split_root(
        &children,
        |c| match hash {
            Some(h) => perft::perft_hashed(c, depth - 1, h),
            None => perft::perft(c, depth - 1),
        },
        threads,
        progress
            .callback()
            .as_mut()
            .map(|f| f as &mut dyn FnMut(usize, usize)),
    );
    Ok(Run {
        nodes: counts.iter().sum(),
        time: end - start,
        moves: moves
            .iter()
            .map(|m| m.uci(chess960).to_string())
            .zip(counts)
            .collect(),
    })
}

fn run_method(
    method: Method,
    fen: &str,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    chess960: bool,
    progress: &mut Progress,
) -> Result<Run, CliError> {
    attacks::dispatch!(method, A => run_ours::<A>(fen, depth, threads, hash, chess960, progress))
}

fn run_shakmaty(
    pos: &Chess,
    depth: u32,
    threads: usize,
    chess960: bool,
    progress: &mut Progress,
) -> Run {
    let start = Instant::now();
    if depth == 0 {
        return Run {
            nodes: 1,
            time: start.elapsed(),
            moves: Vec::new(),
        };
    }
    let moves = pos.legal_moves();
    let children: Vec<Chess> = moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            child
        })
        .collect();
    let (counts, end) = perft::split_root(
        &children,
        |c| oracle::perft(c, depth - 1),
        threads,
        progress
            .callback()
            .as_mut()
            .map(|f| f as &mut dyn FnMut(usize, usize)),
    );
    Run {
        nodes: counts.iter().sum(),
        time: end - start,
        moves: moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::from_chess960(chess960)).to_string())
            .zip(counts)
            .collect(),
    }
}

fn new_hash(mb: usize) -> Result<Option<PerftHash>, CliError> {
    if mb == 0 {
        return Ok(None);
    }
    match PerftHash::try_new(mb) {
        Some(h) => Ok(Some(h)),
        None => input(format!("--hash {mb}: cannot allocate that much memory")),
    }
}

fn hash_note(mb: usize) -> String {
    if mb == 0 {
        "no hash table".into()
    } else {
        format!("hash table {mb} MB")
    }
}

fn threads_note(threads: usize) -> String {
    if threads == 1 {
        "1 thread".into()
    } else {
        format!("{threads} threads")
    }
}

fn seconds(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// Nodes per second in millions, for tables.
fn mnps(rate: f64) -> String {
    format!("{:.1}", rate / 1e6)
}

// ---------------------------------------------------------------------------
// Speed table (--method all, --compare)

struct Row {
    name: String,
    nodes: u64,
    time: Duration,
}

fn print_table(out: &mut impl Write, rows: &mut [Row], shakmaty: Option<f64>) -> io::Result<()> {
    rows.sort_by(|a, b| nps(b.nodes, b.time).total_cmp(&nps(a.nodes, a.time)));
    let fastest = rows.first().map_or(1.0, |r| nps(r.nodes, r.time));
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(6).max(6);
    write!(
        out,
        "{:<width$}  {:>12}  {:>9}  {:>8}  {:>10}",
        "method", "nodes", "time", "Mnps", "vs fastest"
    )?;
    if shakmaty.is_some() {
        write!(out, "  {:>11}", "vs shakmaty")?;
    }
    writeln!(out)?;
    for r in rows.iter() {
        let rate = nps(r.nodes, r.time);
        write!(
            out,
            "{:<width$}  {:>12}  {:>9}  {:>8}  {:>10.2}",
            r.name,
            r.nodes,
            seconds(r.time),
            mnps(rate),
            rate / fastest
        )?;
        if let Some(s) = shakmaty {
            write!(out, "  {:>11.2}", rate / s)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

const SHAKMATY_ROW: &str = "shakmaty 0.30.1 (oracle)";

// ---------------------------------------------------------------------------
// One position

fn single(o: &Options, out: &mut impl Write) -> Result<bool, CliError> {
    let fen = o.fen.as_deref().unwrap_or(STARTING_FEN).trim();
    let depth = o.depth.unwrap_or(DEFAULT_DEPTH);
    // Read the position once up front so that a bad FEN is reported once.
    if let Some(e) = refusal(fen) {
        // Name the FEN once: some messages quote it already.
        return input(if e.contains(fen) {
            format!("--fen: {e}")
        } else {
            format!("--fen: {e} (in '{fen}')")
        });
    }
    let chess960 = o.chess960
        || Position::<attacks::Magic>::from_fen(fen).is_ok_and(|p| {
            p.is_chess960() || p.castling_notation() == movegen::CastlingNotation::Shredder
        });
    let shakmaty_pos = if o.compare {
        Some(oracle::position(fen).map_err(|e| CliError::Input(format!("--compare: {e}")))?)
    } else {
        None
    };
    let all = o.methods.len() > 1;
    let mut progress = Progress::new();
    // The first table before any output, so that a failed allocation is a
    // clean input error.
    let mut first_hash = Some(new_hash(o.hash_mb)?);

    writeln!(out, "position {fen}")?;
    let what = if all {
        format!("{} methods", o.methods.len())
    } else {
        format!("method {}", o.methods[0])
    };
    writeln!(
        out,
        "perft {depth}, {what}, {}, {}; {BULK_NOTE}",
        threads_note(o.threads),
        hash_note(o.hash_mb)
    )?;

    let mut runs = Vec::new();
    for &m in &o.methods {
        let hash = match first_hash.take() {
            Some(h) => h,
            None => new_hash(o.hash_mb)?,
        };
        progress.context = format!("perft {depth} {m}:");
        let run = run_method(
            m,
            fen,
            depth,
            o.threads,
            hash.as_ref(),
            chess960,
            &mut progress,
        )?;
        runs.push((m, run));
    }
    let shak = shakmaty_pos.as_ref().map(|p| {
        progress.context = format!("perft {depth} shakmaty:");
        run_shakmaty(p, depth, o.threads, chess960, &mut progress)
    });
    progress.clear();

    let mut ok = true;
    let (first_method, first) = &runs[0];
    for (m, r) in &runs[1..] {
        if r.nodes != first.nodes {
            writeln!(
                out,
                "MISMATCH: {m} counts {} but {first_method} counts {}",
                r.nodes, first.nodes
            )?;
            ok = false;
        }
    }
    if let Some(s) = &shak
        && s.nodes != first.nodes
    {
        writeln!(
            out,
            "MISMATCH: shakmaty counts {} but {first_method} counts {}",
            s.nodes, first.nodes
        )?;
        ok = false;
    }

    if o.divide {
        ok &= print_divide(out, first, shak.as_ref())?;
        writeln!(out)?;
    }

    if all {
        let mut rows: Vec<Row> = runs
            .iter()
            .map(|(m, r)| Row {
                name: m.to_string(),
                nodes: r.nodes,
                time: r.time,
            })
            .collect();
        if let Some(s) = &shak {
            rows.push(Row {
                name: SHAKMATY_ROW.into(),
                nodes: s.nodes,
                time: s.time,
            });
        }
        print_table(out, &mut rows, shak.as_ref().map(Run::nps))?;
    }

    // The count, then the speed line (the fastest method's, with 'all').
    let (best_method, best) = runs
        .iter()
        .max_by(|a, b| a.1.nps().total_cmp(&b.1.nps()))
        .unwrap_or(&runs[0]);
    writeln!(out, "{}", first.nodes)?;
    let mut notes = Vec::new();
    if all {
        notes.push(format!("fastest: {best_method}"));
    }
    if let Some(s) = &shak {
        notes.push(format!(
            "shakmaty {:.0} nps in {}, ours {:.2}x its speed",
            s.nps(),
            seconds(s.time),
            best.nps() / s.nps()
        ));
    }
    write!(out, "{} nodes {:.0} nps", best.nodes, best.nps())?;
    if !notes.is_empty() {
        write!(out, " ({})", notes.join("; "))?;
    }
    writeln!(out)?;
    Ok(ok)
}

/// `move: count` lines sorted by move; with shakmaty's run, its count is
/// shown where it differs and moves only one side has are flagged.
fn print_divide(out: &mut impl Write, ours: &Run, shak: Option<&Run>) -> io::Result<bool> {
    let mut names: Vec<&str> = ours.moves.iter().map(|(m, _)| m.as_str()).collect();
    if let Some(s) = shak {
        names.extend(s.moves.iter().map(|(m, _)| m.as_str()));
    }
    names.sort_unstable();
    names.dedup();
    let find = |run: &Run, name: &str| run.moves.iter().find(|(m, _)| m == name).map(|&(_, n)| n);
    let mut ok = true;
    for name in names {
        let a = find(ours, name);
        match a {
            Some(n) => write!(out, "{name}: {n}")?,
            None => write!(out, "{name}: -")?,
        }
        if let Some(s) = shak {
            let b = find(s, name);
            if a != b {
                ok = false;
                match b {
                    Some(n) => write!(out, "  MISMATCH shakmaty {n}")?,
                    None => write!(out, "  MISMATCH shakmaty has no such move")?,
                }
            }
        }
        writeln!(out)?;
    }
    Ok(ok)
}

// ---------------------------------------------------------------------------
// A suite

/// Tells the two suite formats apart: the block format's lines start with
/// `id`, `epd` or `perft`.
fn is_block_format(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .any(|l| {
            let key = l.split_whitespace().next().unwrap_or("");
            matches!(key, "id" | "epd" | "perft")
        })
}

struct Check {
    entry: usize,
    depth: u32,
    expected: u64,
    /// shakmaty's count and time, filled on the first method's pass.
    shakmaty: Option<(u64, Duration)>,
}

fn epd(o: &Options, path: &str, out: &mut impl Write) -> Result<bool, CliError> {
    // Leniently, as every tool of the workspace reads suites and games.
    let text =
        book::read_text(path).map_err(|e| CliError::Input(format!("cannot read '{path}': {e}")))?;
    let source = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy().into_owned());
    let parsed = if is_block_format(&text) {
        suite::parse_blocks(&text, &[])
    } else {
        suite::parse_epd(&text, &source)
    };
    let entries = parsed.map_err(|e| CliError::Input(format!("{path}: {e}")))?;
    if entries.is_empty() {
        return input(format!("{path}: no positions in the file"));
    }
    let max_nodes = o.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let all = o.methods.len() > 1;
    let mut first_hash = Some(new_hash(o.hash_mb)?);

    writeln!(
        out,
        "suite {path}: {}; depths with at most {max_nodes} nodes{}; {}, {}; {BULK_NOTE}",
        book::plural(entries.len(), "position"),
        o.depth
            .map_or(String::new(), |d| format!(" and depth <= {d}")),
        threads_note(o.threads),
        hash_note(o.hash_mb),
    )?;

    // Positions the FEN reader refuses are reported and skipped.
    let mut skipped = 0;
    let mut shakmaty_positions: Vec<Option<Chess>> = Vec::new();
    let mut checks = Vec::new();
    let mut above = 0;
    for (i, e) in entries.iter().enumerate() {
        if let Some(err) = refusal(&e.fen) {
            if err.contains(e.fen.as_str()) {
                writeln!(out, "skip {}: {err}", e.name)?;
            } else {
                writeln!(out, "skip {}: {err} ({})", e.name, e.fen)?;
            }
            skipped += 1;
            shakmaty_positions.push(None);
            continue;
        }
        shakmaty_positions.push(if o.compare {
            oracle::position(&e.fen).ok()
        } else {
            None
        });
        for &(depth, expected) in &e.counts {
            if expected > max_nodes || o.depth.is_some_and(|d| depth > d) {
                above += 1;
                continue;
            }
            checks.push(Check {
                entry: i,
                depth,
                expected,
                shakmaty: None,
            });
        }
    }

    let name_width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let method_width = o.methods.iter().map(|m| m.name().len()).max().unwrap_or(0);
    let count_width = checks
        .iter()
        .map(|c| c.expected.to_string().len())
        .max()
        .unwrap_or(1);
    let mut progress = Progress::new();
    let (mut passed, mut failed) = (0u64, 0u64);
    let mut rows = Vec::new();
    let mut shak_total = (0u64, Duration::ZERO);
    let n_checks = checks.len();

    for (pass, &method) in o.methods.iter().enumerate() {
        let hash = match first_hash.take() {
            Some(h) => h,
            None => new_hash(o.hash_mb)?,
        };
        let (mut nodes, mut time) = (0u64, Duration::ZERO);
        for (k, check) in checks.iter_mut().enumerate() {
            let entry = &entries[check.entry];
            progress.context = format!(
                "[{}/{n_checks}{}] {} depth {}:",
                k + 1,
                if all {
                    format!(" {method}")
                } else {
                    String::new()
                },
                entry.name,
                check.depth
            );
            let run = run_method(
                method,
                &entry.fen,
                check.depth,
                o.threads,
                hash.as_ref(),
                o.chess960,
                &mut progress,
            )?;
            if pass == 0
                && let Some(p) = &shakmaty_positions[check.entry]
            {
                progress.context = format!("[{}/{n_checks} shakmaty] {}:", k + 1, entry.name);
                let s = run_shakmaty(p, check.depth, o.threads, o.chess960, &mut progress);
                shak_total.0 += s.nodes;
                shak_total.1 += s.time;
                check.shakmaty = Some((s.nodes, s.time));
            }
            progress.clear();
            nodes += run.nodes;
            time += run.time;
            let good = run.nodes == check.expected;
            if good {
                passed += 1;
            } else {
                failed += 1;
            }
            let mut line = format!("{:<4}", if good { "ok" } else { "FAIL" });
            if all {
                let _ = write!(line, " {method:<method_width$}");
            }
            let _ = write!(
                line,
                " {:<name_width$} depth {:>2} expected {:>count_width$} got {:>count_width$} {:>8}",
                entry.name,
                check.depth,
                check.expected,
                run.nodes,
                seconds(run.time)
            );
            if o.compare {
                match check.shakmaty {
                    Some((n, t)) => {
                        let _ = write!(
                            line,
                            "  shakmaty {:>8} ours {:.2}x",
                            seconds(t),
                            t.as_secs_f64() / run.time.as_secs_f64().max(1e-9)
                        );
                        if n != check.expected {
                            let _ = write!(line, " (shakmaty counts {n}!)");
                        }
                    }
                    None => line.push_str("  shakmaty n/a (refuses the position)"),
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        rows.push(Row {
            name: method.to_string(),
            nodes,
            time,
        });
    }
    progress.clear();

    let shak_nps = (o.compare && shak_total.0 > 0).then(|| nps(shak_total.0, shak_total.1));
    if all || o.compare {
        writeln!(out)?;
        if let Some(s) = shak_nps {
            rows.push(Row {
                name: SHAKMATY_ROW.into(),
                nodes: shak_total.0,
                time: shak_total.1,
            });
            print_table(out, &mut rows, Some(s))?;
        } else {
            print_table(out, &mut rows, None)?;
        }
    } else if let Some(r) = rows.first() {
        writeln!(
            out,
            "{} nodes {:.0} nps ({})",
            r.nodes,
            nps(r.nodes, r.time),
            seconds(r.time)
        )?;
    }
    if above > 0 {
        writeln!(
            out,
            "{} not run: above --max-nodes {max_nodes}{}",
            book::plural(above, "(position, depth) pair"),
            if o.depth.is_some() { " or --depth" } else { "" }
        )?;
    }
    if skipped > 0 {
        writeln!(
            out,
            "{} skipped: refused by the FEN reader or too much material",
            book::plural(skipped, "position")
        )?;
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    Ok(failed == 0)
}

// ---------------------------------------------------------------------------

fn main() -> ExitCode {
    let mut args = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(a) => {
                eprintln!("perft: argument {a:?} is not valid UTF-8");
                return ExitCode::from(2);
            }
        }
    }
    let options = match parse_args(&args) {
        Ok(Command::Help) => return print_text(&help()),
        Ok(Command::Version) => {
            return print_text(&format!("perft {}\n", env!("CARGO_PKG_VERSION")));
        }
        Ok(Command::Run(o)) => o,
        Err(e) => {
            eprintln!("perft: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let result = match &options.epd {
        Some(path) => epd(&options, path, &mut out),
        None => single(&options, &mut out),
    };
    match result.and_then(|ok| Ok((ok, out.flush()?))) {
        Ok((true, ())) => ExitCode::SUCCESS,
        Ok((false, ())) => ExitCode::FAILURE,
        Err(CliError::Input(e)) => {
            eprintln!("perft: {e}");
            ExitCode::from(2)
        }
        // The reader has what it wanted (`perft ... | head -1`): no count
        // was wrong, so no failure.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(CliError::Io(e)) => {
            eprintln!("perft: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}

/// Prints `text`; a closed pipe is no error.
fn print_text(text: &str) -> ExitCode {
    match io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("perft: cannot write: {e}");
            ExitCode::from(2)
        }
        _ => ExitCode::SUCCESS,
    }
}
