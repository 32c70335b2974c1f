//! # matches
//!
//! `borrow-match`: engine-vs-engine matches between two UCI engines, with
//! the conventions and statistics of fastchess and fishtest. No external
//! match runner is needed: the project ships its own.
//!
//! - [`cli`]: the command line (fastchess-style single-dash options) and
//!   [`cli::MatchConfig`].
//! - [`clock`]: time controls (`40/60+0.6`, `10+0.1`) and the chess clock.
//! - [`engine`]: a UCI engine as a child process, read by a thread through a
//!   channel with deadlines.
//! - [`game`]: one game, refereed by shakmaty: legality, the rules of the
//!   game's end, adjudication, and engine failures (illegal move, crash,
//!   stall, time loss).
//! - [`openings`]: opening suites (EPD, PGN) read by the `book` crate,
//!   checked by the referee, in playing order.
//! - [`pgn`]: PGN output with scores, depths and times in comments.
//! - [`stats`]: W/D/L, pentanomial counts, Elo, nElo, LOS (pure functions).
//! - [`sprt`]: the GSPRT log-likelihood ratio, logistic or normalised.
//! - [`tournament`]: worker threads, game pairs, progress, stopping.
//! - [`report`]: the final summary as text and JSON.
//! - [`experiment`]: the attack-method experiment (`borrow-experiment`):
//!   bench speed, fixed-node identity and timed matches of every attack
//!   method of the Borrow engine against the baseline method.

#![deny(missing_docs)]

pub mod cli;
pub mod clock;
pub mod engine;
pub mod experiment;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod report;
pub mod sprt;
pub mod stats;
pub mod tournament;
