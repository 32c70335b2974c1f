//! A perft suite (`--epd`): every check, one line each, and the summary.

use super::*;

// A suite

/// Tells the two suite formats apart: the block format's lines start with
/// `id`, `epd` or `perft`.
pub(super) fn is_block_format(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .any(|l| {
            let key = l.split_whitespace().next().unwrap_or("");
            matches!(key, "id" | "epd" | "perft")
        })
}

/// `1 position`, `2 positions`: the nouns here all take an `s`.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

pub(super) struct Check {
    pub(super) entry: usize,
    pub(super) depth: u32,
    pub(super) expected: u64,
    /// shakmaty's count and time, filled on the first method's pass.
    pub(super) shakmaty: Option<(u64, Duration)>,
}

pub(super) fn epd(o: &Options, path: &str, out: &mut impl Write) -> Result<bool, CliError> {
    // Leniently, as every tool of the workspace reads suites and games:
    // bytes that are not UTF-8 become U+FFFD.
    let bytes =
        std::fs::read(path).map_err(|e| CliError::Input(format!("cannot read '{path}': {e}")))?;
    let text = String::from_utf8_lossy(&bytes);
    let source = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy().into_owned());
    let parsed = if is_block_format(&text) {
        suite::parse_blocks(&text, &[])
    } else {
        suite::parse_epd(&text, &source)
    };
    let entries = parsed.map_err(|e| CliError::Input(format!("{path}: {e}")))?;
    if entries.is_empty() {
        return input(format!("{path}: no positions in the file"));
    }
    let max_nodes = o.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    let all = o.methods.len() > 1;
    let mut first_hash = Some(new_hash(o.hash_mb)?);

    writeln!(
        out,
        "suite {path}: {}; depths with at most {max_nodes} nodes{}; {}, {}; {BULK_NOTE}",
        count(entries.len(), "position"),
        o.depth
            .map_or(String::new(), |d| format!(" and depth <= {d}")),
        threads_note(o.threads),
        hash_note(o.hash_mb),
    )?;

    // Positions the FEN reader refuses are reported and skipped.
    let mut skipped = 0;
    let mut shakmaty_positions: Vec<Option<Chess>> = Vec::new();
    let mut checks = Vec::new();
    let mut above = 0;
    for (i, e) in entries.iter().enumerate() {
        if let Some(err) = refusal(&e.fen) {
            if err.contains(e.fen.as_str()) {
                writeln!(out, "skip {}: {err}", e.name)?;
            } else {
                writeln!(out, "skip {}: {err} ({})", e.name, e.fen)?;
            }
            skipped += 1;
            shakmaty_positions.push(None);
            continue;
        }
        shakmaty_positions.push(if o.compare {
            oracle::position(&e.fen).ok()
        } else {
            None
        });
        for &(depth, expected) in &e.counts {
            if expected > max_nodes || o.depth.is_some_and(|d| depth > d) {
                above += 1;
                continue;
            }
            checks.push(Check {
                entry: i,
                depth,
                expected,
                shakmaty: None,
            });
        }
    }

    let name_width = entries.iter().map(|e| e.name.len()).max().unwrap_or(0);
    let method_width = o.methods.iter().map(|m| m.name().len()).max().unwrap_or(0);
    let count_width = checks
        .iter()
        .map(|c| c.expected.to_string().len())
        .max()
        .unwrap_or(1);
    let mut progress = Progress::new();
    let (mut passed, mut failed) = (0u64, 0u64);
    let mut rows = Vec::new();
    let mut shak_total = (0u64, Duration::ZERO);
    let n_checks = checks.len();

    for (pass, &method) in o.methods.iter().enumerate() {
        let hash = match first_hash.take() {
            Some(h) => h,
            None => new_hash(o.hash_mb)?,
        };
        let (mut nodes, mut time) = (0u64, Duration::ZERO);
        for (k, check) in checks.iter_mut().enumerate() {
            let entry = &entries[check.entry];
            progress.context = format!(
                "[{}/{n_checks}{}] {} depth {}:",
                k + 1,
                if all {
                    format!(" {method}")
                } else {
                    String::new()
                },
                entry.name,
                check.depth
            );
            let run = run_method(
                method,
                &entry.fen,
                check.depth,
                o.threads,
                hash.as_ref(),
                o.chess960,
                &mut progress,
            )?;
            if pass == 0
                && let Some(p) = &shakmaty_positions[check.entry]
            {
                progress.context = format!("[{}/{n_checks} shakmaty] {}:", k + 1, entry.name);
                let s = run_shakmaty(p, check.depth, o.threads, o.chess960, &mut progress);
                shak_total.0 += s.nodes;
                shak_total.1 += s.time;
                check.shakmaty = Some((s.nodes, s.time));
            }
            progress.clear();
            nodes += run.nodes;
            time += run.time;
            let good = run.nodes == check.expected;
            if good {
                passed += 1;
            } else {
                failed += 1;
            }
            let mut line = format!("{:<4}", if good { "ok" } else { "FAIL" });
            if all {
                let _ = write!(line, " {method:<method_width$}");
            }
            let _ = write!(
                line,
                " {:<name_width$} depth {:>2} expected {:>count_width$} got {:>count_width$} {:>8}",
                entry.name,
                check.depth,
                check.expected,
                run.nodes,
                seconds(run.time)
            );
            if o.compare {
                match check.shakmaty {
                    Some((n, t)) => {
                        let _ = write!(
                            line,
                            "  shakmaty {:>8} ours {:.2}x",
                            seconds(t),
                            t.as_secs_f64() / run.time.as_secs_f64().max(1e-9)
                        );
                        if n != check.expected {
                            let _ = write!(line, " (shakmaty counts {n}!)");
                        }
                    }
                    None => line.push_str("  shakmaty n/a (refuses the position)"),
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        rows.push(Row {
            name: method.to_string(),
            nodes,
            time,
        });
    }
    progress.clear();

    let shak_nps = (o.compare && shak_total.0 > 0).then(|| nps(shak_total.0, shak_total.1));
    if all || o.compare {
        writeln!(out)?;
        if let Some(s) = shak_nps {
            rows.push(Row {
                name: SHAKMATY_ROW.into(),
                nodes: shak_total.0,
                time: shak_total.1,
            });
            print_table(out, &mut rows, Some(s))?;
        } else {
            print_table(out, &mut rows, None)?;
        }
    } else if let Some(r) = rows.first() {
        writeln!(
            out,
            "{} nodes {:.0} nps ({})",
            r.nodes,
            nps(r.nodes, r.time),
            seconds(r.time)
        )?;
    }
    if above > 0 {
        writeln!(
            out,
            "{} not run: above --max-nodes {max_nodes}{}",
            count(above, "(position, depth) pair"),
            if o.depth.is_some() { " or --depth" } else { "" }
        )?;
    }
    if skipped > 0 {
        writeln!(
            out,
            "{} skipped: refused by the FEN reader or too much material",
            count(skipped, "position")
        )?;
    }
    writeln!(out, "{passed} passed, {failed} failed")?;
    Ok(failed == 0)
}
