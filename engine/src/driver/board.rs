//! The board the `d` command shows.

use attacks::Square;
use movegen::Position;

/// The board for `d`: eight ranks (White at the bottom, upper case), then
/// the side to move, castling rights, en passant square and checkers.
pub(super) fn board_lines(pos: &Position) -> Vec<String> {
    let rule = " +---+---+---+---+---+---+---+---+".to_owned();
    let mut lines = vec![rule.clone()];
    for rank in (0..8).rev() {
        let mut line = String::from(" |");
        for file in 0..8 {
            let sq = Square::new(rank * 8 + file);
            let c = pos.piece_at(sq).map_or(' ', |p| p.char());
            line.push_str(&format!(" {c} |"));
        }
        line.push_str(&format!(" {}", rank + 1));
        lines.push(line);
        lines.push(rule.clone());
    }
    lines.push("   a   b   c   d   e   f   g   h".to_owned());
    let side = match pos.turn() {
        attacks::Color::White => "white",
        attacks::Color::Black => "black",
    };
    lines.push(format!("side to move: {side}"));
    lines.push(format!("castling: {}", pos.castling()));
    lines.push(format!(
        "en passant: {}",
        pos.ep_square().map_or("-".to_owned(), |s| s.to_string())
    ));
    let checkers: Vec<String> = pos.checkers().map(|s| s.to_string()).collect();
    lines.push(format!(
        "checkers: {}",
        if checkers.is_empty() {
            "-".to_owned()
        } else {
            checkers.join(" ")
        }
    ));
    lines
}
