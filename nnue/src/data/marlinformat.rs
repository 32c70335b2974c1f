//! The two forms `borrow-datagen` writes a labelled position in, and reads
//! them back:
//!
//! - text, one line `FEN | score | result`: the score in centipawns and the
//!   result (1.0, 0.5, 0.0), both from White's side;
//! - binary, 32 bytes a position in the *marlinformat* layout (marlinflow's
//!   `PackedBoard`, read by the bulletformat crate and the bullet trainer's
//!   tools, and the start record of viriformat games). Little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 0..8 | occupancy, bit `i` = square `i` (a1 = 0, h8 = 63) |
//! | 8..24 | a nibble per occupied square in ascending order, low nibble first: role 0..=5 (pawn..king), 6 = a rook that may still castle; bit 3 set for Black |
//! | 24 | bit 7 set when Black is to move; bits 0..=6 the en-passant square, 64 for none |
//! | 25 | the halfmove clock (capped at 255) |
//! | 26..28 | the fullmove number (capped at 65,535) |
//! | 28..30 | the score, centipawns from White's side |
//! | 30 | the result from White's side: 2 win, 1 draw, 0 loss |
//! | 31 | unused, 0 |

use std::fmt;
use std::io::{self, Read};

use attacks::{Bitboard, Color, Square};
use movegen::{CastlingNotation, Piece, Position, Role, Setup};

/// The size of one binary record.
pub const RECORD_SIZE: usize = 32;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// The position.
    pub pos: Position,
    /// The search's score, White's side, centipawns.
    pub score: i32,
    /// The game's result, White's side: 1.0, 0.5 or 0.0.
    pub result: f32,
}

/// How `borrow-datagen` writes, and the readers read. The readers tell
/// the formats apart by the file's name: `.vf` viriformat, `.bin`
/// marlinformat, anything else text (plain or gzip).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// `FEN | score | result` lines, the trainable positions only.
    Text,
    /// 32-byte marlinformat records, the trainable positions only.
    Binary,
    /// Whole games in viriformat ([`super::viriformat`]): every searched
    /// ply, about 4 bytes each.
    Viri,
}

impl Format {
    /// Every format, the default first.
    pub const ALL: [Format; 3] = [Format::Viri, Format::Binary, Format::Text];

    /// The format's name, as `--format` and the resume state spell it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Binary => "binary",
            Format::Viri => "viri",
        }
    }

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The format a reader takes a file of this name to be in, a packed
    /// file's by the name under its `.xz` or `.gz` (`a.vf.xz` holds
    /// viriformat games; the readers unpack it as they go).
    pub fn of_path(path: &std::path::Path) -> Format {
        let unpacked = if is_packed(path) {
            std::path::Path::new(path.file_stem().unwrap_or_default())
        } else {
            path
        };
        match unpacked.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("vf") => Format::Viri,
            Some(e) if e.eq_ignore_ascii_case("bin") => Format::Binary,
            _ => Format::Text,
        }
    }

    /// How a file in this format is named, for messages.
    pub fn naming(self) -> &'static str {
        match self {
            Format::Text => "any name but *.bin and *.vf (and their *.xz, *.gz)",
            Format::Binary => "*.bin",
            Format::Viri => "*.vf",
        }
    }
}

/// Whether the file's name says it is packed (`*.xz` or `*.gz`): the
/// readers unpack it, the writers (`borrow-datagen`, `borrow-datagen convert`) write
/// only plain files.
pub fn is_packed(path: &std::path::Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("xz") || e.eq_ignore_ascii_case("gz"))
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result as text: `1.0`, `0.5` or `0.0`.
fn result_text(result: f32) -> &'static str {
    if result > 0.75 {
        "1.0"
    } else if result > 0.25 {
        "0.5"
    } else {
        "0.0"
    }
}

/// The text line of a labelled position, without its line break.
pub fn to_text(pos: &Position, score: i32, result: f32) -> String {
    format!("{} | {score} | {}", pos.fen(), result_text(result))
}

