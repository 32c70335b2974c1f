//! Command-line parsing, fastchess style: single-dash options, each followed
//! by its values (`key=value` pairs or a bare value) up to the next option.

use std::path::PathBuf;
use std::time::Duration;

use crate::game::{Adjudication, DrawRule, ResignRule};
use crate::openings::{Format, Order};
use crate::sprt::{EloModel, Sprt};
use crate::uci_engine::EngineConfig;

/// The text of `-help`.
pub const USAGE: &str = "\
borrow-match: engine-vs-engine matches between two UCI engines.

usage: borrow-match -engine cmd=PATH [name=NAME] [KEY=VALUE...]
                    -engine cmd=PATH [name=NAME] [KEY=VALUE...]
                    [-each KEY=VALUE...] [OPTIONS]

engine keys (-engine, or -each for both engines):
  cmd=PATH            the engine program (-engine only)
  name=NAME           its name in the PGN and the summary (-engine only)
  args=\"A B ...\"      arguments, split at spaces
  dir=PATH            working directory
  tc=[MOVES/]SECS[+INC]  clock: 40/60+0.6, 10+0.1, 1:30+1 (seconds)
  st=SECS             fixed time per move (go movetime); the last of tc= and
                      st= given wins, -engine keys after -each ones
  nodes=N             node limit (go nodes)
  depth=N             depth limit (go depth)
  timemargin=MS       grace past the clock before a time loss (default 0)
  option.NAME=VALUE   a UCI option (setoption name NAME value VALUE)
  proto=uci           the only protocol

match options:
  -rounds N           rounds to play, each from the next opening; default 1,
                      unlimited with -sprt. A match is N x G games (G from
                      -games): -rounds 10 plays 20 games, 10 pairs
  -games G            games per round, 1 or 2 (default 2: a pair, the round's
                      opening played once with each colour)
  -repeat             the same as -games 2, the default, as in fastchess: so
                      -repeat -rounds 2 plays 4 games. (cutechess-cli counts
                      differently: its -rounds 2 -repeat plays 2 games, one
                      pair; here that is -rounds 1)
  -concurrency N      games played at once (default 1)
  -openings file=FILE format=epd|pgn [order=sequential|random] [plies=N]
                      [start=K]   the opening book (default: start position),
                      read by the book crate; start=K plays the K-th opening
                      (of the chosen order, 1..number of openings) first
  -srand SEED         seed for order=random (default: from the clock)
  -variant V          standard (default) or fischerandom (Chess960; also
                      chess960): each engine gets option UCI_Chess960=true
                      and castling is sent as the king taking its rook; use
                      a Chess960 opening file (Shredder- or X-FEN)
  -draw movenumber=N movecount=C score=S
                      adjudicate a draw when both scores stayed within S cp
                      for C moves each, from full move N on
  -resign movecount=C score=S [twosided=true]
                      adjudicate a loss when an engine's score stayed S cp or
                      more below zero for C of its moves
  -maxmoves N         adjudicate a draw after N full moves
  -sprt elo0=E0 elo1=E1 [alpha=0.05] [beta=0.05] [model=normalized|logistic]
                      stop when the SPRT decides
  -pgnout FILE        append the games to FILE (also: -pgnout file=FILE)
  -resume             go on with a stopped match: the -pgnout file's whole
                      rounds count again and the other rounds are played
                      (the same engines, clocks, -openings and -srand; a
                      round with only some of its games is cut from the
                      file and replayed). The time in the summary is this
                      run's.
  -jsonout FILE       write the final summary as JSON to FILE
  -json               print the final summary as JSON on stdout (the text
                      summary then goes to stderr)
  -event NAME         PGN Event tag
  -ratinginterval N   print the summary every N games (default 0: never)
  -stalltimeout MS    how long past its hard time an engine may take to send
                      bestmove (later: a stall, not a time loss), and how long
                      readyok may take (default 2000)
  -log FILE           log all UCI traffic to FILE
  -version            print the version
  -help               print this help

Results, Elo, nElo, LOS and LLR are from the first engine's point of view.
Ctrl-C stops the match: finished games are saved and the summary printed.
Engine options (option.NAME=VALUE) are checked against what each engine
declares: unknown names and values outside a spin's range, not a check's
true/false or not among a combo's values are warned about at the start.

