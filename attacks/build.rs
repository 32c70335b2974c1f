//! Build script: generates the attack tables of the [`Magic`] and [`Pext`]
//! methods as Rust source in `OUT_DIR`, which `src/magic.rs` and
//! `src/pext.rs` `include!`.
//!
//! - `magic_tables.rs`: per-square `MagicEntry { mask, magic, shift, offset }`
//!   for rooks and bishops, and `MAGIC_TABLE`, the fancy-magic attack table
//!   (102,400 rook entries, then 5,248 bishop entries).
//! - `pext_tables.rs`: per-square `PextEntry { mask, offset }` and
//!   `PEXT_TABLE`, laid out the same way but indexed by `pext(occ, mask)`.
//!
//! A build script cannot use the crate it builds, so this file has its own
//! ray walker. The magic numbers are searched with a fixed-seed PRNG, so every
//! build finds the same ones. Every table entry is then verified against the
//! ray walker, and a destructive collision (two occupancies with different
//! attacks sharing an entry) fails the build with a panic that names it.
//!
//! [`Magic`]: https://www.chessprogramming.org/Magic_Bitboards
//! [`Pext`]: https://www.chessprogramming.org/BMI2#PEXTBitboards

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

/// `(file step, rank step)` of the rook's four directions.
const ROOK_DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// `(file step, rank step)` of the bishop's four directions.
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// The fixed seed of the magic search. Any seed works: changing it changes
/// the magics, not the attacks.
const SEED: u64 = 0x2f6b_1d5e_8c43_a907;

/// Give up on a square after this many candidate magics (with this seed the
/// hardest square, a rook's, takes about a million).
const MAX_TRIES: u32 = 100_000_000;

/// The square `k` steps from `sq` in direction `(df, dr)`, if on the board.
fn step(sq: usize, (df, dr): (i32, i32), k: i32) -> Option<usize> {
    let f = (sq % 8) as i32 + df * k;
    let r = (sq / 8) as i32 + dr * k;
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (r * 8 + f) as usize)
}

/// Slider attacks by walking each ray to the edge or the first blocker
/// (the blocker included).
fn walk_attacks(sq: usize, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut att = 0;
    for &d in dirs {
        let mut k = 1;
        while let Some(to) = step(sq, d, k) {
            att |= 1 << to;
            if occ & (1 << to) != 0 {
                break;
            }
            k += 1;
        }
    }
    att
}

/// The relevant occupancy: the ray squares whose occupancy can change the
/// attacks, i.e. each ray without its last (edge) square.
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &d in dirs {
        let mut k = 1;
        while let (Some(to), Some(_)) = (step(sq, d, k), step(sq, d, k + 1)) {
            mask |= 1 << to;
            k += 1;
        }
    }
    mask
}

/// Every subset of `mask`, by the carry-rippler, in increasing order. The
/// `i`-th subset is `pdep(i, mask)`, so `pext(subset_i, mask) == i`.
fn subsets(mask: u64) -> Vec<u64> {
    let mut v = Vec::with_capacity(1 << mask.count_ones());
    let mut n = 0u64;
    loop {
        v.push(n);
        n = n.wrapping_sub(mask) & mask;
        if n == 0 {
            return v;
        }
    }
}

/// Software `pext`, only to verify the PEXT table's layout.
fn pext(x: u64, mut mask: u64) -> u64 {
    let mut res = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            res |= bit;
        }
        bit <<= 1;
        mask &= mask - 1;
    }
    res
}

/// xorshift64* (Vigna): small, fast and fixed-seeded.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// Candidates with few bits set (about 1/8 of them) make good magics.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// One square's occupancies and attacks.
struct SquareData {
    sq: usize,
    mask: u64,
    /// The subsets of `mask`, in carry-rippler (= pext index) order.
    occs: Vec<u64>,
    /// `attacks[i]`: the attacks with occupancy `occs[i]`.
    attacks: Vec<u64>,
}

impl SquareData {
    fn new(sq: usize, dirs: &[(i32, i32)]) -> SquareData {
        let mask = relevant_mask(sq, dirs);
        let occs = subsets(mask);
        let attacks = occs.iter().map(|&o| walk_attacks(sq, o, dirs)).collect();
        SquareData {
            sq,
            mask,
            occs,
            attacks,
        }
    }

    fn bits(&self) -> u32 {
        self.mask.count_ones()
    }
}

/// Scratch space for the search: `epoch[i] == try` marks entry `i` as
/// written in the current try, so nothing needs clearing between tries.
struct Scratch {
    attacks: Vec<u64>,
    epoch: Vec<u32>,
}

