//! Chess960 start positions by their standard number (Scharnagl's: 0 to 959,
//! 518 the standard start), and double Chess960, where each side's back
//! rank has a number of its own (Viridithas's datagen mixes such openings
//! into its data, for variety; `borrow-datagen --dfrc` does too).

use attacks::{Color, File, Rank, SliderAttacks, Square};

use crate::castling::back_rank;
use crate::{CastlingNotation, Piece, Position, Role, Setup};

/// How many Chess960 start positions there are.
pub const COUNT: u16 = 960;

/// The knights' two places among the five squares left after the bishops
/// and the queen, for the number's last digit (0 to 9).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The roles of start position `n`'s back rank, the a-file first; `None`
/// when `n` is 960 or more. The number's digits, lowest first: the
/// light-squared bishop's file among b, d, f, h (base 4); the dark-squared
/// bishop's among a, c, e, g (base 4); the queen's among the six squares
/// left (base 6); the knights' pair among the five left (a table of the ten pairs);
/// the last three squares hold rook, king, rook.
pub fn back_rank_roles(n: u16) -> Option<[Role; 8]> {
    if n >= COUNT {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = usize::from(n);
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    n /= 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    n /= 4;
    let empty = |rank: &[Option<Role>; 8]| -> Vec<usize> {
        (0..8).filter(|&i| rank[i].is_none()).collect()
    };
    rank[empty(&rank)[n % 6]] = Some(Role::Queen);
    n /= 6;
    let (a, b) = KNIGHTS[n];
    let left = empty(&rank);
    rank[left[a]] = Some(Role::Knight);
    rank[left[b]] = Some(Role::Knight);
    for (i, role) in empty(&rank)
        .into_iter()
        .zip([Role::Rook, Role::King, Role::Rook])
    {
        rank[i] = Some(role);
    }
    Some(rank.map(|r| r.unwrap_or_else(|| unreachable!("every square is filled"))))
}

impl<A: SliderAttacks> Position<A> {
    /// The double Chess960 start position with White's back rank number
    /// `white` and Black's number `black` (0 to 959 each; equal numbers make
    /// a Chess960 start, 518 and 518 the standard one), White to move, every
    /// rook able to castle; its FEN names the rights by file (Shredder-FEN).
    /// `None` when a number is 960 or more.
    pub fn double_chess960(white: u16, black: u16) -> Option<Position<A>> {
        let mut setup = Setup {
            board: [None; 64],
            castling_notation: CastlingNotation::Shredder,
            ..Setup::default()
        };
        for (color, n) in [(Color::White, white), (Color::Black, black)] {
            let pawns = match color {
                Color::White => Rank::Second,
                Color::Black => Rank::Seventh,
            };
            for (i, role) in back_rank_roles(n)?.into_iter().enumerate() {
                let file = File::new(i as u32);
                setup.board[Square::from_coords(file, back_rank(color)).index()] =
                    Some(Piece { color, role });
                setup.board[Square::from_coords(file, pawns).index()] = Some(Piece {
                    color,
                    role: Role::Pawn,
                });
            }
        }
        setup.castling_rooks = setup.castling_allowed();
        Some(
            Position::from_setup(&setup)
                .unwrap_or_else(|e| unreachable!("a Chess960 start is legal: {e}")),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Pos = Position<attacks::Magic>;

    #[test]
    fn the_standard_start_is_number_518() {
        assert_eq!(
            Pos::double_chess960(518, 518).unwrap().fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert_eq!(
            Pos::double_chess960(518, 518).unwrap().key(),
            Pos::startpos().key()
        );
    }

    #[test]
    fn each_side_has_its_own_number() {
        // 0 is BBQNNRKR; 959 is RKRNNQBB.
        assert_eq!(
            Pos::double_chess960(0, 959).unwrap().fen(),
            "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1"
        );
        assert!(Pos::double_chess960(960, 0).is_none());
        assert!(Pos::double_chess960(0, 960).is_none());
        assert!(back_rank_roles(u16::MAX).is_none());
    }

    #[test]
    fn the_numbers_are_the_suites_every_one_a_new_back_rank() {
        // matches/openings/chess960.epd, the suite Borrow's Chess960
        // matches play, gives each of the 960 with an id "chess960 N".
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../matches/openings/chess960.epd"
        );
        let suite = std::fs::read_to_string(path).unwrap();
        let mut seen = std::collections::HashSet::new();
        let mut count = 0;
        for line in suite.lines().filter(|l| !l.trim().is_empty()) {
            let n: u16 = line
                .split("\"chess960 ")
                .nth(1)
                .and_then(|s| s.trim_end_matches(['"', ';']).parse().ok())
                .unwrap_or_else(|| panic!("no id in {line}"));
            let fields: Vec<&str> = line.split_whitespace().take(4).collect();
            let fen = format!("{} 0 1", fields.join(" "));
            assert_eq!(Pos::double_chess960(n, n).unwrap().fen(), fen, "number {n}");
            assert!(seen.insert(back_rank_roles(n)));
            count += 1;
        }
        assert_eq!(count, COUNT);
    }
}
