//! What the experiment asks the engine: its name and attack methods (`uci`)
//! and its speed (`borrow bench`).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// What the engine says about itself in answer to `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: String,
    /// The values of the `AttackMethod` combo option, in its order.
    pub methods: Vec<String>,
    /// Its default.
    pub default_method: String,
}

/// Reads an engine's `uci` answer (up to `uciok`).
pub fn parse_uci_answer(text: &str) -> Result<EngineInfo, String> {
    let mut name = String::new();
    let mut combo = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("id name ") {
            name = n.trim().to_string();
        }
        if line.starts_with("option name AttackMethod ") {
            combo = Some(line.to_string());
        }
        if line == "uciok" {
            break;
        }
    }
    let combo = combo.ok_or("the engine has no AttackMethod option")?;
    let words: Vec<&str> = combo.split_ascii_whitespace().collect();
    let mut methods = Vec::new();
    let mut default_method = String::new();
    for w in words.windows(2) {
        match w[0] {
            "var" => methods.push(w[1].to_string()),
            "default" => default_method = w[1].to_string(),
            _ => {}
        }
    }
    if methods.is_empty() {
        return Err(format!("no methods in '{combo}'"));
    }
    Ok(EngineInfo {
        name,
        methods,
        default_method,
    })
}

/// Asks the engine for its name and attack methods.
pub fn query_engine(engine: &Path) -> Result<EngineInfo, String> {
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{}: {e}", engine.display()))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let _ = writeln!(stdin, "uci");
    let _ = stdin.flush();
    let mut text = String::new();
    for line in BufReader::new(stdout).lines() {
        let Ok(line) = line else { break };
        let done = line.trim() == "uciok";
        text.push_str(&line);
        text.push('\n');
        if done {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    drop(stdin);
    let _ = child.wait();
    parse_uci_answer(&text).map_err(|e| format!("{}: {e}", engine.display()))
}

/// One `borrow bench` (or `perft`) run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BenchRun {
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
}

/// Reads the last line of `borrow bench`: `<nodes> nodes <nps> nps`.
pub fn parse_bench(stdout: &str) -> Result<BenchRun, String> {
    let last = stdout
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .ok_or("no output")?;
    match last.split_ascii_whitespace().collect::<Vec<_>>()[..] {
        [n, "nodes", s, "nps"] => match (n.parse(), s.parse()) {
            (Ok(nodes), Ok(nps)) => Ok(BenchRun { nodes, nps }),
            _ => Err(format!("unexpected last line '{last}'")),
        },
        _ => Err(format!("unexpected last line '{last}'")),
    }
}

/// The median of some numbers (the mean of the middle two for an even
/// count); 0 for none.
pub fn median(values: &[u64]) -> u64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    match v.len() {
        0 => 0,
        n if !n.is_multiple_of(2) => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_answers_and_bench_lines() {
        let answer = "id name Borrow 0.1.0\nid author x\n\
            option name Hash type spin default 16 min 1 max 65536\n\
            option name AttackMethod type combo default pext var obstruction-difference var magic var pext\n\
            uciok\n";
        let info = parse_uci_answer(answer).unwrap();
        assert_eq!(info.name, "Borrow 0.1.0");
        assert_eq!(info.methods, ["obstruction-difference", "magic", "pext"]);
        assert_eq!(info.default_method, "pext");
        assert!(parse_uci_answer("id name X\nuciok\n").is_err());
        assert_eq!(
            parse_bench("position  1 5 nodes x\n591094 nodes 1752927 nps\n\n").unwrap(),
            BenchRun {
                nodes: 591_094,
                nps: 1_752_927
            }
        );
        assert!(parse_bench("").is_err());
        assert!(parse_bench("1 nodes fast nps").is_err());
        assert_eq!(median(&[5, 1, 3]), 3);
        assert_eq!(median(&[4, 1, 3, 2]), 2);
        assert_eq!(median(&[]), 0);
    }
}
