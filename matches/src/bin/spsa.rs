//! `borrow-spsa`: tunes an engine's constants by SPSA on this machine,
//! iteration after iteration of game pairs played by `borrow-match`'s
//! runner ([`matches::spsa`] has the method). `borrow-spsa -help` lists
//! the options.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use matches::cli::{self, Command, MatchConfig};
use matches::report;
use matches::spsa::{Schedule, Tuner, parse_params};
use matches::tournament::{self, Progress, StopReason};
use matches::uci_engine::UciEngine;

const USAGE: &str = "\
borrow-spsa: tunes an engine's constants by SPSA (OpenBench's and
fishtest's method) with game pairs played on this machine.

usage: borrow-spsa -engine PATH -params FILE -iterations N -state FILE
                   [-pairs N] [-seed S] [-resume] -- MATCH-OPTIONS

  -engine PATH     the engine; every constant must be one of its UCI options
                   (Borrow: a build with the cargo feature spsa)
  -params FILE     OpenBench's SPSA input, a line per constant:
                   name, int|float, value, min, max, c_end, r_end
                   (`borrow spsa` prints Borrow's)
  -iterations N    the planned iterations (the schedule's N; A = N/10,
                   alpha 0.602, gamma 0.101)
  -pairs N         game pairs per iteration (default 4)
  -seed S          seed of the coin flips and of the opening order
                   (default 1)
  -state FILE      the run, saved after every iteration; FILE.log gets a
                   line per iteration
  -resume          go on with the run in -state (the same -params,
                   -iterations, -pairs and -seed)
  -- MATCH-OPTIONS borrow-match's options for the games, without -engine,
                   -rounds, -games, -repeat, -sprt, -resume, -srand, -json
                   and -jsonout (this tool sets those): a limit for both
                   engines with -each (nodes=25000, tc=8+0.08), options
                   with -each option.NAME=VALUE, -openings (order=random
                   shuffles with -seed), -concurrency, -draw, -resign...

The first engine plays with value + c*flip, the second with value - c*flip;
each iteration moves every value by r * c * (wins - losses) * flip. At the
end (or on Ctrl-C, after the games under way, with the state saved) the
values are printed in the input's form.

Exit status: 0 done; 1 an engine failed mid-run; 2 bad options or setup;
130 Ctrl-C.
";

/// Options this tool sets in every iteration's match.
const OWN_MATCH_OPTIONS: [&str; 9] = [
    "-engine", "-rounds", "-games", "-repeat", "-sprt", "-resume", "-srand", "-json", "-jsonout",
];

struct Args {
    engine: String,
    params: PathBuf,
    iterations: u64,
    pairs: u64,
    seed: u64,
    state: PathBuf,
    resume: bool,
    matches: Vec<String>,
}

enum Parsed {
    Run(Box<Args>),
    Help,
}

fn parse(args: &[String]) -> Result<Parsed, String> {
    let split = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let (own, rest) = args.split_at(split);
    let mut engine = None;
    let mut params = None;
    let mut iterations = None;
    let mut state = None;
    let (mut pairs, mut seed, mut resume) = (4, 1, false);
    let mut it = own.iter();
    while let Some(opt) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |name: &str, text: String| {
            text.parse::<u64>()
                .map_err(|_| format!("{name}: '{text}' is not a whole number"))
        };
        match opt.as_str() {
            "-help" | "--help" | "-h" => return Ok(Parsed::Help),
            "-engine" => engine = Some(value(opt)?),
            "-params" => params = Some(PathBuf::from(value(opt)?)),
            "-iterations" => iterations = Some(number(opt, value(opt)?)?),
            "-pairs" => pairs = number(opt, value(opt)?)?,
            "-seed" => seed = number(opt, value(opt)?)?,
            "-state" => state = Some(PathBuf::from(value(opt)?)),
            "-resume" => resume = true,
            other => return Err(format!("unknown option '{other}' (see -help)")),
        }
    }
    let matches: Vec<String> = rest.iter().skip(1).cloned().collect();
    if let Some(o) = matches
        .iter()
        .find(|a| OWN_MATCH_OPTIONS.contains(&a.as_str()))
    {
        return Err(format!("{o} is borrow-spsa's to set, not a match option"));
    }
    let missing = |name: &str| format!("{name} is missing (see -help)");
    let iterations = iterations.ok_or_else(|| missing("-iterations"))?;
    if iterations == 0 || pairs == 0 {
        return Err("-iterations and -pairs must be at least 1".into());
    }
    Ok(Parsed::Run(Box::new(Args {
        engine: engine.ok_or_else(|| missing("-engine"))?,
        params: params.ok_or_else(|| missing("-params"))?,
        iterations,
        pairs,
        seed,
        state: state.ok_or_else(|| missing("-state"))?,
        resume,
        matches,
    })))
}

