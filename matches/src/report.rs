//! What a match produced ([`MatchResult`], which the tournament returns),
//! and the end-of-match summary of it, as text for people and JSON for
//! programs.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

use serde_json::{Value, json};

use crate::game::Failure;
use crate::sprt::{Decision, Sprt};
use crate::stats::{Interval, Pairs, Summary, Trinomial};

/// Why the match stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// All rounds were played.
    Completed,
    /// The SPRT decided.
    Sprt(Decision),
    /// Ctrl-C.
    Interrupted,
    /// An engine could not be (re)started, or another fatal error.
    Error(String),
}

/// Everything a match produced, for the reports.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchResult {
    /// The two engines' names.
    pub names: [String; 2],
    /// Their search limits.
    pub limits: [String; 2],
    /// The first engine's wins, draws and losses.
    pub wdl: Trinomial,
    /// The first engine's completed game pairs.
    pub pairs: Pairs,
    /// Per engine, the count of each [`Failure`] (in [`Failure::ALL`]
    /// order): games it lost by failing.
    pub failures: [[u64; 4]; 2],
    /// How games ended, by [`Termination::key`](crate::game::Termination::key).
    pub terminations: BTreeMap<&'static str, u64>,
    /// The SPRT's last log-likelihood ratio.
    pub llr: Option<f64>,
    /// Why the match stopped.
    pub stop: StopReason,
    /// Wall-clock time of the match.
    pub duration: Duration,
    /// The seed of the opening order.
    pub seed: u64,
    /// Games per round.
    pub games_per_round: usize,
    /// Per engine, the largest peak resident memory (KiB) of any of its
    /// processes, read after each game; `None` where it cannot be read.
    pub peak_memory_kib: [Option<u64>; 2],
}

impl MatchResult {
    /// The failures of engine `i` of the kind `f`.
    pub fn failures_of(&self, i: usize, f: Failure) -> u64 {
        let k = Failure::ALL.iter().position(|&x| x == f).unwrap_or(0);
        self.failures[i][k]
    }

    /// The SPRT's counts: pentanomial when games come in pairs.
    pub fn sprt_counts(&self) -> Vec<u64> {
        if self.games_per_round == 2 {
            self.pairs.pentanomial().to_vec()
        } else {
            self.wdl.counts().to_vec()
        }
    }
}

/// `value +/- error`, or why there is none.
fn pm(i: Option<Interval>, s: &Summary) -> String {
    match (i, s.too_few) {
        (Some(i), _) => format!("{:.2} +/- {:.2}", i.value, i.error()),
        (None, Some(why)) => why.to_string(),
        (None, None) => "-".into(),
    }
}

fn pct(x: f64) -> String {
    format!("{:.2} %", 100.0 * x)
}

/// The statistics of a result.
pub fn summary(r: &MatchResult) -> Summary {
    Summary::new(r.wdl, r.pairs)
}

/// One short line for the progress bar.
pub fn progress_line(r: &MatchResult, sprt: Option<&Sprt>) -> String {
    let s = summary(r);
    let mut line = format!(
        "{} vs {}: +{} ={} -{}",
        r.names[0], r.names[1], r.wdl.wins, r.wdl.draws, r.wdl.losses
    );
    if let Some(e) = s.elo {
        let _ = write!(line, "  Elo {:.1} +/- {:.1}", e.value, e.error());
    } else if let Some(why) = s.too_few {
        let _ = write!(line, "  Elo: {why}");
    }
    if let (Some(sprt), Some(llr)) = (sprt, r.llr) {
        let _ = write!(
            line,
            "  LLR {llr:.2} ({:.2}, {:.2})",
            sprt.lower_bound(),
            sprt.upper_bound()
        );
    }
    line
}

fn failure_label(f: Failure) -> &'static str {
    match f {
        Failure::TimeLoss => "time losses",
        Failure::IllegalMove => "illegal moves",
        Failure::Crash => "crashes",
        Failure::Stall => "stalls",
    }
}

fn stop_text(stop: &StopReason) -> String {
    match stop {
        StopReason::Completed => "all rounds played".into(),
        StopReason::Sprt(d) => format!("SPRT: {d}"),
        StopReason::Interrupted => "interrupted (Ctrl-C)".into(),
        StopReason::Error(e) => format!("error: {e}"),
    }
}

