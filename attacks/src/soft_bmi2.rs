//! BMI2's `pext` and `pdep` in software, one step per mask bit: correct
//! but slow (up to 14 iterations here). The [`Pext`](crate::Pext) method
//! uses them on targets without BMI2 (which is why [`Method::ALL`] does not
//! offer it there) and its tests check the hardware instructions against
//! them; `build.rs`, which cannot use the crate it builds, includes this file
//! to pack and check the PEXT table.
//!
//! [`Method::ALL`]: crate::Method::ALL

/// `pext(x, mask)`: the bits of `x` selected by `mask`, packed in order into
/// the low bits of the result.
#[inline(always)]
pub fn pext(x: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            result |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    result
}

/// `pdep(x, mask)`, the inverse of [`pext`]: the low bits of `x`, in order,
/// onto the set bits of `mask`.
#[inline(always)]
pub fn pdep(x: u64, mut mask: u64) -> u64 {
    let mut result = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & bit != 0 {
            result |= mask & mask.wrapping_neg();
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    result
}
