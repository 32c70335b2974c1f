//! Two runs side by side (`borrow-experiment --compare OLD.json NEW.json`):
//! each run's `results.json` read back into a report ([`crate::json::read`])
//! and shown beside the other's, by the tables and the plot of one run:
//! each run's header (date, engine, evaluation, net), per method the speed
//! ratio and predicted Elo of each, the calibration slopes, the direct
//! checks, and one plot of both.

use std::path::{Path, PathBuf};

use crate::args::CompareOptions;
use crate::output::{direct, markdown_table, predicted_text, slope_text, speed_text};
use crate::{Report, elapsed};

/// The Markdown report's name in the output directory.
pub const MARKDOWN: &str = "comparison.md";

/// The plot's name in the output directory.
pub const SVG: &str = "comparison.svg";

/// A run to compare: the file it came from and what it measured.
pub struct Run {
    /// Its `results.json`.
    pub path: PathBuf,
    /// The report read from it.
    pub report: Report,
}

impl Run {
    /// Reads the run whose `results.json` is `path`; the error names the
    /// file and why it is not such a file.
    pub fn load(path: &Path) -> Result<Run, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let report = crate::json::read(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Run {
            path: path.to_owned(),
            report,
        })
    }
}

/// The name of the `i`th run (from 0): `run 1`.
fn name(i: usize) -> String {
    format!("run {}", i + 1)
}

/// A column's title: the run's name and evaluation.
fn column(i: usize, run: &Run) -> String {
    format!("{} ({})", name(i), run.report.evaluation.short())
}

/// The runs' headers, one column each.
fn headers(runs: &[Run; 2]) -> String {
    let each = |what: &str, cell: &dyn Fn(&Run) -> String| {
        let mut row = vec![what.to_string()];
        row.extend(runs.iter().map(cell));
        row
    };
    let mut title = vec![String::new()];
    title.extend(runs.iter().enumerate().map(|(i, _)| name(i)));
    let rows = vec![
        title,
        each("results", &|run| format!("`{}`", run.path.display())),
        each("date", &|run| run.report.date.clone()),
        each("engine", &|run| {
            format!(
                "`{}` ({})",
                run.report.options.engine.display(),
                run.report.engine_name
            )
        }),
        each("evaluation", &|run| {
            run.report
                .evaluation
                .kind
                .clone()
                .unwrap_or_else(|| "unknown (not recorded)".into())
        }),
        each("net sha256", &|run| {
            run.report
                .evaluation
                .net_sha256
                .as_ref()
                .map_or("none named".into(), |h| format!("`{h}`"))
        }),
        each("baseline", &|run| format!("`{}`", run.report.baseline)),
        each("time controls", &|run| {
            run.report
                .calibration_tcs()
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        }),
        each("wall time", &|run| {
            format!(
                "{}{}",
                elapsed(run.report.duration),
                if run.report.interrupted {
                    ", INTERRUPTED"
                } else {
                    ""
                }
            )
        }),
        each("defects", &|run| run.report.defects.len().to_string()),
    ];
    markdown_table(&rows, &|_| false)
}

/// Per method, each run's speed ratio and predicted Elo: the first run's
/// methods in its order, then those only the second measured.
fn methods(runs: &[Run; 2]) -> String {
    let mut names: Vec<&str> = Vec::new();
    for run in runs {
        for m in &run.report.methods {
            if !names.contains(&m.method.as_str()) {
                names.push(&m.method);
            }
        }
    }
    let mut title = vec!["method".to_string()];
    for (i, run) in runs.iter().enumerate() {
        title.push(format!(
            "speed / {} (95%), {}",
            run.report.baseline,
            column(i, run)
        ));
    }
    for (i, run) in runs.iter().enumerate() {
        title.push(format!(
            "predicted Elo vs {} (95%), {}",
            run.report.baseline,
            column(i, run)
        ));
    }
    let mut rows = vec![title];
    for method in names {
        let cell = |run: &Run, text: fn(&Report, &crate::MethodResult) -> String| {
            let r = &run.report;
            r.methods
                .iter()
                .find(|m| m.method == method)
                .map_or("not measured".into(), |m| text(r, m))
        };
        let mut row = vec![format!("`{method}`")];
        row.extend(runs.iter().map(|run| cell(run, speed_text)));
        row.extend(runs.iter().map(|run| cell(run, predicted_text)));
        rows.push(row);
    }
    markdown_table(&rows, &|_| false)
}

