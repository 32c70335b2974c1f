//! # engine
//!
//! Borrow's UCI chess engine.
//!
//! - [`uci`]: UCI text parsed into typed [`uci::Command`]s.
//! - [`driver`]: the protocol driver: position, options, the search thread.
//! - [`position_command`]: `position`: the GUI's FEN read leniently, the
//!   moves played on it.
//! - [`options`]: the UCI options, one table of names, types and ranges.
//! - [`search`]: iterative deepening, PVS, quiescence, pruning, Lazy SMP.
//! - [`eval`]: the hand-crafted, tapered evaluation and its weights.
//! - [`nnue`] (the crate, re-exported): the learned evaluation, a net
//!   updated move by move, and its training data.
//! - [`evaluator`]: which of the two the search uses.
//! - [`board_hash`]: a hash of bitboards, for tables keyed by part of a
//!   position.
//! - [`tt`]: the lock-free transposition table.
//! - [`tablebase`]: Syzygy endgame tablebases (WDL in the search, DTZ at the root).
//! - [`win_rate`]: win/draw/loss from a score, for `UCI_ShowWDL`.
//! - [`selfplay`]: what self-play shares: a game's settings, its fixed-node
//!   search, its opening.
//! - [`genfens`]: openings for OpenBench's distributed data generation.
//! - [`time`]: time management.
//! - [`mod@bench`]: the fixed search `borrow bench` runs.
//! - [`cli`]: the `borrow` command line and the UCI input loop.

#![deny(missing_docs)]

pub mod bench;
pub mod board_hash;
pub mod cli;
pub mod driver;
pub mod eval;
pub mod evaluator;
pub mod genfens;
pub use nnue;
pub mod options;
pub mod position_command;
pub mod search;
pub mod selfplay;
pub mod tablebase;
pub mod time;
pub mod tt;
pub mod uci;
pub mod win_rate;

#[cfg(test)]
mod test_positions;
