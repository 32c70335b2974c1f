//! One Polyglot book entry (16 bytes, big-endian) and Polyglot's move
//! encoding.
//!
//! | bytes | field  | meaning                                        |
//! |-------|--------|------------------------------------------------|
//! | 0..8  | key    | Polyglot Zobrist key of the position           |
//! | 8..10 | move   | to (bits 0–5), from (6–11), promotion (12–14)  |
//! | 10..12| weight | how often to play the move, relative to others |
//! | 12..16| learn  | free for learning data; written as 0           |
//!
//! Squares are numbered `a1 = 0` to `h8 = 63`. The promotion field is 0 for
//! none, then knight, bishop, rook, queen (1–4). Castling is written as the
//! king capturing its own rook (`e1h1`, `e1a1`, `e8h8`, `e8a8`), as [`Move`]
//! stores it, never as the king's two-square move that UCI uses (`e1g1`).

use attacks::{SliderAttacks, Square};
use movegen::{Move, Position, Role};

/// The size of one entry in bytes.
pub const ENTRY_SIZE: usize = 16;

/// One entry of a Polyglot book: a move for the position with `key`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entry {
    /// The Polyglot Zobrist key of the position ([`Position::key`]).
    pub key: u64,
    /// The move in Polyglot's encoding; see [`encode_move`] and [`decode_move`].
    pub raw_move: u16,
    /// The move's weight: moves are chosen in proportion to it; 0 never.
    pub weight: u16,
    /// The learn field, kept as read; books made here write 0.
    pub learn: u32,
}

impl Entry {
    /// The entry stored in 16 big-endian bytes.
    pub fn from_bytes(bytes: &[u8; ENTRY_SIZE]) -> Entry {
        let [
            k0,
            k1,
            k2,
            k3,
            k4,
            k5,
            k6,
            k7,
            m0,
            m1,
            w0,
            w1,
            l0,
            l1,
            l2,
            l3,
        ] = *bytes;
        Entry {
            key: u64::from_be_bytes([k0, k1, k2, k3, k4, k5, k6, k7]),
            raw_move: u16::from_be_bytes([m0, m1]),
            weight: u16::from_be_bytes([w0, w1]),
            learn: u32::from_be_bytes([l0, l1, l2, l3]),
        }
    }

    /// The 16 big-endian bytes of the entry, as a book file holds them.
    pub fn to_bytes(&self) -> [u8; ENTRY_SIZE] {
        let mut out = [0; ENTRY_SIZE];
        out[0..8].copy_from_slice(&self.key.to_be_bytes());
        out[8..10].copy_from_slice(&self.raw_move.to_be_bytes());
        out[10..12].copy_from_slice(&self.weight.to_be_bytes());
        out[12..16].copy_from_slice(&self.learn.to_be_bytes());
        out
    }

    /// The move's text in Polyglot's own terms (`e1h1` for castling short,
    /// `e7e8q`), without looking at a position: for listings of entries that
    /// do not decode to a legal move.
    pub fn raw_uci(&self) -> String {
        let to = Square::new(u32::from(self.raw_move) & 63);
        let from = Square::new(u32::from(self.raw_move >> 6) & 63);
        let promotion = match (self.raw_move >> 12) & 7 {
            0 => "",
            1 => "n",
            2 => "b",
            3 => "r",
            4 => "q",
            _ => "?",
        };
        format!("{from}{to}{promotion}")
    }
}

/// Writes entries as a book file's bytes, in the order given.
pub fn entries_to_bytes(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(entries.len() * ENTRY_SIZE);
    for e in entries {
        out.extend_from_slice(&e.to_bytes());
    }
    out
}

/// Polyglot's encoding of `m`: castling is the king taking its own rook
/// (`e1h1`, `e1a1`), as [`Move`] stores it; promotions set bits 12–14.
///
/// ```
/// use attacks::Square;
/// use book::encode_move;
/// use movegen::Move;
///
/// assert_eq!(encode_move(Move::normal(Square::E2, Square::E4)), 0x031c);
/// let short = Move::castle(Square::E1, Square::H1);
/// assert_eq!(encode_move(short), encode_move(Move::normal(Square::E1, Square::H1)));
/// ```
pub fn encode_move(m: Move) -> u16 {
    let (from, to) = (m.from(), m.to());
    let promotion: u16 = match m.promotion_role() {
        None | Some(Role::Pawn | Role::King) => 0,
        Some(Role::Knight) => 1,
        Some(Role::Bishop) => 2,
        Some(Role::Rook) => 3,
        Some(Role::Queen) => 4,
    };
    to as u16 | (from as u16) << 6 | promotion << 12
}

