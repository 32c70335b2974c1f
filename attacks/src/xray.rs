//! X-ray attacks: what a slider attacks *through* its first blockers.
//!
//! Seed: chessprogramming.org, "X-ray Attacks (Bitboards)".
//!
//! A slider's attacks stop at the first occupied square in each direction.
//! Its *x-ray* attacks behind a blocker are the squares it would attack next
//! if that blocker were gone: from just behind the blocker up to the next
//! occupied square, **that square included and the blocker excluded**. Which
//! blockers to look through, and what to look for behind them, makes the
//! tactical motif: through own pieces onto an enemy slider from the king is a
//! pin, through own pieces onto the enemy king from own sliders is a
//! discovered check, through an own slider is a battery, and so on.
//!
//! The module gives the three forms of the seed page.
//!
//! **One slider, by modifying the occupancy** ([`rook_xray`], [`bishop_xray`],
//! [`queen_xray`], generic over the attack method): take the attacks, keep the
//! chosen blockers among them (only the first blockers can be attacked), take
//! those off the occupancy and attack again. The second set holds the first,
//! so the symmetric difference is exactly what the removal opened up:
//!
//! ```text
//!  a file, rook on d1; blockers {d3}; occupied {d3, d6}
//!                          d1 d2 d3 d4 d5 d6 d7 d8
//!  attacks(occ)               1  1  .  .  .  .  .
//!  attacks(occ ^ {d3})        1  1  1  1  1  .  .
//!  xor: the x-ray             .  .  1  1  1  .  .     (d4, d5 and d6)
//! ```
//!
//! **One line** ([`line_xray`]): the same on a single file, rank, diagonal or
//! anti-diagonal, for callers that know which line matters. A blocker at
//! an end of the line has nothing behind it, so only blockers on the
//! [`inner_squares`] are removed, and with none there is no second lookup.
//!
//! **Set-wise, per direction** ([`ray_attacks`], [`ray_xray`],
//! [`rook_attacks_setwise`], ...): a Kogge-Stone [`occluded_fill`] floods
//! from all sliders at once along the empty squares in one direction, and one
//! more [`shift`] adds the blockers. The x-rays of many sliders are the
//! attacks, in the same direction, of the blockers they hit. And a piece stands
//! alone between a slider and a target exactly when the slider's attacks in a
//! direction meet the target's attacks in the opposite direction on it
//! ([`ray_blockers`], [`blockers_by_targets`]): pinned pieces and
//! discovered-check candidates as one set, with no loop over the sliders.
//!
//! [`pins`] (one king, any method) and [`pins_setwise`] (fills) put these
//! together for move generation; [`discovered_check_candidates`] is the same
//! computation with the roles turned round.

use crate::bitboard::Bitboard;
use crate::geometry::{Direction, Line, between, bishop_rays, line_through, rook_rays};
use crate::method::SliderAttacks;
use crate::square::Square;

// ---------------------------------------------------------------------------
// One slider, by modifying the occupancy
// ---------------------------------------------------------------------------

/// The squares a rook on `sq` x-rays through those of its first blockers that
/// are in `blockers`: in each such direction, the squares behind the blocker
/// up to and including the next occupied square (or the edge).
///
/// The blocker itself is not included, nor are the ordinary attacks.
/// Directions whose first blocker is not in `blockers` contribute nothing.
/// Squares of `blockers` that are not in `occupied` are ignored. Computed as
/// `attacks ^ A::rook_attacks(sq, occupied ^ (blockers & attacks))`, with any
/// attack method `A`.
///
/// ```
/// use attacks::{xray, Bitboard, ObstructionDifference, Square};
///
/// // Rook on d4. d6 and b4 are the blockers to look through; f4 and d2 are
/// // occupied but not chosen, so the rook does not look past them.
/// let occ: Bitboard = [Square::D4, Square::D6, Square::D8, Square::B4, Square::F4, Square::D2]
///     .into_iter()
///     .collect();
/// let blockers = Bitboard::from_square(Square::D6) | Square::B4;
/// let x = xray::rook_xray::<ObstructionDifference>(Square::D4, occ, blockers);
/// assert_eq!(x.to_string(), "\
/// . . . 1 . . . .
/// . . . 1 . . . .
/// . . . . . . . .
/// . . . . . . . .
/// 1 . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// ");
/// ```
#[inline]
pub fn rook_xray<A: SliderAttacks>(sq: Square, occupied: Bitboard, blockers: Bitboard) -> Bitboard {
    let attacks = A::rook_attacks(sq, occupied);
    let through = blockers & occupied & attacks;
    attacks ^ A::rook_attacks(sq, occupied ^ through)
}

