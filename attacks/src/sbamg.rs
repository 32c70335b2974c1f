//! SBAMG. PLACEHOLDER: delegates to the reference until written.
crate::classical::placeholder!(Sbamg => Sbamg);
use crate::{Bitboard, Method, Reference, SliderAttacks, Square};
