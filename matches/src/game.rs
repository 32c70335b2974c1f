//! One game between two engines, refereed by shakmaty.
//!
//! Every move an engine sends is checked for legality; the game ends by
//! the rules (checkmate, stalemate, insufficient material, the fifty-move
//! rule, threefold repetition), by adjudication (draw, resign, maximum
//! length), or by a failure of the engine to move: an illegal move, a
//! crash, a stall, or a time loss. A failure loses the game for that
//! engine.

use std::fmt;
use std::time::Duration;

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, KnownOutcome, Position};

use crate::clock::{Clock, Limits};
use crate::openings::{self, Opening};
use crate::uci_engine::{EngineConfig, EngineError, Info, Score, Search, UciEngine};

/// `-draw movenumber=N movecount=C score=S`: a draw when both engines'
/// scores have stayed within `S` centipawns of zero for `C` consecutive
/// moves each, once `N` full moves of the game (opening included) have
/// been played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// First full move at which the rule applies.
    pub movenumber: u32,
    /// Consecutive moves per engine.
    pub movecount: u32,
    /// Centipawns from zero.
    pub score: i32,
}

/// `-resign movecount=C score=S [twosided=true]`: a loss for an engine
/// whose own score has been at least `S` centipawns below zero (or a mate
/// against it) for `C` consecutive moves; with `twosided`, the opponent
/// must have agreed (score at least `S` above zero) as long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    /// Consecutive moves of the losing engine.
    pub movecount: u32,
    /// Centipawns below zero.
    pub score: i32,
    /// Whether the winner's scores must agree.
    pub twosided: bool,
}

/// Adjudication rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adjudication {
    /// Draw adjudication.
    pub draw: Option<DrawRule>,
    /// Resign adjudication.
    pub resign: Option<ResignRule>,
    /// `-maxmoves N`: a draw after `N` full moves (opening included).
    pub maxmoves: Option<u32>,
}

/// How an engine failed to play a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// Out of time (past the margin).
    TimeLoss,
    /// A move that is not legal (or not a move).
    IllegalMove,
    /// The process exited or its pipes broke.
    Crash,
    /// No `bestmove` long after the hard time, or no `readyok` in time.
    Stall,
}

impl Failure {
    /// All failures, in report order.
    pub const ALL: [Failure; 4] = [
        Failure::TimeLoss,
        Failure::IllegalMove,
        Failure::Crash,
        Failure::Stall,
    ];

    /// A short name (summary, JSON keys).
    pub fn name(self) -> &'static str {
        match self {
            Failure::TimeLoss => "time_losses",
            Failure::IllegalMove => "illegal_moves",
            Failure::Crash => "crashes",
            Failure::Stall => "stalls",
        }
    }
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The side to move is mated.
    Checkmate,
    /// The side to move has no move and is not in check.
    Stalemate,
    /// Neither side can mate.
    InsufficientMaterial,
    /// A hundred half-moves without a capture or pawn move.
    FiftyMoves,
    /// The same position for the third time.
    Repetition,
    /// Draw adjudication.
    DrawAdjudication,
    /// Resign adjudication.
    ResignAdjudication,
    /// `-maxmoves` reached.
    MaxMoves,
    /// An engine failed; the move text for an illegal move.
    Failure(Failure, Option<String>),
}

impl Termination {
    /// PGN's `Termination` tag.
    pub fn pgn_tag(&self) -> &'static str {
        match self {
            Termination::DrawAdjudication
            | Termination::ResignAdjudication
            | Termination::MaxMoves => "adjudication",
            Termination::Failure(Failure::TimeLoss, _) => "time forfeit",
            Termination::Failure(Failure::IllegalMove, _) => "illegal move",
            Termination::Failure(Failure::Crash, _) => "abandoned",
            Termination::Failure(Failure::Stall, _) => "stalled connection",
            _ => "normal",
        }
    }

    /// A short key for counting terminations.
    pub fn key(&self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FiftyMoves => "fifty_moves",
            Termination::Repetition => "repetition",
            Termination::DrawAdjudication => "draw_adjudication",
            Termination::ResignAdjudication => "resign_adjudication",
            Termination::MaxMoves => "max_moves",
            Termination::Failure(f, _) => match f {
                Failure::TimeLoss => "time_loss",
                Failure::IllegalMove => "illegal_move",
                Failure::Crash => "crash",
                Failure::Stall => "stall",
            },
        }
    }
}

