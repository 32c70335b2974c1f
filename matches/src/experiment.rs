//! The attack-method experiment behind `borrow-experiment`: does the choice
//! of sliding-attack method change the engine's strength, and only through
//! its speed?
//!
//! With one `borrow` binary and its `AttackMethod` option, for each method:
//!
//! 1. **Speed**: `borrow bench --method M` (a fixed-depth search), run a few
//!    times, methods interleaved; the median nodes per second. The node
//!    count is the same for every method and run, or that is a defect.
//! 2. **Identity**: games at a fixed node count, the method against the
//!    baseline method, from the same openings as the baseline against
//!    itself. The search does not depend on the method, so every game must
//!    be move for move (and score for score) the baseline's game from the
//!    same opening and colour, or that is a defect. The baseline's games are
//!    played twice: the engine must be deterministic for the check to mean
//!    anything.
//! 3. **Strength**: game pairs at a time control, the method against the
//!    baseline, from a balanced opening suite in a seeded random order (the
//!    same openings for every method); Elo and nElo with 95% intervals from
//!    the pentanomial counts.
//!
//! The results are printed as a table and written as JSON, Markdown and an
//! SVG chart ([`output`]) to the output directory. [`model`] holds the
//! calibration model that turns speed ratios into Elo. [`sample_openings`]
//! picks the suite the experiment ships with.

pub mod model;
pub mod output;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::cli::{MatchConfig, OpeningsConfig};
use crate::clock::{Limits, TimeControl};
use crate::engine::{EngineConfig, Info};
use crate::game::{Adjudication, DrawRule, Failure, ResignRule};
use crate::openings::{Format, Order};
use crate::tournament::{self, FinishedGame, MatchResult, Progress, StopReason};

/// The default engine binary, relative to the workspace root.
pub const DEFAULT_ENGINE: &str = "target/release/borrow";

/// The default baseline method.
pub const DEFAULT_BASELINE: &str = "magic";

/// The method left out of the timed matches by default: the slow ray-walking
/// reference (it is still in the speed and identity columns).
pub const SLOW_REFERENCE: &str = "reference";

/// The opening suite shipped for the experiment.
pub const DEFAULT_OPENINGS: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/openings/noob_3moves_3000.epd");

/// The default output directory.
pub const DEFAULT_OUT: &str = "experiment-results";

/// The text of `--help`, with the defaults that come from elsewhere (the
/// bench depth is the engine's [`engine::bench::DEFAULT_DEPTH`]).
pub fn usage() -> String {
    USAGE
        .replace("{bench_depth}", &engine::bench::DEFAULT_DEPTH.to_string())
        .replace("{min_depth}", &engine::bench::DEPTHS.start().to_string())
        .replace("{max_depth}", &engine::bench::DEPTHS.end().to_string())
}

/// The text of `sample-openings --help`.
pub const SAMPLE_USAGE: &str = "\
usage: borrow-experiment sample-openings --from FILE --count N --seed S --out FILE

Picks N positions of the EPD suite FILE with a seeded shuffle (the same S
picks the same positions) and writes their lines, in the order of the
source, to --out. Lines that are blank, comments or not positions the match
referee accepts are never picked. Options take their value as '--opt value'
or '--opt=value'.

Exit status: 0 written; 2 bad options, an unreadable suite, fewer usable
positions than N.
";

/// The text of `--help`; `{bench_depth}` and the depth range are filled in
/// by [`usage`].
const USAGE: &str = "\
borrow-experiment: the attack-method experiment. For each attack method of
one borrow binary: bench speed (nps), games at fixed nodes that must be
identical to the baseline's, and game pairs against the baseline method at a
time control (Elo, nElo).

usage: borrow-experiment [OPTIONS]
       borrow-experiment sample-openings --from FILE --count N --seed S --out FILE
       borrow-experiment sample-openings --help
       borrow-experiment --version

options (defaults in brackets):
  --engine PATH            the borrow binary [target/release/borrow]; build
                           it first with `cargo build --release`
  --baseline NAME          the method every other plays against [magic]
  --methods LIST|all       methods (comma-separated) for the timed matches
                           [every method the engine offers but the baseline
                           and `reference`]
  --identity-methods LIST|all
                           methods for the fixed-node identity check [all]
  --tc TC                  time control of the timed matches [5+0.05]
  --pairs N                game pairs per method at --tc [100]
  --concurrency N          games at once [2]: no engine ponders, so each game
                           keeps at most one core busy
  --timemargin MS          grace past the clock before a time loss [0]
  --nodes N                node limit of the identity games [2000]
  --identity-pairs N       game pairs per method at --nodes [4]
  --bench-depth D          depth of `borrow bench`, {min_depth} to {max_depth} [the engine's
                           default, {bench_depth}]
  --bench-runs N           bench runs per method, interleaved [5]
  --openings FILE          EPD or PGN suite [matches/openings/noob_3moves_3000.epd]
  --seed N                 seed of the opening order [1]
  --maxmoves N             adjudicate a draw after N full moves [none]
  --no-adjudication        no draw or resign adjudication in the timed
                           matches [fishtest's: draw from move 34 after 8
                           moves within 20 cp; resign at 600 cp for 3 moves]
  --out DIR                where results.{json,md,svg} and the PGNs go
                           [experiment-results]
  --quick                  a smoke run: 1 pair per method at 1+0.01, 1
                           identity pair at 500 nodes, bench depth 4, 1 bench
                           run, --maxmoves 40 (options after it still apply)
  --help                   this text
  --version                the version

