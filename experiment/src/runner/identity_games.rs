//! Phase 2, identity: fixed-node games of each method against the
//! baseline, which must be the baseline's own games move for move (and
//! the baseline's against itself the same twice).

use matches::cli::MatchConfig;
use matches::clock::Limits;
use matches::game::Adjudication;
use matches::tournament::Progress;

use super::Runner;
use super::matchup::{Side, failures_text, match_config, play};
use crate::identity::{GameLines, Identity, first_difference};
use crate::results::SetupError;

impl Runner<'_> {
    /// The fixed-node match of `method` against the baseline.
    fn nodes_config(&self, method: &str) -> MatchConfig {
        let o = self.o;
        let limits = Limits {
            nodes: Some(o.nodes),
            ..Limits::default()
        };
        let second = if method == o.baseline {
            format!("{method}-2")
        } else {
            o.baseline.clone()
        };
        let mut c = match_config(
            o,
            Side {
                name: method,
                method,
                limits,
            },
            Side {
                name: &second,
                method: &o.baseline,
                limits,
            },
            o.identity_pairs,
            1,
            &self.pgn_nodes,
        );
        // Only the rules and --maxmoves end these games: the more moves
        // compared, the better.
        c.adjudication = Adjudication {
            maxmoves: o.maxmoves,
            ..Adjudication::default()
        };
        c
    }

    /// The baseline against itself at fixed nodes, twice: its games, if the
    /// run was not interrupted.
    fn baseline_games(&mut self) -> Result<Option<GameLines>, SetupError> {
        let o = self.o;
        let c = self.nodes_config(&o.baseline);
        let (first, games) = play(&c, self.interrupted, Progress::Quiet).map_err(SetupError)?;
        let (_, again) = play(&c, self.interrupted, Progress::Quiet).map_err(SetupError)?;
        if self.stopping() {
            return Ok(None);
        }
        let label = format!("nodes={}", o.nodes);
        self.report.add_failures(failures_text(&first, &label));
        let mut deterministic = games.len() == again.len();
        for (k, g) in &games {
            if let Some(d) = again.get(k).and_then(|h| first_difference(g, h)) {
                deterministic = false;
                self.report.defects.push(format!(
                    "{label}: {} against itself is not deterministic: opening {} game {}: {d}",
                    o.baseline,
                    k.0 + 1,
                    k.1 + 1
                ));
            }
        }
        let n = games.len();
        if let Some(r) = self.result_of(&o.baseline) {
            r.identity = Identity::Baseline {
                deterministic,
                games: n,
            };
        }
        eprintln!(
            "[identity] {0} vs {0}: {n} games, {1}",
            o.baseline,
            if deterministic {
                "deterministic"
            } else {
                "NOT deterministic"
            }
        );
        Ok(Some(games))
    }

    /// Phase 2, identity: each method's fixed-node games against the
    /// baseline's.
    pub(super) fn identity(&mut self, methods: &[String]) -> Result<(), SetupError> {
        let o = self.o;
        if methods.is_empty() || self.stopping() {
            return Ok(());
        }
        let others: Vec<&String> = methods.iter().filter(|m| **m != o.baseline).collect();
        eprintln!(
            "[identity] nodes={}: {} pair(s) of {} against itself (twice), then of {} method(s) against it",
            o.nodes,
            o.identity_pairs,
            o.baseline,
            others.len()
        );
        let Some(expected) = self.baseline_games()? else {
            return Ok(());
        };
        let label = format!("nodes={}", o.nodes);
        for m in others {
            if self.stopping() {
                return Ok(());
            }
            let (r, got) = play(&self.nodes_config(m), self.interrupted, Progress::Quiet)
                .map_err(SetupError)?;
            if self.stopping() {
                return Ok(());
            }
            self.report.add_failures(failures_text(&r, &label));
            let mut differences = Vec::new();
            for (k, e) in &expected {
                let colour = if k.1 == 0 { "White" } else { "Black" };
                match got.get(k) {
                    None => differences.push(format!(
                        "opening {}, {m} as {colour}: game missing",
                        k.0 + 1
                    )),
                    Some(g) => {
                        if let Some(d) = first_difference(e, g) {
                            differences.push(format!(
                                "opening {} ({}), {m} as {colour}: {d}",
                                k.0 + 1,
                                e.opening
                            ));
                        }
                    }
                }
            }
            eprintln!(
                "[identity] {m} vs {}: {} games, {}",
                o.baseline,
                got.len(),
                if differences.is_empty() {
                    "identical".to_string()
                } else {
                    format!("{} DIFFERENT", differences.len())
                }
            );
            for d in &differences {
                self.report
                    .defects
                    .push(format!("{label}: not identical: {d}"));
            }
            if let Some(r) = self.result_of(m) {
                r.identity = Identity::Compared {
                    games: got.len(),
                    differences,
                };
            }
        }
        Ok(())
    }
}
