//! The PGN lexer: tag brackets, parentheses, move numbers' dots, NAGs,
//! strings, symbols (moves and tag names), comments and results, each with
//! its line.

use super::Outcome;
use crate::error::LineError;

/// A token's kind (and text, where it has one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok<'a> {
    Open,
    Close,
    LParen,
    RParen,
    Dot,
    Nag,
    Str(String),
    Symbol(&'a str),
    Comment(&'a str),
    Result(Outcome),
    Eof,
}

/// A token and the line it starts on.
#[derive(Clone, Debug)]
pub(super) struct Token<'a> {
    pub(super) tok: Tok<'a>,
    pub(super) line: usize,
}

/// The tokens of a PGN text, one at a time.
pub(super) struct Lexer<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            pos: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn skip_to_end_of_line(&mut self) {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    /// Skips white space, `;` comments and `%` lines.
    fn skip_blanks(&mut self) -> Result<(), LineError> {
        let bytes = self.text.as_bytes();
        while let Some(c) = self.peek() {
            match c {
                b'\n' => {
                    self.line += 1;
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b';' => self.skip_to_end_of_line(),
                b'%' if self.pos == 0 || bytes[self.pos - 1] == b'\n' => self.skip_to_end_of_line(),
                _ => break,
            }
        }
        Ok(())
    }

    pub(super) fn next_token(&mut self) -> Result<Token<'a>, LineError> {
        self.skip_blanks()?;
        let line = self.line;
        let token = |tok| Ok(Token { tok, line });
        let Some(c) = self.peek() else {
            return token(Tok::Eof);
        };
        self.pos += 1;
        match c {
            b'{' => {
                let start = self.pos;
                loop {
                    match self.peek() {
                        None => {
                            return Err(LineError::new(
                                line,
                                "a comment '{' is not closed by '}' before the end of the file",
                            ));
                        }
                        Some(b'}') => {
                            self.pos += 1;
                            break;
                        }
                        Some(b'\n') => {
                            self.line += 1;
                            self.pos += 1;
                        }
                        Some(_) => self.pos += 1,
                    }
                }
                token(Tok::Comment(&self.text[start..self.pos - 1]))
            }
            b'[' => token(Tok::Open),
            b']' => token(Tok::Close),
            b'(' => token(Tok::LParen),
            b')' => token(Tok::RParen),
            b'.' => token(Tok::Dot),
            b'*' => token(Tok::Result(Outcome::Unknown)),
            b'!' | b'?' => {
                while matches!(self.peek(), Some(b'!' | b'?')) {
                    self.pos += 1;
                }
                token(Tok::Nag)
            }
            b'$' => {
                let digits = self.pos;
                while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.pos += 1;
                }
                if self.pos == digits {
                    return Err(LineError::new(line, "'$' without a number (NAG)"));
                }
                token(Tok::Nag)
            }
            b'"' => {
                let mut value = String::new();
                let mut run = self.pos;
                loop {
                    match self.peek() {
                        None | Some(b'\n') => {
                            return Err(LineError::new(
                                line,
                                "a quoted string is not closed on its line",
                            ));
                        }
                        Some(b'"') => {
                            value.push_str(&self.text[run..self.pos]);
                            self.pos += 1;
                            break;
                        }
                        Some(b'\\')
                            if matches!(
                                self.text.as_bytes().get(self.pos + 1),
                                Some(b'"' | b'\\')
                            ) =>
                        {
                            value.push_str(&self.text[run..self.pos]);
                            run = self.pos + 1;
                            self.pos += 2;
                        }
                        Some(_) => self.pos += 1,
                    }
                }
                token(Tok::Str(value))
            }
            c if c.is_ascii_alphanumeric() => {
                let start = self.pos - 1;
                while self
                    .peek()
                    .is_some_and(|b| b.is_ascii_alphanumeric() || b"_+#=:-/".contains(&b))
                {
                    self.pos += 1;
                }
                let s = &self.text[start..self.pos];
                token(match s {
                    "1-0" => Tok::Result(Outcome::WhiteWins),
                    "0-1" => Tok::Result(Outcome::BlackWins),
                    "1/2-1/2" => Tok::Result(Outcome::Draw),
                    _ => Tok::Symbol(s),
                })
            }
            _ => {
                // Step over the whole character, which may be several bytes.
                let start = self.pos - 1;
                let ch = self.text[start..].chars().next().unwrap_or('?');
                self.pos = start + ch.len_utf8();
                Err(LineError::new(line, format!("unexpected character '{ch}'")))
            }
        }
    }
}
