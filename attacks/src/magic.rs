//! Fancy magic bitboards. PLACEHOLDER: delegates to the reference until written.
crate::classical::placeholder!(Magic => Magic);
use crate::{Bitboard, Method, Reference, SliderAttacks, Square};
