//! Win/draw/loss from a score, for `UCI_ShowWDL`: the model of Stockfish's
//! `win_rate_model`, fitted to Borrow's own games.
//!
//! For a score `s` (centipawns, side to move) and the material on the board
//! `m` (pawns 1, knights and bishops 3, rooks 5, queens 9, both sides):
//!
//! ```text
//! x = clamp(m, 10, 78) / 58
//! a = A[0] + A[1]·x        b = B[0] + B[1]·x
//! win  = 1 / (1 + exp((a - s) / b))
//! loss = 1 / (1 + exp((a + s) / b))
//! draw = 1 - win - loss
//! ```
//!
//! `a` is the score that wins half the time, `b` how fast the odds change;
//! both depend on the material left (a score means more with less material).
//! [`MODEL`] is fitted by maximum likelihood to the results of Borrow's
//! self-play (`borrow-tune --wdl --data FILE` refits and prints it;
//! docs/tuning.md). It was last fitted to net 8's games (see [`MODEL`]).

use attacks::SliderAttacks;
use movegen::{Position, Role};

use nnue::score::{Score, TB_WIN_BOUND};

/// The model's four parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Model {
    /// `a = a[0] + a[1]·x`, centipawns.
    pub a: [f64; 2],
    /// `b = b[0] + b[1]·x`, centipawns.
    pub b: [f64; 2],
}

/// Fitted when net 8 (sha256 57bfa8be…) was the built-in net, by
/// `borrow-tune --wdl --data gen9-snap-g15645.vf`: the first 15,645 games of
/// net 8's self-play at 5,000 nodes a move (`borrow-datagen`, seed
/// 2026112941; records/data-history.md, "Data since net 8"), 1,420,241 positions read,
/// 355,061 (an even sample) fitted on; mean -ln p(result) 0.64981, where the
/// model it replaced (fitted to net 7's games) gave 0.65018 on the same
/// positions (1.09861 would be knowing nothing: a third each). A score
/// decides more in the middlegame than in the endgame of these games: `a`
/// falls from 393 cp with 10 points of material to 72 cp with all 78. A
/// new built-in net calls for a refit on its own games.
pub const MODEL: Model = Model {
    a: [440.4, -274.0],
    b: [148.2, -24.0],
};

/// The material the model reads: pawns 1, minors 3, rooks 5, queens 9.
pub fn material<A: SliderAttacks>(pos: &Position<A>) -> u32 {
    [
        (Role::Pawn, 1),
        (Role::Knight, 3),
        (Role::Bishop, 3),
        (Role::Rook, 5),
        (Role::Queen, 9),
    ]
    .iter()
    .map(|&(r, v)| v * pos.by_role(r).count())
    .sum()
}

impl Model {
    /// `(a, b)` for `material`.
    pub fn params(&self, material: u32) -> (f64, f64) {
        let x = f64::from(material.clamp(10, 78)) / 58.0;
        (
            self.a[0] + self.a[1] * x,
            (self.b[0] + self.b[1] * x).max(1.0),
        )
    }

    /// The probabilities of a win, a draw and a loss for the side to move.
    pub fn probabilities(&self, cp: f64, material: u32) -> [f64; 3] {
        let (a, b) = self.params(material);
        let win = 1.0 / (1.0 + ((a - cp) / b).exp());
        let loss = 1.0 / (1.0 + ((a + cp) / b).exp());
        [win, (1.0 - win - loss).max(0.0), loss]
    }

    /// `wdl W D L` in permille, summing to 1000. Mates (and tablebase
    /// results beyond any evaluation) are certain.
    pub fn permille(&self, score: Score, material: u32) -> [u32; 3] {
        let cp = match score {
            Score::Mate(m) if m > 0 => return [1000, 0, 0],
            Score::Mate(_) => return [0, 0, 1000],
            Score::Cp(cp) if cp >= TB_WIN_BOUND => return [1000, 0, 0],
            Score::Cp(cp) if cp <= -TB_WIN_BOUND => return [0, 0, 1000],
            Score::Cp(cp) => cp,
        };
        let [w, _, l] = self.probabilities(f64::from(cp), material);
        let w = (w * 1000.0).round() as u32;
        let l = ((l * 1000.0).round() as u32).min(1000 - w);
        [w, 1000 - w - l, l]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permille_sums_to_1000_and_grows_with_the_score() {
        let mut last_win = 0;
        for cp in (-2000..=2000).step_by(50) {
            for m in [0, 20, 40, 78, 100] {
                let p = MODEL.permille(Score::Cp(cp), m);
                assert_eq!(p.iter().sum::<u32>(), 1000, "{cp} {m}: {p:?}");
            }
            let w = MODEL.permille(Score::Cp(cp), 40)[0];
            assert!(w >= last_win, "win rate falls at {cp}");
            last_win = w;
        }
        assert_eq!(MODEL.permille(Score::Mate(3), 40), [1000, 0, 0]);
        assert_eq!(MODEL.permille(Score::Mate(-1), 40), [0, 0, 1000]);
        assert_eq!(MODEL.permille(Score::Cp(19_990), 4), [1000, 0, 0]);
        // Symmetric: a score for one side is the same score against the other.
        let [w, d, l] = MODEL.permille(Score::Cp(120), 50);
        assert_eq!(MODEL.permille(Score::Cp(-120), 50), [l, d, w]);
    }

    #[test]
    fn start_position_material_is_78() {
        let pos: Position = Position::startpos();
        assert_eq!(material(&pos), 78);
    }
}