Options take their value as '--opt value' or '--opt=value'.

The table goes to stdout, progress to stderr. Defects: bench node counts
that differ, fixed-node games that differ from the baseline's, crashes,
illegal moves, stalls; time losses are listed as notes (they depend on the
machine's load). The exit status is 0 when no defect was found, 1 when one
was, 2 on a usage or setup error, 130 on Ctrl-C.
";

/// Everything the experiment is told to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The engine binary.
    pub engine: PathBuf,
    /// The baseline method.
    pub baseline: String,
    /// Methods of the timed matches (`None`: the default set).
    pub methods: Option<Vec<String>>,
    /// Methods of the identity check (`None`: all).
    pub identity_methods: Option<Vec<String>>,
    /// The time control of the timed matches.
    pub tc: TimeControl,
    /// Game pairs per method at the time control.
    pub pairs: usize,
    /// Games at once.
    pub concurrency: usize,
    /// Grace past the clock.
    pub timemargin: Duration,
    /// The node limit of the identity games.
    pub nodes: u64,
    /// Game pairs per method at fixed nodes.
    pub identity_pairs: usize,
    /// `borrow bench --depth` (`None`: the engine's default).
    pub bench_depth: Option<u32>,
    /// Bench runs per method.
    pub bench_runs: usize,
    /// The opening suite.
    pub openings: PathBuf,
    /// The seed of the opening order.
    pub seed: u64,
    /// Draw adjudication after this many full moves.
    pub maxmoves: Option<u32>,
    /// Draw and resign adjudication in the timed matches.
    pub adjudicate: bool,
    /// The output directory.
    pub out: PathBuf,
    /// Whether `--quick` was given.
    pub quick: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            engine: PathBuf::from(DEFAULT_ENGINE),
            baseline: DEFAULT_BASELINE.into(),
            methods: None,
            identity_methods: None,
            tc: "5+0.05".parse().expect("a valid time control"),
            pairs: 100,
            concurrency: 2,
            timemargin: Duration::ZERO,
            nodes: 2000,
            identity_pairs: 4,
            bench_depth: None,
            bench_runs: 5,
            openings: PathBuf::from(DEFAULT_OPENINGS),
            seed: 1,
            maxmoves: None,
            adjudicate: true,
            out: PathBuf::from(DEFAULT_OUT),
            quick: false,
        }
    }
}

impl Options {
    /// The `--quick` settings.
    pub fn quick() -> Options {
        Options {
            tc: "1+0.01".parse().expect("a valid time control"),
            pairs: 1,
            nodes: 500,
            identity_pairs: 1,
            bench_depth: Some(4),
            bench_runs: 1,
            maxmoves: Some(40),
            quick: true,
            ..Options::default()
        }
    }

    /// The adjudication rules of the timed matches.
    pub fn adjudication(&self) -> Adjudication {
        let mut a = Adjudication {
            maxmoves: self.maxmoves,
            ..Adjudication::default()
        };
        if self.adjudicate {
            a.draw = Some(DrawRule {
                movenumber: 34,
                movecount: 8,
                score: 20,
            });
            a.resign = Some(ResignRule {
                movecount: 3,
                score: 600,
                twosided: true,
            });
        }
        a
    }
}

/// `sample-openings`: which positions of a suite to ship.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SampleOptions {
    /// The source suite (EPD).
    pub from: PathBuf,
    /// How many positions.
    pub count: usize,
    /// The seed of the choice.
    pub seed: u64,
    /// The output file.
    pub out: PathBuf,
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Invocation {
    /// Run the experiment.
    Run(Box<Options>),
    /// Pick a sample of an opening suite.
    Sample(SampleOptions),
    /// Print the help.
    Help,
    /// Print the help of `sample-openings`.
    SampleHelp,
    /// Print the version.
    Version,
}

/// Splits `--opt=value` into the option and its value.
fn split_equals(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((opt, v)) if opt.starts_with("--") => (opt, Some(v)),
        _ => (arg, None),
    }
}

fn number<T: std::str::FromStr>(opt: &str, v: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("{opt}: '{v}' is not a valid number"))
}

fn positive(opt: &str, v: &str) -> Result<usize, String> {
    let n: usize = number(opt, v)?;
    if n == 0 {
        return Err(format!("{opt} must be at least 1"));
    }
    Ok(n)
}

fn list(v: &str) -> Option<Vec<String>> {
    if v == "all" {
        None
    } else {
        Some(
            v.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect(),
        )
    }
}