/// One move an engine played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// SAN, with `+`/`#`.
    pub san: String,
    /// UCI.
    pub uci: String,
    /// The engine's last info.
    pub info: Info,
    /// Thinking time.
    pub elapsed: Duration,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The opening played.
    pub opening: Opening,
    /// The opening's moves in SAN.
    pub opening_san: Vec<String>,
    /// The engines' moves.
    pub moves: Vec<MoveRecord>,
    /// The result.
    pub result: KnownOutcome,
    /// Why the game ended.
    pub termination: Termination,
    /// The side whose engine failed, if one did.
    pub failed: Option<Color>,
    /// The time controls, for PGN: White's and Black's limits.
    pub limits: [Limits; 2],
    /// A Chess960 game (PGN's `Variant` tag).
    pub chess960: bool,
}

impl GameRecord {
    /// A sentence for the final PGN comment and the progress line.
    pub fn reason(&self) -> String {
        let side = |c: Color| if c == Color::White { "White" } else { "Black" };
        let winner = self.result.winner();
        let loser = winner.map(|w| side(!w)).unwrap_or("?");
        match &self.termination {
            Termination::Checkmate => format!("{} mates", winner.map(side).unwrap_or("?")),
            Termination::Stalemate => "Draw by stalemate".into(),
            Termination::InsufficientMaterial => "Draw by insufficient mating material".into(),
            Termination::FiftyMoves => "Draw by fifty moves rule".into(),
            Termination::Repetition => "Draw by 3-fold repetition".into(),
            Termination::DrawAdjudication => "Draw by adjudication".into(),
            Termination::ResignAdjudication => format!("{loser} resigns"),
            Termination::MaxMoves => "Draw by maximum game length".into(),
            Termination::Failure(Failure::TimeLoss, _) => format!("{loser} loses on time"),
            Termination::Failure(Failure::IllegalMove, mv) => format!(
                "{loser} makes an illegal move: {}",
                mv.as_deref().unwrap_or("?")
            ),
            Termination::Failure(Failure::Crash, _) => format!("{loser}'s engine crashed"),
            Termination::Failure(Failure::Stall, _) => format!("{loser}'s engine stalled"),
        }
    }
}

/// Reads back a sentence of [`GameRecord::reason`] (a PGN's last comment):
/// the termination, and for an engine's failure the side that failed.
/// `None` for a sentence `reason` does not write.
pub fn parse_reason(reason: &str) -> Option<(Termination, Option<Color>)> {
    let side = |s: &str| match s {
        "White" => Some(Color::White),
        "Black" => Some(Color::Black),
        _ => None,
    };
    let fixed = match reason {
        "Draw by stalemate" => Some(Termination::Stalemate),
        "Draw by insufficient mating material" => Some(Termination::InsufficientMaterial),
        "Draw by fifty moves rule" => Some(Termination::FiftyMoves),
        "Draw by 3-fold repetition" => Some(Termination::Repetition),
        "Draw by adjudication" => Some(Termination::DrawAdjudication),
        "Draw by maximum game length" => Some(Termination::MaxMoves),
        _ => None,
    };
    if let Some(t) = fixed {
        return Some((t, None));
    }
    if let Some(s) = reason.strip_suffix(" mates") {
        return side(s).map(|_| (Termination::Checkmate, None));
    }
    if let Some(s) = reason.strip_suffix(" resigns") {
        return side(s).map(|_| (Termination::ResignAdjudication, None));
    }
    let failures = [
        (" loses on time", Failure::TimeLoss),
        ("'s engine crashed", Failure::Crash),
        ("'s engine stalled", Failure::Stall),
    ];
    for (suffix, f) in failures {
        if let Some(s) = reason.strip_suffix(suffix) {
            return side(s).map(|c| (Termination::Failure(f, None), Some(c)));
        }
    }
    let (s, mv) = reason.split_once(" makes an illegal move: ")?;
    let mv = (mv != "?").then(|| mv.to_string());
    side(s).map(|c| (Termination::Failure(Failure::IllegalMove, mv), Some(c)))
}