Exit status: 0 the match was played; 1 it stopped on an error after games
were played (an engine could not be restarted, the JSON could not be
written); 2 bad options or setup (an engine that cannot start, an output
file that cannot be written, no usable opening), found before the first
game; 130 Ctrl-C.
";

/// The error for `-resume` without `-pgnout`.
pub const NEEDS_PGNOUT: &str = "-resume needs -pgnout: the games are read back from it";

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningsConfig {
    /// The file.
    pub file: PathBuf,
    /// EPD or PGN.
    pub format: Format,
    /// Sequential or random.
    pub order: Order,
    /// For PGN, the number of plies kept.
    pub plies: Option<usize>,
    /// 1-based index of the first opening.
    pub start: usize,
}

/// A whole match, as the command line describes it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchConfig {
    /// The two engines.
    pub engines: Vec<EngineConfig>,
    /// Rounds (openings); `None`: until the SPRT decides.
    pub rounds: Option<usize>,
    /// Games per round: 1, or 2 for a pair with colours swapped.
    pub games: usize,
    /// Games at once.
    pub concurrency: usize,
    /// The opening book.
    pub openings: Option<OpeningsConfig>,
    /// Seed for the random opening order.
    pub seed: u64,
    /// Adjudication rules.
    pub adjudication: Adjudication,
    /// The SPRT.
    pub sprt: Option<Sprt>,
    /// PGN output.
    pub pgnout: Option<PathBuf>,
    /// Go on from the games already in `pgnout` (`-resume`).
    pub resume: bool,
    /// JSON output file.
    pub jsonout: Option<PathBuf>,
    /// JSON on stdout.
    pub json: bool,
    /// PGN Event tag.
    pub event: String,
    /// Print the summary every this many games (0: never).
    pub rating_interval: usize,
    /// Grace past the hard time, and the `readyok` timeout.
    pub stall_timeout: Duration,
    /// UCI log file.
    pub log: Option<PathBuf>,
    /// Chess960 (`-variant fischerandom`): engines get `UCI_Chess960` and
    /// castling is sent as the king taking its rook.
    pub chess960: bool,
}

impl MatchConfig {
    /// A match of the two engines with the defaults.
    pub fn new(a: EngineConfig, b: EngineConfig) -> MatchConfig {
        MatchConfig {
            engines: vec![a, b],
            rounds: Some(1),
            games: 2,
            concurrency: 1,
            openings: None,
            seed: 0,
            adjudication: Adjudication::default(),
            sprt: None,
            pgnout: None,
            resume: false,
            jsonout: None,
            json: false,
            event: "borrow-match".into(),
            rating_interval: 0,
            stall_timeout: Duration::from_millis(2000),
            chess960: false,
            log: None,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play a match.
    Run(Box<MatchConfig>),
    /// Print the help.
    Help,
    /// Print the version.
    Version,
}

/// The number of `key=v` of option `opt`, or of `opt v` when `key` is the
/// option's own name.
fn num<T: std::str::FromStr>(opt: &str, key: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| {
        if opt.trim_start_matches('-') == key {
            format!("{opt} needs a number, not '{v}'")
        } else {
            format!("{opt}: '{key}' needs a number, not '{v}'")
        }
    })
}

fn pairs<'a>(opt: &str, values: &[&'a str]) -> Result<Vec<(&'a str, &'a str)>, String> {
    values
        .iter()
        .map(|v| {
            v.split_once('=')
                .ok_or_else(|| format!("{opt}: expected KEY=VALUE, found '{v}'"))
        })
        .collect()
}

fn single<'a>(opt: &str, values: &[&'a str]) -> Result<&'a str, String> {
    match values {
        [v] => Ok(v),
        [] => Err(format!("{opt} needs a value")),
        _ => Err(format!("{opt} takes one value, found {}", values.join(" "))),
    }
}

fn bool_value(opt: &str, key: &str, v: &str) -> Result<bool, String> {
    match v {
        "true" | "on" | "1" | "yes" => Ok(true),
        "false" | "off" | "0" | "no" => Ok(false),
        _ => Err(format!("{opt}: '{key}' is true or false, not '{v}'")),
    }
}

fn seconds(opt: &str, key: &str, v: &str) -> Result<Duration, String> {
    let s: f64 = num(opt, key, v)?;
    if !(s.is_finite() && s > 0.0) {
        return Err(format!("{opt}: '{key}' must be positive"));
    }
    Ok(Duration::from_secs_f64(s))
}

