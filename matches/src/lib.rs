//! # matches
//!
//! `borrow-match`: engine-vs-engine matches between two UCI engines, with
//! the conventions and statistics of fastchess and fishtest. No external
//! match runner is needed: the project ships its own.
//!
//! - [`cli`]: the command line (fastchess-style single-dash options) and
//!   [`cli::MatchConfig`].
//! - [`clock`]: time controls (`40/60+0.6`, `10+0.1`) and the chess clock.
//! - [`uci_engine`]: a UCI engine as a child process, read by a thread through a
//!   channel with deadlines.
//! - [`game`]: one game, refereed by shakmaty: legality, the rules of the
//!   game's end, adjudication, and engine failures (illegal move, crash,
//!   stall, time loss).
//! - [`openings`]: opening suites (EPD, PGN) read by the `book` crate,
//!   checked by the referee, in playing order.
//! - [`pgn`]: a game as PGN, with scores, depths and times in comments
//!   (its tags and moves, written by the `book` crate's PGN writer).
//! - [`stats`]: W/D/L, pentanomial counts, Elo, nElo, LOS (pure functions).
//! - [`sprt`]: the GSPRT log-likelihood ratio, logistic or normalised.
//! - [`schedule`]: which engine has White in each game, and its `Round`
//!   tag.
//! - [`tournament`]: worker threads, game pairs, progress, stopping (the
//!   workers and the main thread's collector in files of their own).
//! - [`report`]: what a match produced, and the final summary as text and
//!   JSON.
//! - [`resume`]: a stopped match resumed from its PGN (`-resume`).
//! - [`spsa`]: SPSA tuning of an engine's constants by game pairs
//!   (`borrow-spsa`), OpenBench's and fishtest's method on one machine.
//!
//! The attack-method experiment (`borrow-experiment`) is built on this
//! runner in a crate of its own, `experiment`.

#![deny(missing_docs)]

pub mod cli;
pub mod clock;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod report;
pub mod resume;
pub mod schedule;
pub mod sprt;
pub mod spsa;
pub mod stats;
pub mod tournament;
pub mod uci_engine;
