//! # attacks
//!
//! Sliding-piece attack getters for chess, one zero-sized type per method
//! behind the [`SliderAttacks`] trait, and the board geometry they stand on.
//!
//! The methods of borrow propagation, each citing its chessprogramming.org seed:
//! - [`ObstructionDifference`] (Infuehr's form) and [`ObstructionDifferenceHoffmann`];
//! - the classical ray approach: [`Classical`] (conditional), [`ClassicalBranchless`],
//!   [`ClassicalZeroCount`], and the one-run rook of [`ClassicalOneRun`];
//! - [`Sbamg`], `o ^ (o - 3cbn)`;
//! - [`O2r`] (o^(o-2r) by bit reversal) and [`Hyperbola`] (Hyperbola Quintessence);
//!
//! the baselines users compare against:
//! - [`Magic`] (fancy magic, tables generated at build time) and [`Pext`]
//!   (offered only by x86-64 builds with BMI2, see [`Method::ALL`]);
//!
//! and the slow [`Reference`] every other one is tested against, which walks
//! rays with [`raywalk`] (the build script fills the magic and PEXT tables
//! with the same walker, from magic numbers committed as constants).
//!
//! [`Method`] names a method at run time, and [`dispatch!`] runs generic code
//! with the method chosen at run time, monomorphised per method.
//!
//! [`xray`] has X-ray attacks: through chosen blockers, line-wise, and the
//! set-wise forms for many sliders at once, used to find pinned pieces and
//! discovered-check candidates.
//!
//! Squares use little-endian rank-file mapping: `a1` = bit 0, `h8` = bit 63.

#![deny(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

mod bitboard;
mod classical;
mod geometry;
mod hyperbola;
mod magic;
mod magic_numbers;
mod method;
mod obstruction;
mod pext;
pub mod raywalk;
pub mod reference;
mod sbamg;
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
mod soft_bmi2;
mod square;
pub mod xray;

pub use bitboard::{Bitboard, Subsets};
pub use classical::{Classical, ClassicalBranchless, ClassicalOneRun, ClassicalZeroCount};
pub use geometry::{
    Color, Direction, Line, aligned, between, bishop_rays, king_attacks, knight_attacks, line,
    line_through, pawn_attacks, pawn_attacks_setwise, ray, rook_rays,
};
pub use hyperbola::{Hyperbola, O2r};
pub use magic::Magic;
pub use method::{Method, ParseMethodError, SliderAttacks};
pub use obstruction::{ObstructionDifference, ObstructionDifferenceHoffmann};
pub use pext::Pext;
pub use reference::Reference;
pub use sbamg::Sbamg;
pub use square::{File, ParseSquareError, Rank, Square};
