//! The `book` command: probe a Polyglot book, or make one from PGN games.
//!
//! Exit status: 0 on success, 2 on bad input (options, FEN, moves, a missing
//! or corrupt file, a PGN without games or whose games give no book entry,
//! an output that is the input).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use book::{Book, BookBuilder, BuildOptions, decode_move, plural};
use clap::builder::NonEmptyStringValueParser;
use clap::{CommandFactory, Parser, Subcommand};
use movegen::Position;

const EXIT_STATUS: &str = "\
Exit status: 0 success; 1 is not used (book has no check that can fail);
2 bad input (options, FEN, moves, a missing or corrupt book, a PGN file that
cannot be read, holds no game or whose games give no entry, an output that
is the input).";

/// book: Polyglot opening books
#[derive(Parser, Debug)]
#[command(name = "book", version, after_help = EXIT_STATUS)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// List the book's entries for a position: the move in UCI and SAN,
    /// weight, learn field and share of the total weight. Entries that are no
    /// legal move in the position are listed as skipped.
    #[command(after_help = EXIT_STATUS)]
    Probe {
        /// The book (Polyglot .bin)
        #[arg(value_name = "FILE")]
        file: Option<String>,
        /// The position (default: the start position); quote it, or give its
        /// fields as separate arguments
        #[arg(long, value_name = "FEN", num_args = 1..=6)]
        fen: Option<Vec<String>>,
        /// Moves played from it first, in UCI or SAN, separated by spaces or
        /// commas (quote them)
        #[arg(long, value_name = "MOVES")]
        moves: Vec<String>,
    },
    /// Build a book from the games of a PGN file: each move counts for the
    /// side that played it, win 2, draw 1 (also '*'), loss 0, and its weight
    /// is the sum; entries are sorted by key, then by weight. Malformed games
    /// are reported with their line and skipped. Games that give no entry
    /// (every move played in too few games) are an error: no book is
    /// written. The PGN is read leniently
    /// (bytes that are not UTF-8, as in Latin-1 files, are replaced). The
    /// defaults are those of 'polyglot make-book'.
    #[command(after_help = EXIT_STATUS)]
    Make {
        /// The games
        #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new())]
        pgn: String,
        /// The book to write; never the PGN itself (refused, also through a
        /// link)
        #[arg(long, value_name = "FILE", value_parser = NonEmptyStringValueParser::new())]
        out: String,
        /// Count the first N plies of each game
        #[arg(long, value_name = "N", default_value_t = BuildOptions::default().max_ply,
              value_parser = whole_number::<usize>)]
        max_ply: usize,
        /// Keep entries played in at least N games
        #[arg(long, value_name = "N", default_value_t = BuildOptions::default().min_games,
              value_parser = whole_number::<u32>)]
        min_games: u32,
    },
}

/// A whole number, with an error that says so.
fn whole_number<T: std::str::FromStr>(s: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("'{s}' is not a whole number"))
}

