//! SPSA tuning of an engine's constants by games, as OpenBench and
//! fishtest run it, for one machine (`borrow-spsa`).
//!
//! The input is OpenBench's: a line per constant, `name, int|float, value,
//! min, max, c_end, r_end` (what `borrow spsa` prints). Each iteration
//! flips a coin per constant (`flip` = ±1), plays game pairs between the
//! engine at `value + c·flip` and at `value − c·flip` (each clamped to its
//! range, an `int` rounded), and moves every value by
//! `r · c · (wins − losses) · flip`, the first engine's score. The step `c`
//! and the rate `r` shrink with the iteration `k` (1-based) as fishtest's
//! schedule has them:
//!
//! - `c_k = c_end · N^γ / k^γ` (at least 0.5 for an `int`, as OpenBench
//!   has it), so `c_N = c_end`;
//! - `a = r_end · c_end² · (A + N)^α`, `r_k = a / (A + k)^α / c_k²`, so
//!   `r_N = r_end`;
//!
//! with `N` the planned iterations, `A` a tenth of them, `α` = 0.602 and
//! `γ` = 0.101 by default. [`Tuner`] holds the values, the iteration and
//! the results so far, and is saved and read back as text, so a run can
//! stop and go on ([`Tuner::to_text`], [`Tuner::from_text`]).

use std::fmt::Write as _;

use rng::Rng;

/// One constant being tuned.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// The UCI option's name.
    pub name: String,
    /// Whether the engine takes a fraction (`float`) or a whole number.
    pub float: bool,
    /// The value the run started from.
    pub start: f64,
    /// The value now.
    pub value: f64,
    /// The smallest value tried.
    pub min: f64,
    /// The largest value tried.
    pub max: f64,
    /// The step at the last iteration.
    pub c_end: f64,
    /// The learning rate at the last iteration.
    pub r_end: f64,
}

impl Param {
    /// `v` within the constant's range.
    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }

    /// What the engine is sent for the value `v`: an `int` rounded.
    pub fn uci_value(&self, v: f64) -> String {
        if self.float {
            format!("{v}")
        } else {
            format!("{}", v.round() as i64)
        }
    }
}

/// Reads OpenBench's SPSA input: a line per constant, `name, int|float,
/// value, min, max, c_end, r_end`; blank lines and `#` comments are
/// skipped. The error names the line and what is wrong.
pub fn parse_params(text: &str) -> Result<Vec<Param>, String> {
    let mut params: Vec<Param> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: String| format!("line {}: {what}", i + 1);
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let [name, kind, value, min, max, c_end, r_end] = fields[..] else {
            return Err(at(format!(
                "{} fields, not the 7 of 'name, int|float, value, min, max, c_end, r_end'",
                fields.len()
            )));
        };
        let float = match kind {
            "int" => false,
            "float" => true,
            _ => return Err(at(format!("type '{kind}' is neither int nor float"))),
        };
        let number = |field: &str, text: &str| {
            text.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| at(format!("{field} '{text}' is not a number")))
        };
        let p = Param {
            name: name.to_string(),
            float,
            start: number("value", value)?,
            value: number("value", value)?,
            min: number("min", min)?,
            max: number("max", max)?,
            c_end: number("c_end", c_end)?,
            r_end: number("r_end", r_end)?,
        };
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(at(format!("'{name}' is no option name")));
        }
        if !(p.min <= p.value && p.value <= p.max) {
            return Err(at(format!("{name}: {value} is outside {min}..{max}")));
        }
        if p.c_end <= 0.0 || p.r_end <= 0.0 {
            return Err(at(format!("{name}: c_end and r_end must be above 0")));
        }
        if params.iter().any(|q| q.name.eq_ignore_ascii_case(name)) {
            return Err(at(format!("{name} is given twice")));
        }
        params.push(p);
    }
    if params.is_empty() {
        return Err("no constant to tune".into());
    }
    Ok(params)
}

/// How the step and the rate shrink.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The planned iterations, `N`.
    pub iterations: u64,
    /// The stability constant `A`.
    pub a: f64,
    /// The rate's decay exponent `α`.
    pub alpha: f64,
    /// The step's decay exponent `γ`.
    pub gamma: f64,
}

impl Schedule {
    /// fishtest's defaults for `iterations`: `A` a tenth of them, `α`
    /// 0.602, `γ` 0.101.
    pub fn new(iterations: u64) -> Schedule {
        Schedule {
            iterations,
            a: iterations as f64 / 10.0,
            alpha: 0.602,
            gamma: 0.101,
        }
    }

