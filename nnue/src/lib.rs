//! # nnue
//!
//! Borrow's learned evaluation and its training data, one copy of each, below
//! both the engine and the trainer: the net (an efficiently updatable neural
//! network), its file, and the files of labelled positions it learns from.
//!
//! The architecture is the simplest one the field trains first,
//! `(768 → HIDDEN) × 2 → 1`, with output buckets:
//!
//! - 768 inputs, one for each (colour, role, square) seen from one side
//!   ([`feature`]): the side's own pieces first, its board flipped
//!   vertically when the side is Black, and, in a net that mirrors its
//!   inputs ([`MIRRORED`], [`Network::mirrored`]), horizontally when the
//!   side's king stands on files e–h ([`mirror_flip`]);
//! - one hidden layer of [`HIDDEN`] neurons with shared weights, computed
//!   twice, once from each side's point of view (the two
//!   [`Accumulator`] halves, kept up to date move by move by the search);
//! - the side to move's half and then the other's, each through SCReLU
//!   (`clamp(x, 0, 1)²`), into one output neuron, whose weights and bias
//!   are those of the position's output bucket: [`OUTPUT_BUCKETS`] of them
//!   by the number of pieces on the board ([`output_bucket`], bullet's
//!   `MaterialCount<8>`).
//!
//! The net file ([`Network::from_bytes`]) is the quantised layout the
//! bullet trainer writes for this architecture, so a net trained with
//! bullet on a GPU loads as well as one from `borrow-train`: little-endian
//! `i16`s, the first layer's weights (feature by feature), its biases, the
//! output weights bucket by bucket (each the side to move's half first:
//! bullet's output layer saved with `.transpose()`), the output biases, then
//! padding up to a multiple of 64 bytes: zeros (`borrow-train`) or
//! `bullet` repeated (bullet; [`network::is_padding`]). A file of one output
//! bucket (nets 1 to 7) is read as a net whose buckets are all the same. The first layer is scaled by [`QA`], the
//! output weights by [`QB`], the output bias by `QA × QB`; the output times
//! [`SCALE`] is centipawns.
//!
//! Every step is integer arithmetic, so the score is the same whatever the
//! attack method, the order of the additions or the SIMD width the compiler
//! chose.
//!
//! - [`features`]: the inputs, their mirroring between the sides, the
//!   net's sizes and quantisation.
//! - [`network`]: the weights, the net file (one reader, one writer, the
//!   padding bullet and `borrow-train` write) and the output layer.
//! - [`accumulator`]: the hidden layer, refreshed or updated by the moves.
//! - [`score`]: the score scale the searches and the data share (mates).
//! - [`data`]: the training data: marlinformat records, viriformat games
//!   and text lines, their readers and writers, and which positions a
//!   trainer learns from.

#![deny(missing_docs)]

pub mod accumulator;
pub mod data;
pub mod features;
pub mod network;
pub mod score;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use features::{
    HIDDEN, INPUTS, MIRRORED, OUTPUT_BUCKETS, QA, QB, SCALE, feature, mirror_flip, output_bucket,
};
pub use network::{NetError, Network};
