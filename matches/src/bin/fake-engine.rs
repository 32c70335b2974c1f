//! `fake-engine`: a scripted UCI engine for the match runner's tests.
//!
//! It plays the first legal move (or a random one with `--random SEED`)
//! and reports `info depth 1 score cp SCORE`. Counting its own moves in the
//! current game (reset by `ucinewgame`), it can misbehave once it has
//! played N moves:
//!
//! - `--crash-after N`: exits.
//! - `--illegal-after N`: sends an illegal move.
//! - `--slow-after N`: sleeps past its clock (by `--slow-by MS`, default
//!   200) before answering.
//! - `--stall-after N`: never answers again.
//!
//! `--hang-on-newgame` ignores the `isready` that follows `ucinewgame`;
//! `--score CP` sets the reported score (default 0); `--name NAME` its name;
//! `--castle` castles whenever it can. It declares the options a real
//! engine does (`Hash`, `Threads`, a combo, a check, `UCI_Chess960`) and
//! plays Chess960 when told `UCI_Chess960`.

use std::io::{BufRead, Write};
use std::process::exit;
use std::thread::sleep;
use std::time::Duration;

use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, Position, Role};

#[derive(Default)]
struct Script {
    name: String,
    crash_after: Option<u32>,
    illegal_after: Option<u32>,
    slow_after: Option<u32>,
    stall_after: Option<u32>,
    slow_by: u64,
    hang_on_newgame: bool,
    castle: bool,
    score: i32,
    seed: Option<u64>,
}

const USAGE: &str = "\
usage: fake-engine [OPTIONS]

A scripted UCI engine for borrow-match's tests: it plays the first legal
move and talks UCI on stdin/stdout.

options:
  --random SEED        play a random legal move (seeded) instead
  --crash-after N      exit after playing N moves in a game
  --illegal-after N    send an illegal move after N moves
  --slow-after N       answer late after N moves (by --slow-by MS)
  --slow-by MS         how late --slow-after answers (default 200)
  --stall-after N      never answer again after N moves
  --hang-on-newgame    ignore the isready that follows ucinewgame
  --castle             castle whenever it can
  --score CP           the score it reports (default 0)
  --name NAME          its UCI name (default fake)
  -h, --help           print this help and exit
";

/// A bad command line: the message, the usage hint, and exit status 2.
fn bad_usage(msg: &str) -> ! {
    eprintln!("fake-engine: {msg}");
    eprintln!("try 'fake-engine --help' for the options");
    exit(2);
}

fn parse_args() -> Script {
    let mut s = Script {
        name: "fake".into(),
        slow_by: 200,
        ..Script::default()
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| -> &String {
            it.next()
                .unwrap_or_else(|| bad_usage(&format!("{a} needs {what}")))
        };
        let mut num = || -> u64 {
            let v = value("a number");
            v.parse()
                .unwrap_or_else(|_| bad_usage(&format!("{a} needs a number, not '{v}'")))
        };
        let mut count = || -> u32 {
            let v = num();
            u32::try_from(v).unwrap_or_else(|_| bad_usage(&format!("{a} {v}: too large")))
        };
        match a.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                exit(0);
            }
            "--crash-after" => s.crash_after = Some(count()),
            "--illegal-after" => s.illegal_after = Some(count()),
            "--slow-after" => s.slow_after = Some(count()),
            "--stall-after" => s.stall_after = Some(count()),
            "--slow-by" => s.slow_by = num(),
            "--random" => s.seed = Some(num()),
            "--hang-on-newgame" => s.hang_on_newgame = true,
            "--castle" => s.castle = true,
            "--score" => {
                let v = value("a number");
                s.score = v
                    .parse()
                    .unwrap_or_else(|_| bad_usage(&format!("--score needs a number, not '{v}'")))
            }
            "--name" => s.name = value("a name").clone(),
            other => bad_usage(&format!("unknown argument '{other}'")),
        }
    }
    s
}