    /// The step `c_k` and the rate `r_k` of `p` at iteration `k` (1-based).
    pub fn step(&self, p: &Param, k: u64) -> (f64, f64) {
        let n = self.iterations as f64;
        let k = k as f64;
        let c0 = p.c_end * n.powf(self.gamma);
        let a0 = p.r_end * p.c_end * p.c_end * (self.a + n).powf(self.alpha);
        let floor = if p.float { 0.0 } else { 0.5 };
        let c = (c0 / k.powf(self.gamma)).max(floor);
        let r = a0 / (self.a + k).powf(self.alpha) / (c * c);
        (c, r)
    }
}

/// One iteration's two engines: per constant, its flip and the values the
/// first (`plus`) and the second (`minus`) engine play with.
#[derive(Clone, Debug, PartialEq)]
pub struct Probe {
    /// The iteration (1-based).
    pub k: u64,
    /// ±1 per constant.
    pub flips: Vec<f64>,
    /// `value + c·flip`, clamped.
    pub plus: Vec<f64>,
    /// `value − c·flip`, clamped.
    pub minus: Vec<f64>,
}

/// A run: the constants, the schedule, the iteration reached and the games.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuner {
    /// The constants, with their current values.
    pub params: Vec<Param>,
    /// The schedule.
    pub schedule: Schedule,
    /// Iterations done.
    pub done: u64,
    /// The seed of the flips.
    pub seed: u64,
    /// Game pairs per iteration.
    pub pairs_per: u64,
    /// The `plus` engine's wins, draws and losses over the run.
    pub wdl: [u64; 3],
}

/// The first line of a saved run.
const STATE_HEADER: &str = "borrow-spsa state 1";

impl Tuner {
    /// A fresh run.
    pub fn new(params: Vec<Param>, schedule: Schedule, seed: u64, pairs_per: u64) -> Tuner {
        Tuner {
            params,
            schedule,
            done: 0,
            seed,
            pairs_per,
            wdl: [0; 3],
        }
    }

    /// Whether every planned iteration is done.
    pub fn finished(&self) -> bool {
        self.done >= self.schedule.iterations
    }