/// Parses the arguments (without the program name).
pub fn parse_args(args: &[String]) -> Result<Invocation, String> {
    if args.first().map(String::as_str) == Some("sample-openings") {
        return parse_sample(&args[1..]);
    }
    let mut o = if args.iter().any(|a| a == "--quick") {
        Options::quick()
    } else {
        Options::default()
    };
    let mut all_methods = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (opt, inline) = split_equals(a);
        let mut value = || {
            inline
                .or_else(|| it.next().map(String::as_str))
                .ok_or_else(|| format!("{opt} needs a value (see --help)"))
        };
        match opt {
            "--help" | "-h" | "-help" => return Ok(Invocation::Help),
            "--version" | "-V" => return Ok(Invocation::Version),
            "--quick" => {}
            "--no-adjudication" => o.adjudicate = false,
            "--engine" => o.engine = PathBuf::from(value()?),
            "--baseline" => o.baseline = value()?.to_string(),
            "--methods" => {
                let v = value()?;
                all_methods = v == "all";
                o.methods = list(v);
            }
            "--identity-methods" => o.identity_methods = list(value()?),
            "--tc" => o.tc = value()?.parse()?,
            "--pairs" => o.pairs = positive(opt, value()?)?,
            "--concurrency" => o.concurrency = positive(opt, value()?)?,
            "--timemargin" => o.timemargin = Duration::from_millis(number(opt, value()?)?),
            "--nodes" => o.nodes = positive(opt, value()?)? as u64,
            "--identity-pairs" => o.identity_pairs = positive(opt, value()?)?,
            // The engine's own check of a bench depth.
            "--bench-depth" => {
                o.bench_depth =
                    Some(engine::bench::parse_depth(value()?).map_err(|e| format!("{opt}: {e}"))?);
            }
            "--bench-runs" => o.bench_runs = positive(opt, value()?)?,
            "--openings" => o.openings = PathBuf::from(value()?),
            "--seed" => o.seed = number(opt, value()?)?,
            "--maxmoves" => o.maxmoves = Some(positive(opt, value()?)? as u32),
            "--out" => o.out = PathBuf::from(value()?),
            other => return Err(format!("unknown option '{other}' (see --help)")),
        }
    }
    if all_methods {
        o.methods = Some(vec!["all".into()]);
    }
    Ok(Invocation::Run(Box::new(o)))
}

fn parse_sample(args: &[String]) -> Result<Invocation, String> {
    let (mut from, mut count, mut seed, mut out) = (None, None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let (opt, inline) = split_equals(a);
        if matches!(opt, "--help" | "-h" | "-help") {
            return Ok(Invocation::SampleHelp);
        }
        let v = inline
            .or_else(|| it.next().map(String::as_str))
            .ok_or_else(|| format!("sample-openings: {opt} needs a value"))?;
        match opt {
            "--from" => from = Some(PathBuf::from(v)),
            "--count" => count = Some(positive(opt, v)?),
            "--seed" => seed = Some(number(opt, v)?),
            "--out" => out = Some(PathBuf::from(v)),
            other => {
                return Err(format!(
                    "sample-openings: unknown option '{other}' (see sample-openings --help)"
                ));
            }
        }
    }
    match (from, count, seed, out) {
        (Some(from), Some(count), Some(seed), Some(out)) => Ok(Invocation::Sample(SampleOptions {
            from,
            count,
            seed,
            out,
        })),
        _ => Err("sample-openings needs --from FILE --count N --seed S --out FILE".into()),
    }
}

/// Picks `count` of the positions of an EPD text with a seeded shuffle
/// (the `book` crate's SplitMix64 and Fisher–Yates), and returns their lines
/// verbatim, in the order of the source. Lines that are blank, comments, or
/// not positions the match referee accepts are never picked. Fails if there
/// are fewer usable positions than `count`.
pub fn sample_openings(text: &str, count: usize, seed: u64) -> Result<Vec<&str>, String> {
    let mut usable: Vec<&str> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (o, e) = crate::openings::read(trimmed, Format::Epd, None);
        if o.len() == 1 && e.is_empty() {
            usable.push(line);
        }
    }
    if usable.len() < count {
        return Err(format!(
            "only {} usable positions, {count} asked for",
            usable.len()
        ));
    }
    let mut index: Vec<usize> = (0..usable.len()).collect();
    book::Rng::new(seed).shuffle(&mut index);
    let mut chosen = index[..count].to_vec();
    chosen.sort_unstable();
    Ok(chosen.into_iter().map(|i| usable[i]).collect())
}

/// Runs `sample-openings`.
pub fn run_sample(s: &SampleOptions) -> Result<String, String> {
    let text = book::read_text(&s.from).map_err(|e| format!("{}: {e}", s.from.display()))?;
    let lines = sample_openings(&text, s.count, s.seed)?;
    let mut body = lines.join("\n");
    body.push('\n');
    std::fs::write(&s.out, body).map_err(|e| format!("{}: {e}", s.out.display()))?;
    Ok(format!(
        "{}: {} of {} (seed {})",
        s.out.display(),
        book::plural(lines.len(), "position"),
        s.from.display(),
        s.seed
    ))
}

/// What the engine says about itself in answer to `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: String,
    /// The values of the `AttackMethod` combo option, in its order.
    pub methods: Vec<String>,
    /// Its default.
    pub default_method: String,
}

/// Reads an engine's `uci` answer (up to `uciok`).
pub fn parse_uci_answer(text: &str) -> Result<EngineInfo, String> {
    let mut name = String::new();
    let mut combo = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("id name ") {
            name = n.trim().to_string();
        }
        if line.starts_with("option name AttackMethod ") {
            combo = Some(line.to_string());
        }
        if line == "uciok" {
            break;
        }
    }
    let combo = combo.ok_or("the engine has no AttackMethod option")?;
    let words: Vec<&str> = combo.split_ascii_whitespace().collect();
    let mut methods = Vec::new();
    let mut default_method = String::new();
    for w in words.windows(2) {
        match w[0] {
            "var" => methods.push(w[1].to_string()),
            "default" => default_method = w[1].to_string(),
            _ => {}
        }
    }
    if methods.is_empty() {
        return Err(format!("no methods in '{combo}'"));
    }
    Ok(EngineInfo {
        name,
        methods,
        default_method,
    })
}

