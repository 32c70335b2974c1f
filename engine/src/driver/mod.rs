//! The UCI driver: holds the position and options, runs searches on a
//! background thread, and turns reports into `info` lines. The input loop
//! stays free, so `isready` is answered and `stop`/`quit` act at once while a
//! search runs.
//!
//! - `report`: a search's reports as `info` lines, and every line said.
//! - `board`: the board `d` shows.
//! - `setoption`: an option set, and what it opens: the book, the net, the
//!   tablebases.

use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Instant;

use attacks::{SliderAttacks, dispatch};
use movegen::{CastlingMode, Move, Position};

use book::{Book, plural};
use rng::Rng;

use crate::eval::evaluate;
use crate::evaluator::{EvalKind, Evaluator, net_defers};
use crate::options::{OPTIONS, Options};
use crate::position_command::{self, move_error};
use crate::search::{Limits, Reporter, Shared, Strength, search};
use crate::tablebase::Tables;
use crate::tt::Table;
use crate::uci::{Command, Go};
use nnue::{Accumulator, Network};

mod board;
mod report;
mod setoption;

use board::board_lines;
use report::{UciReporter, say};

/// The engine's name and version, for `id name`.
pub const NAME: &str = concat!("Borrow ", env!("CARGO_PKG_VERSION"));
/// For `id author`.
pub const AUTHOR: &str = "the Borrow developers";

/// Where output lines go (stdout in the binary, a buffer in tests).
pub type Output = Arc<Mutex<dyn Write + Send>>;

/// What `help` prints: the commands a person at the terminal can type.
const HELP: [&str; 13] = [
    "Borrow speaks UCI. Commands:",
    "  uci                        identify, list the options, uciok",
    "  isready                    readyok",
    "  setoption name N [value V] set an option ('uci' lists them)",
    "  ucinewgame                 forget the last game",
    "  position startpos|fen F [moves M...]",
    "  go [depth D|nodes N|movetime MS|wtime .. btime .. winc .. binc ..|infinite]",
    "  stop, ponderhit, quit",
    "Not UCI, for the terminal:",
    "  d                          show the position",
    "  eval                       the static evaluation, both kinds",
    "  perft N                    count the moves to depth N",
    "  genfens N seed S book <None|FILE>   start positions for OpenBench datagen",
];

/// The UCI engine state.
pub struct Driver {
    out: Output,
    options: Options,
    shared: Arc<Shared>,
    /// Whether the table is not yet the size of `Hash`: the table of `Hash`
    /// megabytes is made at the next `isready`, `ucinewgame` or `go`, so a
    /// `Hash` set before it is the only large table the process ever holds,
    /// and `setoption name Hash` never blocks the input loop (a `quit` after
    /// it acts at once, however large the table asked for).
    table_pending: bool,
    /// The size of the table held now, in MB (1: the stand-in).
    table_mb: usize,
    /// The position of the last `position` command and the keys of the
    /// positions before it; or why that command gave no position to play
    /// (then `go` answers `bestmove 0000`, never a move of an older one).
    position: Result<Position, String>,
    history: Vec<u64>,
    search: Option<JoinHandle<()>>,
    debug: bool,
    /// The loaded opening book, if `BookFile` named a readable one.
    book: Option<Book>,
    /// Chooses among book moves by weight, and the move played below full
    /// strength; seeded from the clock.
    rng: Rng,
    /// The Syzygy tables `SyzygyPath` opened, if any.
    syzygy: Option<Tables>,
    /// The net `Evaluation nnue` plays with: the built-in one, or the
    /// `EvalFile` loaded.
    net: Arc<Network>,
}

