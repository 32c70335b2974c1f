//! Static evaluation: tapered between middlegame and endgame by the material
//! left on the board, in centipawns from the side to move's point of view.
//!
//! Terms: material, piece-square tables, mobility by count (counted with the
//! attack method the search runs with), pawn structure (doubled, isolated,
//! phalanx, supported, backward and passed, with the kings' distances to a
//! passer's path), threats on pieces by pawns, minors and rooks, knight and
//! bishop outposts, king safety (attacks on the king zone, pawn shield),
//! bishop pair, rooks on open and half-open files, a tempo bonus, and mop-up
//! against a bare king (drive it to the edge, bring the kings together).
//! Every weight is in [`Weights`]; their values, [`WEIGHTS`], are in
//! `weights.rs`, which the tuner (`borrow-tune`) writes. The terms the pawns
//! alone decide are in [`pawns`], with the table that keeps them for the
//! search. The evaluation can report which terms it counted through a
//! [`Trace`]; [`layout`] says where each term lies in the tuner's flat list.

pub mod layout;
pub mod pawns;
mod weights;

pub use layout::TERMS;
pub use pawns::{PawnEval, PawnTable};
pub use weights::WEIGHTS;

use attacks::{
    Bitboard, Color, File, SliderAttacks, Square, king_attacks, knight_attacks, pawn_attacks,
    pawn_attacks_setwise,
};
use movegen::{Position, Role};

/// A middlegame and an endgame value, blended by the game's phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tapered {
    /// The middlegame value.
    pub mg: i32,
    /// The endgame value.
    pub eg: i32,
}

/// `S(mg, eg)`: a [`Tapered`] pair, the short form of the weights' tables.
#[allow(non_snake_case)]
pub const fn S(mg: i32, eg: i32) -> Tapered {
    Tapered { mg, eg }
}

impl core::ops::Add for Tapered {
    type Output = Tapered;
    fn add(self, o: Tapered) -> Tapered {
        S(self.mg + o.mg, self.eg + o.eg)
    }
}
impl core::ops::AddAssign for Tapered {
    fn add_assign(&mut self, o: Tapered) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}
impl core::ops::Sub for Tapered {
    type Output = Tapered;
    fn sub(self, o: Tapered) -> Tapered {
        S(self.mg - o.mg, self.eg - o.eg)
    }
}
impl core::ops::Mul<i32> for Tapered {
    type Output = Tapered;
    fn mul(self, k: i32) -> Tapered {
        S(self.mg * k, self.eg * k)
    }
}

/// Every evaluation weight.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Material by role (pawn..king; the king's is unused).
    pub material: [Tapered; 6],
    /// Piece-square values by role and square, for White (Black's mirror).
    pub pst: [[Tapered; 64]; 6],
    /// By the number of squares a piece attacks that are not held by own
    /// pieces nor guarded by enemy pawns: knight, bishop, rook, queen
    /// (rows 0..=3; a knight reaches at most 8, a queen 27).
    pub mobility: [[Tapered; 28]; 4],
    /// A pawn with another of its side on the same file.
    pub doubled: Tapered,
    /// A pawn with no friendly pawn on the adjacent files.
    pub isolated: Tapered,
    /// A pawn beside a friendly pawn (same rank, adjacent file), by its
    /// relative rank.
    pub phalanx: [Tapered; 8],
    /// A pawn guarded by a friendly pawn, by its relative rank.
    pub supported: [Tapered; 8],
    /// A pawn that no friendly pawn beside or behind it on the adjacent
    /// files can ever guard, whose stop square an enemy pawn attacks (not
    /// counted for isolated pawns).
    pub backward: Tapered,
    /// A passed pawn, by its relative rank (0 = first).
    pub passed: [Tapered; 8],
    /// A passed pawn, per step the enemy king stands from the square in
    /// front of it (Chebyshev distance, 0..=7).
    pub passer_enemy_king: Tapered,
    /// A passed pawn, per step its own king stands from that square.
    pub passer_own_king: Tapered,
    /// Enemy pieces attacked by our pawns, by the victim's role.
    pub threat_by_pawn: [Tapered; 6],
    /// Enemy pieces attacked by our knights or bishops, by the victim's role.
    pub threat_by_minor: [Tapered; 6],
    /// Enemy pieces attacked by our rooks, by the victim's role.
    pub threat_by_rook: [Tapered; 6],
    /// A knight, and a bishop, on an outpost: in the enemy half, guarded by
    /// an own pawn, where no enemy pawn can ever attack it.
    pub outpost: [Tapered; 2],
    /// Both bishops.
    pub bishop_pair: Tapered,
    /// A rook on a file without pawns.
    pub rook_open: Tapered,
    /// A rook on a file without own pawns.
    pub rook_half_open: Tapered,
    /// Per own pawn in front of the castled king.
    pub shield: Tapered,
    /// Weight of each attacking piece's role on the king zone.
    pub king_attack_weight: [i32; 6],
    /// The bonus for the summed attack weight on the enemy king's zone, by
    /// `weight.min(31)`, when two or more pieces attack it.
    pub king_danger: [Tapered; 32],
    /// For the side to move.
    pub tempo: Tapered,
    /// Against a bare king (endgame only): per step the lone king stands
    /// from the centre, as a Manhattan distance (0..=6). Mates happen at the
    /// edge; without this the search sees no progress until a mate is
    /// within its horizon.
    pub mop_up_edge: i32,
    /// Against a bare king (endgame only): per step the kings stand closer
    /// than 14 apart, as a Manhattan distance: the attacking king must help.
    pub mop_up_kings: i32,
}