/// Asks the engine for its name and attack methods.
pub fn query_engine(engine: &Path) -> Result<EngineInfo, String> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", engine.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let _ = writeln!(stdin, "uci");
    let _ = stdin.flush();
    let mut text = String::new();
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let done = line.trim() == "uciok";
        text.push_str(&line);
        text.push('\n');
        if done {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    parse_uci_answer(&text).map_err(|e| format!("{}: {e}", engine.display()))
}

/// One `borrow bench` run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchRun {
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Reads the last line of `borrow bench`: `<nodes> nodes <nps> nps`.
pub fn parse_bench(stdout: &str) -> Result<BenchRun, String> {
    let last = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("no output")?;
    match last.split_ascii_whitespace().collect::<Vec<_>>()[..] {
        [n, "nodes", s, "nps"] => match (n.parse(), s.parse()) {
            (Ok(nodes), Ok(nps)) => Ok(BenchRun { nodes, nps }),
            _ => Err(format!("unexpected last line '{last}'")),
        },
        _ => Err(format!("unexpected last line '{last}'")),
    }
}

/// Runs `engine bench --method M [--depth D]`.
pub fn bench(engine: &Path, method: &str, depth: Option<u32>) -> Result<BenchRun, String> {
    let mut cmd = Command::new(engine);
    cmd.args(["bench", "--method", method]);
    if let Some(d) = depth {
        cmd.args(["--depth", &d.to_string()]);
    }
    let out = cmd
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{}: {e}", engine.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} bench --method {method}: {} {}",
            engine.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    parse_bench(&String::from_utf8_lossy(&out.stdout))
        .map_err(|e| format!("bench --method {method}: {e}"))
}

/// The median of some numbers (the mean of the middle two for an even
/// count); 0 for none.
pub fn median(values: &[u64]) -> u64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if !n.is_multiple_of(2) => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2,
    }
}

/// One engine move as the identity check compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move (UCI).
    pub uci: String,
    /// What the engine said last about its search.
    pub info: Info,
}

/// A game as the identity check compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The opening's `position` arguments.
    pub opening: String,
    /// The engine moves.
    pub plies: Vec<Ply>,
    /// The result (`1-0`, ...) and how the game ended.
    pub result: String,
}

/// Games by (round, game of the round).
pub type GameLines = BTreeMap<(usize, usize), GameLine>;

fn line_of(g: &FinishedGame<'_>) -> GameLine {
    GameLine {
        opening: g.record.opening.uci_position(),
        plies: g
            .record
            .moves
            .iter()
            .map(|m| Ply {
                uci: m.uci.clone(),
                info: m.info,
            })
            .collect(),
        result: format!("{} {{{}}}", g.record.result.as_str(), g.record.reason()),
    }
}

/// The first difference between two games of the same opening and colours,
/// in words; `None` if they are the same.
pub fn first_difference(expected: &GameLine, got: &GameLine) -> Option<String> {
    if expected.opening != got.opening {
        return Some(format!(
            "different openings: '{}' and '{}'",
            expected.opening, got.opening
        ));
    }
    for (i, (a, b)) in expected.plies.iter().zip(&got.plies).enumerate() {
        if a.uci != b.uci {
            return Some(format!(
                "engine move {} is {} instead of {}",
                i + 1,
                b.uci,
                a.uci
            ));
        }
        if a.info != b.info {
            return Some(format!(
                "engine move {} ({}): search info {:?} instead of {:?}",
                i + 1,
                a.uci,
                b.info,
                a.info
            ));
        }
    }
    if expected.plies.len() != got.plies.len() || expected.result != got.result {
        return Some(format!(
            "{} engine moves, {} instead of {} engine moves, {}",
            got.plies.len(),
            got.result,
            expected.plies.len(),
            expected.result
        ));
    }
    None
}

/// The identity check's verdict on one method.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// Not checked.
    NotChecked,
    /// The baseline: its games were played twice; whether they came out
    /// the same.
    Baseline {
        /// Whether the repeat matched.
        deterministic: bool,
        /// Games per run.
        games: usize,
    },
    /// Compared with the baseline's games.
    Compared {
        /// Games compared.
        games: usize,
        /// How the games that differ differ.
        differences: Vec<String>,
    },
}

impl Identity {
    /// Whether the check passed (`None` if there was none).
    pub fn passed(&self) -> Option<bool> {
        match self {
            Identity::NotChecked => None,
            Identity::Baseline { deterministic, .. } => Some(*deterministic),
            Identity::Compared { differences, .. } => Some(differences.is_empty()),
        }
    }
}

/// Everything measured for one method.
#[derive(Clone, Debug, PartialEq)]
pub struct MethodResult {
    /// The method.
    pub method: String,
    /// Its bench runs, in order.
    pub bench: Vec<BenchRun>,
    /// Its timed match against the baseline (`None`: not played).
    pub timed: Option<MatchResult>,
    /// The identity check.
    pub identity: Identity,
}

impl MethodResult {
    /// The median bench speed.
    pub fn nps(&self) -> u64 {
        median(&self.bench.iter().map(|b| b.nps).collect::<Vec<_>>())
    }

    /// The bench node count (of the first run).
    pub fn bench_nodes(&self) -> Option<u64> {
        self.bench.first().map(|b| b.nodes)
    }
}

