//! Standard algebraic notation (SAN): `Nf3`, `exd6`, `O-O`, `e8=Q+`.
//!
//! Writing: [`Position::san`] of a legal move, with `+` or `#`. Reading, in
//! two stages as shakmaty does: text to a [`SanMove`] (syntax only: a
//! [`ParseMoveError`]), then [`SanMove::to_move`] against a position (the one
//! legal move it fits, or an [`IllegalMoveError`]: none, or more than one).
//! [`Position::parse_san`] does both; [`Position::parse_move`] takes either
//! notation.

use core::fmt;
use core::str::FromStr;

use attacks::{File, Rank, SliderAttacks, Square};

use crate::error::{IllegalMoveError, MoveError, ParseMoveError};
use crate::moves::{Move, MoveKind};
use crate::piece::Role;
use crate::position::Position;
use crate::uci::UciMove;

/// SAN text read but not yet matched against a position. Check, mate and
/// annotation suffixes (`+ # ! ?`) are dropped; `0-0` is read as `O-O`.
///
/// ```
/// use movegen::{Position, SanMove};
///
/// let pos: Position = Position::startpos();
/// let san: SanMove = "Nf3+".parse().unwrap();
/// assert_eq!(san.to_string(), "Nf3");
/// assert_eq!(san.to_move(&pos).unwrap().to_string(), "g1f3");
/// assert!("Zf3".parse::<SanMove>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SanMove {
    /// `O-O` (king side) or `O-O-O`.
    Castle {
        /// `true` for `O-O`.
        king_side: bool,
    },
    /// Any other move.
    Normal {
        /// The moving piece.
        role: Role,
        /// The origin's file, where the text gives it.
        file: Option<File>,
        /// The origin's rank, where the text gives it.
        rank: Option<Rank>,
        /// `true` if the text marks a capture (`x`); not checked.
        capture: bool,
        /// The destination.
        to: Square,
        /// The piece a pawn becomes.
        promotion: Option<Role>,
    },
}

impl FromStr for SanMove {
    type Err = ParseMoveError;

