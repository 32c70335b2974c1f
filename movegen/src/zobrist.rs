//! Zobrist keys equal to Polyglot's opening-book keys.
//!
//! A key is the XOR of one value per piece on its square, one per castling
//! right, one for the file of an en-passant square that a pawn of the side to
//! move can capture on, and one when White is to move. The start position's
//! key is `0x463b96181691fc9c`.

use attacks::{Color, File, Square};

use crate::castling::CastlingRights;
use crate::piece::Role;

mod keys {
    include!("zobrist_keys.rs");
}

pub use keys::WHITE_TURN;

/// The value of `color`'s `role` on `sq`.
#[inline(always)]
pub fn piece(color: Color, role: Role, sq: Square) -> u64 {
    keys::PIECE[color.index()][role.index()][sq.index()]
}

/// The XOR of the values of every right in `rights`.
#[inline(always)]
pub fn castling(rights: CastlingRights) -> u64 {
    CASTLING_COMBINED[rights.0 as usize & 15]
}

/// The value of an en-passant square on `file`.
#[inline(always)]
pub fn en_passant(file: File) -> u64 {
    keys::EN_PASSANT[file.index()]
}

static CASTLING_COMBINED: [u64; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        let mut bit = 0;
        while bit < 4 {
            if i & (1 << bit) != 0 {
                t[i] ^= keys::CASTLING[bit];
            }
            bit += 1;
        }
        i += 1;
    }
    t
};
