//! The experiment's results as a Markdown table (also what the terminal
//! shows), JSON, and a hand-written SVG chart: bench speed as bars, Elo
//! against the baseline with its 95% interval as whiskers.

use std::fmt::Write;
use std::path::Path;

use super::{Identity, MethodResult, Report};
use serde_json::{Value, json};

use crate::report::{json_failures, json_interval, summary};
use crate::stats::{Interval, Summary};

/// Thousands separated by commas: `1752927` → `1,752,927`.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn signed(x: f64) -> String {
    if x.abs() < 0.05 {
        "0.0".into()
    } else {
        format!("{x:+.1}")
    }
}

/// `value ± error`, or why there is none.
fn interval(i: Option<Interval>, s: &Summary) -> String {
    match (i, s.too_few) {
        (Some(i), _) => format!("{} ± {:.1}", signed(i.value), i.error()),
        (None, Some(why)) => why.to_string(),
        (None, None) => "-".into(),
    }
}

/// The speed of `m` relative to the baseline's.
pub fn ratio(report: &Report, m: &MethodResult) -> Option<f64> {
    let base = report.baseline()?.nps();
    (base > 0 && !m.bench.is_empty()).then(|| m.nps() as f64 / base as f64)
}

/// The identity column's text.
pub fn identity_text(i: &Identity) -> String {
    match i {
        Identity::NotChecked => "not checked".into(),
        Identity::Baseline {
            deterministic: true,
            games,
        } => format!("baseline, deterministic ({games} games twice)"),
        Identity::Baseline {
            deterministic: false,
            games,
        } => format!("baseline, NOT deterministic ({games} games twice)"),
        Identity::Compared { games, differences } if differences.is_empty() => {
            format!("yes ({games} games)")
        }
        Identity::Compared { games, differences } => {
            format!("NO ({} of {games} games differ)", differences.len())
        }
    }
}

/// The cells of one row of the table.
fn row(report: &Report, m: &MethodResult) -> Vec<String> {
    let is_base = m.method == report.baseline;
    let mut cells = vec![
        format!("`{}`", m.method),
        m.bench_nodes().map_or("-".into(), grouped),
        if m.bench.is_empty() {
            "-".into()
        } else {
            grouped(m.nps())
        },
        ratio(report, m).map_or("-".into(), |r| format!("{r:.3}")),
    ];
    match &m.timed {
        Some(r) => {
            let s = summary(r);
            let fails: u64 = r.failures.iter().flatten().sum();
            cells.extend([
                interval(s.elo, &s),
                interval(s.nelo, &s),
                r.wdl.games().to_string(),
                format!("{}/{}/{}", r.wdl.wins, r.wdl.draws, r.wdl.losses),
                fails.to_string(),
            ]);
        }
        None => {
            let why = if is_base { "baseline" } else { "not played" };
            cells.extend([why.into(), "-".into(), "0".into(), "-".into(), "-".into()]);
        }
    }
    cells.push(identity_text(&m.identity));
    cells
}

/// The table's header.
fn header(report: &Report) -> Vec<String> {
    let o = &report.options;
    vec![
        "method".into(),
        "bench nodes".into(),
        "nps".into(),
        format!("nps / {}", report.baseline),
        format!("Elo vs {} (95%)", report.baseline),
        "nElo (95%)".into(),
        "games".into(),
        "W/D/L".into(),
        "failures".into(),
        format!("identical at nodes={}", o.nodes),
    ]
}

