//! Static evaluation: tapered between middlegame and endgame by the material
//! left on the board, in centipawns from the side to move's point of view.
//!
//! Terms: material, piece-square tables, mobility (counted with the attack
//! method the search runs with), pawn structure (doubled, isolated, passed),
//! king safety (attacks on the king zone, pawn shield), bishop pair, rooks
//! on open and half-open files, a tempo bonus, and mop-up against a bare
//! king (drive it to the edge, bring the kings together). Every weight is in
//! [`Weights`], one place, so they can be tuned from game data later.

use attacks::{
    Bitboard, Color, File, SliderAttacks, Square, king_attacks, knight_attacks, pawn_attacks,
};
use movegen::{Position, Role};

/// A middlegame and an endgame value.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score(pub i32, pub i32);

impl core::ops::Add for Score {
    type Output = Score;
    fn add(self, o: Score) -> Score {
        Score(self.0 + o.0, self.1 + o.1)
    }
}
impl core::ops::AddAssign for Score {
    fn add_assign(&mut self, o: Score) {
        self.0 += o.0;
        self.1 += o.1;
    }
}
impl core::ops::Sub for Score {
    type Output = Score;
    fn sub(self, o: Score) -> Score {
        Score(self.0 - o.0, self.1 - o.1)
    }
}
impl core::ops::Mul<i32> for Score {
    type Output = Score;
    fn mul(self, k: i32) -> Score {
        Score(self.0 * k, self.1 * k)
    }
}

/// Every evaluation weight.
#[derive(Clone, Debug)]
pub struct Weights {
    /// Material by role (pawn..king; the king's is unused).
    pub material: [Score; 6],
    /// Per attacked square not held by own pieces or guarded by enemy pawns,
    /// knight, bishop, rook, queen (by index 1..=4; others unused).
    pub mobility: [Score; 6],
    /// A pawn with another of its side on the same file.
    pub doubled: Score,
    /// A pawn with no friendly pawn on the adjacent files.
    pub isolated: Score,
    /// A passed pawn, by its relative rank (0 = first).
    pub passed: [Score; 8],
    /// Both bishops.
    pub bishop_pair: Score,
    /// A rook on a file without pawns.
    pub rook_open: Score,
    /// A rook on a file without own pawns.
    pub rook_half_open: Score,
    /// Per own pawn in front of the castled king.
    pub shield: Score,
    /// Weight of each attacking piece's role on the king zone.
    pub king_attack_weight: [i32; 6],
    /// Middlegame penalty for the summed attack weight, by (weight).min(31).
    pub king_danger: [i32; 32],
    /// For the side to move.
    pub tempo: Score,
    /// Against a bare king (endgame only): per step the lone king stands
    /// from the centre, as a Manhattan distance (0..=6). Mates happen at the
    /// edge; without this the search sees no progress until a mate is
    /// within its horizon.
    pub mop_up_edge: i32,
    /// Against a bare king (endgame only): per step the kings stand closer
    /// than 14 apart, as a Manhattan distance: the attacking king must help.
    pub mop_up_kings: i32,
}

const fn danger_table() -> [i32; 32] {
    let mut t = [0; 32];
    let mut i = 0;
    while i < 32 {
        t[i] = (i * i * 3 / 2) as i32;
        i += 1;
    }
    t
}

/// The weights Borrow plays with (set by hand).
pub const WEIGHTS: Weights = Weights {
    material: [
        Score(100, 125),
        Score(320, 300),
        Score(340, 320),
        Score(470, 540),
        Score(960, 1000),
        Score(0, 0),
    ],
    mobility: [
        Score(0, 0),
        Score(4, 4),
        Score(5, 5),
        Score(2, 4),
        Score(1, 2),
        Score(0, 0),
    ],
    doubled: Score(-10, -20),
    isolated: Score(-12, -14),
    passed: [
        Score(0, 0),
        Score(2, 8),
        Score(5, 12),
        Score(10, 25),
        Score(25, 50),
        Score(45, 90),
        Score(70, 140),
        Score(0, 0),
    ],
    bishop_pair: Score(30, 50),
    rook_open: Score(25, 10),
    rook_half_open: Score(12, 6),
    shield: Score(10, 0),
    king_attack_weight: [0, 2, 2, 3, 5, 0],
    king_danger: danger_table(),
    tempo: Score(12, 6),
    mop_up_edge: 10,
    mop_up_kings: 4,
};

/// Game phase weight of each role; 24 with all pieces on the board.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];

/// Piece-square value for a White piece of `role` on `sq` (Black mirrors).
/// Built from simple shapes (centralisation, advancement) rather than typed-in
/// tables, so each term says what it rewards.
const fn pst(role: Role, sq: Square) -> Score {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    let centre = 6 - centre_distance(sq); // 0 (corner) .. 6 (centre)
    match role {
        Role::Pawn => {
            let central_file = if f == 3 || f == 4 { 1 } else { 0 };
            let advance = if r >= 1 { r - 1 } else { 0 };
            Score(advance * 3 + central_file * r * 3, advance * 6)
        }
        Role::Knight => Score(centre * 8 - 20, centre * 6 - 18),
        Role::Bishop => Score(centre * 4 - 8, centre * 3 - 9),
        Role::Rook => {
            let seventh = if r == 6 { 1 } else { 0 };
            let central_file = if f == 3 || f == 4 { 1 } else { 0 };
            Score(seventh * 20 + central_file * 6, seventh * 10)
        }
        Role::Queen => Score(centre * 2 - 6, centre * 4 - 12),
        Role::King => {
            // Middlegame: behind the pawns, on the wings. Endgame: centralise.
            let home = if r == 0 {
                20
            } else if r == 1 {
                5
            } else {
                -10 * r
            };
            let wing = if f <= 2 || f >= 6 { 12 } else { -8 };
            Score(home + wing, centre * 8 - 24)
        }
    }
}

