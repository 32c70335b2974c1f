//! The hidden layer: computed whole for a position ([`Accumulator::refresh`])
//! or from its parent's by the pieces a move took away and put down
//! ([`Accumulator::update`]), and one per ply for the search
//! ([`AccumulatorStack`]).

use attacks::{Color, SliderAttacks};
use movegen::{Position, Role};

use crate::{HIDDEN, Network, feature, mirror_flip};

/// The hidden layer before its activation, from each side's point of view
/// (indexed by the side's colour).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct Accumulator {
    /// White's view, then Black's.
    pub halves: [[i16; HIDDEN]; 2],
}

/// The most pieces one move adds or removes in a view: castling moves two,
/// a capture removes two (mover and victim), a promotion adds one other.
const MAX_CHANGES: usize = 4;

impl Accumulator {
    /// The hidden layer of `pos`, computed from scratch.
    pub fn refresh<A: SliderAttacks>(net: &Network, pos: &Position<A>) -> Accumulator {
        Accumulator {
            halves: Color::ALL.map(|side| Accumulator::view(net, pos, side)),
        }
    }

    /// The half of `side`'s view of `pos`, computed from scratch (flipped
    /// by its king in a mirrored net, [`Network::flip`]). Never inlined:
    /// it is the rare path of [`Accumulator::update`], whose own code stays
    /// small enough to inline into the search.
    #[inline(never)]
    fn view<A: SliderAttacks>(net: &Network, pos: &Position<A>, side: Color) -> [i16; HIDDEN] {
        let flip = net.flip(pos.king_of(side));
        let mut half = net.l0_bias;
        for color in Color::ALL {
            for role in Role::ALL {
                for sq in pos.pieces(color, role) {
                    add(
                        &mut half,
                        &net.l0_weights[feature(side, color, role, sq) ^ flip],
                    );
                }
            }
        }
        half
    }

    /// The hidden layer of the active inputs seen from White and from
    /// Black (as [`feature`] numbers them, each flipped already where the
    /// net mirrors its inputs).
    pub fn from_features(
        net: &Network,
        views: [impl IntoIterator<Item = usize>; 2],
    ) -> Accumulator {
        let mut acc = Accumulator {
            halves: [net.l0_bias; 2],
        };
        for (half, view) in acc.halves.iter_mut().zip(views) {
            for f in view {
                add(half, &net.l0_weights[f]);
            }
        }
        acc
    }

    /// The hidden layer of `child` from `parent`'s, whose accumulator this
    /// is: the pieces that left a square and the pieces that arrived on one,
    /// whatever the move (castling, en passant and promotion included; a
    /// null move changes nothing). In a mirrored net a king move that
    /// crosses from file d to e (or back) turns its side's view round: that
    /// half is computed afresh.
    #[inline]
    pub fn update<A: SliderAttacks>(
        &self,
        net: &Network,
        parent: &Position<A>,
        child: &Position<A>,
    ) -> Accumulator {
        // One branch a move, so that a plain net's update is the code it
        // was before mirroring (the check inside the loop cost 3% of the
        // bench's speed, `farm-bench` pairs).
        if net.mirrored {
            self.update_as::<true, A>(net, parent, child)
        } else {
            self.update_as::<false, A>(net, parent, child)
        }
    }

    /// [`Accumulator::update`] for a mirrored net (`MIRROR`) or a plain
    /// one.
    fn update_as<const MIRROR: bool, A: SliderAttacks>(
        &self,
        net: &Network,
        parent: &Position<A>,
        child: &Position<A>,
    ) -> Accumulator {
        let mut removed = [(Color::White, Role::Pawn, attacks::Square::new(0)); MAX_CHANGES];
        let mut added = removed;
        let (mut n_removed, mut n_added) = (0, 0);
        for color in Color::ALL {
            for role in Role::ALL {
                let before = parent.pieces(color, role);
                let after = child.pieces(color, role);
                for sq in before - after {
                    if n_removed == MAX_CHANGES {
                        return Accumulator::refresh(net, child);
                    }
                    removed[n_removed] = (color, role, sq);
                    n_removed += 1;
                }
                for sq in after - before {
                    if n_added == MAX_CHANGES {
                        return Accumulator::refresh(net, child);
                    }
                    added[n_added] = (color, role, sq);
                    n_added += 1;
                }
            }
        }
        let mut acc = *self;
        for side in Color::ALL {
            let half = &mut acc.halves[side.index()];
            let mut flip = 0;
            if MIRROR {
                flip = mirror_flip(child.king_of(side));
                if flip != mirror_flip(parent.king_of(side)) {
                    *half = Accumulator::view(net, child, side);
                    continue;
                }
            }
            for &(color, role, sq) in &added[..n_added] {
                add(half, &net.l0_weights[feature(side, color, role, sq) ^ flip]);
            }
            for &(color, role, sq) in &removed[..n_removed] {
                sub(half, &net.l0_weights[feature(side, color, role, sq) ^ flip]);
            }
        }
        acc
    }