/// The results table in Markdown (the terminal shows the same text).
pub fn table(report: &Report) -> String {
    let mut rows = vec![header(report)];
    rows.extend(report.methods.iter().map(|m| row(report, m)));
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..rows[0].len()).map(width).collect();
    let numeric = |c: usize| (1..=3).contains(&c) || c == 6 || c == 8;
    let mut out = String::new();
    for (i, r) in rows.iter().enumerate() {
        out.push('|');
        for (c, cell) in r.iter().enumerate() {
            let pad = widths[c] - cell.chars().count();
            if numeric(c) && i > 0 {
                let _ = write!(out, " {}{cell} |", " ".repeat(pad));
            } else {
                let _ = write!(out, " {cell}{} |", " ".repeat(pad));
            }
        }
        out.push('\n');
        if i == 0 {
            out.push('|');
            for (c, w) in widths.iter().enumerate() {
                let dashes = "-".repeat((*w).max(3));
                if numeric(c) {
                    let _ = write!(out, " {}: |", &dashes[1..]);
                } else {
                    let _ = write!(out, " {dashes} |");
                }
            }
            out.push('\n');
        }
    }
    out
}

/// What the experiment ran with, in one paragraph.
pub fn settings(report: &Report) -> String {
    let o = &report.options;
    let adjudication = if o.adjudicate {
        "draw from move 34 after 8 moves within 20 cp, resign at 600 cp for 3 moves (two-sided)"
    } else {
        "none"
    };
    let maxmoves = o
        .maxmoves
        .map_or(String::new(), |n| format!(", draw after {n} moves"));
    format!(
        "Engine `{}` ({}), baseline `{}`. Bench: {} run(s) per method, interleaved, depth {}; \
         nps is the median. Timed games: tc={}, {} pair(s) per method, concurrency {}, \
         openings {} ({} positions, random order, seed {}), adjudication: {adjudication}{maxmoves}. \
         Identity: nodes={}, {} pair(s) per method, compared move by move with the \
         baseline's games from the same openings and colours. {}, {}{}.",
        o.engine.display(),
        report.engine_name,
        report.baseline,
        o.bench_runs,
        o.bench_depth
            .map_or("the engine's default".into(), |d| d.to_string()),
        o.tc,
        o.pairs,
        o.concurrency,
        o.openings
            .file_name()
            .map_or(o.openings.display().to_string(), |f| f
                .to_string_lossy()
                .into_owned()),
        report.openings,
        o.seed,
        o.nodes,
        o.identity_pairs,
        report.date,
        super::elapsed(report.duration),
        if report.interrupted {
            ", INTERRUPTED"
        } else {
            ""
        }
    )
}

/// The defects as a list (or a line saying there are none), then the
/// notes (time losses), if any.
pub fn defects(report: &Report) -> String {
    let mut s = if report.defects.is_empty() {
        "No defects: every bench node count is the same, every fixed-node game is identical \
         to the baseline's, and no engine crashed, stalled or made an illegal move.\n"
            .to_string()
    } else {
        let mut s = format!("Defects ({}):\n\n", report.defects.len());
        for d in &report.defects {
            let _ = writeln!(s, "- {d}");
        }
        s
    };
    if !report.notes.is_empty() {
        let _ = write!(
            s,
            "\nNotes ({}; time losses depend on the machine's load, see --timemargin):\n\n",
            report.notes.len()
        );
        for n in &report.notes {
            let _ = writeln!(s, "- {n}");
        }
    }
    s
}

/// The Markdown report: settings, table, defects and notes.
pub fn markdown(report: &Report) -> String {
    format!(
        "# Attack methods: speed and strength\n\n{}\n\n{}\n{}",
        settings(report),
        table(report),
        defects(report)
    )
}