impl Driver {
    /// A driver writing to `out`, at the starting position.
    pub fn new(out: Output) -> Driver {
        let options = Options::default();
        Driver {
            out,
            shared: Arc::new(Shared::new(1)),
            table_pending: true,
            table_mb: 1,
            options,
            position: Ok(Position::startpos()),
            history: Vec::new(),
            search: None,
            debug: false,
            book: None,
            syzygy: None,
            net: Evaluator::built_in_net(),
            rng: Rng::new(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0x9e37_79b9, |d| d.as_nanos() as u64),
            ),
        }
    }

    fn say(&self, line: &str) {
        say(&self.out, line);
    }

    fn info_string(&self, text: &str) {
        // Messages may quote the GUI's input: escape control characters so
        // that the output stays one line of text (no NUL, CR, ESC, ...), and
        // cut what no one would read (quotes are cut already; this is the
        // net under them).
        let mut line = String::from("info string ");
        for c in quote_long(text).chars() {
            if c.is_control() {
                line.extend(c.escape_default());
            } else {
                line.push(c);
            }
        }
        self.say(&line);
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop_search(&mut self) {
        if let Some(handle) = self.search.take() {
            self.shared.stop.store(true, Ordering::Relaxed);
            self.shared.pondering.store(false, Ordering::Relaxed);
            let _ = handle.join();
        }
    }

    /// Makes the table of `Hash` megabytes if it is still pending and no
    /// search holds the table (then the next `go` or `ucinewgame` makes it,
    /// after stopping the search).
    fn make_table(&mut self) {
        if !self.table_pending || self.searching() {
            return;
        }
        self.table_pending = false;
        let mb = self.options.hash_mb;
        if mb == self.table_mb {
            return;
        }
        match self.resize_table(mb) {
            Ok(()) => self.table_mb = mb,
            Err(e) => {
                // The table kept its size (emptied).
                self.info_string(&format!(
                    "option 'Hash': cannot allocate {e}; keeping {} MB",
                    self.table_mb
                ));
                self.options.hash_mb = self.table_mb;
            }
        }
    }

    /// Resizes the table (no search may run); on failure it keeps its size,
    /// emptied, and the error names the size refused.
    fn resize_table(&mut self, mb: usize) -> Result<(), String> {
        self.table_pending = false;
        let refused = |e| format!("{mb} MB ({e})");
        match Arc::get_mut(&mut self.shared) {
            // No search holds the table: free it before allocating.
            Some(shared) => shared.tt.resize(mb).map_err(refused),
            None => {
                let table = Table::try_new(mb).map_err(refused)?;
                self.shared = Arc::new(Shared::with_table(table));
                Ok(())
            }
        }
    }

    fn searching(&mut self) -> bool {
        match &self.search {
            Some(h) if !h.is_finished() => true,
            Some(_) => {
                if let Some(h) = self.search.take() {
                    let _ = h.join();
                }
                false
            }
            None => false,
        }
    }

    /// Handles one command; returns `false` on `quit`.
    pub fn handle(&mut self, cmd: Command) -> bool {
        match cmd {
            Command::Uci => self.uci(),
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.make_table();
                self.say("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::UciNewGame => {
                self.stop_search();
                self.make_table();
                self.shared.new_game();
            }
            Command::Position { fen, moves } => {
                self.stop_search();
                let mode = CastlingMode::from_chess960(self.options.chess960);
                let reading = position_command::read(fen.as_deref(), &moves, mode);
                for note in &reading.notes {
                    self.info_string(note);
                }
                self.set_position(reading.position);
            }
            Command::BadPosition(why) => {
                self.stop_search();
                self.set_position(Err(why));
            }
            Command::Go(go) => {
                self.stop_search();
                self.make_table();
                for note in &go.notes {
                    self.info_string(note);
                }
                self.go(go);
            }
            Command::Stop => self.stop_search(),
            Command::PonderHit => {
                // Only a ponder search has a clock to start: a stray
                // `ponderhit` must not restart the clock of a timed search.
                if self.shared.pondering.load(Ordering::Relaxed) {
                    if let Ok(mut at) = self.shared.ponderhit_at.lock() {
                        *at = Some(Instant::now());
                    }
                    self.shared.pondering.store(false, Ordering::Relaxed);
                }
            }
            Command::Quit => {
                self.stop_search();
                return false;
            }
            Command::Register => {}
            Command::Display => {
                let Some(pos) = self.playable("show") else {
                    return true;
                };
                for line in board_lines(&pos) {
                    self.say(&line);
                }
                self.say(&format!("fen {}", pos.fen()));
                self.say(&format!("key {:016x}", pos.key()));
            }
            Command::Eval => {
                let Some(pos) = self.playable("evaluate") else {
                    return true;
                };
                let classical =
                    dispatch!(self.options.method, A => evaluate(&pos.with_method::<A>()));
                let nnue = Accumulator::refresh(&self.net, &pos).evaluate(&self.net, &pos);
                // The evaluation the search uses first.
                let defers = self.options.evaluation == EvalKind::Nnue && net_defers(&pos);
                let (first, second) = match self.options.evaluation {
                    EvalKind::Nnue if !defers => (("nnue", nnue), ("classical", classical)),
                    _ => (("classical", classical), ("nnue", nnue)),
                };
                let why = if defers {
                    "; against a bare king the net defers to the mop-up"
                } else {
                    ""
                };
                self.say(&format!(
                    "eval {} (side to move, {}; {} {}{why})",
                    first.1, first.0, second.0, second.1
                ));
            }
            Command::Perft(depth) => {
                self.stop_search();
                self.perft(depth);
            }
            Command::Help => {
                for line in HELP {
                    self.say(line);
                }
            }
            Command::Genfens(request) => {
                self.stop_search();
                let out = &self.out;
                let result = crate::genfens::genfens(&request, |pos| {
                    say(out, &format!("info string genfens {}", pos.fen()));
                });
                if let Err(e) = result {
                    self.info_string(&e);
                }
            }
            Command::Empty => {}
            Command::Invalid(why) => self.info_string(&format!("ignored: {why}")),
        }
        true
    }

    fn uci(&self) {
        self.say(&format!("id name {NAME}"));
        self.say(&format!("id author {AUTHOR}"));
        for spec in &OPTIONS {
            self.say(&spec.declaration());
        }
        #[cfg(feature = "spsa")]
        for line in crate::search::params::uci_options() {
            self.say(&line);
        }
        self.say("uciok");
    }

    /// Sets the position a `position` command read, or none, saying why.
    fn set_position(&mut self, read: Result<(Position, Vec<u64>), String>) {
        match read {
            Ok((pos, history)) => {
                self.position = Ok(pos);
                self.history = history;
            }
            Err(why) => {
                self.info_string(&format!(
                    "{why}; no position to play: 'go' answers 'bestmove 0000' \
                     until a 'position' that can be played"
                ));
                self.position = Err(why);
                self.history.clear();
            }
        }
    }

    /// The position to act on, or `None` after saying that there is none to
    /// `act` on, and why.
    fn playable(&self, act: &str) -> Option<Position> {
        match &self.position {
            Ok(pos) => Some(*pos),
            Err(why) => {
                self.info_string(&format!("no position to {act} ({why})"));
                None
            }
        }
    }

    /// A move from the opening book for a timed or fixed search, if the book
    /// is on and has one here.
    fn book_move(&mut self, go: &Go, pos: &Position) -> Option<Move> {
        if !self.options.own_book || go.infinite || go.ponder || !go.searchmoves.is_empty() {
            return None;
        }
        if pos.fullmoves() > self.options.book_depth {
            return None;
        }
        let book = self.book.as_ref()?;
        let moves = book.probe(pos);
        let chosen = book::choose_weighted(&moves, &mut self.rng)?;
        let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
        let text = format!(
            "book move {} from {} (weight {} of {total}, {} here)",
            chosen.mv.uci(self.options.chess960),
            self.options.book_file,
            chosen.weight,
            plural(moves.len(), "book move")
        );
        let mv = chosen.mv;
        self.info_string(&text);
        Some(mv)
    }

    fn go(&mut self, go: Go) {
        // No position: `bestmove 0000`, never a move of the position before.
        let Some(pos) = self.playable("search") else {
            self.answer_without_position(&go);
            return;
        };
        let chess960 = self.options.chess960;
        let wdl_material = self
            .options
            .show_wdl
            .then(|| crate::win_rate::material(&pos));
        if let Some(m) = self.book_move(&go, &pos) {
            self.say(&format!("bestmove {}", m.uci(chess960)));
            return;
        }
        let (soft, hard) = crate::time::limits_of_go(&go, pos.turn(), self.options.move_overhead);
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match pos.parse_uci(text) {
                Ok(m) => searchmoves.push(m),
                Err(e) => self.info_string(&format!("searchmoves: {}; left out", move_error(&e))),
            }
        }
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            soft_nodes: None,
            mate: go.mate,
            soft_time: soft,
            hard_time: hard,
            infinite: go.infinite,
            searchmoves,
            multipv: self.options.multipv,
            syzygy: self.syzygy.clone(),
            strength: None,
            evaluator: match self.options.evaluation {
                EvalKind::Classical => Evaluator::Classical,
                EvalKind::Nnue => Evaluator::Nnue(Arc::clone(&self.net)),
            },
        };
        if self.options.limit_strength {
            let strength = Strength {
                elo: self.options.elo,
                draw: self.rng.next_u64(),
            };
            let budget = strength.nodes();
            limits.nodes = Some(limits.nodes.map_or(budget, |n| n.min(budget)));
            limits.multipv = limits.multipv.max(strength.lines());
            limits.strength = Some(strength);
        }
        let shared = Arc::clone(&self.shared);
        shared.stop.store(false, Ordering::Relaxed);
        shared.pondering.store(go.ponder, Ordering::Relaxed);
        if let Ok(mut at) = shared.ponderhit_at.lock() {
            *at = None;
        }
        let out = Arc::clone(&self.out);
        let history = self.history.clone();
        let threads = self.options.threads;
        let method = self.options.method;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let reporter = UciReporter {
                    out: Arc::clone(&out),
                    chess960,
                    wdl_material,
                };
                let outcome = dispatch!(method, A => run::<A>(&pos, &history, &limits, threads, &shared, &reporter));
                let line = if outcome.best.is_null() {
                    "bestmove 0000".to_owned()
                } else {
                    let best = outcome.best.uci(chess960);
                    match outcome.ponder {
                        Some(p) => format!("bestmove {best} ponder {}", p.uci(chess960)),
                        None => format!("bestmove {best}"),
                    }
                };
                say(&out, &line);
            });
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.info_string(&format!("cannot start the search thread: {e}"));
                let fallback = pos
                    .legal_moves()
                    .first()
                    .map_or("0000".to_owned(), |m| m.uci(chess960).to_string());
                self.say(&format!("bestmove {fallback}"));
            }
        }
    }

    /// `bestmove 0000` for a `go` with no position: at once, or for `go
    /// infinite` and `go ponder` at `stop` (or `ponderhit`), which UCI
    /// asks of every such search, as a search with no legal move waits.
    fn answer_without_position(&mut self, go: &Go) {
        if !(go.infinite || go.ponder) {
            self.say("bestmove 0000");
            return;
        }
        let shared = Arc::clone(&self.shared);
        shared.stop.store(false, Ordering::Relaxed);
        shared.pondering.store(go.ponder, Ordering::Relaxed);
        let out = Arc::clone(&self.out);
        let infinite = go.infinite;
        let waiting = std::thread::Builder::new()
            .name("search".into())
            .spawn(move || {
                crate::search::wait_for_stop(infinite, &shared);
                say(&out, "bestmove 0000");
            });
        match waiting {
            Ok(h) => self.search = Some(h),
            Err(e) => {
                self.info_string(&format!("cannot start the search thread: {e}"));
                self.say("bestmove 0000");
            }
        }
    }
}

