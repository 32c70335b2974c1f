//! Running a count: ours by method, shakmaty's, and the speed table.

use super::*;

// Counting

/// A timed count: the total and the count below each root move (UCI).
pub(super) struct Run {
    pub(super) nodes: u64,
    pub(super) time: Duration,
    pub(super) moves: Vec<(String, u64)>,
}

impl Run {
    pub(super) fn nps(&self) -> f64 {
        nps(self.nodes, self.time)
    }
}

pub(super) fn nps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9)
}

/// Why the position cannot be counted, if it cannot: the FEN reader refuses
/// it (bad syntax, or an illegal position, too much material included).
pub(super) fn refusal(fen: &str) -> Option<String> {
    Position::<attacks::Reference>::from_fen(fen)
        .err()
        .map(|e| e.to_string())
}

pub(super) fn run_method(
    method: Method,
    fen: &str,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    chess960: bool,
    progress: &mut Progress,
) -> Result<Run, CliError> {
    let start = Instant::now();
    let (moves, end) = perft::by_method::divide(
        method,
        fen,
        depth,
        threads,
        hash,
        progress
            .callback()
            .as_mut()
            .map(|f| f as &mut dyn FnMut(usize, usize)),
    )
    .map_err(|e| CliError::Input(e.to_string()))?;
    Ok(Run {
        // Depth 0: the position itself, no moves.
        nodes: if depth == 0 {
            1
        } else {
            moves.iter().map(|&(_, n)| n).sum()
        },
        time: end - start,
        moves: moves
            .iter()
            .map(|&(m, n)| (m.uci(chess960).to_string(), n))
            .collect(),
    })
}

pub(super) fn run_shakmaty(
    pos: &Chess,
    depth: u32,
    threads: usize,
    chess960: bool,
    progress: &mut Progress,
) -> Run {
    let start = Instant::now();
    if depth == 0 {
        return Run {
            nodes: 1,
            time: start.elapsed(),
            moves: Vec::new(),
        };
    }
    let moves = pos.legal_moves();
    let children: Vec<Chess> = moves
        .iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play_unchecked(*m);
            child
        })
        .collect();
    let (counts, end) = perft::split_root(
        &children,
        |c| oracle::perft(c, depth - 1),
        threads,
        progress
            .callback()
            .as_mut()
            .map(|f| f as &mut dyn FnMut(usize, usize)),
    );
    Run {
        nodes: counts.iter().sum(),
        time: end - start,
        moves: moves
            .iter()
            .map(|m| m.to_uci(CastlingMode::from_chess960(chess960)).to_string())
            .zip(counts)
            .collect(),
    }
}

pub(super) fn new_hash(mb: usize) -> Result<Option<PerftHash>, CliError> {
    if mb == 0 {
        return Ok(None);
    }
    match PerftHash::try_new(mb) {
        Some(h) => Ok(Some(h)),
        None => input(format!("--hash {mb}: cannot allocate that much memory")),
    }
}

pub(super) fn hash_note(mb: usize) -> String {
    if mb == 0 {
        "no hash table".into()
    } else {
        format!("hash table {mb} MB")
    }
}

pub(super) fn threads_note(threads: usize) -> String {
    if threads == 1 {
        "1 thread".into()
    } else {
        format!("{threads} threads")
    }
}

pub(super) fn seconds(d: Duration) -> String {
    format!("{:.3}s", d.as_secs_f64())
}

/// Nodes per second in millions, for tables.
pub(super) fn mnps(rate: f64) -> String {
    format!("{:.1}", rate / 1e6)
}

// ---------------------------------------------------------------------------
// Speed table (--method all, --compare)

pub(super) struct Row {
    pub(super) name: String,
    pub(super) nodes: u64,
    pub(super) time: Duration,
}

pub(super) fn print_table(
    out: &mut impl Write,
    rows: &mut [Row],
    shakmaty: Option<f64>,
) -> io::Result<()> {
    rows.sort_by(|a, b| nps(b.nodes, b.time).total_cmp(&nps(a.nodes, a.time)));
    let fastest = rows.first().map_or(1.0, |r| nps(r.nodes, r.time));
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(6).max(6);
    write!(
        out,
        "{:<width$}  {:>12}  {:>9}  {:>8}  {:>10}",
        "method", "nodes", "time", "Mnps", "vs fastest"
    )?;
    if shakmaty.is_some() {
        write!(out, "  {:>11}", "vs shakmaty")?;
    }
    writeln!(out)?;
    for r in rows.iter() {
        let rate = nps(r.nodes, r.time);
        write!(
            out,
            "{:<width$}  {:>12}  {:>9}  {:>8}  {:>10.2}",
            r.name,
            r.nodes,
            seconds(r.time),
            mnps(rate),
            rate / fastest
        )?;
        if let Some(s) = shakmaty {
            write!(out, "  {:>11.2}", rate / s)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

pub(super) const SHAKMATY_ROW: &str = "shakmaty 0.30.1 (oracle)";