fn json_method(report: &Report, m: &MethodResult) -> Value {
    let runs: Vec<Value> = m
        .bench
        .iter()
        .map(|b| json!({"nodes": b.nodes, "nps": b.nps}))
        .collect();
    let timed = m.timed.as_ref().map(|r| {
        let s = summary(r);
        json!({
            "elo": json_interval(s.elo),
            "nelo": json_interval(s.nelo),
            "los": s.los,
            "too_few_games": s.too_few.map(|why| why.to_string()),
            "games": r.wdl.games(),
            "wins": r.wdl.wins,
            "draws": r.wdl.draws,
            "losses": r.wdl.losses,
            "pentanomial": r.pairs.pentanomial(),
            "failures": json_failures(r),
            "seconds": r.duration.as_secs_f64(),
        })
    });
    let identity = match &m.identity {
        Identity::NotChecked => Value::Null,
        Identity::Baseline {
            deterministic,
            games,
        } => json!({"baseline": true, "deterministic": deterministic, "games": games}),
        Identity::Compared { games, differences } => json!({
            "identical": differences.is_empty(),
            "games": games,
            "differences": differences,
        }),
    };
    json!({
        "method": m.method,
        "bench_runs": runs,
        "bench_nodes": m.bench_nodes(),
        "nps": (!m.bench.is_empty()).then(|| m.nps()),
        "nps_ratio": ratio(report, m),
        "timed": timed,
        "identity": identity,
    })
}