/// The calibration slope of each run at each time control either played.
fn slopes(runs: &[Run; 2]) -> String {
    let mut tcs = Vec::new();
    for run in runs {
        for tc in run.report.calibration_tcs() {
            if !tcs.contains(&tc) {
                tcs.push(tc);
            }
        }
    }
    let mut title = vec!["tc".to_string()];
    title.extend(runs.iter().enumerate().map(|(i, run)| column(i, run)));
    let mut rows = vec![title];
    for tc in tcs {
        let mut row = vec![tc.to_string()];
        row.extend(runs.iter().map(|run| {
            if run.report.calibration_tcs().contains(&tc) {
                slope_text(run.report.slope(&tc))
            } else {
                "not played".into()
            }
        }));
        rows.push(row);
    }
    markdown_table(&rows, &|_| false)
}

/// The comparison as Markdown, with the plot ([`SVG`]).
pub fn markdown(runs: &[Run; 2]) -> String {
    let direct_checks: String = runs
        .iter()
        .enumerate()
        .map(|(i, run)| format!("- **{}**: {}", column(i, run), direct(&run.report)))
        .collect();
    format!(
        "# Attack methods: two runs side by side\n\n\
         Each run's figures are computed again from its measurements, by this build \
         (`borrow-experiment --compare`). Speed ratios and predicted Elo are against \
         each run's baseline, the Elo at its first time control; slopes are Elo per \
         doubling of time.\n\n{}\n![Elo against speed, both runs]({SVG})\n\n\
         ## Methods\n\n{}\n## Calibration slopes\n\n{}\n## Direct checks\n\n{}",
        headers(runs),
        methods(runs),
        slopes(runs),
        direct_checks
    )
}