/// Parses one line `FEN | score | result`.
pub fn parse_text(line: &str) -> Result<Labelled, String> {
    let mut fields = line.split('|').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected three fields 'FEN | score | result'".into());
    };
    let pos = Position::from_fen(fen).map_err(|e| format!("FEN '{fen}': {e}"))?;
    let score = score
        .parse::<i32>()
        .map_err(|_| format!("score '{score}' is not a whole number of centipawns"))?;
    let result = match result {
        "1.0" | "1" => 1.0,
        "0.5" => 0.5,
        "0.0" | "0" => 0.0,
        other => return Err(format!("result '{other}' is not 1.0, 0.5 or 0.0")),
    };
    Ok(Labelled { pos, score, result })
}

/// The nibble that marks a rook with its castling right.
const UNMOVED_ROOK: u8 = 6;

/// Packs a labelled position into a binary record.
pub fn pack(pos: &Position, score: i32, result: f32) -> [u8; RECORD_SIZE] {
    let mut out = [0u8; RECORD_SIZE];
    let occupied = pos.occupied();
    out[0..8].copy_from_slice(&occupied.0.to_le_bytes());
    let castling_rooks = pos.castling_rooks();
    for (i, sq) in occupied.enumerate() {
        let piece = pos
            .piece_at(sq)
            .unwrap_or_else(|| unreachable!("an occupied square holds a piece"));
        let mut nibble = if castling_rooks.contains(sq) {
            UNMOVED_ROOK
        } else {
            piece.role.index() as u8
        };
        if piece.color == Color::Black {
            nibble |= 8;
        }
        out[8 + i / 2] |= nibble << (4 * (i % 2));
    }
    let ep = pos.ep_square().map_or(64, |s| s.index() as u8);
    out[24] = ep | if pos.turn() == Color::Black { 0x80 } else { 0 };
    out[25] = pos.halfmoves().min(255) as u8;
    out[26..28].copy_from_slice(&(pos.fullmoves().min(65_535) as u16).to_le_bytes());
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    out[28..30].copy_from_slice(&score.to_le_bytes());
    out[30] = (result * 2.0).round().clamp(0.0, 2.0) as u8;
    out
}

/// Reads a binary record back; the error says what is wrong with it.
pub fn unpack(record: &[u8; RECORD_SIZE]) -> Result<Labelled, String> {
    let occupied = Bitboard(u64::from_le_bytes(
        record[0..8].try_into().unwrap_or_default(),
    ));
    if occupied.count() > 32 {
        return Err(format!(
            "{} occupied squares, more than the 32 a record can hold",
            occupied.count()
        ));
    }
    let mut board = [None; 64];
    let mut castling_rooks = Bitboard::EMPTY;
    for (i, sq) in occupied.enumerate() {
        let nibble = (record[8 + i / 2] >> (4 * (i % 2))) & 15;
        let color = if nibble & 8 != 0 {
            Color::Black
        } else {
            Color::White
        };
        let role = match nibble & 7 {
            // Which rooks may castle is checked with the position.
            UNMOVED_ROOK => {
                castling_rooks |= sq;
                Role::Rook
            }
            7 => return Err(format!("piece code {nibble} on {sq} is no piece")),
            r => Role::ALL[r as usize],
        };
        board[sq.index()] = Some(Piece { color, role });
    }
    let turn = if record[24] & 0x80 != 0 {
        Color::Black
    } else {
        Color::White
    };
    let ep_square = match record[24] & 0x7f {
        64 => None,
        s if s < 64 => Some(Square::new(u32::from(s))),
        s => return Err(format!("en-passant square {s} is not 0..=64")),
    };
    let result = match record[30] {
        0 => 0.0,
        1 => 0.5,
        2 => 1.0,
        r => return Err(format!("result {r} is not 0, 1 or 2")),
    };
    let setup = Setup {
        board,
        turn,
        castling_rooks,
        castling_notation: CastlingNotation::XFen,
        ep_square,
        halfmoves: u32::from(record[25]),
        fullmoves: u32::from(u16::from_le_bytes([record[26], record[27]])).max(1),
    };
    let pos = Position::from_setup(&setup).map_err(|e| format!("not a legal position: {e}"))?;
    let score = i32::from(i16::from_le_bytes([record[28], record[29]]));
    Ok(Labelled { pos, score, result })
}