/// Game phase weight of each role; 24 with all pieces on the board.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

const FILE_MASKS: [Bitboard; 8] = {
    let mut t = [Bitboard(0); 8];
    let mut f = 0;
    while f < 8 {
        t[f] = Bitboard::file(File::new(f as u32));
        f += 1;
    }
    t
};

fn adjacent_files(f: usize) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    if f > 0 {
        bb |= FILE_MASKS[f - 1];
    }
    if f < 7 {
        bb |= FILE_MASKS[f + 1];
    }
    bb
}

/// The ranks ahead of `sq`'s rank for `color`.
fn ranks_ahead(color: Color, sq: Square) -> Bitboard {
    let r = sq.rank() as u32;
    Bitboard(match color {
        Color::White => {
            if r == 7 {
                0
            } else {
                !0u64 << (8 * (r + 1))
            }
        }
        Color::Black => (1u64 << (8 * r)) - 1,
    })
}

/// The squares in front of `sq` for `color` on the same and adjacent files
/// (where an enemy pawn would stop or capture a passer).
fn passed_span(color: Color, sq: Square) -> Bitboard {
    let f = sq.file().index();
    (FILE_MASKS[f] | adjacent_files(f)) & ranks_ahead(color, sq)
}

/// The squares of `sq`'s rank and the ranks behind it for `color`.
fn rear_span(color: Color, sq: Square) -> Bitboard {
    !ranks_ahead(color, sq)
}

/// The square in front of a pawn of `color` on `sq` (none from the last
/// rank).
fn stop_square(color: Color, sq: Square) -> Option<Square> {
    let stop = match color {
        Color::White => sq.index() + 8,
        Color::Black => sq.index().wrapping_sub(8),
    };
    (stop < 64).then(|| Square::new(stop as u32))
}

/// Manhattan distance from `sq` to the four centre squares: 0 (d4, e5...)
/// to 6 (corners).
const fn centre_distance(sq: Square) -> i32 {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let fd = if f < 4 { 3 - f } else { f - 4 };
    let rd = if r < 4 { 3 - r } else { r - 4 };
    fd + rd
}

/// The squares an enemy pawn would have to pass to attack `sq` (the
/// adjacent files, ahead of `sq` for `color`).
fn outpost_span(color: Color, sq: Square) -> Bitboard {
    passed_span(color, sq) & adjacent_files(sq.file().index())
}

/// King-move distance between two squares (0..=7).
fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (a.file().index() as i32 - b.file().index() as i32).abs();
    let dr = (a.rank().index() as i32 - b.rank().index() as i32).abs();
    df.max(dr)
}

/// Manhattan distance between two squares (0..=14).
fn manhattan(a: Square, b: Square) -> i32 {
    (a.file().index() as i32 - b.file().index() as i32).abs()
        + (a.rank().index() as i32 - b.rank().index() as i32).abs()
}

