//! One position: the count, `--divide`, `--compare`.

use super::*;

// One position

pub(super) fn single(o: &Options, out: &mut impl Write) -> Result<bool, CliError> {
    let fen = o.fen.as_deref().unwrap_or(STARTING_FEN).trim();
    let depth = o.depth.unwrap_or(DEFAULT_DEPTH);
    // Read the position once up front so that a bad FEN is reported once.
    if let Some(e) = refusal(fen) {
        // Name the FEN once: some messages quote it already.
        return input(if e.contains(fen) {
            format!("--fen: {e}")
        } else {
            format!("--fen: {e} (in '{fen}')")
        });
    }
    let chess960 = o.chess960
        || Position::<attacks::Magic>::from_fen(fen).is_ok_and(|p| {
            p.is_chess960() || p.castling_notation() == movegen::CastlingNotation::Shredder
        });
    let shakmaty_pos = if o.compare {
        Some(oracle::position(fen).map_err(|e| CliError::Input(format!("--compare: {e}")))?)
    } else {
        None
    };
    let all = o.methods.len() > 1;
    let mut progress = Progress::new();
    // The first table before any output, so that a failed allocation is a
    // clean input error.
    let mut first_hash = Some(new_hash(o.hash_mb)?);

    writeln!(out, "position {fen}")?;
    let what = if all {
        format!("{} methods", o.methods.len())
    } else {
        format!("method {}", o.methods[0])
    };
    writeln!(
        out,
        "perft {depth}, {what}, {}, {}; {BULK_NOTE}",
        threads_note(o.threads),
        hash_note(o.hash_mb)
    )?;

    let mut runs = Vec::new();
    for &m in &o.methods {
        let hash = match first_hash.take() {
            Some(h) => h,
            None => new_hash(o.hash_mb)?,
        };
        progress.context = format!("perft {depth} {m}:");
        let run = run_method(
            m,
            fen,
            depth,
            o.threads,
            hash.as_ref(),
            chess960,
            &mut progress,
        )?;
        runs.push((m, run));
    }
    let shak = shakmaty_pos.as_ref().map(|p| {
        progress.context = format!("perft {depth} shakmaty:");
        run_shakmaty(p, depth, o.threads, chess960, &mut progress)
    });
    progress.clear();

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
    if let Some(s) = &shak
        && s.nodes != first.nodes
    {
        writeln!(
            out,
            "MISMATCH: shakmaty counts {} but {first_method} counts {}",
            s.nodes, first.nodes
        )?;
        ok = false;
    }

    if o.divide {
        ok &= print_divide(out, first, shak.as_ref())?;
        writeln!(out)?;
    }

    if all {
        let mut rows: Vec<Row> = runs
            .iter()
            .map(|(m, r)| Row {
                name: m.to_string(),
                nodes: r.nodes,
                time: r.time,
            })
            .collect();
        if let Some(s) = &shak {
            rows.push(Row {
                name: SHAKMATY_ROW.into(),
                nodes: s.nodes,
                time: s.time,
            });
        }
        print_table(out, &mut rows, shak.as_ref().map(Run::nps))?;
    }

    // The count, then the speed line (the fastest method's, with 'all').
    let (best_method, best) = runs
        .iter()
        .max_by(|a, b| a.1.nps().total_cmp(&b.1.nps()))
        .unwrap_or(&runs[0]);
    writeln!(out, "{}", first.nodes)?;
    let mut notes = Vec::new();
    if all {
        notes.push(format!("fastest: {best_method}"));
    }
    if let Some(s) = &shak {
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
    writeln!(out)?;
    Ok(ok)
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