/// The games lost by failing: a table of the kinds that happened (each
/// engine's count in a column), or one line saying there were none.
fn failures_text(o: &mut String, r: &MatchResult) {
    let kinds: Vec<Failure> = Failure::ALL
        .into_iter()
        .filter(|&f| r.failures_of(0, f) + r.failures_of(1, f) > 0)
        .collect();
    if kinds.is_empty() {
        let _ = writeln!(o, "Games lost by failing: none");
        return;
    }
    let width = r.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        o,
        "{:<22}{:>w$}  {:>w$}",
        "Games lost by failing",
        r.names[0],
        r.names[1],
        w = width
    );
    for f in kinds {
        let _ = writeln!(
            o,
            "  {:<20}{:>w$}  {:>w$}",
            failure_label(f),
            r.failures_of(0, f),
            r.failures_of(1, f),
            w = width
        );
    }
}

/// The human-readable summary.
pub fn text(r: &MatchResult, sprt: Option<&Sprt>) -> String {
    let s = summary(r);
    let mut o = String::new();
    let games = r.wdl.games();
    let tc = if r.limits[0] == r.limits[1] {
        r.limits[0].clone()
    } else {
        format!("{} vs {}", r.limits[0], r.limits[1])
    };
    let _ = writeln!(o, "--------------------------------------------------");
    let _ = writeln!(
        o,
        "Results of {} vs {} ({tc}): {}, {}",
        r.names[0],
        r.names[1],
        book::plural(games as usize, "game"),
        book::plural(r.pairs.total() as usize, "pair")
    );
    let model = if s.pentanomial() {
        "pentanomial"
    } else {
        "trinomial"
    };
    let _ = writeln!(o, "Elo:  {} (95%, {model})", pm(s.elo, &s));
    if s.pentanomial() {
        let _ = writeln!(o, "Elo:  {} (95%, trinomial)", pm(s.elo_trinomial, &s));
    }
    let _ = writeln!(o, "nElo: {} (95%)", pm(s.nelo, &s));
    let _ = writeln!(
        o,
        "LOS: {}, draw ratio: {}",
        s.los.map_or("-".into(), pct),
        pct(s.draw_ratio())
    );
    let points = r.wdl.points();
    let _ = writeln!(
        o,
        "Games: {games}, wins: {}, losses: {}, draws: {}, points: {points:.1} ({})",
        r.wdl.wins,
        r.wdl.losses,
        r.wdl.draws,
        if games > 0 {
            pct(points / games as f64)
        } else {
            "-".into()
        }
    );
    if r.games_per_round == 2 {
        let p = r.pairs.pentanomial();
        let _ = writeln!(
            o,
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD: {}/{}",
            p[0], p[1], p[2], p[3], p[4], r.pairs.wl, r.pairs.dd
        );
    }
    if let Some(sprt) = sprt {
        let llr = r.llr.unwrap_or(0.0);
        let _ = writeln!(
            o,
            "SPRT ({} elo0={} elo1={} alpha={} beta={}): LLR {llr:.2} ({:.2}, {:.2}) - {}",
            sprt.model.name(),
            sprt.elo0,
            sprt.elo1,
            sprt.alpha,
            sprt.beta,
            sprt.lower_bound(),
            sprt.upper_bound(),
            sprt.decision(llr)
        );
    }
    failures_text(&mut o, r);
    if r.peak_memory_kib.iter().any(Option::is_some) {
        let mib = |k: Option<u64>| {
            k.map_or("unknown".into(), |k| {
                format!("{:.1} MiB", k as f64 / 1024.0)
            })
        };
        let _ = writeln!(
            o,
            "Peak memory: {} {}, {} {}",
            r.names[0],
            mib(r.peak_memory_kib[0]),
            r.names[1],
            mib(r.peak_memory_kib[1]),
        );
    }
    if !r.terminations.is_empty() {
        let t: Vec<String> = r
            .terminations
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        let _ = writeln!(o, "Terminations: {}", t.join(", "));
    }
    let _ = writeln!(
        o,
        "Stopped: {}; {:.1} s; seed {}",
        stop_text(&r.stop),
        r.duration.as_secs_f64(),
        r.seed
    );
    let _ = write!(o, "--------------------------------------------------");
    o
}

