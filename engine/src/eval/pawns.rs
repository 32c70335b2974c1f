//! Pawn structure: the terms the pawns alone decide (their material and
//! squares, doubled, isolated, phalanx, supported, backward and passed
//! pawns), and [`PawnTable`], which keeps them for the search. A search
//! meets few pawn structures, so most evaluations find theirs in the table
//! and skip the pawn loop. The table is keyed by both sides' pawn bitboards,
//! compared whole: a hit is exact, and the evaluation with the table is the
//! evaluation without it.

use attacks::{Bitboard, Color, pawn_attacks};

use super::layout::{BACKWARD, DOUBLED, ISOLATED, MATERIAL, PASSED, PHALANX, PST, SUPPORTED};
use super::{
    FILE_MASKS, S, Tapered, Trace, WEIGHTS, Weights, adjacent_files, passed_span, rear_span,
    relative, stop_square,
};
use crate::board_hash;

/// What the pawns alone decide.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PawnEval {
    /// Pawn material and squares and the pawn-structure terms: White's
    /// less Black's.
    pub score: Tapered,
    /// Both sides' passed pawns (the evaluation adds the kings' distances
    /// to them, which the pawns alone do not decide).
    pub passed: Bitboard,
}

/// The pawn terms of White's pawns `white` and Black's `black` with the
/// weights `w`, telling `t` each term counted.
pub fn pawn_eval<T: Trace>(white: Bitboard, black: Bitboard, w: &Weights, t: &mut T) -> PawnEval {
    let mut e = PawnEval::default();
    for (us, ours, theirs, sign) in [
        (Color::White, white, black, 1),
        (Color::Black, black, white, -1),
    ] {
        let mut score = S(0, 0);
        for sq in ours {
            let rel = relative(us, sq);
            let (rel, rank) = (rel.index(), rel.rank().index());
            score += w.material[0] + w.pst[0][rel];
            t.add(MATERIAL, sign);
            t.add(PST + rel, sign);
            let f = sq.file().index();
            if (FILE_MASKS[f] & ours).more_than_one() {
                score += w.doubled;
                t.add(DOUBLED, sign);
            }
            let beside = adjacent_files(f) & ours;
            if beside.is_empty() {
                score += w.isolated;
                t.add(ISOLATED, sign);
            } else {
                if (beside & Bitboard::rank(sq.rank())).any() {
                    score += w.phalanx[rank];
                    t.add(PHALANX + rank, sign);
                }
                // Backward: nothing beside or behind can come to guard it,
                // and an enemy pawn guards the square in front of it.
                let stop_guarded =
                    stop_square(us, sq).is_some_and(|stop| (pawn_attacks(us, stop) & theirs).any());
                if (beside & rear_span(us, sq)).is_empty() && stop_guarded {
                    score += w.backward;
                    t.add(BACKWARD, sign);
                }
            }
            if (pawn_attacks(!us, sq) & ours).any() {
                score += w.supported[rank];
                t.add(SUPPORTED + rank, sign);
            }
            let span = passed_span(us, sq);
            if (span & theirs).is_empty() && (span & FILE_MASKS[f] & ours).is_empty() {
                score += w.passed[rank];
                t.add(PASSED + rank, sign);
                e.passed = e.passed.with(sq);
            }
        }
        e.score += score * sign;
    }
    e
}

/// log2 of the number of entries: 8,192 entries of 32 bytes, 256 KiB.
const BITS: u32 = 13;

/// One pawn structure and its terms. The empty entry is correct as it is:
/// no pawns, no score, no passers.
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    pawns: [Bitboard; 2],
    eval: PawnEval,
}

/// The pawn terms of the structures met lately, with the engine's weights
/// ([`WEIGHTS`]). One per search thread.
pub struct PawnTable {
    entries: Box<[Entry]>,
}

impl Default for PawnTable {
    fn default() -> PawnTable {
        PawnTable::new()
    }
}

impl PawnTable {
    /// An empty table.
    pub fn new() -> PawnTable {
        PawnTable {
            entries: vec![Entry::default(); 1 << BITS].into_boxed_slice(),
        }
    }

    /// The pawn terms of `white` and `black` pawns with [`WEIGHTS`]: from the
    /// table when this structure is there, else computed and kept in place
    /// of the entry it displaces.
    #[inline]
    pub fn get(&mut self, white: Bitboard, black: Bitboard) -> PawnEval {
        let i = board_hash::index(&[white.0, black.0], BITS);
        let entry = &mut self.entries[i];
        if entry.pawns != [white, black] {
            *entry = Entry {
                pawns: [white, black],
                eval: pawn_eval(white, black, &WEIGHTS, &mut super::NoTrace),
            };
        }
        entry.eval
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, evaluate_cached, layout::TERMS};
    use crate::test_positions::random_positions;
    use movegen::{Position, Role};

    /// Counts each traced term.
    struct Counts(Vec<i32>);
    impl Trace for Counts {
        fn add(&mut self, term: usize, count: i32) {
            self.0[term] += count;
        }
    }

    #[test]
    fn the_table_changes_no_evaluation() {
        // Enough random games for more structures than the table
        // holds: entries are displaced and found again. Each position is
        // evaluated twice, the second time a hit.
        let mut table = PawnTable::new();
        let mut structures = std::collections::HashSet::new();
        let pawnless: Position = "8/8/1k6/8/8/3K4/8/4Q2r w - - 0 1".parse().unwrap();
        let positions = random_positions(7, 40_000);
        for pos in std::iter::once(&pawnless).chain(&positions) {
            structures.insert((
                pos.pieces(Color::White, Role::Pawn),
                pos.pieces(Color::Black, Role::Pawn),
            ));
            for _ in 0..2 {
                assert_eq!(
                    evaluate_cached(pos, &mut table),
                    evaluate(pos),
                    "{}",
                    pos.fen()
                );
            }
        }
        assert!(
            structures.len() > 1 << BITS,
            "{} structures",
            structures.len()
        );
    }

    #[test]
    fn the_pawn_terms_are_their_traced_weights() {
        let terms = WEIGHTS.to_terms();
        for pos in random_positions(11, 2_000) {
            let (white, black) = (
                pos.pieces(Color::White, Role::Pawn),
                pos.pieces(Color::Black, Role::Pawn),
            );
            let mut counts = Counts(vec![0; TERMS]);
            let e = pawn_eval(white, black, &WEIGHTS, &mut counts);
            let traced = counts
                .0
                .iter()
                .zip(&terms)
                .fold(S(0, 0), |s, (&c, &t)| s + t * c);
            assert_eq!(e.score, traced, "{}", pos.fen());
            // A passer has no enemy pawn ahead on its file or beside it.
            for sq in e.passed {
                let us = if white.contains(sq) {
                    Color::White
                } else {
                    Color::Black
                };
                let theirs = if us == Color::White { black } else { white };
                assert!((passed_span(us, sq) & theirs).is_empty());
            }
        }
    }
}
