//! A hash of a few bitboards, for tables indexed by part of a position (the
//! evaluation's pawn table, the search's correction history): each board
//! is folded in with a multiply and a rotation, so every bit reaches the
//! high bits that pick the index.

/// The hash of `boards` (at most six of them).
#[inline]
pub fn mix(boards: &[u64]) -> u64 {
    const MULS: [u64; 6] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0x85EB_CA77_C2B2_AE63,
        0x27D4_EB2F_1656_67C5,
        0xFF51_AFD7_ED55_8CCD,
    ];
    debug_assert!(boards.len() <= MULS.len());
    boards
        .iter()
        .zip(MULS)
        .fold(0u64, |h, (b, k)| (h ^ b).wrapping_mul(k).rotate_left(29))
}

/// The top `bits` bits of `mix(boards)`: an index into a table of
/// `1 << bits` entries.
#[inline]
pub fn index(boards: &[u64], bits: u32) -> usize {
    (mix(boards) >> (64 - bits)) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_stay_in_range_and_spread() {
        // Every single-bit board, alone and beside another, lands in range,
        // and 64 boards fill more than half of a 64-entry table.
        let mut seen = [false; 64];
        for sq in 0..64 {
            let i = index(&[1 << sq, 0x00FF], 6);
            assert!(i < 64);
            seen[i] = true;
        }
        assert!(seen.iter().filter(|&&s| s).count() > 32);
        assert_ne!(mix(&[1, 2]), mix(&[2, 1]), "order matters");
    }
}
