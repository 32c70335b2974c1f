//! The command line: options, their parsing and the help text.

use super::*;

pub(super) const DEFAULT_DEPTH: u32 = 5;
pub(super) const DEFAULT_MAX_NODES: u64 = 10_000_000;
pub(super) const MAX_DEPTH: u32 = 30;
/// As the engine's `Threads` (1 to 256) and `Hash` (at most 65536 MB): the
/// same limits wherever the same thing is set.
use perft::{MAX_HASH_MB, MAX_THREADS};
pub(super) const BULK_NOTE: &str =
    "leaf moves are bulk-counted: at the last ply the legal moves are counted, not played";

pub(super) fn help() -> String {
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
pub(super) enum CliError {
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

pub(super) fn input<T>(message: impl Into<String>) -> Result<T, CliError> {
    Err(CliError::Input(message.into()))
}

#[derive(Debug)]
pub(super) struct Options {
    pub(super) methods: Vec<Method>,
    pub(super) depth: Option<u32>,
    pub(super) fen: Option<String>,
    pub(super) epd: Option<String>,
    pub(super) divide: bool,
    pub(super) threads: usize,
    pub(super) hash_mb: usize,
    pub(super) max_nodes: Option<u64>,
    pub(super) compare: bool,
    pub(super) chess960: bool,
}

pub(super) enum Command {
    Help,
    Version,
    Run(Options),
}

/// A whole number: `10000000`, `10_000_000` or `1e7`.
pub(super) fn parse_number(option: &str, text: &str) -> Result<u64, String> {
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

pub(super) fn parse_bounded(option: &str, text: &str, min: u64, max: u64) -> Result<u64, String> {
    let n = parse_number(option, text)?;
    if n < min || n > max {
        return Err(format!(
            "{option}: {n} is out of range ({min} to {max} allowed)"
        ));
    }
    Ok(n)
}

pub(super) fn parse_args(args: &[String]) -> Result<Command, String> {
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
