//! The training data: labelled positions as `borrow-datagen` and
//! `borrow-datagen convert` write them and `borrow-train` and `borrow-tune` read
//! them.
//!
//! - [`marlinformat`]: one position a 32-byte record, or a `FEN | score |
//!   result` text line; [`Format`], which of the three a file holds.
//! - [`viriformat`]: whole games, 4 bytes a ply (the field's format).
//! - [`read`]: the readers of every format, plain or packed (xz, gzip).
//! - [`filter`]: which positions a trainer learns from.

pub mod filter;
pub mod marlinformat;
pub mod read;
pub mod viriformat;

pub use filter::{Filter, Verdict, trainable};
pub use marlinformat::{Format, Labelled};
