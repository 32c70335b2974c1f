//! The experiment's plot, a hand-written SVG: Elo against log2 of the speed
//! ratio, with the calibration line and its band, each method's predicted
//! point, the time-odds points and the direct check.

use std::fmt::Write;

use crate::Report;
use crate::text::{factor_list, signed};
use matches::report::summary;
use matches::stats::Interval;

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

/// A point of the plot with its bars.
struct Mark {
    x: f64,
    /// The horizontal bar (speed interval), if any.
    xs: Option<(f64, f64)>,
    y: Interval,
    label: String,
}

/// The plot: Elo against log2 of the speed (or time) ratio. The
/// calibration line of each time control with the 95% band of the first,
/// the time-odds points, each method's predicted effect (vertical bar: its
/// Elo interval; horizontal bar: its speed interval) and the direct check.
pub fn svg(report: &Report) -> String {
    const W: f64 = 900.0;
    const H: f64 = 600.0;
    const L: f64 = 90.0;
    const R: f64 = 870.0;
    const T: f64 = 80.0;
    const B: f64 = 500.0;
    let o = &report.options;
    let tcs = report.calibration_tcs();
    let colours = ["#4e79a7", "#f28e2b"];
    // What is drawn, and what is left out for want of games.
    let mut left_out: Vec<String> = Vec::new();
    let mut odds_marks: Vec<(usize, Mark)> = Vec::new();
    for m in &report.odds {
        let k = tcs.iter().position(|t| *t == m.tc).unwrap_or(0).min(1);
        let s = summary(&m.result);
        match s.elo {
            Some(e) => odds_marks.push((
                k,
                Mark {
                    x: m.factor.log2(),
                    xs: None,
                    y: e,
                    label: format!("{} ×{}", m.tc, m.factor),
                },
            )),
            None => left_out.push(format!(
                "time odds ×{} at {} ({})",
                m.factor,
                m.tc,
                s.too_few.map_or("no result".into(), |w| w.to_string())
            )),
        }
    }
    let mut method_marks = Vec::new();
    for m in &report.methods {
        if let (Some(p), Some(sp)) = (report.predicted(m), m.speed()) {
            method_marks.push(Mark {
                x: sp.log2,
                xs: Some((sp.log2 - sp.half_width, sp.log2 + sp.half_width)),
                y: p,
                label: m.method.clone(),
            });
        }
    }
    let direct_mark = report.direct.as_ref().and_then(|d| {
        let sp = report.speed_between(&d.slow, &d.fast)?;
        let s = summary(&d.result);
        match s.elo {
            Some(e) => Some(Mark {
                x: sp.log2,
                xs: Some((sp.log2 - sp.half_width, sp.log2 + sp.half_width)),
                y: e,
                label: format!("direct: {} vs {}", d.slow, d.fast),
            }),
            None => {
                left_out.push(format!(
                    "direct check ({})",
                    s.too_few.map_or("no result".into(), |w| w.to_string())
                ));
                None
            }
        }
    });
    // The ranges: every mark with its bars, and zero.
    let all = odds_marks
        .iter()
        .map(|(_, m)| m)
        .chain(&method_marks)
        .chain(direct_mark.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (-1.0f64, 1.0f64, -50.0f64, 50.0f64);
    for m in all {
        let (a, b) = m.xs.unwrap_or((m.x, m.x));
        x0 = x0.min(a);
        x1 = x1.max(b);
        y0 = y0.min(m.y.lower);
        y1 = y1.max(m.y.upper);
    }
    let (xs, ys) = (nice_step(x1 - x0), nice_step(y1 - y0));
    let (x0, x1) = ((x0 / xs).floor() * xs, (x1 / xs).ceil() * xs);
    let (y0, y1) = ((y0 / ys).floor() * ys, (y1 / ys).ceil() * ys);
    let px = |x: f64| L + (x - x0) / (x1 - x0) * (R - L);
    let py = |y: f64| B - (y.clamp(y0, y1) - y0) / (y1 - y0) * (B - T);

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="20" y="28" font-size="17" font-weight="bold">Attack methods in {}: Elo against speed (baseline {})</text>"#,
        xml(&report.engine_name),
        xml(&report.baseline)
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="50" fill="#444">calibration: {} against itself with time factors {}; speed: {} bench pair(s) per method; {}{}</text>"##,
        xml(&report.baseline),
        factor_list(&o.factors),
        o.bench_pairs,
        report.date,
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    );
    // Grid and axes.
    let mut t = x0;
    while t <= x1 + xs / 2.0 {
        let x = px(t);
        let colour = if t.abs() < xs / 2.0 {
            "#777"
        } else {
            "#e4e4e4"
        };
        let _ = writeln!(
            s,
            r#"<line x1="{x:.1}" y1="{T}" x2="{x:.1}" y2="{B}" stroke="{colour}"/><text x="{x:.1}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
            B + 16.0,
            trim(t)
        );
        t += xs;
    }
    let mut t = y0;
    while t <= y1 + ys / 2.0 {
        let y = py(t);
        let colour = if t.abs() < ys / 2.0 {
            "#777"
        } else {
            "#e4e4e4"
        };
        let _ = writeln!(
            s,
            r#"<line x1="{L}" y1="{y:.1}" x2="{R}" y2="{y:.1}" stroke="{colour}"/><text x="{}" y="{:.1}" text-anchor="end" font-size="11">{}</text>"#,
            L - 6.0,
            y + 4.0,
            trim(t)
        );
        t += ys;
    }
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" text-anchor="middle" fill="#333">log2 of the speed ratio to {} (time odds: log2 of the time factor)</text>"##,
        (L + R) / 2.0,
        B + 36.0,
        xml(&report.baseline)
    );
    let _ = writeln!(
        s,
        r##"<text x="24" y="{}" text-anchor="middle" fill="#333" transform="rotate(-90 24 {})">Elo (95% intervals)</text>"##,
        (T + B) / 2.0,
        (T + B) / 2.0
    );
    // The calibration lines, the first with its band.
    for (k, tc) in tcs.iter().enumerate().take(2) {
        let Some(slope) = report.slope(tc) else {
            continue;
        };
        let i = slope.interval();
        if k == 0 {
            let _ = writeln!(
                s,
                r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{}" fill-opacity="0.15"/>"##,
                px(x0),
                py(i.lower * x0),
                px(0.0),
                py(0.0),
                px(x1),
                py(i.lower * x1),
                px(x1),
                py(i.upper * x1),
                px(0.0),
                py(0.0),
                px(x0),
                py(i.upper * x0),
                colours[0]
            );
        }
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2"{}><title>{tc}: {:.1} ± {:.1} Elo per doubling</title></line>"#,
            px(x0),
            py(i.value * x0),
            px(x1),
            py(i.value * x1),
            colours[k],
            if k == 1 {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            },
            i.value,
            i.error()
        );
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" fill="{}">{tc}: {:.0} ± {:.0} Elo per doubling</text>"#,
            L + 10.0,
            T + 16.0 + 16.0 * k as f64,
            colours[k],
            i.value,
            i.error()
        );
    }
    // Bars and points.
    let mut draw = |m: &Mark, colour: &str, shape: &str| {
        let (x, y) = (px(m.x), py(m.y.value));
        let _ = write!(
            s,
            r#"<g stroke="{colour}" stroke-width="1.5"><line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/>"#,
            py(m.y.lower),
            py(m.y.upper)
        );
        if let Some((a, b)) = m.xs {
            let _ = write!(
                s,
                r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
                px(a),
                px(b)
            );
        }
        s.push_str("</g>");
        let title = format!(
            "{}: {} Elo, 95% [{:.1}, {:.1}]",
            m.label,
            signed(m.y.value),
            m.y.lower,
            m.y.upper
        );
        let _ = match shape {
            "square" => writeln!(
                s,
                r#"<rect x="{:.1}" y="{:.1}" width="8" height="8" fill="{colour}"><title>{}</title></rect>"#,
                x - 4.0,
                y - 4.0,
                xml(&title)
            ),
            "diamond" => writeln!(
                s,
                r#"<polygon points="{x:.1},{:.1} {:.1},{y:.1} {x:.1},{:.1} {:.1},{y:.1}" fill="{colour}"><title>{}</title></polygon>"#,
                y - 5.0,
                x + 5.0,
                y + 5.0,
                x - 5.0,
                xml(&title)
            ),
            _ => writeln!(
                s,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="4.5" fill="{colour}"><title>{}</title></circle>"#,
                xml(&title)
            ),
        };
    };
    for (k, m) in &odds_marks {
        draw(m, colours[*k], if *k == 0 { "circle" } else { "square" });
    }
    for m in &method_marks {
        draw(m, "#222222", "diamond");
    }
    if let Some(m) = &direct_mark {
        draw(m, "#e15759", "circle");
    }
    // Method labels, staggered so that close points stay readable.
    for (i, m) in method_marks.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="10" fill="#222">{}</text>"##,
            px(m.x) + 7.0,
            py(m.y.value) - 6.0 - 10.0 * (i % 3) as f64,
            xml(&m.label)
        );
    }
    if let Some(m) = &direct_mark {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="11" fill="#e15759">{}</text>"##,
            px(m.x) + 8.0,
            py(m.y.value) + 14.0,
            xml(&m.label)
        );
    }
    let legend = format!(
        "● time-odds points ({})   ◆ methods: predicted Elo (speed interval across)   ● red: direct check, measured",
        tcs.iter()
            .take(2)
            .map(|t| t.to_string())
            .collect::<Vec<_>>()
            .join("; ■ ")
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="{}" font-size="11" fill="#444">{}</text>"##,
        H - 40.0,
        xml(&legend)
    );
    let _ = writeln!(
        s,
        r##"<text x="20" y="{}" font-size="11" fill="#777">{}</text>"##,
        H - 20.0,
        xml(&if left_out.is_empty() {
            String::from("every measurement is drawn")
        } else {
            format!(
                "not drawn, too few games for an interval: {}",
                left_out.join("; ")
            )
        })
    );
    s.push_str("</svg>\n");
    s
}

/// A tick label: no trailing zeros.
fn trim(x: f64) -> String {
    let t = format!("{x:.2}");
    let t = t.trim_end_matches('0').trim_end_matches('.');
    if t == "-0" { "0".into() } else { t.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn axis_steps_and_tick_labels() {
        assert_eq!(nice_step(10.0), 2.0);
        assert_eq!(nice_step(37.0), 10.0);
        assert_eq!(nice_step(120.0), 50.0);
        assert_eq!(nice_step(400.0), 100.0);
        assert_eq!(trim(0.5), "0.5");
        assert_eq!(trim(-0.0), "0");
        assert_eq!(trim(100.0), "100");
    }
}