/// The game was stopped (Ctrl-C, SPRT decided) before it ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("interrupted")
    }
}

/// An engine and its settings, seated at the board.
pub struct Seat<'a> {
    /// The running engine.
    pub engine: &'a mut UciEngine,
    /// Its configuration.
    pub config: &'a EngineConfig,
}

/// The `go` command for the side to move.
pub fn go_command(limits: [&Limits; 2], clocks: [Option<&Clock>; 2], turn: Color) -> String {
    let mut go = String::from("go");
    for (i, (prefix, inc)) in [("wtime", "winc"), ("btime", "binc")].iter().enumerate() {
        if let Some(c) = clocks[i] {
            go += &format!(
                " {prefix} {} {inc} {}",
                c.remaining_ms().max(1),
                c.increment().as_millis()
            );
        }
    }
    let me = if turn == Color::White { 0 } else { 1 };
    if let Some(mtg) = clocks[me].and_then(|c| c.moves_to_go()) {
        go += &format!(" movestogo {mtg}");
    }
    let l = limits[me];
    if let Some(st) = l.movetime {
        go += &format!(" movetime {}", st.as_millis());
    }
    if let Some(n) = l.nodes {
        go += &format!(" nodes {n}");
    }
    if let Some(d) = l.depth {
        go += &format!(" depth {d}");
    }
    go
}

/// Tracks the adjudication counters.
#[derive(Default)]
struct Adjudicator {
    rules: Adjudication,
    /// Consecutive plies with both scores near zero.
    drawish: u32,
    /// Per side: consecutive own moves with a losing / winning score.
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            ..Adjudicator::default()
        }
    }

    /// Folds in the score of `side`'s move; a verdict if one is due.
    /// `plies` counts the game's plies so far, opening included.
    fn update(
        &mut self,
        side: Color,
        score: Option<Score>,
        plies: usize,
    ) -> Option<(KnownOutcome, Termination)> {
        let idx = if side == Color::White { 0 } else { 1 };
        if let Some(rule) = self.rules.draw {
            match score {
                Some(Score::Cp(cp)) if cp.abs() <= rule.score => self.drawish += 1,
                _ => self.drawish = 0,
            }
            if self.drawish >= 2 * rule.movecount && plies / 2 >= rule.movenumber as usize {
                return Some((KnownOutcome::Draw, Termination::DrawAdjudication));
            }
        }
        if let Some(rule) = self.rules.resign {
            let (lose, win) = match score {
                Some(Score::Cp(cp)) => (cp <= -rule.score, cp >= rule.score),
                Some(Score::Mate(m)) => (m <= 0, m > 0),
                None => (false, false),
            };
            self.losing[idx] = if lose { self.losing[idx] + 1 } else { 0 };
            self.winning[idx] = if win { self.winning[idx] + 1 } else { 0 };
            let other = 1 - idx;
            if self.losing[idx] >= rule.movecount
                && (!rule.twosided || self.winning[other] >= rule.movecount)
            {
                return Some((
                    KnownOutcome::Decisive { winner: !side },
                    Termination::ResignAdjudication,
                ));
            }
        }
        None
    }
}

fn failure_of(e: &EngineError) -> Result<Failure, Interrupted> {
    match e {
        EngineError::Interrupted => Err(Interrupted),
        EngineError::Timeout(_) => Ok(Failure::Stall),
        EngineError::Crashed | EngineError::Spawn(_) => Ok(Failure::Crash),
    }
}