/// The whole experiment's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The options it ran with.
    pub options: Options,
    /// The engine's `id name`.
    pub engine_name: String,
    /// The opening suite's usable positions.
    pub openings: usize,
    /// The baseline method.
    pub baseline: String,
    /// One entry per method, in the engine's order.
    pub methods: Vec<MethodResult>,
    /// Everything that should not have happened: bench node counts that
    /// differ, fixed-node games that differ, crashes, illegal moves, stalls.
    pub defects: Vec<String>,
    /// Time losses: possible on a loaded machine at short time controls,
    /// so reported without counting as defects.
    pub notes: Vec<String>,
    /// The date (`YYYY.MM.DD`, UTC).
    pub date: String,
    /// Wall-clock time.
    pub duration: Duration,
    /// Whether Ctrl-C cut it short.
    pub interrupted: bool,
}

impl Report {
    fn add_failures(&mut self, (defects, notes): (Vec<String>, Vec<String>)) {
        self.defects.extend(defects);
        self.notes.extend(notes);
    }

    /// The baseline's entry.
    pub fn baseline(&self) -> Option<&MethodResult> {
        self.methods.iter().find(|m| m.method == self.baseline)
    }
}

/// Why the experiment could not run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError(pub String);

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn resolve(
    asked: &Option<Vec<String>>,
    offered: &[String],
    default: impl Fn(&str) -> bool,
) -> Result<Vec<String>, SetupError> {
    match asked {
        Some(v) if v.len() == 1 && v[0] == "all" => Ok(offered.to_vec()),
        Some(v) => {
            for m in v {
                if !offered.contains(m) {
                    return Err(SetupError(format!(
                        "the engine does not offer the method '{m}' (it offers {})",
                        offered.join(", ")
                    )));
                }
            }
            // In the engine's order.
            Ok(offered.iter().filter(|m| v.contains(m)).cloned().collect())
        }
        None => Ok(offered.iter().filter(|m| default(m)).cloned().collect()),
    }
}

fn engine_config(o: &Options, method: &str, limits: Limits) -> EngineConfig {
    EngineConfig {
        name: method.to_string(),
        cmd: o.engine.to_string_lossy().into_owned(),
        options: vec![
            ("Threads".into(), "1".into()),
            ("Hash".into(), "16".into()),
            ("AttackMethod".into(), method.into()),
        ],
        limits,
        ..EngineConfig::default()
    }
}

/// The match of `method` (first engine) against the baseline.
fn match_config(
    o: &Options,
    method: &str,
    limits: Limits,
    rounds: usize,
    pgn: &Path,
) -> MatchConfig {
    let mut c = MatchConfig::new(
        engine_config(o, method, limits),
        engine_config(o, &o.baseline, limits),
    );
    if method == o.baseline {
        c.engines[1].name = format!("{method}-2");
    }
    c.rounds = Some(rounds);
    c.games = 2;
    c.concurrency = o.concurrency;
    c.openings = Some(OpeningsConfig {
        file: o.openings.clone(),
        format: suite_format(&o.openings),
        order: Order::Random,
        plies: None,
        start: 1,
    });
    c.seed = o.seed;
    c.pgnout = Some(pgn.to_path_buf());
    c.event = format!("borrow-experiment {method} vs {}", o.baseline);
    c
}

/// Plays one match; its result and the games by (round, game).
fn play(
    config: &MatchConfig,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
) -> Result<(MatchResult, GameLines), String> {
    let mut lines = GameLines::new();
    let result = tournament::run_observed(config, interrupted, progress, &mut |g| {
        lines.insert((g.round, g.game), line_of(&g));
    })?;
    if let StopReason::Error(e) = &result.stop {
        return Err(e.clone());
    }
    Ok((result, lines))
}

/// The games lost by failing, in words: crashes, illegal moves and stalls
/// (defects of the engine), then time losses (which depend on the machine's
/// load as much as on the engine: notes).
fn failures_text(r: &MatchResult, who: &str) -> (Vec<String>, Vec<String>) {
    let (mut defects, mut notes) = (Vec::new(), Vec::new());
    for (i, name) in r.names.iter().enumerate() {
        for f in Failure::ALL {
            let n = r.failures_of(i, f);
            if n > 0 {
                let text = format!(
                    "{who}: {name} lost {n} game(s) by {}",
                    f.name().replace('_', " ")
                );
                if f == Failure::TimeLoss {
                    notes.push(text);
                } else {
                    defects.push(text);
                }
            }
        }
    }
    (defects, notes)
}

fn elapsed(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}m{:02}s", s / 60, s % 60)
}

/// The format of a suite file by its name: PGN for `.pgn`, else EPD.
fn suite_format(path: &Path) -> Format {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
    {
        Format::Pgn
    } else {
        Format::Epd
    }
}

/// The experiment under way: its options and the results so far.
struct Runner<'a> {
    o: &'a Options,
    interrupted: &'a dyn Fn() -> bool,
    report: Report,
    pgn_nodes: PathBuf,
    pgn_timed: PathBuf,
}

