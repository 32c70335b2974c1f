//! Every attack method against `attacks::reference` for every square and every
//! subset of its relevant occupancy (102,400 rook and 5,248 bishop cases), on
//! random full boards, and against `shakmaty::attacks` as an outside oracle.

use attacks::{Bitboard, Direction, Method, Reference, SliderAttacks, Square, dispatch, ray};
use pretty_assertions::assert_eq;

/// The squares whose occupancy matters to a slider on `sq` moving along
/// `dirs`: each ray without its last (edge) square.
fn relevant(sq: Square, dirs: &[Direction]) -> Bitboard {
    dirs.iter().fold(Bitboard::EMPTY, |acc, &d| {
        let r = ray(d, sq);
        let edge = if d.is_positive() { r.ms1b() } else { r.ls1b() };
        acc | edge.map_or(r, |e| r.without(e))
    })
}

fn to_shakmaty(sq: Square) -> shakmaty::Square {
    shakmaty::Square::new(sq as u32)
}

fn exhaustive<A: SliderAttacks>() -> (usize, usize) {
    let mut rook_cases = 0;
    let mut bishop_cases = 0;
    for sq in Square::ALL {
        for occ in relevant(sq, &Direction::ORTHOGONAL).subsets() {
            assert_eq!(
                A::rook_attacks(sq, occ),
                Reference::rook_attacks(sq, occ),
                "{} rook on {sq} with occupancy {occ:?}",
                A::METHOD
            );
            rook_cases += 1;
        }
        for occ in relevant(sq, &Direction::DIAGONAL).subsets() {
            assert_eq!(
                A::bishop_attacks(sq, occ),
                Reference::bishop_attacks(sq, occ),
                "{} bishop on {sq} with occupancy {occ:?}",
                A::METHOD
            );
            bishop_cases += 1;
        }
    }
    (rook_cases, bishop_cases)
}

fn random_boards<A: SliderAttacks>() {
    use testkit::Boards;
    let mut rng = testkit::Rng::new(0x9e37_79b9_7f4a_7c15);
    for _ in 0..20_000 {
        let occ = Bitboard(rng.occupancy());
        for sq in Square::ALL {
            // The slider's own square may or may not be occupied.
            let occ = if rng.next_u64() & 1 == 0 {
                occ.with(sq)
            } else {
                occ
            };
            let s_occ = shakmaty::Bitboard(occ.0);
            let rook = A::rook_attacks(sq, occ);
            let bishop = A::bishop_attacks(sq, occ);
            assert_eq!(
                rook,
                Reference::rook_attacks(sq, occ),
                "{} rook {sq} {occ:?}",
                A::METHOD
            );
            assert_eq!(
                bishop,
                Reference::bishop_attacks(sq, occ),
                "{} bishop {sq} {occ:?}",
                A::METHOD
            );
            assert_eq!(A::queen_attacks(sq, occ), rook | bishop);
            assert_eq!(
                rook.0,
                shakmaty::attacks::rook_attacks(to_shakmaty(sq), s_occ).0
            );
            assert_eq!(
                bishop.0,
                shakmaty::attacks::bishop_attacks(to_shakmaty(sq), s_occ).0
            );
        }
    }
}

fn check(method: Method) {
    let (rook, bishop) = dispatch!(method, A => exhaustive::<A>());
    assert_eq!((rook, bishop), (102_400, 5_248), "{method}: case counts");
    dispatch!(method, A => random_boards::<A>());
}

#[test]
fn relevant_occupancy_sizes() {
    // The well-known total index bits of magic tables: 102,400 and 5,248 entries.
    let rook: u64 = Square::ALL
        .iter()
        .map(|&s| 1u64 << relevant(s, &Direction::ORTHOGONAL).count())
        .sum();
    let bishop: u64 = Square::ALL
        .iter()
        .map(|&s| 1u64 << relevant(s, &Direction::DIAGONAL).count())
        .sum();
    assert_eq!((rook, bishop), (102_400, 5_248));
}

#[test]
fn reference_agrees_with_shakmaty() {
    // The reference itself, against the outside oracle, over every relevant subset.
    for sq in Square::ALL {
        for occ in relevant(sq, &Direction::ORTHOGONAL).subsets() {
            let s = shakmaty::attacks::rook_attacks(to_shakmaty(sq), shakmaty::Bitboard(occ.0));
            assert_eq!(Reference::rook_attacks(sq, occ).0, s.0);
        }
        for occ in relevant(sq, &Direction::DIAGONAL).subsets() {
            let s = shakmaty::attacks::bishop_attacks(to_shakmaty(sq), shakmaty::Bitboard(occ.0));
            assert_eq!(Reference::bishop_attacks(sq, occ).0, s.0);
        }
    }
}

#[test]
fn every_method_is_tested_here() {
    // A method added to `Method` without a test below fails this count.
    let tested = [
        "obstruction-difference",
        "obstruction-difference-hoffmann",
        "classical",
        "classical-branchless",
        "classical-zero-count",
        "classical-one-run",
        "sbamg",
        "hyperbola",
        "o2r",
        "magic",
        "pext",
        "reference",
    ];
    for m in Method::ALL {
        assert!(tested.contains(&m.name()), "{m} has no exhaustive test");
    }
}

macro_rules! method_tests {
    ($($test:ident => $name:literal),* $(,)?) => {$(
        #[test]
        fn $test() {
            check($name.parse().expect("method in this build"));
        }
    )*};
}

method_tests! {
    obstruction_difference => "obstruction-difference",
    obstruction_difference_hoffmann => "obstruction-difference-hoffmann",
    classical => "classical",
    classical_branchless => "classical-branchless",
    classical_zero_count => "classical-zero-count",
    classical_one_run => "classical-one-run",
    sbamg => "sbamg",
    hyperbola => "hyperbola",
    o2r => "o2r",
    magic => "magic",
    reference => "reference",
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
method_tests! { pext => "pext" }
