//! Correction history: how far the search's results have been from the
//! static evaluation in positions with the same pawn structure, learned as
//! the search goes and added to the static evaluation. The evaluation's
//! systematic errors (a pawn structure it misjudges) are then corrected
//! before the pruning that trusts it.

use attacks::{Color, SliderAttacks};
use movegen::{Position, Role};

use super::api::MATE_BOUND;
use super::params::PARAMS;

/// Entries per side (a power of two).
const SIZE: usize = 16_384;
/// Corrections are kept in 1/GRAIN centipawns.
const GRAIN: i32 = 256;
/// At most this many centipawns of correction.
const LIMIT: i32 = 32 * GRAIN;

/// One thread's correction table, by side to move and pawn structure.
pub struct Correction {
    table: Box<[[i32; SIZE]; 2]>,
}

/// The index of `pos`'s pawn structure.
#[inline]
fn pawn_index<A: SliderAttacks>(pos: &Position<A>) -> usize {
    let white = pos.pieces(Color::White, Role::Pawn).0;
    let black = pos.pieces(Color::Black, Role::Pawn).0;
    let h = white.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ black.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> (64 - SIZE.trailing_zeros())) as usize
}

impl Correction {
    /// An empty table.
    pub fn new() -> Correction {
        let v: Vec<[i32; SIZE]> = vec![[0; SIZE]; 2];
        Correction {
            table: v
                .into_boxed_slice()
                .try_into()
                .unwrap_or_else(|_| unreachable!("two rows")),
        }
    }

    /// `raw`, the static evaluation of `pos`, corrected (never into the
    /// mate range).
    #[inline]
    pub fn corrected<A: SliderAttacks>(&self, pos: &Position<A>, raw: i32) -> i32 {
        let c = self.table[pos.turn().index()][pawn_index(pos)] / GRAIN;
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The search found `best` at `depth` where the raw static evaluation
    /// was `raw`: move the correction toward the difference, the more the
    /// deeper the search.
    #[inline]
    pub fn update<A: SliderAttacks>(&mut self, pos: &Position<A>, depth: i32, raw: i32, best: i32) {
        let entry = &mut self.table[pos.turn().index()][pawn_index(pos)];
        let target = (best - raw).clamp(-LIMIT / GRAIN, LIMIT / GRAIN) * GRAIN;
        let w = (depth + 1).min(PARAMS.corr_max_weight);
        *entry = (*entry * (PARAMS.corr_weight_scale - w) + target * w) / PARAMS.corr_weight_scale;
    }
}
