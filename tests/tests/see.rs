//! Static exchange evaluation (`engine::search::see`) against brute-force
//! exchange searches on random positions.
//!
//! The brute force plays out capture sequences on the target square: after
//! the first (given) capture, the side to move may capture with a piece that
//! attacks the square through the current occupancy (so pieces behind others
//! join as those leave), or stand pat; each side takes the best for itself.
//! It shares SEE's model otherwise: piece values 100/320/330/500/950/20000,
//! pins ignored, a pawn recapturing on the last rank stays a pawn, and a king
//! may capture only onto a square the other side no longer attacks.
//!
//! Two orders are searched:
//! - [`Order::Any`]: every attacker may capture, in any order. SEE does not
//!   always reach this value, because it captures least valuable first and,
//!   among equal attackers, from the lowest square: capturing with another
//!   piece can uncover a different X-ray. Random positions show this in about
//!   one capture in a thousand; `see_matches_brute_force_in_any_order`, not
//!   run by default, finds and shrinks such a case, e.g.
//!   `8/8/6K1/2B5/R2n4/2bk4/5b2/Q5B1 w - - 0 1`, Bxd4: SEE recaptures with
//!   Bf2 (the lower square), uncovering Bg1, and says 320; recapturing with
//!   Bc3 uncovers only Qa1 behind it, and the capture is worth 150.
//! - [`Order::LeastValuableFirst`]: each side captures with its least
//!   valuable attacker, ties to the lowest square, as SEE does; this the
//!   engine's SEE must match exactly, X-rays, en passant, promotions and
//!   the king's rule included.

mod common;

use std::collections::HashMap;

use attacks::{Bitboard, Color, Square};
use common::positions;
use engine::search::see;
use movegen::{Move, MoveKind, Position, Role};
use proptest::prelude::*;

const VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

fn value(role: Role) -> i32 {
    VALUE[role.index()]
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Order {
    Any,
    LeastValuableFirst,
}

struct Exchange<'a> {
    pos: &'a Position,
    to: Square,
    order: Order,
    memo: HashMap<(u64, Color, i32), i32>,
}

impl Exchange<'_> {
    /// The best that `side`, to move, can gain by capturing on `to` (or 0
    /// by standing pat) when the piece there is worth `on_target`.
    fn best_reply(&mut self, occ: Bitboard, side: Color, on_target: i32) -> i32 {
        if let Some(&v) = self.memo.get(&(occ.0, side, on_target)) {
            return v;
        }
        let attackers = self.pos.attackers(side, self.to, occ) & occ;
        let candidates = match self.order {
            Order::Any => attackers,
            Order::LeastValuableFirst => Role::ALL
                .iter()
                .find_map(|&r| (attackers & self.pos.by_role(r)).ls1b())
                .map_or(Bitboard::EMPTY, Bitboard::from_square),
        };
        let mut best = 0;
        for sq in candidates {
            let role = self.pos.role_at(sq).expect("an attacker stands there");
            let after = occ.without(sq);
            if role == Role::King && (self.pos.attackers(!side, self.to, after) & after).any() {
                continue;
            }
            best = best.max(on_target - self.best_reply(after, !side, value(role)));
        }
        self.memo.insert((occ.0, side, on_target), best);
        best
    }
}

/// The exchange value of the capture (or promotion) `m` by brute force.
fn brute_force_see(pos: &Position, m: Move, order: Order) -> i32 {
    let (from, to) = (m.from(), m.to());
    let mut occ = pos.occupied().without(from);
    let mut gain = pos.captured(m).map_or(0, value);
    let mut mover = pos.role_at(from).map_or(0, value);
    if let Some(p) = m.promotion_role() {
        gain += value(p) - value(Role::Pawn);
        mover = value(p);
    }
    if m.kind() == MoveKind::EnPassant {
        occ = occ.without(Square::from_coords(to.file(), from.rank()));
    }
    let mut exchange = Exchange {
        pos,
        to,
        order,
        memo: HashMap::new(),
    };
    // The moved piece stands on `to` now; it does not attack its own square.
    gain - exchange.best_reply(occ, !pos.turn(), mover)
}

/// Every capture and promotion of `pos` with SEE's value and the brute
/// force's, where they differ.
fn differences(pos: &Position, order: Order) -> Vec<(String, i32, i32)> {
    pos.noisy_moves()
        .iter()
        .map(|&m| (m.to_string(), see(pos, m), brute_force_see(pos, m, order)))
        .filter(|(_, a, b)| a != b)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10_000, ..ProptestConfig::default() })]

    #[test]
    fn see_matches_brute_force_least_valuable_first(pos in positions()) {
        let d = differences(&pos, Order::LeastValuableFirst);
        prop_assert!(d.is_empty(), "{}: (move, see, brute force) {:?}", pos.fen(), d);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    #[test]
    #[ignore = "fails: SEE's least-valuable-first order is not always best (see the module docs)"]
    fn see_matches_brute_force_in_any_order(pos in positions()) {
        let d = differences(&pos, Order::Any);
        prop_assert!(d.is_empty(), "{}: (move, see, brute force) {:?}", pos.fen(), d);
    }
}

/// Exchanges written out by hand: the brute force itself is right.
#[test]
fn brute_force_on_known_exchanges() {
    let cases = [
        // Pawn takes a defended knight: +320 - 100.
        ("4k3/8/3p4/4n3/3P4/8/8/4K3 w - - 0 1", "d4e5", 220),
        // Rook takes a pawn defended by a pawn: 100 - 500.
        ("4k3/8/3p4/4p3/8/8/8/4RK2 w - - 0 1", "e1e5", -400),
        // An undefended pawn.
        ("4k3/8/8/4p3/8/8/4R3/4QK2 w - - 0 1", "e2e5", 100),
        // A pawn defended once, attacked by a rook with a queen behind it
        // (X-ray): Rxd5 Rxd5 Qxd5 = 100 - 500 + 500; Black stands pat.
        ("3r2k1/8/8/3p4/8/8/3R4/3Q2K1 w - - 0 1", "d2d5", 100),
        // The same with the queen in front: Qxd5 Rxd5 Rxd5 = 100 - 950 + 500.
        ("3r2k1/8/8/3p4/8/8/3Q4/3R2K1 w - - 0 1", "d2d5", -350),
        // En passant, recaptured by a rook.
        ("3rk3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 0),
        // Orders matter: Black recaptures with Qh8, not Qb8 (which uncovers
        // Ra8); least valuable first, ties to the lower square, gives 450.
        (
            "Rq1q3q/R1Q1N3/2PP4/7R/1p2k3/PK6/1p4N1/2q4Q w - - 0 1",
            "c7d8",
            0,
        ),
    ];
    for (fen, uci, expected) in cases {
        let pos: Position = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        assert_eq!(
            brute_force_see(&pos, m, Order::Any),
            expected,
            "{fen} {uci}"
        );
    }
    for (fen, uci, any, first) in [
        (
            "Rq1q3q/R1Q1N3/2PP4/7R/1p2k3/PK6/1p4N1/2q4Q w - - 0 1",
            "c7d8",
            0,
            450,
        ),
        ("8/8/6K1/2B5/R2n4/2bk4/5b2/Q5B1 w - - 0 1", "c5d4", 150, 320),
    ] {
        let pos: Position = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        assert_eq!(brute_force_see(&pos, m, Order::Any), any, "{fen} {uci}");
        assert_eq!(brute_force_see(&pos, m, Order::LeastValuableFirst), first);
        assert_eq!(see(&pos, m), first);
    }
}
