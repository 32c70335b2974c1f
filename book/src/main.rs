//! The `book` command: probe a Polyglot book, or make one from PGN games.
//!
//! Exit status: 0 on success, 2 on bad input (options, FEN, moves, a missing
//! or corrupt file, a PGN without games, an output that is the input).

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use book::{Book, BookBuilder, BuildOptions, decode_move, plural};
use movegen::Position;

const USAGE: &str = "\
book: Polyglot opening books

Usage:
  book probe FILE [--fen FEN] [--moves MOVES]
  book make --pgn FILE --out FILE [--max-ply N] [--min-games N]
  book --help | --version
  book probe --help, book make --help: the help of one command
";

const PROBE_HELP: &str = "\
probe   lists the book's entries for a position: the move in UCI and SAN,
        weight, learn field and share of the total weight. Entries that are
        no legal move in the position are listed as skipped.
  --fen FEN       the position (default: the start position); quote it, or
                  give its fields as separate arguments
  --moves MOVES   moves played from it first, in UCI or SAN, separated by
                  spaces or commas (quote them)
";

const MAKE_HELP: &str = "\
make    builds a book from the games of a PGN file: each move counts for the
        side that played it, win 2, draw 1 (also '*'), loss 0, and its weight
        is the sum; entries are sorted by key, then by weight. Malformed games
        are reported with their line and skipped. The PGN is read leniently
        (bytes that are not UTF-8, as in Latin-1 files, are replaced).
  --pgn FILE      the games
  --out FILE      the book to write; never the PGN itself (refused, also
                  through a link)
  --max-ply N     count the first N plies of each game (default 1024)
  --min-games N   keep entries played in at least N games (default 3)

The defaults of make are those of 'polyglot make-book'.
";

const FOOTER: &str = "\
Options take their value as '--opt value' or '--opt=value'.

Exit status: 0 success; 1 is not used (book has no check that can fail);
2 bad input (options, FEN, moves, a missing or corrupt book, a PGN file that
cannot be read or holds no game, an output that is the input).
";

/// The whole help.
fn help() -> String {
    format!("{USAGE}\n{PROBE_HELP}\n{MAKE_HELP}\n{FOOTER}")
}

/// The help of one command.
fn command_help(text: &str) -> String {
    format!("{USAGE}\n{text}\n{FOOTER}")
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
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

/// Runs the command line; the text for stdout, or the error.
fn run(args: &[String]) -> Result<String, String> {
    match args.first().map(String::as_str) {
        None => Err(format!("no command given\n\n{}", help())),
        Some("-h" | "--help" | "help") => Ok(help()),
        Some("-V" | "--version" | "version") => Ok(format!("book {}\n", env!("CARGO_PKG_VERSION"))),
        Some("probe") => probe(&args[1..]),
        Some("make") => make(&args[1..]),
        Some(other) => Err(format!(
            "unknown command '{other}' (expected probe or make; see book --help)"
        )),
    }
}

/// The options of a command: `--opt value` or `--opt=value`, and other
/// arguments.
struct Args<'a> {
    args: &'a [String],
    i: usize,
    /// The value given with `=` to the option just read.
    inline: Option<&'a str>,
}

impl<'a> Args<'a> {
    fn new(args: &'a [String]) -> Args<'a> {
        Args {
            args,
            i: 0,
            inline: None,
        }
    }

    /// The next option name or argument.
    fn next(&mut self) -> Option<&'a str> {
        let a = self.args.get(self.i)?.as_str();
        self.i += 1;
        self.inline = None;
        match a.split_once('=') {
            Some((name, v)) if name.starts_with("--") => {
                self.inline = Some(v);
                Some(name)
            }
            _ => Some(a),
        }
    }