    /// The score in centipawns of `pos`, whose accumulator this is, for
    /// the side to move.
    #[inline]
    pub fn evaluate<A: SliderAttacks>(&self, net: &Network, pos: &Position<A>) -> i32 {
        let turn = pos.turn();
        net.output(
            &self.halves[turn.index()],
            &self.halves[(!turn).index()],
            pos.occupied().count(),
        )
    }
}

// Wrapping, as the quantised arithmetic of every engine of this layout: a
// trained net's weights keep the sums far inside `i16`, and wrapping keeps
// the result independent of the order of updates.
#[inline(always)]
fn add(half: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (h, &w) in half.iter_mut().zip(row) {
        *h = h.wrapping_add(w);
    }
}

#[inline(always)]
fn sub(half: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (h, &w) in half.iter_mut().zip(row) {
        *h = h.wrapping_sub(w);
    }
}

/// One accumulator per ply of a search: the root's refreshed, each child's
/// updated from its parent's as the search plays a move.
pub struct AccumulatorStack {
    stack: Box<[Accumulator]>,
}

impl AccumulatorStack {
    /// Room for `plies` plies below the root.
    pub fn new(plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            stack: vec![
                Accumulator {
                    halves: [[0; HIDDEN]; 2]
                };
                plies + 1
            ]
            .into_boxed_slice(),
        }
    }

    /// Computes the root's accumulator (ply 0) from scratch.
    pub fn set_root<A: SliderAttacks>(&mut self, net: &Network, root: &Position<A>) {
        self.stack[0] = Accumulator::refresh(net, root);
    }

    /// Ply `ply + 1`'s accumulator from ply `ply`'s, for `child`, the
    /// position after a move (or a null move) from `parent`.
    #[inline]
    pub fn push<A: SliderAttacks>(
        &mut self,
        net: &Network,
        ply: usize,
        parent: &Position<A>,
        child: &Position<A>,
    ) {
        let next = self.stack[ply].update(net, parent, child);
        self.stack[ply + 1] = next;
    }

    /// The score of `pos`, the position at `ply`, for the side to move.
    #[inline]
    pub fn evaluate<A: SliderAttacks>(&self, net: &Network, ply: usize, pos: &Position<A>) -> i32 {
        self.stack[ply].evaluate(net, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net with every weight different, so that a wrong feature shows.
    fn scrambled() -> Network {
        let mut net = Network::zeroed();
        let mut x: u32 = 12345;
        let mut next = || {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            ((x >> 16) % 201) as i16 - 100
        };
        for row in net.l0_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.l0_bias.iter_mut().for_each(|w| *w = next() + 60);
        for bucket in net.l1_weights.iter_mut() {
            bucket.iter_mut().for_each(|w| *w = next() / 2);
        }
        net.l1_bias.iter_mut().for_each(|b| *b = next());
        net
    }

    #[test]
    fn updates_equal_refreshes_along_every_move_of_tricky_positions() {
        updates_equal_refreshes(&scrambled());
    }

    #[test]
    fn a_mirrored_nets_updates_equal_its_refreshes_kings_crossing_included() {
        let mut net = scrambled();
        net.mirrored = true;
        updates_equal_refreshes(&net);
        // Castling queen-side takes White's king from e1 to c1: its view
        // turns round, and the update computed it afresh.
        let pos: Position = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let long = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|&m| {
                let mut c = pos;
                c.play_unchecked(m);
                c.king_of(Color::White).file().index() == 2
            })
            .expect("O-O-O");
        let mut child = pos;
        child.play_unchecked(long);
        let mut plain = net.clone();
        plain.mirrored = false;
        let acc = Accumulator::refresh(&net, &pos);
        let updated = acc.update(&net, &pos, &child);
        assert_eq!(updated, Accumulator::refresh(&net, &child));
        assert_eq!(
            updated.halves[0],
            Accumulator::refresh(&plain, &child).halves[0],
            "king on c1: not turned round"
        );
        assert_ne!(
            acc.halves[0],
            Accumulator::refresh(&plain, &pos).halves[0],
            "king on e1: turned round"
        );
    }

    #[test]
    fn each_half_of_a_mirrored_net_is_turned_round_by_its_own_king() {
        let mut net = scrambled();
        net.mirrored = true;
        // The kings on either half of the board, and on the same half.
        for fen in [
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "8/5p2/4p3/r5PK/k1p3R1/8/1P1P4/8 b - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/2KR3R w - - 0 1",
        ] {
            let pos: Position = Position::from_fen(fen).unwrap();
            let view = |side: Color| {
                let flip = crate::mirror_flip(pos.king_of(side));
                let mut fs = Vec::new();
                for color in Color::ALL {
                    for role in Role::ALL {
                        for sq in pos.pieces(color, role) {
                            fs.push(feature(side, color, role, sq) ^ flip);
                        }
                    }
                }
                fs
            };
            let want = Accumulator::from_features(&net, [view(Color::White), view(Color::Black)]);
            assert_eq!(Accumulator::refresh(&net, &pos), want, "{fen}");
        }
    }

    #[test]
    fn a_mirrored_net_scores_a_position_and_its_file_mirror_the_same() {
        let mut net = scrambled();
        net.mirrored = true;
        // No castling rights, which a file mirror would not keep.
        for (fen, mirror) in [
            (
                "2kr3r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/2KR3R w - - 0 1",
                "r3rk2/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R3RK2 w - - 0 1",
            ),
            (
                "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                "8/5p2/4p3/r5PK/k1p3R1/8/1P1P4/8 w - - 0 1",
            ),
        ] {
            let a: Position = Position::from_fen(fen).unwrap();
            let b: Position = Position::from_fen(mirror).unwrap();
            let (ea, eb) = (
                Accumulator::refresh(&net, &a).evaluate(&net, &a),
                Accumulator::refresh(&net, &b).evaluate(&net, &b),
            );
            assert_eq!(ea, eb, "{fen}");
            // The plain net tells them apart: the weights are scrambled.
            let mut plain = net.clone();
            plain.mirrored = false;
            assert_ne!(
                Accumulator::refresh(&plain, &a).evaluate(&plain, &a),
                Accumulator::refresh(&plain, &b).evaluate(&plain, &b),
                "{fen}"
            );
        }
    }

    fn updates_equal_refreshes(net: &Network) {
        let net = net.clone();
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            // Chess960 castling, king and rook crossing.
            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
            // Chess960 castling with the king staying on g1 (O-O), and
            // from g1 to c1 (O-O-O).
            "1r4kr/pppppppp/8/8/8/8/PPPPPPPP/1R4KR w HBhb - 0 1",
            // En passant.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        ];
        for fen in fens {
            let pos: Position = Position::from_fen(fen).unwrap();
            let acc = Accumulator::refresh(&net, &pos);
            let moves = pos.legal_moves();
            assert!(!moves.is_empty());
            for &m in moves.iter() {
                let mut child = pos;
                child.play_unchecked(m);
                let updated = acc.update(&net, &pos, &child);
                assert_eq!(updated, Accumulator::refresh(&net, &child), "{fen} {m:?}");
                // And one ply further, from the updated one.
                for &g in child.legal_moves().iter() {
                    let mut gc = child;
                    gc.play_unchecked(g);
                    assert_eq!(
                        updated.update(&net, &child, &gc),
                        Accumulator::refresh(&net, &gc),
                        "{fen} {m:?} {g:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_position_and_its_colour_mirror_score_the_same() {
        let net = scrambled();
        let pos: Position = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let mirror: Position = Position::from_fen(
            "r3k2r/pppbbppp/2n2q1P/1P2p3/3pn3/BN2PNP1/P1PPQPB1/R3K2R b KQkq - 0 1",
        )
        .unwrap();
        let a = Accumulator::refresh(&net, &pos);
        let b = Accumulator::refresh(&net, &mirror);
        assert_eq!(a.halves[0], b.halves[1]);
        assert_eq!(a.evaluate(&net, &pos), b.evaluate(&net, &mirror));
    }
}