impl Runner<'_> {
    fn result_of(&mut self, method: &str) -> Option<&mut MethodResult> {
        self.report.methods.iter_mut().find(|m| m.method == method)
    }

    /// Checks the interrupt; true (and noted) if the run must stop.
    fn stopping(&mut self) -> bool {
        if self.report.interrupted || (self.interrupted)() {
            self.report.interrupted = true;
        }
        self.report.interrupted
    }

    /// Phase 1, speed: bench runs with the methods interleaved, and the
    /// node counts compared.
    fn bench(&mut self) {
        let o = self.o;
        let depth = o
            .bench_depth
            .map_or("the engine's default".into(), |d| d.to_string());
        eprintln!(
            "[bench] {} run(s) of each method, depth {depth}",
            o.bench_runs
        );
        for run in 0..o.bench_runs {
            for i in 0..self.report.methods.len() {
                if self.stopping() {
                    return;
                }
                let m = self.report.methods[i].method.clone();
                match bench(&o.engine, &m, o.bench_depth) {
                    Ok(b) => {
                        eprintln!(
                            "[bench {}/{}] {m:<32} {:>10} nodes {:>10} nps",
                            run + 1,
                            o.bench_runs,
                            b.nodes,
                            b.nps
                        );
                        self.report.methods[i].bench.push(b);
                    }
                    Err(e) => self.report.defects.push(format!("bench: {e}")),
                }
            }
        }
        let mut node_counts: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        for m in &self.report.methods {
            for b in &m.bench {
                let v = node_counts.entry(b.nodes).or_default();
                if !v.contains(&m.method) {
                    v.push(m.method.clone());
                }
            }
        }
        if node_counts.len() > 1 {
            let parts: Vec<String> = node_counts
                .iter()
                .map(|(n, ms)| format!("{n} nodes: {}", ms.join(", ")))
                .collect();
            self.report.defects.push(format!(
                "bench node counts differ between methods or runs: {}",
                parts.join("; ")
            ));
        }
    }

    /// The fixed-node match of `method` against the baseline.
    fn nodes_config(&self, method: &str) -> MatchConfig {
        let o = self.o;
        let limits = Limits {
            nodes: Some(o.nodes),
            ..Limits::default()
        };
        let mut c = match_config(o, method, limits, o.identity_pairs, &self.pgn_nodes);
        // Only the rules and --maxmoves end these games: the more moves
        // compared, the better.
        c.adjudication = Adjudication {
            maxmoves: o.maxmoves,
            ..Adjudication::default()
        };
        c
    }

    /// The baseline against itself at fixed nodes, twice: its games, if the
    /// run was not interrupted.
    fn baseline_games(&mut self) -> Result<Option<GameLines>, SetupError> {
        let o = self.o;
        let c = self.nodes_config(&o.baseline);
        let (first, games) = play(&c, self.interrupted, Progress::Quiet).map_err(SetupError)?;
        let (_, again) = play(&c, self.interrupted, Progress::Quiet).map_err(SetupError)?;
        if self.stopping() {
            return Ok(None);
        }
        let label = format!("nodes={}", o.nodes);
        self.report.add_failures(failures_text(&first, &label));
        let mut deterministic = games.len() == again.len();
        for (k, g) in &games {
            if let Some(d) = again.get(k).and_then(|h| first_difference(g, h)) {
                deterministic = false;
                self.report.defects.push(format!(
                    "{label}: {} against itself is not deterministic: opening {} game {}: {d}",
                    o.baseline,
                    k.0 + 1,
                    k.1 + 1
                ));
            }
        }
        let n = games.len();
        if let Some(r) = self.result_of(&o.baseline) {
            r.identity = Identity::Baseline {
                deterministic,
                games: n,
            };
        }
        eprintln!(
            "[identity] {0} vs {0}: {n} games, {1}",
            o.baseline,
            if deterministic {
                "deterministic"
            } else {
                "NOT deterministic"
            }
        );
        Ok(Some(games))
    }

    /// Phase 2, identity: each method's fixed-node games against the
    /// baseline's.
    fn identity(&mut self, methods: &[String]) -> Result<(), SetupError> {
        let o = self.o;
        if methods.is_empty() || self.stopping() {
            return Ok(());
        }
        let others: Vec<&String> = methods.iter().filter(|m| **m != o.baseline).collect();
        eprintln!(
            "[identity] nodes={}: {} pair(s) of {} against itself (twice), then of {} method(s) against it",
            o.nodes,
            o.identity_pairs,
            o.baseline,
            others.len()
        );
        let Some(expected) = self.baseline_games()? else {
            return Ok(());
        };
        let label = format!("nodes={}", o.nodes);
        for m in others {
            if self.stopping() {
                return Ok(());
            }
            let (r, got) = play(&self.nodes_config(m), self.interrupted, Progress::Quiet)
                .map_err(SetupError)?;
            if self.stopping() {
                return Ok(());
            }
            self.report.add_failures(failures_text(&r, &label));
            let mut differences = Vec::new();
            for (k, e) in &expected {
                let colour = if k.1 == 0 { "White" } else { "Black" };
                match got.get(k) {
                    None => differences.push(format!(
                        "opening {}, {m} as {colour}: game missing",
                        k.0 + 1
                    )),
                    Some(g) => {
                        if let Some(d) = first_difference(e, g) {
                            differences.push(format!(
                                "opening {} ({}), {m} as {colour}: {d}",
                                k.0 + 1,
                                e.opening
                            ));
                        }
                    }
                }
            }
            eprintln!(
                "[identity] {m} vs {}: {} games, {}",
                o.baseline,
                got.len(),
                if differences.is_empty() {
                    "identical".to_string()
                } else {
                    format!("{} DIFFERENT", differences.len())
                }
            );
            for d in &differences {
                self.report
                    .defects
                    .push(format!("{label}: not identical: {d}"));
            }
            if let Some(r) = self.result_of(m) {
                r.identity = Identity::Compared {
                    games: got.len(),
                    differences,
                };
            }
        }
        Ok(())
    }

    /// Phase 3, strength: each method's game pairs against the baseline at
    /// the time control, the results written after each match.
    fn timed(
        &mut self,
        methods: &[String],
        progress: Progress,
        write: &mut dyn FnMut(&Report),
        started: Instant,
    ) -> Result<(), SetupError> {
        let o = self.o;
        let limits = Limits {
            tc: Some(o.tc),
            margin: o.timemargin,
            ..Limits::default()
        };
        eprintln!(
            "[timed] tc={}: {} pair(s) of each of {} method(s) against {}, concurrency {}",
            o.tc,
            o.pairs,
            methods.len(),
            o.baseline,
            o.concurrency
        );
        for (k, m) in methods.iter().enumerate() {
            if self.stopping() {
                return Ok(());
            }
            let mut c = match_config(o, m, limits, o.pairs, &self.pgn_timed);
            c.adjudication = o.adjudication();
            let match_started = Instant::now();
            let (r, _) = play(&c, self.interrupted, progress).map_err(SetupError)?;
            if r.stop == StopReason::Interrupted {
                self.report.interrupted = true;
            }
            self.report
                .add_failures(failures_text(&r, &format!("tc={}", o.tc)));
            eprintln!(
                "[timed {}/{}] {} ({})",
                k + 1,
                methods.len(),
                crate::report::progress_line(&r, None),
                elapsed(match_started.elapsed())
            );
            if let Some(res) = self.result_of(m) {
                res.timed = Some(r);
            }
            self.report.duration = started.elapsed();
            write(&self.report);
        }
        Ok(())
    }
}