/// How the rules end the game in `pos`, if they do. `keys` holds the
/// Zobrist keys of every position of the game, the current one last.
pub fn rules_outcome(pos: &Chess, keys: &[u64]) -> Option<(KnownOutcome, Termination)> {
    if pos.is_checkmate() {
        return Some((
            KnownOutcome::Decisive {
                winner: !pos.turn(),
            },
            Termination::Checkmate,
        ));
    }
    if pos.is_stalemate() {
        return Some((KnownOutcome::Draw, Termination::Stalemate));
    }
    if pos.is_insufficient_material() {
        return Some((KnownOutcome::Draw, Termination::InsufficientMaterial));
    }
    if pos.halfmoves() >= 100 {
        return Some((KnownOutcome::Draw, Termination::FiftyMoves));
    }
    if let Some(&last) = keys.last() {
        // Only positions since the last capture or pawn move can repeat.
        let window = (pos.halfmoves() as usize + 1).min(keys.len());
        if keys[keys.len() - window..]
            .iter()
            .filter(|&&k| k == last)
            .count()
            >= 3
        {
            return Some((KnownOutcome::Draw, Termination::Repetition));
        }
    }
    None
}

fn key(pos: &Chess) -> u64 {
    pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0
}

/// The game's moves as the referee keeps them: the position, the keys of
/// every position so far (for repetitions), and the moves in UCI, opening
/// included, as the engines are sent them.
struct Board {
    pos: Chess,
    keys: Vec<u64>,
    uci_moves: Vec<String>,
}

impl Board {
    /// The board after the opening's moves, and those moves in SAN.
    fn after_opening(opening: &Opening, chess960: bool) -> (Board, Vec<String>) {
        let pos = openings::start_position(opening)
            .expect("openings are checked by the referee when they are read");
        let mut board = Board {
            keys: vec![key(&pos)],
            pos,
            uci_moves: Vec::new(),
        };
        let mut opening_san = Vec::new();
        for m in openings::uci_moves(opening, chess960) {
            let mv = m
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&board.pos).ok())
                .expect("openings are checked by the referee when they are read");
            opening_san.push(SanPlus::from_move_and_play_unchecked(&mut board.pos, mv).to_string());
            board.uci_moves.push(m);
            board.keys.push(key(&board.pos));
        }
        (board, opening_san)
    }

    /// The `position` command for the side to move: `prefix` (the start)
    /// and the moves so far.
    fn position_command(&self, prefix: &str) -> String {
        let mut position = prefix.to_string();
        if !self.uci_moves.is_empty() {
            position += " moves ";
            position += &self.uci_moves.join(" ");
        }
        position
    }

    /// Plays the engine's answer `mv_text` if it is a legal move: the move
    /// in UCI (as `chess960` writes castling) and in SAN; `None` if it is
    /// not.
    fn play(&mut self, mv_text: &str, chess960: bool) -> Option<(String, String)> {
        let mv = mv_text
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&self.pos).ok())?;
        let uci = mv.to_uci(CastlingMode::from_chess960(chess960)).to_string();
        let san = SanPlus::from_move_and_play_unchecked(&mut self.pos, mv).to_string();
        self.keys.push(key(&self.pos));
        self.uci_moves.push(uci.clone());
        Some((uci, san))
    }
}

/// Tells both engines a new game starts: the first side whose engine
/// fails to answer, and how (an engine that stalls is marked dead).
fn start_engines<'a>(
    white: &mut Seat<'a>,
    black: &mut Seat<'a>,
    grace: Duration,
) -> Result<Option<(Color, Failure)>, Interrupted> {
    for (side, seat) in [(Color::White, white), (Color::Black, black)] {
        if let Err(e) = seat.engine.new_game(grace) {
            let f = failure_of(&e)?;
            if f == Failure::Stall {
                seat.engine.mark_dead();
            }
            return Ok(Some((side, f)));
        }
    }
    Ok(None)
}

