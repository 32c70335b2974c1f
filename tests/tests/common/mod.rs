//! Random legal positions for the property tests.

use attacks::{Color, Magic, Rank, Square};
use movegen::{CastlingNotation, CastlingRights, Piece, Position, PositionError, Role, Setup};
use proptest::prelude::*;

/// A legal position from the kings' squares, (square, piece code) pairs,
/// the side to move, wanted castling rights (bits `KQkq`, kept where king and
/// rook stand on the back rank, the outermost rook as X-FEN's `KQkq`) and an en-passant file (a double push is set up there,
/// with a pawn beside it to capture). Pieces that cannot stand are left out.
pub fn build(
    kings: (u8, u8),
    pieces: &[(u8, u8)],
    black: bool,
    castling: u8,
    ep_file: Option<u8>,
) -> Option<Position> {
    if kings.0 == kings.1 {
        return None;
    }
    let mut setup = Setup {
        board: [None; 64],
        turn: if black { Color::Black } else { Color::White },
        castling_rooks: attacks::Bitboard::EMPTY,
        castling_notation: CastlingNotation::XFen,
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    for (sq, color) in [(kings.0, Color::White), (kings.1, Color::Black)] {
        setup.board[usize::from(sq)] = Some(Piece {
            color,
            role: Role::King,
        });
    }
    for &(sq, code) in pieces {
        let square = Square::new(u32::from(sq));
        let color = if code & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        // Pawns twice as often as any other piece, as in games.
        let role = [
            Role::Pawn,
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ][usize::from(code >> 1) % 6];
        if setup.board[usize::from(sq)].is_some()
            || (role == Role::Pawn && matches!(square.rank(), Rank::First | Rank::Eighth))
        {
            continue;
        }
        setup.board[usize::from(sq)] = Some(Piece { color, role });
        if Position::<Magic>::from_setup(&setup) == Err(PositionError::TooMuchMaterial) {
            setup.board[usize::from(sq)] = None;
        }
    }
    setup.castling_rooks = setup.rooks_for(CastlingRights(castling));
    if let Some(file) = ep_file {
        let us = setup.turn;
        let (ep_rank, pushed_rank, origin_rank) = match us {
            Color::White => (5, 4, 6),
            Color::Black => (2, 3, 1),
        };
        let f = u32::from(file % 8);
        let sq = |file: u32, rank: u32| Square::new(rank * 8 + file).index();
        let free =
            |board: &[Option<Piece>; 64], i: usize| board[i].is_none_or(|p| p.role != Role::King);
        let capturer = if f == 0 { 1 } else { f - 1 };
        let squares = [
            sq(f, ep_rank),
            sq(f, origin_rank),
            sq(f, pushed_rank),
            sq(capturer, pushed_rank),
        ];
        if squares.iter().all(|&i| free(&setup.board, i)) {
            let before = setup.clone();
            setup.board[squares[0]] = None;
            setup.board[squares[1]] = None;
            setup.board[squares[2]] = Some(Piece {
                color: !us,
                role: Role::Pawn,
            });
            setup.board[squares[3]] = Some(Piece {
                color: us,
                role: Role::Pawn,
            });
            setup.ep_square = Some(Square::new(squares[0] as u32));
            if Position::<Magic>::from_setup(&setup).is_err() {
                setup = before;
            }
        }
    }
    Position::from_setup(&setup).ok().or_else(|| {
        setup.turn = !setup.turn;
        setup.ep_square = None;
        Position::from_setup(&setup).ok()
    })
}

/// Random legal positions, crowded enough for long exchanges, some with an
/// en-passant capture.
pub fn positions() -> impl Strategy<Value = Position> {
    (
        (0u8..64, 0u8..64),
        prop::collection::vec((0u8..64, 0u8..12), 6..28),
        any::<bool>(),
        0u8..16,
        prop::option::weighted(0.3, 0u8..8),
    )
        .prop_filter_map(
            "no legal position",
            |(kings, pieces, black, castling, ep)| build(kings, &pieces, black, castling, ep),
        )
}
