//! Phase 1, speed: bench (and perft) runs of each method in pairs with
//! the baseline, and the node counts compared.

use std::collections::BTreeMap;
use std::path::Path;

use super::Runner;
use crate::results::Report;
use crate::speed::{self, RunPair};

impl Runner<'_> {
    /// Phase 1, speed: bench (and perft) runs in pairs with the baseline,
    /// the methods interleaved, until each has `bench_pairs` pairs; then
    /// the node counts compared.
    pub(super) fn speed(
        &mut self,
        measured: &[String],
        perft: Option<&Path>,
        write: &mut dyn FnMut(&Report),
    ) {
        let o = self.o;
        let depth = o
            .bench_depth
            .map_or("the engine's default".into(), |d| d.to_string());
        let others: Vec<String> = measured
            .iter()
            .filter(|m| **m != o.baseline)
            .cloned()
            .collect();
        let have = self
            .report
            .methods
            .iter()
            .filter(|m| others.contains(&m.method))
            .map(|m| m.bench.len())
            .min()
            .unwrap_or(0);
        if have < o.bench_pairs {
            eprintln!(
                "[speed] pairs {}..{} of (bench {}, bench method) at depth {depth}{} for {} method(s)",
                have + 1,
                o.bench_pairs,
                o.baseline,
                perft.map_or(String::new(), |_| format!(
                    ", and of perft {}",
                    o.perft_depth
                )),
                others.len()
            );
        }
        for k in have..o.bench_pairs {
            for m in &others {
                if self.stopping() {
                    return;
                }
                let bench = |method: &str| speed::bench(&o.engine, method, o.bench_depth);
                match bench(o.baseline.as_str()).and_then(|b| Ok((b, bench(m.as_str())?))) {
                    Ok((base, method)) => {
                        eprintln!(
                            "[speed {}/{}] bench {m:<24} {:>10} nps / {} {:>10} nps",
                            k + 1,
                            o.bench_pairs,
                            method.nps,
                            o.baseline,
                            base.nps
                        );
                        if let Some(r) = self.result_of(m) {
                            r.bench.push(RunPair { base, method });
                        }
                    }
                    Err(e) => self.report.defects.push(format!("bench: {e}")),
                }
                if let Some(p) = perft {
                    let run = |method: &str| speed::perft(p, method, o.perft_depth);
                    match run(o.baseline.as_str()).and_then(|b| Ok((b, run(m.as_str())?))) {
                        Ok((base, method)) => {
                            if let Some(r) = self.result_of(m) {
                                r.perft.push(RunPair { base, method });
                            }
                        }
                        Err(e) => self.report.defects.push(format!("perft: {e}")),
                    }
                }
            }
            self.checkpoint(write);
        }
        let mut node_counts: BTreeMap<u64, Vec<String>> = BTreeMap::new();
        for m in &self.report.methods {
            for p in &m.bench {
                for (n, who) in [(p.base.nodes, &o.baseline), (p.method.nodes, &m.method)] {
                    let v = node_counts.entry(n).or_default();
                    if !v.contains(who) {
                        v.push(who.clone());
                    }
                }
            }
        }
        if node_counts.len() > 1 {
            let parts: Vec<String> = node_counts
                .iter()
                .map(|(n, ms)| format!("{n} nodes: {}", ms.join(", ")))
                .collect();
            let defect = format!(
                "bench node counts differ between methods or runs: {}",
                parts.join("; ")
            );
            if !self.report.defects.contains(&defect) {
                self.report.defects.push(defect);
            }
        }
    }
}
