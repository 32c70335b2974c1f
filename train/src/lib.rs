//! # train
//!
//! `borrow-train`: fits Borrow's evaluation net, `(768 → H) × 2 → 1` with
//! SCReLU (the engine's [`nnue`]), to labelled self-play positions,
//! on the CPU with every core, and writes the quantised file the engine
//! loads (bullet's layout, so either trainer's nets fit either way).
//!
//! - [`sample`]: one position as the trainer keeps it, and its target.
//! - [`data`]: reading and filtering the data files.
//! - [`scale`]: the logistic scale of the target and the prediction, and
//!   its fit to the data.
//! - [`model`]: the float net: forward pass, gradients, quantisation.
//! - [`optimizer`]: AdamW and the learning-rate schedule.
//! - [`checkpoint`]: a run's state between epochs, for `--resume`.
//! - [`trainer`]: the loop: batches over threads, validation, checkpoints.

#![deny(missing_docs)]

pub mod checkpoint;
pub mod data;
pub mod model;
pub mod optimizer;
pub mod sample;
pub mod scale;
pub mod trainer;
