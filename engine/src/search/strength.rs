//! Playing below full strength (`UCI_LimitStrength` with `UCI_Elo`): a
//! smaller node budget, and a seeded choice among the best few root moves
//! that sometimes takes a worse one, the worse the less likely.
//!
//! The mapping from Elo to budget and temperature is calibrated by games
//! against Debian's Stockfish 15.1 at the same `UCI_Elo`
//! (`records/strength-calibration.md` says how, and what was measured). Its anchors are the constants
//! below; between two anchors both figures are interpolated geometrically.

use movegen::Move;

use nnue::score::MATE_BOUND;

/// One point of the calibration: at `elo`, search about `nodes` nodes and
/// choose among the root moves with this `temperature` (centipawns).
#[derive(Copy, Clone, Debug)]
struct Anchor {
    elo: u32,
    nodes: f64,
    temperature: f64,
}

/// The calibration, weakest first (the games behind each anchor are in
/// `records/strength-calibration.md`). The strongest is Borrow's own level at
/// 10+0.1 (one line), held to about 1.75 times the nodes an average move
/// gets there, so that the limit cuts only its longest moves and the
/// setting does not grow with longer clocks.
const ANCHORS: [Anchor; 4] = [
    Anchor {
        elo: 1350,
        nodes: 400.0,
        temperature: 40.0,
    },
    Anchor {
        elo: 1900,
        nodes: 25_000.0,
        temperature: 10.0,
    },
    Anchor {
        elo: 2300,
        nodes: 150_000.0,
        temperature: 1.5,
    },
    Anchor {
        elo: 2450,
        nodes: 400_000.0,
        temperature: 1.0,
    },
];

/// Root moves weighed against each other (searched as MultiPV lines).
const LINES: usize = 4;

/// Below this temperature (centipawns) only the best line is searched.
const SINGLE_LINE: f64 = 2.0;

/// A move more than this many temperatures worse than the best is never
/// chosen.
const CUTOFF: f64 = 4.0;

/// A limit on the strength of play.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Strength {
    /// The Elo to play at, in `MIN_ELO..=MAX_ELO`.
    pub elo: u32,
    /// 64 random bits that choose the move (drawn by the caller from a
    /// seeded generator, so that a search stays reproducible).
    pub draw: u64,
}

impl Strength {
    /// The weakest setting.
    pub const MIN_ELO: u32 = ANCHORS[0].elo;
    /// The strongest setting.
    pub const MAX_ELO: u32 = ANCHORS[ANCHORS.len() - 1].elo;

    /// The node budget and temperature at this Elo.
    fn anchor(self) -> Anchor {
        let elo = self.elo.clamp(Self::MIN_ELO, Self::MAX_ELO);
        let i = ANCHORS
            .windows(2)
            .position(|w| elo <= w[1].elo)
            .unwrap_or(ANCHORS.len() - 2);
        let (lo, hi) = (ANCHORS[i], ANCHORS[i + 1]);
        let t = f64::from(elo - lo.elo) / f64::from(hi.elo - lo.elo);
        let between = |a: f64, b: f64| a * (b / a).powf(t);
        Anchor {
            elo,
            nodes: between(lo.nodes, hi.nodes),
            temperature: between(lo.temperature, hi.temperature),
        }
    }

    /// The most nodes to search.
    pub fn nodes(self) -> u64 {
        self.anchor().nodes.round() as u64
    }

    /// How many root moves to search as separate lines: one where the
    /// temperature is below `SINGLE_LINE` (the choice would nearly always
    /// be the best move, and the extra lines would cost depth).
    pub fn lines(self) -> usize {
        if self.anchor().temperature < SINGLE_LINE {
            1
        } else {
            LINES
        }
    }

