//! Whole games in *viriformat*, the game format of the `viriformat` crate
//! (Viridithas's datagen), which the bullet trainer reads: a game is its
//! start position as a 32-byte marlinformat record ([`super::marlinformat`]), then
//! a 4-byte `(move, score)` pair for every searched ply, then four zero
//! bytes. About 4 bytes a position where a marlinformat record takes 32,
//! and every ply is kept: which positions a trainer learns from (quiet
//! moves only, no checks, no mate scores) is the loader's choice.
//!
//! | bits of a move | field |
//! |---|---|
//! | 0..6 | from |
//! | 6..12 | to; castling is the king taking its own rook (`e1h1`) |
//! | 12..14 | the promotion role: knight 0, bishop 1, rook 2, queen 3 |
//! | 14..16 | the kind: 0 normal, 1 en passant, 2 castling, 3 promotion |
//!
//! The score is the search's, in centipawns from White's side; the start
//! record's score field is 0 and its result field the game's result. A mate
//! in `n` plies is written `±(32,767 − n)` ([`to_file_score`]): at or beyond
//! 31,339, where the crate's default filter (the one bullet's loaders use)
//! drops game-theoretic scores, while the search's own mate scores
//! (`MATE − n`, 30,000..31,000) would pass it as 300-pawn evaluations.
//! Reading maps them back ([`from_file_score`]); files written before this
//! scale (mates at 30,000..31,000) read as they were, still mates to
//! [`trainable`].
//!
//! The `viriformat` crate itself is not used: it carries a whole chess
//! implementation of its own (board, move generator, magic tables) and
//! depends on rand, serde and toml, to read a layout this file writes and
//! reads in a few dozen lines with the project's own [`movegen`].

use std::io::{self, Read, Write};

use movegen::{Move, MoveKind, Position, Role};

use super::marlinformat::{self as format, Format, RECORD_SIZE, pack, read_full, unpack};
use super::trainable;
use crate::score::{from_file_score, to_file_score};

/// The bytes that end a game's moves.
const TERMINATOR: [u8; 4] = [0; 4];

/// A game as viriformat stores it.
#[derive(Clone, Debug, PartialEq)]
pub struct ViriGame {
    /// The position of the first searched ply.
    pub start: Position,
    /// The result from White's side: 1.0, 0.5 or 0.0.
    pub result: f32,
    /// Each searched ply: the move played and the search's score for it,
    /// centipawns from White's side.
    pub plies: Vec<(Move, i32)>,
}

impl ViriGame {
    /// Each ply's position before its move, with the move and its score.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Move, i32)> + '_ {
        let mut pos = self.start;
        self.plies.iter().map(move |&(m, score)| {
            let before = pos;
            pos.play_unchecked(m);
            (before, m, score)
        })
    }

    /// The positions a trainer learns from ([`trainable`]), with their
    /// scores from White's side.
    pub fn trainable_positions(&self) -> impl Iterator<Item = (Position, i32)> + '_ {
        self.positions()
            .filter(|(pos, best, score)| trainable(pos, *best, *score))
            .map(|(pos, _, score)| (pos, score))
    }

    /// Writes the game in `format`: whole (viriformat), or its trainable
    /// positions as records or text lines. Returns the bytes and the
    /// positions written; the caller flushes.
    pub fn write_as(&self, out: &mut impl Write, format: Format) -> io::Result<(u64, u64)> {
        if format == Format::Viri {
            return Ok((self.write(out)?, self.plies.len() as u64));
        }
        let (mut bytes, mut positions) = (0, 0);
        for (pos, score) in self.trainable_positions() {
            if format == Format::Binary {
                out.write_all(&pack(&pos, score, self.result))?;
                bytes += RECORD_SIZE as u64;
            } else {
                let line = format::to_text(&pos, score, self.result);
                out.write_all(line.as_bytes())?;
                out.write_all(b"\n")?;
                bytes += line.len() as u64 + 1;
            }
            positions += 1;
        }
        Ok((bytes, positions))
    }

    /// The game's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(RECORD_SIZE + 4 * self.plies.len() + 4);
        out.extend_from_slice(&pack(&self.start, 0, self.result));
        for &(m, score) in &self.plies {
            out.extend_from_slice(&encode_move(m).to_le_bytes());
            out.extend_from_slice(&to_file_score(score).to_le_bytes());
        }
        out.extend_from_slice(&TERMINATOR);
        out
    }

    /// Writes the game; returns the bytes written.
    pub fn write(&self, out: &mut impl Write) -> io::Result<u64> {
        let bytes = self.to_bytes();
        out.write_all(&bytes)?;
        Ok(bytes.len() as u64)
    }
}

