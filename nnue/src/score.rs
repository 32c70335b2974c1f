//! Borrow's score scale, the one the search, the tablebases and the
//! training data share (Reckless's `types/score.rs`): centipawns for the
//! side to move, then tablebase wins, then mates, all below [`INFINITY`].
//!
//! | scores | meaning |
//! |---|---|
//! | below [`TB_WIN_BOUND`] | evaluations, in centipawns |
//! | `TB_WIN - ply` | a tablebase win `ply` plies from the root (shown as centipawns, as Stockfish does) |
//! | `MATE - n`, at or beyond [`MATE_BOUND`] | mate in `n` plies |
//! | [`INFINITY`] | larger than any score |
//!
//! The search goes at most [`MAX_PLY`] plies deep, so every tablebase win
//! and every mate it can find keeps to its band. The files of the training
//! data (viriformat) hold scores in `i16` on the field's scale instead:
//! mates as `±(FILE_MATE - n)` ([`to_file_score`], [`from_file_score`]).
//! No trainer learns from a mate.

/// Larger than any score.
pub const INFINITY: i32 = 32_000;
/// The score of giving mate now; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 31_000;
/// Scores at or beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// The deepest ply the search goes.
pub const MAX_PLY: usize = 120;
/// The score of a tablebase win `ply` plies from the root is
/// `TB_WIN - ply`: below every mate score, above every evaluation.
pub const TB_WIN: i32 = 20_000;
/// Scores at or beyond this are tablebase wins (or mates).
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// A file score of mate now; mate in `n` plies is `FILE_MATE - n`.
pub const FILE_MATE: i32 = i16::MAX as i32;
/// The `viriformat` crate's default `Filter::max_eval`: scores whose
/// magnitude reaches it are game-theoretic (mates, tablebase wins) and
/// dropped.
pub const FILE_MATE_BOUND: i32 = 31_339;

// The bands keep their order, and the deepest mate is still a mate.
const _: () = assert!(TB_WIN < MATE_BOUND && MATE_BOUND <= MATE - MAX_PLY as i32);
const _: () = assert!(MATE < INFINITY && INFINITY <= i16::MAX as i32);

/// A search score (centipawns or `±(MATE − n)`) as the file holds it:
/// centipawns unchanged (clamped to `i16`), a mate in `n` plies as
/// `±(FILE_MATE − n)`.
pub fn to_file_score(score: i32) -> i16 {
    let file = if score.abs() >= MATE_BOUND {
        let plies = (MATE - score.abs()).max(0);
        score.signum() * (FILE_MATE - plies)
    } else {
        score.clamp(-(FILE_MATE_BOUND - 1), FILE_MATE_BOUND - 1)
    };
    file as i16
}

/// A file score as a search score: the inverse of [`to_file_score`]. A
/// score at or beyond [`FILE_MATE_BOUND`] is a mate (another engine's
/// tablebase win there reads as a mate as distant as the scale allows).
pub fn from_file_score(file: i16) -> i32 {
    let file = i32::from(file);
    if file.abs() >= FILE_MATE_BOUND {
        let plies = (FILE_MATE - file.abs()).clamp(0, MATE - MATE_BOUND);
        file.signum() * (MATE - plies)
    } else {
        file
    }
}

/// A score as a user reads it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move (tablebase wins among them).
    Cp(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// The user's view of an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-(MATE + s) / 2)
        } else {
            Score::Cp(s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_read_as_moves_and_tablebase_wins_as_centipawns() {
        assert_eq!(Score::from_internal(MATE - 1), Score::Mate(1));
        assert_eq!(Score::from_internal(MATE - 3), Score::Mate(2));
        assert_eq!(Score::from_internal(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(Score::from_internal(TB_WIN - 10), Score::Cp(TB_WIN - 10));
        assert_eq!(Score::from_internal(-35), Score::Cp(-35));
    }

    #[test]
    fn file_scores_round_trip_for_mates_and_centipawns() {
        for s in [
            0,
            35,
            -900,
            TB_WIN - 7,
            MATE - 1,
            -(MATE - 40),
            MATE - MAX_PLY as i32,
        ] {
            assert_eq!(from_file_score(to_file_score(s)), s, "{s}");
        }
        assert_eq!(i32::from(to_file_score(MATE - 5)), FILE_MATE - 5);
        assert!(i32::from(to_file_score(MATE_BOUND)) >= FILE_MATE_BOUND);
        assert!(i32::from(to_file_score(MATE_BOUND - 1)) < FILE_MATE_BOUND);
    }
}
