//! # movegen
//!
//! Chess positions and legal move generation for Borrow, generic over the
//! sliding-attack method of the [`attacks`] crate.
//!
//! - [`Setup`] and [`ParseFenError`]: FEN parsed, not yet validated;
//!   [`Position`] and [`PositionError`]: the validated position.
//! - [`Position::play_unchecked`], [`Position::try_play`] and
//!   [`Position::play`]: making moves (copy-make; the position is `Copy`).
//! - [`zobrist`]: Polyglot-compatible keys, updated incrementally.
//! - [`generate`](mod@generate): legal moves by stage, set-wise into a
//!   [`MoveSink`], pins and discovered checks by X-ray.
//! - [`castling`]: standard and Chess960 castling, rights by rook.
//! - [`Role`] and [`Piece`]; [`Move`]: 16-bit moves.
//! - [`table`]: [`AtomicTable`], values by Zobrist key shared by threads
//!   without locks (the engine's transposition table, perft's cache).
//! - [`uci`](mod@uci) and [`san`](mod@san): move notation, read in two stages
//!   as FENs are: text to [`UciMove`] or [`SanMove`] ([`ParseMoveError`]),
//!   then against a position ([`IllegalMoveError`]); [`MoveError`] is
//!   either, for the one-call `parse_uci`, `parse_san` and `parse_move`.

#![deny(missing_docs)]

pub mod castling;
mod error;
pub mod generate;
mod moves;
mod piece;
mod position;
pub mod san;
mod setup;
pub mod table;
mod two_plies;
pub mod uci;
pub mod zobrist;

pub use attacks;
pub use castling::{CastlingNotation, CastlingRights};
pub use error::{
    FenError, FenField, IllegalMoveError, MoveError, ParseFenError, ParseMoveError, PositionError,
};
pub use generate::{MoveCounter, MoveList, MoveSink, Stage};
pub use moves::{Move, MoveKind};
pub use piece::{Piece, Role};
pub use position::{Position, STARTPOS};
pub use san::SanMove;
pub use setup::{STARTING_FEN, Setup};
pub use table::AtomicTable;
pub use uci::{Uci, UciMove};
