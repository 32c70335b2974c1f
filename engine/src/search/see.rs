//! Static exchange evaluation: the material result of the captures on one
//! square, least valuable attacker first.

use attacks::{Color, SliderAttacks, Square};
use movegen::{Move, MoveKind, Position, Role};

/// Piece values for exchanges (pawn, knight, bishop, rook, queen, king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// The exchange value of a role.
#[inline]
pub fn value(role: Role) -> i32 {
    SEE_VALUE[role.index()]
}

/// Static exchange evaluation of `m`: the material balance of the best
/// sequence of captures on its destination. Attackers hidden behind others
/// (X-rays) join as the pieces in front of them leave the occupancy.
pub fn see<A: SliderAttacks>(pos: &Position<A>, m: Move) -> i32 {
    let (from, to) = (m.from(), m.to());
    if m.kind() == MoveKind::Castle {
        return 0;
    }
    let mut occ = pos.occupied().without(from);
    let mut gain = [0i32; 32];
    gain[0] = pos.captured(m).map_or(0, value);
    let mut victim = pos.role_at(from).map_or(0, value);
    if let Some(p) = m.promotion_role() {
        gain[0] += value(p) - value(Role::Pawn);
        victim = value(p);
    }
    if m.kind() == MoveKind::EnPassant {
        occ = occ.without(Square::from_coords(to.file(), from.rank()));
    }
    let rooks = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let bishops = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let mut attackers =
        (pos.attackers(Color::White, to, occ) | pos.attackers(Color::Black, to, occ)) & occ;
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let mine = attackers & pos.by_color(side) & occ;
        if mine.is_empty() {
            break;
        }
        // The least valuable attacker.
        let Some((role, sq)) = Role::ALL
            .iter()
            .find_map(|&r| (mine & pos.by_role(r)).ls1b().map(|s| (r, s)))
        else {
            break;
        };
        if role == Role::King && (attackers & pos.by_color(!side) & occ.without(sq)).any() {
            break; // the king may not capture into a defended square
        }
        d += 1;
        if d >= gain.len() {
            break;
        }
        gain[d] = victim - gain[d - 1];
        victim = value(role);
        occ = occ.without(sq);
        // X-rays: sliders behind the piece that just captured.
        attackers |= (A::rook_attacks(to, occ) & rooks) | (A::bishop_attacks(to, occ) & bishops);
        attackers &= occ;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}
