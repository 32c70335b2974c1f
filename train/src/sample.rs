//! [`Sample`]: one labelled position as the trainer keeps it in memory: its
//! pieces as net inputs seen from White, the side to move, the search's
//! score and the game's result, both from the side to move.

use attacks::Color;
use movegen::Role;
use nnue::data::read::Labelled;
use nnue::feature;
use nnue::features::other_view;

/// The most pieces a legal position has.
pub const MAX_PIECES: usize = 32;

/// One labelled position, 70 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The net inputs of its pieces from White's point of view
    /// ([`nnue::feature`]); the first `len` count.
    features: [u16; MAX_PIECES],
    len: u8,
    /// 1 when Black is to move.
    black_to_move: u8,
    /// The game's result for the side to move: 0 loss, 1 draw, 2 win.
    result: u8,
    /// The search's score in centipawns for the side to move.
    score: i16,
}

impl Sample {
    /// The sample of a labelled position (score and result from White's
    /// side, as `borrow-datagen` writes them).
    pub fn new(l: &Labelled) -> Sample {
        let mut s = Sample {
            features: [0; MAX_PIECES],
            len: 0,
            black_to_move: u8::from(l.pos.turn() == Color::Black),
            result: 0,
            score: 0,
        };
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in l.pos.pieces(color, role) {
                    s.features[usize::from(s.len)] = feature(Color::White, color, role, sq) as u16;
                    s.len += 1;
                }
            }
        }
        let white_result = (l.result * 2.0).round() as u8;
        let white_score = l.score.clamp(-i32::from(i16::MAX), i32::from(i16::MAX)) as i16;
        if s.black_to_move == 1 {
            s.result = 2 - white_result;
            s.score = -white_score;
        } else {
            s.result = white_result;
            s.score = white_score;
        }
        s
    }

    /// The side to move's inputs and the other side's, into two buffers;
    /// returns how many each holds.
    #[inline]
    pub fn fill_views(
        &self,
        us: &mut [usize; MAX_PIECES],
        them: &mut [usize; MAX_PIECES],
    ) -> usize {
        let n = usize::from(self.len);
        let stm_black = self.black_to_move == 1;
        for (i, &f) in self.features[..n].iter().enumerate() {
            let (w, b) = (usize::from(f), other_view(usize::from(f)));
            if stm_black {
                us[i] = b;
                them[i] = w;
            } else {
                us[i] = w;
                them[i] = b;
            }
        }
        n
    }

    /// The engine's score of this position with `net`, from its integer
    /// inference ([`nnue`]), for the side to move.
    pub fn engine_score(&self, net: &nnue::Network) -> i32 {
        let white = self.features[..usize::from(self.len)]
            .iter()
            .map(|&f| usize::from(f));
        let black = white.clone().map(other_view);
        let acc =
            nnue::Accumulator::from_features(net, [white.collect::<Vec<_>>(), black.collect()]);
        let turn = if self.white_to_move() {
            Color::White
        } else {
            Color::Black
        };
        net.output(
            &acc.halves[turn.index()],
            &acc.halves[(!turn).index()],
            u32::from(self.len),
        )
    }

    /// The search's score for the side to move, centipawns.
    pub fn score(&self) -> i32 {
        i32::from(self.score)
    }

    /// The game's result for the side to move: 1 win, 0.5 draw, 0 loss.
    pub fn result(&self) -> f32 {
        f32::from(self.result) / 2.0
    }

    /// What the net learns to predict for this sample: the expected result
    /// as `wdl × result + (1 − wdl) × sigmoid(score / scale)`.
    pub fn target(&self, wdl: f32, scale: f32) -> f32 {
        wdl * self.result() + (1.0 - wdl) * sigmoid(self.score() as f32 / scale)
    }

    /// Whether White is to move.
    pub fn white_to_move(&self) -> bool {
        self.black_to_move == 0
    }

    /// The number of pieces.
    pub fn pieces(&self) -> usize {
        usize::from(self.len)
    }
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;

    #[test]
    fn views_are_the_engines_features_from_each_side() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1";
        let pos: Position = Position::from_fen(fen).unwrap();
        let s = Sample::new(&Labelled {
            pos,
            score: 120,
            result: 1.0,
        });
        // Black to move: the scores and results turn round.
        assert_eq!((s.score(), s.result()), (-120, 0.0));
        let mut want_us = Vec::new();
        let mut want_them = Vec::new();
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    want_us.push(feature(Color::Black, color, role, sq));
                    want_them.push(feature(Color::White, color, role, sq));
                }
            }
        }
        want_us.sort_unstable();
        want_them.sort_unstable();
        let (mut a, mut b) = ([0; MAX_PIECES], [0; MAX_PIECES]);
        let n = s.fill_views(&mut a, &mut b);
        assert_eq!(n, pos.occupied().count() as usize);
        let (mut a, mut b) = (a[..n].to_vec(), b[..n].to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!((a, b), (want_us, want_them));
    }

    #[test]
    fn the_target_blends_result_and_score() {
        let pos: Position = Position::startpos();
        let s = Sample::new(&Labelled {
            pos,
            score: 0,
            result: 1.0,
        });
        assert_eq!(s.target(0.0, 400.0), 0.5);
        assert_eq!(s.target(1.0, 400.0), 1.0);
        assert!((s.target(0.25, 400.0) - 0.625).abs() < 1e-6);
    }
}
