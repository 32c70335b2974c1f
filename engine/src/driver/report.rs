//! A search's reports as UCI `info` lines, and the one way a line is said.

use crate::search::{Report, Reporter, Score};
use crate::tt::Bound;

use super::Output;

/// Says `line` on `out`, flushed at once.
pub(super) fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        // A closed pipe cannot be told anything; ignore write errors.
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

pub(super) struct UciReporter {
    pub(super) out: Output,
    /// `UCI_Chess960`: castling written as the king taking its rook.
    pub(super) chess960: bool,
    /// `UCI_ShowWDL`: the root's material for the WDL model, if on.
    pub(super) wdl_material: Option<u32>,
}

fn format_report(r: &Report, chess960: bool, wdl_material: Option<u32>) -> String {
    let score = match r.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(m) => format!("mate {m}"),
    };
    let bound = match r.bound {
        Some(Bound::Lower) => " lowerbound",
        Some(Bound::Upper) => " upperbound",
        _ => "",
    };
    let ms = r.time.as_millis().max(1);
    let nps = r.nodes as u128 * 1000 / ms;
    let pv: Vec<String> = r.pv.iter().map(|m| m.uci(chess960).to_string()).collect();
    let wdl = wdl_material.map_or(String::new(), |m| {
        let [w, d, l] = crate::win_rate::MODEL.permille(r.score, m);
        format!(" wdl {w} {d} {l}")
    });
    format!(
        "info depth {} seldepth {} multipv {} score {score}{bound}{wdl} nodes {} nps {nps} hashfull {} tbhits {} time {} pv {}",
        r.depth,
        r.seldepth.max(r.depth),
        r.multipv,
        r.nodes,
        r.hashfull,
        r.tbhits,
        r.time.as_millis(),
        pv.join(" ")
    )
}

impl Reporter for UciReporter {
    fn report(&self, report: &Report) {
        say(
            &self.out,
            &format_report(report, self.chess960, self.wdl_material),
        );
    }
}