/// A move's 16 bits in viriformat.
pub fn encode_move(m: Move) -> u16 {
    let (promotion, kind) = match m.kind() {
        MoveKind::Normal => (0, 0),
        MoveKind::EnPassant => (0, 1),
        MoveKind::Castle => (0, 2),
        MoveKind::Promotion(role) => (role.index() as u16 - Role::Knight.index() as u16, 3),
    };
    m.from() as u16 | (m.to() as u16) << 6 | promotion << 12 | kind << 14
}

/// The legal move of `pos` whose viriformat bits are `bits`.
pub fn decode_move(pos: &Position, bits: u16) -> Result<Move, String> {
    pos.legal_moves()
        .into_iter()
        .find(|&m| encode_move(m) == bits)
        .ok_or_else(|| format!("move bits {bits:#06x} are no legal move in {}", pos.fen()))
}

/// Reads every game of `reader`, handing each to `each`; returns how many.
/// A game cut short, a bad start record or a move that is not legal where
/// it stands is an error naming the game (1-based) and what is wrong.
pub fn read_games(
    mut reader: impl Read,
    mut each: impl FnMut(ViriGame),
) -> Result<usize, (usize, String)> {
    for number in 1.. {
        let err = |m: String| (number, m);
        let mut record = [0u8; RECORD_SIZE];
        match read_full(&mut reader, &mut record).map_err(|e| err(format!("cannot read: {e}")))? {
            0 => return Ok(number - 1),
            RECORD_SIZE => {}
            n => return Err(err(format!("cut short in its start record ({n} bytes)"))),
        }
        let start = unpack(&record).map_err(|m| err(format!("start record: {m}")))?;
        let mut game = ViriGame {
            start: start.pos,
            result: start.result,
            plies: Vec::new(),
        };
        let mut pos = start.pos;
        loop {
            let mut pair = [0u8; 4];
            if read_full(&mut reader, &mut pair).map_err(|e| err(format!("cannot read: {e}")))? < 4
            {
                return Err(err("cut short before its terminator".into()));
            }
            if pair == TERMINATOR {
                break;
            }
            let bits = u16::from_le_bytes([pair[0], pair[1]]);
            let m = decode_move(&pos, bits)
                .map_err(|m| err(format!("ply {}: {m}", game.plies.len() + 1)))?;
            pos.play_unchecked(m);
            game.plies
                .push((m, from_file_score(i16::from_le_bytes([pair[2], pair[3]]))));
        }
        each(game);
    }
    unreachable!("the loop returns")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{FILE_MATE_BOUND, MATE, MATE_BOUND};

    fn play(pos: &mut Position, uci: &str) -> Move {
        let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{uci}: {e}"));
        pos.play_unchecked(m);
        m
    }

    #[test]
    fn the_specifications_example_game_is_written_byte_for_byte() {
        // The example of the format's README: 1. e4 e5 2. Qh5 Ke7 3. Qxe5#,
        // a White win, with these White-side scores. (The README's dump
        // shows each piece byte with its two nibbles swapped; the crate's
        // code, as marlinformat, puts the lower square in the low nibble,
        // as these bytes do.)
        let mut pos = Position::startpos();
        let plies = [
            ("e2e4", 10),
            ("e7e5", 20),
            ("d1h5", -30),
            ("e8e7", MATE),
            ("h5e5", MATE),
        ]
        .map(|(uci, score)| (play(&mut pos, uci), score));
        let game = ViriGame {
            start: Position::startpos(),
            result: 1.0,
            plies: plies.to_vec(),
        };
        let expected: [u8; 56] = [
            0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, // occupancy
            0x16, 0x42, 0x25, 0x61, 0x00, 0x00, 0x00, 0x00, // white pieces
            0x88, 0x88, 0x88, 0x88, 0x9e, 0xca, 0xad, 0xe9, // black pieces
            0x40, 0x00, 0x01, 0x00, 0x00, 0x00, 0x02, 0x00, // stm, clocks, score, result
            0x0c, 0x07, 0x0a, 0x00, // e4 +10
            0x34, 0x09, 0x14, 0x00, // e5 +20
            0xc3, 0x09, 0xe2, 0xff, // Qh5 -30
            0x3c, 0x0d, 0xff, 0x7f, // Ke7
            0x27, 0x09, 0xff, 0x7f, // Qxe5#
            0x00, 0x00, 0x00, 0x00, // terminator
        ];
        assert_eq!(game.to_bytes(), expected);
        let mut read = Vec::new();
        assert_eq!(read_games(&expected[..], |g| read.push(g)), Ok(1));
        assert_eq!(read, [game]);
    }

    #[test]
    fn mates_are_written_beyond_the_crates_filter_and_read_back() {
        for plies in [0, 1, 2, 9, 40, 255, 1000] {
            let file = to_file_score(MATE - plies);
            assert!(
                i32::from(file) >= FILE_MATE_BOUND,
                "mate in {plies}: {file}"
            );
            assert_eq!(from_file_score(file), MATE - plies);
            assert_eq!(to_file_score(-(MATE - plies)), -file);
            assert_eq!(from_file_score(-file), -(MATE - plies));
        }
        for cp in [0, 1, -1, 35, -1200, 19_990, -19_990, MATE_BOUND - 1] {
            assert_eq!(from_file_score(to_file_score(cp)), cp);
            assert!(i32::from(to_file_score(cp)).abs() < FILE_MATE_BOUND);
        }
        // Files from before this scale: mates at MATE - n read unchanged,
        // and are still mates to the search's scale.
        assert_eq!(from_file_score((MATE - 5) as i16), MATE - 5);
        // Another engine's game-theoretic scores (Viridithas: mates from
        // 32,339, tablebase wins from 31,339) read as mates.
        assert!(from_file_score(31_339) >= MATE_BOUND);
        // The ends of i16 are mates no nearer than mate now.
        assert_eq!(from_file_score(i16::MIN), -MATE);
        assert_eq!(from_file_score(i16::MAX), MATE);
        assert!(from_file_score(-32_400) <= -MATE_BOUND);
    }

    #[test]
    fn every_kind_of_move_round_trips() {
        // Castling both ways, en passant, promotions to each role, in
        // standard chess and Chess960.
        let cases = [
            (
                "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
                ["e1h1", "e8a8"].as_slice(),
            ),
            (
                "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
                &["e5f6"],
            ),
            (
                "1n2k3/P1P5/8/8/8/8/7p/4K1N1 w - - 0 1",
                &["a7b8n", "h2g1b", "c7c8r"],
            ),
            ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", &["a7a8q"]),
            (
                "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                &["e1g1", "e8b8"],
            ),
        ];
        for (fen, moves) in cases {
            let start = Position::from_fen(fen).unwrap();
            let mut pos = start;
            let plies: Vec<(Move, i32)> = moves
                .iter()
                .enumerate()
                .map(|(i, uci)| (play(&mut pos, uci), i as i32 * 7 - 3))
                .collect();
            let game = ViriGame {
                start,
                result: 0.5,
                plies,
            };
            let mut back = Vec::new();
            read_games(&game.to_bytes()[..], |g| back.push(g)).unwrap();
            assert_eq!(back, std::slice::from_ref(&game), "{fen}");
            let last = game.positions().last().unwrap();
            assert_eq!(last.1, game.plies.last().unwrap().0);
        }
    }

    #[test]
    fn bad_games_are_refused_with_the_game_and_the_reason() {
        let mut pos = Position::startpos();
        let game = ViriGame {
            start: pos,
            result: 0.0,
            plies: vec![(play(&mut pos, "g1f3"), 15), (play(&mut pos, "g8f6"), 12)],
        };
        let good = game.to_bytes();
        let two = [good.clone(), good.clone()].concat();
        assert_eq!(read_games(&two[..], |_| {}), Ok(2));

        let cut = &two[..two.len() - 2];
        let (n, why) = read_games(cut, |_| {}).unwrap_err();
        assert_eq!(n, 2);
        assert!(why.contains("cut short"), "{why}");

        let mut illegal = good.clone();
        illegal[32] = 0x0d; // the first move f2e3: no pawn moves so
        let (n, why) = read_games(&illegal[..], |_| {}).unwrap_err();
        assert_eq!(n, 1);
        assert!(
            why.contains("ply 1") && why.contains("no legal move"),
            "{why}"
        );

        let mut bad_start = good.clone();
        bad_start[30] = 7;
        let (_, why) = read_games(&bad_start[..], |_| {}).unwrap_err();
        assert!(
            why.contains("start record") && why.contains("result 7"),
            "{why}"
        );

        assert_eq!(read_games(&good[..20], |_| {}).unwrap_err().0, 1);
        assert_eq!(read_games(&[][..], |_| {}), Ok(0));
    }
}
