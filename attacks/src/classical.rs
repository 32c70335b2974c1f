//! Classical ray attacks. PLACEHOLDER: delegates to the reference until written.
use crate::{Bitboard, Method, Reference, SliderAttacks, Square};

macro_rules! placeholder {
    ($($ty:ident => $m:ident),*) => {$(
        /// Placeholder (delegates to the reference).
        #[derive(Copy, Clone, Debug, Default)]
        pub struct $ty;
        impl SliderAttacks for $ty {
            const METHOD: Method = Method::$m;
            fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard { Reference::rook_attacks(sq, occ) }
            fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard { Reference::bishop_attacks(sq, occ) }
        }
    )*};
}
pub(crate) use placeholder;
placeholder!(Classical => Classical, ClassicalBranchless => ClassicalBranchless, ClassicalZeroCount => ClassicalZeroCount, ClassicalOneRun => ClassicalOneRun);