    /// The value of option `name`.
    fn value(&mut self, name: &str) -> Result<&'a str, String> {
        let v = match self.inline.take() {
            Some(v) => v,
            None => {
                let v = self.args.get(self.i).map(String::as_str).unwrap_or("");
                self.i += 1;
                v
            }
        };
        if v.is_empty() {
            return Err(format!("{name} needs a value"));
        }
        Ok(v)
    }

    /// The next argument if it is no option.
    fn peek_plain(&self) -> Option<&'a str> {
        self.args
            .get(self.i)
            .map(String::as_str)
            .filter(|a| !a.starts_with("--"))
    }

    /// Refuses `--flag=value` for an option without a value.
    fn no_value(&self, name: &str) -> Result<(), String> {
        match self.inline {
            Some(_) => Err(format!("{name} takes no value")),
            None => Ok(()),
        }
    }
}

fn number<T: std::str::FromStr>(text: &str, name: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{name} expects a whole number, not '{text}'"))
}

fn probe(args: &[String]) -> Result<String, String> {
    let mut file = None;
    let mut fen: Option<String> = None;
    let mut moves: Vec<String> = Vec::new();
    let mut args = Args::new(args);
    while let Some(arg) = args.next() {
        match arg {
            "--fen" => {
                // The FEN in one argument, or its fields in several.
                let mut fields: Vec<String> = Vec::new();
                if let Some(v) = args.inline.take() {
                    fields.extend(v.split_ascii_whitespace().map(str::to_owned));
                } else {
                    while fields.len() < 6 {
                        match args.peek_plain() {
                            Some(a) => {
                                fields.extend(a.split_ascii_whitespace().map(str::to_owned));
                                args.i += 1;
                            }
                            None => break,
                        }
                    }
                }
                if fields.is_empty() {
                    return Err("--fen needs a value".to_owned());
                }
                fen = Some(fields.join(" "));
            }
            "--moves" => {
                let text = args.value("--moves")?;
                moves.extend(
                    text.split(|c: char| c == ',' || c.is_ascii_whitespace())
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned),
                );
            }
            "-h" | "--help" => {
                args.no_value(arg)?;
                return Ok(command_help(PROBE_HELP));
            }
            a if a.starts_with('-') => {
                return Err(format!(
                    "unknown option '{a}' for probe (see book probe --help)"
                ));
            }
            a => {
                if file.replace(a).is_some() {
                    return Err(format!("probe takes one book file; '{a}' is a second one"));
                }
            }
        }
    }
    let file = file.ok_or("probe needs a book file: book probe FILE [--fen FEN]")?;
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

fn make(args: &[String]) -> Result<String, String> {
    let mut pgn = None;
    let mut out = None;
    let mut options = BuildOptions::default();
    let mut args = Args::new(args);
    while let Some(arg) = args.next() {
        match arg {
            "--pgn" => pgn = Some(args.value(arg)?),
            "--out" => out = Some(args.value(arg)?),
            "--max-ply" => options.max_ply = number(args.value(arg)?, arg)?,
            "--min-games" => options.min_games = number(args.value(arg)?, arg)?,
            "-h" | "--help" => {
                args.no_value(arg)?;
                return Ok(command_help(MAKE_HELP));
            }
            a => {
                return Err(format!(
                    "unexpected argument '{a}' for make (see book make --help)"
                ));
            }
        }
    }
    let pgn = pgn.ok_or("make needs --pgn FILE")?;
    let out = out.ok_or("make needs --out FILE")?;
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
    std::fs::write(out, book::entries_to_bytes(&entries))
        .map_err(|e| format!("{out}: cannot write: {e}"))?;
    let mut report = format!(
        "{} read, {} skipped; {} written to {out}\n",
        plural(builder.games(), "game"),
        errors.len(),
        plural(entries.len(), "entry")
    );
    if entries.is_empty() {
        report.push_str(&if options.min_games > 1 {
            format!(
                "no entry: no move was played in at least {} games with a non-zero weight \
                 (--min-games {}); a smaller --min-games keeps rarer moves\n",
                options.min_games, options.min_games
            )
        } else {
            "no entry: every move was played only by the side that lost (weight 0)\n".to_owned()
        });
    }
    Ok(report)
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