/// The machine-readable results.
pub fn json(report: &Report) -> String {
    let o = &report.options;
    let methods: Vec<Value> = report
        .methods
        .iter()
        .map(|m| json_method(report, m))
        .collect();
    let v = json!({
        "engine": o.engine.display().to_string(),
        "engine_name": report.engine_name,
        "baseline": report.baseline,
        "date": report.date,
        "seconds": report.duration.as_secs_f64(),
        "interrupted": report.interrupted,
        "tc": o.tc.to_string(),
        "pairs": o.pairs,
        "concurrency": o.concurrency,
        "timemargin_ms": o.timemargin.as_millis() as u64,
        "adjudication": o.adjudicate,
        "maxmoves": o.maxmoves,
        "nodes": o.nodes,
        "identity_pairs": o.identity_pairs,
        "bench_depth": o.bench_depth,
        "bench_runs": o.bench_runs,
        "openings": o.openings.display().to_string(),
        "openings_count": report.openings,
        "seed": o.seed,
        "quick": o.quick,
        "methods": methods,
        "defects": report.defects,
        "notes": report.notes,
    });
    let mut text = serde_json::to_string_pretty(&v)
        .unwrap_or_else(|e| unreachable!("a JSON value prints: {e}"));
    text.push('\n');
    text
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A round step for an axis reaching `range`: 1, 2 or 5 times a power of
/// ten, with at most five steps.
pub fn nice_step(range: f64) -> f64 {
    let range = range.max(1e-9);
    let mut step = 10f64.powf((range / 5.0).log10().floor());
    for k in [1.0, 2.0, 5.0, 10.0] {
        if range / (step * k) <= 5.0 {
            step *= k;
            break;
        }
    }
    step
}

/// The chart: per method, its bench speed as a bar (with the ratio to the
/// baseline) and its Elo against the baseline with the 95% interval.
pub fn svg(report: &Report) -> String {
    const LABEL: f64 = 260.0;
    const BAR_X: f64 = 270.0;
    const BAR_W: f64 = 240.0;
    const ELO_X: f64 = 640.0;
    const ELO_W: f64 = 320.0;
    const TOP: f64 = 100.0;
    const ROW: f64 = 28.0;
    let n = report.methods.len();
    let width = ELO_X + ELO_W + 100.0;
    let height = TOP + ROW * n as f64 + 70.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let o = &report.options;
    let _ = writeln!(
        s,
        r#"<text x="20" y="28" font-size="18" font-weight="bold">Attack methods in {}: speed and strength against {}</text>"#,
        xml(&report.engine_name),
        xml(&report.baseline)
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="50" fill="#444">bench: median of {} run(s){}; games: tc={}, {} pair(s) per method, {} openings; identity: nodes={}; {}{}</text>"##,
        o.bench_runs,
        o.bench_depth
            .map_or(String::new(), |d| format!(", depth {d}")),
        o.tc,
        o.pairs,
        report.openings,
        o.nodes,
        report.date,
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    );
    let _ = writeln!(
        s,
        r#"<text x="{BAR_X}" y="{}" font-weight="bold">bench speed (Mnps), ratio to {}</text>"#,
        TOP - 16.0,
        xml(&report.baseline)
    );
    let _ = writeln!(
        s,
        r#"<text x="{ELO_X}" y="{}" font-weight="bold">Elo vs {} (95% interval)</text>"#,
        TOP - 16.0,
        xml(&report.baseline)
    );

    // The Elo axis: symmetric around zero, round steps.
    let mut reach: f64 = 10.0;
    for m in &report.methods {
        if let Some(e) = m.timed.as_ref().and_then(|r| summary(r).elo) {
            reach = reach.max(e.lower.abs()).max(e.upper.abs());
        }
    }
    // At most five steps across the whole axis.
    let step = nice_step(2.0 * reach);
    let reach = (reach / step).ceil() * step;
    let x_of = |elo: f64| ELO_X + ELO_W / 2.0 + elo.clamp(-reach, reach) / reach * ELO_W / 2.0;
    let bottom = TOP + ROW * n as f64;
    let mut t = -reach;
    while t <= reach + step / 2.0 {
        let x = x_of(t);
        let colour = if t.abs() < step / 2.0 {
            "#555555"
        } else {
            "#dddddd"
        };
        let _ = writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{bottom}" stroke="{colour}"/>"#,
            TOP - 6.0
        );
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
            bottom + 16.0,
            if t.abs() < step / 2.0 {
                "0".to_string()
            } else {
                format!("{t:+}")
            }
        );
        t += step;
    }
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="middle" font-size="11" fill="#444">Elo (logistic, pentanomial); right: stronger than {}</text>"##,
        ELO_X + ELO_W / 2.0,
        bottom + 34.0,
        xml(&report.baseline)
    );

    let max_nps = report
        .methods
        .iter()
        .map(|m| m.nps())
        .max()
        .unwrap_or(1)
        .max(1) as f64;
    for (i, m) in report.methods.iter().enumerate() {
        let y = TOP + ROW * i as f64;
        let mid = y + ROW / 2.0;
        if i % 2 == 1 {
            let _ = writeln!(
                s,
                r##"<rect x="10" y="{y}" width="{}" height="{ROW}" fill="#f4f6f8"/>"##,
                width - 20.0
            );
        }
        let is_base = m.method == report.baseline;
        let (mark, mark_colour) = match m.identity.passed() {
            Some(true) => ("✓", "#1a7f37"),
            Some(false) => ("✗", "#cf222e"),
            None => ("", "#000000"),
        };
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end"{}>{}</text>"#,
            LABEL - 22.0,
            mid + 4.5,
            if is_base {
                r#" font-weight="bold""#
            } else {
                ""
            },
            xml(&m.method)
        );
        if !mark.is_empty() {
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{:.1}" text-anchor="end" fill="{mark_colour}"><title>identical at nodes={}: {}</title>{mark}</text>"#,
                LABEL - 4.0,
                mid + 4.5,
                o.nodes,
                xml(&identity_text(&m.identity))
            );
        }
        if !m.bench.is_empty() {
            let w = m.nps() as f64 / max_nps * BAR_W;
            let fill = if is_base { "#8c959f" } else { "#4e79a7" };
            let _ = writeln!(
                s,
                r#"<rect x="{BAR_X}" y="{:.1}" width="{w:.1}" height="{:.1}" fill="{fill}"><title>{}: {} nps</title></rect>"#,
                y + 5.0,
                ROW - 10.0,
                xml(&m.method),
                grouped(m.nps())
            );
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="11">{:.2} ({})</text>"#,
                BAR_X + w + 5.0,
                mid + 4.0,
                m.nps() as f64 / 1e6,
                ratio(report, m).map_or("-".into(), |r| format!("{r:.2}×"))
            );
        }
        match m.timed.as_ref().map(|r| (summary(r).elo, r.wdl.games())) {
            Some((Some(e), games)) => {
                let (x0, x1, x) = (x_of(e.lower), x_of(e.upper), x_of(e.value));
                let _ = writeln!(
                    s,
                    r##"<g stroke="#e15759" stroke-width="2"><line x1="{x0:.1}" y1="{mid:.1}" x2="{x1:.1}" y2="{mid:.1}"/><line x1="{x0:.1}" y1="{:.1}" x2="{x0:.1}" y2="{:.1}"/><line x1="{x1:.1}" y1="{:.1}" x2="{x1:.1}" y2="{:.1}"/></g>"##,
                    mid - 5.0,
                    mid + 5.0,
                    mid - 5.0,
                    mid + 5.0
                );
                let _ = writeln!(
                    s,
                    r##"<circle cx="{x:.1}" cy="{mid:.1}" r="4" fill="#e15759"><title>{}: {} Elo, 95% [{:.1}, {:.1}], {games} games</title></circle>"##,
                    xml(&m.method),
                    signed(e.value),
                    e.lower,
                    e.upper
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{:.1}" font-size="11">{} ± {:.0}</text>"#,
                    ELO_X + ELO_W + 6.0,
                    mid + 4.0,
                    signed(e.value),
                    e.error()
                );
            }
            other => {
                let why: String = match other {
                    Some(_) => m
                        .timed
                        .as_ref()
                        .and_then(|r| summary(r).too_few)
                        .map_or_else(|| "no games".into(), |why| why.to_string()),
                    None if is_base => "baseline".into(),
                    None => "not played".into(),
                };
                let _ = writeln!(
                    s,
                    r##"<text x="{}" y="{:.1}" text-anchor="middle" font-style="italic" fill="#777">{why}</text>"##,
                    ELO_X + ELO_W / 2.0,
                    mid + 4.5
                );
            }
        }
    }
    let _ = writeln!(
        s,
        r##"<text x="20" y="{}" font-size="11" fill="#444">✓ / ✗: games at nodes={} identical to the baseline's (for {}: the same when played twice)</text>"##,
        height - 12.0,
        o.nodes,
        xml(&report.baseline)
    );
    s.push_str("</svg>\n");
    s
}

