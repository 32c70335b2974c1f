//! # datagen
//!
//! `borrow-datagen`: labelled positions from self-play, for training the
//! net (`borrow-train`) and tuning the hand-crafted evaluation
//! (`borrow-tune`), and match games made into the same data. Above the
//! engine, whose searches play the games; the engine keeps only what
//! OpenBench asks of it (`genfens`, from the same openings:
//! `engine::selfplay`).
//!
//! - [`mod@run`]: a run: numbered games on threads, written in their order, its
//!   state file, `--resume` and `--first-game`.
//! - [`game`]: one game: fixed-node searches from the opening, the rules
//!   and the adjudication, the positions kept.
//! - [`convert`]: match games (PGN with scores) into training data.
//! - [`cli`]: the `borrow-datagen` command line.
//! - The formats it writes, and which positions are trainable, are the
//!   `nnue` crate's ([`nnue::data`]): text and binary (marlinformat)
//!   records, and whole games in viriformat (the default output).
//!
//! Games are numbered; game `g`'s random choices come from a generator
//! seeded by the seed and `g`, and every game starts with an emptied table
//! and fresh statistics, so a game is the same whichever thread plays it.
//! The games are written in their order, so the output is the same for a
//! seed whatever the thread count. After each game the output is flushed
//! and a small state file beside it (`OUT.state`) records how many games
//! and bytes are done: `--resume` cuts the output back to that length and
//! goes on from the next game. An interrupted run keeps every game that was
//! written, never half a record. `--first-game G` starts a run at game `G`
//! of its seed: the games after a finished chunk (the repository's `data/`)
//! are made on any machine without the chunk or its state.

#![deny(missing_docs)]

pub mod cli;
pub mod convert;
pub mod game;
pub mod run;

pub use nnue::data::Format;
pub use run::{Config, DatagenError, MAX_PLIES, Progress, Summary, Tally, run, state_path};