/// Applies one engine key (from `-engine` or `-each`).
fn engine_key(opt: &str, e: &mut EngineConfig, key: &str, v: &str) -> Result<(), String> {
    match key {
        "cmd" if opt == "-engine" => e.cmd = v.to_string(),
        "name" if opt == "-engine" => e.name = v.to_string(),
        "args" => e.args = v.split_ascii_whitespace().map(String::from).collect(),
        "dir" => e.dir = Some(PathBuf::from(v)),
        // The last of tc= and st= wins (-engine keys come after -each).
        "tc" => {
            e.limits.tc = Some(v.parse().map_err(|err| format!("{opt}: {err}"))?);
            e.limits.movetime = None;
        }
        "st" => {
            e.limits.movetime = Some(seconds(opt, key, v)?);
            e.limits.tc = None;
        }
        "nodes" => e.limits.nodes = Some(num(opt, key, v)?),
        "depth" => e.limits.depth = Some(num(opt, key, v)?),
        "timemargin" => e.limits.margin = Duration::from_millis(num(opt, key, v)?),
        "proto" if v == "uci" => {}
        "proto" => return Err(format!("{opt}: only proto=uci is supported")),
        k if k.starts_with("option.") && k.len() > 7 => {
            let name = &k[7..];
            e.options.retain(|(n, _)| n != name);
            e.options.push((name.to_string(), v.to_string()));
        }
        _ => return Err(format!("{opt}: unknown key '{key}'")),
    }
    Ok(())
}

/// Parses the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Command, String> {
    let groups = group(args)?;
    let mut parsed = Parsed::new();
    for (opt, values) in &groups {
        match long_help(opt) {
            "-help" | "-h" => return Ok(Command::Help),
            "-version" => return Ok(Command::Version),
            opt => parsed.option(opt, values)?,
        }
    }
    let mut c = parsed.config;
    c.engines = engines(&parsed.engines, &parsed.each, c.chess960)?;
    finish(c, parsed.seed).map(|c| Command::Run(Box::new(c)))
}

/// Groups each option with its values: the arguments up to the next
/// option (a negative number is a value).
fn group(args: &[String]) -> Result<Vec<(&str, Vec<&str>)>, String> {
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for a in args {
        if a.starts_with('-') && a.len() > 1 && !a[1..].starts_with(|c: char| c.is_ascii_digit()) {
            groups.push((a.as_str(), Vec::new()));
        } else {
            match groups.last_mut() {
                Some((_, values)) => values.push(a.as_str()),
                None => return Err(format!("'{a}' is not an option (see -help)")),
            }
        }
    }
    Ok(groups)
}

/// `--help` and `--version` as `-help` and `-version`: they work too.
fn long_help(opt: &str) -> &str {
    match opt.strip_prefix("--") {
        Some(n) if ["help", "version"].contains(&n) => &opt[1..],
        _ => opt,
    }
}

/// The options read so far: the match's settings, and what is put
/// together at the end (the engines, the seed).
struct Parsed<'a> {
    config: MatchConfig,
    /// Each `-engine`'s keys, in order.
    engines: Vec<Vec<(&'a str, &'a str)>>,
    /// The `-each` keys, for both engines.
    each: Vec<(&'a str, &'a str)>,
    /// `-srand`.
    seed: Option<u64>,
}