/// Writes `results.json`, `results.md` and `results.svg` into `dir`.
pub fn write_all(report: &Report, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("results.json"), json(report))?;
    std::fs::write(dir.join("results.md"), markdown(report))?;
    std::fs::write(dir.join("results.svg"), svg(report))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{BenchRun, Options};
    use super::*;
    use crate::stats::{Pairs, Trinomial, Wdl};
    use crate::tournament::{MatchResult, StopReason};
    use std::time::Duration;

    fn report() -> Report {
        let mut pairs = Pairs::default();
        pairs.add(Wdl::Win, Wdl::Draw);
        pairs.add(Wdl::Loss, Wdl::Draw);
        pairs.add(Wdl::Win, Wdl::Win);
        let mut failures = [[0; 4]; 2];
        failures[1][0] = 1; // the baseline lost a game on time
        let timed = MatchResult {
            names: ["od".into(), "magic".into()],
            limits: ["5+0.05".into(), "5+0.05".into()],
            wdl: Trinomial {
                wins: 3,
                draws: 2,
                losses: 1,
            },
            pairs,
            failures,
            terminations: Default::default(),
            llr: None,
            stop: StopReason::Completed,
            duration: Duration::from_secs(60),
            seed: 1,
            games_per_round: 2,
            peak_memory_kib: [None; 2],
        };
        let bench = |nps| vec![BenchRun { nodes: 1000, nps }];
        Report {
            options: Options::default(),
            engine_name: "Borrow <test>".into(),
            openings: 3000,
            baseline: "magic".into(),
            methods: vec![
                MethodResult {
                    method: "od".into(),
                    bench: bench(900_000),
                    timed: Some(timed),
                    identity: Identity::Compared {
                        games: 8,
                        differences: Vec::new(),
                    },
                },
                MethodResult {
                    method: "magic".into(),
                    bench: bench(1_000_000),
                    timed: None,
                    identity: Identity::Baseline {
                        deterministic: true,
                        games: 8,
                    },
                },
                MethodResult {
                    method: "reference".into(),
                    bench: bench(500_000),
                    timed: None,
                    identity: Identity::Compared {
                        games: 8,
                        differences: vec!["opening 1: engine move 3 is a instead of b".into()],
                    },
                },
            ],
            defects: vec!["nodes=2000: not identical: \"quoted\"".into()],
            notes: vec!["tc=5+0.05: magic lost 1 game(s) by time losses".into()],
            date: "2026.01.01".into(),
            duration: Duration::from_secs(125),
            interrupted: false,
        }
    }

    #[test]
    fn table_json_and_chart() {
        let r = report();
        let t = table(&r);
        let rows: Vec<&str> = t.lines().collect();
        assert_eq!(rows.len(), 5, "{t}");
        assert!(rows[1].starts_with("| ---"), "{t}");
        assert!(rows[2].contains("| `od` "), "{t}");
        assert!(
            rows[2].contains("|     900,000 |") || rows[2].contains(" 900,000 |"),
            "{t}"
        );
        assert!(rows[2].contains(" 0.900 |"), "{t}");
        assert!(rows[2].contains(" 3/2/1 "), "{t}");
        assert!(rows[2].contains(" yes (8 games) "), "{t}");
        assert!(rows[3].contains(" baseline "), "{t}");
        assert!(rows[4].contains(" not played "), "{t}");
        assert!(rows[4].contains("NO (1 of 8 games differ)"), "{t}");
        // Every row has the same width.
        assert!(
            rows.iter()
                .all(|l| l.chars().count() == rows[0].chars().count())
        );
        let md = markdown(&r);
        assert!(md.contains("Defects (1):"), "{md}");
        assert!(md.contains("Notes (1;"), "{md}");
        assert!(md.contains("2m05s"), "{md}");
        let text = json(&r);
        let j: Value = serde_json::from_str(&text).expect("valid JSON");
        let od = &j["methods"][0];
        assert_eq!(od["method"], "od", "{j}");
        assert_eq!(od["bench_runs"], json!([{"nodes": 1000, "nps": 900000}]));
        assert_eq!(od["nps_ratio"], 0.9);
        assert_eq!(od["timed"]["pentanomial"], json!([0, 1, 0, 1, 1]));
        assert_eq!(
            j["methods"][1]["identity"],
            json!({"baseline": true, "deterministic": true, "games": 8})
        );
        assert_eq!(j["methods"][2]["identity"]["identical"], false);
        assert_eq!(j["defects"][0], "nodes=2000: not identical: \"quoted\"");
        assert!(
            j["notes"][0]
                .as_str()
                .is_some_and(|n| n.starts_with("tc=5+0.05: magic lost 1")),
            "{j}"
        );
        assert!(text.ends_with("}\n"));
        let svg = svg(&r);
        assert!(svg.starts_with("<svg "));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Borrow &lt;test&gt;"), "text is escaped");
        // The one timed method has a few games: no point, and it says why.
        assert_eq!(svg.matches("<circle ").count(), 0, "no Elo point");
        assert!(svg.contains("too few games ("), "{svg}");
        assert!(svg.contains(">baseline</text>") && svg.contains(">not played</text>"));
        assert!(svg.contains("✗") && svg.contains("✓"));
    }

    #[test]
    fn numbers() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_752_927), "1,752,927");
        assert_eq!(signed(0.01), "0.0");
        assert_eq!(signed(-3.26), "-3.3");
        assert_eq!(nice_step(10.0), 2.0);
        assert_eq!(nice_step(37.0), 10.0);
        assert_eq!(nice_step(120.0), 50.0);
        assert_eq!(nice_step(400.0), 100.0);
    }
}