/// The squares a bishop on `sq` x-rays through those of its first blockers
/// that are in `blockers`; see [`rook_xray`] for what is included.
#[inline]
pub fn bishop_xray<A: SliderAttacks>(
    sq: Square,
    occupied: Bitboard,
    blockers: Bitboard,
) -> Bitboard {
    let attacks = A::bishop_attacks(sq, occupied);
    let through = blockers & occupied & attacks;
    attacks ^ A::bishop_attacks(sq, occupied ^ through)
}

/// The squares a queen on `sq` x-rays through those of its first blockers
/// that are in `blockers`: [`rook_xray`] and [`bishop_xray`] together (the
/// lines are disjoint, so removing the blockers of one kind of line does not
/// change the other).
#[inline]
pub fn queen_xray<A: SliderAttacks>(
    sq: Square,
    occupied: Bitboard,
    blockers: Bitboard,
) -> Bitboard {
    let attacks = A::queen_attacks(sq, occupied);
    let through = blockers & occupied & attacks;
    attacks ^ A::queen_attacks(sq, occupied ^ through)
}

// ---------------------------------------------------------------------------
// One line
// ---------------------------------------------------------------------------

/// The squares that are at neither end of their line of this kind: the only
/// squares of such a line a slider can look *through*.
///
/// Ranks 2 to 7 for files, files b to g for ranks, and the 36 squares off the
/// board's edge for the two diagonal kinds (every diagonal ends on the edge).
pub const fn inner_squares(line: Line) -> Bitboard {
    match line {
        Line::File => Bitboard(0x00ff_ffff_ffff_ff00),
        Line::Rank => Bitboard(0x7e7e_7e7e_7e7e_7e7e),
        Line::Diagonal | Line::AntiDiagonal => Bitboard(0x007e_7e7e_7e7e_7e00),
    }
}

/// The attacks of a slider on `sq` along one `line` only (both directions),
/// by method `A`: rook attacks for files and ranks, bishop attacks for the
/// diagonals, cut to the line.
#[inline]
pub fn line_attacks<A: SliderAttacks>(line: Line, sq: Square, occupied: Bitboard) -> Bitboard {
    let attacks = match line {
        Line::File | Line::Rank => A::rook_attacks(sq, occupied),
        Line::Diagonal | Line::AntiDiagonal => A::bishop_attacks(sq, occupied),
    };
    attacks & line_through(line, sq)
}

/// The x-ray attacks of a slider on `sq` along one `line` only, through the
/// first blockers on it that are in `blockers`; the same squares as
/// [`rook_xray`] or [`bishop_xray`] restricted to the line.
///
/// Only blockers on [`inner_squares`] are taken off the occupancy (one at an
/// end of the line hides nothing), and when none is hit the second attack lookup is
/// skipped.
///
/// ```
/// use attacks::{xray, Bitboard, Line, Reference, Square};
///
/// // Bishop on b2; own knight on d4, enemy queen on g7, both on the diagonal.
/// let occ = Bitboard::from_square(Square::B2) | Square::D4 | Square::G7 | Square::A1;
/// let knight = Bitboard::from_square(Square::D4);
/// let x = xray::line_xray::<Reference>(Line::Diagonal, Square::B2, occ, knight);
/// assert_eq!(x, Bitboard::from_square(Square::E5) | Square::F6 | Square::G7);
/// // Nothing behind a1 on the other side, and nothing on the anti-diagonal.
/// assert!(xray::line_xray::<Reference>(Line::AntiDiagonal, Square::B2, occ, occ).is_empty());
/// ```
#[inline]
pub fn line_xray<A: SliderAttacks>(
    line: Line,
    sq: Square,
    occupied: Bitboard,
    blockers: Bitboard,
) -> Bitboard {
    let attacks = line_attacks::<A>(line, sq, occupied);
    let through = blockers & occupied & attacks & inner_squares(line);
    if through.is_empty() {
        return Bitboard::EMPTY;
    }
    attacks ^ line_attacks::<A>(line, sq, occupied ^ through)
}

