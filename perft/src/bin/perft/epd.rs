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

/// The checks of a suite and what it leaves out.
struct Plan {
    checks: Vec<Check>,
    /// shakmaty's reading of each entry, by index: `None` without
    /// `--compare`, or where the position is skipped or shakmaty refuses it.
    shakmaty_positions: Vec<Option<Chess>>,
    /// Positions the FEN reader refuses.
    skipped: usize,
    /// (position, depth) pairs above `--max-nodes` or `--depth`.
    above: usize,
}

/// What the checks add up to.
#[derive(Default)]
struct Tally {
    /// A speed-table row per method: its nodes and time over every check.
    rows: Vec<Row>,
    /// shakmaty's nodes and time over the checks it counted.
    shakmaty: (u64, Duration),
    passed: u64,
    failed: u64,
}

/// The widths of a check line's columns.
struct Widths {
    name: usize,
    method: usize,
    count: usize,
}

impl Widths {
    /// Wide enough for every position's name, method and expected count.
    fn new(o: &Options, entries: &[suite::Entry], checks: &[Check]) -> Widths {
        Widths {
            name: entries.iter().map(|e| e.name.len()).max().unwrap_or(0),
            method: o.methods.iter().map(|m| m.name().len()).max().unwrap_or(0),
            count: checks
                .iter()
                .map(|c| c.expected.to_string().len())
                .max()
                .unwrap_or(1),
        }
    }
}

/// Runs the suite at `path`: a header, a line per check and method, then
/// the speeds and the summary. `Ok(true)` when every count is right.
pub(super) fn epd(o: &Options, path: &str, out: &mut impl Write) -> Result<bool, CliError> {
    // 1. The suite's positions and their counts.
    let entries = read_suite(path)?;
    let max_nodes = o.max_nodes.unwrap_or(DEFAULT_MAX_NODES);
    // 2. The first method's hash table before any output, so that a failed
    //    allocation is a clean input error.
    let first_hash = new_hash(o.hash_mb)?;
    // 3. The header.
    write_header(o, path, entries.len(), max_nodes, out)?;
    // 4. The checks: positions the FEN reader refuses are reported and
    //    skipped, counts beyond the limits left out.
    let mut plan = plan(o, &entries, max_nodes, out)?;
    // 5. Every check by every method, a line each.
    let mut tally = run_checks(o, &entries, &mut plan, first_hash, out)?;
    // 6. The speeds.
    write_speeds(o, &mut tally, out)?;
    // 7. What was not run, and the verdict.
    write_summary(o, &plan, &tally, max_nodes, out)?;
    Ok(tally.failed == 0)
}

/// Step 1: the entries of the suite at `path`, in either format. A file
/// that cannot be read, a malformed line or no positions at all is an
/// input error.
fn read_suite(path: &str) -> Result<Vec<suite::Entry>, CliError> {
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
    Ok(entries)
}

/// Step 3: the suite, its positions, the limits, the threads and the hash
/// table.
fn write_header(
    o: &Options,
    path: &str,
    positions: usize,
    max_nodes: u64,
    out: &mut impl Write,
) -> io::Result<()> {
    writeln!(
        out,
        "suite {path}: {}; depths with at most {max_nodes} nodes{}; {}, {}; {BULK_NOTE}",
        count(positions, "position"),
        o.depth
            .map_or(String::new(), |d| format!(" and depth <= {d}")),
        threads_note(o.threads),
        hash_note(o.hash_mb),
    )
}

/// Step 4: a check for each (position, depth) pair within `--max-nodes`
/// and `--depth`. Positions the FEN reader refuses are reported and
/// skipped.
fn plan(
    o: &Options,
    entries: &[suite::Entry],
    max_nodes: u64,
    out: &mut impl Write,
) -> io::Result<Plan> {
    let mut plan = Plan {
        checks: Vec::new(),
        shakmaty_positions: Vec::new(),
        skipped: 0,
        above: 0,
    };
    for (i, e) in entries.iter().enumerate() {
        if let Some(err) = refusal(&e.fen) {
            if err.contains(e.fen.as_str()) {
                writeln!(out, "skip {}: {err}", e.name)?;
            } else {
                writeln!(out, "skip {}: {err} ({})", e.name, e.fen)?;
            }
            plan.skipped += 1;
            plan.shakmaty_positions.push(None);
            continue;
        }
        plan.shakmaty_positions.push(if o.compare {
            oracle::position(&e.fen).ok()
        } else {
            None
        });
        for &(depth, expected) in &e.counts {
            if expected > max_nodes || o.depth.is_some_and(|d| depth > d) {
                plan.above += 1;
                continue;
            }
            plan.checks.push(Check {
                entry: i,
                depth,
                expected,
                shakmaty: None,
            });
        }
    }
    Ok(plan)
}