impl<'a> Parsed<'a> {
    fn new() -> Parsed<'a> {
        let mut config = MatchConfig::new(EngineConfig::default(), EngineConfig::default());
        config.engines.clear();
        config.rounds = None;
        Parsed {
            config,
            engines: Vec::new(),
            each: Vec::new(),
            seed: None,
        }
    }

    /// Reads option `opt` (neither `-help` nor `-version`) and its values.
    fn option(&mut self, opt: &str, values: &[&'a str]) -> Result<(), String> {
        let c = &mut self.config;
        match opt {
            "-engine" => self.engines.push(pairs(opt, values)?),
            "-each" => self.each.extend(pairs(opt, values)?),
            "-variant" => c.chess960 = chess960(single(opt, values)?)?,
            "-rounds" => c.rounds = Some(num(opt, "rounds", single(opt, values)?)?),
            "-games" => {
                c.games = num(opt, "games", single(opt, values)?)?;
                if !(1..=2).contains(&c.games) {
                    return Err("-games: 1 or 2".into());
                }
            }
            "-repeat" => {
                if !values.is_empty() {
                    return Err(
                        "-repeat takes no value (it is -games 2: each opening played \
                         with both colours)"
                            .into(),
                    );
                }
                c.games = 2;
            }
            "-concurrency" => {
                c.concurrency = num(opt, "concurrency", single(opt, values)?)?;
                if c.concurrency == 0 {
                    return Err("-concurrency must be at least 1".into());
                }
            }
            "-openings" => c.openings = Some(openings(opt, values)?),
            "-srand" => self.seed = Some(num(opt, "srand", single(opt, values)?)?),
            "-draw" => c.adjudication.draw = Some(draw_rule(opt, values)?),
            "-resign" => c.adjudication.resign = Some(resign_rule(opt, values)?),
            "-maxmoves" => {
                let n: u32 = num(opt, "maxmoves", single(opt, values)?)?;
                if n == 0 {
                    return Err("-maxmoves must be at least 1".into());
                }
                c.adjudication.maxmoves = Some(n);
            }
            "-sprt" => c.sprt = Some(sprt(opt, values)?),
            "-pgnout" => c.pgnout = Some(pgnout(opt, values)?),
            "-jsonout" => {
                let v = single(opt, values)?;
                c.jsonout = Some(PathBuf::from(v.strip_prefix("file=").unwrap_or(v)));
            }
            "-json" => c.json = true,
            "-resume" => {
                if !values.is_empty() {
                    return Err("-resume takes no value".into());
                }
                c.resume = true;
            }
            _ => return output_option(c, opt, values),
        }
        Ok(())
    }
}

/// Reads the options that say how the match is shown and logged: `-event`,
/// `-ratinginterval`, `-stalltimeout`, `-log`; any other is unknown.
fn output_option(c: &mut MatchConfig, opt: &str, values: &[&str]) -> Result<(), String> {
    match opt {
        "-event" => {
            if values.is_empty() {
                return Err("-event needs a value".into());
            }
            c.event = values.join(" ");
        }
        "-ratinginterval" => c.rating_interval = num(opt, "ratinginterval", single(opt, values)?)?,
        "-stalltimeout" => {
            let ms: u64 = num(opt, "stalltimeout", single(opt, values)?)?;
            c.stall_timeout = Duration::from_millis(ms.max(1));
        }
        "-log" => c.log = Some(PathBuf::from(single(opt, values)?)),
        other => return Err(format!("unknown option '{other}' (see -help)")),
    }
    Ok(())
}

/// `-variant`'s value: whether it is Chess960.
fn chess960(v: &str) -> Result<bool, String> {
    match v {
        "standard" => Ok(false),
        "fischerandom" | "chess960" => Ok(true),
        v => Err(format!(
            "-variant: standard or fischerandom (Chess960), not '{v}'"
        )),
    }
}

/// `-openings file=FILE format=epd|pgn [order=...] [plies=N] [start=K]`.
fn openings(opt: &str, values: &[&str]) -> Result<OpeningsConfig, String> {
    let mut o = OpeningsConfig {
        file: PathBuf::new(),
        format: Format::Epd,
        order: Order::Sequential,
        plies: None,
        start: 1,
    };
    let mut format_given = false;
    for (k, v) in pairs(opt, values)? {
        match k {
            "file" => o.file = PathBuf::from(v),
            "format" => {
                format_given = true;
                o.format = match v {
                    "epd" => Format::Epd,
                    "pgn" => Format::Pgn,
                    _ => return Err(format!("-openings: format is epd or pgn, not '{v}'")),
                }
            }
            "order" => {
                o.order = match v {
                    "sequential" => Order::Sequential,
                    "random" => Order::Random,
                    _ => {
                        return Err(format!(
                            "-openings: order is sequential or random, not '{v}'"
                        ));
                    }
                }
            }
            "plies" => o.plies = Some(num(opt, k, v)?),
            "start" => {
                o.start = num(opt, k, v)?;
                if o.start == 0 {
                    return Err("-openings: start counts from 1".into());
                }
            }
            _ => return Err(format!("-openings: unknown key '{k}'")),
        }
    }
    if o.file.as_os_str().is_empty() {
        return Err("-openings needs file=FILE".into());
    }
    if !format_given && o.file.extension().is_some_and(|e| e == "pgn") {
        o.format = Format::Pgn;
    }
    Ok(o)
}

