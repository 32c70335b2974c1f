//! Correction history: how far the search's results have been from the
//! static evaluation in positions alike (the same pawn structure, or the
//! same placement of one side's pieces), learned as the search goes and
//! added to the static evaluation, so that the evaluation's systematic
//! errors are corrected before the pruning that trusts it.

use attacks::{Color, SliderAttacks};
use movegen::{Position, Role};

use super::params::params;
use nnue::score::MATE_BOUND;

/// Entries per side to move in each table (a power of two).
const SIZE: usize = 16_384;
/// Corrections are kept in 1/GRAIN centipawns.
const GRAIN: i32 = 256;
/// At most this many centipawns of correction from one table.
const LIMIT: i32 = 64;

/// One table: a correction by side to move and a hashed key.
type Table = Box<[[i32; SIZE]; 2]>;

/// A thread's correction tables.
pub struct Correction {
    /// By pawn structure (both sides' pawns).
    pawns: Table,
    /// By the placement of each side's pieces other than pawns.
    pieces: [Table; 2],
}

/// A table index from bitboards.
#[inline]
fn index(boards: &[u64]) -> usize {
    crate::board_hash::index(boards, SIZE.trailing_zeros())
}

/// The keys of `pos`: pawns, then each side's other pieces.
#[inline]
fn keys<A: SliderAttacks>(pos: &Position<A>) -> [usize; 3] {
    let b = |c: Color, r: Role| pos.pieces(c, r).0;
    let pieces = |c: Color| {
        index(&[
            b(c, Role::Knight),
            b(c, Role::Bishop),
            b(c, Role::Rook),
            b(c, Role::Queen),
            b(c, Role::King),
        ])
    };
    [
        index(&[b(Color::White, Role::Pawn), b(Color::Black, Role::Pawn)]),
        pieces(Color::White),
        pieces(Color::Black),
    ]
}

fn table() -> Table {
    let v: Vec<[i32; SIZE]> = vec![[0; SIZE]; 2];
    v.into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("two rows"))
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            pawns: table(),
            pieces: [table(), table()],
        }
    }

    /// `raw`, the static evaluation of `pos`, corrected (never into the
    /// mate range): half by the pawn table, a quarter by each side's pieces.
    #[inline]
    pub fn corrected<A: SliderAttacks>(&self, pos: &Position<A>, raw: i32) -> i32 {
        let side = pos.turn().index();
        let [p, w, b] = keys(pos);
        let sum = 2 * self.pawns[side][p] + self.pieces[0][side][w] + self.pieces[1][side][b];
        (raw + sum / (4 * GRAIN)).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The search found `best` at `depth` where the raw static evaluation
    /// was `raw`: move each table's correction toward the difference, the
    /// more the deeper the search.
    #[inline]
    pub fn update<A: SliderAttacks>(&mut self, pos: &Position<A>, depth: i32, raw: i32, best: i32) {
        let side = pos.turn().index();
        let [p, w, b] = keys(pos);
        let target = (best - raw).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(params().corr_max_weight);
        let scale = params().corr_weight_scale;
        let [white, black] = &mut self.pieces;
        for entry in [
            &mut self.pawns[side][p],
            &mut white[side][w],
            &mut black[side][b],
        ] {
            *entry = (*entry * (scale - weight) + target * weight) / scale;
        }
    }
}
