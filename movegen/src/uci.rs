//! UCI move notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1`
//! or as Chess960's king-takes-rook `e1h1`, and `0000` for the null move.
//!
//! Writing: [`Move::uci`] gives a [`Uci`] to display. Reading, in two stages
//! as shakmaty does: text to a [`UciMove`] (syntax only: a
//! [`ParseMoveError`]), then [`UciMove::to_move`] against a position
//! (legality: an [`IllegalMoveError`]). [`Position::parse_uci`] does both.

use core::fmt;
use core::str::FromStr;

use attacks::{SliderAttacks, Square};

use crate::error::{IllegalMoveError, MoveError, ParseMoveError};
use crate::moves::{Move, MoveKind};
use crate::piece::Role;
use crate::position::Position;

/// A move in UCI notation, standard or Chess960 ([`Move::uci`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Uci {
    pub(crate) m: Move,
    pub(crate) chess960: bool,
}

impl Move {
    /// The move in UCI notation: castling as the king's two-square move
    /// (`e1g1`), or with `chess960` as the king taking its rook (`e1h1`), as
    /// UCI's `UCI_Chess960` option asks.
    pub const fn uci(self, chess960: bool) -> Uci {
        Uci { m: self, chess960 }
    }
}

/// UCI notation: `e2e4`, `e7e8q`, `e1g1` for castling, `0000` for the null
/// move. [`Move::uci`] writes Chess960 castling.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.uci(false).fmt(f)
    }
}

/// As [`Display`](fmt::Display): a move reads best in UCI notation.
impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

impl fmt::Display for Uci {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.m;
        if m.is_null() {
            return f.write_str("0000");
        }
        let to = if self.chess960 { m.to() } else { m.king_to() };
        write!(f, "{}{to}", m.from())?;
        if let Some(role) = m.promotion_role() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

/// UCI text read but not yet checked against a position: two squares and
/// a promotion. `0000` is not one: it names no move.
///
/// ```
/// use movegen::{Position, UciMove};
///
/// let m: UciMove = "e7e8q".parse().unwrap();
/// assert_eq!(m.to_string(), "e7e8q");
/// assert!("e7e8x".parse::<UciMove>().is_err());
///
/// // Well-formed, but not a move of the starting position.
/// let pos: Position = Position::startpos();
/// assert!(m.to_move(&pos).is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// The square the piece leaves.
    pub from: Square,
    /// The square it goes to (castling: the king's square or its rook's).
    pub to: Square,
    /// The piece a pawn becomes, if it promotes.
    pub promotion: Option<Role>,
}

impl FromStr for UciMove {
    type Err = ParseMoveError;

    fn from_str(uci: &str) -> Result<UciMove, ParseMoveError> {
        let syntax = || ParseMoveError::new("UCI", uci);
        if !uci.is_ascii() || !(4..=5).contains(&uci.len()) {
            return Err(syntax());
        }
        let from: Square = uci[0..2].parse().map_err(|_| syntax())?;
        let to: Square = uci[2..4].parse().map_err(|_| syntax())?;
        let promotion = match uci.as_bytes().get(4) {
            None => None,
            Some(&c) => match Role::from_char(c as char) {
                Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen))
                    if c.is_ascii_lowercase() =>
                {
                    Some(r)
                }
                _ => return Err(syntax()),
            },
        };
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(role) = self.promotion {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl UciMove {
    /// The legal move of `pos` that this names. Castling may be written as
    /// the king's move (`e1g1`) or as the king taking its own rook (`e1h1`,
    /// Chess960's form).
    ///
    /// The two castling forms never clash with another move: a king never
    /// takes its own rook, and a normal king move that reads like castling
    /// (`f1g1` with the king on `f1` in Chess960) is taken as that move.
    pub fn to_move<A: SliderAttacks>(&self, pos: &Position<A>) -> Result<Move, IllegalMoveError> {
        let legal = pos.legal_moves();
        let exact = legal.iter().find(|m| {
            m.from() == self.from && m.to() == self.to && m.promotion_role() == self.promotion
        });
        let king_move = || {
            legal.iter().find(|m| {
                m.kind() == MoveKind::Castle
                    && self.promotion.is_none()
                    && m.from() == self.from
                    && m.king_to() == self.to
            })
        };
        exact
            .or_else(king_move)
            .copied()
            .ok_or_else(|| IllegalMoveError::Illegal(self.to_string()))
    }
}

impl<A: SliderAttacks> Position<A> {
    /// The legal move that UCI text `uci` names, e.g. `e2e4`, `e7e8q`, or
    /// castling as `e1g1` or `e1h1`: [`UciMove`]'s two stages in one call.
    /// `0000` is refused: it is no move.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, MoveError> {
        let parsed: UciMove = uci.parse()?;
        Ok(parsed.to_move(self)?)
    }
}
