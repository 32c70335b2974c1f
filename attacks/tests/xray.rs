//! `attacks::xray` against brute-force definitions that walk the board square
//! by square (`Square::offset`), on fixed-seed random boards, for every attack
//! method of the build; the set-wise forms against unions of single-slider
//! results; pins and discovered-check candidates against "the first piece
//! from the king is ours and the second an enemy slider of the line's kind".
//!
//! Every check also counts how often the answer was non-empty, so that a run
//! that only ever compared empty sets fails instead of passing.

use attacks::xray::{self, Pins};
use attacks::{Bitboard, Direction, Line, Method, Reference, SliderAttacks, Square, dispatch};
use pretty_assertions::assert_eq;
use testkit::{Boards, Rng};

/// The squares from `sq` in `dir` up to the edge, nearest first.
fn squares_from(sq: Square, dir: Direction) -> impl Iterator<Item = Square> {
    let (df, dr) = dir.delta();
    (1..8).map_while(move |k| sq.offset(df * k, dr * k))
}

/// The x-ray of a slider on `sq` in one direction, by definition: walk to the
/// first occupied square; if it is one of `blockers`, walk on and collect
/// every square up to and including the next occupied one.
fn brute_ray_xray(sq: Square, dir: Direction, occ: Bitboard, blockers: Bitboard) -> Bitboard {
    let mut path = squares_from(sq, dir).skip_while(|&s| !occ.contains(s));
    match path.next() {
        Some(first) if blockers.contains(first) => {
            let mut x = Bitboard::EMPTY;
            for s in path {
                x |= s;
                if occ.contains(s) {
                    break;
                }
            }
            x
        }
        _ => Bitboard::EMPTY,
    }
}

fn brute_xray(sq: Square, dirs: &[Direction], occ: Bitboard, blockers: Bitboard) -> Bitboard {
    dirs.iter().fold(Bitboard::EMPTY, |x, &d| {
        x | brute_ray_xray(sq, d, occ, blockers)
    })
}

/// The definition of the brief, with the reference attacks: the attacks once
/// the attacked blockers are gone, minus the attacks with them.
fn reference_rook_xray(sq: Square, occ: Bitboard, blockers: Bitboard) -> Bitboard {
    let a = Reference::rook_attacks(sq, occ);
    Reference::rook_attacks(sq, occ ^ (blockers & a)) & !a
}

fn reference_bishop_xray(sq: Square, occ: Bitboard, blockers: Bitboard) -> Bitboard {
    let a = Reference::bishop_attacks(sq, occ);
    Reference::bishop_attacks(sq, occ ^ (blockers & a)) & !a
}

fn line_dirs(line: Line) -> [Direction; 2] {
    [line.positive(), line.positive().reverse()]
}

/// Counts of non-empty answers, to catch vacuous runs.
#[derive(Default, Debug)]
struct Seen {
    cases: u64,
    non_empty: u64,
}

impl Seen {
    fn note(&mut self, bb: Bitboard) {
        self.cases += 1;
        self.non_empty += u64::from(bb.any());
    }
    /// At least a tenth of the answers were non-empty, and some were empty.
    fn assert_mixed(&self, what: &str) {
        assert!(
            self.non_empty * 10 >= self.cases && self.non_empty < self.cases,
            "{what}: {self:?}"
        );
    }
}

fn single_slider<A: SliderAttacks>() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let (mut rook_seen, mut bishop_seen) = (Seen::default(), Seen::default());
    for _ in 0..1500 {
        let occ = Bitboard(rng.occupancy());
        let blockers = occ & Bitboard(rng.next_u64());
        let stray = Bitboard(rng.next_u64());
        for sq in Square::ALL {
            let occ = if rng.next_u64() & 1 == 0 {
                occ.with(sq)
            } else {
                occ
            };
            let rook = xray::rook_xray::<A>(sq, occ, blockers);
            let bishop = xray::bishop_xray::<A>(sq, occ, blockers);
            let brute_rook = brute_xray(sq, &Direction::ORTHOGONAL, occ, blockers);
            let brute_bishop = brute_xray(sq, &Direction::DIAGONAL, occ, blockers);
            let m = A::METHOD;
            assert_eq!(
                rook, brute_rook,
                "{m} rook {sq} occ {occ:?} blockers {blockers:?}"
            );
            assert_eq!(
                bishop, brute_bishop,
                "{m} bishop {sq} occ {occ:?} blockers {blockers:?}"
            );
            assert_eq!(rook, reference_rook_xray(sq, occ, blockers));
            assert_eq!(bishop, reference_bishop_xray(sq, occ, blockers));
            assert_eq!(xray::queen_xray::<A>(sq, occ, blockers), rook | bishop);
            // Blockers off the occupancy are ignored.
            assert_eq!(
                xray::rook_xray::<A>(sq, occ, blockers | stray),
                xray::rook_xray::<A>(sq, occ, (blockers | stray) & occ),
                "{m} rook {sq}: unoccupied blockers"
            );
            rook_seen.note(rook);
            bishop_seen.note(bishop);
        }
    }
    rook_seen.assert_mixed("rook x-rays");
    bishop_seen.assert_mixed("bishop x-rays");
}

