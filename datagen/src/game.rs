//! One self-play game of `borrow-datagen`: the opening (a suite's position,
//! then random legal plies: `engine::selfplay`), fixed-node searches for both sides, the rules
//! and the adjudication that end it, and the positions it keeps.

use std::time::Duration;

use movegen::{Move, Position};
use rng::Rng;

use engine::search::{SearchResult, Shared};
use engine::selfplay::{GameSettings, opening, think};
use engine::tablebase::TbResult;
use nnue::data::viriformat::ViriGame;

/// A win is adjudicated when every score of this many consecutive plies is
/// at least [`WIN_SCORE`] for the same side (both engines agree).
pub const WIN_PLIES: usize = 8;
/// See [`WIN_PLIES`]; mate scores count too.
pub const WIN_SCORE: i32 = 1_000;
/// A draw is adjudicated when this many consecutive plies score within
/// [`DRAW_SCORE`] of zero, from [`DRAW_MOVE`] on.
pub const DRAW_PLIES: usize = 16;
/// See [`DRAW_PLIES`].
pub const DRAW_SCORE: i32 = 10;
/// See [`DRAW_PLIES`].
pub const DRAW_MOVE: u32 = 40;
/// A game still going at this full move is a draw.
pub const MAX_MOVE: u32 = 300;
/// How a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Checkmate, stalemate, repetition, fifty moves, insufficient material.
    Rules,
    /// Both sides' scores agreed on a win.
    AdjudicatedWin,
    /// Long near-zero scores, or the move limit.
    AdjudicatedDraw,
    /// The tablebases' verdict (the 50-move rule applied).
    Tablebase,
}

/// A played game.
#[derive(Clone, Debug)]
pub struct Game {
    /// The game from its first searched position: every searched ply's
    /// move and score (White's side), and the result.
    pub record: ViriGame,
    /// How it ended.
    pub ending: Ending,
    /// Plies played, the opening included.
    pub plies: usize,
    /// Time spent inside the searches.
    pub search_time: Duration,
}

/// The game's result (White's side) if the tablebases cover `pos` and it
/// follows a capture or pawn move.
fn tablebase_result(pos: &Position, settings: &GameSettings) -> Option<f32> {
    let tb = settings.syzygy.as_ref()?;
    if pos.halfmoves() != 0 {
        return None;
    }
    let white = match (tb.probe_wdl(pos)?, pos.turn()) {
        (TbResult::Draw, _) => 0.5,
        (TbResult::Win, attacks::Color::White) | (TbResult::Loss, attacks::Color::Black) => 1.0,
        _ => 0.0,
    };
    Some(white)
}

/// How many earlier positions of `keys` (within the reversible stretch of
/// `halfmoves` plies) repeat `key`.
fn repetitions(keys: &[u64], key: u64, halfmoves: u32) -> usize {
    keys.iter()
        .rev()
        .take(halfmoves as usize)
        .skip(1)
        .step_by(2)
        .filter(|&&k| k == key)
        .count()
}

