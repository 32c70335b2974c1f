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

/// The colours a run is drawn in.
pub struct Palette {
    /// The calibration line (with its band) and time-odds points at the
    /// first time control, then at the second (its line dashed).
    pub tcs: [&'static str; 2],
    /// The methods' predictions and their labels.
    pub methods: &'static str,
    /// The direct check.
    pub direct: &'static str,
}

/// One run alone: the time controls blue and orange, the methods black,
/// the direct check red.
pub const ONE_RUN: Palette = Palette {
    tcs: ["#4e79a7", "#f28e2b"],
    methods: "#222222",
    direct: "#e15759",
};

/// Runs side by side: each in one colour (blue, then red); the second time
/// control's line is dashed, its points square.
pub const RUNS: [Palette; 2] = [
    Palette {
        tcs: ["#4e79a7", "#4e79a7"],
        methods: "#2b5d8a",
        direct: "#2b5d8a",
    },
    Palette {
        tcs: ["#e15759", "#e15759"],
        methods: "#b03a3c",
        direct: "#b03a3c",
    },
];

/// One run's marks, in its colours.
struct Layer<'a> {
    report: &'a Report,
    palette: &'a Palette,
    /// Before its texts: nothing for one run, `run 1: ` beside another.
    prefix: String,
    /// The time-odds points, each with its time control's index (0, 1).
    odds: Vec<(usize, Mark)>,
    methods: Vec<Mark>,
    direct: Option<Mark>,
    /// What is left out for want of games, in words.
    left_out: Vec<String>,
}

impl Layer<'_> {
    fn of<'a>(report: &'a Report, palette: &'a Palette, prefix: String) -> Layer<'a> {
        let tcs = report.calibration_tcs();
        let mut left_out: Vec<String> = Vec::new();
        let mut odds = Vec::new();
        for m in &report.odds {
            let k = tcs.iter().position(|t| *t == m.tc).unwrap_or(0).min(1);
            let s = summary(&m.result);
            match s.elo {
                Some(e) => odds.push((
                    k,
                    Mark {
                        x: m.factor.log2(),
                        xs: None,
                        y: e,
                        label: format!("{prefix}{} ×{}", m.tc, m.factor),
                    },
                )),
                None => left_out.push(format!(
                    "{prefix}time odds ×{} at {} ({})",
                    m.factor,
                    m.tc,
                    s.too_few.map_or("no result".into(), |w| w.to_string())
                )),
            }
        }
        let mut methods = Vec::new();
        for m in &report.methods {
            if let (Some(p), Some(sp)) = (report.predicted(m), m.speed()) {
                methods.push(Mark {
                    x: sp.log2,
                    xs: Some((sp.log2 - sp.half_width, sp.log2 + sp.half_width)),
                    y: p,
                    label: m.method.clone(),
                });
            }
        }
        let direct = report.direct.as_ref().and_then(|d| {
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
                        "{prefix}direct check ({})",
                        s.too_few.map_or("no result".into(), |w| w.to_string())
                    ));
                    None
                }
            }
        });
        Layer {
            report,
            palette,
            prefix,
            odds,
            methods,
            direct,
            left_out,
        }
    }

    fn marks(&self) -> impl Iterator<Item = &Mark> {
        self.odds
            .iter()
            .map(|(_, m)| m)
            .chain(&self.methods)
            .chain(self.direct.iter())
    }
}

const W: f64 = 900.0;
const H: f64 = 600.0;
const L: f64 = 90.0;
const R: f64 = 870.0;
const T: f64 = 80.0;
const B: f64 = 500.0;

/// The axes' ranges, round, and their steps.
struct Frame {
    x0: f64,
    x1: f64,
    y0: f64,
    y1: f64,
    xs: f64,
    ys: f64,
}

