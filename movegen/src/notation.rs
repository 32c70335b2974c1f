//! Move notation: UCI (`e2e4`, `e7e8q`, `e1g1`, `0000`) and SAN (`Nf3`,
//! `exd6`, `O-O`, `e8=Q+`).

use attacks::{File, Rank, SliderAttacks, Square};

use crate::error::MoveError;
use crate::position::Position;
use crate::types::{Move, MoveKind, Role};

impl<A: SliderAttacks> Position<A> {
    /// The legal move that UCI text `uci` names, e.g. `e2e4`, `e7e8q`, or
    /// castling as the king's move `e1g1` or as the king taking its own rook
    /// `e1h1` (Chess960's form). `0000` is refused: it is no move.
    ///
    /// The two castling forms never clash with another move: a king never
    /// takes its own rook, and a normal king move that reads like castling
    /// (`f1g1` with the king on `f1` in Chess960) is taken as that move.
    pub fn parse_uci(&self, uci: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(uci.to_owned());
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
        let legal = self.legal_moves();
        let exact = legal
            .iter()
            .find(|m| m.from() == from && m.to() == to && m.promotion_role() == promotion);
        let king_move = || {
            legal.iter().find(|m| {
                m.kind() == MoveKind::Castle
                    && promotion.is_none()
                    && m.from() == from
                    && m.king_to() == to
            })
        };
        exact
            .or_else(king_move)
            .copied()
            .ok_or_else(|| MoveError::Illegal(uci.to_owned()))
    }

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
    /// with or without `+`, `#`, `!`, `?`). `0-0` is taken for `O-O`.
    pub fn parse_san(&self, san: &str) -> Result<Move, MoveError> {
        let text = san.trim_end_matches(['+', '#', '!', '?']);
        let syntax = || MoveError::Syntax(san.to_owned());
        let legal = self.legal_moves();
        let pick = |candidates: Vec<Move>| match candidates.len() {
            1 => Ok(candidates[0]),
            0 => Err(MoveError::Illegal(san.to_owned())),
            _ => Err(MoveError::Ambiguous(san.to_owned())),
        };
        if matches!(text, "O-O" | "0-0" | "O-O-O" | "0-0-0") {
            let king_side = text.len() == 3;
            return pick(
                legal
                    .into_iter()
                    .filter(|m| {
                        m.kind() == MoveKind::Castle && m.is_king_side_castle() == king_side
                    })
                    .collect(),
            );
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
        let rest = rest.replace('x', "");
        if rest.len() < 2 || !rest.is_ascii() {
            return Err(syntax());
        }
        let to: Square = rest[rest.len() - 2..].parse().map_err(|_| syntax())?;
        let hint = &rest[..rest.len() - 2];
        let (mut file_hint, mut rank_hint) = (None, None);
        for c in hint.chars() {
            if let Some(f) = File::from_char(c) {
                file_hint = Some(f);
            } else if let Some(r) = Rank::from_char(c) {
                rank_hint = Some(r);
            } else {
                return Err(syntax());
            }
        }
        pick(
            legal
                .into_iter()
                .filter(|m| {
                    m.to() == to
                        && m.kind() != MoveKind::Castle
                        && self.role_at(m.from()) == Some(role)
                        && m.promotion_role() == promotion
                        && file_hint.is_none_or(|f| m.from().file() == f)
                        && rank_hint.is_none_or(|r| m.from().rank() == r)
                })
                .collect(),
        )
    }

    /// A move in either notation: UCI first, then SAN.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        match self.parse_uci(text) {
            Ok(m) => Ok(m),
            Err(MoveError::Syntax(_)) => self.parse_san(text),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{MoveError, Position};

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
}
