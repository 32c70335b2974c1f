//! # tune
//!
//! `borrow-tune`: fitting the hand-crafted evaluation to labelled positions,
//! above the engine (whose weights and terms it fits) and apart from it.
//!
//! - [`texel`]: Texel's method: `K` fitted, then full-batch Adam over every
//!   weight, the losses printed, the result written as the Rust source of
//!   `engine/src/eval/weights.rs`.
//! - [`model`]: the positions as sparse coefficients, the loss and its
//!   gradient.
//! - [`win_rate`]: fitting the win/draw/loss model of `UCI_ShowWDL`
//!   (`engine::win_rate`).
//!
//! `borrow-tune --help` runs it.

#![deny(missing_docs)]

pub mod model;
pub mod texel;
pub mod win_rate;

pub use texel::{Config, Tuned, run};
