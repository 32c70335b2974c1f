//! Build script: generates the attack tables of the [`Magic`] and [`Pext`]
//! methods as Rust source in `OUT_DIR`, which `src/magic.rs` and
//! `src/pext.rs` `include!`.
//!
//! - `magic_tables.rs`: per-square `MagicEntry { mask, magic, shift, offset }`
//!   for rooks and bishops, and `MAGIC_TABLE`, the fancy-magic attack table
//!   (102,400 rook entries, then 5,248 bishop entries).
//! - `pext_tables.rs`: per-square `PextEntry { mask, rays, offset }` and
//!   `PEXT_TABLE`, laid out the same way but indexed by `pext(occ, mask)`,
//!   each attack set packed to 16 bits by `pext(attacks, rays)`.
//!
//! A build script cannot use the crate it builds, so it includes three of
//! the library's files with `#[path]`: the ray walker (`src/raywalk.rs`,
//! which `Reference` uses too), the committed magic numbers
//! (`src/magic_numbers.rs`) and the software `pext` and `pdep`
//! (`src/soft_bmi2.rs`, which `Pext` uses without BMI2). Nothing is searched here. Every table entry is
//! verified against the ray walker, and a destructive collision (two
//! occupancies with different attacks sharing an entry) fails the build with
//! a panic that names it.
//!
//! [`Magic`]: https://www.chessprogramming.org/Magic_Bitboards
//! [`Pext`]: https://www.chessprogramming.org/BMI2#PEXTBitboards

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

#[path = "src/magic_numbers.rs"]
mod magic_numbers;
#[path = "src/raywalk.rs"]
mod raywalk;
#[path = "src/soft_bmi2.rs"]
mod soft_bmi2;

use raywalk::{BISHOP_DIRS, ROOK_DIRS, SquareData, walk_attacks};
use soft_bmi2::{pdep, pext};

fn square_name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}

/// One square of one piece in the generated tables.
struct Entry {
    mask: u64,
    /// The piece's attacks on the empty board, onto which `pdep` unpacks a
    /// PEXT entry.
    rays: u64,
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
/// order), each attack set packed to 16 bits by `pext` over the piece's
/// empty-board attacks (at most 14 squares), and checks every entry,
/// unpacked by `pdep` as `src/pext.rs` does, against the ray walker.
fn build_pext_table(pieces: &[Piece<'_>]) -> Vec<u16> {
    let mut table = Vec::new();
    for p in pieces {
        for (d, e) in p.data.iter().zip(p.entries) {
            assert_eq!(e.offset, table.len());
            assert!(e.rays.count_ones() <= 16);
            table.extend(d.attacks.iter().map(|&att| pext(att, e.rays) as u16));
        }
    }
    for p in pieces {
        let (piece, dirs) = (p.name, p.dirs);
        for (d, e) in p.data.iter().zip(p.entries) {
            for &occ in &d.occs {
                let idx = e.offset + pext(occ, e.mask) as usize;
                let expect = walk_attacks(d.sq, occ, dirs);
                assert!(
                    pdep(u64::from(table[idx]), e.rays) == expect,
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
                "    {ty} {{ mask: {:#018x}, rays: {:#018x}, offset: {} }},",
                e.mask, e.rays, e.offset
            )
            .unwrap();
        }
    }
    out.push_str("];\n\n");
}

fn write_table<T: std::fmt::LowerHex>(out: &mut String, name: &str, ty: &str, table: &[T]) {
    writeln!(out, "static {name}: [{ty}; {}] = [", table.len()).unwrap();
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
    println!("cargo::rerun-if-changed=src/raywalk.rs");
    println!("cargo::rerun-if-changed=src/magic_numbers.rs");

    let rooks: Vec<SquareData> = (0..64).map(|s| SquareData::new(s, &ROOK_DIRS)).collect();
    let bishops: Vec<SquareData> = (0..64).map(|s| SquareData::new(s, &BISHOP_DIRS)).collect();

    let mut offset = 0;
    let mut entries = |data: &[SquareData], dirs, magics: &[u64; 64]| -> Vec<Entry> {
        data.iter()
            .zip(magics)
            .map(|(d, &magic)| {
                let e = Entry {
                    mask: d.mask,
                    rays: walk_attacks(d.sq, 0, dirs),
                    magic,
                    shift: 64 - d.bits(),
                    offset,
                };
                offset += d.occs.len();
                e
            })
            .collect()
    };
    let rook_entries = entries(&rooks, &ROOK_DIRS, &magic_numbers::ROOK);
    let bishop_entries = entries(&bishops, &BISHOP_DIRS, &magic_numbers::BISHOP);

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
    write_table(&mut magic_src, "MAGIC_TABLE", "u64", &magic_table);

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
    write_table(&mut pext_src, "PEXT_TABLE", "u16", &pext_table);

    let out_dir = env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out_dir = Path::new(&out_dir);
    fs::write(out_dir.join("magic_tables.rs"), magic_src).expect("write magic_tables.rs");
    fs::write(out_dir.join("pext_tables.rs"), pext_src).expect("write pext_tables.rs");
}
