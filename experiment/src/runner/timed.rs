//! The timed matches: phase 3 (and 5), the calibration, time-odds
//! matches of the baseline against itself; phase 4, the direct check, the
//! slowest method against the fastest.

use matches::clock::{Limits, TimeControl};
use matches::tournament::Progress;

use super::Runner;
use super::matchup::Side;
use crate::plan::scaled;
use crate::results::{Direct, OddsMatch, Report, SetupError};

impl Runner<'_> {
    /// Phase 3 (and 5): time-odds matches of the baseline against itself at
    /// `tc`, `pairs` pairs at each of `factors`.
    pub(super) fn calibration(
        &mut self,
        tc: TimeControl,
        factors: &[f64],
        pairs: usize,
        progress: Progress,
        write: &mut dyn FnMut(&Report),
    ) -> Result<(), SetupError> {
        let o = self.o;
        for &f in factors {
            if self.stopping() {
                return Ok(());
            }
            let at = |factor: f64| Limits {
                tc: Some(scaled(&tc, factor)),
                margin: o.timemargin,
                ..Limits::default()
            };
            let name = format!("{}x{f}", o.baseline);
            let k = self
                .report
                .odds
                .iter()
                .position(|m| m.tc == tc && m.factor == f);
            let have = k.map(|k| self.report.odds[k].result.clone());
            let label = format!("calibration tc={tc} x{f}");
            let r = self.continue_match(
                Side {
                    name: &name,
                    method: &o.baseline,
                    limits: at(f),
                },
                Side {
                    name: &o.baseline,
                    method: &o.baseline,
                    limits: at(1.0),
                },
                have,
                pairs,
                progress,
                &label,
            )?;
            if let Some(result) = r {
                let m = OddsMatch {
                    tc,
                    factor: f,
                    result,
                };
                match k {
                    Some(k) => self.report.odds[k] = m,
                    None => self.report.odds.push(m),
                }
            }
            self.checkpoint(write);
        }
        Ok(())
    }

    /// The slowest and the fastest method (the baseline among them) by
    /// their measured speed ratios.
    fn extremes(&self) -> Option<(String, String)> {
        let mut speeds: Vec<(f64, String)> = vec![(0.0, self.o.baseline.clone())];
        for m in &self.report.methods {
            if let Some(s) = m.speed() {
                speeds.push((s.log2, m.method.clone()));
            }
        }
        let slow = speeds.iter().min_by(|a, b| a.0.total_cmp(&b.0))?.1.clone();
        let fast = speeds.iter().max_by(|a, b| a.0.total_cmp(&b.0))?.1.clone();
        (slow != fast).then_some((slow, fast))
    }

    /// Phase 4: the slowest method against the fastest at the experiment's
    /// time control.
    pub(super) fn direct(
        &mut self,
        pairs: usize,
        progress: Progress,
        write: &mut dyn FnMut(&Report),
    ) -> Result<(), SetupError> {
        let o = self.o;
        let (slow, fast) = match &self.report.direct {
            Some(d) => (d.slow.clone(), d.fast.clone()),
            None => match self.extremes() {
                Some(x) => x,
                None => {
                    self.report.notes.push(
                        "direct check: no two methods with measured speeds to compare".into(),
                    );
                    return Ok(());
                }
            },
        };
        let limits = Limits {
            tc: Some(o.tc),
            margin: o.timemargin,
            ..Limits::default()
        };
        let have = self.report.direct.as_ref().map(|d| d.result.clone());
        let label = format!("direct tc={}", o.tc);
        let r = self.continue_match(
            Side {
                name: &slow,
                method: &slow,
                limits,
            },
            Side {
                name: &fast,
                method: &fast,
                limits,
            },
            have,
            pairs,
            progress,
            &label,
        )?;
        if let Some(result) = r {
            self.report.direct = Some(Direct { slow, fast, result });
        }
        self.checkpoint(write);
        Ok(())
    }
}
