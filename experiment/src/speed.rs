//! The speed measurements: `borrow bench` and `perft` runs of each method
//! in pairs with the baseline (baseline, method, baseline, method, ...),
//! each run pinned to one core where `taskset` exists, so that the machine's
//! drift cancels within a pair.

use std::path::Path;
use std::process::{Command, Stdio};

use crate::model::SpeedRatio;
use crate::probe::{BenchRun, parse_bench};

/// One pair of runs: the baseline's, then the method's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunPair {
    /// The baseline's run.
    pub base: BenchRun,
    /// The method's run.
    pub method: BenchRun,
}

/// The speed ratio of the method to the baseline from its pairs (`None`
/// with fewer than [`SpeedRatio::MIN_PAIRS`]).
pub fn ratio(pairs: &[RunPair]) -> Option<SpeedRatio> {
    let base: Vec<f64> = pairs.iter().map(|p| p.base.nps as f64).collect();
    let other: Vec<f64> = pairs.iter().map(|p| p.method.nps as f64).collect();
    SpeedRatio::from_pairs(&base, &other)
}

/// `program args...`, pinned to the last core when `taskset` is there.
fn pinned(program: &Path) -> Command {
    let taskset = Path::new("/usr/bin/taskset");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if taskset.exists() {
        let mut c = Command::new(taskset);
        c.args(["-c", &(cores - 1).to_string()]).arg(program);
        c
    } else {
        Command::new(program)
    }
}

/// Runs `command` and reads its last line, `<nodes> nodes <nps> nps`.
fn run(mut command: Command, what: &str) -> Result<BenchRun, String> {
    let out = command
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("{what}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{what}: {} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    parse_bench(&String::from_utf8_lossy(&out.stdout)).map_err(|e| format!("{what}: {e}"))
}

/// `engine bench --method M [--depth D]`, pinned.
pub fn bench(engine: &Path, method: &str, depth: Option<u32>) -> Result<BenchRun, String> {
    let mut c = pinned(engine);
    c.args(["bench", "--method", method]);
    if let Some(d) = depth {
        c.args(["--depth", &d.to_string()]);
    }
    run(c, &format!("{} bench --method {method}", engine.display()))
}

/// `perft --method M --depth D` from the start position, pinned.
pub fn perft(perft: &Path, method: &str, depth: u32) -> Result<BenchRun, String> {
    let mut c = pinned(perft);
    c.args(["--method", method, "--depth", &depth.to_string()]);
    run(
        c,
        &format!("{} --method {method} --depth {depth}", perft.display()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ratio_from_pairs() {
        let pair = |b, m| RunPair {
            base: BenchRun { nodes: 10, nps: b },
            method: BenchRun { nodes: 10, nps: m },
        };
        // Every pair says twice as fast, whatever the machine did: the
        // ratio is exactly 2 with no spread.
        let pairs: Vec<RunPair> = [100, 80, 120, 90, 110]
            .iter()
            .map(|&b| pair(b, 2 * b))
            .collect();
        let r = ratio(&pairs).unwrap();
        assert!((r.log2 - 1.0).abs() < 1e-12);
        assert!(r.half_width.abs() < 1e-12);
        assert_eq!(ratio(&pairs[..4]), None);
    }
}