/// The games' settings: borrow-match's options with the two engines
/// (`plus` and `minus`, the same program) and the seed put in.
fn match_config(args: &Args) -> Result<MatchConfig, String> {
    let mut words: Vec<String> = [
        "-engine",
        &format!("cmd={}", args.engine),
        "name=plus",
        "-engine",
        &format!("cmd={}", args.engine),
        "name=minus",
    ]
    .map(String::from)
    .to_vec();
    words.extend(args.matches.iter().cloned());
    let mut config = match cli::parse(&words)? {
        Command::Run(c) => *c,
        Command::Help | Command::Version => {
            return Err("-help and -version are not match options here".into());
        }
    };
    config.seed = args.seed;
    config.games = 2;
    config.rounds = Some(args.pairs as usize);
    Ok(config)
}

/// The run to start with: fresh, or the saved one (`-resume`), which must
/// be this plan.
fn start(args: &Args) -> Result<Tuner, String> {
    let text =
        fs::read_to_string(&args.params).map_err(|e| format!("{}: {e}", args.params.display()))?;
    let params = parse_params(&text).map_err(|e| format!("{}: {e}", args.params.display()))?;
    let fresh = Tuner::new(
        params,
        Schedule::new(args.iterations),
        args.seed,
        args.pairs,
    );
    let exists = args.state.exists();
    match (args.resume, exists) {
        (false, true) => Err(format!(
            "{} exists: -resume to go on with it, or choose another -state",
            args.state.display()
        )),
        (true, false) => Err(format!("{}: no run to resume", args.state.display())),
        (false, false) => Ok(fresh),
        (true, true) => {
            let saved = fs::read_to_string(&args.state)
                .map_err(|e| format!("{}: {e}", args.state.display()))
                .and_then(|t| Tuner::from_text(&t))
                .map_err(|e| format!("{}: {e}", args.state.display()))?;
            fresh
                .same_plan(&saved)
                .map_err(|e| format!("-resume: {e} from {}", args.state.display()))?;
            Ok(saved)
        }
    }
}

/// Every constant must be an option of the engine, or the games would
/// tune nothing.
fn check_engine(config: &MatchConfig, tuner: &Tuner) -> Result<(), String> {
    let mut probe = config.engines[0].clone();
    probe.options.extend(
        tuner
            .params
            .iter()
            .map(|p| (p.name.clone(), p.uci_value(p.value))),
    );
    let engine = UciEngine::start(
        &probe,
        Duration::from_secs(10),
        config.stall_timeout.max(Duration::from_secs(5)),
        Arc::new(AtomicBool::new(false)),
        None,
    )
    .map_err(|e| format!("{}: {e}", probe.cmd))?;
    let missing = engine.undeclared(&probe);
    if !missing.is_empty() {
        return Err(format!(
            "{} has no option {} (for Borrow, build with --features spsa)",
            probe.cmd,
            missing.join(", ")
        ));
    }
    let refused = engine.refused_values(&probe);
    if !refused.is_empty() {
        return Err(format!("{}: {}", probe.cmd, refused.join("; ")));
    }
    Ok(())
}

