//! PEXT bitboards. PLACEHOLDER: delegates to the reference until written.
crate::classical::placeholder!(Pext => Pext);
use crate::{Bitboard, Method, Reference, SliderAttacks, Square};
