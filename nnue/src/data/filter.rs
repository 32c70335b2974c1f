//! Which labelled positions a trainer learns from: [`Filter`], the one
//! filter, which `borrow-datagen` applies when it writes records
//! ([`trainable`]) and `borrow-train` when it loads games and records.

use movegen::{Move, Position};

use crate::score::MATE_BOUND;

/// Which positions are left out.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Positions whose side to move is in check (the score is the
    /// search's, about a forced reply, not the position's worth).
    pub skip_check: bool,
    /// Positions whose |score| exceeds this (mates, lost causes).
    pub max_score: i32,
    /// Positions with fewer pieces than this (tablebase territory).
    pub min_pieces: usize,
    /// Positions before this ply of the game, counted as the `viriformat`
    /// crate counts them: `(full move − 1) · 2`, one more with Black to
    /// move (the crate's default is 16: openings are the dice's, not the
    /// engine's).
    pub min_ply: u32,
    /// Positions whose move was a capture or a promotion (the score is the
    /// exchange under way, not the position's worth). Records hold no move:
    /// for them, the writer's filter decided.
    pub skip_noisy: bool,
}

/// Why a position was left out, or that it was kept.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Learned from.
    Keep,
    /// The side to move is in check.
    InCheck,
    /// The score is beyond `max_score`.
    Extreme,
    /// Fewer pieces than `min_pieces`.
    FewPieces,
    /// Before ply `min_ply`.
    Early,
    /// The move played was a capture or a promotion.
    Noisy,
}

impl Filter {
    /// What `borrow-datagen` writes as records: no check, a quiet move, no
    /// mate score.
    pub const TRAINABLE: Filter = Filter {
        skip_check: true,
        max_score: MATE_BOUND - 1,
        min_pieces: 0,
        min_ply: 0,
        skip_noisy: true,
    };

    /// The verdict on `pos`, searched to `score` (either side's), whose
    /// move was `best` (`None` for a record, which holds no move).
    pub fn verdict(&self, pos: &Position, best: Option<Move>, score: i32) -> Verdict {
        if self.skip_noisy && best.is_some_and(|m| pos.is_noisy(m)) {
            Verdict::Noisy
        } else if self.skip_check && pos.is_check() {
            Verdict::InCheck
        } else if score.abs() > self.max_score {
            Verdict::Extreme
        } else if (pos.occupied().count() as usize) < self.min_pieces {
            Verdict::FewPieces
        } else if ply(pos) < self.min_ply {
            Verdict::Early
        } else {
            Verdict::Keep
        }
    }
}

impl Default for Filter {
    /// The trainer's: in check out, noisy moves out, |score| above 3,000
    /// out, every piece count kept.
    fn default() -> Filter {
        Filter {
            max_score: 3000,
            ..Filter::TRAINABLE
        }
    }
}

/// The ply of the game `pos` is at, from its full-move number and side to
/// move.
pub fn ply(pos: &Position) -> u32 {
    (pos.fullmoves().max(1) - 1) * 2 + u32::from(pos.turn() == attacks::Color::Black)
}

/// Whether a searched position teaches a trainer its score
/// ([`Filter::TRAINABLE`]): no check, a quiet best move (the score is the
/// position's worth, not a capture's outcome under way) and no mate score.
/// `score` from either side.
pub fn trainable(pos: &Position, best: Move, score: i32) -> bool {
    Filter::TRAINABLE.verdict(pos, Some(best), score) == Verdict::Keep
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_leaves_out_what_it_names() {
        let quiet: Position =
            Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
                .unwrap();
        let develop = quiet.parse_uci("b8c6").unwrap();
        let take =
            Position::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2")
                .unwrap();
        let capture = take.parse_uci("e4d5").unwrap();
        let check: Position =
            Position::from_fen("rnbqkbnr/ppppp2p/5p2/6pQ/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 3")
                .unwrap();
        let f = Filter::TRAINABLE;
        assert_eq!(f.verdict(&quiet, Some(develop), 40), Verdict::Keep);
        assert_eq!(f.verdict(&take, Some(capture), 40), Verdict::Noisy);
        assert_eq!(
            f.verdict(&take, None, 40),
            Verdict::Keep,
            "a record has no move"
        );
        assert_eq!(f.verdict(&check, None, 40), Verdict::InCheck);
        assert_eq!(
            f.verdict(&quiet, Some(develop), MATE_BOUND - 1),
            Verdict::Keep
        );
        assert_eq!(
            f.verdict(&quiet, Some(develop), -MATE_BOUND),
            Verdict::Extreme
        );
        assert!(trainable(&quiet, develop, 40));
        assert!(!trainable(&quiet, develop, MATE_BOUND + 3));
        let few = Filter {
            min_pieces: 33,
            ..Filter::default()
        };
        assert_eq!(few.verdict(&quiet, Some(develop), 40), Verdict::FewPieces);
        assert_eq!(
            Filter::default().verdict(&quiet, Some(develop), 3001),
            Verdict::Extreme
        );
        // Black to move at move 2 is ply 3: early for 4, not for 3.
        assert_eq!(ply(&quiet), 3);
        let early = |min_ply| Filter {
            min_ply,
            ..Filter::default()
        };
        assert_eq!(early(4).verdict(&quiet, Some(develop), 40), Verdict::Early);
        assert_eq!(early(3).verdict(&quiet, Some(develop), 40), Verdict::Keep);
        assert_eq!(ply(&Position::startpos()), 0);
    }
}
