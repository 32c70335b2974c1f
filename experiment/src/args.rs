//! The command line of `borrow-experiment` (by clap): its help, its
//! defaults and [`Options`].

use clap::{Args, Parser, Subcommand};

use matches::clock::TimeControl;
use matches::game::{Adjudication, DrawRule, ResignRule};
use std::path::PathBuf;
use std::time::Duration;

/// What `--compare` is told: the two runs' `results.json` and where the
/// comparison goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompareOptions {
    /// The first run's `results.json` (the older, by convention).
    pub old: PathBuf,
    /// The second run's.
    pub new: PathBuf,
    /// The output directory.
    pub out: PathBuf,
}

/// The default engine binary, relative to the workspace root.
pub const DEFAULT_ENGINE: &str = "target/release/borrow";

/// The default baseline method.
pub const DEFAULT_BASELINE: &str = "magic";

/// The opening suite shipped for the experiment.
pub const DEFAULT_OPENINGS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../matches/openings/noob_3moves_3000.epd"
);

/// The default output directory.
pub const DEFAULT_OUT: &str = "experiment-results";

/// What the experiment does, at the head of `--help`.
const ABOUT: &str = "\
borrow-experiment: what each attack method does to the engine's strength.
A method changes only the speed (fixed-node games must be identical), so its
Elo effect is the calibration slope (Elo per doubling of time, from
time-odds matches of the baseline against itself) times log2 of its speed
ratio to the baseline (from interleaved bench runs), each with its error; a
direct match of the slowest method against the fastest checks the
prediction.";

/// The end of `--help`.
const AFTER_HELP: &str = "\
The table goes to stdout, progress to stderr; results.{md,json,svg}, the
state of the run (for --resume) and the PGNs go to --out. Defects: bench
node counts that differ, fixed-node games that differ from the baseline's,
crashes, illegal moves, stalls; time losses are listed as notes (they
depend on the machine's load).

Exit status: 0 when no defect was found, 1 when one was, 2 on a usage or
setup error (also a budget too small for one calibration point), 130 on
Ctrl-C.";

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
    /// Show two runs side by side: their results.json (read as they are;
    /// one without an evaluation shows it as unknown) become
    /// comparison.{md,svg} in --out, the Markdown also on stdout
    #[arg(long, num_args = 2, value_names = ["OLD.json", "NEW.json"], conflicts_with = "run")]
    compare: Option<Vec<PathBuf>>,
    /// Where results.{json,md,svg}, the state and the PGNs go (with
    /// --compare: comparison.{md,svg}) [experiment-results]
    #[arg(long, value_name = "DIR", conflicts_with = "resume")]
    out: Option<PathBuf>,
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
#[group(id = "run", multiple = true)]
struct RunArgs {
    /// The borrow binary [target/release/borrow]; build it first with `cargo
    /// build --release`
    #[arg(long, value_name = "PATH")]
    engine: Option<PathBuf>,
    /// The perft binary for the perft speed column [`perft` beside the
    /// engine, if there]
    #[arg(long, value_name = "PATH")]
    perft: Option<PathBuf>,
    /// The method every other is compared with, and the one of the
    /// calibration [magic]
    #[arg(long, value_name = "NAME")]
    baseline: Option<String>,
    /// Methods (comma-separated) to measure and predict [all]
    #[arg(long, value_name = "LIST|all")]
    methods: Option<String>,
    /// Methods for the fixed-node identity check [all]
    #[arg(long, value_name = "LIST|all")]
    identity_methods: Option<String>,
    /// Hours the whole run may take; the games are planned to fit [2; not
    /// used when --odds-pairs and --direct-pairs are both given, as --quick
    /// does]
    #[arg(long, value_name = "HOURS", value_parser = hours)]
    budget: Option<f64>,
    /// Continue the run in DIR (stopped, to add games with a larger
    /// --budget, or speed runs with a larger --bench-pairs): its options are
    /// the ones it was started with
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// The experiment's time control: calibration and direct check [5+0.05]
    #[arg(long, value_name = "TC", value_parser = |s: &str| s.parse::<TimeControl>())]
    tc: Option<TimeControl>,
    /// A second time control for the calibration, or 'none' [10+0.1]
    #[arg(long, value_name = "TC|none", value_parser = optional_tc)]
    tc2: Option<Tc2>,
    /// Time factors of the calibration (comma-separated) [0.5,0.7,1.4,2]
    #[arg(long, value_name = "LIST", value_parser = factors)]
    factors: Option<Factors>,
    /// Time factors at the second time control [0.5,2: the two that say
    /// the most about the slope per hour]
    #[arg(long, value_name = "LIST", value_parser = factors)]
    factors2: Option<Factors>,
    /// Game pairs per calibration point [planned from --budget]
    #[arg(long, value_name = "N", value_parser = positive)]
    odds_pairs: Option<usize>,
    /// Game pairs of the direct check [planned from --budget]
    #[arg(long, value_name = "N", value_parser = positive)]
    direct_pairs: Option<usize>,
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
    /// Bench (and perft) run pairs per method, each the baseline's run then
    /// the method's [10]; with --resume, a larger N adds runs to those
    /// saved
    #[arg(long, value_name = "N", value_parser = positive)]
    bench_pairs: Option<usize>,
    /// Depth of the perft runs, from the start position [6]
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=9))]
    perft_depth: Option<u32>,
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
    /// Chess960 games (as borrow-match -variant fischerandom); give a 960
    /// suite, e.g. --openings matches/openings/chess960.epd
    #[arg(long)]
    chess960: bool,
    /// A smoke run in minutes: 5 bench pairs at depth 4, perft depth 4, 1
    /// identity pair at 500 nodes, factors 0.5 and 2 at 1+0.01 only, 2
    /// pairs per point and 2 direct pairs (too few for intervals: the
    /// output says so; no --budget), --maxmoves 40 (the options given
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