/// Writes the run, through a temporary file so a stop never leaves half a
/// state.
fn save(path: &Path, tuner: &Tuner) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, tuner.to_text())
        .and_then(|()| fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

fn log_path(state: &Path) -> PathBuf {
    let mut name = state.as_os_str().to_owned();
    name.push(".log");
    PathBuf::from(name)
}

/// A failure after games were played: said, and exit status 1 (the state
/// holds every finished iteration).
fn failed(why: &str) -> ExitCode {
    eprintln!("borrow-spsa: {why}");
    ExitCode::FAILURE
}

/// Plays the iterations; `Err` is a setup error, found before any game.
fn run(args: &Args) -> Result<ExitCode, String> {
    let base = match_config(args)?;
    let mut tuner = start(args)?;
    check_engine(&base, &tuner)?;
    let openings = tournament::load_openings(&base)?.len();
    let mut log = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log_path(&args.state))
        .map_err(|e| format!("{}: {e}", log_path(&args.state).display()))?;
    let started = Instant::now();
    let first = tuner.done;
    eprintln!(
        "borrow-spsa: {} constants, iteration {} of {}, {} pairs each",
        tuner.params.len(),
        tuner.done + 1,
        tuner.schedule.iterations,
        tuner.pairs_per
    );
    while !tuner.finished() {
        let probe = tuner.probe();
        let mut config = base.clone();
        for (i, p) in tuner.params.iter().enumerate() {
            let plus = (p.name.clone(), p.uci_value(probe.plus[i]));
            let minus = (p.name.clone(), p.uci_value(probe.minus[i]));
            config.engines[0].options.push(plus);
            config.engines[1].options.push(minus);
        }
        if let Some(o) = config.openings.as_mut() {
            o.start = ((probe.k - 1) * tuner.pairs_per) as usize % openings + 1;
        }
        let result = match tournament::run(&config, &interrupt::interrupted, Progress::Quiet) {
            Ok(r) => r,
            Err(e) => return Ok(failed(&format!("iteration {}: {e}", probe.k))),
        };
        match result.stop {
            StopReason::Interrupted => {
                eprintln!(
                    "borrow-spsa: stopped; iteration {}'s games are not counted",
                    probe.k
                );
                print!("{}", tuner.openbench_lines());
                return Ok(ExitCode::from(130));
            }
            StopReason::Error(e) => return Ok(failed(&format!("iteration {}: {e}", probe.k))),
            _ => {}
        }
        let failures: u64 = result.failures.iter().flatten().sum();
        if failures > 0 {
            eprintln!(
                "borrow-spsa: warning: iteration {}: {failures} game(s) lost by an engine failing ({})",
                probe.k,
                result
                    .terminations
                    .iter()
                    .map(|(k, n)| format!("{k} {n}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
        let w = &result.wdl;
        tuner.update(&probe, w.wins, w.draws, w.losses);
        if let Err(e) = save(&args.state, &tuner) {
            return Ok(failed(&e));
        }
        let values: Vec<String> = tuner
            .params
            .iter()
            .map(|p| format!("{}={:.3}", p.name, p.value))
            .collect();
        if let Err(e) = writeln!(
            log,
            "{} {} {} {} {}",
            probe.k,
            w.wins,
            w.draws,
            w.losses,
            values.join(" ")
        ) {
            return Ok(failed(&format!("{}: {e}", log_path(&args.state).display())));
        }
        let done = tuner.done - first;
        if done % 10 == 0 || tuner.finished() {
            let per = started.elapsed().as_secs_f64() / done as f64;
            let left = (tuner.schedule.iterations - tuner.done) as f64 * per;
            let [wins, draws, losses] = tuner.wdl;
            eprintln!(
                "borrow-spsa: iteration {}/{}, plus {wins}-{draws}-{losses}, {per:.1} s an iteration, {:.1} h left",
                tuner.done,
                tuner.schedule.iterations,
                left / 3600.0
            );
        }
    }
    print!("{}", tuner.openbench_lines());
    Ok(ExitCode::SUCCESS)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse(&args) {
        Ok(Parsed::Help) => return report::print_stdout("borrow-spsa", USAGE),
        Ok(Parsed::Run(a)) => a,
        Err(e) => {
            eprintln!("borrow-spsa: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = interrupt::install() {
        eprintln!("borrow-spsa: warning: {e}");
    }
    match run(&args) {
        Ok(code) => {
            let _ = std::io::stdout().flush();
            code
        }
        Err(e) => {
            eprintln!("borrow-spsa: {e}");
            ExitCode::from(2)
        }
    }
}
