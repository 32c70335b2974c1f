//! Hyperbola Quintessence and o^(o-2r). PLACEHOLDER: delegates to the reference until written.
crate::classical::placeholder!(Hyperbola => Hyperbola, O2r => O2r);
use crate::{Bitboard, Method, Reference, SliderAttacks, Square};