/// `--tc2`: a time control or none.
#[derive(Clone, Debug)]
struct Tc2(Option<TimeControl>);

fn optional_tc(s: &str) -> Result<Tc2, String> {
    if s.eq_ignore_ascii_case("none") {
        Ok(Tc2(None))
    } else {
        s.parse().map(|tc| Tc2(Some(tc)))
    }
}

/// `--factors`: positive time factors.
#[derive(Clone, Debug)]
struct Factors(Vec<f64>);

fn factors(s: &str) -> Result<Factors, String> {
    let v: Vec<f64> = s
        .split(',')
        .map(|f| {
            f.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x > 0.0 && *x != 1.0)
                .ok_or_else(|| format!("'{f}' is not a time factor (a positive number but 1)"))
        })
        .collect::<Result<_, _>>()?;
    Ok(Factors(v))
}

fn hours(s: &str) -> Result<f64, String> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|h| h.is_finite() && *h > 0.0)
        .ok_or_else(|| format!("'{s}' is not a number of hours above 0"))
}

/// Everything the experiment is told to do.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The engine binary.
    pub engine: PathBuf,
    /// The perft binary (`None`: beside the engine, if there).
    pub perft: Option<PathBuf>,
    /// The baseline method.
    pub baseline: String,
    /// Methods measured and predicted (`None`: all).
    pub methods: Option<Vec<String>>,
    /// Methods of the identity check (`None`: all).
    pub identity_methods: Option<Vec<String>>,
    /// The whole run's budget, in hours.
    pub budget_hours: f64,
    /// Whether this continues the run in `out`.
    pub resume: bool,
    /// The experiment's time control.
    pub tc: TimeControl,
    /// The second time control of the calibration.
    pub tc2: Option<TimeControl>,
    /// The time factors of the calibration.
    pub factors: Vec<f64>,
    /// The time factors at the second time control.
    pub factors2: Vec<f64>,
    /// Game pairs per calibration point (`None`: planned).
    pub odds_pairs: Option<usize>,
    /// Game pairs of the direct check (`None`: planned).
    pub direct_pairs: Option<usize>,
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
    /// Bench and perft run pairs per method.
    pub bench_pairs: usize,
    /// With `--resume`: the bench pairs this invocation asks for, which
    /// raise the run's count (`None`: the run's own).
    pub resume_bench_pairs: Option<usize>,
    /// The depth of the perft runs.
    pub perft_depth: u32,
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
    /// The arguments it was given (kept with the state, for `--resume`).
    pub args: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            engine: PathBuf::from(DEFAULT_ENGINE),
            perft: None,
            baseline: DEFAULT_BASELINE.into(),
            methods: None,
            identity_methods: None,
            budget_hours: 2.0,
            resume: false,
            tc: "5+0.05".parse().expect("a valid time control"),
            tc2: Some("10+0.1".parse().expect("a valid time control")),
            factors: vec![0.5, 0.7, 1.4, 2.0],
            factors2: vec![0.5, 2.0],
            odds_pairs: None,
            direct_pairs: None,
            concurrency: 2,
            timemargin: Duration::ZERO,
            nodes: 2000,
            identity_pairs: 4,
            bench_depth: None,
            bench_pairs: 10,
            resume_bench_pairs: None,
            perft_depth: 6,
            openings: PathBuf::from(DEFAULT_OPENINGS),
            seed: 1,
            maxmoves: None,
            adjudicate: true,
            out: PathBuf::from(DEFAULT_OUT),
            quick: false,
            chess960: false,
            args: Vec::new(),
        }
    }
}