/// Runs the experiment. `interrupted` is polled (Ctrl-C); progress goes to
/// stderr (`progress` says how the timed games are shown); after each phase
/// and each timed match the results so far are given to `write` (so that an
/// interrupted run leaves them behind).
pub fn run(
    o: &Options,
    interrupted: &dyn Fn() -> bool,
    progress: Progress,
    write: &mut dyn FnMut(&Report),
) -> Result<Report, SetupError> {
    let started = Instant::now();
    if !o.engine.exists() {
        let hint = if o.engine == Path::new(DEFAULT_ENGINE) {
            " (run `cargo build --release` first, from the workspace root)"
        } else {
            ""
        };
        return Err(SetupError(format!(
            "{}: no such engine binary{hint}",
            o.engine.display()
        )));
    }
    let info = query_engine(&o.engine).map_err(SetupError)?;
    if !info.methods.contains(&o.baseline) {
        return Err(SetupError(format!(
            "the engine does not offer the baseline method '{}' (it offers {})",
            o.baseline,
            info.methods.join(", ")
        )));
    }
    let timed = resolve(&o.methods, &info.methods, |m| {
        m != o.baseline && m != SLOW_REFERENCE
    })?;
    let identity = resolve(&o.identity_methods, &info.methods, |_| true)?;
    let (suite, _) =
        crate::openings::load(&o.openings, suite_format(&o.openings), None).map_err(SetupError)?;
    if suite.is_empty() {
        return Err(SetupError(format!(
            "{}: no usable opening",
            o.openings.display()
        )));
    }
    std::fs::create_dir_all(&o.out).map_err(|e| SetupError(format!("{}: {e}", o.out.display())))?;
    let mut runner = Runner {
        o,
        interrupted,
        report: Report {
            options: o.clone(),
            engine_name: info.name.clone(),
            openings: suite.len(),
            baseline: o.baseline.clone(),
            methods: info
                .methods
                .iter()
                .map(|m| MethodResult {
                    method: m.clone(),
                    bench: Vec::new(),
                    timed: None,
                    identity: Identity::NotChecked,
                })
                .collect(),
            defects: Vec::new(),
            notes: Vec::new(),
            date: crate::pgn::today(),
            duration: Duration::ZERO,
            interrupted: false,
        },
        pgn_nodes: o.out.join("fixed-nodes-games.pgn"),
        pgn_timed: o.out.join("timed-games.pgn"),
    };
    for p in [&runner.pgn_nodes, &runner.pgn_timed] {
        let _ = std::fs::remove_file(p);
    }
    eprintln!(
        "borrow-experiment: {} ({}), methods {}; baseline {}",
        o.engine.display(),
        info.name,
        info.methods.join(", "),
        o.baseline
    );
    runner.bench();
    write(&runner.report);
    runner.identity(&identity)?;
    write(&runner.report);
    runner.timed(&timed, progress, write, started)?;
    runner.report.duration = started.elapsed();
    write(&runner.report);
    Ok(runner.report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_ascii_whitespace().map(String::from).collect()
    }

    fn options(s: &str) -> Options {
        match parse_args(&args(s)).unwrap() {
            Invocation::Run(o) => *o,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn command_lines() {
        let o = options("");
        assert_eq!(o, Options::default());
        assert_eq!(o.tc.to_string(), "5+0.05");
        assert_eq!((o.pairs, o.concurrency, o.nodes), (100, 2, 2000));
        let o = options(
            "--engine x/borrow --methods od,magic --identity-methods all --tc 10+0.1 \
             --pairs 20 --concurrency 1 --nodes 3000 --identity-pairs 2 --bench-depth 9 \
             --bench-runs 5 --seed 7 --out r --no-adjudication --maxmoves 100 --timemargin 20",
        );
        assert_eq!(o.engine, PathBuf::from("x/borrow"));
        assert_eq!(o.methods, Some(vec!["od".into(), "magic".into()]));
        assert_eq!(o.identity_methods, None);
        assert_eq!((o.pairs, o.concurrency, o.nodes), (20, 1, 3000));
        assert_eq!(
            (o.identity_pairs, o.bench_depth, o.bench_runs),
            (2, Some(9), 5)
        );
        assert_eq!((o.seed, o.maxmoves), (7, Some(100)));
        assert_eq!(o.timemargin, Duration::from_millis(20));
        assert!(!o.adjudicate);
        assert_eq!(
            o.adjudication(),
            Adjudication {
                maxmoves: Some(100),
                ..Adjudication::default()
            }
        );
        assert!(Options::default().adjudication().resign.is_some());
        // --quick sets its defaults wherever it is; later options win.
        let q = options("--pairs 3 --quick");
        assert!(q.quick);
        assert_eq!((q.pairs, q.bench_depth, q.nodes), (3, Some(4), 500));
        assert_eq!(options("--methods all").methods, Some(vec!["all".into()]));
        assert_eq!(parse_args(&args("--help")).unwrap(), Invocation::Help);
        for (bad, why) in [
            ("--pairs 0", "at least 1"),
            ("--pairs", "needs a value"),
            ("--tc x", "time control"),
            ("--bench-depth 99", "depth"),
            ("--frobnicate", "unknown option"),
            ("sample-openings --count 3", "needs --from"),
        ] {
            let e = parse_args(&args(bad)).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert_eq!(
            parse_args(&args("sample-openings --from a --count 3 --seed 4 --out b")).unwrap(),
            Invocation::Sample(SampleOptions {
                from: "a".into(),
                count: 3,
                seed: 4,
                out: "b".into()
            })
        );
    }

    #[test]
    fn method_lists() {
        let offered: Vec<String> = ["od", "magic", "pext", "reference"]
            .map(String::from)
            .to_vec();
        let default = |m: &str| m != "magic" && m != "reference";
        assert_eq!(resolve(&None, &offered, default).unwrap(), ["od", "pext"]);
        assert_eq!(
            resolve(&Some(vec!["all".into()]), &offered, default).unwrap(),
            offered
        );
        assert_eq!(
            resolve(&Some(vec!["pext".into(), "od".into()]), &offered, default).unwrap(),
            ["od", "pext"]
        );
        let e = resolve(&Some(vec!["nope".into()]), &offered, default).unwrap_err();
        assert!(e.0.contains("'nope'"), "{e}");
    }

    #[test]
    fn uci_answers_and_bench_lines() {
        let answer = "id name Borrow 0.1.0\nid author x\n\
            option name Hash type spin default 16 min 1 max 65536\n\
            option name AttackMethod type combo default pext var obstruction-difference var magic var pext\n\
            uciok\n";
        let info = parse_uci_answer(answer).unwrap();
        assert_eq!(info.name, "Borrow 0.1.0");
        assert_eq!(info.methods, ["obstruction-difference", "magic", "pext"]);
        assert_eq!(info.default_method, "pext");
        assert!(parse_uci_answer("id name X\nuciok\n").is_err());
        assert_eq!(
            parse_bench("position  1 5 nodes x\n591094 nodes 1752927 nps\n\n").unwrap(),
            BenchRun {
                nodes: 591_094,
                nps: 1_752_927
            }
        );
        assert!(parse_bench("").is_err());
        assert!(parse_bench("1 nodes fast nps").is_err());
        assert_eq!(median(&[5, 1, 3]), 3);
        assert_eq!(median(&[4, 1, 3, 2]), 2);
        assert_eq!(median(&[]), 0);
    }

    #[test]
    fn game_differences() {
        let ply = |uci: &str, depth| Ply {
            uci: uci.into(),
            info: Info {
                depth: Some(depth),
                ..Info::default()
            },
        };
        let a = GameLine {
            opening: "startpos".into(),
            plies: vec![ply("e2e4", 5), ply("e7e5", 5)],
            result: "1/2-1/2 {x}".into(),
        };
        assert_eq!(first_difference(&a, &a.clone()), None);
        let mut b = a.clone();
        b.plies[1] = ply("c7c5", 5);
        assert_eq!(
            first_difference(&a, &b).unwrap(),
            "engine move 2 is c7c5 instead of e7e5"
        );
        let mut c = a.clone();
        c.plies[0] = ply("e2e4", 6);
        assert!(first_difference(&a, &c).unwrap().contains("search info"));
        let mut d = a.clone();
        d.plies.pop();
        assert!(
            first_difference(&a, &d)
                .unwrap()
                .starts_with("1 engine moves")
        );
    }

    #[test]
    fn sampling_openings() {
        let text = "\
# comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
not a position

rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
";
        let a = sample_openings(text, 3, 5).unwrap();
        assert_eq!(a, sample_openings(text, 3, 5).unwrap());
        assert_eq!(a.len(), 3);
        // In source order, only positions a game can start from.
        let all = sample_openings(text, 4, 9).unwrap();
        assert_eq!(all.len(), 4);
        assert!(all[0].contains("4P3"));
        assert!(all[3].contains("5N2"));
        let positions: Vec<usize> = a
            .iter()
            .map(|l| all.iter().position(|x| x == l).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]));
        let seeds: std::collections::HashSet<Vec<&str>> = (0..20)
            .map(|s| sample_openings(text, 2, s).unwrap())
            .collect();
        assert!(seeds.len() > 1, "the seed changes the choice");
        assert!(sample_openings(text, 5, 0).unwrap_err().contains("only 4"));
    }
}