    /// The next iteration's engines. The flips depend only on the seed and
    /// the iteration, so a resumed run flips as an unbroken one would.
    pub fn probe(&self) -> Probe {
        let k = self.done + 1;
        let mut rng = Rng::new(self.seed ^ k.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let mut probe = Probe {
            k,
            flips: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for p in &self.params {
            let flip = if rng.chance(50) { 1.0 } else { -1.0 };
            let (c, _) = self.schedule.step(p, k);
            probe.flips.push(flip);
            probe.plus.push(p.clamp(p.value + c * flip));
            probe.minus.push(p.clamp(p.value - c * flip));
        }
        probe
    }

    /// Applies the result of `probe`'s games: the `plus` engine's wins,
    /// draws and losses.
    pub fn update(&mut self, probe: &Probe, wins: u64, draws: u64, losses: u64) {
        let score = wins as f64 - losses as f64;
        for (p, flip) in self.params.iter_mut().zip(&probe.flips) {
            let (c, r) = self.schedule.step(p, probe.k);
            p.value = p.clamp(p.value + r * c * score * flip);
        }
        self.done = probe.k;
        self.wdl[0] += wins;
        self.wdl[1] += draws;
        self.wdl[2] += losses;
    }

    /// The run as text: the settings, then a line per constant.
    pub fn to_text(&self) -> String {
        let s = &self.schedule;
        let mut t = format!(
            "{STATE_HEADER}\niterations {}\nA {}\nalpha {}\ngamma {}\nseed {}\npairs_per {}\ndone {}\nwdl {} {} {}\n",
            s.iterations,
            s.a,
            s.alpha,
            s.gamma,
            self.seed,
            self.pairs_per,
            self.done,
            self.wdl[0],
            self.wdl[1],
            self.wdl[2]
        );
        for p in &self.params {
            let _ = writeln!(
                t,
                "param {} {} {} {} {} {} {} {}",
                p.name,
                if p.float { "float" } else { "int" },
                p.start,
                p.value,
                p.min,
                p.max,
                p.c_end,
                p.r_end
            );
        }
        t
    }

    /// Reads [`Tuner::to_text`]'s form back; the error names the line.
    pub fn from_text(text: &str) -> Result<Tuner, String> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, STATE_HEADER)) => {}
            _ => return Err(format!("not a borrow-spsa state (no '{STATE_HEADER}')")),
        }
        let mut fields = std::collections::HashMap::new();
        let mut params = Vec::new();
        for (i, line) in lines {
            let at = |what: &str| format!("line {}: {what}", i + 1);
            let words: Vec<&str> = line.split_ascii_whitespace().collect();
            match words[..] {
                [] => {}
                ["param", name, kind, start, value, min, max, c_end, r_end] => {
                    let n = |t: &str| t.parse::<f64>().map_err(|_| at("a number is wrong"));
                    params.push(Param {
                        name: name.to_string(),
                        float: match kind {
                            "int" => false,
                            "float" => true,
                            _ => return Err(at("the type is neither int nor float")),
                        },
                        start: n(start)?,
                        value: n(value)?,
                        min: n(min)?,
                        max: n(max)?,
                        c_end: n(c_end)?,
                        r_end: n(r_end)?,
                    });
                }
                [key, ref rest @ ..] if !rest.is_empty() => {
                    fields.insert(key, rest.to_vec());
                }
                _ => return Err(at("cannot read it")),
            }
        }
        fn first<T: std::str::FromStr>(
            fields: &std::collections::HashMap<&str, Vec<&str>>,
            key: &str,
        ) -> Result<T, String> {
            fields
                .get(key)
                .and_then(|v| v.first())
                .and_then(|t| t.parse::<T>().ok())
                .ok_or_else(|| format!("the state has no '{key}'"))
        }
        let one = |key: &str| first::<f64>(&fields, key);
        let whole = |key: &str| first::<u64>(&fields, key);
        let wdl = fields
            .get("wdl")
            .filter(|v| v.len() == 3)
            .and_then(|v| {
                let n: Vec<u64> = v.iter().filter_map(|t| t.parse().ok()).collect();
                <[u64; 3]>::try_from(n).ok()
            })
            .ok_or("the state has no 'wdl'")?;
        if params.is_empty() {
            return Err("the state has no constant".into());
        }
        Ok(Tuner {
            params,
            schedule: Schedule {
                iterations: whole("iterations")?,
                a: one("A")?,
                alpha: one("alpha")?,
                gamma: one("gamma")?,
            },
            done: whole("done")?,
            seed: whole("seed")?,
            pairs_per: whole("pairs_per")?,
            wdl,
        })
    }

    /// Whether `other` is this run's plan: the same constants (names,
    /// types, starts, ranges, steps and rates), schedule, seed and pairs per
    /// iteration; what differs, if not.
    pub fn same_plan(&self, other: &Tuner) -> Result<(), String> {
        let plan = |t: &Tuner| {
            let mut t = t.clone();
            for p in t.params.iter_mut() {
                p.value = p.start;
            }
            t.done = 0;
            t.wdl = [0; 3];
            t
        };
        let (a, b) = (plan(self), plan(other));
        if a.schedule != b.schedule || a.seed != b.seed || a.pairs_per != b.pairs_per {
            return Err("the iterations, seed or pairs per iteration differ".into());
        }
        if a.params != b.params {
            return Err("the constants (or their ranges, steps or rates) differ".into());
        }
        Ok(())
    }

    /// The values now, in OpenBench's input form (a run's result can start
    /// the next run).
    pub fn openbench_lines(&self) -> String {
        let mut t = String::new();
        for p in &self.params {
            let _ = writeln!(
                t,
                "{}, {}, {}, {}, {}, {}, {}",
                p.name,
                if p.float { "float" } else { "int" },
                p.uci_value(p.value),
                p.uci_value(p.min),
                p.uci_value(p.max),
                p.c_end,
                p.r_end
            );
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUT: &str = "\
# from borrow spsa
rfp_margin, int, 80, 20, 200, 9, 0.002
lmr_base, int, 75, 0, 200, 10, 0.002

ratio, float, 0.5, 0, 1, 0.05, 0.002
";

    #[test]
    fn reads_openbench_input() {
        let p = parse_params(INPUT).unwrap();
        assert_eq!(p.len(), 3);
        assert_eq!(p[0].name, "rfp_margin");
        assert!(!p[0].float && p[2].float);
        assert_eq!((p[0].value, p[0].min, p[0].max), (80.0, 20.0, 200.0));
        assert_eq!((p[0].c_end, p[0].r_end), (9.0, 0.002));
    }

    #[test]
    fn bad_input_names_its_line() {
        let e = parse_params("a, int, 1, 0, 2, 1, 0.002\nb, int, 1, 0, 2").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_params("a, long, 1, 0, 2, 1, 0.002").unwrap_err();
        assert!(e.contains("neither int nor float"), "{e}");
        let e = parse_params("a, int, 5, 0, 2, 1, 0.002").unwrap_err();
        assert!(e.contains("outside"), "{e}");
        let e = parse_params("a, int, x, 0, 2, 1, 0.002").unwrap_err();
        assert!(e.contains("'x' is not a number"), "{e}");
        let e = parse_params("a, int, 1, 0, 2, 1, 0.002\nA, int, 1, 0, 2, 1, 0.002").unwrap_err();
        assert!(e.contains("twice"), "{e}");
        assert!(parse_params("# nothing\n").is_err());
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        let p = &parse_params(INPUT).unwrap()[0];
        let s = Schedule::new(1000);
        let (c, r) = s.step(p, 1000);
        assert!((c - 9.0).abs() < 1e-9, "{c}");
        assert!((r - 0.002).abs() < 1e-12, "{r}");
        // Larger steps and rates early on.
        let (c1, r1) = s.step(p, 1);
        assert!(c1 > c && r1 > r, "{c1} {r1}");
        // fishtest's numbers: c_1 = c_end * N^gamma.
        assert!((c1 - 9.0 * 1000f64.powf(0.101)).abs() < 1e-9);
    }

    #[test]
    fn an_int_step_is_at_least_half() {
        let mut p = parse_params(INPUT).unwrap()[0].clone();
        p.c_end = 0.01;
        assert_eq!(Schedule::new(100).step(&p, 100).0, 0.5);
    }

    #[test]
    fn the_values_move_towards_the_winner() {
        let params = parse_params(INPUT).unwrap();
        let mut t = Tuner::new(params, Schedule::new(100), 7, 4);
        let probe = t.probe();
        assert_eq!(probe.k, 1);
        for (i, p) in t.params.iter().enumerate() {
            let (c, _) = t.schedule.step(p, 1);
            let expect = (p.value + c * probe.flips[i]).clamp(p.min, p.max);
            assert_eq!(probe.plus[i], expect);
            assert!(probe.flips[i] == 1.0 || probe.flips[i] == -1.0);
        }
        let before: Vec<f64> = t.params.iter().map(|p| p.value).collect();
        t.update(&probe, 5, 2, 1);
        for (i, p) in t.params.iter().enumerate() {
            // The plus engine won: each value moves its flip's way.
            assert_eq!((p.value - before[i]).signum(), probe.flips[i], "{}", p.name);
        }
        assert_eq!((t.done, t.wdl), (1, [5, 2, 1]));
        // A tie leaves the values alone.
        let probe = t.probe();
        let before = t.params.clone();
        t.update(&probe, 2, 0, 2);
        assert_eq!(t.params, before);
    }

    #[test]
    fn values_stay_in_range() {
        let params = parse_params("a, int, 199, 20, 200, 50, 0.5").unwrap();
        let mut t = Tuner::new(params, Schedule::new(10), 1, 1);
        for _ in 0..10 {
            let probe = t.probe();
            assert!(probe.plus[0] <= 200.0 && probe.minus[0] >= 20.0);
            let win = probe.flips[0] > 0.0;
            t.update(&probe, u64::from(win) * 100, 0, u64::from(!win) * 100);
            assert!((20.0..=200.0).contains(&t.params[0].value));
        }
        assert_eq!(t.params[0].value, 200.0);
        assert!(t.finished());
    }

    #[test]
    fn flips_depend_on_seed_and_iteration_only() {
        let params = parse_params(INPUT).unwrap();
        let a = Tuner::new(params.clone(), Schedule::new(100), 3, 4);
        let mut b = a.clone();
        let p = b.probe();
        b.update(&p, 1, 0, 1);
        let mut c = b.clone();
        c.params[0].value = 81.0;
        assert_eq!(b.probe().flips, c.probe().flips);
        assert_eq!(b.probe().k, 2);
        // Over many iterations both signs come up.
        let mut t = a.clone();
        let mut seen = [false; 2];
        for _ in 0..20 {
            let p = t.probe();
            seen[usize::from(p.flips[0] > 0.0)] = true;
            t.update(&p, 0, 1, 0);
        }
        assert_eq!(seen, [true, true]);
    }

    #[test]
    fn a_run_reads_back_as_it_was_saved() {
        let params = parse_params(INPUT).unwrap();
        let mut t = Tuner::new(params, Schedule::new(100), 11, 4);
        for _ in 0..3 {
            let p = t.probe();
            t.update(&p, 3, 1, 0);
        }
        let back = Tuner::from_text(&t.to_text()).unwrap();
        assert_eq!(back, t);
        assert!(back.same_plan(&t).is_ok());
        let fresh = Tuner::new(parse_params(INPUT).unwrap(), Schedule::new(100), 11, 4);
        assert!(fresh.same_plan(&t).is_ok());
        let other = Tuner::new(parse_params(INPUT).unwrap(), Schedule::new(100), 12, 4);
        assert!(other.same_plan(&t).is_err());
        assert!(Tuner::from_text("something else").is_err());
        assert!(Tuner::from_text(&t.to_text().replace("done 3", "done x")).is_err());
    }

    #[test]
    fn openbench_lines_round_trip() {
        let params = parse_params(INPUT).unwrap();
        let mut t = Tuner::new(params, Schedule::new(100), 1, 1);
        t.params[0].value = 83.4;
        let again = parse_params(&t.openbench_lines()).unwrap();
        assert_eq!(again[0].value, 83.0);
        assert_eq!(again[2].value, 0.5);
        assert_eq!(again.len(), 3);
    }
}
