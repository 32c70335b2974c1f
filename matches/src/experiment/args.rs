//! The command line of `borrow-experiment`: its help, its defaults and
//! [`Options`].

use crate::clock::TimeControl;
use crate::game::{Adjudication, DrawRule, ResignRule};
use std::path::PathBuf;
use std::time::Duration;

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
  --chess960               Chess960 games (as borrow-match -variant fischerandom);
                           give a 960 suite, e.g. --openings
                           matches/openings/chess960.epd
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
    /// `--chess960`: Chess960 games (the openings must be 960 positions).
    pub chess960: bool,
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
            chess960: false,
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
            "--chess960" => o.chess960 = true,
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
             --bench-runs 5 --seed 7 --out r --no-adjudication --maxmoves 100 --timemargin 20 \
             --chess960",
        );
        assert!(o.chess960 && !Options::default().chess960);
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
}