/// The legal move of `pos` that the Polyglot move `raw` stands for, or
/// `None` if it stands for no legal move there (a corrupt entry, or a key
/// collision).
///
/// The king "capturing" its own rook is castling, and only that (in
/// Chess960 too); the king's two-square move (`e1g1`) is not Polyglot's
/// encoding and is refused, as Polyglot does.
pub fn decode_move<A: SliderAttacks>(pos: &Position<A>, raw: u16) -> Option<Move> {
    if raw & 0x8000 != 0 {
        return None;
    }
    let to = Square::new(u32::from(raw) & 63);
    let from = Square::new(u32::from(raw >> 6) & 63);
    let promotion = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    pos.legal_moves()
        .into_iter()
        .find(|m| m.from() == from && m.to() == to && m.promotion_role() == promotion)
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::MoveKind;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    fn raw(from: Square, to: Square, promotion: u16) -> u16 {
        to as u16 | (from as u16) << 6 | promotion << 12
    }

    #[test]
    fn bytes_round_trip_big_endian() {
        let e = Entry {
            key: 0x463b_9618_1691_fc9c,
            raw_move: 0x031c,
            weight: 0x0102,
            learn: 0x0a0b_0c0d,
        };
        let b = e.to_bytes();
        assert_eq!(
            b,
            [
                0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0x01, 0x02, 0x0a, 0x0b,
                0x0c, 0x0d
            ]
        );
        assert_eq!(Entry::from_bytes(&b), e);
        assert_eq!(e.raw_uci(), "e2e4");
    }

    #[test]
    fn normal_moves_decode() {
        let p: Position = Position::startpos();
        let e4 = raw(Square::E2, Square::E4, 0);
        assert_eq!(e4, 0x031c);
        assert_eq!(decode_move(&p, e4).unwrap().to_string(), "e2e4");
        assert_eq!(
            decode_move(&p, raw(Square::G1, Square::F3, 0))
                .unwrap()
                .to_string(),
            "g1f3"
        );
        // Not legal: e2e5, a black move, a promotion flag on a normal move.
        assert_eq!(decode_move(&p, raw(Square::E2, Square::E5, 0)), None);
        assert_eq!(decode_move(&p, raw(Square::E7, Square::E5, 0)), None);
        assert_eq!(decode_move(&p, raw(Square::E2, Square::E4, 4)), None);
        assert_eq!(decode_move(&p, 0x8000 | e4), None);
    }

    #[test]
    fn castling_is_king_takes_rook() {
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let short = decode_move(&p, raw(Square::E1, Square::H1, 0)).unwrap();
        assert_eq!(short.kind(), MoveKind::Castle);
        assert_eq!(short.to_string(), "e1g1");
        let long = decode_move(&p, raw(Square::E1, Square::A1, 0)).unwrap();
        assert_eq!(long.to_string(), "e1c1");
        assert_eq!(encode_move(short), raw(Square::E1, Square::H1, 0));
        assert_eq!(encode_move(long), raw(Square::E1, Square::A1, 0));
        // UCI's king move is not Polyglot's encoding.
        assert_eq!(decode_move(&p, raw(Square::E1, Square::G1, 0)), None);
        let b = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
        assert_eq!(
            decode_move(&b, raw(Square::E8, Square::H8, 0))
                .unwrap()
                .to_string(),
            "e8g8"
        );
        assert_eq!(
            decode_move(&b, raw(Square::E8, Square::A8, 0))
                .unwrap()
                .to_string(),
            "e8c8"
        );
    }

    #[test]
    fn castling_needs_the_right_and_a_legal_path() {
        // No castling rights: the entry is illegal.
        let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1");
        assert_eq!(decode_move(&p, raw(Square::E1, Square::H1, 0)), None);
        // f1 attacked: short castling illegal, long still fine.
        let p = pos("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
        assert_eq!(decode_move(&p, raw(Square::E1, Square::H1, 0)), None);
        assert_eq!(
            decode_move(&p, raw(Square::E1, Square::A1, 0))
                .unwrap()
                .to_string(),
            "e1c1"
        );
    }

    #[test]
    fn a_rook_on_e1_taking_on_h1_is_a_capture() {
        // Not the king on e1: the move is what it says.
        let p = pos("k7/8/8/8/8/8/8/K3R2r w - - 0 1");
        let m = decode_move(&p, raw(Square::E1, Square::H1, 0)).unwrap();
        assert_eq!(m.kind(), MoveKind::Normal);
        assert_eq!(m.to_string(), "e1h1");
        // A king off its home square moving onto its own rook: nothing.
        let p = pos("4k3/8/8/8/8/8/8/3RK2R w - - 0 1");
        assert_eq!(decode_move(&p, raw(Square::E1, Square::D1, 0)), None);
    }

    #[test]
    fn promotions_use_bits_12_to_14() {
        let p = pos("8/P6k/8/8/8/8/8/K7 w - - 0 1");
        for (bits, letter) in [(1, 'n'), (2, 'b'), (3, 'r'), (4, 'q')] {
            let r = raw(Square::A7, Square::A8, bits);
            let m = decode_move(&p, r).unwrap();
            assert_eq!(m.to_string(), format!("a7a8{letter}"));
            assert_eq!(encode_move(m), r);
        }
        // A promotion without its piece, or with a bad piece code.
        assert_eq!(decode_move(&p, raw(Square::A7, Square::A8, 0)), None);
        assert_eq!(decode_move(&p, raw(Square::A7, Square::A8, 5)), None);
    }

    #[test]
    fn en_passant_is_a_plain_from_to() {
        let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let m = decode_move(&p, raw(Square::E5, Square::D6, 0)).unwrap();
        assert_eq!(m.kind(), MoveKind::EnPassant);
        assert_eq!(encode_move(m), raw(Square::E5, Square::D6, 0));
    }

    #[test]
    fn every_legal_move_round_trips() {
        for fen in [
            movegen::STARTING_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        ] {
            let p = pos(fen);
            for m in p.legal_moves() {
                assert_eq!(decode_move(&p, encode_move(m)), Some(m), "{fen} {m}");
            }
        }
    }
}
