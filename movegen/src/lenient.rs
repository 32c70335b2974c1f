//! The lenient reading of a FEN, for positions as GUIs send them.
//!
//! The strict reading ([`Position::from_fen`], [`Setup`]'s `FromStr`, then
//! [`Position::from_setup`]) refuses any FEN that is not exactly right; the
//! tools (`perft --fen`, the book and data readers) want that. A GUI's FEN
//! is often a little wrong in ways that do not change the game: castling
//! rights left set after the king or rook moved (position-setup dialogs and
//! some PGN tools write `KQkq` whatever the board), a clock field missing,
//! an en-passant square behind no pawn. The lenient reading
//! ([`Position::from_fen_lenient`], in two stages as the strict one:
//! [`Setup::parse_lenient`], then [`Position::from_setup_lenient`])
//! corrects exactly these, and says what it corrected, one
//! [`FenCorrection`] each:
//!
//! - a castling right without its king and rook on the squares it needs is
//!   dropped, in standard `KQkq`, X-FEN and Shredder-FEN alike, as shakmaty's
//!   reading with its invalid castling rights ignored and python-chess's
//!   `clean_castling_rights()` do; which squares a right needs is the
//!   [`CastlingMode`]'s;
//! - missing trailing fields are taken as their defaults: castling `-`, en
//!   passant `-`, the clocks 0 and 1 (only the board and the side to move
//!   are needed);
//! - an en-passant square that does not follow a double push (no pawn can
//!   ever capture there) is dropped. One that does is kept, as the strict
//!   reading keeps it, capturable or not.
//!
//! A position that cannot be played however it is read (a side without
//! exactly one king, the side not to move in check, pawns on a back rank,
//! more material than a game reaches) is refused, as the strict reading
//! refuses it; so is text that is not a FEN. What the lenient reading
//! returns always passes the strict reading; in [`CastlingMode::Chess960`]
//! it corrects nothing that the strict reading accepts.

use core::fmt;

use attacks::{Bitboard, Color, File, SliderAttacks, Square};

use crate::castling::{self, CastlingMode, back_rank};
use crate::error::{FenError, FenField, ParseFenError, PositionError};
use crate::piece::{Piece, Role};
use crate::position::Position;
use crate::setup::Setup;

/// One thing the lenient reading changed in a FEN to make a position of it.
/// `Display` says it as a sentence, for a GUI's `info string`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenCorrection {
    /// Castling rights without their king and rook on the squares they need,
    /// dropped.
    CastlingRights {
        /// The castling field as read (in its own notation).
        given: String,
        /// The castling field kept (`-` if none is left).
        kept: String,
        /// The rook squares of the rights dropped (for `K` without a rook,
        /// the corner the right names).
        dropped: Bitboard,
        /// The mode whose squares the rights were checked against.
        mode: CastlingMode,
    },
    /// An en-passant square that does not follow a double push, dropped.
    EnPassant(Square),
    /// A field missing at the end of the FEN, taken as its default.
    Defaulted {
        /// The field.
        field: FenField,
        /// Its default, as a FEN writes it.
        value: &'static str,
    },
}

impl fmt::Display for FenCorrection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenCorrection::CastlingRights {
                given, kept, mode, ..
            } => {
                write!(f, "castling rights '{given}' read as '{kept}': ")?;
                f.write_str(match mode {
                    CastlingMode::Standard => {
                        "a right needs its king on e1 or e8 and its rook in the corner \
                         (UCI_Chess960 for other squares)"
                    }
                    CastlingMode::Chess960 => {
                        "a right needs its king and its rook on their back rank, \
                         the rook the outermost on its side of the king"
                    }
                })
            }
            FenCorrection::EnPassant(sq) => write!(
                f,
                "en-passant square {sq} ignored: no pawn has just passed it in a double push"
            ),
            FenCorrection::Defaulted { field, value } => {
                write!(f, "no {field} in the FEN: taken as {value}")
            }
        }
    }
}

/// The fields a FEN may leave out at its end, with their defaults, from the
/// third on. The clocks may go silently, as in the strict reading.
const DEFAULTS: [(FenField, &str); 4] = [
    (FenField::Castling, "-"),
    (FenField::EnPassant, "-"),
    (FenField::Halfmoves, "0"),
    (FenField::Fullmoves, "1"),
];