fn run<A: SliderAttacks>(
    pos: &Position,
    history: &[u64],
    limits: &Limits,
    threads: usize,
    shared: &Shared,
    reporter: &dyn Reporter,
) -> crate::search::SearchResult {
    search(
        &pos.with_method::<A>(),
        history,
        limits,
        threads,
        shared,
        reporter,
    )
}

impl Driver {
    /// `perft N` on the search thread, so that the input loop stays free:
    /// `isready` is answered, and `stop`, `quit`, `go` and `position` end it
    /// (then it says so instead of a count).
    fn perft(&mut self, depth: u32) {
        let Some(pos) = self.playable("count") else {
            return;
        };
        let shared = Arc::clone(&self.shared);
        shared.stop.store(false, Ordering::Relaxed);
        let out = Arc::clone(&self.out);
        let handle =
            std::thread::Builder::new().name("perft".into()).spawn(
                move || match perft::perft_until(&pos, depth, &shared.stop) {
                    Some(n) => say(&out, &format!("perft {depth} {n}")),
                    None => say(&out, &format!("info string perft {depth} stopped")),
                },
            );
        match handle {
            Ok(h) => self.search = Some(h),
            Err(e) => self.info_string(&format!("cannot start the perft thread: {e}")),
        }
    }
}

/// A message cut to what an `info string` shows.
fn quote_long(text: &str) -> std::borrow::Cow<'_, str> {
    const MAX: usize = 2000;
    if text.chars().count() <= MAX {
        return text.into();
    }
    let mut cut: String = text.chars().take(MAX).collect();
    cut.push('…');
    cut.into()
}

