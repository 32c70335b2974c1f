//! The slow reference: walk each ray square by square until the edge or the
//! first blocker. Obviously right, and what every fast method is tested against.

use crate::bitboard::Bitboard;
use crate::geometry::Direction;
use crate::method::{Method, SliderAttacks};
use crate::raywalk;
use crate::square::Square;

/// Ray walking, one square at a time (the reference).
///
/// ```
/// use attacks::{Bitboard, Reference, SliderAttacks, Square};
///
/// let occ = Bitboard::from_square(Square::D6) | Square::F4 | Square::B4;
/// assert_eq!(Reference::rook_attacks(Square::D4, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// . 1 1 . 1 1 . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// . . . 1 . . . .
/// ");
/// ```
#[derive(Copy, Clone, Debug, Default)]
pub struct Reference;

/// The attacks along `dirs` from `sq`, stopping at (and including) blockers:
/// [`raywalk::walk_ray`] in each direction, the same walker that fills and
/// checks the magic and PEXT tables at build time.
pub fn walk(sq: Square, occupied: Bitboard, dirs: &[Direction]) -> Bitboard {
    let rays = dirs.iter().fold(0, |acc, &dir| {
        acc | raywalk::walk_ray(sq.index(), occupied.0, dir.delta())
    });
    Bitboard(rays)
}

impl SliderAttacks for Reference {
    const METHOD: Method = Method::Reference;

    fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        walk(sq, occupied, &Direction::ORTHOGONAL)
    }

    fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        walk(sq, occupied, &Direction::DIAGONAL)
    }
}
