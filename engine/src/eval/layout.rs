//! The evaluation's weights as one flat list of [`Tapered`] terms, for the
//! tuner: where each field of [`Weights`] lies in the list, and the
//! conversions both ways. The evaluation reports its terms by these indices
//! (see [`super::Trace`]).

use super::{Tapered, Weights};

/// `material[role]`: 6 terms.
pub const MATERIAL: usize = 0;
/// `pst[role][square]`: 6 × 64 terms.
pub const PST: usize = MATERIAL + 6;
/// `mobility[knight..queen][count]`: 4 × 28 terms.
pub const MOBILITY: usize = PST + 6 * 64;
/// `doubled`.
pub const DOUBLED: usize = MOBILITY + 4 * 28;
/// `isolated`.
pub const ISOLATED: usize = DOUBLED + 1;
/// `phalanx[relative rank]`: 8 terms.
pub const PHALANX: usize = ISOLATED + 1;
/// `supported[relative rank]`: 8 terms.
pub const SUPPORTED: usize = PHALANX + 8;
/// `backward`.
pub const BACKWARD: usize = SUPPORTED + 8;
/// `passed[relative rank]`: 8 terms.
pub const PASSED: usize = BACKWARD + 1;
/// `passer_enemy_king`.
pub const PASSER_ENEMY_KING: usize = PASSED + 8;
/// `passer_own_king`.
pub const PASSER_OWN_KING: usize = PASSER_ENEMY_KING + 1;
/// `threat_by_pawn[victim]`: 6 terms.
pub const THREAT_BY_PAWN: usize = PASSER_OWN_KING + 1;
/// `threat_by_minor[victim]`: 6 terms.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 6;
/// `threat_by_rook[victim]`: 6 terms.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 6;
/// `outpost[knight, bishop]`: 2 terms.
pub const OUTPOST: usize = THREAT_BY_ROOK + 6;
/// `bishop_pair`.
pub const BISHOP_PAIR: usize = OUTPOST + 2;
/// `rook_open`.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// `rook_half_open`.
pub const ROOK_HALF_OPEN: usize = ROOK_OPEN + 1;
/// `shield`.
pub const SHIELD: usize = ROOK_HALF_OPEN + 1;
/// `king_danger[attack weight]`: 32 terms.
pub const KING_DANGER: usize = SHIELD + 1;
/// `tempo`.
pub const TEMPO: usize = KING_DANGER + 32;
/// How many terms there are.
pub const TERMS: usize = TEMPO + 1;

impl Weights {
    /// The weights as a flat list, in the order of the index constants.
    pub fn to_terms(&self) -> Vec<Tapered> {
        let mut t = Vec::with_capacity(TERMS);
        t.extend(self.material);
        t.extend(self.pst.iter().flatten());
        t.extend(self.mobility.iter().flatten());
        t.push(self.doubled);
        t.push(self.isolated);
        t.extend(self.phalanx);
        t.extend(self.supported);
        t.push(self.backward);
        t.extend(self.passed);
        t.push(self.passer_enemy_king);
        t.push(self.passer_own_king);
        t.extend(self.threat_by_pawn);
        t.extend(self.threat_by_minor);
        t.extend(self.threat_by_rook);
        t.extend(self.outpost);
        t.push(self.bishop_pair);
        t.push(self.rook_open);
        t.push(self.rook_half_open);
        t.push(self.shield);
        t.extend(self.king_danger);
        t.push(self.tempo);
        debug_assert_eq!(t.len(), TERMS);
        t
    }

    /// These weights with the terms replaced by `terms` (the order of
    /// [`Weights::to_terms`]); the fields that are not terms are kept.
    pub fn with_terms(&self, terms: &[Tapered]) -> Weights {
        assert_eq!(terms.len(), TERMS, "a weight list of {TERMS} terms");
        let mut w = self.clone();
        let copy = |dst: &mut [Tapered], at: usize| dst.copy_from_slice(&terms[at..at + dst.len()]);
        copy(&mut w.material, MATERIAL);
        for (role, row) in w.pst.iter_mut().enumerate() {
            copy(row, PST + 64 * role);
        }
        for (row, m) in w.mobility.iter_mut().enumerate() {
            copy(m, MOBILITY + 28 * row);
        }
        w.doubled = terms[DOUBLED];
        w.isolated = terms[ISOLATED];
        copy(&mut w.phalanx, PHALANX);
        copy(&mut w.supported, SUPPORTED);
        w.backward = terms[BACKWARD];
        copy(&mut w.passed, PASSED);
        w.passer_enemy_king = terms[PASSER_ENEMY_KING];
        w.passer_own_king = terms[PASSER_OWN_KING];
        copy(&mut w.threat_by_pawn, THREAT_BY_PAWN);
        copy(&mut w.threat_by_minor, THREAT_BY_MINOR);
        copy(&mut w.threat_by_rook, THREAT_BY_ROOK);
        copy(&mut w.outpost, OUTPOST);
        w.bishop_pair = terms[BISHOP_PAIR];
        w.rook_open = terms[ROOK_OPEN];
        w.rook_half_open = terms[ROOK_HALF_OPEN];
        w.shield = terms[SHIELD];
        copy(&mut w.king_danger, KING_DANGER);
        w.tempo = terms[TEMPO];
        w
    }