/// `-draw movenumber=N movecount=C score=S`.
fn draw_rule(opt: &str, values: &[&str]) -> Result<DrawRule, String> {
    let mut r = DrawRule {
        movenumber: 0,
        movecount: 0,
        score: -1,
    };
    for (k, v) in pairs(opt, values)? {
        match k {
            "movenumber" => r.movenumber = num(opt, k, v)?,
            "movecount" => r.movecount = num(opt, k, v)?,
            "score" => r.score = num(opt, k, v)?,
            _ => return Err(format!("-draw: unknown key '{k}'")),
        }
    }
    if r.movecount == 0 || r.score < 0 {
        return Err("-draw needs movecount=C (C > 0) and score=S (S >= 0)".into());
    }
    Ok(r)
}

/// `-resign movecount=C score=S [twosided=true]`.
fn resign_rule(opt: &str, values: &[&str]) -> Result<ResignRule, String> {
    let mut r = ResignRule {
        movecount: 0,
        score: 0,
        twosided: false,
    };
    for (k, v) in pairs(opt, values)? {
        match k {
            "movecount" => r.movecount = num(opt, k, v)?,
            "score" => r.score = num(opt, k, v)?,
            "twosided" => r.twosided = bool_value(opt, k, v)?,
            _ => return Err(format!("-resign: unknown key '{k}'")),
        }
    }
    if r.movecount == 0 || r.score <= 0 {
        return Err("-resign needs movecount=C and score=S, both positive".into());
    }
    Ok(r)
}

/// `-sprt elo0=E0 elo1=E1 [alpha=A] [beta=B] [model=...]`.
fn sprt(opt: &str, values: &[&str]) -> Result<Sprt, String> {
    let (mut e0, mut e1) = (None, None);
    let (mut alpha, mut beta) = (0.05, 0.05);
    let mut model = EloModel::Normalized;
    for (k, v) in pairs(opt, values)? {
        match k {
            "elo0" => e0 = Some(num(opt, k, v)?),
            "elo1" => e1 = Some(num(opt, k, v)?),
            "alpha" => alpha = num(opt, k, v)?,
            "beta" => beta = num(opt, k, v)?,
            "model" => {
                model = match v {
                    "normalized" => EloModel::Normalized,
                    "logistic" => EloModel::Logistic,
                    _ => {
                        return Err(format!("-sprt: model is normalized or logistic, not '{v}'"));
                    }
                }
            }
            _ => return Err(format!("-sprt: unknown key '{k}'")),
        }
    }
    let (Some(e0), Some(e1)) = (e0, e1) else {
        return Err("-sprt needs elo0= and elo1=".into());
    };
    Sprt::new(e0, e1, alpha, beta, model)
}

/// `-pgnout FILE` or `-pgnout file=FILE`.
fn pgnout(opt: &str, values: &[&str]) -> Result<PathBuf, String> {
    let v = single(opt, values).or_else(|_| {
        pairs(opt, values)?
            .into_iter()
            .find(|(k, _)| *k == "file")
            .map(|(_, v)| v)
            .ok_or_else(|| "-pgnout needs a file".to_string())
    })?;
    Ok(PathBuf::from(v.strip_prefix("file=").unwrap_or(v)))
}

/// The two engines from their `-engine` keys, after the `-each` ones;
/// the second is renamed when both have the same name, and Chess960 sets
/// `UCI_Chess960` unless an engine's options set it.
fn engines(
    keys: &[Vec<(&str, &str)>],
    each: &[(&str, &str)],
    chess960: bool,
) -> Result<Vec<EngineConfig>, String> {
    if keys.len() != 2 {
        return Err(format!(
            "a match needs exactly two -engine options, found {} (see -help)",
            keys.len()
        ));
    }
    let mut engines = Vec::new();
    for (i, keys) in keys.iter().enumerate() {
        engines.push(engine(i, keys, each)?);
    }
    if engines[0].name == engines[1].name {
        engines[1].name += "-2";
    }
    if chess960 {
        // As fastchess does; an explicit option.UCI_Chess960 stays.
        for e in engines.iter_mut() {
            if !e
                .options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("UCI_Chess960"))
            {
                e.options.push(("UCI_Chess960".into(), "true".into()));
            }
        }
    }
    Ok(engines)
}