// ---------------------------------------------------------------------------
// Set-wise: shifts and Kogge-Stone occluded fills per direction
// ---------------------------------------------------------------------------

/// `(bits per step, mask of the squares a step may land on)` for `dir`.
///
/// A step east (or north-east, south-east) that leaves the h-file comes back
/// on the a-file one rank up or down; the mask drops those wraps. Likewise for
/// the westward steps and the h-file. North and south steps leave the board
/// through the ends of the `u64` and need no mask.
#[inline(always)]
const fn step(dir: Direction) -> (u32, u64) {
    match dir {
        Direction::North | Direction::South => (8, !0),
        Direction::East => (1, Bitboard::NOT_FILE_A.0),
        Direction::West => (1, Bitboard::NOT_FILE_H.0),
        Direction::NorthEast => (9, Bitboard::NOT_FILE_A.0),
        Direction::SouthWest => (9, Bitboard::NOT_FILE_H.0),
        Direction::NorthWest => (7, Bitboard::NOT_FILE_H.0),
        Direction::SouthEast => (7, Bitboard::NOT_FILE_A.0),
    }
}

/// `bits` moved `n` squares' worth of index towards `dir`, without wrap masks.
#[inline(always)]
const fn raw_shift(dir: Direction, bits: u64, n: u32) -> u64 {
    if dir.is_positive() {
        bits << n
    } else {
        bits >> n
    }
}

/// Every square of `bb` moved one step in `dir`; squares that would leave the
/// board vanish (no wrap from one edge file to the other).
///
/// ```
/// use attacks::{xray, Bitboard, Direction, Square};
///
/// let bb = Bitboard::from_square(Square::H4) | Square::C3;
/// assert_eq!(xray::shift(Direction::East, bb), Bitboard::from_square(Square::D3));
/// assert_eq!(xray::shift(Direction::NorthWest, bb), Bitboard::from_square(Square::G5) | Square::B4);
/// ```
#[inline(always)]
pub const fn shift(dir: Direction, bb: Bitboard) -> Bitboard {
    let (n, mask) = step(dir);
    Bitboard(raw_shift(dir, bb.0, n) & mask)
}

/// The Kogge-Stone occluded fill of `generators` in `dir` along `empty`: the
/// generators themselves and every square reached from one of them by steps
/// in `dir` over squares of `empty` only. The first non-empty square in the
/// way (the blocker) is **not** included; [`shift`] the fill once more to add
/// it and get the attacks ([`ray_attacks`]).
///
/// Three steps of a parallel prefix (by 1, 2 and 4 squares) instead of up to
/// seven single steps. The generators need not be empty squares.
#[inline(always)]
pub const fn occluded_fill(dir: Direction, generators: Bitboard, empty: Bitboard) -> Bitboard {
    let (n, mask) = step(dir);
    let mut flood = generators.0;
    // A square propagates the flood only if it is empty and a step in `dir`
    // may land on it at all (the wrap mask).
    let mut pro = empty.0 & mask;
    flood |= pro & raw_shift(dir, flood, n);
    pro &= raw_shift(dir, pro, n);
    flood |= pro & raw_shift(dir, flood, 2 * n);
    pro &= raw_shift(dir, pro, 2 * n);
    flood |= pro & raw_shift(dir, flood, 4 * n);
    Bitboard(flood)
}