/// The endgame bonus for `winner` when `!winner` has nothing but its king:
/// drive that king to the edge and bring ours close (mop-up evaluation).
fn mop_up<A: SliderAttacks>(pos: &Position<A>, winner: Color, w: &Weights) -> i32 {
    let theirs = pos.king_of(!winner);
    w.mop_up_edge * centre_distance(theirs)
        + w.mop_up_kings * (14 - manhattan(pos.king_of(winner), theirs))
}

fn relative(color: Color, sq: Square) -> Square {
    match color {
        Color::White => sq,
        Color::Black => sq.flip_vertical(),
    }
}

/// Receives the terms the evaluation counts: `count` more of term `term`
/// (an index of [`layout`]), positive for White and negative for Black.
pub trait Trace {
    /// Counts a term.
    fn add(&mut self, term: usize, count: i32);
}

/// No trace: the evaluation the search runs (the calls compile to nothing).
pub struct NoTrace;
impl Trace for NoTrace {
    #[inline(always)]
    fn add(&mut self, _: usize, _: i32) {}
}

/// A trace counts White's terms positive and Black's negative: `us`'s sign.
#[inline]
fn trace_sign(us: Color) -> i32 {
    if us == Color::White { 1 } else { -1 }
}

/// `us`'s terms other than [`pawns`]'s; `passed` holds both sides' passers.
fn side<A: SliderAttacks, T: Trace>(
    pos: &Position<A>,
    us: Color,
    passed: Bitboard,
    w: &Weights,
    t: &mut T,
) -> Tapered {
    use layout::*;
    let sign = trace_sign(us);
    let them = !us;
    let occ = pos.occupied();
    let own = pos.by_color(us);
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let their_pawn_attacks = pawn_attacks_setwise(them, their_pawns);
    let mobility_area = !(own | their_pawn_attacks);
    let enemy_king = pos.king_of(them);
    let king_zone = king_attacks(enemy_king).with(enemy_king);
    let our_pawn_attacks = pawn_attacks_setwise(us, our_pawns);
    let mut minor_reach = Bitboard::EMPTY;
    let mut rook_reach = Bitboard::EMPTY;
    let mut score = S(0, 0);
    let mut attack_weight = 0;
    let mut attackers = 0;

    // Each role's pieces in a loop of its own: the role is a constant in
    // each copy of the body, so its `match`es fold away.
    let mut piece = |role: Role, sq: Square| {
        let rel = relative(us, sq).index();
        score += w.material[role.index()] + w.pst[role.index()][rel];
        t.add(MATERIAL + role.index(), sign);
        t.add(PST + 64 * role.index() + rel, sign);
        let reach = match role {
            Role::Pawn | Role::King => return,
            Role::Knight => knight_attacks(sq),
            Role::Bishop => A::bishop_attacks(sq, occ),
            Role::Rook => A::rook_attacks(sq, occ),
            Role::Queen => A::queen_attacks(sq, occ),
        };
        let mobility = (reach & mobility_area).count() as usize;
        let row = role.index() - 1;
        score += w.mobility[row][mobility];
        t.add(MOBILITY + 28 * row + mobility, sign);
        match role {
            Role::Knight | Role::Bishop => {
                minor_reach |= reach;
                let minor = role.index() - 1;
                let bb = Bitboard::from_square(sq);
                let rank = relative(us, sq).rank().index();
                if (3..=5).contains(&rank)
                    && (our_pawn_attacks & bb).any()
                    && (outpost_span(us, sq) & their_pawns).is_empty()
                {
                    score += w.outpost[minor];
                    t.add(OUTPOST + minor, sign);
                }
            }
            Role::Rook => rook_reach |= reach,
            _ => {}
        }
        if (reach & king_zone).any() {
            attackers += 1;
            attack_weight +=
                w.king_attack_weight[role.index()] * (reach & king_zone).count() as i32;
        }
        if role == Role::Rook {
            let file = FILE_MASKS[sq.file().index()];
            if (file & (our_pawns | their_pawns)).is_empty() {
                score += w.rook_open;
                t.add(ROOK_OPEN, sign);
            } else if (file & our_pawns).is_empty() {
                score += w.rook_half_open;
                t.add(ROOK_HALF_OPEN, sign);
            }
        }
    };
    pos.pieces(us, Role::Knight)
        .for_each(|sq| piece(Role::Knight, sq));
    pos.pieces(us, Role::Bishop)
        .for_each(|sq| piece(Role::Bishop, sq));
    pos.pieces(us, Role::Rook)
        .for_each(|sq| piece(Role::Rook, sq));
    pos.pieces(us, Role::Queen)
        .for_each(|sq| piece(Role::Queen, sq));
    pos.pieces(us, Role::King)
        .for_each(|sq| piece(Role::King, sq));

    score += passer_king_distances(pos, us, passed & our_pawns, w, t);
    score += threats(pos, us, [our_pawn_attacks, minor_reach, rook_reach], w, t);
    if pos.pieces(us, Role::Bishop).more_than_one() {
        score += w.bishop_pair;
        t.add(BISHOP_PAIR, sign);
    }
    score += king_safety(pos, us, attackers, attack_weight, w, t);

    score
}

