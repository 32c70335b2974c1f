//! Labelled positions for tuning: lines `FEN | score | result`, the score in
//! centipawns from White's side and the result from White's side (1.0, 0.5
//! or 0.0), as `borrow datagen --text` writes and `shared/data/selfplay`
//! holds. Read from plain text or gzip (by the file's first two bytes).

use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use movegen::Position;

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

/// A line that is not a labelled position, or a file that cannot be read.
#[derive(Debug)]
pub struct DataError {
    /// The file.
    pub file: String,
    /// The 1-based line, when the error is in one.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.file, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for DataError {}

/// Parses one line `FEN | score | result`.
pub fn parse_line(line: &str) -> Result<Labelled, String> {
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

/// Reads every labelled position of `path` (plain or gzip), handing each
/// to `each`. Blank lines and lines starting with `#` are skipped; any
/// other line that does not parse is an error naming the file and line.
pub fn read(path: &Path, mut each: impl FnMut(Labelled)) -> Result<usize, DataError> {
    let name = path.display().to_string();
    let err = |line, message: String| DataError {
        file: name.clone(),
        line,
        message,
    };
    let file = std::fs::File::open(path).map_err(|e| err(None, e.to_string()))?;
    let mut raw = BufReader::new(file);
    let gzip = raw
        .fill_buf()
        .map_err(|e| err(None, e.to_string()))?
        .starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(raw)))
    } else {
        Box::new(raw)
    };
    let mut count = 0;
    let mut buf = Vec::new();
    let mut reader = reader;
    for number in 1.. {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| err(Some(number), format!("cannot read: {e}")))?;
        if n == 0 {
            break;
        }
        let line = String::from_utf8_lossy(&buf);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        each(parse_line(line).map_err(|m| err(Some(number), m))?);
        count += 1;
    }
    Ok(count)
}

/// Reads all of `reader` as labelled lines (for tests and small inputs).
pub fn read_from(name: &str, reader: impl Read) -> Result<Vec<Labelled>, DataError> {
    let mut out = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let line = line.map_err(|e| DataError {
            file: name.into(),
            line: Some(i + 1),
            message: e.to_string(),
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|message| DataError {
            file: name.into(),
            line: Some(i + 1),
            message,
        })?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_parse_and_bad_ones_say_where() {
        let text = "# comment\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 35 | 0.5\n\
            \n\
            8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\n";
        let v = read_from("t", text.as_bytes()).expect("valid");
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].score, v[0].result), (35, 0.5));
        assert_eq!((v[1].score, v[1].result), (900, 1.0));
        for (bad, what) in [
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 900", "three fields"),
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | x | 1.0", "score 'x'"),
            ("8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 5 | 2", "result '2'"),
            ("8/8/8/9/8/8/8/3QK3 w - - 0 1 | 5 | 1.0", "FEN"),
        ] {
            let e = read_from("f.txt", format!("# x\n{bad}\n").as_bytes()).unwrap_err();
            assert_eq!((e.file.as_str(), e.line), ("f.txt", Some(2)), "{bad}");
            assert!(e.message.contains(what), "{bad}: {e}");
        }
    }
}