/// The squares all `sliders` together attack in direction `dir`: for each, the
/// squares up to and including the first square of `occupied` (or the edge).
/// The sliders' own squares are not included (unless one slider attacks
/// another), and whether they are in `occupied` does not matter to their own
/// attacks.
///
/// ```
/// use attacks::{xray, Bitboard, Direction, Square};
///
/// let rooks = Bitboard::from_square(Square::B2) | Square::B6 | Square::F3;
/// let occ = rooks | Square::E2;
/// assert_eq!(xray::ray_attacks(Direction::East, rooks, occ).to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . 1 1 1 1 1 1
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . 1 1
/// . . 1 1 1 . . .
/// . . . . . . . .
/// ");
/// ```
#[inline(always)]
pub const fn ray_attacks(dir: Direction, sliders: Bitboard, occupied: Bitboard) -> Bitboard {
    shift(dir, occluded_fill(dir, sliders, Bitboard(!occupied.0)))
}

/// The x-ray attacks of all `sliders` together in direction `dir`, through
/// those first blockers in that direction that are in `blockers` (and
/// occupied): the attacks in `dir` of the blockers they hit. Each x-ray runs
/// from behind the blocker up to and including the next occupied square; the
/// blockers themselves are not included (unless also x-rayed by another
/// slider).
#[inline(always)]
pub const fn ray_xray(
    dir: Direction,
    sliders: Bitboard,
    occupied: Bitboard,
    blockers: Bitboard,
) -> Bitboard {
    let hit = ray_attacks(dir, sliders, occupied).0 & blockers.0 & occupied.0;
    ray_attacks(dir, Bitboard(hit), occupied)
}

/// The union of `f(dir)` over `dirs`.
#[inline(always)]
fn union(dirs: [Direction; 4], mut f: impl FnMut(Direction) -> Bitboard) -> Bitboard {
    let mut all = Bitboard::EMPTY;
    for dir in dirs {
        all |= f(dir);
    }
    all
}

/// The squares attacked by any of the `rooks` (or queens moving as rooks):
/// the union of the rook attacks of each, by fills, with no loop over them.
#[inline]
pub fn rook_attacks_setwise(rooks: Bitboard, occupied: Bitboard) -> Bitboard {
    union(Direction::ORTHOGONAL, |d| ray_attacks(d, rooks, occupied))
}

/// The squares attacked by any of the `bishops` (or queens moving as bishops).
#[inline]
pub fn bishop_attacks_setwise(bishops: Bitboard, occupied: Bitboard) -> Bitboard {
    union(Direction::DIAGONAL, |d| ray_attacks(d, bishops, occupied))
}

/// The squares attacked by any of the `queens`.
#[inline]
pub fn queen_attacks_setwise(queens: Bitboard, occupied: Bitboard) -> Bitboard {
    rook_attacks_setwise(queens, occupied) | bishop_attacks_setwise(queens, occupied)
}

/// The x-ray attacks of all `rooks` together through the blockers in
/// `blockers`: the union of [`rook_xray`] over the rooks, by fills.
#[inline]
pub fn rook_xray_setwise(rooks: Bitboard, occupied: Bitboard, blockers: Bitboard) -> Bitboard {
    union(Direction::ORTHOGONAL, |d| {
        ray_xray(d, rooks, occupied, blockers)
    })
}

/// The x-ray attacks of all `bishops` together through the blockers in
/// `blockers`: the union of [`bishop_xray`] over the bishops, by fills.
#[inline]
pub fn bishop_xray_setwise(bishops: Bitboard, occupied: Bitboard, blockers: Bitboard) -> Bitboard {
    union(Direction::DIAGONAL, |d| {
        ray_xray(d, bishops, occupied, blockers)
    })
}

/// The occupied squares that stand alone between one of `sliders` and one of
/// `targets` on a line running in direction `dir` from the slider to the
/// target: attacked by a slider in `dir` and by a target, as if it were a
/// slider, in the opposite direction.
///
/// Neither the sliders nor the targets are included (a slider or target
/// that stands alone between another slider and target is).
#[inline(always)]
pub const fn ray_blockers(
    dir: Direction,
    sliders: Bitboard,
    targets: Bitboard,
    occupied: Bitboard,
) -> Bitboard {
    Bitboard(
        ray_attacks(dir, sliders, occupied).0
            & ray_attacks(dir.reverse(), targets, occupied).0
            & occupied.0,
    )
}

