//! What a `position` command sets: the GUI's FEN read leniently, the moves
//! played on it, and what to tell the GUI about them.
//!
//! The FEN is read as GUIs write it ([`Position::from_fen_lenient`]):
//! castling rights without their king and rook dropped (the squares
//! standard chess needs, or Chess960's with `UCI_Chess960`), missing
//! trailing fields defaulted, an en-passant square behind no double push
//! ignored, each said in an `info string`. A FEN that gives no position to
//! play (not a FEN, a side without its king, the side not to move in
//! check, ...) sets none: the driver then answers every `go` with
//! `bestmove 0000` until the next good `position`, never with a move of the
//! position before. An illegal move in the list cuts the list there, as
//! Stockfish does.

use movegen::{CastlingMode, IllegalMoveError, MoveError, Position, STARTING_FEN};

use crate::uci::quote;

/// A `position` command read.
#[derive(Debug)]
pub struct Reading {
    /// The position reached and the keys of the positions before it that
    /// can still repeat; or why there is no position to play.
    pub position: Result<(Position, Vec<u64>), String>,
    /// What to tell the GUI, one `info string` each: what the FEN's reading
    /// corrected, where the move list was cut.
    pub notes: Vec<String>,
}

/// Reads `position startpos` (`fen` is `None`) or `position fen F`, then
/// plays `moves`, castling rights read in `mode`.
pub fn read(fen: Option<&str>, moves: &[String], mode: CastlingMode) -> Reading {
    let mut notes = Vec::new();
    let mut pos = match Position::from_fen_lenient(fen.unwrap_or(STARTING_FEN), mode) {
        Ok((pos, corrections)) => {
            notes.extend(corrections.iter().map(|c| format!("position fen: {c}")));
            pos
        }
        Err(e) => {
            return Reading {
                position: Err(e.to_string()),
                notes,
            };
        }
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        match pos.parse_uci(text) {
            Ok(m) => {
                history.push(pos.key());
                pos.play_unchecked(m);
            }
            Err(e) => {
                notes.push(format!(
                    "{} at move {} of the list; ignoring it and the {} after it",
                    move_error(&e),
                    i + 1,
                    moves.len() - i - 1
                ));
                break;
            }
        }
    }
    // Keep only what can still repeat (since the last irreversible move).
    let keep = (pos.halfmoves() as usize).min(history.len());
    let history = history.split_off(history.len() - keep);
    Reading {
        position: Ok((pos, history)),
        notes,
    }
}

/// A move the position list or `searchmoves` could not use. UCI takes UCI
/// notation only: SAN (`e4`, `Nf3`) is refused, and the message says which
/// notation was expected.
pub fn move_error(e: &MoveError) -> String {
    match e {
        MoveError::Syntax(e) => format!(
            "'{}' is not a move in UCI notation (UCI notation expected, as in e2e4 or e7e8q)",
            quote(e.text())
        ),
        MoveError::Illegal(e) => match e {
            IllegalMoveError::Illegal(text) => format!("illegal move '{}'", quote(text)),
            IllegalMoveError::Ambiguous(text) => format!("ambiguous move '{}'", quote(text)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(list: &[&str]) -> Vec<String> {
        list.iter().map(|m| (*m).to_owned()).collect()
    }

    /// Issue 74's session: a position after `d2d4`, then the GUI's FEN with
    /// stale castling rights. The FEN's position is set, with one note.
    #[test]
    fn stale_rights_give_the_fens_position_and_a_note() {
        let r = read(
            Some("4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"),
            &[],
            CastlingMode::Standard,
        );
        let (pos, history) = r.position.unwrap();
        assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert!(history.is_empty());
        assert_eq!(r.notes.len(), 1, "{:?}", r.notes);
        assert!(
            r.notes[0].starts_with("position fen: castling rights 'KQkq' read as 'K'"),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn one_note_per_correction_and_moves_played_after() {
        let r = read(
            Some("4k3/8/8/8/8/8/8/4K2R w KQkq e6 0"),
            &moves(&["e1g1", "e8d8"]),
            CastlingMode::Standard,
        );
        let (pos, history) = r.position.unwrap();
        assert_eq!(pos.fen(), "3k4/8/8/8/8/8/8/5RK1 w - - 2 2");
        assert_eq!(history.len(), 2);
        assert_eq!(r.notes.len(), 3, "{:?}", r.notes);
        assert!(r.notes[0].contains("full-move number"), "{:?}", r.notes);
        assert!(r.notes[1].contains("castling"), "{:?}", r.notes);
        assert!(r.notes[2].contains("e6"), "{:?}", r.notes);
    }

    #[test]
    fn an_unplayable_fen_sets_no_position() {
        for fen in [
            "8/8/8/8/8/8/8/4K3 w - - 0 1",
            "8/8/8/8/8/8/8/4Kk2 w - - 0 1",
            "4k3/8/8/8/8/8/8/4RK2 w KQkq - 0 1",
            "garbage",
        ] {
            let r = read(Some(fen), &moves(&["e1e2"]), CastlingMode::Chess960);
            let why = r.position.unwrap_err();
            assert!(
                why.starts_with("illegal position") || why.starts_with("invalid FEN"),
                "{fen}: {why}"
            );
            assert!(r.notes.is_empty(), "{fen}: {:?}", r.notes);
        }
    }

    #[test]
    fn an_illegal_move_cuts_the_list() {
        let r = read(
            None,
            &moves(&["e2e4", "e2e4", "e7e5"]),
            CastlingMode::Standard,
        );
        let (pos, history) = r.position.unwrap();
        assert_eq!(
            pos.fen(),
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
        );
        assert!(history.is_empty(), "a pawn move: nothing can repeat");
        assert_eq!(
            r.notes,
            ["illegal move 'e2e4' at move 2 of the list; ignoring it and the 1 after it"]
        );
    }
}