#[test]
fn single_slider_xrays_match_brute_force_for_every_method() {
    assert!(Method::ALL.contains(&Method::Reference));
    assert!(Method::ALL.contains(&Method::ObstructionDifference));
    for &m in Method::ALL {
        dispatch!(m, A => single_slider::<A>());
    }
}

fn line_wise<A: SliderAttacks>() {
    let mut rng = Rng::new(0x0123_4567_89ab_cdef);
    let mut seen = Seen::default();
    for _ in 0..800 {
        let occ = Bitboard(rng.occupancy());
        let blockers = occ & Bitboard(rng.next_u64());
        for sq in Square::ALL {
            let mut per_line = [Bitboard::EMPTY; 4];
            for line in Line::ALL {
                let x = xray::line_xray::<A>(line, sq, occ, blockers);
                let brute = brute_xray(sq, &line_dirs(line), occ, blockers);
                assert_eq!(
                    x,
                    brute,
                    "{} {line:?} {sq} occ {occ:?} blk {blockers:?}",
                    A::METHOD
                );
                let attacks = xray::line_attacks::<A>(line, sq, occ);
                let brute_attacks = line_dirs(line).iter().fold(Bitboard::EMPTY, |a, &d| {
                    a | attacks::reference::walk(sq, occ, &[d])
                });
                assert_eq!(attacks, brute_attacks, "{} {line:?} {sq}", A::METHOD);
                per_line[line.index()] = x;
                seen.note(x);
            }
            assert_eq!(
                per_line[0] | per_line[1],
                xray::rook_xray::<A>(sq, occ, blockers)
            );
            assert_eq!(
                per_line[2] | per_line[3],
                xray::bishop_xray::<A>(sq, occ, blockers)
            );
        }
    }
    seen.assert_mixed("line x-rays");
}

#[test]
fn line_xrays_match_brute_force_for_every_method() {
    for &m in Method::ALL {
        dispatch!(m, A => line_wise::<A>());
    }
}

#[test]
fn shift_and_fill_match_the_walk() {
    let mut rng = Rng::new(0x5555_aaaa_1234_8765);
    for _ in 0..2000 {
        let occ = Bitboard(rng.occupancy());
        let gens = Bitboard(rng.sparse());
        for dir in Direction::ALL {
            let (df, dr) = dir.delta();
            let shifted: Bitboard = gens.filter_map(|s| s.offset(df, dr)).collect();
            assert_eq!(xray::shift(dir, gens), shifted, "{dir:?} {gens:?}");
            // The fill: the generators and the empty squares reached from them.
            let fill = gens.fold(gens, |f, s| {
                f | squares_from(s, dir)
                    .take_while(|&t| !occ.contains(t))
                    .collect::<Bitboard>()
            });
            assert_eq!(xray::occluded_fill(dir, gens, !occ), fill, "{dir:?}");
        }
    }
}