/// The occupied squares, of either colour, that are the only occupied square
/// strictly between some slider and some target it could reach along that
/// line: `rooks_queens` along ranks and files, `bishops_queens` along the
/// diagonals. Both ends are excluded.
///
/// With the enemy sliders and the own king as target, the own pieces among
/// them are pinned; with the own sliders and the enemy king, the own pieces
/// among them give discovered check when they leave the line. Any number of
/// sliders and targets, all at once.
#[inline]
pub fn blockers_by_targets(
    rooks_queens: Bitboard,
    bishops_queens: Bitboard,
    targets: Bitboard,
    occupied: Bitboard,
) -> Bitboard {
    union(Direction::ORTHOGONAL, |d| {
        ray_blockers(d, rooks_queens, targets, occupied)
    }) | union(Direction::DIAGONAL, |d| {
        ray_blockers(d, bishops_queens, targets, occupied)
    })
}

// ---------------------------------------------------------------------------
// Pins and discovered checks
// ---------------------------------------------------------------------------

/// Pinned pieces and the sliders that pin them.
///
/// Neither set includes the king. For a pinned piece on `sq`, the squares it
/// may still move to (without leaving its king in check) lie on
/// [`line(king, sq)`](crate::line), which includes its pinner.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pins {
    /// The pieces of the king's side that are each the only piece between the
    /// king and an enemy slider moving along that line.
    pub pinned: Bitboard,
    /// The enemy sliders that pin them: those with exactly one piece between
    /// them and the king, and that piece of the king's side.
    pub pinners: Bitboard,
}

/// The pins against the king on `king`, found by x-ray from the king through
/// its own pieces onto the enemy sliders, with attack method `A`.
///
/// `own` are the pieces of the king's side (the king's own square in it or
/// not), `enemy_rooks_queens` the enemy pieces moving along ranks and files,
/// `enemy_bishops_queens` those moving along diagonals (queens in both).
///
/// ```
/// use attacks::{xray, Bitboard, ObstructionDifference, Square};
///
/// let white: Bitboard = [Square::E1, Square::E4, Square::D2, Square::F2, Square::B1, Square::C1]
///     .into_iter()
///     .collect();
/// let black_rooks = Bitboard::from_square(Square::E8) | Square::A1;
/// let black_bishops = Bitboard::from_square(Square::A5);
/// let black_queens = Bitboard::from_square(Square::H4);
/// let occ = white | black_rooks | black_bishops | black_queens;
///
/// let pins = xray::pins::<ObstructionDifference>(
///     Square::E1,
///     occ,
///     white,
///     black_rooks | black_queens,
///     black_bishops | black_queens,
/// );
/// // e4 by the rook, d2 by the bishop, f2 by the queen; b1 and c1 shield the
/// // king from the a1 rook together, so neither is pinned.
/// assert_eq!(pins.pinned.to_string(), "\
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// . . . . 1 . . .
/// . . . . . . . .
/// . . . 1 . 1 . .
/// . . . . . . . .
/// ");
/// assert_eq!(pins.pinners.to_string(), "\
/// . . . . 1 . . .
/// . . . . . . . .
/// . . . . . . . .
/// 1 . . . . . . .
/// . . . . . . . 1
/// . . . . . . . .
/// . . . . . . . .
/// . . . . . . . .
/// ");
/// ```
#[inline(always)]
pub fn pins<A: SliderAttacks>(
    king: Square,
    occupied: Bitboard,
    own: Bitboard,
    enemy_rooks_queens: Bitboard,
    enemy_bishops_queens: Bitboard,
) -> Pins {
    // Only sliders on the king's empty-board lines can pin: the x-ray of a
    // kind is skipped when none of that kind stands on one (most nodes of a
    // search need one x-ray or none).
    let rooks = enemy_rooks_queens & rook_rays(king);
    let bishops = enemy_bishops_queens & bishop_rays(king);
    let mut pinners = Bitboard::EMPTY;
    if rooks.any() {
        pinners |= rook_xray::<A>(king, occupied, own) & rooks;
    }
    if bishops.any() {
        pinners |= bishop_xray::<A>(king, occupied, own) & bishops;
    }
    let mut pinned = Bitboard::EMPTY;
    for pinner in pinners {
        // Exactly one occupied square lies between: the own piece x-rayed.
        pinned |= between(king, pinner) & occupied;
    }
    Pins { pinned, pinners }
}