impl Setup {
    /// The first stage of the lenient reading: parses a FEN of 2 to 6
    /// fields, the missing ones taken as their defaults (castling `-`, en
    /// passant `-`, clocks 0 and 1). Each default is a
    /// [`FenCorrection::Defaulted`], but for the two clocks together, which
    /// the strict reading may leave out too. Errors as the strict parse
    /// (which field, which token), and for fewer than 2 fields or more
    /// than 6.
    pub fn parse_lenient(fen: &str) -> Result<(Setup, Vec<FenCorrection>), ParseFenError> {
        let mut fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if !(2..=6).contains(&fields.len()) {
            return Err(ParseFenError {
                field: None,
                token: fen.trim().to_owned(),
                reason: "expected 6 fields (or at least the board and the side to move)",
            });
        }
        let mut corrections = Vec::new();
        let given = fields.len();
        for &(field, value) in &DEFAULTS[given - 2..] {
            let clock = matches!(field, FenField::Halfmoves | FenField::Fullmoves);
            if !(clock && given <= 4) {
                corrections.push(FenCorrection::Defaulted { field, value });
            }
            fields.push(value);
        }
        Ok((Setup::from_fields(&fields)?, corrections))
    }

    /// The castling rooks the lenient reading keeps in `mode`: the
    /// [`valid_castling_rooks`](Setup::valid_castling_rooks), and in
    /// standard chess only those in a corner with their king on the `e`
    /// file.
    pub fn castling_rooks_in(&self, mode: CastlingMode) -> Bitboard {
        let valid = self.valid_castling_rooks();
        match mode {
            CastlingMode::Chess960 => valid,
            CastlingMode::Standard => valid
                .filter(|rook| {
                    let color = if rook.rank() == back_rank(Color::White) {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let king = Square::from_coords(File::E, back_rank(color));
                    matches!(rook.file(), File::A | File::H)
                        && self.board[king.index()]
                            == Some(Piece {
                                color,
                                role: Role::King,
                            })
                })
                .collect(),
        }
    }
}

/// A castling field on its own, as the FEN of `setup` writes it.
struct CastlingField<'a>(&'a Setup);

impl fmt::Display for CastlingField<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        castling::write_field(f, s.castling_rooks, s.castling_notation, &s.board)
    }
}

impl<A: SliderAttacks> Position<A> {
    /// Reads a FEN leniently, as a GUI's `position fen` wants it: missing
    /// trailing fields defaulted, castling rights without their king and
    /// rook on the squares `mode` needs dropped, an en-passant square that
    /// follows no double push dropped; the position and each
    /// [`FenCorrection`] made: the defaulted fields first, then castling, then
    /// en passant. A position that
    /// cannot be played is refused as [`from_fen`](Position::from_fen)
    /// refuses it. See [the lenient reading](crate#reading-a-fen).
    ///
    /// ```
    /// use movegen::{CastlingMode, Position};
    ///
    /// let fen = "4k3/8/8/8/8/8/8/4K2R w KQkq - 0";
    /// assert!(fen.parse::<Position>().is_err()); // the strict reading
    /// let (pos, said): (Position, _) =
    ///     Position::from_fen_lenient(fen, CastlingMode::Standard).unwrap();
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    /// assert_eq!(said.len(), 2); // the move number, the castling rights
    /// assert_eq!(
    ///     said[1].to_string(),
    ///     "castling rights 'KQkq' read as 'K': a right needs its king on e1 or e8 \
    ///      and its rook in the corner (UCI_Chess960 for other squares)"
    /// );
    /// ```
    pub fn from_fen_lenient(
        fen: &str,
        mode: CastlingMode,
    ) -> Result<(Position<A>, Vec<FenCorrection>), FenError> {
        let (setup, mut corrections) = Setup::parse_lenient(fen)?;
        let (pos, more) = Position::from_setup_lenient(&setup, mode)?;
        corrections.extend(more);
        Ok((pos, corrections))
    }

