//! Reading text files leniently, and counts for messages.
//!
//! PGN and EPD files in the wild are often
//! Latin-1 or carry a stray byte in a comment or tag. What counts in them
//! (moves, FENs, results) is ASCII, so a lossy reading loses nothing that
//! counts. The tools of the workspace that read such files use this one
//! reader (`book make`, the opening suites of `borrow-match` and of the
//! engine's datagen; `perft --epd`, which does not depend on this crate,
//! converts the same way with std's lossy UTF-8), so that a file one of them
//! reads, all of them read.

use std::io;
use std::path::Path;

/// The text of the file at `path`, bytes that are not UTF-8 replaced by
/// U+FFFD. Fails only if the file cannot be read.
pub fn read_text(path: impl AsRef<Path>) -> io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

/// A count with its noun, for messages: `1 game`, `2 games`, `1 entry`,
/// `0 entries`.
pub fn plural(n: usize, noun: &str) -> String {
    match noun.strip_suffix('y') {
        _ if n == 1 => format!("{n} {noun}"),
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_1_bytes_are_replaced_not_refused() {
        let path = std::env::temp_dir().join(format!("book-text-{}.pgn", std::process::id()));
        std::fs::write(&path, b"[White \"M\xfcller\"]\n1. e4 *\n").unwrap();
        let text = read_text(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(text, "[White \"M\u{fffd}ller\"]\n1. e4 *\n");
        assert!(read_text("/nonexistent/file.pgn").is_err());
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1, "entry"), "1 entry");
        assert_eq!(plural(0, "entry"), "0 entries");
        assert_eq!(plural(2, "book move"), "2 book moves");
        assert_eq!(plural(1, "book move"), "1 book move");
        assert_eq!(plural(3, "day"), "3 days");
    }
}