/// `us`'s passed pawns `passers` (found in [`pawns`]): the kings' distances
/// to the square in front of each.
#[inline]
fn passer_king_distances<A: SliderAttacks, T: Trace>(
    pos: &Position<A>,
    us: Color,
    passers: Bitboard,
    w: &Weights,
    t: &mut T,
) -> Tapered {
    use layout::*;
    let sign = trace_sign(us);
    let mut score = S(0, 0);
    for sq in passers {
        if let Some(stop) = stop_square(us, sq) {
            let theirs = chebyshev(pos.king_of(!us), stop);
            let ours = chebyshev(pos.king_of(us), stop);
            score += w.passer_enemy_king * theirs + w.passer_own_king * ours;
            t.add(PASSER_ENEMY_KING, sign * theirs);
            t.add(PASSER_OWN_KING, sign * ours);
        }
    }
    score
}

/// Threats: the enemy pieces `us`'s pawns, minors and rooks attack (their
/// reaches, in that order).
#[inline]
fn threats<A: SliderAttacks, T: Trace>(
    pos: &Position<A>,
    us: Color,
    [pawn_reach, minor_reach, rook_reach]: [Bitboard; 3],
    w: &Weights,
    t: &mut T,
) -> Tapered {
    use layout::*;
    let sign = trace_sign(us);
    let mut score = S(0, 0);
    for role in Role::ALL {
        let victims = pos.pieces(!us, role);
        for (at, reach, table) in [
            (THREAT_BY_PAWN, pawn_reach, &w.threat_by_pawn),
            (THREAT_BY_MINOR, minor_reach, &w.threat_by_minor),
            (THREAT_BY_ROOK, rook_reach, &w.threat_by_rook),
        ] {
            let n = (victims & reach).count() as i32;
            if n > 0 {
                score += table[role.index()] * n;
                t.add(at + role.index(), sign * n);
            }
        }
    }
    score
}

/// King safety: `us`'s attack on the enemy king (`attackers` pieces reaching
/// its zone, `attack_weight` their weighted reach), counted for `us`, and
/// the pawn shield in front of `us`'s own king.
#[inline]
fn king_safety<A: SliderAttacks, T: Trace>(
    pos: &Position<A>,
    us: Color,
    attackers: i32,
    attack_weight: i32,
    w: &Weights,
    t: &mut T,
) -> Tapered {
    use layout::*;
    let sign = trace_sign(us);
    let mut score = S(0, 0);
    if attackers >= 2 {
        let danger = attack_weight.min(31) as usize;
        score += w.king_danger[danger];
        t.add(KING_DANGER + danger, sign);
    }
    let king = pos.king_of(us);
    // The three squares in front of the king (its pawn-capture squares and
    // the one straight ahead).
    let front = pawn_attacks(us, king)
        | match us {
            Color::White => Bitboard::from_square(king) << 8,
            Color::Black => Bitboard::from_square(king) >> 8,
        };
    let shield = (front & pos.pieces(us, Role::Pawn)).count() as i32;
    score += w.shield * shield;
    t.add(SHIELD, sign * shield);
    score
}