fn main() -> ExitCode {
    // Help, version and bad options: clap prints them and exits (0 or 2).
    let cli = Cli::try_parse().unwrap_or_else(|e| e.exit());
    let result = match cli.command {
        Cmd::Probe { file, fen, moves } => probe(file, fen, &moves),
        Cmd::Make {
            pgn,
            out,
            max_ply,
            min_games,
        } => make(&pgn, &out, BuildOptions { max_ply, min_games }),
    };
    match result {
        Ok(text) => {
            // A closed pipe (`book probe FILE | head -1`) is no error.
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("book: cannot write: {e}");
                    ExitCode::from(2)
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(message) => {
            eprintln!("book: {message}");
            ExitCode::from(2)
        }
    }
}

/// `book probe`: the text for stdout, or the error.
fn probe(
    file: Option<String>,
    fen: Option<Vec<String>>,
    moves: &[String],
) -> Result<String, String> {
    // An unquoted FEN's fields come as several values, and the book file
    // after them is taken as a seventh: give it back.
    let mut fields: Vec<String> = fen
        .iter()
        .flatten()
        .flat_map(|a| a.split_ascii_whitespace())
        .map(str::to_owned)
        .collect();
    let extra = fields.split_off(fields.len().min(6));
    let mut files = file.into_iter().chain(extra);
    let Some(file) = files.next() else {
        probe_usage(
            clap::error::ErrorKind::MissingRequiredArgument,
            "probe needs a book file: book probe FILE [--fen FEN]",
        )
    };
    if let Some(second) = files.next() {
        probe_usage(
            clap::error::ErrorKind::TooManyValues,
            &format!("probe takes one book file; '{second}' is a second one"),
        );
    }
    let file = file.as_str();
    let fen = (!fields.is_empty()).then(|| fields.join(" "));
    let moves: Vec<&str> = moves
        .iter()
        .flat_map(|text| text.split(|c: char| c == ',' || c.is_ascii_whitespace()))
        .filter(|m| !m.is_empty())
        .collect();
    let mut pos: Position = match &fen {
        Some(f) => Position::from_fen(f).map_err(|e| format!("--fen: {e}"))?,
        None => Position::startpos(),
    };
    for m in &moves {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("--moves: {e} in {}", pos.fen()))?;
        pos.play_unchecked(mv);
    }
    let book = Book::open(file).map_err(|e| format!("{file}: {e}"))?;

    let entries = book.entries(pos.key());
    let mut out = String::new();
    let mut line = |l: String| {
        out.push_str(&l);
        out.push('\n');
    };
    line(format!("position  {}", pos.fen()));
    line(format!("key       {:#018x}", pos.key()));
    line(format!(
        "book      {file} ({})",
        plural(book.len(), "entry")
    ));
    if entries.is_empty() {
        line("no book entries for this position".to_owned());
        return Ok(out);
    }
    let decoded: Vec<_> = entries
        .iter()
        .map(|e| (e, decode_move(&pos, e.raw_move)))
        .collect();
    let total: u64 = decoded
        .iter()
        .filter(|(_, m)| m.is_some())
        .map(|(e, _)| u64::from(e.weight))
        .sum();
    line(String::new());
    line(format!(
        "{:<6} {:<8} {:>6} {:>10} {:>8}",
        "move", "san", "weight", "learn", "share"
    ));
    for (e, m) in decoded {
        match m {
            Some(m) => {
                let share = if total == 0 {
                    0.0
                } else {
                    100.0 * f64::from(e.weight) / total as f64
                };
                line(format!(
                    "{:<6} {:<8} {:>6} {:>10} {:>7.2}%",
                    m.to_string(),
                    pos.san(m),
                    e.weight,
                    e.learn,
                    share
                ));
            }
            None => line(format!(
                "{:<6} {:<8} {:>6} {:>10}  skipped: not a legal move here",
                e.raw_uci(),
                "-",
                e.weight,
                e.learn
            )),
        }
    }
    Ok(out)
}

/// A usage error of `book probe`, as clap reports its own: exits with 2.
fn probe_usage(kind: clap::error::ErrorKind, message: &str) -> ! {
    let mut cmd = Cli::command();
    cmd.build();
    let probe = cmd
        .find_subcommand_mut("probe")
        .expect("probe is a command");
    probe.error(kind, message).exit()
}

/// `book make`: the report for stdout, or the error.
fn make(pgn: &str, out: &str, options: BuildOptions) -> Result<String, String> {
    if same_file(Path::new(pgn), Path::new(out)) {
        return Err(format!(
            "--out '{out}' is the input '{pgn}': refusing to overwrite the games with the book"
        ));
    }
    // Latin-1 and stray bytes are read, as every tool of the workspace does.
    let text = book::read_text(pgn).map_err(|e| format!("{pgn}: cannot read: {e}"))?;
    let mut builder = BookBuilder::new(options);
    let errors = builder.add_pgn(&text);
    for e in &errors {
        eprintln!("{pgn}:{}: {} (game skipped)", e.line, e.message);
    }
    if builder.games() == 0 {
        // An empty, garbage or binary file: nothing to make a book of.
        return Err(format!(
            "{pgn}: no game could be read ({} skipped as malformed); no book written",
            errors.len()
        ));
    }
    let entries = builder.entries();
    let read = format!(
        "{} read, {} skipped",
        plural(builder.games(), "game"),
        errors.len()
    );
    if entries.is_empty() {
        // An empty book is of no use, and would overwrite --out: bad input,
        // as a PGN without games is.
        let why = if options.min_games > 1 {
            format!(
                "no move was played in at least {} games with a non-zero weight \
                 (--min-games {}); a smaller --min-games (1 keeps every move) or more games \
                 make one",
                options.min_games, options.min_games
            )
        } else {
            "every move was played only by the side that lost (weight 0)".to_owned()
        };
        return Err(format!(
            "{pgn}: {read}; no entry for a book: {why}; no book written"
        ));
    }
    std::fs::write(out, book::entries_to_bytes(&entries))
        .map_err(|e| format!("{out}: cannot write: {e}"))?;
    Ok(format!(
        "{read}; {} written to {out}\n",
        plural(entries.len(), "entry")
    ))
}

/// Whether `a` and `b` are one file: the same device and inode (through
/// symbolic and hard links alike), or the same canonical path.
fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