/// The pieces of the king's side pinned against the king on `king`: the
/// `pinned` set of [`pins`].
#[inline]
pub fn pinned<A: SliderAttacks>(
    king: Square,
    occupied: Bitboard,
    own: Bitboard,
    enemy_rooks_queens: Bitboard,
    enemy_bishops_queens: Bitboard,
) -> Bitboard {
    pins::<A>(
        king,
        occupied,
        own,
        enemy_rooks_queens,
        enemy_bishops_queens,
    )
    .pinned
}

/// The pieces of the side to move that would give discovered check by leaving
/// their line, and the sliders that would give it: [`pins`] turned round,
/// x-ray from the enemy king on `enemy_king` through `own` pieces onto the
/// `own_rooks_queens` and `own_bishops_queens`.
///
/// In the result, `pinned` are the candidates (each the only piece between
/// one of our sliders and the enemy king, and ours) and `pinners` the sliders
/// behind them. Neither includes the enemy king. A candidate that moves along
/// the line towards or away from the king gives no check.
#[inline]
pub fn discovered_check_candidates<A: SliderAttacks>(
    enemy_king: Square,
    occupied: Bitboard,
    own: Bitboard,
    own_rooks_queens: Bitboard,
    own_bishops_queens: Bitboard,
) -> Pins {
    pins::<A>(
        enemy_king,
        occupied,
        own,
        own_rooks_queens,
        own_bishops_queens,
    )
}

/// [`pins`] by fills instead of an attack method: the pins against every king
/// in `kings` at once (normally one), with no loop over the pinners.
///
/// The same roles as [`pins`]; with the enemy king as `kings` and the own
/// sliders it finds the discovered-check candidates instead.
#[inline]
pub fn pins_setwise(
    kings: Bitboard,
    occupied: Bitboard,
    own: Bitboard,
    enemy_rooks_queens: Bitboard,
    enemy_bishops_queens: Bitboard,
) -> Pins {
    let mut pins = Pins::default();
    let mut add = |dir: Direction, sliders: Bitboard| {
        let pinned = ray_blockers(dir, sliders, kings, occupied) & own;
        pins.pinned |= pinned;
        // Back from each pinned piece towards the sliders that hit it.
        pins.pinners |= ray_attacks(dir.reverse(), pinned, occupied) & sliders;
    };
    for dir in Direction::ORTHOGONAL {
        add(dir, enemy_rooks_queens);
    }
    for dir in Direction::DIAGONAL {
        add(dir, enemy_bishops_queens);
    }
    pins
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reference::{Reference, walk};

    #[test]
    fn shift_matches_offsets() {
        for dir in Direction::ALL {
            let (df, dr) = dir.delta();
            for sq in Square::ALL {
                let expected = sq
                    .offset(df, dr)
                    .map_or(Bitboard::EMPTY, Bitboard::from_square);
                assert_eq!(shift(dir, sq.into()), expected, "{dir:?} {sq}");
            }
        }
    }

    #[test]
    fn single_ray_fills_match_the_walk() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = Bitboard(x & x.rotate_left(23));
            for dir in Direction::ALL {
                for sq in Square::ALL {
                    let attacks = walk(sq, occ, &[dir]);
                    assert_eq!(ray_attacks(dir, sq.into(), occ), attacks, "{dir:?} {sq}");
                    assert_eq!(
                        occluded_fill(dir, sq.into(), !occ),
                        Bitboard::from_square(sq) | (attacks - occ),
                        "{dir:?} {sq}"
                    );
                }
            }
        }
    }

    #[test]
    fn inner_squares_leave_out_the_edges() {
        for line in Line::ALL {
            for sq in Square::ALL {
                let l = line_through(line, sq).with(sq);
                let ends = l.ls1b().into_iter().chain(l.ms1b()).collect();
                assert_eq!(l - inner_squares(line), ends, "{line:?} {sq}");
            }
        }
        assert_eq!(
            line_xray::<Reference>(Line::Rank, Square::A1, Bitboard::FULL, Bitboard::FULL),
            Square::C1.into()
        );
    }
}
