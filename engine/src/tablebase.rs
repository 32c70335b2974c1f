//! Syzygy endgame tablebases, probed with `shakmaty-syzygy` (a well-kept
//! reader by shakmaty's author, GPL-3 like Borrow): WDL in the search, DTZ at
//! the root. The options are Stockfish's: `SyzygyPath` (folders separated by
//! `:`, `;` on Windows), `SyzygyProbeDepth`, `Syzygy50MoveRule` and
//! `SyzygyProbeLimit`.
//!
//! The tables are read through shakmaty's position type; a Borrow position is
//! converted only when it is probed (few pieces, no castling rights).

use std::path::Path;
use std::sync::Arc;

use attacks::SliderAttacks;
use movegen::{Move, Position, Role};
use shakmaty::{CastlingMode, Chess, FromSetup, Position as _};
use shakmaty_syzygy::{AmbiguousWdl, Tablebase, Wdl};

use nnue::score::{MAX_PLY, TB_WIN};

/// Opened tables and how to probe them.
pub struct Syzygy {
    tables: Tablebase<Chess>,
    /// The most pieces (kings included) a probe is tried with: the largest
    /// table's, or `SyzygyProbeLimit` if smaller.
    pub cardinality: u32,
    /// `SyzygyProbeDepth`: the least depth at which positions with exactly
    /// `cardinality` pieces are probed in the search.
    pub probe_depth: i32,
    /// `Syzygy50MoveRule`: a win the 50-move rule frustrates is a draw.
    pub rule50: bool,
    /// How many table files were opened.
    pub files: usize,
}

/// The outcome of a probe for the side to move, the 50-move rule applied as
/// `Syzygy50MoveRule` says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TbResult {
    /// A win.
    Win,
    /// A draw.
    Draw,
    /// A loss.
    Loss,
}

impl Syzygy {
    /// Opens every table in the folders of `path` (separated by `:`, or `;`
    /// on Windows), with the warnings about folders that could not be used
    /// beside ones that could. With no table at all, the error says why for
    /// each folder.
    pub fn open(
        path: &str,
        probe_limit: u32,
        probe_depth: i32,
        rule50: bool,
    ) -> Result<(Syzygy, Vec<String>), String> {
        let mut tables = Tablebase::new();
        let separator = if cfg!(windows) { ';' } else { ':' };
        let mut problems = Vec::new();
        let mut files = 0;
        for folder in path
            .split(separator)
            .map(str::trim)
            .filter(|f| !f.is_empty())
        {
            if !Path::new(folder).is_dir() {
                problems.push(format!("'{folder}' is not a folder"));
                continue;
            }
            match tables.add_directory(folder) {
                Ok(0) => problems.push(format!("'{folder}' holds no Syzygy tables")),
                Ok(n) => files += n,
                Err(e) => problems.push(format!("'{folder}': {e}")),
            }
        }
        if files == 0 {
            if problems.is_empty() {
                problems.push("no folder given".into());
            }
            return Err(problems.join("; "));
        }
        let cardinality = (tables.max_pieces() as u32).min(probe_limit);
        let syzygy = Syzygy {
            tables,
            cardinality,
            probe_depth,
            rule50,
            files,
        };
        Ok((syzygy, problems))
    }

    /// Whether `pos` is one the tables can answer: few enough pieces and no
    /// castling rights.
    #[inline]
    pub fn covers<A: SliderAttacks>(&self, pos: &Position<A>) -> bool {
        pos.occupied().count() <= self.cardinality && pos.castling().is_empty()
    }

    fn outcome(&self, wdl: Wdl) -> TbResult {
        match wdl {
            Wdl::Win => TbResult::Win,
            Wdl::CursedWin if !self.rule50 => TbResult::Win,
            Wdl::Loss => TbResult::Loss,
            Wdl::BlessedLoss if !self.rule50 => TbResult::Loss,
            _ => TbResult::Draw,
        }
    }

    /// The WDL outcome of `pos`, which must follow a capture or pawn move
    /// (half-move clock 0), as the WDL tables assume. `None` if the tables
    /// do not answer (too many pieces, a missing or corrupt table).
    pub fn probe_wdl<A: SliderAttacks>(&self, pos: &Position<A>) -> Option<TbResult> {
        if !self.covers(pos) {
            return None;
        }
        let chess = to_shakmaty(pos)?;
        let wdl = self.tables.probe_wdl_after_zeroing(&chess).ok()?;
        Some(self.outcome(wdl))
    }