#[test]
fn setwise_attacks_and_xrays_are_unions_of_single_sliders() {
    let mut rng = Rng::new(0xdead_beef_cafe_f00d);
    let mut seen = [Seen::default(), Seen::default()];
    for round in 0..3000 {
        let occ = Bitboard(rng.occupancy());
        let blockers = occ & Bitboard(rng.next_u64());
        let sliders = Bitboard(rng.sparse());
        // Sliders usually stand on occupied squares; sometimes not.
        let occ = if round % 3 == 0 { occ } else { occ | sliders };
        for dir in Direction::ALL {
            let attacks = sliders.fold(Bitboard::EMPTY, |a, s| {
                a | attacks::reference::walk(s, occ, &[dir])
            });
            assert_eq!(xray::ray_attacks(dir, sliders, occ), attacks, "{dir:?}");
            let x = sliders.fold(Bitboard::EMPTY, |a, s| {
                a | brute_ray_xray(s, dir, occ, blockers)
            });
            assert_eq!(xray::ray_xray(dir, sliders, occ, blockers), x, "{dir:?}");
        }
        let union = |f: &dyn Fn(Square) -> Bitboard| sliders.fold(Bitboard::EMPTY, |a, s| a | f(s));
        let rook = xray::rook_attacks_setwise(sliders, occ);
        let bishop = xray::bishop_attacks_setwise(sliders, occ);
        assert_eq!(rook, union(&|s| Reference::rook_attacks(s, occ)));
        assert_eq!(bishop, union(&|s| Reference::bishop_attacks(s, occ)));
        assert_eq!(
            xray::queen_attacks_setwise(sliders, occ),
            union(&|s| Reference::queen_attacks(s, occ))
        );
        let rook_x = xray::rook_xray_setwise(sliders, occ, blockers);
        let bishop_x = xray::bishop_xray_setwise(sliders, occ, blockers);
        assert_eq!(rook_x, union(&|s| reference_rook_xray(s, occ, blockers)));
        assert_eq!(
            bishop_x,
            union(&|s| reference_bishop_xray(s, occ, blockers))
        );
        seen[0].note(rook_x);
        seen[1].note(bishop_x);
    }
    seen[0].assert_mixed("set-wise rook x-rays");
    seen[1].assert_mixed("set-wise bishop x-rays");
}

/// The squares strictly between `a` and `b` and whether they share a rank or
/// file (`Some(true)`) or a diagonal (`Some(false)`), by walking; `None` if
/// they are not aligned.
fn path(a: Square, b: Square) -> Option<(bool, Bitboard)> {
    Direction::ALL.into_iter().find_map(|d| {
        let mut inside = Bitboard::EMPTY;
        for s in squares_from(a, d) {
            if s == b {
                let orthogonal = Direction::ORTHOGONAL.contains(&d);
                return Some((orthogonal, inside));
            }
            inside |= s;
        }
        None
    })
}

#[test]
fn blockers_by_targets_match_every_slider_target_pair() {
    let mut rng = Rng::new(0x0f0f_f0f0_3c3c_c3c3);
    let mut seen = Seen::default();
    for round in 0..3000 {
        let occ = Bitboard(rng.occupancy());
        let rooks_queens = Bitboard(rng.sparse());
        let bishops_queens = Bitboard(rng.sparse());
        let targets = if round % 2 == 0 {
            Bitboard::from_square(Square::new(rng.square()))
        } else {
            Bitboard(rng.sparse())
        };
        let occ = if round % 3 == 0 {
            occ
        } else {
            occ | rooks_queens | bishops_queens | targets
        };
        let mut brute = Bitboard::EMPTY;
        for slider in rooks_queens | bishops_queens {
            for target in targets {
                if let Some((orthogonal, inside)) = path(slider, target) {
                    let kind = if orthogonal {
                        rooks_queens
                    } else {
                        bishops_queens
                    };
                    let pieces = inside & occ;
                    if kind.contains(slider) && pieces.count() == 1 {
                        brute |= pieces;
                    }
                }
            }
        }
        let found = xray::blockers_by_targets(rooks_queens, bishops_queens, targets, occ);
        assert_eq!(
            found, brute,
            "rq {rooks_queens:?} bq {bishops_queens:?} t {targets:?} occ {occ:?}"
        );
        seen.note(found);
    }
    seen.assert_mixed("blockers by targets");
}

/// Pins by definition: from the king, in each direction, the first piece is
/// one of `own` and the second one of the sliders moving along that line.
fn brute_pins(king: Square, occ: Bitboard, own: Bitboard, rq: Bitboard, bq: Bitboard) -> Pins {
    let mut pins = Pins::default();
    for dir in Direction::ALL {
        let sliders = if Direction::ORTHOGONAL.contains(&dir) {
            rq
        } else {
            bq
        };
        let mut pieces = squares_from(king, dir).filter(|&s| occ.contains(s));
        if let (Some(first), Some(second)) = (pieces.next(), pieces.next())
            && own.contains(first)
            && sliders.contains(second)
        {
            pins.pinned |= first;
            pins.pinners |= second;
        }
    }
    pins
}

/// A position-like board: the two sides disjoint, the kings on their own
/// sides, queens among both slider sets.
struct Position {
    occ: Bitboard,
    us: Bitboard,
    them: Bitboard,
    our_king: Square,
    their_king: Square,
    our_rq: Bitboard,
    our_bq: Bitboard,
    their_rq: Bitboard,
    their_bq: Bitboard,
}