/// Step 5: every check by each method in turn, a line each, and with
/// `--compare` by shakmaty on the first method's pass.
fn run_checks(
    o: &Options,
    entries: &[suite::Entry],
    plan: &mut Plan,
    first_hash: Option<PerftHash>,
    out: &mut impl Write,
) -> Result<Tally, CliError> {
    let widths = Widths::new(o, entries, &plan.checks);
    let mut progress = Progress::new();
    let mut tally = Tally::default();
    let mut first_hash = Some(first_hash);
    let n_checks = plan.checks.len();
    for (pass, &method) in o.methods.iter().enumerate() {
        let hash = match first_hash.take() {
            Some(h) => h,
            None => new_hash(o.hash_mb)?,
        };
        let (mut nodes, mut time) = (0u64, Duration::ZERO);
        for (k, check) in plan.checks.iter_mut().enumerate() {
            let entry = &entries[check.entry];
            let shown = (o.methods.len() > 1).then_some(method);
            progress.context = check_context(k, n_checks, shown, &entry.name, check.depth);
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
                && let Some(p) = &plan.shakmaty_positions[check.entry]
            {
                progress.context = format!("[{}/{n_checks} shakmaty] {}:", k + 1, entry.name);
                let s = run_shakmaty(p, check.depth, o.threads, o.chess960, &mut progress);
                tally.shakmaty.0 += s.nodes;
                tally.shakmaty.1 += s.time;
                check.shakmaty = Some((s.nodes, s.time));
            }
            progress.clear();
            nodes += run.nodes;
            time += run.time;
            if run.nodes == check.expected {
                tally.passed += 1;
            } else {
                tally.failed += 1;
            }
            let line = check_line(o, &widths, method, &entry.name, check, &run);
            writeln!(out, "{}", line.trim_end())?;
        }
        tally.rows.push(Row {
            name: method.to_string(),
            nodes,
            time,
        });
    }
    progress.clear();
    Ok(tally)
}

/// What the progress line shows before the bar while a check runs: the
/// check's number, the method (when there are several), the position and
/// the depth.
fn check_context(
    k: usize,
    n_checks: usize,
    method: Option<Method>,
    name: &str,
    depth: u32,
) -> String {
    let method = method.map_or(String::new(), |m| format!(" {m}"));
    format!("[{}/{n_checks}{method}] {name} depth {depth}:", k + 1)
}

/// A check's line: the verdict, the method (when there are several), the
/// position, the depth, the counts and the time; with `--compare`,
/// shakmaty's time and how much faster ours is.
fn check_line(
    o: &Options,
    widths: &Widths,
    method: Method,
    name: &str,
    check: &Check,
    run: &Run,
) -> String {
    let (name_width, method_width, count_width) = (widths.name, widths.method, widths.count);
    let good = run.nodes == check.expected;
    let mut line = format!("{:<4}", if good { "ok" } else { "FAIL" });
    if o.methods.len() > 1 {
        let _ = write!(line, " {method:<method_width$}");
    }
    let _ = write!(
        line,
        " {name:<name_width$} depth {:>2} expected {:>count_width$} got {:>count_width$} {:>8}",
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
    line
}

/// Step 6: with several methods or `--compare`, the speed table
/// (shakmaty's row too when it counted); else the one method's nodes and
/// rate.
fn write_speeds(o: &Options, tally: &mut Tally, out: &mut impl Write) -> io::Result<()> {
    let (shak_nodes, shak_time) = tally.shakmaty;
    let shak_nps = (o.compare && shak_nodes > 0).then(|| nps(shak_nodes, shak_time));
    if o.methods.len() > 1 || o.compare {
        writeln!(out)?;
        if let Some(s) = shak_nps {
            tally.rows.push(Row {
                name: SHAKMATY_ROW.into(),
                nodes: shak_nodes,
                time: shak_time,
            });
            print_table(out, &mut tally.rows, Some(s))?;
        } else {
            print_table(out, &mut tally.rows, None)?;
        }
    } else if let Some(r) = tally.rows.first() {
        writeln!(
            out,
            "{} nodes {:.0} nps ({})",
            r.nodes,
            nps(r.nodes, r.time),
            seconds(r.time)
        )?;
    }
    Ok(())
}

/// Step 7: the pairs beyond the limits, the positions skipped, and how
/// many checks passed and failed.
fn write_summary(
    o: &Options,
    plan: &Plan,
    tally: &Tally,
    max_nodes: u64,
    out: &mut impl Write,
) -> io::Result<()> {
    if plan.above > 0 {
        writeln!(
            out,
            "{} not run: above --max-nodes {max_nodes}{}",
            count(plan.above, "(position, depth) pair"),
            if o.depth.is_some() { " or --depth" } else { "" }
        )?;
    }
    if plan.skipped > 0 {
        writeln!(
            out,
            "{} skipped: refused by the FEN reader or too much material",
            count(plan.skipped, "position")
        )?;
    }
    writeln!(out, "{} passed, {} failed", tally.passed, tally.failed)
}
