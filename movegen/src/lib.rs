//! # movegen
//!
//! Chess positions and legal move generation for Borrow, generic over the
//! sliding-attack method of the [`attacks`] crate.
//!
//! - [`Setup`] and [`ParseFenError`]: FEN parsed, not yet validated;
//!   [`Position`] and [`PositionError`]: the validated position. The
//!   lenient reading, for GUIs: [`Position::from_fen_lenient`] and
//!   [`FenCorrection`] (see [Reading a FEN](#reading-a-fen)).
//! - [`Position::play_unchecked`], [`Position::try_play`] and
//!   [`Position::play`]: making moves (copy-make; the position is `Copy`).
//! - [`zobrist`]: Polyglot-compatible keys, updated incrementally.
//! - [`generate`](mod@generate): legal moves by stage, set-wise into a
//!   [`MoveSink`], pins and discovered checks by X-ray.
//! - [`castling`]: standard and Chess960 castling, rights by rook;
//!   [`chess960`]: Chess960 and double Chess960 start positions by number.
//! - [`Role`] and [`Piece`]; [`Move`]: 16-bit moves.
//! - [`table`]: [`AtomicTable`], values by Zobrist key shared by threads
//!   without locks (the engine's transposition table, perft's cache).
//! - [`uci`](mod@uci) and [`san`](mod@san): move notation, read in two stages
//!   as FENs are: text to [`UciMove`] or [`SanMove`] ([`ParseMoveError`]),
//!   then against a position ([`IllegalMoveError`]); [`MoveError`] is
//!   either, for the one-call `parse_uci`, `parse_san` and `parse_move`.
//!
//! ## Reading a FEN
//!
//! Two readings, each in two stages (parse, then validate):
//!
//! - strict, for the tools (`perft --fen`, the book and data readers):
//!   [`Position::from_fen`] (or `parse::<Setup>()` then
//!   [`Position::from_setup`]). Six fields, or four without the clocks;
//!   anything else, or a position that is not legal (a castling right
//!   without its king and rook, an en-passant square behind no double
//!   push), is an error naming the field and token, or the rule broken.
//! - lenient, for the engine's `position fen`:
//!   [`Position::from_fen_lenient`] (or [`Setup::parse_lenient`] then
//!   [`Position::from_setup_lenient`]) with a [`CastlingMode`]. Missing
//!   trailing fields are defaulted, castling rights the mode does not allow
//!   on the board and an en-passant square behind no double push are
//!   dropped, each said as a [`FenCorrection`]; what cannot be played (the
//!   kings, check, pawns on a back rank, material) is an error as in the
//!   strict reading. What it returns passes the strict reading.

#![deny(missing_docs)]

pub mod castling;
pub mod chess960;
mod error;
pub mod generate;
mod lenient;
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
pub use castling::{CastlingMode, CastlingNotation, CastlingRights};
pub use error::{
    FenError, FenField, IllegalMoveError, MoveError, ParseFenError, ParseMoveError, PositionError,
};
pub use generate::{MoveCounter, MoveList, MoveSink, Stage};
pub use lenient::FenCorrection;
pub use moves::{Move, MoveKind};
pub use piece::{Piece, Role};
pub use position::{Position, STARTPOS};
pub use san::SanMove;
pub use setup::{STARTING_FEN, Setup};
pub use table::AtomicTable;
pub use uci::{Uci, UciMove};