static PST: [[Score; 64]; 6] = {
    let mut t = [[Score(0, 0); 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut s = 0;
        while s < 64 {
            t[role][s] = pst(Role::ALL[role], Square::new(s as u32));
            s += 1;
        }
        role += 1;
    }
    t
};

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

/// The squares in front of `sq` for `color` on the same and adjacent files
/// (where an enemy pawn would stop or capture a passer).
fn passed_span(color: Color, sq: Square) -> Bitboard {
    let f = sq.file().index();
    let files = FILE_MASKS[f] | adjacent_files(f);
    let r = sq.rank() as u32;
    let ahead = match color {
        Color::White => {
            if r == 7 {
                0
            } else {
                !0u64 << (8 * (r + 1))
            }
        }
        Color::Black => (1u64 << (8 * r)) - 1,
    };
    files & Bitboard(ahead)
}

/// Manhattan distance from `sq` to the four centre squares: 0 (d4, e5...)
/// to 6 (corners).
const fn centre_distance(sq: Square) -> i32 {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    let fd = if f < 4 { 3 - f } else { f - 4 };
    let rd = if r < 4 { 3 - r } else { r - 4 };
    fd + rd
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

fn pawn_attacks_set(color: Color, pawns: Bitboard) -> Bitboard {
    let not_a = Bitboard(!0x0101_0101_0101_0101);
    let not_h = Bitboard(!0x8080_8080_8080_8080);
    match color {
        Color::White => ((pawns & not_a) << 7) | ((pawns & not_h) << 9),
        Color::Black => ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7),
    }
}

fn side<A: SliderAttacks>(pos: &Position<A>, us: Color, w: &Weights) -> Score {
    let them = !us;
    let occ = pos.occupied();
    let own = pos.by_color(us);
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let their_pawn_attacks = pawn_attacks_set(them, their_pawns);
    let mobility_area = !(own | their_pawn_attacks);
    let enemy_king = pos.king_of(them);
    let king_zone = king_attacks(enemy_king).with(enemy_king);
    let mut score = Score(0, 0);
    let mut attack_weight = 0;
    let mut attackers = 0;

    for role in Role::ALL {
        for sq in pos.pieces(us, role) {
            score += w.material[role.index()] + PST[role.index()][relative(us, sq).index()];
            let reach = match role {
                Role::Pawn | Role::King => continue,
                Role::Knight => knight_attacks(sq),
                Role::Bishop => A::bishop_attacks(sq, occ),
                Role::Rook => A::rook_attacks(sq, occ),
                Role::Queen => A::queen_attacks(sq, occ),
            };
            score += w.mobility[role.index()] * (reach & mobility_area).count() as i32;
            if (reach & king_zone).any() {
                attackers += 1;
                attack_weight +=
                    w.king_attack_weight[role.index()] * (reach & king_zone).count() as i32;
            }
            if role == Role::Rook {
                let file = FILE_MASKS[sq.file().index()];
                if (file & (our_pawns | their_pawns)).is_empty() {
                    score += w.rook_open;
                } else if (file & our_pawns).is_empty() {
                    score += w.rook_half_open;
                }
            }
        }
    }

    // Pawn structure.
    for sq in our_pawns {
        let f = sq.file().index();
        if (FILE_MASKS[f] & our_pawns).more_than_one() {
            score += w.doubled;
        }
        if (adjacent_files(f) & our_pawns).is_empty() {
            score += w.isolated;
        }
        if (passed_span(us, sq) & their_pawns).is_empty()
            && (passed_span(us, sq) & FILE_MASKS[f] & our_pawns).is_empty()
        {
            score += w.passed[relative(us, sq).rank().index()];
        }
    }

    if pos.pieces(us, Role::Bishop).more_than_one() {
        score += w.bishop_pair;
    }

    // King safety: our attack on their king (counted for us), and our shield.
    if attackers >= 2 {
        score.0 += w.king_danger[attack_weight.min(31) as usize];
    }
    let king = pos.king_of(us);
    // The three squares in front of the king (its pawn-capture squares and
    // the one straight ahead).
    let front = pawn_attacks(us, king)
        | match us {
            Color::White => Bitboard::from_square(king) << 8,
            Color::Black => Bitboard::from_square(king) >> 8,
        };
    score += w.shield * (front & our_pawns).count() as i32;

    score
}

/// The evaluation of `pos` in centipawns for the side to move.
pub fn evaluate<A: SliderAttacks>(pos: &Position<A>) -> i32 {
    let w = &WEIGHTS;
    let us = pos.turn();
    let mut score = side(pos, us, w) - side(pos, !us, w) + w.tempo;
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE[role.index()] * pos.by_role(role).count() as i32;
    }
    let phase = phase.min(24);
    if pos.is_insufficient_material() {
        return 0;
    }
    // Scale down drawish endings where the stronger side has no pawns.
    let strong = if score.1 > 0 { us } else { !us };
    if pos.pieces(strong, Role::Pawn).is_empty() {
        let non_pawn: i32 = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| w.material[r.index()].1 * pos.pieces(strong, r).count() as i32)
            .sum();
        if non_pawn < 400 {
            score.1 /= 8;
        }
    }
    // A bare king against more: the material is decided, the distances count.
    for winner in [us, !us] {
        if pos.by_color(!winner).count() == 1 && pos.by_color(winner).count() > 1 {
            let bonus = mop_up(pos, winner, w);
            score.1 += if winner == us { bonus } else { -bonus };
        }
    }
    (score.0 * phase + score.1 * (24 - phase)) / 24
}