impl Drop for Driver {
    fn drop(&mut self) {
        self.stop_search();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `BookFile` naming a device or a pipe is refused at once: reading
    /// `/dev/zero` whole took all memory, and `/dev/stdin` (the GUI's pipe)
    /// blocked the engine until the GUI closed it.
    #[test]
    fn book_file_that_is_not_a_regular_file_is_refused() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            if std::fs::metadata(path).is_err() {
                continue; // not on this system
            }
            let buffer = Arc::new(Mutex::new(Vec::new()));
            let out: Output = buffer.clone();
            let mut d = Driver::new(out);
            d.handle(crate::uci::parse(&format!(
                "setoption name BookFile value {path}"
            )));
            let out = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
            assert!(out.contains("not a regular file"), "{path}: {out}");
            assert!(d.book.is_none() && d.options.book_file.is_empty());
        }
    }

    /// Found by fuzzing the driver: clock values near the ends of `i64`
    /// overflowed time management's arithmetic (a panic with overflow
    /// checks, nonsense limits without). Each `go` now gets its bestmove.
    #[test]
    fn extreme_clocks_are_no_overflow() {
        for go in [
            "go movetime -9223372036854775808",
            "go movetime 9223372036854775807",
            "go wtime 9223372036854775807",
            "go wtime -9223372036854775808",
            "go wtime 100 winc 9223372036854775807",
            "go btime 9223372036854775807 binc -9223372036854775808",
        ] {
            let buffer = Arc::new(Mutex::new(Vec::new()));
            let out: Output = buffer.clone();
            let mut d = Driver::new(out);
            d.handle(crate::uci::parse(go));
            d.handle(Command::Stop);
            let out = String::from_utf8(buffer.lock().unwrap().clone()).unwrap();
            assert_eq!(out.matches("bestmove").count(), 1, "{go}: {out}");
        }
    }
}
