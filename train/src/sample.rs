//! [`Sample`]: one labelled position as the trainer keeps it in memory: its
//! pieces as net inputs seen from White, the side to move, the search's
//! score and the game's result, both from the side to move.

use attacks::Color;
use attacks::Square;
use movegen::Role;
use nnue::data::read::Labelled;
use nnue::features::other_view;
use nnue::{feature, mirror_flip};

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
    /// What White's view's inputs are XORed with (bits 0–2) and Black's
    /// (bits 3–5): 0, or 7 for a view turned round by its king
    /// ([`Sample::mirrored`]).
    flips: u8,
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
            flips: 0,
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

    /// This sample for a net that mirrors its inputs horizontally
    /// (`borrow-train --mirror`): each side's view turned round where its
    /// king stands on files e–h ([`nnue::mirror_flip`]), as the engine's
    /// accumulator turns it for a mirrored net.
    pub fn mirrored(self) -> Sample {
        let mut flips = 0;
        for &f in &self.features[..usize::from(self.len)] {
            let f = usize::from(f);
            // White's view numbers White's king 5 × 64 + its square and
            // Black's 384 + 5 × 64 + its square.
            let (theirs, role, sq) = (f / 384, f % 384 / 64, f % 64);
            if role == Role::King.index() {
                flips |= (mirror_flip(Square::new(sq as u32)) as u8) << (3 * theirs);
            }
        }
        Sample { flips, ..self }
    }

    /// White's view's and Black's flips ([`Sample::mirrored`]).
    #[inline(always)]
    fn view_flips(&self) -> (usize, usize) {
        (usize::from(self.flips & 7), usize::from(self.flips >> 3))
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
        let (flip_w, flip_b) = self.view_flips();
        for (i, &f) in self.features[..n].iter().enumerate() {
            let (w, b) = (usize::from(f) ^ flip_w, other_view(usize::from(f)) ^ flip_b);
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
        let (flip_w, flip_b) = self.view_flips();
        let white = self.features[..usize::from(self.len)]
            .iter()
            .map(|&f| usize::from(f));
        let black = white.clone().map(|f| other_view(f) ^ flip_b);
        let white = white.map(|f| f ^ flip_w);
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
    fn a_mirrored_samples_views_and_score_are_the_engines_with_a_mirrored_net() {
        use crate::model::Model;
        use nnue::{Accumulator, HIDDEN, OUTPUT_BUCKETS};
        let mut net =
            nnue::Network::from_bytes(&Model::new(HIDDEN, OUTPUT_BUCKETS, 11).quantised_bytes())
                .unwrap();
        net.mirrored = true;
        let mut plain = net.clone();
        plain.mirrored = false;
        // The kings on each side of the board's middle, each to move.
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/2KR3R w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
            "8/5p2/4p3/r5PK/k1p3R1/8/1P1P4/8 b - - 0 1",
        ] {
            let pos: Position = Position::from_fen(fen).unwrap();
            let s = Sample::new(&Labelled {
                pos,
                score: 0,
                result: 0.5,
            });
            let m = s.mirrored();
            let engine = |net: &nnue::Network| Accumulator::refresh(net, &pos).evaluate(net, &pos);
            assert_eq!(m.engine_score(&net), engine(&net), "{fen}");
            assert_eq!(s.engine_score(&plain), engine(&plain), "{fen}");
            // The views are the features each king turns round.
            let flip = |side| nnue::mirror_flip(pos.king_of(side));
            let (mut want_us, mut want_them) = (Vec::new(), Vec::new());
            for color in Color::ALL {
                for role in Role::ALL {
                    for sq in pos.pieces(color, role) {
                        let view = |side| feature(side, color, role, sq) ^ flip(side);
                        want_us.push(view(pos.turn()));
                        want_them.push(view(!pos.turn()));
                    }
                }
            }
            let (mut a, mut b) = ([0; MAX_PIECES], [0; MAX_PIECES]);
            let n = m.fill_views(&mut a, &mut b);
            let (mut a, mut b) = (a[..n].to_vec(), b[..n].to_vec());
            for v in [&mut a, &mut b, &mut want_us, &mut want_them] {
                v.sort_unstable();
            }
            assert_eq!((a, b), (want_us, want_them), "{fen}");
        }
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