    /// At the root: the moves that keep the best outcome the tables allow,
    /// and that outcome. Winning, the moves that reach a zeroing move soonest
    /// (DTZ); losing, the ones that put it off longest; drawing, every
    /// drawing move (the search chooses). `None` if the tables do not
    /// answer for every move.
    /// The third value is the score to report: a tablebase win or loss
    /// (`TB_WIN` less the plies to the next zeroing move), or 0.
    pub fn root_moves<A: SliderAttacks>(
        &self,
        pos: &Position<A>,
    ) -> Option<(Vec<Move>, TbResult, i32)> {
        if !self.covers(pos) {
            return None;
        }
        let mut ranked = Vec::new();
        for m in pos.legal_moves() {
            let mut child = pos.to_owned();
            child.play_unchecked(m);
            let after = to_shakmaty(&child)?;
            // From the mover's side: the negated result of the reply.
            let (outcome, plies) = if after.is_checkmate() {
                (TbResult::Win, 0)
            } else {
                let dtz = self.tables.probe_dtz(&after).ok()?.ignore_rounding();
                let wdl = self.tables.probe_wdl(&after).ok()?;
                let mine = match self.outcome(resolve(wdl)) {
                    TbResult::Win => TbResult::Loss,
                    TbResult::Loss => TbResult::Win,
                    TbResult::Draw => TbResult::Draw,
                };
                // A zeroing move resets the count: the child's DTZ is the rest.
                (mine, dtz.0.unsigned_abs())
            };
            ranked.push((m, outcome, plies));
        }
        let best = ranked.iter().map(|r| rank(r.1)).max()?;
        ranked.retain(|r| rank(r.1) == best);
        let outcome = ranked[0].1;
        let plies = match outcome {
            TbResult::Win => ranked.iter().map(|r| r.2).min()?,
            TbResult::Loss => ranked.iter().map(|r| r.2).max()?,
            TbResult::Draw => 0,
        };
        let keep: Vec<Move> = ranked
            .iter()
            .filter(|r| outcome == TbResult::Draw || r.2 == plies)
            .map(|r| r.0)
            .collect();
        let away = (plies as i32 + 1).min(MAX_PLY as i32);
        let score = match outcome {
            TbResult::Win => TB_WIN - away,
            TbResult::Loss => -TB_WIN + away,
            TbResult::Draw => 0,
        };
        Some((keep, outcome, score))
    }
}

/// A DTZ-rounded WDL read as its best case for the side to move: a maybe-win
/// is a win, a maybe-loss a loss the 50-move rule saves.
fn resolve(wdl: AmbiguousWdl) -> Wdl {
    match wdl {
        AmbiguousWdl::Loss => Wdl::Loss,
        AmbiguousWdl::MaybeLoss | AmbiguousWdl::BlessedLoss => Wdl::BlessedLoss,
        AmbiguousWdl::Draw => Wdl::Draw,
        AmbiguousWdl::CursedWin => Wdl::CursedWin,
        AmbiguousWdl::MaybeWin | AmbiguousWdl::Win => Wdl::Win,
    }
}

fn rank(o: TbResult) -> i32 {
    match o {
        TbResult::Win => 1,
        TbResult::Draw => 0,
        TbResult::Loss => -1,
    }
}

/// The shakmaty position of `pos` (without castling rights, which probed
/// positions never have).
fn to_shakmaty<A: SliderAttacks>(pos: &Position<A>) -> Option<Chess> {
    let mut setup = shakmaty::Setup::empty();
    for sq in pos.occupied() {
        let p = pos.piece_at(sq)?;
        let role = match p.role {
            Role::Pawn => shakmaty::Role::Pawn,
            Role::Knight => shakmaty::Role::Knight,
            Role::Bishop => shakmaty::Role::Bishop,
            Role::Rook => shakmaty::Role::Rook,
            Role::Queen => shakmaty::Role::Queen,
            Role::King => shakmaty::Role::King,
        };
        let color = shakmaty::Color::from_white(p.color == attacks::Color::White);
        setup
            .board
            .set_piece_at(shakmaty::Square::new(sq as u32), role.of(color));
    }
    setup.turn = shakmaty::Color::from_white(pos.turn() == attacks::Color::White);
    setup.ep_square = pos.ep_square().map(|s| shakmaty::Square::new(s as u32));
    setup.halfmoves = pos.halfmoves();
    match Chess::from_setup(setup, CastlingMode::Standard) {
        Ok(chess) => Some(chess),
        // Our en-passant square is FEN's (after any double push).
        Err(e) => e.ignore_invalid_ep_square().ok(),
    }
}

impl core::fmt::Debug for Syzygy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Syzygy")
            .field("files", &self.files)
            .field("cardinality", &self.cardinality)
            .field("probe_depth", &self.probe_depth)
            .field("rule50", &self.rule50)
            .finish()
    }
}

/// Shared, cheaply cloned handle to opened tables.
pub type Tables = Arc<Syzygy>;