    /// The weights as the Rust source of `weights.rs`, the file the build
    /// reads: what the tuner writes.
    pub fn to_rust(&self, header: &str) -> String {
        use std::fmt::Write;
        let sc = |s: &Tapered| format!("S({}, {})", s.mg, s.eg);
        let list = |v: &[Tapered]| v.iter().map(sc).collect::<Vec<_>>().join(", ");
        let mut o = String::new();
        for line in header.lines() {
            let _ = writeln!(o, "//! {line}").map(|_| ());
        }
        o.push_str("\nuse super::{S, Weights};\n\n");
        o.push_str("/// The weights Borrow plays with.\n");
        o.push_str("#[rustfmt::skip]\npub const WEIGHTS: Weights = Weights {\n");
        let _ = writeln!(o, "    material: [{}],", list(&self.material));
        o.push_str("    pst: [\n");
        for row in &self.pst {
            o.push_str("        [\n");
            for rank in row.chunks(8) {
                let _ = writeln!(o, "            {},", list(rank));
            }
            o.push_str("        ],\n");
        }
        o.push_str("    ],\n");
        o.push_str("    mobility: [\n");
        for row in &self.mobility {
            o.push_str("        [\n");
            for chunk in row.chunks(7) {
                let _ = writeln!(o, "            {},", list(chunk));
            }
            o.push_str("        ],\n");
        }
        o.push_str("    ],\n");
        let _ = writeln!(o, "    doubled: {},", sc(&self.doubled));
        let _ = writeln!(o, "    isolated: {},", sc(&self.isolated));
        let _ = writeln!(o, "    phalanx: [{}],", list(&self.phalanx));
        let _ = writeln!(o, "    supported: [{}],", list(&self.supported));
        let _ = writeln!(o, "    backward: {},", sc(&self.backward));
        let _ = writeln!(o, "    passed: [{}],", list(&self.passed));
        let _ = writeln!(o, "    passer_enemy_king: {},", sc(&self.passer_enemy_king));
        let _ = writeln!(o, "    passer_own_king: {},", sc(&self.passer_own_king));
        let _ = writeln!(o, "    threat_by_pawn: [{}],", list(&self.threat_by_pawn));
        let _ = writeln!(o, "    threat_by_minor: [{}],", list(&self.threat_by_minor));
        let _ = writeln!(o, "    threat_by_rook: [{}],", list(&self.threat_by_rook));
        let _ = writeln!(o, "    outpost: [{}],", list(&self.outpost));
        let _ = writeln!(o, "    bishop_pair: {},", sc(&self.bishop_pair));
        let _ = writeln!(o, "    rook_open: {},", sc(&self.rook_open));
        let _ = writeln!(o, "    rook_half_open: {},", sc(&self.rook_half_open));
        let _ = writeln!(o, "    shield: {},", sc(&self.shield));
        let _ = writeln!(o, "    king_attack_weight: {:?},", self.king_attack_weight);
        o.push_str("    king_danger: [\n");
        for chunk in self.king_danger.chunks(8) {
            let _ = writeln!(o, "        {},", list(chunk));
        }
        o.push_str("    ],\n");
        let _ = writeln!(o, "    tempo: {},", sc(&self.tempo));
        let _ = writeln!(o, "    mop_up_edge: {},", self.mop_up_edge);
        let _ = writeln!(o, "    mop_up_kings: {},", self.mop_up_kings);
        o.push_str("};\n");
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{S, WEIGHTS};

    #[test]
    fn terms_round_trip_and_land_on_their_fields() {
        let terms = WEIGHTS.to_terms();
        assert_eq!(terms.len(), TERMS);
        let same = WEIGHTS.with_terms(&terms);
        assert_eq!(same.to_terms(), terms);
        // Each index constant names the field the list puts there.
        let mut t = terms.clone();
        t[PST + 64 * 3 + 10] = S(1234, -1);
        t[KING_DANGER + 7] = S(77, 0);
        t[TEMPO] = S(-5, 9);
        t[PASSED + 6] = S(11, 22);
        t[PHALANX + 3] = S(5, 6);
        t[BACKWARD] = S(-7, -8);
        let w = WEIGHTS.with_terms(&t);
        assert_eq!(w.pst[3][10], S(1234, -1));
        assert_eq!(w.king_danger[7], S(77, 0));
        assert_eq!(w.tempo, S(-5, 9));
        assert_eq!(w.passed[6], S(11, 22));
        assert_eq!(w.phalanx[3], S(5, 6));
        assert_eq!(w.backward, S(-7, -8));
    }
}