    fn from_str(san: &str) -> Result<SanMove, ParseMoveError> {
        let text = san.trim_end_matches(['+', '#', '!', '?']);
        let syntax = || ParseMoveError::new("SAN", san);
        if matches!(text, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            return Ok(SanMove::Castle {
                king_side: text.len() == 3,
            });
        }
        if !text.is_ascii() || text.len() < 2 {
            return Err(syntax());
        }
        let (body, promotion) = match text.split_once('=') {
            Some((b, p)) if p.len() == 1 => {
                match Role::from_char(p.chars().next().unwrap_or(' ')) {
                    Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => {
                        (b, Some(r))
                    }
                    _ => return Err(syntax()),
                }
            }
            Some(_) => return Err(syntax()),
            None => (text, None),
        };
        // `=Q` alone leaves no body: no move.
        let Some(&first) = body.as_bytes().first() else {
            return Err(syntax());
        };
        let (role, rest) = match first {
            b'N' | b'B' | b'R' | b'Q' | b'K' => (
                Role::from_char(first as char).unwrap_or(Role::Pawn),
                &body[1..],
            ),
            _ => (Role::Pawn, body),
        };
        let capture = rest.contains('x');
        let rest = rest.replace('x', "");
        if rest.len() < 2 || !rest.is_ascii() {
            return Err(syntax());
        }
        let to: Square = rest[rest.len() - 2..].parse().map_err(|_| syntax())?;
        let hint = &rest[..rest.len() - 2];
        let (mut file, mut rank) = (None, None);
        for c in hint.chars() {
            if let Some(f) = File::from_char(c) {
                file = Some(f);
            } else if let Some(r) = Rank::from_char(c) {
                rank = Some(r);
            } else {
                return Err(syntax());
            }
        }
        Ok(SanMove::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl fmt::Display for SanMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SanMove::Castle { king_side: true } => f.write_str("O-O"),
            SanMove::Castle { king_side: false } => f.write_str("O-O-O"),
            SanMove::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl SanMove {
    /// The one legal move of `pos` that this fits; an error if none does or
    /// more than one does (`Nd2` with knights on `b1` and `f3`).
    pub fn to_move<A: SliderAttacks>(&self, pos: &Position<A>) -> Result<Move, IllegalMoveError> {
        let fits = |m: &Move| match *self {
            SanMove::Castle { king_side } => {
                m.kind() == MoveKind::Castle && m.is_king_side_castle() == king_side
            }
            SanMove::Normal {
                role,
                file,
                rank,
                to,
                promotion,
                ..
            } => {
                m.to() == to
                    && m.kind() != MoveKind::Castle
                    && pos.role_at(m.from()) == Some(role)
                    && m.promotion_role() == promotion
                    && file.is_none_or(|f| m.from().file() == f)
                    && rank.is_none_or(|r| m.from().rank() == r)
            }
        };
        let legal = pos.legal_moves();
        let mut fitting = legal.iter().filter(|m| fits(m));
        match (fitting.next(), fitting.next()) {
            (Some(&m), None) => Ok(m),
            (None, _) => Err(IllegalMoveError::Illegal(self.to_string())),
            (Some(_), Some(_)) => Err(IllegalMoveError::Ambiguous(self.to_string())),
        }
    }
}

impl<A: SliderAttacks> Position<A> {
    /// Standard algebraic notation of the legal move `m`, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let mut next = *self;
        next.play_unchecked(m);
        if next.is_checkmate() {
            s.push('#');
        } else if next.is_check() {
            s.push('+');
        }
        s
    }

    fn san_without_suffix(&self, m: Move) -> String {
        let (from, to) = (m.from(), m.to());
        if m.kind() == MoveKind::Castle {
            return if m.is_king_side_castle() {
                "O-O"
            } else {
                "O-O-O"
            }
            .to_owned();
        }
        let role = self.role_at(from).unwrap_or(Role::Pawn);
        let capture = self.captured(m).is_some();
        let mut s = String::new();
        if role == Role::Pawn {
            if capture {
                s.push(from.file().char());
                s.push('x');
            }
            s.push_str(&to.to_string());
            if let Some(p) = m.promotion_role() {
                s.push('=');
                s.push(p.upper_char());
            }
            return s;
        }
        s.push(role.upper_char());
        // Disambiguation: other pieces of the same role that can reach `to`.
        let others: Vec<Square> = self
            .legal_moves()
            .into_iter()
            .filter(|o| o.to() == to && o.from() != from && self.role_at(o.from()) == Some(role))
            .map(|o| o.from())
            .collect();
        if !others.is_empty() {
            let same_file = others.iter().any(|o| o.file() == from.file());
            let same_rank = others.iter().any(|o| o.rank() == from.rank());
            if !same_file {
                s.push(from.file().char());
            } else if !same_rank {
                s.push(from.rank().char());
            } else {
                s.push_str(&from.to_string());
            }
        }
        if capture {
            s.push('x');
        }
        s.push_str(&to.to_string());
        s
    }

    /// The legal move that SAN text names (`Nf3`, `exd5`, `O-O`, `e8=Q`,
    /// with or without `+`, `#`, `!`, `?`): [`SanMove`]'s two stages in one
    /// call.
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveError> {
        let parsed: SanMove = san.parse()?;
        Ok(parsed.to_move(self)?)
    }

    /// A move in either notation: UCI first, then SAN. Text that is neither
    /// is a syntax error naming both.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        if let Ok(uci) = text.parse::<UciMove>() {
            return Ok(uci.to_move(self)?);
        }
        match text.parse::<SanMove>() {
            Ok(san) => Ok(san.to_move(self)?),
            Err(_) => Err(MoveError::Syntax(ParseMoveError::new("UCI or SAN", text))),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{MoveError, Position, SanMove};

    /// Found by the `moves` fuzz target: a promotion suffix with nothing
    /// before it (`=N`) indexed an empty string and panicked.
    #[test]
    fn san_of_a_bare_promotion_suffix_is_a_syntax_error() {
        let pos: Position = Position::startpos();
        for text in ["=N", "=Q+", "=q", "x=Q"] {
            assert!(
                matches!(pos.parse_san(text), Err(MoveError::Syntax(_))),
                "{text}"
            );
            assert!(pos.parse_move(text).is_err(), "{text}");
        }
    }

    /// The two stages: syntax errors need no position; legality errors say
    /// which kind.
    #[test]
    fn stages_report_their_own_errors() {
        let pos: Position = Position::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap();
        assert!("N".parse::<SanMove>().is_err());
        let ambiguous: SanMove = "Nd2".parse().unwrap();
        assert_eq!(
            ambiguous.to_move(&pos).unwrap_err().to_string(),
            "ambiguous move 'Nd2'"
        );
        let illegal: SanMove = "Qd2".parse().unwrap();
        assert_eq!(
            illegal.to_move(&pos).unwrap_err().to_string(),
            "illegal move 'Qd2'"
        );
        assert_eq!(pos.parse_san("Nbd2").unwrap().to_string(), "b1d2");
        assert_eq!(
            pos.parse_move("zz").unwrap_err().to_string(),
            "'zz' is not a move in UCI or SAN notation"
        );
    }
}
