//! The `book` command: probe a Polyglot book, or make one from PGN games.
//!
//! Exit status: 0 on success, 2 on bad input (options, FEN, moves, a missing
//! or corrupt file).

use std::process::ExitCode;

use book::{Book, BookBuilder, BuildOptions, decode_move};
use movegen::Position;

const HELP: &str = "\
book: Polyglot opening books

Usage:
  book probe FILE [--fen FEN] [--moves MOVES]
  book make --pgn FILE --out FILE [--max-ply N] [--min-games N]
  book --help

probe   lists the book's entries for a position: the move in UCI and SAN,
        weight, learn field and share of the total weight. Entries that are
        no legal move in the position are listed as skipped.
  --fen FEN       the position (default: the start position); quote it, or
                  give its fields as separate arguments
  --moves MOVES   moves played from it first, in UCI or SAN, separated by
                  spaces or commas (quote them)

make    builds a book from the games of a PGN file: each move counts for the
        side that played it, win 2, draw 1 (also '*'), loss 0, and its weight
        is the sum; entries are sorted by key, then by weight. Malformed games
        are reported with their line and skipped.
  --pgn FILE      the games
  --out FILE      the book to write
  --max-ply N     count the first N plies of each game (default 1024)
  --min-games N   keep entries played in at least N games (default 3)

The defaults of make are those of 'polyglot make-book'.

Exit status: 0 success; 2 bad input (options, FEN, moves, a missing or
corrupt book, an unreadable PGN file).
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("book: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        None => Err(format!("no command given\n\n{HELP}")),
        Some("-h" | "--help" | "help") => {
            print!("{HELP}");
            Ok(())
        }
        Some("probe") => probe(&args[1..]),
        Some("make") => make(&args[1..]),
        Some(other) => Err(format!(
            "unknown command '{other}' (expected probe or make; see book --help)"
        )),
    }
}

/// The value after option `name` at `args[*i]`, moving `i` past it.
fn value<'a>(args: &'a [String], i: &mut usize, name: &str) -> Result<&'a str, String> {
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| format!("{name} needs a value"))
}

fn number<T: std::str::FromStr>(text: &str, name: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{name} expects a whole number, not '{text}'"))
}

fn probe(args: &[String]) -> Result<(), String> {
    let mut file = None;
    let mut fen: Option<String> = None;
    let mut moves: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                // The FEN in one argument, or its fields in several.
                let mut fields: Vec<String> = Vec::new();
                while fields.len() < 6 {
                    match args.get(i + 1) {
                        Some(a) if !a.starts_with("--") => {
                            fields.extend(a.split_ascii_whitespace().map(str::to_owned));
                            i += 1;
                        }
                        _ => break,
                    }
                }
                if fields.is_empty() {
                    return Err("--fen needs a value".to_owned());
                }
                fen = Some(fields.join(" "));
            }
            "--moves" => {
                let text = value(args, &mut i, "--moves")?;
                moves.extend(
                    text.split(|c: char| c == ',' || c.is_ascii_whitespace())
                        .filter(|m| !m.is_empty())
                        .map(str::to_owned),
                );
            }
            "-h" | "--help" => {
                print!("{HELP}");
                return Ok(());
            }
            a if a.starts_with('-') => {
                return Err(format!("unknown option '{a}' for probe (see book --help)"));
            }
            a => {
                if file.replace(a).is_some() {
                    return Err(format!("probe takes one book file; '{a}' is a second one"));
                }
            }
        }
        i += 1;
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
    println!("position  {}", pos.fen());
    println!("key       {:#018x}", pos.key());
    println!("book      {file} ({} entries)", book.len());
    if entries.is_empty() {
        println!("no book entries for this position");
        return Ok(());
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
    println!();
    println!(
        "{:<6} {:<8} {:>6} {:>10} {:>8}",
        "move", "san", "weight", "learn", "share"
    );
    for (e, m) in decoded {
        match m {
            Some(m) => {
                let share = if total == 0 {
                    0.0
                } else {
                    100.0 * f64::from(e.weight) / total as f64
                };
                println!(
                    "{:<6} {:<8} {:>6} {:>10} {:>7.2}%",
                    m.to_string(),
                    pos.san(m),
                    e.weight,
                    e.learn,
                    share
                );
            }
            None => println!(
                "{:<6} {:<8} {:>6} {:>10}  skipped: not a legal move here",
                e.raw_uci(),
                "-",
                e.weight,
                e.learn
            ),
        }
    }
    Ok(())
}

fn make(args: &[String]) -> Result<(), String> {
    let mut pgn = None;
    let mut out = None;
    let mut options = BuildOptions::default();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--pgn" => pgn = Some(value(args, &mut i, "--pgn")?),
            "--out" => out = Some(value(args, &mut i, "--out")?),
            "--max-ply" => {
                options.max_ply = number(value(args, &mut i, "--max-ply")?, "--max-ply")?;
            }
            "--min-games" => {
                options.min_games = number(value(args, &mut i, "--min-games")?, "--min-games")?;
            }
            "-h" | "--help" => {
                print!("{HELP}");
                return Ok(());
            }
            a => {
                return Err(format!(
                    "unexpected argument '{a}' for make (see book --help)"
                ));
            }
        }
        i += 1;
    }
    let pgn = pgn.ok_or("make needs --pgn FILE")?;
    let out = out.ok_or("make needs --out FILE")?;
    let bytes = std::fs::read(pgn).map_err(|e| format!("{pgn}: cannot read: {e}"))?;
    // PGN files in the wild are often Latin-1: only tags and comments
    // could hold such bytes, so a lossy reading loses nothing that counts.
    let text = String::from_utf8_lossy(&bytes);
    let mut builder = BookBuilder::new(options);
    let errors = builder.add_pgn(&text);
    for e in &errors {
        eprintln!("{pgn}:{}: {} (game skipped)", e.line, e.message);
    }
    let entries = builder.entries();
    std::fs::write(out, book::entries_to_bytes(&entries))
        .map_err(|e| format!("{out}: cannot write: {e}"))?;
    println!(
        "{} games read, {} skipped; {} entries written to {out}",
        builder.games(),
        errors.len(),
        entries.len()
    );
    if builder.games() == 0 {
        eprintln!("book: warning: no game could be read from {pgn}");
    }
    Ok(())
}
