//! Labelled positions for tuning, as `borrow-datagen` writes them (see
//! [`super::marlinformat`]), the format told by the file's name
//! ([`Format::of_path`]): lines `FEN | score | result` (the score in
//! centipawns and the result, 1.0, 0.5 or 0.0, from White's side), as
//! `shared/data/selfplay` holds; 32-byte binary records (`*.bin`); or whole
//! games in viriformat (`*.vf`), whose trainable plies
//! ([`super::trainable`]) [`read`] hands on ([`read_games`] gives the
//! games). Any of them may be packed, xz (`*.vf.xz`, as the repository's
//! `data/` keeps its chunks) or gzip: a file named so (text also without
//! the name), told xz or gzip by its first bytes and unpacked as it
//! streams, with no unpacked copy on disk.

use std::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::marlinformat::{Format, RECORD_SIZE, is_packed, read_full, unpack};
pub use super::marlinformat::{Labelled, parse_text as parse_line};
use super::viriformat::{self, ViriGame};

/// A line or record that is not a labelled position, or a file that cannot
/// be read.
#[derive(Debug)]
pub struct DataError {
    /// The file.
    pub file: String,
    /// The 1-based line, record or game, when the error is in one.
    pub line: Option<usize>,
    /// What `line` counts: the file's format.
    pub format: Format,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.format) {
            (Some(r), Format::Binary) => write!(f, "{}: record {r}: {}", self.file, self.message),
            (Some(g), Format::Viri) => write!(f, "{}: game {g}: {}", self.file, self.message),
            (Some(l), Format::Text) => write!(f, "{}:{l}: {}", self.file, self.message),
            (None, _) => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for DataError {}

/// Reads the binary records of `reader`, handing each to `each`. A record
/// that is cut short or does not decode is an error naming it.
fn read_binary(
    name: &str,
    mut reader: impl Read,
    mut each: impl FnMut(Labelled),
) -> Result<usize, DataError> {
    let err = |record, message: String| DataError {
        file: name.to_owned(),
        line: Some(record),
        format: Format::Binary,
        message,
    };
    let mut record = [0u8; RECORD_SIZE];
    for number in 1.. {
        let filled = read_full(&mut reader, &mut record)
            .map_err(|e| err(number, format!("cannot read: {e}")))?;
        if filled == 0 {
            return Ok(number - 1);
        }
        if filled < RECORD_SIZE {
            return Err(err(
                number,
                format!("cut short: {filled} of its {RECORD_SIZE} bytes (a truncated file?)"),
            ));
        }
        each(unpack(&record).map_err(|m| err(number, m))?);
    }
    unreachable!("the loop returns")
}

/// The first bytes of an xz stream.
const XZ_MAGIC: [u8; 6] = [0xfd, b'7', b'z', b'X', b'Z', 0];
/// The first bytes of a gzip member.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Opens `path` for reading, unpacked as it streams when it is packed: a
/// file named `*.xz` or `*.gz`, or text, whose first bytes say xz or gzip.
/// (A plain record or game file is never sniffed: its first bytes are a
/// board, which may read as gzip's two.) The error names the file.
fn open(path: &Path) -> Result<Box<dyn BufRead>, DataError> {
    let err = |e: std::io::Error| DataError {
        file: path.display().to_string(),
        line: None,
        format: Format::of_path(path),
        message: e.to_string(),
    };
    let mut raw = File::open(path).map(BufReader::new).map_err(err)?;
    if !is_packed(path) && Format::of_path(path) != Format::Text {
        return Ok(Box::new(raw));
    }
    let head = raw.fill_buf().map_err(err)?;
    Ok(if head.starts_with(&XZ_MAGIC) {
        // Multi-stream, as `xz` itself reads concatenated files.
        Box::new(BufReader::new(
            liblzma::bufread::XzDecoder::new_multi_decoder(raw),
        ))
    } else if head.starts_with(&GZIP_MAGIC) {
        Box::new(BufReader::new(flate2::bufread::MultiGzDecoder::new(raw)))
    } else {
        Box::new(raw)
    })
}

/// Reads the viriformat games of `reader` (the file `name`), handing each
/// to `each`. A game that does not decode is an error naming it.
fn read_viri(
    name: &str,
    reader: impl Read,
    each: impl FnMut(ViriGame),
) -> Result<usize, DataError> {
    viriformat::read_games(reader, each).map_err(|(game, message)| DataError {
        file: name.to_owned(),
        line: Some(game),
        format: Format::Viri,
        message,
    })
}

/// Reads every game of the viriformat file `path`, handing each to `each`;
/// returns how many. A game that does not decode is an error naming it.
pub fn read_games(path: &Path, each: impl FnMut(ViriGame)) -> Result<usize, DataError> {
    read_viri(&path.display().to_string(), open(path)?, each)
}

/// Reads every labelled position of `path` (see the module's formats),
/// handing each to `each`; returns how many. In text, blank lines and
/// lines starting with `#` are skipped; any other line that does not parse
/// is an error naming the file and line (or record, or game).
pub fn read(path: &Path, mut each: impl FnMut(Labelled)) -> Result<usize, DataError> {
    let name = path.display().to_string();
    let mut reader = open(path)?;
    match Format::of_path(path) {
        Format::Viri => {
            let mut count = 0;
            read_viri(&name, reader, |game| {
                for (pos, score) in game.trainable_positions() {
                    count += 1;
                    each(Labelled {
                        pos,
                        score,
                        result: game.result,
                    });
                }
            })?;
            return Ok(count);
        }
        Format::Binary => return read_binary(&name, reader, each),
        Format::Text => {}
    }
    let err = |line, message: String| DataError {
        file: name.clone(),
        line,
        format: Format::Text,
        message,
    };
    let mut count = 0;
    let mut buf = Vec::new();
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
            format: Format::Text,
            message: e.to_string(),
        })?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|message| DataError {
            file: name.into(),
            line: Some(i + 1),
            format: Format::Text,
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

    #[test]
    fn binary_records_are_read_and_a_cut_or_bad_one_is_named() {
        use super::super::marlinformat::pack;
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        ];
        let mut bytes = Vec::new();
        for (i, fen) in fens.iter().enumerate() {
            let pos = movegen::Position::from_fen(fen).unwrap();
            bytes.extend_from_slice(&pack(&pos, 10 * i as i32, 0.5));
        }
        let mut got = Vec::new();
        assert_eq!(
            read_binary("d.bin", &bytes[..], |l| got.push(l)).unwrap(),
            2
        );
        assert_eq!(got[1].pos.fen(), fens[1]);
        assert_eq!((got[1].score, got[1].result), (10, 0.5));

        let e = read_binary("d.bin", &bytes[..40], |_| {}).unwrap_err();
        assert_eq!(
            e.to_string(),
            "d.bin: record 2: cut short: 8 of its 32 bytes (a truncated file?)"
        );
        let mut bad = bytes.clone();
        bad[32 + 30] = 9;
        let e = read_binary("d.bin", &bad[..], |_| {}).unwrap_err();
        assert_eq!(e.to_string(), "d.bin: record 2: result 9 is not 0, 1 or 2");
    }

    #[test]
    fn packed_files_read_as_their_plain_selves() {
        use super::super::marlinformat::pack;
        use std::io::Write;
        let dir = std::env::temp_dir().join(format!("nnue-read-packed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pos = movegen::Position::from_fen("8/8/8/4k3/8/8/8/3QK3 w - - 0 1").unwrap();
        let record = pack(&pos, 900, 1.0);
        let plain = [record, record].concat();
        let xz = |bytes: &[u8]| {
            let mut w = liblzma::write::XzEncoder::new(Vec::new(), 6);
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        };
        let gz = |bytes: &[u8]| {
            let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            w.write_all(bytes).unwrap();
            w.finish().unwrap()
        };
        // Two xz streams one after the other read as one file, as `xz -d` does.
        let two_streams = [xz(&plain[..32]), xz(&plain[32..])].concat();
        for (name, bytes) in [
            ("a.bin", plain.clone()),
            ("a.bin.xz", xz(&plain)),
            ("b.bin.xz", two_streams),
            ("a.bin.gz", gz(&plain)),
        ] {
            let path = dir.join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(Format::of_path(&path), Format::Binary, "{name}");
            let mut got = Vec::new();
            assert_eq!(read(&path, |l| got.push(l.score)).unwrap(), 2, "{name}");
            assert_eq!(got, [900, 900], "{name}");
        }
        // A plain record file whose board begins with gzip's two bytes
        // (a1-e1 and a2, b2, d2, h2 occupied) is records, not gzip.
        let gzip_like = pack(
            &movegen::Position::from_fen("4k3/8/8/8/8/8/PP1P3P/RNBQK3 w Q - 0 1").unwrap(),
            5,
            0.5,
        );
        assert_eq!(gzip_like[..2], [0x1f, 0x8b]);
        let path = dir.join("board.bin");
        std::fs::write(&path, gzip_like).unwrap();
        assert_eq!(read(&path, |_| {}).unwrap(), 1);
        let text = "8/8/8/4k3/8/8/8/3QK3 w - - 0 1 | 900 | 1.0\n";
        let path = dir.join("t.txt.xz");
        std::fs::write(&path, xz(text.as_bytes())).unwrap();
        assert_eq!(read(&path, |_| {}).unwrap(), 1);
        // A cut xz file is an error naming it, not a short read.
        let path = dir.join("cut.bin.xz");
        let whole = xz(&plain);
        std::fs::write(&path, &whole[..whole.len() - 8]).unwrap();
        let e = read(&path, |_| {}).unwrap_err();
        assert!(
            e.to_string().starts_with(&path.display().to_string()),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