fn position(words: &[&str], mode: CastlingMode) -> Chess {
    let (mut pos, rest) = match words.first() {
        Some(&"startpos") => (Chess::default(), &words[1..]),
        Some(&"fen") => {
            let end = words
                .iter()
                .position(|&w| w == "moves")
                .unwrap_or(words.len());
            let fen = words[1..end].join(" ");
            let pos = fen
                .parse::<shakmaty::fen::Fen>()
                .ok()
                .and_then(|f| f.into_position(mode).ok())
                .unwrap_or_default();
            (pos, &words[end..])
        }
        _ => (Chess::default(), words),
    };
    for m in rest.iter().skip_while(|&&w| w == "moves") {
        if let Some(mv) = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok()) {
            pos.play_unchecked(mv);
        }
    }
    pos
}

/// A pawn of the side to move pushed three squares: never legal.
fn illegal_move(pos: &Chess) -> String {
    let pawns = pos.board().by_role(Role::Pawn) & pos.board().by_color(pos.turn());
    for sq in pawns {
        let rank = sq.rank() as i32;
        let to = if pos.turn() == Color::White {
            rank + 3
        } else {
            rank - 3
        };
        if (0..8).contains(&to) {
            let file = (b'a' + sq.file() as u8) as char;
            return format!("{file}{}{file}{}", rank + 1, to + 1);
        }
    }
    "0000".into()
}

fn main() {
    let s = parse_args();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Chess::default();
    let mut moves_played = 0u32;
    let mut ignore_isready = false;
    let mut mode = CastlingMode::Standard;
    let mut rng = rng::Rng::new(s.seed.unwrap_or(0));
    let mut say = |line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_ascii_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say(&format!("id name {}", s.name));
                say("id author the Borrow developers");
                say("option name Hash type spin default 16 min 1 max 65536");
                say("option name Threads type spin default 1 min 1 max 256");
                say("option name AttackMethod type combo default magic var magic var od");
                say("option name Ponder type check default false");
                say("option name UCI_Chess960 type check default false");
                say("uciok");
            }
            Some("isready") => {
                if std::mem::take(&mut ignore_isready) {
                    continue;
                }
                say("readyok");
            }
            Some("ucinewgame") => {
                moves_played = 0;
                ignore_isready = s.hang_on_newgame;
            }
            // setoption name UCI_Chess960 value true
            Some("setoption")
                if words
                    .get(2)
                    .is_some_and(|w| w.eq_ignore_ascii_case("UCI_Chess960")) =>
            {
                mode = if words.get(4).is_some_and(|w| w.eq_ignore_ascii_case("true")) {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
            }
            Some("position") => pos = position(&words[1..], mode),
            Some("go") => {
                let arg = |key: &str| -> Option<u64> {
                    let i = words.iter().position(|&w| w == key)?;
                    words.get(i + 1)?.parse().ok()
                };
                let n = moves_played;
                if s.crash_after == Some(n) {
                    exit(3);
                }
                if s.stall_after == Some(n) {
                    loop {
                        sleep(Duration::from_secs(3600));
                    }
                }
                if s.slow_after == Some(n) {
                    let clock = if pos.turn() == Color::White {
                        "wtime"
                    } else {
                        "btime"
                    };
                    let budget = arg("movetime").or(arg(clock)).unwrap_or(0);
                    sleep(Duration::from_millis(budget + s.slow_by));
                }
                moves_played += 1;
                say(&format!("info depth 1 score cp {} nodes 1", s.score));
                if s.illegal_after == Some(n) {
                    say(&format!("bestmove {}", illegal_move(&pos)));
                    continue;
                }
                let legal = pos.legal_moves();
                let castling = legal.iter().position(|m| m.is_castle());
                let pick = match (castling.filter(|_| s.castle), s.seed) {
                    (Some(i), _) => i,
                    (None, Some(_)) => rng.index(legal.len()),
                    _ => 0,
                };
                match legal.get(pick) {
                    Some(m) => say(&format!("bestmove {}", m.to_uci(mode))),
                    None => say("bestmove 0000"),
                }
            }
            Some("quit") => break,
            _ => {}
        }
    }
}