impl Options {
    /// The `--quick` settings.
    pub fn quick() -> Options {
        Options {
            tc: "1+0.01".parse().expect("a valid time control"),
            tc2: None,
            factors: vec![0.5, 2.0],
            odds_pairs: Some(2),
            direct_pairs: Some(2),
            nodes: 500,
            identity_pairs: 1,
            bench_depth: Some(4),
            bench_pairs: 5,
            perft_depth: 4,
            maxmoves: Some(40),
            quick: true,
            ..Options::default()
        }
    }

    /// Whether the budget plans any of the games: not when the pairs per
    /// calibration point and of the direct check are both given (as
    /// `--quick` gives them).
    pub fn budget_used(&self) -> bool {
        self.odds_pairs.is_none() || self.direct_pairs.is_none()
    }

    /// What the plan's pair counts come from, for the plan's line: `budget
    /// 2.00 h`, or the pairs given when the budget plans nothing (as with
    /// `--quick`: no budget is claimed that is not used).
    pub fn plan_basis(&self) -> String {
        if self.budget_used() {
            format!("budget {:.2} h", self.budget_hours)
        } else if self.quick {
            "no budget (--quick's pairs)".into()
        } else {
            "no budget (the pairs given)".into()
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
    /// Show two runs side by side.
    Compare(CompareOptions),
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
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let program = std::ffi::OsString::from("borrow-experiment");
    let cli = Cli::try_parse_from(std::iter::once(program).chain(args.iter().cloned()))?;
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
    if let Some(files) = cli.compare {
        let [old, new] = <[PathBuf; 2]>::try_from(files)
            .unwrap_or_else(|f| unreachable!("clap takes two values: {f:?}"));
        return Ok(Invocation::Compare(CompareOptions {
            old,
            new,
            out: cli.out.unwrap_or_else(|| PathBuf::from(DEFAULT_OUT)),
        }));
    }
    let r = cli.run;
    let mut o = if r.quick {
        Options::quick()
    } else {
        Options::default()
    };
    o.args = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    macro_rules! set {
        ($($field:ident),*) => { $(if let Some(v) = r.$field { o.$field = v.into(); })* };
    }
    set!(
        engine,
        baseline,
        tc,
        concurrency,
        identity_pairs,
        bench_pairs,
        perft_depth,
        openings,
        seed
    );
    if let Some(out) = cli.out {
        o.out = out;
    }
    o.perft = r.perft.or(o.perft);
    o.odds_pairs = r.odds_pairs.or(o.odds_pairs);
    o.direct_pairs = r.direct_pairs.or(o.direct_pairs);
    if let Some(h) = r.budget {
        o.budget_hours = h;
    }
    if let Some(dir) = r.resume {
        o.out = dir;
        o.resume = true;
        o.resume_bench_pairs = r.bench_pairs;
    }
    if let Some(Tc2(tc2)) = r.tc2 {
        o.tc2 = tc2;
    }
    if let Some(Factors(f)) = r.factors {
        o.factors = f;
    }
    if let Some(Factors(f)) = r.factors2 {
        o.factors2 = f;
    }
    o.methods = r.methods.as_deref().and_then(list);
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
        assert_eq!(o.tc2.map(|t| t.to_string()).as_deref(), Some("10+0.1"));
        assert_eq!(
            (o.factors, o.factors2),
            (vec![0.5, 0.7, 1.4, 2.0], vec![0.5, 2.0])
        );
        assert_eq!((o.budget_hours, o.concurrency, o.nodes), (2.0, 2, 2000));
        let o = options(
            "--engine x/borrow --methods od,magic --identity-methods all --tc 10+0.1 \
             --tc2 none --factors 0.5,2 --factors2 0.25,4 --odds-pairs 20 --direct-pairs 30 --budget 3.5 \
             --concurrency 1 --nodes 3000 --identity-pairs 2 --bench-depth 9 \
             --bench-pairs 7 --perft-depth 5 --seed 7 --out r --no-adjudication \
             --maxmoves 100 --timemargin 20 --chess960",
        );
        assert!(o.chess960 && !Options::default().chess960);
        assert_eq!(o.engine, PathBuf::from("x/borrow"));
        assert_eq!(o.methods, Some(vec!["od".into(), "magic".into()]));
        assert_eq!(o.identity_methods, None);
        assert_eq!((o.tc2, o.factors.clone()), (None, vec![0.5, 2.0]));
        assert_eq!(o.factors2, vec![0.25, 4.0]);
        assert_eq!((o.odds_pairs, o.direct_pairs), (Some(20), Some(30)));
        assert_eq!((o.budget_hours, o.concurrency, o.nodes), (3.5, 1, 3000));
        assert_eq!(
            (
                o.identity_pairs,
                o.bench_depth,
                o.bench_pairs,
                o.perft_depth
            ),
            (2, Some(9), 7, 5)
        );
        assert_eq!((o.seed, o.maxmoves), (7, Some(100)));
        assert_eq!(o.timemargin, Duration::from_millis(20));
        assert_eq!(o.args.len(), 42, "{:?}", o.args);
        assert!(!o.adjudicate);
        assert_eq!(
            o.adjudication(),
            Adjudication {
                maxmoves: Some(100),
                ..Adjudication::default()
            }
        );
        assert!(Options::default().adjudication().resign.is_some());
        // --quick sets its defaults wherever it is; options beside it win.
        let q = options("--bench-pairs 6 --quick");
        assert!(q.quick);
        assert_eq!((q.bench_pairs, q.bench_depth, q.nodes), (6, Some(4), 500));
        assert_eq!((q.odds_pairs, q.tc2), (Some(2), None));
        // --quick gives every pair count, so no budget is used or
        // claimed; the budget plans whatever is not given.
        assert!(!q.budget_used());
        assert_eq!(q.plan_basis(), "no budget (--quick's pairs)");
        assert!(!options("--quick --budget 5").budget_used());
        assert_eq!(Options::default().plan_basis(), "budget 2.00 h");
        assert!(options("--odds-pairs 3").budget_used());
        assert!(options("--direct-pairs 3 --budget 1").budget_used());
        let fixed = options("--odds-pairs 3 --direct-pairs 4");
        assert!(!fixed.budget_used());
        assert_eq!(fixed.plan_basis(), "no budget (the pairs given)");
        assert_eq!(options("--methods all").methods, None);
        let r = options("--resume earlier --budget 6");
        assert!(r.resume && r.out == std::path::Path::new("earlier") && r.budget_hours == 6.0);
        let help = parse_args(args("--help")).unwrap_err();
        assert_eq!(help.kind(), clap::error::ErrorKind::DisplayHelp);
        for (bad, why) in [
            ("--odds-pairs 0", "at least 1"),
            ("--odds-pairs", "a value is required"),
            ("--tc x", "time control"),
            ("--tc2 y", "time control"),
            ("--factors 0.5,1", "not a time factor"),
            ("--factors 0.5,-2", "not a time factor"),
            ("--budget 0", "hours above 0"),
            ("--bench-depth 99", "depth"),
            ("--resume a --out b", "cannot be used with"),
            ("--frobnicate", "unexpected argument '--frobnicate'"),
            ("sample-openings --count 3", "--from <FILE>"),
            ("--budget 3 sample-openings", "cannot be used with"),
            ("--compare a.json", "2 values required"),
            ("--compare a b --quick", "cannot be used with"),
            ("--tc 1+0.01 --compare a b", "cannot be used with"),
            ("--compare a b sample-openings", "cannot be used with"),
        ] {
            let e = parse_args(args(bad)).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
        assert_eq!(
            parse_args(args("--compare old.json new.json --out cmp")).unwrap(),
            Invocation::Compare(CompareOptions {
                old: "old.json".into(),
                new: "new.json".into(),
                out: "cmp".into()
            })
        );
        assert_eq!(
            parse_args(args("--compare a b")).unwrap(),
            Invocation::Compare(CompareOptions {
                old: "a".into(),
                new: "b".into(),
                out: DEFAULT_OUT.into()
            })
        );
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
