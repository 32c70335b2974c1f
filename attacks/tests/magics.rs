//! The committed magic numbers (`src/magic_numbers.rs`) are the ones the
//! seeded search finds: the search is run again here, so anyone can see
//! where the constants came from and re-derive them after changing the seed.
//! It also checks each one independently: no destructive collision over every
//! relevant occupancy.

#[path = "../src/magic_numbers.rs"]
mod magic_numbers;

use attacks::raywalk::{BISHOP_DIRS, ROOK_DIRS, SquareData};
use testkit::{Boards, Rng};

/// The seed of the search that found the committed magics. Any seed works:
/// another one finds other magics, not other attacks.
const SEED: u64 = 0x2f6b_1d5e_8c43_a907;

/// Give up on a square after this many candidates (with this seed the
/// hardest square, a rook's, takes about a million).
const MAX_TRIES: u32 = 100_000_000;

/// `true` if `magic` maps every occupancy of `d` to an index whose entry
/// holds one attack set (constructive collisions, same attacks, are fine).
/// `seen[i] == stamp` marks entry `i` as written in this try, so nothing
/// needs clearing between tries.
fn hashes(d: &SquareData, magic: u64, table: &mut [u64], seen: &mut [u32], stamp: u32) -> bool {
    let shift = 64 - d.mask.count_ones();
    d.occs.iter().zip(&d.attacks).all(|(&occ, &att)| {
        let idx = (occ.wrapping_mul(magic) >> shift) as usize;
        if seen[idx] != stamp {
            seen[idx] = stamp;
            table[idx] = att;
            true
        } else {
            table[idx] == att
        }
    })
}

/// The first sparse candidate from `rng` that hashes `d`.
fn find_magic(d: &SquareData, rng: &mut Rng) -> Option<u64> {
    let size = 1usize << d.mask.count_ones();
    let (mut table, mut seen) = (vec![0; size], vec![0; size]);
    for stamp in 1..=MAX_TRIES {
        let magic = rng.sparse();
        // The top byte of mask * magic must be well mixed, or many subsets
        // land on the same few indices: skip such candidates at once.
        if (d.mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        if hashes(d, magic, &mut table, &mut seen, stamp) {
            return Some(magic);
        }
    }
    None
}

fn squares(dirs: &[(i32, i32)]) -> Vec<SquareData> {
    (0..64).map(|sq| SquareData::new(sq, dirs)).collect()
}

#[test]
fn the_seeded_search_finds_the_committed_magics() {
    let mut rng = Rng::new(SEED);
    // Rooks first, then bishops, squares a1..h8: the order of the search.
    for (name, dirs, committed) in [
        ("rook", &ROOK_DIRS, &magic_numbers::ROOK),
        ("bishop", &BISHOP_DIRS, &magic_numbers::BISHOP),
    ] {
        for (sq, (d, &want)) in squares(dirs).iter().zip(committed).enumerate() {
            let found = find_magic(d, &mut rng);
            assert_eq!(
                found,
                Some(want),
                "{name} magic of square {sq}: the search finds {found:#018x?}, \
                 src/magic_numbers.rs has {want:#018x}"
            );
        }
    }
}

#[test]
fn every_committed_magic_hashes_its_square() {
    for (dirs, committed) in [
        (&ROOK_DIRS, &magic_numbers::ROOK),
        (&BISHOP_DIRS, &magic_numbers::BISHOP),
    ] {
        for (sq, (d, &magic)) in squares(dirs).iter().zip(committed).enumerate() {
            let size = 1usize << d.mask.count_ones();
            let (mut table, mut seen) = (vec![0; size], vec![0; size]);
            assert!(
                hashes(d, magic, &mut table, &mut seen, 1),
                "square {sq}: magic {magic:#018x} has a destructive collision"
            );
        }
    }
}

/// A magic that does not hash is caught: the check above can fail.
#[test]
fn a_bad_magic_is_caught() {
    let d = SquareData::new(0, &ROOK_DIRS);
    let size = 1usize << d.mask.count_ones();
    let (mut table, mut seen) = (vec![0; size], vec![0; size]);
    // Multiplying by 1 keeps only the top bits of the occupancy: all the
    // a1 rook's relevant squares are below bit 52, so every key maps to 0.
    assert!(!hashes(&d, 1, &mut table, &mut seen, 1));
}
