//! One position: the count, `--divide`, `--compare`.

use super::*;

// One position

pub(super) fn single(o: &Options, out: &mut impl Write) -> Result<bool, CliError> {
    let fen = o.fen.as_deref().unwrap_or(STARTING_FEN).trim();
    let depth = o.depth.unwrap_or(DEFAULT_DEPTH);
    check_fen(fen)?;
    let chess960 = o.chess960
        || Position::<attacks::Magic>::from_fen(fen).is_ok_and(|p| {
            p.is_chess960() || p.castling_notation() == movegen::CastlingNotation::Shredder
        });
    let shakmaty_pos = if o.compare {
        Some(oracle::position(fen).map_err(|e| CliError::Input(format!("--compare: {e}")))?)
    } else {
        None
    };
    let mut progress = Progress::new();
    // The first table before any output, so that a failed allocation is a
    // clean input error.
    let first_hash = new_hash(o.hash_mb)?;
    write_header(out, o, fen, depth)?;

    let runs = run_methods(o, fen, depth, chess960, first_hash, &mut progress)?;
    let shak = shakmaty_pos.as_ref().map(|p| {
        progress.context = format!("perft {depth} shakmaty:");
        run_shakmaty(p, depth, o.threads, chess960, &mut progress)
    });
    progress.clear();

    let mut ok = report_mismatches(out, &runs, shak.as_ref())?;
    if o.divide {
        ok &= print_divide(out, &runs[0].1, shak.as_ref())?;
        writeln!(out)?;
    }
    if runs.len() > 1 {
        print_methods(out, &runs, shak.as_ref())?;
    }
    print_count_and_speed(out, &runs, shak.as_ref())?;
    Ok(ok)
}

/// Reads the position once up front, so that a bad FEN is reported once.
fn check_fen(fen: &str) -> Result<(), CliError> {
    match refusal(fen) {
        // Name the FEN once: some messages quote it already.
        Some(e) if e.contains(fen) => input(format!("--fen: {e}")),
        Some(e) => input(format!("--fen: {e} (in '{fen}')")),
        None => Ok(()),
    }
}

/// The first lines: the position, and what is counted how.
fn write_header(out: &mut impl Write, o: &Options, fen: &str, depth: u32) -> io::Result<()> {
    writeln!(out, "position {fen}")?;
    let what = if o.methods.len() > 1 {
        format!("{} methods", o.methods.len())
    } else {
        format!("method {}", o.methods[0])
    };
    writeln!(
        out,
        "perft {depth}, {what}, {}, {}; {BULK_NOTE}",
        threads_note(o.threads),
        hash_note(o.hash_mb)
    )
}

/// The count by each of the methods, in order, each with a table of its
/// own (the first one `first_hash`, made before any output).
fn run_methods(
    o: &Options,
    fen: &str,
    depth: u32,
    chess960: bool,
    first_hash: Option<PerftHash>,
    progress: &mut Progress,
) -> Result<Vec<(Method, Run)>, CliError> {
    let mut first_hash = Some(first_hash);
    let mut runs = Vec::new();
    for &m in &o.methods {
        let hash = match first_hash.take() {
            Some(h) => h,
            None => new_hash(o.hash_mb)?,
        };
        progress.context = format!("perft {depth} {m}:");
        let run = run_method(m, fen, depth, o.threads, hash.as_ref(), chess960, progress)?;
        runs.push((m, run));
    }
    Ok(runs)
}

/// A `MISMATCH` line for each method, and shakmaty, whose count is not
/// the first method's; whether all agree.
fn report_mismatches(
    out: &mut impl Write,
    runs: &[(Method, Run)],
    shak: Option<&Run>,
) -> io::Result<bool> {
    let mut ok = true;
    let (first_method, first) = &runs[0];
    for (m, r) in &runs[1..] {
        if r.nodes != first.nodes {
            writeln!(
                out,
                "MISMATCH: {m} counts {} but {first_method} counts {}",
                r.nodes, first.nodes
            )?;
            ok = false;
        }
    }
    if let Some(s) = shak
        && s.nodes != first.nodes
    {
        writeln!(
            out,
            "MISMATCH: shakmaty counts {} but {first_method} counts {}",
            s.nodes, first.nodes
        )?;
        ok = false;
    }
    Ok(ok)
}

/// The speed table of the methods, and shakmaty's row.
fn print_methods(
    out: &mut impl Write,
    runs: &[(Method, Run)],
    shak: Option<&Run>,
) -> io::Result<()> {
    let mut rows: Vec<Row> = runs
        .iter()
        .map(|(m, r)| Row {
            name: m.to_string(),
            nodes: r.nodes,
            time: r.time,
        })
        .collect();
    if let Some(s) = shak {
        rows.push(Row {
            name: SHAKMATY_ROW.into(),
            nodes: s.nodes,
            time: s.time,
        });
    }
    print_table(out, &mut rows, shak.map(Run::nps))
}

/// The count, then the speed line (the fastest method's, when there are
/// several), with shakmaty's speed beside it.
fn print_count_and_speed(
    out: &mut impl Write,
    runs: &[(Method, Run)],
    shak: Option<&Run>,
) -> io::Result<()> {
    let (best_method, best) = runs
        .iter()
        .max_by(|a, b| a.1.nps().total_cmp(&b.1.nps()))
        .unwrap_or(&runs[0]);
    writeln!(out, "{}", runs[0].1.nodes)?;
    let mut notes = Vec::new();
    if runs.len() > 1 {
        notes.push(format!("fastest: {best_method}"));
    }
    if let Some(s) = shak {
        notes.push(format!(
            "shakmaty {:.0} nps in {}, ours {:.2}x its speed",
            s.nps(),
            seconds(s.time),
            best.nps() / s.nps()
        ));
    }
    write!(out, "{} nodes {:.0} nps", best.nodes, best.nps())?;
    if !notes.is_empty() {
        write!(out, " ({})", notes.join("; "))?;
    }
    writeln!(out)
}

/// `move: count` lines sorted by move; with shakmaty's run, its count is
/// shown where it differs and moves only one side has are flagged.
pub(super) fn print_divide(
    out: &mut impl Write,
    ours: &Run,
    shak: Option<&Run>,
) -> io::Result<bool> {
    let mut names: Vec<&str> = ours.moves.iter().map(|(m, _)| m.as_str()).collect();
    if let Some(s) = shak {
        names.extend(s.moves.iter().map(|(m, _)| m.as_str()));
    }
    names.sort_unstable();
    names.dedup();
    let find = |run: &Run, name: &str| run.moves.iter().find(|(m, _)| m == name).map(|&(_, n)| n);
    let mut ok = true;
    for name in names {
        let a = find(ours, name);
        match a {
            Some(n) => write!(out, "{name}: {n}")?,
            None => write!(out, "{name}: -")?,
        }
        if let Some(s) = shak {
            let b = find(s, name);
            if a != b {
                ok = false;
                match b {
                    Some(n) => write!(out, "  MISMATCH shakmaty {n}")?,
                    None => write!(out, "  MISMATCH shakmaty has no such move")?,
                }
            }
        }
        writeln!(out)?;
    }
    Ok(ok)
}