    /// Chooses among `scores` (the root lines' scores, best first): the
    /// index of the move to play. Each line is weighted by
    /// `exp(-loss / temperature)`, where `loss` is how much worse than the
    /// best it scores; a line more than `CUTOFF` temperatures worse, or
    /// one that is mated where the best is not, is never chosen.
    pub fn choose(self, scores: &[i32]) -> usize {
        let Some(&best) = scores.first() else {
            return 0;
        };
        let temperature = self.anchor().temperature;
        let weights: Vec<f64> = scores
            .iter()
            .map(|&s| {
                let loss = f64::from(best - s);
                let mated = s <= -MATE_BOUND && best > -MATE_BOUND;
                if mated || loss > CUTOFF * temperature {
                    0.0
                } else {
                    (-loss / temperature).exp()
                }
            })
            .collect();
        // A uniform number in [0, total), from the top 53 bits of the draw.
        let total: f64 = weights.iter().sum();
        let mut x = (self.draw >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        0
    }
}

/// The move to play from the root lines (score and PV, best first): the
/// index [`Strength::choose`] picks, or 0 at full strength.
pub(super) fn pick(strength: Option<Strength>, lines: &[(i32, Vec<Move>)]) -> usize {
    match strength {
        Some(s) => {
            let scores: Vec<i32> = lines.iter().map(|(score, _)| *score).collect();
            s.choose(&scores)
        }
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::MATE;
    use rng::Rng;

    fn counts(elo: u32, scores: &[i32], n: usize) -> Vec<usize> {
        let mut rng = Rng::new(7);
        let mut counts = vec![0; scores.len()];
        for _ in 0..n {
            let s = Strength {
                elo,
                draw: rng.next_u64(),
            };
            counts[s.choose(scores)] += 1;
        }
        counts
    }

    #[test]
    fn budget_grows_with_elo_through_the_anchors() {
        let nodes = |elo| Strength { elo, draw: 0 }.nodes();
        assert_eq!(nodes(Strength::MIN_ELO), ANCHORS[0].nodes as u64);
        assert_eq!(nodes(Strength::MAX_ELO), ANCHORS[3].nodes as u64);
        for anchor in ANCHORS {
            assert_eq!(nodes(anchor.elo), anchor.nodes as u64);
        }
        // Out of range clamps.
        assert_eq!(nodes(0), nodes(Strength::MIN_ELO));
        assert_eq!(nodes(9_999), nodes(Strength::MAX_ELO));
        let mut last = 0;
        for elo in Strength::MIN_ELO..=Strength::MAX_ELO {
            let n = nodes(elo);
            assert!(n >= last, "{elo}: {n} < {last}");
            last = n;
        }
    }

    #[test]
    fn worse_moves_are_chosen_less_often_and_weaker_players_choose_them_more() {
        let scores = [40, 20, 0, -30];
        let weak = counts(Strength::MIN_ELO, &scores, 20_000);
        let strong = counts(2600, &scores, 20_000);
        for c in [&weak, &strong] {
            assert!(c.windows(2).all(|w| w[0] >= w[1]), "{c:?}");
        }
        assert!(weak[0] < 12_000, "{weak:?}");
        assert!(weak[3] > 1_000, "{weak:?}");
        assert!(strong[0] > 18_000, "{strong:?}");
        assert!(weak[0] < strong[0]);
    }

    #[test]
    fn the_strongest_setting_searches_one_line_and_the_rest_several() {
        let lines = |elo| Strength { elo, draw: 0 }.lines();
        assert_eq!(lines(Strength::MAX_ELO), 1);
        assert_eq!(lines(Strength::MIN_ELO), LINES);
        assert_eq!(lines(1900), LINES);
        assert_eq!(lines(2300), 1);
    }

    #[test]
    fn a_mated_line_and_a_far_worse_one_are_never_chosen() {
        let scores = [10, 0, -2_000, -(MATE - 3)];
        let c = counts(Strength::MIN_ELO, &scores, 5_000);
        assert_eq!(c[2], 0, "{c:?}");
        assert_eq!(c[3], 0, "{c:?}");
        assert!(c[1] > 0, "{c:?}");
        // A mate is not thrown away for a merely good move.
        let c = counts(Strength::MIN_ELO, &[MATE - 5, 300, 200], 5_000);
        assert_eq!(c, vec![5_000, 0, 0]);
        // Every line mated: the best (longest) is played.
        let c = counts(Strength::MIN_ELO, &[-(MATE - 9), -(MATE - 3)], 1_000);
        assert_eq!(c[0] + c[1], 1_000);
        assert!(c[0] > 0);
    }

    #[test]
    fn one_line_and_no_line_are_index_zero() {
        let s = Strength {
            elo: Strength::MIN_ELO,
            draw: u64::MAX,
        };
        assert_eq!(s.choose(&[5]), 0);
        assert_eq!(s.choose(&[]), 0);
        assert_eq!(s.choose(&[5, 5, 5, 5]), 3);
    }
}
