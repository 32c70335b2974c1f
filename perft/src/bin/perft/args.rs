//! The command line, by clap: the options, their checks and `--help`.

use clap::Parser;

use super::*;

pub(super) const DEFAULT_DEPTH: u32 = 5;
pub(super) const DEFAULT_MAX_NODES: u64 = 10_000_000;
pub(super) const MAX_DEPTH: u32 = 30;
/// The engine's `Threads` (1 to 256) and `Hash` (at most 65536 MB) limits:
/// one pair of constants, `movegen::table`'s, for both.
use perft::{MAX_HASH_MB, MAX_THREADS};
pub(super) const BULK_NOTE: &str =
    "leaf moves are bulk-counted: at the last ply the legal moves are counted, not played";

/// perft: count the leaves of the legal move tree with Borrow's move generator
#[derive(Parser, Debug)]
#[command(name = "perft", version, after_help = after_help())]
struct Cli {
    /// Attack method, or 'all': every method on the same work, nodes/s per
    /// method, fastest first
    #[arg(long, value_name = "NAME|all", default_value = Method::default().name(),
          value_parser = parse_methods)]
    method: ::std::vec::Vec<Method>,
    /// Plies to count [default: 5]; with --epd, check only depths <= D
    #[arg(long, value_name = "D", allow_negative_numbers = true, value_parser = |s: &str| bounded(s, 0, MAX_DEPTH.into()))]
    depth: Option<u64>,
    /// The position (default: the start position); quote it, or give its
    /// fields as separate arguments
    #[arg(long, value_name = "FEN", num_args = 1..=6, conflicts_with = "epd")]
    fen: Option<Vec<String>>,
    /// A perft suite, one-line EPD ('FEN ;D1 20 ;D2 400') or shakmaty's block
    /// format ('id', 'epd', 'perft D N'), told apart by content, read
    /// leniently (bytes that are not UTF-8 are replaced); checks every depth
    /// whose expected count is <= --max-nodes, one line per check, and ends
    /// with 'N passed, M failed'
    #[arg(long, value_name = "FILE")]
    epd: Option<String>,
    /// Print 'move: count' for each root move (UCI), then the total
    #[arg(long, conflicts_with = "epd")]
    divide: bool,
    /// Write castling as Chess960's king-takes-rook ('e1h1'); implied by
    /// Shredder-FEN castling letters ('HAha') and by castling rights standard
    /// chess cannot have (X-FEN's inner rooks, a king off the e file). Counts
    /// are the same either way
    #[arg(long)]
    chess960: bool,
    /// Share the root moves among N threads (1 to 256)
    #[arg(long, value_name = "N", default_value = "1", allow_negative_numbers = true,
          value_parser = |s: &str| bounded(s, 1, MAX_THREADS as u64))]
    threads: u64,
    /// A perft transposition table of at most MB megabytes (0 to 65536, 0:
    /// none); 64-bit keys, so a collision could in principle miscount
    #[arg(long, value_name = "MB", default_value = "0", allow_negative_numbers = true,
          value_parser = |s: &str| bounded(s, 0, MAX_HASH_MB as u64))]
    hash: u64,
    /// With --epd, the largest expected count to check [default: 1e7]; N may
    /// be written 10000000, 10_000_000 or 1e7
    #[arg(long, value_name = "N", requires = "epd", allow_negative_numbers = true,
          value_parser = parse_number)]
    max_nodes: Option<u64>,
    /// Also time shakmaty's perft on the same work (same threads, no table)
    /// and print our speed relative to it
    #[arg(long)]
    compare: bool,
}

/// The text after the options: the methods of this build, bulk counting,
/// the exit status.
fn after_help() -> String {
    let names: Vec<String> = Method::ALL.iter().map(ToString::to_string).collect();
    format!(
        "\
Methods in this build (short aliases such as 'od', 'hq', 'ref' work too):
  {}

Leaf moves are bulk-counted: at the last ply the legal moves are counted, not
played. shakmaty's perft (for --compare) counts its last ply the same way.

Exit status: 0 all counts right (also when the reader of the output went
away: 'perft ... | head -1'); 1 a count was wrong or two move generators
disagreed; 2 bad input (options, FEN, file).",
        names.join(", ")
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

/// What to count.
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

/// The options of the command line `args` (without the program's name), or
/// clap's error (help and version are "errors" that print and exit 0).
pub(super) fn parse_args<I, T>(args: I) -> Result<Options, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::CommandFactory;
    let cli = Cli::try_parse_from(
        std::iter::once("perft".into()).chain(args.into_iter().map(Into::into)),
    )?;
    let methods = cli.method;
    if cli.divide && methods.len() > 1 {
        return Err(Cli::command().error(
            clap::error::ErrorKind::ArgumentConflict,
            "--divide takes one method, not 'all'",
        ));
    }
    Ok(Options {
        methods,
        depth: cli.depth.map(|d| d as u32),
        fen: cli.fen.map(|f| f.join(" ")),
        epd: cli.epd,
        divide: cli.divide,
        threads: cli.threads as usize,
        hash_mb: cli.hash as usize,
        max_nodes: cli.max_nodes,
        compare: cli.compare,
        chess960: cli.chess960,
    })
}

/// One method, or several (`all`, or names separated by commas); the
/// field's type is spelled `::std::vec::Vec` so that clap takes the list
/// as one value, as the engine's `bench --method` does.
fn parse_methods(s: &str) -> Result<Vec<Method>, String> {
    Method::parse_list(s).map_err(|e| e.to_string())
}

/// A whole number: `10000000`, `10_000_000` or `1e7`.
pub(super) fn parse_number(text: &str) -> Result<u64, String> {
    let bad = || format!("'{text}' is not a whole number");
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
                .ok_or_else(|| format!("'{text}' is too large"))
        }
        None => t.parse().map_err(|_| bad()),
    }
}

/// A whole number from `min` to `max`.
fn bounded(text: &str, min: u64, max: u64) -> Result<u64, String> {
    let n = parse_number(text)?;
    if n < min || n > max {
        return Err(format!("{n} is out of range ({min} to {max} allowed)"));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn numbers_in_three_spellings() {
        for s in ["10000000", "10_000_000", "1e7", "1E7"] {
            assert_eq!(parse_number(s), Ok(10_000_000), "{s}");
        }
        for s in ["", "-1", "+1", "x", "1e", "1.5"] {
            assert!(parse_number(s).is_err(), "{s}");
        }
        assert!(parse_number("1e30").unwrap_err().contains("too large"));
    }

    #[test]
    fn an_unquoted_fen_is_joined() {
        let o = parse_args([
            "--fen",
            "8/8/8/8/8/8/8/K6k",
            "w",
            "-",
            "-",
            "0",
            "1",
            "--depth",
            "2",
        ])
        .unwrap();
        assert_eq!(o.fen.as_deref(), Some("8/8/8/8/8/8/8/K6k w - - 0 1"));
        assert_eq!(o.depth, Some(2));
    }
}