impl Frame {
    /// Every mark with its bars, and zero.
    fn of(layers: &[Layer]) -> Frame {
        let (mut x0, mut x1, mut y0, mut y1) = (-1.0f64, 1.0f64, -50.0f64, 50.0f64);
        for m in layers.iter().flat_map(Layer::marks) {
            let (a, b) = m.xs.unwrap_or((m.x, m.x));
            x0 = x0.min(a);
            x1 = x1.max(b);
            y0 = y0.min(m.y.lower);
            y1 = y1.max(m.y.upper);
        }
        let (xs, ys) = (nice_step(x1 - x0), nice_step(y1 - y0));
        Frame {
            x0: (x0 / xs).floor() * xs,
            x1: (x1 / xs).ceil() * xs,
            y0: (y0 / ys).floor() * ys,
            y1: (y1 / ys).ceil() * ys,
            xs,
            ys,
        }
    }

    fn px(&self, x: f64) -> f64 {
        L + (x - self.x0) / (self.x1 - self.x0) * (R - L)
    }

    fn py(&self, y: f64) -> f64 {
        B - (y.clamp(self.y0, self.y1) - self.y0) / (self.y1 - self.y0) * (B - T)
    }

    /// The grid, the ticks and the axes' titles.
    fn axes(&self, s: &mut String, baseline: &str) {
        for (t, colour) in ticks(self.x0, self.x1, self.xs) {
            let x = self.px(t);
            let _ = writeln!(
                s,
                r#"<line x1="{x:.1}" y1="{T}" x2="{x:.1}" y2="{B}" stroke="{colour}"/><text x="{x:.1}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
                B + 16.0,
                trim(t)
            );
        }
        for (t, colour) in ticks(self.y0, self.y1, self.ys) {
            let y = self.py(t);
            let _ = writeln!(
                s,
                r#"<line x1="{L}" y1="{y:.1}" x2="{R}" y2="{y:.1}" stroke="{colour}"/><text x="{}" y="{:.1}" text-anchor="end" font-size="11">{}</text>"#,
                L - 6.0,
                y + 4.0,
                trim(t)
            );
        }
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="middle" fill="#333">log2 of the speed ratio to {} (time odds: log2 of the time factor)</text>"##,
            (L + R) / 2.0,
            B + 36.0,
            xml(baseline)
        );
        let _ = writeln!(
            s,
            r##"<text x="24" y="{}" text-anchor="middle" fill="#333" transform="rotate(-90 24 {})">Elo (95% intervals)</text>"##,
            (T + B) / 2.0,
            (T + B) / 2.0
        );
    }

    /// A mark with its bars, as a circle, square or diamond.
    fn mark(&self, s: &mut String, m: &Mark, colour: &str, shape: &str) {
        let (x, y) = (self.px(m.x), self.py(m.y.value));
        let _ = write!(
            s,
            r#"<g stroke="{colour}" stroke-width="1.5"><line x1="{x:.1}" y1="{:.1}" x2="{x:.1}" y2="{:.1}"/>"#,
            self.py(m.y.lower),
            self.py(m.y.upper)
        );
        if let Some((a, b)) = m.xs {
            let _ = write!(
                s,
                r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}"/>"#,
                self.px(a),
                self.px(b)
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
    }

    /// The calibration lines of a run (the first with its band) and their
    /// slopes in words, from line `first` of the top left corner on;
    /// returns the number of lines written.
    fn calibration(&self, s: &mut String, layer: &Layer, first: usize) -> usize {
        let mut lines = 0;
        let colours = layer.palette.tcs;
        for (k, tc) in layer.report.calibration_tcs().iter().enumerate().take(2) {
            let Some(slope) = layer.report.slope(tc) else {
                continue;
            };
            let i = slope.interval();
            let (x0, x1) = (self.x0, self.x1);
            if k == 0 {
                // The band: between the interval's two lines, through 0.
                let corners = [
                    (x0, i.lower * x0),
                    (0.0, 0.0),
                    (x1, i.lower * x1),
                    (x1, i.upper * x1),
                    (0.0, 0.0),
                    (x0, i.upper * x0),
                ];
                let points: Vec<String> = corners
                    .iter()
                    .map(|&(x, y)| format!("{:.1},{:.1}", self.px(x), self.py(y)))
                    .collect();
                let _ = writeln!(
                    s,
                    r#"<polygon points="{}" fill="{}" fill-opacity="0.15"/>"#,
                    points.join(" "),
                    colours[0]
                );
            }
            let _ = writeln!(
                s,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{}" stroke-width="2"{}><title>{}{tc}: {:.1} ± {:.1} Elo per doubling</title></line>"#,
                self.px(x0),
                self.py(i.value * x0),
                self.px(x1),
                self.py(i.value * x1),
                colours[k],
                if k == 1 {
                    r#" stroke-dasharray="6 4""#
                } else {
                    ""
                },
                xml(&layer.prefix),
                i.value,
                i.error()
            );
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" fill="{}">{}{tc}: {:.0} ± {:.0} Elo per doubling</text>"#,
                L + 10.0,
                T + 16.0 + 16.0 * (first + lines) as f64,
                colours[k],
                xml(&layer.prefix),
                i.value,
                i.error()
            );
            lines += 1;
        }
        lines
    }

    /// A run's points and their labels; `stagger` shifts its method
    /// labels, so that close points of two runs stay readable; methods
    /// `unlabelled` (labelled at another run's point) get none.
    fn points(&self, s: &mut String, layer: &Layer, stagger: usize, unlabelled: &[&str]) {
        let p = layer.palette;
        for (k, m) in &layer.odds {
            self.mark(s, m, p.tcs[*k], if *k == 0 { "circle" } else { "square" });
        }
        for m in &layer.methods {
            self.mark(s, m, p.methods, "diamond");
        }
        if let Some(m) = &layer.direct {
            self.mark(s, m, p.direct, "circle");
        }
        let labelled = layer
            .methods
            .iter()
            .filter(|m| !unlabelled.contains(&m.label.as_str()));
        for (i, m) in labelled.enumerate() {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="10" fill="{}">{}</text>"#,
                self.px(m.x) + 7.0,
                self.py(m.y.value) - 6.0 - 10.0 * ((i + stagger) % 3) as f64,
                p.methods,
                xml(&m.label)
            );
        }
        if let Some(m) = &layer.direct {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" font-size="11" fill="{}">{}</text>"#,
                self.px(m.x) + 8.0,
                self.py(m.y.value) + 14.0 + 12.0 * stagger as f64,
                p.direct,
                xml(&format!("{}{}", layer.prefix, m.label))
            );
        }
    }
}