/// Engine `i` (0-based) from the `-each` keys and then its own; it needs
/// a command and a limit, and is named after its program by default.
fn engine(i: usize, keys: &[(&str, &str)], each: &[(&str, &str)]) -> Result<EngineConfig, String> {
    let mut e = EngineConfig::default();
    for (k, v) in each {
        engine_key("-each", &mut e, k, v)?;
    }
    for (k, v) in keys {
        engine_key("-engine", &mut e, k, v)?;
    }
    if e.cmd.is_empty() {
        return Err(format!("engine {}: cmd= is missing", i + 1));
    }
    if !e.limits.is_limited() {
        return Err(format!(
            "engine {}: no time control (tc=, st=, nodes= or depth=)",
            i + 1
        ));
    }
    if e.name.is_empty() {
        e.name = std::path::Path::new(&e.cmd)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| e.cmd.clone());
    }
    Ok(e)
}

/// The checks across options, the defaults that depend on others (one
/// round without `-sprt`) and the seed (`-srand`, or from the clock).
fn finish(mut c: MatchConfig, seed: Option<u64>) -> Result<MatchConfig, String> {
    if c.rounds.is_none() && c.sprt.is_none() {
        c.rounds = Some(1);
    }
    if c.rounds == Some(0) {
        return Err("-rounds must be at least 1".into());
    }
    if c.resume && c.pgnout.is_none() {
        return Err(NEEDS_PGNOUT.into());
    }
    let random = c
        .openings
        .as_ref()
        .is_some_and(|o| o.order == Order::Random);
    if c.resume && random && seed.is_none() {
        return Err("-resume with order=random needs the first run's -srand".into());
    }
    c.seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_ascii_whitespace().map(String::from).collect()
    }

    fn run(s: &str) -> MatchConfig {
        run_args(&args(s))
    }

    fn run_args(a: &[String]) -> MatchConfig {
        match parse(a).unwrap() {
            Command::Run(c) => *c,
            other => panic!("{other:?}"),
        }
    }

    /// An option's name may hold spaces (Stockfish's "Use NNUE"): one
    /// argument, split at its first `=`.
    #[test]
    fn an_option_name_with_a_space() {
        let mut a = args("-engine cmd=/usr/games/stockfish -engine cmd=./b -each tc=1+0.01");
        a.insert(2, "option.Use NNUE=false".into());
        let c = run_args(&a);
        assert_eq!(
            c.engines[0].options,
            [("Use NNUE".to_string(), "false".to_string())]
        );
        assert!(c.engines[1].options.is_empty());
    }

    #[test]
    fn a_full_command_line() {
        let c = run("-engine cmd=./a name=A option.Hash=64 tc=40/60+0.6 \
             -engine cmd=/x/b st=0.5 timemargin=50 \
             -each option.Threads=1 nodes=5000 option.Hash=16 tc=1+0.1 \
             -rounds 10 -games 2 -concurrency 2 \
             -openings file=book.pgn order=random plies=8 start=3 -srand 7 \
             -draw movenumber=40 movecount=8 score=10 \
             -resign movecount=3 score=600 twosided=true -maxmoves 150 \
             -sprt elo0=0 elo1=5 model=logistic -pgnout file=out.pgn \
             -jsonout res.json -json -ratinginterval 20 -stalltimeout 500 -resume");
        let [a, b] = &c.engines[..] else { panic!() };
        assert_eq!((a.name.as_str(), a.cmd.as_str()), ("A", "./a"));
        // -engine wins over -each; -each fills the rest.
        assert_eq!(
            a.options,
            [
                ("Threads".to_string(), "1".to_string()),
                ("Hash".into(), "64".into())
            ]
        );
        assert_eq!(a.limits.tc.unwrap().moves, Some(40));
        assert_eq!(a.limits.nodes, Some(5000));
        assert_eq!(b.name, "b");
        assert_eq!(b.limits.movetime, Some(Duration::from_millis(500)));
        assert_eq!(b.limits.tc, None);
        assert_eq!(b.limits.margin, Duration::from_millis(50));
        assert_eq!(b.options[1], ("Hash".into(), "16".into()));
        assert_eq!(c.rounds, Some(10));
        assert_eq!(c.concurrency, 2);
        let o = c.openings.unwrap();
        assert_eq!(
            (o.format, o.order, o.plies, o.start),
            (Format::Pgn, Order::Random, Some(8), 3)
        );
        assert_eq!(c.seed, 7);
        assert_eq!(c.adjudication.draw.unwrap().movenumber, 40);
        assert!(c.adjudication.resign.unwrap().twosided);
        assert_eq!(c.adjudication.maxmoves, Some(150));
        let s = c.sprt.unwrap();
        assert_eq!(
            (s.elo0, s.elo1, s.alpha, s.model),
            (0.0, 5.0, 0.05, EloModel::Logistic)
        );
        assert_eq!(c.pgnout.unwrap(), PathBuf::from("out.pgn"));
        assert!(c.resume);
        assert_eq!(c.jsonout.unwrap(), PathBuf::from("res.json"));
        assert!(c.json);
        assert_eq!(c.stall_timeout, Duration::from_millis(500));
    }

    #[test]
    fn args_key_splits_and_negative_values() {
        let c = parse(&[
            "-engine".into(),
            "cmd=e".into(),
            "args=--crash-after 3".into(),
            "depth=3".into(),
            "-engine".into(),
            "cmd=e".into(),
            "depth=3".into(),
            "-sprt".into(),
            "elo0=-3".into(),
            "elo1=1".into(),
        ])
        .unwrap();
        let Command::Run(c) = c else { panic!() };
        assert_eq!(c.engines[0].args, ["--crash-after", "3"]);
        assert_eq!(c.engines[1].name, "e-2");
        assert_eq!(c.sprt.unwrap().elo0, -3.0);
        assert_eq!(c.rounds, None); // until the SPRT decides
    }

    /// -rounds counts rounds of -games games each, as in fastchess,
    /// and -repeat is -games 2 (the default); the help says how many games
    /// that makes.
    #[test]
    fn rounds_games_and_repeat() {
        let two = "-engine cmd=a tc=1 -engine cmd=b tc=1";
        for (extra, rounds, games) in [
            ("", 1, 2),
            ("-rounds 2", 2, 2),
            ("-repeat -rounds 2", 2, 2),
            ("-rounds 2 -games 1", 2, 1),
            ("-games 1 -repeat -rounds 3", 3, 2),
        ] {
            let c = run(&format!("{two} {extra}"));
            assert_eq!((c.rounds, c.games), (Some(rounds), games), "{extra}");
        }
        assert!(USAGE.contains("-repeat -rounds 2 plays 4 games"), "{USAGE}");
        assert!(USAGE.contains("-rounds 10 plays 20 games"), "{USAGE}");
        let e = parse(&args(&format!("{two} -repeat 2"))).unwrap_err();
        assert!(e.contains("-repeat takes no value (it is -games 2"), "{e}");
    }

    #[test]
    fn help_version_and_errors() {
        assert_eq!(parse(&args("-help")).unwrap(), Command::Help);
        assert_eq!(parse(&args("--help")).unwrap(), Command::Help);
        assert_eq!(parse(&args("-version")).unwrap(), Command::Version);
        for (bad, why) in [
            ("", "exactly two"),
            ("-engine cmd=a tc=1 -engine cmd=b", "no time control"),
            ("-engine cmd=a tc=1 -engine name=b tc=1", "cmd= is missing"),
            ("-engine cmd=a tc=x -engine cmd=b tc=1", "time control 'x'"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -frobnicate",
                "unknown option",
            ),
            ("-engine cmd=a tc=1 -engine cmd=b tc=1 -games 3", "1 or 2"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -sprt elo0=5 elo1=0",
                "elo0",
            ),
            ("-engine cmd=a tc=1 bogus -engine cmd=b tc=1", "KEY=VALUE"),
            ("stray", "not an option"),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -event",
                "-event needs a value",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -concurrency x",
                "-concurrency needs a number, not 'x'",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -draw movecount=x score=1",
                "-draw: 'movecount' needs a number",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -openings format=epd",
                "file=",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -draw score=5",
                "movecount",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -resume",
                "-resume needs -pgnout",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -resume x -pgnout g.pgn",
                "-resume takes no value",
            ),
            (
                "-engine cmd=a tc=1 -engine cmd=b tc=1 -resume -pgnout g.pgn \
                 -openings file=o.epd format=epd order=random",
                "needs the first run's -srand",
            ),
        ] {
            let e = parse(&args(bad)).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}