/// An interval as JSON (`null` when there is none).
pub fn json_interval(i: Option<Interval>) -> Value {
    i.map_or(
        Value::Null,
        |i| json!({"value": i.value, "error": i.error(), "lower": i.lower, "upper": i.upper}),
    )
}

/// Each engine's failures by kind, as a JSON object by engine name.
pub fn json_failures(r: &MatchResult) -> Value {
    let by_engine = (0..2).map(|i| {
        let kinds = Failure::ALL
            .iter()
            .map(|&f| (f.name().to_string(), json!(r.failures_of(i, f))));
        (r.names[i].clone(), Value::Object(kinds.collect()))
    });
    Value::Object(by_engine.collect())
}

/// The machine-readable summary.
pub fn json(r: &MatchResult, sprt: Option<&Sprt>) -> String {
    let s = summary(r);
    let sprt = sprt.map(|sp| {
        let llr = r.llr.unwrap_or(0.0);
        json!({
            "model": sp.model.name(),
            "elo0": sp.elo0,
            "elo1": sp.elo1,
            "alpha": sp.alpha,
            "beta": sp.beta,
            "llr": llr,
            "lower_bound": sp.lower_bound(),
            "upper_bound": sp.upper_bound(),
            "decision": match sp.decision(llr) {
                crate::sprt::Decision::Continue => "continue",
                crate::sprt::Decision::AcceptH0 => "H0",
                crate::sprt::Decision::AcceptH1 => "H1",
            },
        })
    });
    let memory = (0..2).map(|i| (r.names[i].clone(), json!(r.peak_memory_kib[i])));
    let stop = match &r.stop {
        StopReason::Completed => "completed",
        StopReason::Sprt(_) => "sprt",
        StopReason::Interrupted => "interrupted",
        StopReason::Error(_) => "error",
    };
    let mut v = json!({
        "engines": r.names,
        "limits": r.limits,
        "games": r.wdl.games(),
        "wins": r.wdl.wins,
        "draws": r.wdl.draws,
        "losses": r.wdl.losses,
        "points": r.wdl.points(),
        "pentanomial": r.pairs.pentanomial(),
        "pairs": {
            "ll": r.pairs.ll, "ld": r.pairs.ld, "wl": r.pairs.wl,
            "dd": r.pairs.dd, "wd": r.pairs.wd, "ww": r.pairs.ww,
        },
        "model": if s.pentanomial() { "pentanomial" } else { "trinomial" },
        "elo": json_interval(s.elo),
        "elo_trinomial": json_interval(s.elo_trinomial),
        "nelo": json_interval(s.nelo),
        "los": s.los,
        "too_few_games": s.too_few.map(|why| why.to_string()),
        "draw_ratio": s.draw_ratio(),
        "sprt": sprt,
        "failures": json_failures(r),
        "peak_memory_kib": Value::Object(memory.collect()),
        "terminations": r.terminations,
        "stop": stop,
        "error": match &r.stop {
            StopReason::Error(e) => Some(e),
            _ => None,
        },
        "seed": r.seed,
        "duration_seconds": r.duration.as_secs_f64(),
    });
    if v["error"].is_null()
        && let Some(o) = v.as_object_mut()
    {
        o.shift_remove("error");
    }
    serde_json::to_string_pretty(&v).unwrap_or_else(|e| unreachable!("a JSON value prints: {e}"))
}

