//! The experiment's results as Markdown tables (also what the terminal
//! shows); [`write_all`] writes them with the JSON ([`crate::json`]) and
//! the plot ([`crate::plot`]).

use std::fmt::Write;
use std::path::Path;

use crate::model::{Slope, SpeedRatio};

use crate::text::{factor_list, grouped, signed};
use crate::{Identity, MethodResult, Report};

use matches::report::summary;
use matches::stats::Interval;

/// `ratio [lower, upper]`, or why there is none.
fn speed_cell(r: Option<SpeedRatio>, runs: usize) -> String {
    match r {
        Some(r) => {
            let i = r.ratio();
            format!("{:.3} [{:.3}, {:.3}]", i.value, i.lower, i.upper)
        }
        None if runs == 0 => "-".into(),
        None => format!(
            "too few runs ({runs} pair(s); {} needed)",
            SpeedRatio::MIN_PAIRS
        ),
    }
}

/// `value ± error` of an interval that may be missing.
fn pm(i: Option<Interval>, missing: &str) -> String {
    i.map_or(missing.into(), |i| {
        format!("{} ± {:.1}", signed(i.value), i.error())
    })
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

/// Why a method has no predicted Elo.
fn no_prediction(report: &Report, m: &MethodResult) -> String {
    if m.method == report.baseline {
        "baseline".into()
    } else if m.speed().is_none() {
        "no speed ratio".into()
    } else {
        "no calibration slope".into()
    }
}

/// The direct check's cell for `m`: the measured Elo in the slow method's
/// row, a pointer in the fast one's.
fn direct_cell(report: &Report, m: &MethodResult) -> String {
    let Some(d) = &report.direct else {
        return "-".into();
    };
    let s = summary(&d.result);
    if m.method == d.slow {
        let elo = match (s.elo, s.too_few) {
            (Some(e), _) => format!("{} ± {:.1}", signed(e.value), e.error()),
            (None, Some(why)) => why.to_string(),
            (None, None) => "-".into(),
        };
        format!("{elo} vs `{}`", d.fast)
    } else if m.method == d.fast {
        format!("(opponent of `{}`)", d.slow)
    } else {
        "-".into()
    }
}

/// The speed column's cell of `m`: its ratio to the baseline with the
/// 95% interval, `1` for the baseline.
pub(crate) fn speed_text(report: &Report, m: &MethodResult) -> String {
    if m.method == report.baseline {
        "1".into()
    } else {
        speed_cell(m.speed(), m.bench.len())
    }
}

/// The predicted Elo's cell of `m`: `value ± error`, or why there is none.
pub(crate) fn predicted_text(report: &Report, m: &MethodResult) -> String {
    pm(report.predicted(m), &no_prediction(report, m))
}

/// The cells of one row of the table.
fn row(report: &Report, m: &MethodResult) -> Vec<String> {
    let is_base = m.method == report.baseline;
    let nps = if is_base {
        report.baseline_nps()
    } else {
        m.nps()
    };
    let nodes = if is_base {
        report
            .methods
            .iter()
            .find_map(|x| x.bench.first().map(|p| p.base.nodes))
    } else {
        m.bench_nodes()
    };
    vec![
        format!("`{}`", m.method),
        nodes.map_or("-".into(), grouped),
        nps.map_or("-".into(), grouped),
        speed_text(report, m),
        if is_base {
            "1".into()
        } else {
            speed_cell(m.perft_speed(), m.perft.len())
        },
        predicted_text(report, m),
        direct_cell(report, m),
        identity_text(&m.identity),
    ]
}

/// The table's header.
fn header(report: &Report) -> Vec<String> {
    let o = &report.options;
    vec![
        "method".into(),
        "bench nodes".into(),
        "bench nps".into(),
        format!("speed / {} (95%)", report.baseline),
        format!("perft / {} (95%)", report.baseline),
        format!("predicted Elo vs {} (95%)", report.baseline),
        format!("direct Elo (95%, tc={})", o.tc),
        format!("identical at nodes={}", o.nodes),
    ]
}

/// Rows as a Markdown table, columns padded (numeric ones to the right).
pub(crate) fn markdown_table(rows: &[Vec<String>], numeric: &dyn Fn(usize) -> bool) -> String {
    let width = |c: usize| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0);
    let widths: Vec<usize> = (0..rows[0].len()).map(width).collect();
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

/// The results table in Markdown (the terminal shows the same text).
pub fn table(report: &Report) -> String {
    let mut rows = vec![header(report)];
    rows.extend(report.methods.iter().map(|m| row(report, m)));
    markdown_table(&rows, &|c| (1..=2).contains(&c))
}

/// The calibration: each time-odds point, then the slope at each time
/// control.
pub fn calibration(report: &Report) -> String {
    let b = &report.baseline;
    let mut rows = vec![vec![
        "tc".to_string(),
        "time factor".into(),
        "pairs".into(),
        "W/D/L".into(),
        format!("Elo vs {b} at factor 1 (95%)"),
    ]];
    for m in &report.odds {
        let s = summary(&m.result);
        rows.push(vec![
            m.tc.to_string(),
            format!("{}", m.factor),
            m.result.pairs.total().to_string(),
            format!(
                "{}/{}/{}",
                m.result.wdl.wins, m.result.wdl.draws, m.result.wdl.losses
            ),
            match (s.elo, s.too_few) {
                (Some(e), _) => format!("{} ± {:.1}", signed(e.value), e.error()),
                (None, Some(why)) => why.to_string(),
                (None, None) => "-".into(),
            },
        ]);
    }
    let mut out = String::new();
    if rows.len() > 1 {
        out = markdown_table(&rows, &|c| (1..=2).contains(&c));
        out.push('\n');
    }
    for tc in report.calibration_tcs() {
        let _ = writeln!(out, "Slope at {tc}: {}.", slope_text(report.slope(&tc)));
    }
    out
}

/// A calibration slope in words: `171.3 ± 54.0 Elo per doubling of time
/// (from 4 point(s); Birge ratio 1.75, error widened by it)`, or why there
/// is none.
pub(crate) fn slope_text(slope: Option<Slope>) -> String {
    let Some(s) = slope else {
        return "none (no calibration point with an interval)".into();
    };
    let i = s.interval();
    format!(
        "{:.1} ± {:.1} Elo per doubling of time (from {} point(s); Birge ratio {:.2}{})",
        i.value,
        i.error(),
        s.points,
        s.birge,
        if s.birge > 1.0 {
            ", error widened by it"
        } else {
            ""
        }
    )
}

/// The direct check in words: measured, predicted, and whether they agree.
pub fn direct(report: &Report) -> String {
    let Some(d) = &report.direct else {
        return "Direct check: not played.\n".into();
    };
    let s = summary(&d.result);
    let measured = match (s.elo, s.too_few) {
        (Some(e), _) => format!("{} ± {:.1} Elo", signed(e.value), e.error()),
        (None, Some(why)) => why.to_string(),
        (None, None) => "no result".into(),
    };
    let predicted = report
        .direct_predicted()
        .map_or("none (no slope or speed ratio)".into(), |p| {
            format!("{} ± {:.1} Elo", signed(p.value), p.error())
        });
    let verdict = match report.direct_agrees() {
        Some(true) => "The prediction lies inside the measured interval.",
        Some(false) => "The prediction lies OUTSIDE the measured interval.",
        None => "No verdict: the measurement or the prediction is missing.",
    };
    format!(
        "Direct check at {}: `{}` (slowest) against `{}` (fastest), {} games ({}/{}/{}): \
         measured {measured}; predicted {predicted}. {verdict}\n",
        report.options.tc,
        d.slow,
        d.fast,
        d.result.wdl.games(),
        d.result.wdl.wins,
        d.result.wdl.draws,
        d.result.wdl.losses
    )
}

/// `s` with its first letter upper-case.
fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
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
    let plan = report.plan.as_ref().map_or(String::new(), |p| {
        format!(
            " {}: {} pair(s) per calibration point at {}{}, {} direct pair(s).{}",
            capitalized(&o.plan_basis()),
            p.odds_pairs,
            o.tc,
            match o.tc2 {
                Some(tc2) if p.odds_pairs_tc2 > 0 => format!(" and {} at {tc2}", p.odds_pairs_tc2),
                _ => String::new(),
            },
            p.direct_pairs,
            p.notes
                .iter()
                .map(|n| format!(" Note: {n}."))
                .collect::<String>()
        )
    });
    format!(
        "Engine `{}` ({}), evaluation {}, baseline `{}`. Speed: {} pair(s) of runs per method (the baseline's \
         run, then the method's), `bench` at depth {} and perft {} from the start position, \
         pinned to one core; ratio and 95% interval from the pairs' log2 ratios (t \
         distribution). Calibration: time-odds matches of `{}` against itself, time factors \
         {}, at {}{}. Games: concurrency {}, openings {} ({} positions, random order, seed {}), \
         adjudication: {adjudication}{maxmoves}. Identity: nodes={}, {} pair(s) per method. \
         Prediction: slope × log2(speed ratio), 95% interval by the delta method (both \
         errors).{plan} {}, {}{}.",
        o.engine.display(),
        report.engine_name,
        report.evaluation,
        report.baseline,
        o.bench_pairs,
        o.bench_depth
            .map_or("the engine's default".into(), |d| d.to_string()),
        o.perft_depth,
        report.baseline,
        factor_list(&o.factors),
        o.tc,
        o.tc2.map_or(String::new(), |t| format!(
            " and factors {} at {t}",
            factor_list(&o.factors2)
        )),
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
        crate::elapsed(report.duration),
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

/// Everything for the terminal: settings, table, calibration, direct
/// check, defects.
pub fn text(report: &Report) -> String {
    format!(
        "{}\n\n{}\n{}\n{}\n{}",
        settings(report),
        table(report),
        calibration(report),
        direct(report),
        defects(report)
    )
}

/// The Markdown report, with the plot.
pub fn markdown(report: &Report) -> String {
    format!(
        "# Attack methods: speed and strength\n\n{}\n\n{}\n![Elo against speed](results.svg)\n\n\
         ## Calibration\n\n{}\n## Direct check\n\n{}\n## Defects\n\n{}",
        settings(report),
        table(report),
        calibration(report),
        direct(report),
        defects(report)
    )
}

/// Writes `results.json`, `results.md` and `results.svg` into `dir`.
pub fn write_all(report: &Report, dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    std::fs::write(dir.join("results.json"), crate::json::json(report))?;
    std::fs::write(dir.join("results.md"), markdown(report))?;
    std::fs::write(dir.join("results.svg"), crate::plot::svg(report))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixture::report;
    use serde_json::{Value, json};

    #[test]
    fn tables_text_and_json() {
        let r = report();
        let t = table(&r);
        let rows: Vec<&str> = t.lines().collect();
        assert_eq!(rows.len(), 6, "{t}");
        assert!(rows[1].starts_with("| ---"), "{t}");
        // od: 0.9 of the baseline's speed, a predicted loss; identical.
        assert!(rows[2].contains("| `od` "), "{t}");
        assert!(rows[2].contains(" 0.9"), "{t}");
        assert!(rows[2].contains(" yes (8 games) "), "{t}");
        assert!(rows[2].contains("(opponent of `reference`)"), "{t}");
        assert!(rows[3].contains(" baseline"), "{t}");
        // reference: the direct check, too few games to say.
        assert!(
            rows[4].contains("too few games (3 pairs; 10 needed) vs `od`"),
            "{t}"
        );
        assert!(rows[4].contains("NO (1 of 8 games differ)"), "{t}");
        // hq: three pairs of runs are too few for an interval.
        assert!(
            rows[5].contains("too few runs (3 pair(s); 5 needed)"),
            "{t}"
        );
        assert!(rows[5].contains("no speed ratio"), "{t}");
        assert!(
            rows.iter()
                .all(|l| l.chars().count() == rows[0].chars().count()),
            "{t}"
        );
        // The slope is positive (more time wins), and the predictions
        // follow it: od (slower) below zero, reference far below.
        let slope = r.slope(&r.options.tc).unwrap();
        assert!(slope.elo_per_doubling > 0.0, "{slope:?}");
        let od = r.predicted(&r.methods[0]).unwrap();
        let reference = r.predicted(&r.methods[2]).unwrap();
        assert!(reference.value < od.value && od.value < 0.0);
        let cal = calibration(&r);
        assert!(cal.contains("Slope at 5+0.05: "), "{cal}");
        assert!(
            cal.contains("Slope at 5+0.05: ") && cal.contains("(from 2 point(s)"),
            "{cal}"
        );
        let d = direct(&r);
        assert!(
            d.contains("`reference` (slowest) against `od` (fastest)"),
            "{d}"
        );
        assert!(d.contains("No verdict"), "{d}");
        let md = markdown(&r);
        assert!(md.contains("Defects (1):"), "{md}");
        assert!(md.contains("Notes (1;"), "{md}");
        assert!(md.contains("2m05s"), "{md}");
        assert!(md.contains("![Elo against speed](results.svg)"), "{md}");
        let text = crate::json::json(&r);
        let j: Value = serde_json::from_str(&text).expect("valid JSON");
        let od = &j["methods"][0];
        assert_eq!(od["method"], "od", "{j}");
        assert!(
            (od["speed"]["ratio"].as_f64().unwrap() - 0.9).abs() < 0.01,
            "{j}"
        );
        assert!(od["predicted_elo"]["value"].as_f64().unwrap() < 0.0, "{j}");
        assert_eq!(j["methods"][3]["speed"], Value::Null);
        assert_eq!(j["calibration"][0]["factor"], 0.5);
        assert_eq!(j["calibration"][0]["result"]["games"], 80);
        assert!(
            j["slopes"][0]["elo_per_doubling"]["value"]
                .as_f64()
                .unwrap()
                > 0.0
        );
        assert_eq!(j["direct"]["result"]["elo"], Value::Null);
        assert!(
            j["direct"]["result"]["too_few_games"]
                .as_str()
                .is_some_and(|s| s.starts_with("too few games")),
            "{j}"
        );
        assert_eq!(j["direct"]["prediction_inside"], Value::Null);
        assert_eq!(
            j["methods"][1]["identity"],
            json!({"baseline": true, "deterministic": true, "games": 8})
        );
        assert_eq!(j["defects"][0], "nodes=2000: not identical: \"quoted\"");
        // The evaluation measured, in the JSON and the report's first
        // sentence.
        let net = "cf507a34a16e204228bdcaa48df4330c575c20e427c8135f7f17415620f9d597";
        assert_eq!(j["evaluation"], json!({"kind": "nnue", "net_sha256": net}));
        assert!(
            md.contains(&format!(
                "(Borrow <test>), evaluation nnue (net sha256 {net}), baseline `magic`."
            )),
            "{md}"
        );
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn the_plot() {
        let r = report();
        let svg = crate::plot::svg(&r);
        assert!(svg.starts_with("<svg "));
        assert!(svg.trim_end().ends_with("</svg>"));
        assert!(svg.contains("Borrow &lt;test&gt;"), "text is escaped");
        // Two time-odds points, two predicted methods (hq has no interval),
        // no direct point (too few games), and the line with its band.
        assert_eq!(svg.matches("<circle ").count(), 2, "{svg}");
        assert_eq!(svg.matches("<polygon ").count(), 1 + 2, "{svg}");
        assert!(svg.contains("Elo per doubling"), "{svg}");
        assert!(
            svg.contains("not drawn, too few games for an interval: direct check (too few games"),
            "{svg}"
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(1_752_927), "1,752,927");
        assert_eq!(signed(0.01), "0.0");
        assert_eq!(signed(-3.26), "-3.3");
    }
}
