//! The command line of `borrow-experiment` (by clap): its help, its
//! defaults and [`Options`].

use clap::{Args, Parser, Subcommand};

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

/// What the experiment does, at the head of `--help`.
const ABOUT: &str = "\
borrow-experiment: the attack-method experiment. For each attack method of
one borrow binary: bench speed (nps), games at fixed nodes that must be
identical to the baseline's, and game pairs against the baseline method at a
time control (Elo, nElo).";

/// The end of `--help`.
const AFTER_HELP: &str = "\
The table goes to stdout, progress to stderr. Defects: bench node counts
that differ, fixed-node games that differ from the baseline's, crashes,
illegal moves, stalls; time losses are listed as notes (they depend on the
machine's load).

Exit status: 0 when no defect was found, 1 when one was, 2 on a usage or
setup error, 130 on Ctrl-C.";

/// The end of `sample-openings --help`.
const SAMPLE_AFTER_HELP: &str = "\
Exit status: 0 written; 2 bad options, an unreadable suite, fewer usable
positions than N.";

/// The command line, by clap.
#[derive(Parser, Debug)]
#[command(name = "borrow-experiment", version, about = ABOUT, after_help = AFTER_HELP,
          args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
    #[command(flatten)]
    run: RunArgs,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// Pick N positions of the EPD suite --from with a seeded shuffle (the
    /// same S picks the same positions) and write their lines, in the order
    /// of the source, to --out. Lines that are blank, comments or not
    /// positions the match referee accepts are never picked.
    #[command(after_help = SAMPLE_AFTER_HELP)]
    SampleOpenings {
        /// The suite (EPD)
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
        /// How many positions
        #[arg(long, value_name = "N", value_parser = positive)]
        count: usize,
        /// The seed of the choice
        #[arg(long, value_name = "S")]
        seed: u64,
        /// The file to write
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
}

/// The options of a run; `None` takes the default (or `--quick`'s).
#[derive(Args, Debug)]
struct RunArgs {
    /// The borrow binary [target/release/borrow]; build it first with `cargo
    /// build --release`
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// The method every other plays against [magic]
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// Methods (comma-separated) for the timed matches [every method the
    /// engine offers but the baseline and `reference`]
    #[arg(long, value_name = "LIST|all")]
    methods: Option<String>,
    /// Methods for the fixed-node identity check [all]
    #[arg(long, value_name = "LIST|all")]
    identity_methods: Option<String>,
    /// Time control of the timed matches [5+0.05]
    #[arg(long, value_name = "TC", value_parser = |s: &str| s.parse::<TimeControl>())]
    tc: Option<TimeControl>,
    /// Game pairs per method at --tc [100]
    #[arg(long, value_name = "N", value_parser = positive)]
    pairs: Option<usize>,
    /// Games at once [2]: no engine ponders, so each game keeps at most one
    /// core busy
    #[arg(long, value_name = "N", value_parser = positive)]
    concurrency: Option<usize>,
    /// Grace past the clock before a time loss, in milliseconds [0]
    #[arg(long, value_name = "MS")]
    timemargin: Option<u64>,
    /// Node limit of the identity games [2000]
    #[arg(long, value_name = "N", value_parser = positive)]
    nodes: Option<usize>,
    /// Game pairs per method at --nodes [4]
    #[arg(long, value_name = "N", value_parser = positive)]
    identity_pairs: Option<usize>,
    #[arg(long, value_name = "D", help = bench_depth_help(), allow_negative_numbers = true,
          value_parser = engine::bench::parse_depth)]
    bench_depth: Option<u32>,
    /// Bench runs per method, interleaved [5]
    #[arg(long, value_name = "N", value_parser = positive)]
    bench_runs: Option<usize>,
    /// EPD or PGN suite [matches/openings/noob_3moves_3000.epd]
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Seed of the opening order [1]
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Adjudicate a draw after N full moves [none]
    #[arg(long, value_name = "N", value_parser = positive)]
    maxmoves: Option<usize>,
    /// No draw or resign adjudication in the timed matches [fishtest's: draw
    /// from move 34 after 8 moves within 20 cp; resign at 600 cp for 3 moves]
    #[arg(long)]
    no_adjudication: bool,
    /// Where results.{json,md,svg} and the PGNs go [experiment-results]
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Chess960 games (as borrow-match -variant fischerandom); give a 960
    /// suite, e.g. --openings matches/openings/chess960.epd
    #[arg(long)]
    chess960: bool,
    /// A smoke run: 1 pair per method at 1+0.01, 1 identity pair at 500
    /// nodes, bench depth 4, 1 bench run, --maxmoves 40 (the options given
    /// beside it still apply)
    #[arg(long)]
    quick: bool,
}

