//! [`LineError`]: what was wrong with a line of a text file (PGN, EPD).

use std::fmt;

/// A problem in a text input, at a line (1-based): the game or opening that
/// it belongs to is skipped and reading goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line, counted from 1.
    pub line: usize,
    /// What is wrong there.
    pub message: String,
}

impl LineError {
    /// An error at `line` (1-based).
    pub fn new(line: usize, message: impl Into<String>) -> LineError {
        LineError {
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for LineError {
    /// `line N: message`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for LineError {}
