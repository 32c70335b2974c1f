//! Helpers shared by the fuzz targets: positions from fuzz input (a FEN
//! line, or a board built from raw bytes when the line is no legal FEN),
//! and shakmaty as the outside oracle.

use attacks::{Color, File, Rank, Square};
use movegen::{CastlingNotation, CastlingRights, Piece, Position, Role, Setup};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, PositionErrorKinds};

/// The input up to the first newline, and the rest after it.
pub fn split_line(data: &[u8]) -> (&[u8], &[u8]) {
    match data.iter().position(|&b| b == b'\n') {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[]),
    }
}

/// The position of a FEN line if it is one, else one built from its bytes
/// by [`structured_position`], else the starting position.
pub fn fuzzed_position(head: &[u8]) -> Position {
    if let Ok(text) = std::str::from_utf8(head)
        && let Ok(pos) = Position::from_fen(text)
    {
        return pos;
    }
    structured_position(head).unwrap_or_default()
}

/// A legal position built from raw bytes, so that random input reaches many
/// more legal positions than random FEN text does.
///
/// Byte 0: side to move (bit 0) and wanted castling rights (bits 1-4);
/// byte 1: en-passant file (bits 0-2) if bit 3 is set; bytes 2-3: the king
/// squares; then pairs (square, piece code). Pieces that cannot stand (an
/// occupied square, a pawn on a back rank, too much material) are skipped,
/// and so are castling rights and en-passant squares that do not fit.
pub fn structured_position(bytes: &[u8]) -> Option<Position> {
    let mut it = bytes.iter().copied();
    let flags = it.next()?;
    let ep = it.next()?;
    let mut setup = Setup {
        board: [None; 64],
        turn: if flags & 1 == 0 {
            Color::White
        } else {
            Color::Black
        },
        castling_rooks: attacks::Bitboard::EMPTY,
        castling_notation: CastlingNotation::XFen,
        ep_square: None,
        halfmoves: 0,
        fullmoves: 1,
    };
    for color in Color::ALL {
        let sq = Square::new(u32::from(it.next()? & 63));
        if setup.board[sq.index()].is_some() {
            return None;
        }
        setup.board[sq.index()] = Some(Piece {
            color,
            role: Role::King,
        });
    }
    let mut count = [[0u32; 6]; 2];
    while let (Some(s), Some(p)) = (it.next(), it.next()) {
        let sq = Square::new(u32::from(s & 63));
        let color = if p & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let role = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
        ][usize::from(p >> 1) % 5];
        if setup.board[sq.index()].is_some()
            || (role == Role::Pawn && matches!(sq.rank(), Rank::First | Rank::Eighth))
        {
            continue;
        }
        let c = &mut count[color.index()];
        c[role.index()] += 1;
        let promoted = c[Role::Knight.index()].saturating_sub(2)
            + c[Role::Bishop.index()].saturating_sub(2)
            + c[Role::Rook.index()].saturating_sub(2)
            + c[Role::Queen.index()].saturating_sub(1);
        if c[Role::Pawn.index()] + promoted > 8 {
            c[role.index()] -= 1;
            continue;
        }
        setup.board[sq.index()] = Some(Piece { color, role });
    }
    // Castling rights for the outermost rooks, as X-FEN's `KQkq` (standard
    // chess and Chess960 alike).
    setup.castling_rooks = setup.rooks_for(CastlingRights((flags >> 1) & 15));
    if ep & 8 != 0 {
        let rank = match setup.turn {
            Color::White => Rank::Sixth,
            Color::Black => Rank::Third,
        };
        setup.ep_square = Some(Square::from_coords(File::new(u32::from(ep & 7)), rank));
        if Position::<attacks::Magic>::from_setup(&setup).is_err() {
            setup.ep_square = None;
        }
    }
    Position::from_setup(&setup).ok()
}

/// shakmaty's reading of a FEN, in Chess960 mode where the castling rights
/// need it (`CastlingMode::detect`): `Ok` if it takes the position, allowing
/// the two things it refuses and Borrow deliberately accepts (checks no
/// legal game reaches, and material beyond its per-colour bishop count);
/// `Err` with all of its reasons otherwise, or `None` if it cannot parse.
#[allow(clippy::result_large_err)] // shakmaty's PositionError, as its API gives it
pub fn shakmaty_position(fen: &str) -> Option<Result<Chess, PositionErrorKinds>> {
    let parsed: Fen = fen.parse().ok()?;
    let mode = CastlingMode::detect(parsed.as_setup());
    Some(
        parsed
            .into_position::<Chess>(mode)
            .or_else(|e| e.ignore_impossible_check())
            .or_else(|e| e.ignore_too_much_material())
            .map_err(|e| e.kinds()),
    )
}
