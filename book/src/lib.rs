//! # book
//!
//! Polyglot opening books for Borrow, and opening suites for matches.
//!
//! Reading and playing from a book:
//! - [`Book`]: a `.bin` book in memory, checked on load ([`BookError`]: size
//!   not a multiple of 16, keys out of order), searched by key;
//!   [`Book::probe`] gives a position's [`BookMove`]s (legal moves only),
//!   [`Book::best_move`] and [`Book::weighted_move`] pick one
//!   ([`choose_best`], [`choose_weighted`] on any list).
//! - [`Entry`]: the 16-byte big-endian record; [`encode_move`] and
//!   [`decode_move`]: Polyglot's move encoding (castling as king takes rook,
//!   promotion bits).
//!
//! Making a book:
//! - [`pgn`]: a PGN reader ([`pgn::Reader`], [`pgn::read_games`]) that
//!   reports malformed games with their line ([`LineError`]) and skips them,
//!   and a writer ([`pgn::Writer`]: tags, moves with their comments, the
//!   result), which `borrow-match` writes its games with.
//! - [`BookBuilder`] with [`BuildOptions`]: weights from results, as
//!   `polyglot make-book` computes them.
//!
//! Opening suites for matches:
//! - [`openings`]: [`openings::Opening`] from EPD ([`openings::read_epd`]) or
//!   PGN ([`openings::read_pgn`], cut to a number of plies), arranged
//!   sequentially or shuffled with a seed from a 1-based start
//!   ([`openings::arrange`]).
//!
//! Reading files: [`read_text`] reads PGN and EPD leniently (bytes that are
//! not UTF-8 become U+FFFD), for every tool of the workspace.
//!
//! The `book` command (`book probe`, `book make`) wraps all this for the
//! shell; run `book --help`.

#![deny(missing_docs)]

mod entry;
mod error;
pub mod openings;
pub mod pgn;
mod reader;
mod text;
mod writer;

pub use entry::{ENTRY_SIZE, Entry, decode_move, encode_move, entries_to_bytes};
pub use error::LineError;
pub use reader::{Book, BookError, BookMove, choose_best, choose_weighted};
pub use text::{plural, read_text};
pub use writer::{BookBuilder, BuildOptions};