/// Reads until `buf` is full or the input ends; returns the bytes read
/// (fewer than `buf` holds only at the end of the input).
pub(crate) fn read_full(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match reader.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FENS: [&str; 5] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w Kq - 3 17",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/4k3/8/8/3QK3/8 b - - 99 300",
        "4k2r/8/8/8/8/8/8/R3K3 b Qk - 0 1",
    ];

    #[test]
    fn a_packed_file_has_the_format_of_the_name_under_its_packing() {
        for (name, format) in [
            ("g.vf", Format::Viri),
            ("data/g.vf.xz", Format::Viri),
            ("r.BIN.xz", Format::Binary),
            ("t.txt.gz", Format::Text),
            ("x.xz", Format::Text),
            ("x.vf.zst", Format::Text),
        ] {
            assert_eq!(
                Format::of_path(std::path::Path::new(name)),
                format,
                "{name}"
            );
        }
        assert!(is_packed(std::path::Path::new("g.vf.xz")));
        assert!(!is_packed(std::path::Path::new("g.vf")));
    }

    #[test]
    fn binary_records_round_trip() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            for (score, result) in [(0, 0.5), (-1234, 0.0), (31_999, 1.0)] {
                let back = unpack(&pack(&pos, score, result)).unwrap();
                assert_eq!(back.pos.fen(), fen);
                assert_eq!(back.score, score);
                assert_eq!(back.result, result);
            }
        }
    }

    #[test]
    fn the_start_position_packs_as_marlinformat_does() {
        let pos = Position::startpos();
        let r = pack(&pos, 25, 1.0);
        assert_eq!(&r[0..8], &0xffff_0000_0000_ffffu64.to_le_bytes());
        // a1 rook (castles), b1 knight: nibbles 6 and 1; e1 king (5), d1 queen (4).
        assert_eq!(r[8], 0x16);
        assert_eq!(r[9], 0x02 | 0x40);
        assert_eq!(r[10], 0x25);
        assert_eq!(r[11], 0x61);
        // a7 black pawn: 8.
        assert_eq!(r[16], 0x88);
        assert_eq!(r[24], 64);
        assert_eq!((r[25], r[26], r[27]), (0, 1, 0));
        assert_eq!(i16::from_le_bytes([r[28], r[29]]), 25);
        assert_eq!((r[30], r[31]), (2, 0));
    }

    #[test]
    fn scores_beyond_i16_are_clamped() {
        let r = pack(&Position::startpos(), 100_000, 0.5);
        assert_eq!(unpack(&r).unwrap().score, i16::MAX as i32);
    }

    #[test]
    fn bad_records_are_refused_with_the_reason() {
        let good = pack(&Position::startpos(), 0, 0.5);
        let mut r = good;
        r[30] = 3;
        assert!(unpack(&r).unwrap_err().contains("result 3"));
        let mut r = good;
        r[8] = 0x17; // b1: code 7
        assert!(unpack(&r).unwrap_err().contains("piece code 7"));
        let mut r = good;
        r[24] = 70;
        assert!(unpack(&r).unwrap_err().contains("en-passant square 70"));
        let mut r = good;
        r[0..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(unpack(&r).unwrap_err().contains("64 occupied"));
        let mut r = good;
        r[10] = 0x21; // e1 king becomes a knight: White has no king
        assert!(unpack(&r).unwrap_err().contains("not a legal position"));
        let mut r = good;
        r[9] = 0x62; // d1 a castling rook too: two on White's queen side
        assert!(unpack(&r).unwrap_err().contains("not a legal position"));
    }

    #[test]
    fn text_lines_round_trip() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let line = to_text(&pos, -37, 0.0);
            let back = parse_text(&line).unwrap();
            assert_eq!(back.pos.fen(), fen);
            assert_eq!((back.score, back.result), (-37, 0.0));
        }
        assert!(parse_text("x | 1").is_err());
        assert!(parse_text("8/8/8/8/8/8/8/8 w - - 0 1 | 0 | 0.5").is_err());
        assert!(parse_text(&format!("{} | 1.5 | 0.5", FENS[0])).is_err());
        assert!(parse_text(&format!("{} | 1 | 2", FENS[0])).is_err());
    }
}