/// The help of `--bench-depth`, with the engine's range and default.
fn bench_depth_help() -> String {
    format!(
        "Depth of `borrow bench`, {} to {} [the engine's default, {}]",
        engine::bench::DEPTHS.start(),
        engine::bench::DEPTHS.end(),
        engine::bench::DEFAULT_DEPTH
    )
}

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
}

fn positive(v: &str) -> Result<usize, String> {
    let n: usize = v
        .trim()
        .parse()
        .map_err(|_| format!("'{v}' is not a whole number"))?;
    if n == 0 {
        return Err("must be at least 1".into());
    }
    Ok(n)
}

/// A comma-separated list, or `None` for `all`.
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

/// Parses the arguments (without the program name); help and version come
/// back as clap's "errors", which print them and exit 0.
pub fn parse_args<I, T>(args: I) -> Result<Invocation, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let program = std::iter::once(std::ffi::OsString::from("borrow-experiment"));
    let cli = Cli::try_parse_from(program.chain(args.into_iter().map(Into::into)))?;
    if let Some(Sub::SampleOpenings {
        from,
        count,
        seed,
        out,
    }) = cli.command
    {
        return Ok(Invocation::Sample(SampleOptions {
            from,
            count,
            seed,
            out,
        }));
    }
    let r = cli.run;
    let mut o = if r.quick {
        Options::quick()
    } else {
        Options::default()
    };
    macro_rules! set {
        ($($field:ident),*) => { $(if let Some(v) = r.$field { o.$field = v.into(); })* };
    }
    set!(
        engine,
        baseline,
        tc,
        pairs,
        concurrency,
        identity_pairs,
        bench_runs,
        openings,
        seed,
        out
    );
    if let Some(m) = r.methods {
        // `all` is kept as a word: the runner expands it to every method.
        o.methods = Some(list(&m).unwrap_or_else(|| vec!["all".into()]));
    }
    if let Some(m) = r.identity_methods {
        o.identity_methods = list(&m);
    }
    if let Some(ms) = r.timemargin {
        o.timemargin = Duration::from_millis(ms);
    }
    if let Some(n) = r.nodes {
        o.nodes = n as u64;
    }
    if r.bench_depth.is_some() {
        o.bench_depth = r.bench_depth;
    }
    if let Some(m) = r.maxmoves {
        o.maxmoves = Some(u32::try_from(m).unwrap_or(u32::MAX));
    }
    o.adjudicate &= !r.no_adjudication;
    o.chess960 |= r.chess960;
    Ok(Invocation::Run(Box::new(o)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_ascii_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    fn options(s: &str) -> Options {
        match parse_args(args(s)).unwrap() {
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
        let help = parse_args(args("--help")).unwrap_err();
        assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
        for (bad, why) in [
            ("--pairs 0", "at least 1"),
            ("--pairs", "a value is required"),
            ("--tc x", "time control"),
            ("--bench-depth 99", "depth"),
            ("--frobnicate", "unexpected argument '--frobnicate'"),
            ("sample-openings --count 3", "--from <FILE>"),
            ("--pairs 3 sample-openings", "cannot be used with"),
        ] {
            let e = parse_args(args(bad)).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert_eq!(
            parse_args(args("sample-openings --from a --count 3 --seed 4 --out b")).unwrap(),
            Invocation::Sample(SampleOptions {
                from: "a".into(),
                count: 3,
                seed: 4,
                out: "b".into()
            })
        );
    }
}