    /// The second stage of the lenient reading: drops the castling rights
    /// that `mode` does not allow on this board
    /// ([`Setup::castling_rooks_in`]) and an en-passant square that follows
    /// no double push, then validates as [`from_setup`](Position::from_setup)
    /// does. Its error is never `InvalidCastlingRights` or
    /// `InvalidEnPassant`.
    pub fn from_setup_lenient(
        setup: &Setup,
        mode: CastlingMode,
    ) -> Result<(Position<A>, Vec<FenCorrection>), PositionError> {
        let mut clean = setup.clone();
        let mut corrections = Vec::new();
        let kept = setup.castling_rooks_in(mode);
        if kept != setup.castling_rooks {
            clean.castling_rooks = kept;
            corrections.push(FenCorrection::CastlingRights {
                given: CastlingField(setup).to_string(),
                kept: CastlingField(&clean).to_string(),
                dropped: setup.castling_rooks - kept,
                mode,
            });
        }
        if let Some(ep) = setup.ep_square
            && !setup.ep_square_follows_double_push()
        {
            clean.ep_square = None;
            corrections.push(FenCorrection::EnPassant(ep));
        }
        Ok((Position::from_setup(&clean)?, corrections))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CastlingNotation;

    type Pos = Position;
    use CastlingMode::{Chess960, Standard};

    fn read(fen: &str, mode: CastlingMode) -> (Pos, Vec<FenCorrection>) {
        Position::from_fen_lenient(fen, mode).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    fn squares(list: &[Square]) -> Bitboard {
        list.iter().copied().collect()
    }

    /// The GUI's FEN of issue 74: a king and a rook, `KQkq` left set.
    #[test]
    fn stale_castling_rights_are_dropped() {
        use Square::*;
        let fen = "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1";
        assert_eq!(
            Pos::from_fen(fen),
            Err(FenError::Position(PositionError::InvalidCastlingRights))
        );
        for mode in [Standard, Chess960] {
            let (pos, said) = read(fen, mode);
            assert_eq!(pos.castling_rooks(), squares(&[H1]));
            assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
            assert_eq!(
                said,
                [FenCorrection::CastlingRights {
                    given: "KQkq".into(),
                    kept: "K".into(),
                    dropped: squares(&[A1, A8, H8]),
                    mode,
                }]
            );
        }
        // Every right gone: the field is `-`.
        let (pos, said) = read("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", Standard);
        assert!(pos.castling_rooks().is_empty());
        assert!(
            said[0].to_string().contains("'KQkq' read as '-'"),
            "{}",
            said[0]
        );
        // A king off its square keeps no right in standard chess.
        let (pos, _) = read("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", Standard);
        assert_eq!(pos.castling_rooks(), squares(&[A8, H8]));
    }

    #[test]
    fn missing_trailing_fields_take_their_defaults() {
        let defaulted = |field, value| FenCorrection::Defaulted { field, value };
        // Five fields: the half-move clock given, the move number not.
        let (pos, said) = read("4k3/8/8/8/8/8/8/4K2R w K - 7", Standard);
        assert_eq!((pos.halfmoves(), pos.fullmoves()), (7, 1));
        assert_eq!(said, [defaulted(FenField::Fullmoves, "1")]);
        assert!(Pos::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 7").is_err());
        // Five fields with stale rights: both said, the defaulted field first.
        let (_, said) = read("4k3/8/8/8/8/8/8/4K2R w KQkq - 0", Standard);
        assert_eq!(said.len(), 2, "{said:?}");
        assert!(matches!(said[0], FenCorrection::Defaulted { .. }));
        assert!(matches!(said[1], FenCorrection::CastlingRights { .. }));
        // Four fields: the clocks may be left out in the strict reading too.
        let (pos, said) = read("4k3/8/8/8/8/8/8/4K2R w K -", Standard);
        assert_eq!((pos.halfmoves(), pos.fullmoves(), said.len()), (0, 1, 0));
        // Three and two.
        let (pos, said) = read("4k3/8/8/8/8/8/8/4K2R b K", Standard);
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R b K - 0 1");
        assert_eq!(said, [defaulted(FenField::EnPassant, "-")]);
        let (pos, said) = read("4k3/8/8/8/8/8/8/4K2R b", Standard);
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R b - - 0 1");
        assert_eq!(
            said,
            [
                defaulted(FenField::Castling, "-"),
                defaulted(FenField::EnPassant, "-")
            ]
        );
        assert_eq!(
            said[0].to_string(),
            "no castling rights in the FEN: taken as -"
        );
    }

    /// X-FEN and Shredder-FEN in Chess960, with a rook gone from its square.
    #[test]
    fn chess960_stale_rights_in_both_notations() {
        use Square::*;
        // Start position 226 with the white e1 rook gone.
        let xfen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w KQkq - 0 1";
        let shredder = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w GEge - 0 1";
        for (fen, given, kept, dropped) in
            [(xfen, "KQkq", "Kkq", A1), (shredder, "GEge", "Gge", E1)]
        {
            assert!(Pos::from_fen(fen).is_err(), "{fen}");
            let (pos, said) = read(fen, Chess960);
            assert_eq!(pos.castling_rooks(), squares(&[G1, E8, G8]), "{fen}");
            assert_eq!(
                said,
                [FenCorrection::CastlingRights {
                    given: given.into(),
                    kept: kept.into(),
                    dropped: squares(&[dropped]),
                    mode: Chess960,
                }]
            );
            // Written back in the notation read.
            assert_eq!(pos.fen().split(' ').nth(2), Some(kept));
            // In standard chess a king on f1 or f8 has no right at all.
            let (pos, _) = read(fen, Standard);
            assert!(pos.castling_rooks().is_empty(), "{fen}");
        }
        // Two rights on one side of a king: the outermost is kept.
        let (pos, said) = read("4k3/8/8/8/8/8/8/4KRR1 w GF - 0 1", Chess960);
        assert_eq!(pos.castling_rooks(), squares(&[G1]));
        assert!(
            said[0].to_string().contains("'FG' read as 'G'"),
            "{}",
            said[0]
        );
        assert_eq!(pos.castling_notation(), CastlingNotation::Shredder);
    }

    #[test]
    fn an_en_passant_square_behind_no_double_push_is_dropped() {
        let fen = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
        assert!(Pos::from_fen(fen).is_err());
        let (pos, said) = read(fen, Standard);
        assert_eq!(pos.ep_square(), None);
        assert_eq!(said, [FenCorrection::EnPassant(Square::E6)]);
        assert_eq!(
            said[0].to_string(),
            "en-passant square e6 ignored: no pawn has just passed it in a double push"
        );
        // After a double push, kept as FEN has it, capturable or not.
        let fen = "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1";
        let (pos, said) = read(fen, Standard);
        assert_eq!((pos.ep_square(), said.len()), (Some(Square::E6), 0));
        assert_eq!(pos, Pos::from_fen(fen).unwrap());
    }

    /// What cannot be played is refused as the strict reading refuses it.
    #[test]
    fn unplayable_positions_are_still_refused() {
        for (fen, why) in [
            ("8/8/8/8/8/8/8/4K3 w KQkq - 0 1", PositionError::Kings),
            ("4k3/8/8/8/8/8/8/4K2K w K - 0 1", PositionError::Kings),
            ("8/8/8/8/8/8/8/4Kk2 w - -", PositionError::OppositeCheck),
            (
                "4k3/8/8/8/8/8/8/4RK2 w KQkq - 0",
                PositionError::OppositeCheck,
            ),
            (
                "4k2P/8/8/8/8/8/8/4K3 w - e6 0 1",
                PositionError::PawnsOnBackRank,
            ),
        ] {
            for mode in [Standard, Chess960] {
                let got = Pos::from_fen_lenient(fen, mode).map(|(p, _)| p);
                assert_eq!(got, Err(FenError::Position(why)), "{fen}");
            }
        }
        for text in [
            "",
            "4k3/8/8/8/8/8/8/4K3",
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra",
            "4k3/8/8/8/8/8/8/4K3 x",
            "4k3/8/8/8/8/8/8/4K3 w - - x",
            "4k3/8/8/8/8/9/8/4K3 w",
        ] {
            let got = Pos::from_fen_lenient(text, Chess960).map(|(p, _)| p);
            assert!(matches!(got, Err(FenError::Parse(_))), "{text:?}: {got:?}");
        }
    }

    /// In Chess960 mode the lenient reading corrects nothing that the strict
    /// one accepts; in standard mode nothing standard chess has.
    #[test]
    fn strict_positions_read_unchanged() {
        for fen in [
            crate::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1",
            "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KBkq - 0 1",
            "4k3/8/8/8/8/8/8/4K3 b - - 99 40",
        ] {
            let strict = Pos::from_fen(fen).unwrap();
            assert_eq!(read(fen, Chess960), (strict, vec![]), "{fen}");
            let (pos, said) = read(fen, Standard);
            assert_eq!(said.is_empty(), !strict.is_chess960(), "{fen}: {said:?}");
            assert_eq!(pos.fen() == strict.fen(), !strict.is_chess960(), "{fen}");
        }
    }

    /// The lenient reading against shakmaty's own: its FEN reader (which
    /// defaults missing fields), then the position with its invalid castling
    /// rights and en-passant square ignored, in the same castling mode. The
    /// same board, side to move, castling rooks, en-passant square and
    /// clocks, and the same verdict where no position can be played.
    #[test]
    fn agrees_with_shakmaty() {
        use shakmaty::Position as _;
        let fens = [
            "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1",
            "4k3/8/8/8/8/8/8/4K2R w KQkq - 0",
            "4k3/8/8/8/8/8/8/4K2R w KQkq -",
            "4k3/8/8/8/8/8/8/4K2R w KQkq",
            "4k3/8/8/8/8/8/8/4K2R b",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 17",
            "r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1",
            "r3k3/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1",
            "rn2k1r1/8/8/8/8/8/8/1R2K2R b KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
            "4k3/8/8/8/8/8/8/4K3 w - e6 0 1",
            "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1",
            "4k3/8/8/4p3/8/8/8/4K3 w - d6 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w KQkq - 0 1",
            "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNB1KRN w GEge - 0 1",
            "bqnbr1rn/ppppkppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1",
            "4k3/8/8/8/8/8/8/4KRR1 w GF - 0 1",
            "4k3/8/8/8/8/8/8/1RR1K3 w BC - 0 1",
            "1r2k1rr/8/8/8/8/8/8/RR2K1R1 w KBkq - 0 1",
            // No position to play, in either reading.
            "8/8/8/8/8/8/8/4K3 w KQkq - 0 1",
            "8/8/8/8/8/8/8/4Kk2 w - -",
            "4k3/8/8/8/8/8/8/4RK2 w KQkq - 0",
            "4k2P/8/8/8/8/8/8/4K3 w - e6 0 1",
        ];
        let mut compared = 0;
        for fen in fens {
            for mode in [Standard, Chess960] {
                let theirs = fen
                    .parse::<shakmaty::fen::Fen>()
                    .unwrap_or_else(|e| panic!("{fen}: {e}"));
                let their_mode = match mode {
                    Standard => shakmaty::CastlingMode::Standard,
                    Chess960 => shakmaty::CastlingMode::Chess960,
                };
                let theirs = theirs
                    .into_position::<shakmaty::Chess>(their_mode)
                    .or_else(shakmaty::PositionError::ignore_invalid_castling_rights)
                    .or_else(shakmaty::PositionError::ignore_invalid_ep_square);
                let ours = Pos::from_fen_lenient(fen, mode);
                let (ours, theirs) = match (ours, theirs) {
                    (Ok((ours, _)), Ok(theirs)) => (ours, theirs),
                    (Err(_), Err(_)) => continue,
                    (ours, theirs) => panic!("{fen} {mode:?}: {ours:?} but shakmaty {theirs:?}"),
                };
                let their_fen =
                    shakmaty::fen::Fen::from_position(&theirs, shakmaty::EnPassantMode::Always)
                        .to_string();
                let what = format!("{fen} {mode:?}: {} against {their_fen}", ours.fen());
                let ours_fen = ours.fen();
                let fields = |f: &str| f.split(' ').take(2).collect::<Vec<_>>().join(" ");
                assert_eq!(fields(&ours_fen), fields(&their_fen), "{what}");
                assert_eq!(
                    ours.castling_rooks().0,
                    theirs.castles().castling_rights().0,
                    "{what}"
                );
                assert_eq!(
                    ours.ep_square().map(Square::index),
                    theirs
                        .ep_square(shakmaty::EnPassantMode::Always)
                        .map(shakmaty::Square::to_usize),
                    "{what}"
                );
                assert_eq!(ours.halfmoves(), theirs.halfmoves(), "{what}");
                assert_eq!(ours.fullmoves(), theirs.fullmoves().get(), "{what}");
                compared += 1;
            }
        }
        assert_eq!(compared, 2 * (fens.len() - 4));
    }
}