/// The longest a move under `limits` may take, margin included: what is
/// left on the `clock` and the fixed time per move, the shorter; `None`
/// without either.
fn hard_time(clock: Option<&Clock>, limits: &Limits) -> Option<Duration> {
    match (clock, limits.movetime) {
        (Some(c), Some(st)) => Some(c.remaining().min(st) + limits.margin),
        (Some(c), None) => Some(c.remaining() + limits.margin),
        (None, Some(st)) => Some(st + limits.margin),
        (None, None) => None,
    }
}

/// Charges `elapsed` to the `clock` (if any): whether the move came in
/// time, on the clock and within the fixed time per move of `limits`.
fn in_time(clock: Option<&mut Clock>, limits: &Limits, elapsed: Duration) -> bool {
    match (clock, limits.movetime) {
        (Some(c), st) => {
            c.spend(elapsed, limits.margin) && st.is_none_or(|st| elapsed <= st + limits.margin)
        }
        (None, Some(st)) => elapsed <= st + limits.margin,
        (None, None) => true,
    }
}

/// Plays one game: `seats[0]` has White, `seats[1]` Black. `grace` is how
/// long past the hard time an engine may take to answer before it counts
/// as stalled, and how long `readyok` may take.
pub fn play(
    seats: [Seat<'_>; 2],
    opening: &Opening,
    adjudication: Adjudication,
    grace: Duration,
    chess960: bool,
) -> Result<GameRecord, Interrupted> {
    let [mut white, mut black] = seats;
    let limits = [white.config.limits, black.config.limits];
    let (mut board, opening_san) = Board::after_opening(opening, chess960);
    let mut record = GameRecord {
        white: white.config.name.clone(),
        black: black.config.name.clone(),
        opening: opening.clone(),
        opening_san,
        moves: Vec::new(),
        result: KnownOutcome::Draw,
        termination: Termination::MaxMoves,
        failed: None,
        limits,
        chess960,
    };
    let finish = |mut record: GameRecord, result, termination, failed| {
        record.result = result;
        record.termination = termination;
        record.failed = failed;
        Ok(record)
    };
    let lose = |record: GameRecord, side: Color, f: Failure, mv: Option<String>| {
        finish(
            record,
            KnownOutcome::Decisive { winner: !side },
            Termination::Failure(f, mv),
            Some(side),
        )
    };

    if let Some((side, f)) = start_engines(&mut white, &mut black, grace)? {
        return lose(record, side, f, None);
    }

    let mut clocks: [Option<Clock>; 2] =
        [limits[0].tc.map(Clock::new), limits[1].tc.map(Clock::new)];
    let position_prefix = format!("position {}", opening.uci_start());
    let mut adjudicator = Adjudicator::new(adjudication);
    loop {
        if let Some((result, t)) = rules_outcome(&board.pos, &board.keys) {
            return finish(record, result, t, None);
        }
        let plies = board.uci_moves.len();
        if let Some(max) = adjudication.maxmoves
            && plies >= 2 * max as usize
        {
            return finish(record, KnownOutcome::Draw, Termination::MaxMoves, None);
        }
        let side = board.pos.turn();
        let i = if side == Color::White { 0 } else { 1 };
        let seat = if i == 0 { &mut white } else { &mut black };
        let position = board.position_command(&position_prefix);
        let go = go_command(
            [&limits[0], &limits[1]],
            [clocks[0].as_ref(), clocks[1].as_ref()],
            side,
        );
        let hard = hard_time(clocks[i].as_ref(), &limits[i]);
        let (mv_text, elapsed, info) = match seat.engine.search(&position, &go, hard, grace) {
            Search::BestMove { mv, elapsed, info } => (mv, elapsed, info),
            Search::Late { .. } => return lose(record, side, Failure::TimeLoss, None),
            Search::Stalled { .. } => return lose(record, side, Failure::Stall, None),
            Search::Crashed { .. } => return lose(record, side, Failure::Crash, None),
            Search::Interrupted => return Err(Interrupted),
        };
        if !in_time(clocks[i].as_mut(), &limits[i], elapsed) {
            return lose(record, side, Failure::TimeLoss, None);
        }
        let Some((uci, san)) = board.play(&mv_text, chess960) else {
            return lose(record, side, Failure::IllegalMove, Some(mv_text));
        };
        record.moves.push(MoveRecord {
            san,
            uci,
            info,
            elapsed,
        });
        if rules_outcome(&board.pos, &board.keys).is_none()
            && let Some((result, t)) = adjudicator.update(side, info.score, board.uci_moves.len())
        {
            return finish(record, result, t, None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::{parse_fen, play_uci};

    fn keys_of(start: &Chess, moves: &[&str]) -> (Chess, Vec<u64>) {
        let mut pos = start.clone();
        let mut keys = vec![key(&pos)];
        for m in moves {
            pos = play_uci(&pos, &[m.to_string()]).unwrap();
            keys.push(key(&pos));
        }
        (pos, keys)
    }

    /// Every sentence `reason` writes reads back as its termination, and a
    /// failure as the side that failed.
    #[test]
    fn reasons_read_back() {
        let mut terminations = vec![
            Termination::Checkmate,
            Termination::Stalemate,
            Termination::InsufficientMaterial,
            Termination::FiftyMoves,
            Termination::Repetition,
            Termination::DrawAdjudication,
            Termination::ResignAdjudication,
            Termination::MaxMoves,
            Termination::Failure(Failure::IllegalMove, Some("e2e5".into())),
            Termination::Failure(Failure::IllegalMove, None),
        ];
        terminations.extend(Failure::ALL.map(|f| Termination::Failure(f, None)));
        for termination in terminations {
            for winner in [Color::White, Color::Black] {
                let failed = matches!(termination, Termination::Failure(..)).then_some(!winner);
                let record = GameRecord {
                    white: "A".into(),
                    black: "B".into(),
                    opening: Opening::startpos(),
                    opening_san: Vec::new(),
                    moves: Vec::new(),
                    result: KnownOutcome::Decisive { winner },
                    termination: termination.clone(),
                    failed,
                    limits: [Limits::default(); 2],
                    chess960: false,
                };
                let reason = record.reason();
                assert_eq!(
                    parse_reason(&reason),
                    Some((termination.clone(), failed)),
                    "{reason}"
                );
            }
        }
        assert_eq!(parse_reason("Purple mates"), None);
        assert_eq!(parse_reason("White wins on points"), None);
    }

    #[test]
    fn rules_checkmate_and_stalemate() {
        let (pos, keys) = keys_of(&Chess::default(), &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(
            rules_outcome(&pos, &keys),
            Some((
                KnownOutcome::Decisive {
                    winner: Color::Black
                },
                Termination::Checkmate
            ))
        );
        let stale = parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(
            rules_outcome(&stale, &[key(&stale)]).map(|r| r.1),
            Some(Termination::Stalemate)
        );
        let bare = parse_fen("7k/8/6K1/8/8/8/8/5B2 b - - 0 1").unwrap();
        assert_eq!(
            rules_outcome(&bare, &[key(&bare)]).map(|r| r.1),
            Some(Termination::InsufficientMaterial)
        );
    }

    #[test]
    fn rules_fifty_moves_but_mate_first() {
        let fifty = parse_fen("7k/8/6K1/8/8/8/8/R7 b - - 100 80").unwrap();
        assert_eq!(
            rules_outcome(&fifty, &[key(&fifty)]).map(|r| r.1),
            Some(Termination::FiftyMoves)
        );
        let mated = parse_fen("R6k/8/6K1/8/8/8/8/8 b - - 100 80").unwrap();
        assert_eq!(
            rules_outcome(&mated, &[key(&mated)]).map(|r| r.1),
            Some(Termination::Checkmate)
        );
    }

    #[test]
    fn rules_threefold_repetition() {
        let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
        let (pos, keys) = keys_of(&Chess::default(), &shuffle);
        assert_eq!(rules_outcome(&pos, &keys), None); // twice
        let twice: Vec<&str> = shuffle.iter().chain(&shuffle).copied().collect();
        let (pos, keys) = keys_of(&Chess::default(), &twice);
        assert_eq!(
            rules_outcome(&pos, &keys).map(|r| r.1),
            Some(Termination::Repetition)
        );
    }

    #[test]
    fn go_commands() {
        let tc = Limits {
            tc: Some("40/60+0.6".parse().unwrap()),
            nodes: Some(1000),
            ..Limits::default()
        };
        let st = Limits {
            movetime: Some(Duration::from_millis(250)),
            depth: Some(7),
            ..Limits::default()
        };
        let c = Clock::new(tc.tc.unwrap());
        assert_eq!(
            go_command([&tc, &tc], [Some(&c), Some(&c)], Color::White),
            "go wtime 60000 winc 600 btime 60000 binc 600 movestogo 40 nodes 1000"
        );
        assert_eq!(
            go_command([&tc, &st], [Some(&c), None], Color::Black),
            "go wtime 60000 winc 600 movetime 250 depth 7"
        );
    }

    #[test]
    fn draw_adjudication() {
        let rules = Adjudication {
            draw: Some(DrawRule {
                movenumber: 10,
                movecount: 2,
                score: 10,
            }),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::new(rules);
        let cp = |v| Some(Score::Cp(v));
        // Four drawish plies, but only at move 5: not yet.
        for ply in 10..14 {
            let side = if ply % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(a.update(side, cp(5), ply), None);
        }
        // A score out of the window resets the count.
        let mut a = Adjudicator::new(rules);
        assert_eq!(a.update(Color::White, cp(5), 20), None);
        assert_eq!(a.update(Color::Black, cp(50), 21), None);
        assert_eq!(a.update(Color::White, cp(-3), 22), None);
        assert_eq!(a.update(Color::Black, cp(0), 23), None);
        assert_eq!(a.update(Color::White, cp(10), 24), None);
        assert_eq!(
            a.update(Color::Black, cp(-10), 25),
            Some((KnownOutcome::Draw, Termination::DrawAdjudication))
        );
    }

    #[test]
    fn resign_adjudication() {
        let one = Adjudication {
            resign: Some(ResignRule {
                movecount: 3,
                score: 500,
                twosided: false,
            }),
            ..Adjudication::default()
        };
        let mut a = Adjudicator::new(one);
        let black_wins = Some((
            KnownOutcome::Decisive {
                winner: Color::Black,
            },
            Termination::ResignAdjudication,
        ));
        assert_eq!(a.update(Color::White, Some(Score::Cp(-600)), 1), None);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(0)), 2), None);
        assert_eq!(a.update(Color::White, Some(Score::Mate(-5)), 3), None);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(0)), 4), None);
        assert_eq!(a.update(Color::White, Some(Score::Cp(-500)), 5), black_wins);
        // Two-sided: Black's scores must agree.
        let mut two = one;
        two.resign.as_mut().unwrap().twosided = true;
        let mut a = Adjudicator::new(two);
        for ply in 0..3 {
            assert_eq!(a.update(Color::White, Some(Score::Cp(-900)), 2 * ply), None);
            let r = a.update(
                Color::Black,
                Some(Score::Cp(if ply == 1 { 100 } else { 900 })),
                2 * ply + 1,
            );
            assert_eq!(r, None);
        }
        assert_eq!(a.update(Color::White, Some(Score::Cp(-900)), 6), None);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(900)), 7), None);
        assert_eq!(a.update(Color::White, Some(Score::Cp(-900)), 8), None);
        assert_eq!(a.update(Color::Black, Some(Score::Cp(900)), 9), None);
        assert_eq!(
            a.update(Color::White, Some(Score::Cp(-900)), 10),
            black_wins
        );
    }
}
