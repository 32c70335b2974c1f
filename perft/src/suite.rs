//! Perft suites: one-line EPD (`FEN ;D1 20 ;D2 400`) and shakmaty's block
//! format (`id`, `epd`, `perft <depth> <nodes>` lines).

use std::fmt;

/// One position and its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// A name: the `id` of a block, or `file:line` for EPD.
    pub name: String,
    /// The FEN (4 or 6 fields).
    pub fen: String,
    /// `(depth, nodes)` pairs, in file order.
    pub counts: Vec<(u32, u64)>,
}

/// A malformed line, with its line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SuiteError {}

fn parse_depth(part: &str, line: usize) -> Result<(u32, u64), SuiteError> {
    let err = || SuiteError {
        line,
        message: format!("expected 'D<depth> <nodes>', found '{part}'"),
    };
    let part = part.trim();
    let rest = part.strip_prefix('D').ok_or_else(err)?;
    let mut it = rest.split_whitespace();
    let depth = it.next().and_then(|d| d.parse().ok()).ok_or_else(err)?;
    let nodes = it.next().and_then(|n| n.parse().ok()).ok_or_else(err)?;
    if it.next().is_some() {
        return Err(err());
    }
    Ok((depth, nodes))
}

/// Parses a one-line EPD perft suite; blank lines and `#` comments are
/// skipped. `source` names the file in entry names.
pub fn parse_epd(text: &str, source: &str) -> Result<Vec<Entry>, SuiteError> {
    let mut entries = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let fen = parts.next().unwrap_or("").trim().to_owned();
        let counts = parts
            .filter(|p| !p.trim().is_empty())
            .map(|p| parse_depth(p, i + 1))
            .collect::<Result<Vec<_>, _>>()?;
        if counts.is_empty() {
            return Err(SuiteError {
                line: i + 1,
                message: "no ';D<depth> <nodes>' counts".into(),
            });
        }
        entries.push(Entry {
            name: format!("{source}:{}", i + 1),
            fen,
            counts,
        });
    }
    Ok(entries)
}

/// Parses shakmaty's block format. Blocks whose `id` is in `skip` are left out.
pub fn parse_blocks(text: &str, skip: &[&str]) -> Result<Vec<Entry>, SuiteError> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut current: Option<Entry> = None;
    let flush = |e: Option<Entry>, entries: &mut Vec<Entry>| {
        if let Some(e) = e
            && !skip.contains(&e.name.as_str())
        {
            entries.push(e);
        }
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                flush(current.take(), &mut entries);
                current = Some(Entry {
                    name: value.trim().to_owned(),
                    fen: String::new(),
                    counts: Vec::new(),
                });
            }
            "epd" => match current.as_mut() {
                Some(e) => e.fen = value.trim().to_owned(),
                None => {
                    return Err(SuiteError {
                        line: i + 1,
                        message: "'epd' before 'id'".into(),
                    });
                }
            },
            "perft" => {
                let (d, n) = parse_depth(&format!("D{value}"), i + 1)?;
                match current.as_mut() {
                    Some(e) => e.counts.push((d, n)),
                    None => {
                        return Err(SuiteError {
                            line: i + 1,
                            message: "'perft' before 'id'".into(),
                        });
                    }
                }
            }
            _ => {
                return Err(SuiteError {
                    line: i + 1,
                    message: format!("unknown keyword '{key}'"),
                });
            }
        }
    }
    flush(current.take(), &mut entries);
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epd_both_spacings() {
        let e = parse_epd(
            "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9\nk7/8/8/8/8/8/8/K7 b - - 0 1; D6 1134888\n",
            "x",
        )
        .unwrap();
        assert_eq!(e[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(e[1].counts, vec![(6, 1_134_888)]);
        assert_eq!(e[1].name, "x:2");
    }

    #[test]
    fn epd_errors_carry_line_numbers() {
        let err = parse_epd("\n8/8/8/8/8/8/8/K6k w - - 0 1 ;X1 3\n", "x").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(parse_epd("8/8/8/8/8/8/8/K6k w - - 0 1\n", "x").is_err());
    }

    #[test]
    fn blocks_with_skip() {
        let text = "# c\nid a\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3\n\nid b\nepd 8/8/8/8/8/8/8/K6k b - -\nperft 2 9\n";
        let e = parse_blocks(text, &["b"]).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].counts, vec![(1, 3)]);
        assert!(parse_blocks("perft 1 2\n", &[]).is_err());
    }
}
