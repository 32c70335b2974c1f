//! What the experiment asks the engine: its name, attack methods and
//! evaluation (`uci`, `--version`) and its speed (`borrow bench`).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

/// The evaluation a run measured: the default of the engine's `Evaluation`
/// option and the SHA-256 of its built-in net, as far as the engine says.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Evaluation {
    /// The `Evaluation` option's default (`nnue`, `classical`); `None` for
    /// an engine without the option, or results that do not say.
    pub kind: Option<String>,
    /// The built-in net's SHA-256 from `<engine> --version`; `None` where
    /// it does not give one (an engine from before nets were named).
    pub net_sha256: Option<String>,
}

impl Evaluation {
    /// `nnue cf507a34`, `classical`, `unknown`: the kind with the net's
    /// first eight hex digits, for labels.
    pub fn short(&self) -> String {
        let kind = self.kind.as_deref().unwrap_or("unknown");
        match &self.net_sha256 {
            Some(h) => format!("{kind} {}", &h[..h.len().min(8)]),
            None => kind.into(),
        }
    }
}

impl std::fmt::Display for Evaluation {
    /// `nnue (net sha256 <64 hex digits>)`, `classical`, or `unknown`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.kind.as_deref().unwrap_or("unknown"))?;
        match &self.net_sha256 {
            Some(h) => write!(f, " (net sha256 {h})"),
            None => Ok(()),
        }
    }
}

/// What the engine says about itself in answer to `uci`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    /// `id name`.
    pub name: String,
    /// The values of the `AttackMethod` combo option, in its order.
    pub methods: Vec<String>,
    /// Its default.
    pub default_method: String,
    /// The evaluation: the `Evaluation` option's default from `uci`, the
    /// net from `--version` ([`query_engine`] asks both).
    pub evaluation: Evaluation,
}

/// A combo option's line: its values, in order, and its default.
fn combo(line: &str) -> (Vec<String>, Option<String>) {
    let words: Vec<&str> = line.split_ascii_whitespace().collect();
    let mut values = Vec::new();
    let mut default = None;
    for w in words.windows(2) {
        match w[0] {
            "var" => values.push(w[1].to_string()),
            "default" => default = Some(w[1].to_string()),
            _ => {}
        }
    }
    (values, default)
}

/// Reads an engine's `uci` answer (up to `uciok`).
pub fn parse_uci_answer(text: &str) -> Result<EngineInfo, String> {
    let mut name = String::new();
    let mut methods_line = None;
    let mut evaluation_line = None;
    for line in text.lines() {
        let line = line.trim();
        if let Some(n) = line.strip_prefix("id name ") {
            name = n.trim().to_string();
        }
        if line.starts_with("option name AttackMethod ") {
            methods_line = Some(line.to_string());
        }
        if line.starts_with("option name Evaluation ") {
            evaluation_line = Some(line.to_string());
        }
        if line == "uciok" {
            break;
        }
    }
    let methods_line = methods_line.ok_or("the engine has no AttackMethod option")?;
    let (methods, default_method) = combo(&methods_line);
    if methods.is_empty() {
        return Err(format!("no methods in '{methods_line}'"));
    }
    Ok(EngineInfo {
        name,
        methods,
        default_method: default_method.unwrap_or_default(),
        evaluation: Evaluation {
            kind: evaluation_line.and_then(|l| combo(&l).1),
            net_sha256: None,
        },
    })
}

/// The built-in net's SHA-256 in `<engine> --version`'s answer (`Borrow
/// 0.1.0 (net sha256 <64 hex digits>)`), in lower case; `None` where
/// there is none.
pub fn parse_net_sha256(version: &str) -> Option<String> {
    let (_, after) = version.split_once("net sha256 ")?;
    let hex: String = after.chars().take_while(char::is_ascii_hexdigit).collect();
    (hex.len() == 64).then(|| hex.to_ascii_lowercase())
}

/// Asks the engine for its name, attack methods and evaluation.
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
    let mut info = parse_uci_answer(&text).map_err(|e| format!("{}: {e}", engine.display()))?;
    // An engine that does not know `--version` reads no UCI command from
    // the empty input and ends: no net named.
    info.evaluation.net_sha256 = Command::new(engine)
        .arg("--version")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()
        .and_then(|o| parse_net_sha256(&String::from_utf8_lossy(&o.stdout)));
    Ok(info)
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
        // No Evaluation option (an engine from before the net): unknown.
        assert_eq!(info.evaluation, Evaluation::default());
        assert_eq!(info.evaluation.to_string(), "unknown");
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

    #[test]
    fn the_evaluation_from_uci_and_version() {
        let answer = "id name Borrow 0.1.0\n\
            option name AttackMethod type combo default magic var magic var pext\n\
            option name Evaluation type combo default nnue var nnue var classical\n\
            option name EvalFile type string default <empty>\n\
            uciok\n";
        let info = parse_uci_answer(answer).unwrap();
        assert_eq!(info.evaluation.kind.as_deref(), Some("nnue"));
        assert_eq!(
            info.evaluation.net_sha256, None,
            "uci does not name the net"
        );
        let hex = "cf507a34a16e204228bdcaa48df4330c575c20e427c8135f7f17415620f9d597";
        for version in [
            format!("Borrow 0.1.0 (net sha256 {hex})\n"),
            format!("Borrow 0.1.0 (net sha256 {})", hex.to_uppercase()),
            format!("Borrow 0.2.0 (net sha256 {hex}, built 2027)\n"),
        ] {
            assert_eq!(
                parse_net_sha256(&version).as_deref(),
                Some(hex),
                "{version}"
            );
        }
        for version in [
            "Borrow 0.1.0\n",
            "",
            "Borrow 0.1.0 (net sha256 cf507a34)\n",
            &format!("Borrow 0.1.0 (net sha256 {hex}0)"),
            "id name Borrow 0.1.0\n",
        ] {
            assert_eq!(parse_net_sha256(version), None, "{version}");
        }
        let e = Evaluation {
            kind: Some("nnue".into()),
            net_sha256: Some(hex.into()),
        };
        assert_eq!(e.to_string(), format!("nnue (net sha256 {hex})"));
        assert_eq!(e.short(), "nnue cf507a34");
        let classical = Evaluation {
            kind: Some("classical".into()),
            net_sha256: None,
        };
        assert_eq!(
            (classical.to_string(), classical.short()),
            ("classical".into(), "classical".into())
        );
    }
}