/// Writes `text` to standard output, where a closed pipe (`| head -1`) is
/// no failure; `program` names the writer in the error line of any other.
pub fn print_stdout(program: &str, text: &str) -> std::process::ExitCode {
    use std::io::Write as _;
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("{program}: cannot write: {e}");
            std::process::ExitCode::from(2)
        }
        _ => std::process::ExitCode::SUCCESS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sprt::{Decision, EloModel};
    use crate::stats::{Pairs, Trinomial, Wdl};
    use std::collections::BTreeMap;
    use std::time::Duration;

    fn result() -> MatchResult {
        let mut pairs = Pairs::default();
        let mut wdl = Trinomial::default();
        for (a, b) in [
            (Wdl::Win, Wdl::Draw),
            (Wdl::Loss, Wdl::Win),
            (Wdl::Draw, Wdl::Draw),
        ] {
            pairs.add(a, b);
            wdl.add(a);
            wdl.add(b);
        }
        let mut failures = [[0; 4]; 2];
        failures[1][2] = 1;
        MatchResult {
            names: ["A".into(), "B \"2\"".into()],
            limits: ["10+0.1".into(), "10+0.1".into()],
            wdl,
            pairs,
            failures,
            terminations: BTreeMap::from([("checkmate", 4), ("crash", 1), ("repetition", 1)]),
            llr: Some(0.25),
            stop: StopReason::Sprt(Decision::AcceptH1),
            duration: Duration::from_millis(1500),
            seed: 7,
            games_per_round: 2,
            peak_memory_kib: [Some(20_480), None],
        }
    }

    #[test]
    fn summaries() {
        let r = result();
        let sprt = crate::sprt::Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        let t = text(&r, Some(&sprt));
        assert!(
            t.contains("Results of A vs B \"2\" (10+0.1): 6 games, 3 pairs"),
            "{t}"
        );
        assert!(t.contains("Ptnml(0-2): [0, 0, 2, 1, 0], WL/DD: 1/1"), "{t}");
        // Only the kinds of failure that happened, each engine's count in a column.
        assert!(
            t.contains("Games lost by failing      A   B \"2\"\n"),
            "{t}"
        );
        assert!(
            t.contains("\n  crashes                  0       1\n"),
            "{t}"
        );
        assert!(!t.contains("time losses"), "{t}");
        assert!(!t.contains("stalls"), "{t}");
        assert!(
            t.contains("Peak memory: A 20.0 MiB, B \"2\" unknown\n"),
            "{t}"
        );
        assert!(t.contains("LLR 0.25 (-2.94, 2.94)"), "{t}");
        let j: Value = serde_json::from_str(&json(&r, Some(&sprt))).expect("valid JSON");
        assert_eq!(j["engines"], json!(["A", "B \"2\""]));
        assert_eq!(j["pentanomial"], json!([0, 0, 2, 1, 0]));
        assert_eq!(
            j["failures"]["B \"2\""],
            json!({"time_losses": 0, "illegal_moves": 0, "crashes": 1, "stalls": 0})
        );
        assert_eq!(j["stop"], "sprt");
        assert!(j.get("error").is_none(), "{j}");
        assert_eq!(j["peak_memory_kib"], json!({"A": 20480, "B \"2\"": null}));
        assert_eq!(j["duration_seconds"], 1.5);
        assert_eq!(j["sprt"]["decision"], "continue");
        let keys: Vec<&String> = j.as_object().expect("an object").keys().collect();
        assert_eq!(keys.first().map(|k| k.as_str()), Some("engines"));
        assert_eq!(keys.last().map(|k| k.as_str()), Some("duration_seconds"));
        // Three pairs: too few for an interval, and the line says so.
        assert!(
            progress_line(&r, Some(&sprt))
                .starts_with("A vs B \"2\": +2 =3 -1  Elo: too few games (3 pairs; 10 needed)"),
            "{}",
            progress_line(&r, Some(&sprt))
        );
        assert_eq!(j["too_few_games"], "too few games (3 pairs; 10 needed)");
        assert!(j["elo"].is_null(), "{j}");
        assert!(
            t.contains("Elo:  too few games (3 pairs; 10 needed)"),
            "{t}"
        );
    }

    /// No failures, no table of zeros under an empty header.
    #[test]
    fn no_failures_is_one_line() {
        let mut r = result();
        r.failures = [[0; 4]; 2];
        r.peak_memory_kib = [None, None];
        let t = text(&r, None);
        assert!(t.contains("\nGames lost by failing: none\n"), "{t}");
        assert_eq!(t.matches("Games lost by failing").count(), 1, "{t}");
        for label in [
            "time losses",
            "illegal moves",
            "crashes",
            "stalls",
            "Peak memory",
        ] {
            assert!(!t.contains(label), "{label}: {t}");
        }
        // The JSON keeps every count, zeros included.
        let j: Value = serde_json::from_str(&json(&r, None)).expect("valid JSON");
        assert_eq!(
            j["failures"]["A"],
            json!({"time_losses": 0, "illegal_moves": 0, "crashes": 0, "stalls": 0})
        );
    }
}