fn position(rng: &mut Rng) -> Position {
    let our_king = Square::new(rng.square());
    let their_king = loop {
        let k = Square::new(rng.square());
        if k != our_king {
            break k;
        }
    };
    let occ = Bitboard(rng.occupancy()).with(our_king).with(their_king);
    let us = (occ & Bitboard(rng.next_u64()))
        .with(our_king)
        .without(their_king);
    let them = occ - us;
    let queens = occ & Bitboard(rng.sparse());
    let pick = |rng: &mut Rng, side: Bitboard, king: Square| {
        (
            (side & (Bitboard(rng.next_u64()) | queens)).without(king),
            (side & (Bitboard(rng.next_u64()) | queens)).without(king),
        )
    };
    let (our_rq, our_bq) = pick(rng, us, our_king);
    let (their_rq, their_bq) = pick(rng, them, their_king);
    Position {
        occ,
        us,
        them,
        our_king,
        their_king,
        our_rq,
        our_bq,
        their_rq,
        their_bq,
    }
}

fn pins_for<A: SliderAttacks>() {
    let mut rng = Rng::new(0x7777_1111_dddd_3333);
    let (mut pin_seen, mut disc_seen) = (Seen::default(), Seen::default());
    for _ in 0..20_000 {
        let p = position(&mut rng);
        let m = A::METHOD;

        let brute = brute_pins(p.our_king, p.occ, p.us, p.their_rq, p.their_bq);
        let pins = xray::pins::<A>(p.our_king, p.occ, p.us, p.their_rq, p.their_bq);
        assert_eq!(
            pins, brute,
            "{m}: pins of the king on {} in {:?}",
            p.our_king, p.occ
        );
        assert_eq!(
            xray::pinned::<A>(p.our_king, p.occ, p.us, p.their_rq, p.their_bq),
            brute.pinned
        );
        assert_eq!(
            xray::pins_setwise(p.our_king.into(), p.occ, p.us, p.their_rq, p.their_bq),
            brute,
            "set-wise pins of the king on {} in {:?}",
            p.our_king,
            p.occ
        );
        assert_eq!(
            xray::blockers_by_targets(p.their_rq, p.their_bq, p.our_king.into(), p.occ) & p.us,
            brute.pinned
        );
        assert!((brute.pinned - p.us).is_empty() && (brute.pinners - p.them).is_empty());
        pin_seen.note(brute.pinned);

        let brute = brute_pins(p.their_king, p.occ, p.us, p.our_rq, p.our_bq);
        let disc =
            xray::discovered_check_candidates::<A>(p.their_king, p.occ, p.us, p.our_rq, p.our_bq);
        assert_eq!(
            disc, brute,
            "{m}: discovered checks on the king on {}",
            p.their_king
        );
        assert_eq!(
            xray::pins_setwise(p.their_king.into(), p.occ, p.us, p.our_rq, p.our_bq),
            brute
        );
        assert_eq!(
            xray::blockers_by_targets(p.our_rq, p.our_bq, p.their_king.into(), p.occ) & p.us,
            brute.pinned
        );
        disc_seen.note(brute.pinned);
    }
    pin_seen.assert_mixed("pins");
    disc_seen.assert_mixed("discovered-check candidates");
}

#[test]
fn pins_and_discovered_checks_match_brute_force_for_every_method() {
    for &m in Method::ALL {
        dispatch!(m, A => pins_for::<A>());
    }
}

#[test]
fn a_pin_by_hand() {
    // White king e1, knight e3, black rook e7 with a pawn e5 between: no pin.
    // Take the pawn away: the knight is pinned.
    let white = Bitboard::from_square(Square::E1) | Square::E3;
    let rook = Bitboard::from_square(Square::E7);
    let occ = white | rook | Square::E5;
    let none = xray::pins::<Reference>(Square::E1, occ, white, rook, Bitboard::EMPTY);
    assert_eq!(none, Pins::default());
    let pin = xray::pins::<Reference>(
        Square::E1,
        occ.without(Square::E5),
        white,
        rook,
        Bitboard::EMPTY,
    );
    assert_eq!(pin.pinned, Square::E3.into());
    assert_eq!(pin.pinners, rook);
    // A rook does not pin along a diagonal.
    let diag = Bitboard::from_square(Square::H4);
    let white = white | Square::F2;
    let occ = white | diag;
    assert_eq!(
        xray::pins::<Reference>(Square::E1, occ, white, diag, Bitboard::EMPTY),
        Pins::default()
    );
    assert_eq!(
        xray::pins::<Reference>(Square::E1, occ, white, Bitboard::EMPTY, diag).pinned,
        Square::F2.into()
    );
}