/// Reads both runs and writes [`MARKDOWN`] and [`SVG`] into `o.out`;
/// returns the Markdown.
pub fn write(o: &CompareOptions) -> Result<String, String> {
    let runs = [Run::load(&o.old)?, Run::load(&o.new)?];
    let text = markdown(&runs);
    let svg = crate::plot::svg_compare(&[(&runs[0].report, name(0)), (&runs[1].report, name(1))]);
    let failed = |e: std::io::Error| format!("{}: {e}", o.out.display());
    std::fs::create_dir_all(&o.out).map_err(failed)?;
    std::fs::write(o.out.join(MARKDOWN), &text).map_err(failed)?;
    std::fs::write(o.out.join(SVG), svg).map_err(failed)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Evaluation;
    use crate::fixture::CLASSICAL_RUN;
    use crate::json::{json, read};
    use crate::speed::RunPair;
    use testkit::TempDir;

    const NET: &str = "cf507a34a16e204228bdcaa48df4330c575c20e427c8135f7f17415620f9d597";

    /// The classical run, and a run under the net made from it: the methods a
    /// little closer to the baseline's speed, `o2r` not measured.
    fn runs() -> (Report, Report) {
        let old = read(CLASSICAL_RUN).unwrap();
        let mut new = old.clone();
        new.evaluation = Evaluation {
            kind: Some("nnue".into()),
            net_sha256: Some(NET.into()),
        };
        new.date = "2026.12.01".into();
        new.methods.retain(|m| m.method != "o2r");
        for m in &mut new.methods {
            for p in &mut m.bench {
                let ratio = p.method.nps as f64 / p.base.nps as f64;
                *p = RunPair {
                    method: crate::BenchRun {
                        nps: (p.base.nps as f64 * ratio.sqrt()) as u64,
                        ..p.method
                    },
                    ..*p
                };
            }
        }
        (old, new)
    }

    /// The cells of `method`'s row.
    fn row<'a>(md: &'a str, method: &str) -> Vec<&'a str> {
        let line = md
            .lines()
            .find(|l| l.starts_with(&format!("| `{method}` ")))
            .unwrap_or_else(|| panic!("no row of {method} in\n{md}"));
        line.split('|')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .collect()
    }

    #[test]
    fn two_runs_side_by_side() {
        let (old, new) = runs();
        let dir = TempDir::new("compare");
        let (old_path, new_path) = (dir.join("old.json"), dir.join("new.json"));
        std::fs::write(&old_path, json(&old)).unwrap();
        std::fs::write(&new_path, json(&new)).unwrap();
        let o = CompareOptions {
            old: old_path,
            new: new_path,
            out: dir.join("out"),
        };
        let md = write(&o).unwrap();
        assert_eq!(std::fs::read_to_string(o.out.join(MARKDOWN)).unwrap(), md);
        // Every method, with both runs' speed ratio and predicted Elo.
        for m in &old.methods {
            let cells = row(&md, &m.method);
            let theirs = new.methods.iter().find(|n| n.method == m.method);
            let expected = [
                speed_text(&old, m),
                theirs.map_or("not measured".into(), |n| speed_text(&new, n)),
                predicted_text(&old, m),
                theirs.map_or("not measured".into(), |n| predicted_text(&new, n)),
            ];
            assert_eq!(cells[1..], expected, "{}", m.method);
        }
        assert_eq!(
            row(&md, "sbamg")[1..3],
            ["1.038 [1.030, 1.047]", "1.019 [1.015, 1.023]"]
        );
        assert_eq!(row(&md, "o2r")[2], "not measured");
        assert_eq!(row(&md, "magic")[1..], ["1", "1", "baseline", "baseline"]);
        // The headers: evaluation and net, and the columns named by them.
        assert!(md.contains("| evaluation    | classical "), "{md}");
        assert!(md.contains(&format!("| `{NET}` |")), "{md}");
        assert!(md.contains("| net sha256    | none named "), "{md}");
        assert!(md.contains("| date          | 2026.11.25 "), "{md}");
        assert!(md.contains("run 2 (nnue cf507a34)"), "{md}");
        // Both slopes at both time controls; both direct checks.
        for tc in ["5+0.05", "10+0.1"] {
            let line = md
                .lines()
                .find(|l| l.starts_with(&format!("| {tc} ")))
                .unwrap();
            assert_eq!(
                line.matches("Elo per doubling of time").count(),
                2,
                "{line}"
            );
        }
        assert_eq!(md.matches("Direct check at 5+0.05").count(), 2, "{md}");
        assert!(md.contains("- **run 1 (classical)**: Direct check"), "{md}");
        // The plot: both runs, named by their evaluation.
        let svg = std::fs::read_to_string(o.out.join(SVG)).unwrap();
        assert!(svg.contains("run 1: classical, 2026.11.25"), "{svg}");
        assert!(svg.contains("run 2: nnue cf507a34, 2026.12.01"), "{svg}");
        assert!(svg.contains("run 2: 5+0.05: "), "{svg}");
        assert!(crate::plot::RUNS.iter().all(|p| svg.contains(p.methods)));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn a_file_that_is_not_an_experiments_results_is_refused() {
        let dir = TempDir::new("compare-bad");
        let good = dir.join("good.json");
        std::fs::write(&good, CLASSICAL_RUN).unwrap();
        let bad = dir.join("match.json");
        std::fs::write(&bad, r#"{"names": ["a", "b"], "wins": 3}"#).unwrap();
        let o = CompareOptions {
            old: good.clone(),
            new: bad.clone(),
            out: dir.join("out"),
        };
        let e = write(&o).unwrap_err();
        assert!(
            e.starts_with(&format!(
                "{}: not the results.json of borrow-experiment: missing field",
                bad.display()
            )),
            "{e}"
        );
        assert!(!o.out.exists(), "nothing written");
        let missing = dir.join("missing.json");
        let e = write(&CompareOptions {
            old: missing.clone(),
            new: good,
            out: dir.join("out"),
        })
        .unwrap_err();
        assert!(e.starts_with(&missing.display().to_string()), "{e}");
    }
}