/// The chart of some runs: a title, a subtitle in coloured pieces, the
/// axes, each run's lines and points, the legend and what is left out.
fn chart(layers: &[Layer], title: &str, subtitle: &[(String, &str)], legend: &str) -> String {
    let frame = Frame::of(layers);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r#"<text x="20" y="28" font-size="17" font-weight="bold">{}</text>"#,
        xml(title)
    );
    let pieces: String = subtitle
        .iter()
        .enumerate()
        .map(|(i, (text, colour))| {
            let gap = if i > 0 { r#" dx="24""# } else { "" };
            format!(r#"<tspan fill="{colour}"{gap}>{}</tspan>"#, xml(text))
        })
        .collect();
    let _ = writeln!(s, r#"<text x="20" y="50">{pieces}</text>"#);
    let mut baselines: Vec<&str> = Vec::new();
    for l in layers {
        if !baselines.contains(&l.report.baseline.as_str()) {
            baselines.push(&l.report.baseline);
        }
    }
    frame.axes(&mut s, &baselines.join(" / "));
    let mut lines = 0;
    for layer in layers {
        lines += frame.calibration(&mut s, layer, lines);
    }
    // A method in both runs: a grey line joins its two points, and only
    // the first run's is labelled.
    let mut labelled: Vec<&str> = Vec::new();
    for (k, layer) in layers.iter().enumerate() {
        for m in &layer.methods {
            if let Some(first) = layers[..k]
                .iter()
                .flat_map(|l| &l.methods)
                .find(|f| f.label == m.label)
            {
                let _ = writeln!(
                    s,
                    r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#999" stroke-width="1"/>"##,
                    frame.px(first.x),
                    frame.py(first.y.value),
                    frame.px(m.x),
                    frame.py(m.y.value)
                );
            }
        }
        frame.points(&mut s, layer, k, &labelled);
        labelled.extend(layer.methods.iter().map(|m| m.label.as_str()));
    }
    let _ = writeln!(
        s,
        r##"<text x="20" y="{}" font-size="11" fill="#444">{}</text>"##,
        H - 40.0,
        xml(legend)
    );
    let left_out: Vec<&str> = layers
        .iter()
        .flat_map(|l| l.left_out.iter().map(String::as_str))
        .collect();
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

/// The time controls of some runs' calibrations, first and second, as
/// the legend names their points: `5+0.05; ■ 10+0.1`.
fn tc_legend(reports: &[&Report]) -> String {
    let mut tcs: Vec<String> = Vec::new();
    for r in reports {
        for (k, tc) in r.calibration_tcs().iter().enumerate().take(2) {
            let name = if k == 0 {
                tc.to_string()
            } else {
                format!("■ {tc}")
            };
            if !tcs.contains(&name) {
                tcs.push(name);
            }
        }
    }
    tcs.join("; ")
}

/// The plot: Elo against log2 of the speed (or time) ratio. The
/// calibration line of each time control with the 95% band of the first,
/// the time-odds points, each method's predicted effect (vertical bar: its
/// Elo interval; horizontal bar: its speed interval) and the direct check.
pub fn svg(report: &Report) -> String {
    let o = &report.options;
    let subtitle = format!(
        "calibration: {} against itself with time factors {}; speed: {} bench pair(s) per method; {}{}",
        report.baseline,
        factor_list(&o.factors),
        o.bench_pairs,
        report.date,
        if report.interrupted {
            " (interrupted)"
        } else {
            ""
        }
    );
    let legend = format!(
        "● time-odds points ({})   ◆ methods: predicted Elo (speed interval across)   ● red: direct check, measured",
        tc_legend(&[report])
    );
    chart(
        &[Layer::of(report, &ONE_RUN, String::new())],
        &format!(
            "Attack methods in {}: Elo against speed (baseline {})",
            report.engine_name, report.baseline
        ),
        &[(subtitle, "#444")],
        &legend,
    )
}

/// Two runs in one plot (`--compare`), each in its colour and named by
/// its evaluation: `runs` are the reports with their names (`run 1`).
pub fn svg_compare(runs: &[(&Report, String); 2]) -> String {
    let layers: Vec<Layer> = runs
        .iter()
        .zip(&RUNS)
        .map(|((r, name), palette)| Layer::of(r, palette, format!("{name}: ")))
        .collect();
    let subtitle: Vec<(String, &str)> = runs
        .iter()
        .zip(&RUNS)
        .map(|((r, name), palette)| {
            (
                format!(
                    "■ {name}: {}, {}, {}",
                    r.evaluation.short(),
                    r.date,
                    r.engine_name
                ),
                palette.methods,
            )
        })
        .collect();
    let legend = format!(
        "● time-odds points ({}; dashed: the second's line)   ◆ methods: predicted Elo, a grey line from run 1's to run 2's   ● 'direct': direct check",
        tc_legend(&[runs[0].0, runs[1].0])
    );
    chart(
        &layers,
        "Attack methods, two runs: Elo against speed",
        &subtitle,
        &legend,
    )
}

/// The ticks of an axis from `from` to `to` by `step`, each with its grid
/// line's colour: the zero line darker.
fn ticks(from: f64, to: f64, step: f64) -> impl Iterator<Item = (f64, &'static str)> {
    std::iter::successors(Some(from), move |t| Some(t + step))
        .take_while(move |t| *t <= to + step / 2.0)
        .map(move |t| {
            let colour = if t.abs() < step / 2.0 {
                "#777"
            } else {
                "#e4e4e4"
            };
            (t, colour)
        })
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