/// The evaluation of `pos` in centipawns for the side to move.
#[inline]
pub fn evaluate<A: SliderAttacks>(pos: &Position<A>) -> i32 {
    evaluate_with(pos, &WEIGHTS, &mut NoTrace).cp
}

/// [`evaluate`], with the pawn terms taken from (and kept in) `pawns`: the
/// same value, faster when the pawn structure recurs (the search).
#[inline]
pub fn evaluate_cached<A: SliderAttacks>(pos: &Position<A>, pawns: &mut PawnTable) -> i32 {
    let p = pawns.get(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
    );
    evaluate_from(pos, p, &WEIGHTS, &mut NoTrace).cp
}

/// An evaluation taken apart, for the tuner: what [`evaluate`] computes from
/// the traced terms.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// The evaluation for the side to move, as [`evaluate`] returns it.
    pub cp: i32,
    /// The game phase: 24 with all pieces on the board, 0 with none.
    pub phase: i32,
    /// The endgame part was divided by this (8 in drawish endings where
    /// the stronger side has no pawns, else 1).
    pub eg_divisor: i32,
    /// The mop-up bonus in the endgame part, White's point of view (not a
    /// traced term).
    pub mop_up: i32,
    /// `true` when the position is a draw by material (the evaluation is 0).
    pub insufficient: bool,
}

/// The evaluation of `pos` with the weights `w`, telling `trace` each term
/// it counts.
pub fn evaluate_with<A: SliderAttacks, T: Trace>(
    pos: &Position<A>,
    w: &Weights,
    trace: &mut T,
) -> Evaluation {
    let p = pawns::pawn_eval(
        pos.pieces(Color::White, Role::Pawn),
        pos.pieces(Color::Black, Role::Pawn),
        w,
        trace,
    );
    evaluate_from(pos, p, w, trace)
}

/// The evaluation of `pos` whose pawn terms are `p`.
#[inline]
fn evaluate_from<A: SliderAttacks, T: Trace>(
    pos: &Position<A>,
    p: PawnEval,
    w: &Weights,
    trace: &mut T,
) -> Evaluation {
    let us = pos.turn();
    let white = p.score + side(pos, Color::White, p.passed, w, trace)
        - side(pos, Color::Black, p.passed, w, trace);
    trace.add(layout::TEMPO, trace_sign(us));
    let mut score = if us == Color::White {
        white
    } else {
        S(0, 0) - white
    } + w.tempo;
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE[role.index()] * pos.by_role(role).count() as i32;
    }
    let phase = phase.min(24);
    let mut e = Evaluation {
        cp: 0,
        phase,
        eg_divisor: 1,
        mop_up: 0,
        insufficient: false,
    };
    if pos.is_insufficient_material() {
        e.insufficient = true;
        return e;
    }
    // Scale down drawish endings where the stronger side has no pawns.
    let strong = if score.eg > 0 { us } else { !us };
    if pos.pieces(strong, Role::Pawn).is_empty() {
        let non_pawn: i32 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| w.material[r.index()].eg * pos.pieces(strong, r).count() as i32)
            .sum();
        if non_pawn < 400 {
            score.eg /= 8;
            e.eg_divisor = 8;
        }
    }
    // A bare king against more: the material is decided, the distances count.
    // Against pieces alone, only they count: the placement terms would pull
    // the lone king back to the centre (the tuned tables value queen
    // mobility over the mating net). With pawns, the pawn terms still matter.
    for winner in [us, !us] {
        if pos.by_color(!winner).count() == 1 && pos.by_color(winner).count() > 1 {
            let bonus = mop_up(pos, winner, w);
            let sign = if winner == us { 1 } else { -1 };
            if pos.pieces(winner, Role::Pawn).is_empty() {
                let material: i32 = Role::ALL
                    .iter()
                    .map(|&r| w.material[r.index()].eg * pos.pieces(winner, r).count() as i32)
                    .sum();
                return Evaluation {
                    cp: sign * (material + bonus),
                    ..e
                };
            }
            score.eg += sign * bonus;
            e.mop_up += if winner == Color::White {
                bonus
            } else {
                -bonus
            };
        }
    }
    e.cp = (score.mg * phase + score.eg * (24 - phase)) / 24;
    e
}
