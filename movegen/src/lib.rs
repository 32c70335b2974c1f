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
//! - [`Move`]: 16-bit moves, UCI and SAN notation ([`notation`]).

#![deny(missing_docs)]

pub mod castling;
mod error;
pub mod generate;
pub mod notation;
mod position;
mod setup;
mod types;
pub mod zobrist;

pub use attacks;
pub use castling::{CastlingNotation, CastlingRights};
pub use error::{FenError, FenField, MoveError, ParseFenError, PositionError};
pub use generate::{MoveCounter, MoveList, MoveSink, Stage};
pub use position::{Position, STARTPOS};
pub use setup::{STARTING_FEN, Setup};
pub use types::{Move, MoveKind, Piece, Role, Uci};