/// Finds a magic for one square: a multiplier that maps every subset of the
/// mask, by `(occ * magic) >> (64 - bits)`, to an index whose entry holds
/// only one attack set (constructive collisions, same attacks, are fine).
fn find_magic(d: &SquareData, rng: &mut Rng, scratch: &mut Scratch, piece: &str) -> u64 {
    let shift = 64 - d.bits();
    let size = 1usize << d.bits();
    scratch.epoch[..size].fill(0);
    for tries in 1..=MAX_TRIES {
        let magic = rng.sparse();
        // The top byte of mask * magic must be well mixed, or many subsets
        // land on the same few indices: skip such candidates at once.
        if (d.mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        let ok = d.occs.iter().zip(&d.attacks).all(|(&occ, &att)| {
            let idx = (occ.wrapping_mul(magic) >> shift) as usize;
            if scratch.epoch[idx] != tries {
                scratch.epoch[idx] = tries;
                scratch.attacks[idx] = att;
                true
            } else {
                scratch.attacks[idx] == att
            }
        });
        if ok {
            return magic;
        }
    }
    panic!(
        "magic search: no {piece} magic found for square {} in {MAX_TRIES} tries",
        square_name(d.sq)
    );
}

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// One square of one piece in the generated tables.
struct Entry {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// A piece kind's directions, per-square data and generated entries.
struct Piece<'a> {
    name: &'static str,
    dirs: &'a [(i32, i32)],
    data: &'a [SquareData],
    entries: &'a [Entry],
}

/// Builds the fancy-magic table from the magics and checks every entry:
/// a destructive collision panics, and then every subset is looked up the way
/// `src/magic.rs` does and compared with the ray walker.
fn build_magic_table(pieces: &[Piece<'_>]) -> Vec<u64> {
    let total: usize = pieces
        .iter()
        .flat_map(|p| p.data)
        .map(|d| d.occs.len())
        .sum();
    let mut table = vec![0u64; total];
    // The occupancy that filled each entry, for the error message.
    let mut filled_by: Vec<Option<u64>> = vec![None; total];
    for p in pieces {
        let piece = p.name;
        for (d, e) in p.data.iter().zip(p.entries) {
            assert_eq!(
                e.shift,
                64 - d.bits(),
                "{piece} shift on {}",
                square_name(d.sq)
            );
            for (&occ, &att) in d.occs.iter().zip(&d.attacks) {
                let idx = e.offset + (occ.wrapping_mul(e.magic) >> e.shift) as usize;
                assert!(
                    idx < e.offset + d.occs.len(),
                    "{piece} magic on {} indexes outside its part of the table",
                    square_name(d.sq)
                );
                match filled_by[idx] {
                    Some(other) if table[idx] != att => panic!(
                        "destructive collision in the magic table: the {piece} magic {:#018x} on {} \
                         maps occupancies {other:#018x} (attacks {:#018x}) and {occ:#018x} \
                         (attacks {att:#018x}) to the same entry {idx}",
                        e.magic,
                        square_name(d.sq),
                        table[idx],
                    ),
                    Some(_) => {}
                    None => {
                        filled_by[idx] = Some(occ);
                        table[idx] = att;
                    }
                }
            }
        }
    }
    // Independent check of every lookup, occupancy bits outside the mask
    // included (they must be masked away).
    for p in pieces {
        let (piece, dirs) = (p.name, p.dirs);
        for (d, e) in p.data.iter().zip(p.entries) {
            for &occ in &d.occs {
                let noisy = occ | !e.mask & 0x8142_2418_1824_4281u64.rotate_left(d.sq as u32);
                let idx = e.offset + ((noisy & e.mask).wrapping_mul(e.magic) >> e.shift) as usize;
                let expect = walk_attacks(d.sq, noisy, dirs);
                assert!(
                    table[idx] == expect,
                    "magic table check failed: {piece} on {} with occupancy {noisy:#018x} \
                     reads {:#018x}, expected {expect:#018x}",
                    square_name(d.sq),
                    table[idx]
                );
            }
        }
    }
    table
}

/// Builds the PEXT table (entries in carry-rippler order, which is pext
/// order) and checks every entry against the ray walker.
fn build_pext_table(pieces: &[Piece<'_>]) -> Vec<u64> {
    let mut table = Vec::new();
    for p in pieces {
        for (d, e) in p.data.iter().zip(p.entries) {
            assert_eq!(e.offset, table.len());
            table.extend_from_slice(&d.attacks);
        }
    }
    for p in pieces {
        let (piece, dirs) = (p.name, p.dirs);
        for (d, e) in p.data.iter().zip(p.entries) {
            for &occ in &d.occs {
                let idx = e.offset + pext(occ, e.mask) as usize;
                let expect = walk_attacks(d.sq, occ, dirs);
                assert!(
                    table[idx] == expect,
                    "pext table check failed: {piece} on {} with occupancy {occ:#018x}",
                    square_name(d.sq)
                );
            }
        }
    }
    table
}

fn write_entries(out: &mut String, name: &str, ty: &str, entries: &[Entry], magic: bool) {
    writeln!(out, "static {name}: [{ty}; 64] = [").unwrap();
    for e in entries {
        if magic {
            writeln!(
                out,
                "    {ty} {{ mask: {:#018x}, magic: {:#018x}, shift: {}, offset: {} }},",
                e.mask, e.magic, e.shift, e.offset
            )
            .unwrap();
        } else {
            writeln!(
                out,
                "    {ty} {{ mask: {:#018x}, offset: {} }},",
                e.mask, e.offset
            )
            .unwrap();
        }
    }
    out.push_str("];\n\n");
}

fn write_table(out: &mut String, name: &str, table: &[u64]) {
    writeln!(out, "static {name}: [u64; {}] = [", table.len()).unwrap();
    for chunk in table.chunks(8) {
        out.push_str("   ");
        for v in chunk {
            write!(out, " {v:#x},").unwrap();
        }
        out.push('\n');
    }
    out.push_str("];\n");
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");

    let rooks: Vec<SquareData> = (0..64).map(|s| SquareData::new(s, &ROOK_DIRS)).collect();
    let bishops: Vec<SquareData> = (0..64).map(|s| SquareData::new(s, &BISHOP_DIRS)).collect();

    let mut rng = Rng(SEED);
    let mut scratch = Scratch {
        attacks: vec![0; 1 << 12],
        epoch: vec![0; 1 << 12],
    };
    let mut offset = 0;
    let mut entries = |data: &[SquareData], piece: &str| -> Vec<Entry> {
        data.iter()
            .map(|d| {
                let e = Entry {
                    mask: d.mask,
                    magic: find_magic(d, &mut rng, &mut scratch, piece),
                    shift: 64 - d.bits(),
                    offset,
                };
                offset += d.occs.len();
                e
            })
            .collect()
    };
    let rook_entries = entries(&rooks, "rook");
    let bishop_entries = entries(&bishops, "bishop");

    let pieces = [
        Piece {
            name: "rook",
            dirs: &ROOK_DIRS,
            data: &rooks,
            entries: &rook_entries,
        },
        Piece {
            name: "bishop",
            dirs: &BISHOP_DIRS,
            data: &bishops,
            entries: &bishop_entries,
        },
    ];
    let rook_size: usize = rooks.iter().map(|d| d.occs.len()).sum();
    let bishop_size: usize = bishops.iter().map(|d| d.occs.len()).sum();
    assert_eq!(
        (rook_size, bishop_size),
        (102_400, 5_248),
        "relevant-occupancy table sizes"
    );

    let magic_table = build_magic_table(&pieces);
    let pext_table = build_pext_table(&pieces);

    let header = "// @generated by attacks/build.rs: do not edit.\n\n";
    let mut magic_src = String::from(header);
    write_entries(
        &mut magic_src,
        "ROOK_MAGICS",
        "MagicEntry",
        &rook_entries,
        true,
    );
    write_entries(
        &mut magic_src,
        "BISHOP_MAGICS",
        "MagicEntry",
        &bishop_entries,
        true,
    );
    write_table(&mut magic_src, "MAGIC_TABLE", &magic_table);

    let mut pext_src = String::from(header);
    write_entries(
        &mut pext_src,
        "ROOK_PEXT",
        "PextEntry",
        &rook_entries,
        false,
    );
    write_entries(
        &mut pext_src,
        "BISHOP_PEXT",
        "PextEntry",
        &bishop_entries,
        false,
    );
    write_table(&mut pext_src, "PEXT_TABLE", &pext_table);

    let out_dir = env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out_dir = Path::new(&out_dir);
    fs::write(out_dir.join("magic_tables.rs"), magic_src).expect("write magic_tables.rs");
    fs::write(out_dir.join("pext_tables.rs"), pext_src).expect("write pext_tables.rs");
}
