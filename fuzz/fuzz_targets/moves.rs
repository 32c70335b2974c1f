//! Move parsing, UCI and SAN, against arbitrary positions: the first line is
//! a FEN (or bytes a position is built from), every later line is text to
//! read as a move. Nothing panics; what parses is a legal move whose own
//! notation reads back to it; the game goes on with the move read (or, if
//! none, a legal move the line's first byte picks); and in the position
//! reached, every legal move's UCI and SAN read back to it, SAN marks check
//! and mate, and `gives_check` agrees with playing the move.

#![no_main]

use borrow_fuzz::{fuzzed_position, split_line};
use libfuzzer_sys::fuzz_target;
use movegen::{MoveError, Position};

fuzz_target!(|data: &[u8]| {
    let (head, mut rest) = split_line(data);
    let mut pos = fuzzed_position(head);
    let mut plies = 0;
    while !rest.is_empty() && plies < 64 {
        let (line, tail) = split_line(rest);
        rest = tail;
        plies += 1;
        let text = String::from_utf8_lossy(line);
        let legal = pos.legal_moves();
        let uci = pos.parse_uci(&text);
        let san = pos.parse_san(&text);
        let either = pos.parse_move(&text);
        if let Ok(m) = uci {
            assert!(legal.contains(&m), "{pos:?} {text:?}");
            // Castling may be read in either form (`e1g1`, `e1h1`).
            let forms = [m.uci(false).to_string(), m.uci(true).to_string()];
            assert!(forms.contains(&text.to_string()), "{pos:?} {text:?}");
        }
        if let Ok(m) = san {
            assert!(legal.contains(&m), "{pos:?} {text:?}");
            assert_eq!(pos.parse_san(&pos.san(m)), Ok(m), "{pos:?} {text:?}");
        }
        match (&uci, &either) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            // Not UCI: what SAN says, but that text in neither notation is
            // a syntax error that names both.
            (Err(MoveError::Syntax(_)), e) => match (e, &san) {
                (Err(MoveError::Syntax(both)), Err(MoveError::Syntax(_))) => assert_eq!(
                    both.to_string(),
                    format!("'{text}' is not a move in UCI or SAN notation")
                ),
                _ => assert_eq!(e, &san, "{pos:?} {text:?}"),
            },
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("{pos:?} {text:?}: {uci:?} {either:?}"),
        }
        let chosen = either.ok().or_else(|| {
            let i = usize::from(line.first().copied().unwrap_or(0));
            (!legal.is_empty()).then(|| legal[i % legal.len()])
        });
        match chosen {
            Some(m) => pos.play_unchecked(m),
            None => break,
        }
    }
    check_notation(&pos);
});

/// Every legal move's UCI (Chess960's castling where the position needs it)
/// and SAN read back to it; SAN is unambiguous and marks check and mate.
fn check_notation(pos: &Position) {
    for m in pos.legal_moves() {
        let uci = m.uci(pos.is_chess960()).to_string();
        assert_eq!(pos.parse_uci(&uci), Ok(m), "{pos:?} {uci}");
        assert_eq!(pos.parse_uci(&m.uci(true).to_string()), Ok(m), "{pos:?}");
        let san = pos.san(m);
        assert_eq!(pos.parse_san(&san), Ok(m), "{pos:?} {san}");
        assert_eq!(pos.parse_move(&san), Ok(m), "{pos:?} {san}");
        let next = pos.play(m).expect("legal");
        let suffix = if next.is_checkmate() {
            "#"
        } else if next.is_check() {
            "+"
        } else {
            ""
        };
        assert!(san.ends_with(suffix), "{pos:?} {san}");
        assert_eq!(pos.gives_check(m), next.is_check(), "{pos:?} {uci}");
    }
    assert!(pos.parse_uci("0000").is_err());
}