/// Plays one game from `start` with `shared`'s table (emptied first), the
/// random choices drawn from `rng`. `None` when no playable opening was
/// found, or when `stop()` said to stop (it is asked before every move).
pub fn play(
    start: &Position,
    settings: &GameSettings,
    rng: &mut Rng,
    shared: &Shared,
    stop: &dyn Fn() -> bool,
) -> Option<Game> {
    let mut search_time = Duration::ZERO;
    let (mut pos, mut keys, _) = opening(start, settings, rng, shared, &mut search_time)?;
    let first = pos;
    let mut moves: Vec<(Move, i32)> = Vec::new();
    let mut plies = keys.len();
    let mut win_run: (i32, usize) = (0, 0);
    let mut draw_run = 0;
    let (result, ending) = loop {
        if stop() {
            return None;
        }
        // 1. The rules.
        if pos.legal_moves().is_empty() {
            let result = if !pos.is_check() {
                0.5
            } else if pos.turn() == attacks::Color::White {
                0.0
            } else {
                1.0
            };
            break (result, Ending::Rules);
        }
        if pos.halfmoves() >= 100
            || pos.is_insufficient_material()
            || repetitions(&keys, pos.key(), pos.halfmoves()) >= 2
        {
            break (0.5, Ending::Rules);
        }
        if pos.fullmoves() >= MAX_MOVE {
            break (0.5, Ending::AdjudicatedDraw);
        }
        // 1b. The tablebases, right after the capture or pawn move that
        //     brought the position into their reach (their WDL tables
        //     assume a half-move clock of 0).
        if let Some(result) = tablebase_result(&pos, settings) {
            break (result, Ending::Tablebase);
        }
        // 2. The search.
        let (SearchResult { best, score, .. }, took) = think(&pos, &keys, settings, shared);
        search_time += took;
        let white = if pos.turn() == attacks::Color::White {
            score
        } else {
            -score
        };
        // 3. Every searched ply is recorded (which ones a trainer learns
        //    from is [`nnue::data::trainable`]'s choice, made when they are written or
        //    loaded).
        moves.push((best, white));
        // 4. Adjudication: both sides' scores agree.
        let side = if white >= WIN_SCORE {
            1
        } else if white <= -WIN_SCORE {
            -1
        } else {
            0
        };
        win_run = if side != 0 && side == win_run.0 {
            (side, win_run.1 + 1)
        } else {
            (side, usize::from(side != 0))
        };
        if win_run.1 >= WIN_PLIES {
            break (if side > 0 { 1.0 } else { 0.0 }, Ending::AdjudicatedWin);
        }
        draw_run = if white.abs() <= DRAW_SCORE {
            draw_run + 1
        } else {
            0
        };
        if draw_run >= DRAW_PLIES && pos.fullmoves() >= DRAW_MOVE {
            break (0.5, Ending::AdjudicatedDraw);
        }
        keys.push(pos.key());
        pos.play_unchecked(best);
        plies += 1;
    };
    Some(Game {
        record: ViriGame {
            start: first,
            result,
            plies: moves,
        },
        ending,
        plies,
        search_time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::evaluator::Evaluator;
    use engine::tablebase::Tables;
    use nnue::score::MATE_BOUND;

    fn settings() -> GameSettings {
        GameSettings {
            nodes: 500,
            soft_nodes: None,
            random_plies: 8,
            evaluator: Evaluator::default(),
            syzygy: None,
        }
    }

    /// A game from the start position at 500 nodes, seeded with `seed`.
    fn play_from_start(seed: u64, shared: &Shared) -> Game {
        play(
            &Position::startpos(),
            &settings(),
            &mut Rng::new(seed),
            shared,
            &|| false,
        )
        .expect("the start position is no decided opening")
    }

    #[test]
    fn a_game_is_the_same_for_the_same_seed() {
        let shared = Shared::new(1);
        let a = play_from_start(7, &shared);
        let b = play_from_start(7, &shared);
        assert_eq!(a.record, b.record);
        assert_eq!((a.ending, a.plies), (b.ending, b.plies));
        assert!(a.plies > 8);
    }

    #[test]
    fn kept_positions_are_quiet_and_labelled_from_whites_side() {
        let shared = Shared::new(1);
        let g = play_from_start(3, &shared);
        let kept: Vec<(Position, i32)> = g.record.trainable_positions().collect();
        assert!(!kept.is_empty());
        for (pos, score) in &kept {
            assert!(!pos.is_check(), "{}", pos.fen());
            assert!(score.abs() < MATE_BOUND);
        }
        assert!([0.0, 0.5, 1.0].contains(&g.record.result));
        // The record starts after the 8 random plies, and every searched
        // ply is in it: one more than the plies played from there when an
        // adjudication ended the game after its search.
        assert!(g.record.start.fullmoves() >= 5);
        assert!(kept.len() < g.record.plies.len());
        let from_start = g.plies - 8;
        let extra = usize::from(g.ending != Ending::Rules);
        assert_eq!(g.record.plies.len(), from_start + extra);
    }

    #[test]
    fn a_decided_position_is_adjudicated_for_the_side_that_wins() {
        // Two queens up: the opening check refuses it (beyond OPENING_SCORE).
        let start = Position::from_fen("4k3/8/8/8/8/8/2QQK3/8 w - - 0 1").unwrap();
        let s = GameSettings {
            nodes: 2_000,
            soft_nodes: None,
            random_plies: 0,
            evaluator: Evaluator::default(),
            syzygy: None,
        };
        assert!(play(&start, &s, &mut Rng::new(1), &Shared::new(1), &|| false).is_none());
        // A knight up (about 500 to 650 cp by nets 7 and 8 at these nodes,
        // well within OPENING_SCORE; a rook up is near 1,000): played out,
        // and won.
        let start = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1").unwrap();
        let g = play(&start, &s, &mut Rng::new(1), &Shared::new(1), &|| false).unwrap();
        assert_eq!(g.record.result, 1.0);
        assert_eq!(g.ending, Ending::AdjudicatedWin);
    }

    /// The tables the engine's tests carry (3 and 4 pieces, some).
    fn syzygy() -> Tables {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/tests/data/syzygy");
        let (tables, _) = engine::tablebase::Syzygy::open(dir, u32::MAX, 1, true).unwrap();
        std::sync::Arc::new(tables)
    }

    fn with_tables() -> GameSettings {
        GameSettings {
            nodes: 1_000,
            soft_nodes: None,
            random_plies: 0,
            evaluator: Evaluator::default(),
            syzygy: Some(syzygy()),
        }
    }

    #[test]
    fn the_tablebases_give_the_result_from_whites_side() {
        let s = with_tables();
        let result = |fen: &str| tablebase_result(&Position::from_fen(fen).unwrap(), &s);
        // KQ v K: White wins, whoever is to move.
        assert_eq!(result("8/8/8/3k4/8/8/8/KQ6 w - - 0 1"), Some(1.0));
        assert_eq!(result("8/8/8/3k4/8/8/8/KQ6 b - - 0 1"), Some(1.0));
        // K v KQ: Black wins.
        assert_eq!(result("8/8/8/3K4/8/8/8/kq6 w - - 0 1"), Some(0.0));
        // KR v KR: a draw (python-chess's own probe of these tables agrees
        // on all four verdicts).
        assert_eq!(result("8/8/8/3k4/8/8/6r1/K1R5 w - - 0 40"), Some(0.5));
        // Not right after a capture or pawn move: the WDL tables do not
        // know the clock, so no verdict.
        assert_eq!(result("8/8/8/3k4/8/8/8/KQ6 w - - 3 40"), None);
        // Five pieces: beyond these tables.
        assert_eq!(result("8/8/8/3k4/8/8/1r5P/K1R5 w - - 0 40"), None);
        // No tables, no verdict.
        let none = GameSettings {
            syzygy: None,
            ..with_tables()
        };
        let pos = Position::from_fen("8/8/8/3k4/8/8/8/KQ6 w - - 0 1").unwrap();
        assert_eq!(tablebase_result(&pos, &none), None);
    }

    #[test]
    fn a_game_in_the_tables_ends_with_their_verdict_unsearched() {
        let start = Position::from_fen("8/8/8/3k4/8/8/6r1/K1R5 w - - 0 40").unwrap();
        let shared = Shared::new(1);
        let g = play(&start, &with_tables(), &mut Rng::new(1), &shared, &|| false).unwrap();
        assert_eq!((g.ending, g.record.result), (Ending::Tablebase, 0.5));
        assert!(g.record.plies.is_empty(), "{:?}", g.record.plies);
        let start = Position::from_fen("8/8/8/3k4/8/8/6r1/K1R5 w - - 5 40").unwrap();
        let g = play(&start, &with_tables(), &mut Rng::new(1), &shared, &|| false).unwrap();
        // The same position five plies from the last capture: the tables
        // are not asked until the next capture, so the game is searched.
        assert!(!g.record.plies.is_empty());
    }

    #[test]
    fn repetitions_count_the_same_side_to_move_only() {
        let keys = [1, 2, 1, 2, 1, 2];
        assert_eq!(repetitions(&keys, 1, 100), 3);
        assert_eq!(repetitions(&keys, 2, 100), 0);
        assert_eq!(repetitions(&keys, 1, 2), 1);
    }
}
