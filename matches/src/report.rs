//! The end-of-match summary, as text for people and JSON for programs
//! (hand-written: a dozen fields do not need a serialisation crate).

use std::fmt::Write;

use crate::game::Failure;
use crate::sprt::Sprt;
use crate::stats::{Interval, Summary};
use crate::tournament::{MatchResult, StopReason};

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
    let width = r.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
    let _ = writeln!(
        o,
        "{:<22}{:>w$}  {:>w$}",
        "Games lost by failing",
        r.names[0],
        r.names[1],
        w = width
    );
    for f in Failure::ALL {
        let _ = writeln!(
            o,
            "  {:<20}{:>w$}  {:>w$}",
            failure_label(f),
            r.failures_of(0, f),
            r.failures_of(1, f),
            w = width
        );
    }
    if r.peak_memory_kib.iter().any(Option::is_some) {
        let mib = |k: Option<u64>| k.map_or("-".into(), |k| format!("{:.1}", k as f64 / 1024.0));
        let _ = writeln!(
            o,
            "  {:<20}{:>w$}  {:>w$}",
            "peak memory (MiB)",
            mib(r.peak_memory_kib[0]),
            mib(r.peak_memory_kib[1]),
            w = width
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

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A JSON number (`null` when not finite).
pub fn json_number(x: f64) -> String {
    if x.is_finite() {
        let s = format!("{x:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" { "0".into() } else { s.to_string() }
    } else {
        "null".into()
    }
}

fn json_interval(i: Option<Interval>) -> String {
    match i {
        Some(i) => format!(
            "{{\"value\": {}, \"error\": {}, \"lower\": {}, \"upper\": {}}}",
            json_number(i.value),
            json_number(i.error()),
            json_number(i.lower),
            json_number(i.upper)
        ),
        None => "null".into(),
    }
}

/// The machine-readable summary.
pub fn json(r: &MatchResult, sprt: Option<&Sprt>) -> String {
    let s = summary(r);
    let mut o = String::from("{\n");
    let mut field = |k: &str, v: String| {
        let _ = writeln!(o, "  {}: {v},", json_string(k));
    };
    field(
        "engines",
        format!(
            "[{}, {}]",
            json_string(&r.names[0]),
            json_string(&r.names[1])
        ),
    );
    field(
        "limits",
        format!(
            "[{}, {}]",
            json_string(&r.limits[0]),
            json_string(&r.limits[1])
        ),
    );
    field("games", r.wdl.games().to_string());
    field("wins", r.wdl.wins.to_string());
    field("draws", r.wdl.draws.to_string());
    field("losses", r.wdl.losses.to_string());
    field("points", json_number(r.wdl.points()));
    let p = r.pairs.pentanomial();
    field(
        "pentanomial",
        format!("[{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]),
    );
    field(
        "pairs",
        format!(
            "{{\"ll\": {}, \"ld\": {}, \"wl\": {}, \"dd\": {}, \"wd\": {}, \"ww\": {}}}",
            r.pairs.ll, r.pairs.ld, r.pairs.wl, r.pairs.dd, r.pairs.wd, r.pairs.ww
        ),
    );
    field(
        "model",
        json_string(if s.pentanomial() {
            "pentanomial"
        } else {
            "trinomial"
        }),
    );
    field("elo", json_interval(s.elo));
    field("elo_trinomial", json_interval(s.elo_trinomial));
    field("nelo", json_interval(s.nelo));
    field("los", s.los.map_or("null".into(), json_number));
    field(
        "too_few_games",
        s.too_few
            .map_or("null".into(), |why| json_string(&why.to_string())),
    );
    field("draw_ratio", json_number(s.draw_ratio()));
    let sprt_json = match sprt {
        Some(sp) => {
            let llr = r.llr.unwrap_or(0.0);
            format!(
                "{{\"model\": {}, \"elo0\": {}, \"elo1\": {}, \"alpha\": {}, \"beta\": {}, \
                 \"llr\": {}, \"lower_bound\": {}, \"upper_bound\": {}, \"decision\": {}}}",
                json_string(sp.model.name()),
                json_number(sp.elo0),
                json_number(sp.elo1),
                json_number(sp.alpha),
                json_number(sp.beta),
                json_number(llr),
                json_number(sp.lower_bound()),
                json_number(sp.upper_bound()),
                json_string(match sp.decision(llr) {
                    crate::sprt::Decision::Continue => "continue",
                    crate::sprt::Decision::AcceptH0 => "H0",
                    crate::sprt::Decision::AcceptH1 => "H1",
                })
            )
        }
        None => "null".into(),
    };
    field("sprt", sprt_json);
    let failures = (0..2)
        .map(|i| {
            let kinds: Vec<String> = Failure::ALL
                .iter()
                .map(|&f| format!("{}: {}", json_string(f.name()), r.failures_of(i, f)))
                .collect();
            format!("{}: {{{}}}", json_string(&r.names[i]), kinds.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ");
    field("failures", format!("{{{failures}}}"));
    let memory = (0..2)
        .map(|i| {
            let kib = r.peak_memory_kib[i].map_or("null".into(), |k| k.to_string());
            format!("{}: {kib}", json_string(&r.names[i]))
        })
        .collect::<Vec<_>>()
        .join(", ");
    field("peak_memory_kib", format!("{{{memory}}}"));
    let terms: Vec<String> = r
        .terminations
        .iter()
        .map(|(k, v)| format!("{}: {v}", json_string(k)))
        .collect();
    field("terminations", format!("{{{}}}", terms.join(", ")));
    let stop = match &r.stop {
        StopReason::Completed => "completed".to_string(),
        StopReason::Sprt(_) => "sprt".into(),
        StopReason::Interrupted => "interrupted".into(),
        StopReason::Error(_) => "error".into(),
    };
    field("stop", json_string(&stop));
    if let StopReason::Error(e) = &r.stop {
        field("error", json_string(e));
    }
    field("seed", r.seed.to_string());
    let _ = writeln!(
        o,
        "  \"duration_seconds\": {}",
        json_number(r.duration.as_secs_f64())
    );
    o.push('}');
    o
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
    fn json_helpers() {
        assert_eq!(json_string("a\"b\\c\nd\u{1}"), r#""a\"b\\c\nd\u0001""#);
        assert_eq!(json_number(0.25), "0.25");
        assert_eq!(json_number(-3.0), "-3");
        assert_eq!(json_number(f64::NAN), "null");
        assert_eq!(json_number(-0.0000001), "0");
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
        assert!(t.contains("crashes"), "{t}");
        assert!(t.contains("peak memory (MiB)"), "{t}");
        assert!(t.contains("20.0"), "{t}");
        assert!(t.contains("LLR 0.25 (-2.94, 2.94)"), "{t}");
        let j = json(&r, Some(&sprt));
        assert!(
            j.starts_with("{\n  \"engines\": [\"A\", \"B \\\"2\\\"\"],"),
            "{j}"
        );
        assert!(j.contains("\"pentanomial\": [0, 0, 2, 1, 0],"), "{j}");
        assert!(j.contains("\"B \\\"2\\\"\": {\"time_losses\": 0, \"illegal_moves\": 0, \"crashes\": 1, \"stalls\": 0}"), "{j}");
        assert!(j.contains("\"stop\": \"sprt\","), "{j}");
        assert!(
            j.contains("\"peak_memory_kib\": {\"A\": 20480, \"B \\\"2\\\"\": null},"),
            "{j}"
        );
        assert!(j.ends_with("\"duration_seconds\": 1.5\n}"), "{j}");
        // Three pairs: too few for an interval, and the line says so.
        assert!(
            progress_line(&r, Some(&sprt))
                .starts_with("A vs B \"2\": +2 =3 -1  Elo: too few games (3 pairs; 10 needed)"),
            "{}",
            progress_line(&r, Some(&sprt))
        );
        assert!(
            j.contains("\"too_few_games\": \"too few games (3 pairs; 10 needed)\","),
            "{j}"
        );
        assert!(j.contains("\"elo\": null,"), "{j}");
        assert!(
            t.contains("Elo:  too few games (3 pairs; 10 needed)"),
            "{t}"
        );
    }
}
