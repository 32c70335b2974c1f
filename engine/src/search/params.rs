//! The search's constants, in one place (as the evaluation's weights are in
//! [`crate::eval::WEIGHTS`]): margins, reductions and limits, each with the
//! range a tuner may try. The search reads them through [`params`].
//!
//! In the release engine they are constants ([`DEFAULT`]), folded into the
//! code. Built with the cargo feature `spsa` (never the release engine),
//! each is also a UCI option of its name, and `borrow spsa` prints
//! OpenBench's SPSA input (`name, int, value, min, max, c_end, r_end` a
//! line), so that a user with OpenBench tunes them on many machines.

/// One constant as a tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tunable {
    /// Its name: the field of [`Params`] and the UCI option.
    pub name: &'static str,
    /// Its value in [`DEFAULT`].
    pub default: i64,
    /// The smallest value to try.
    pub min: i64,
    /// The largest value to try.
    pub max: i64,
}

impl Tunable {
    /// The line of OpenBench's SPSA input for this constant, at `value`:
    /// `name, int, value, min, max, c_end, r_end`, with the final step
    /// `c_end` a twentieth of the range (at least 1) and the final learning
    /// rate `r_end` 0.002, OpenBench's usual choices.
    pub fn spsa_line(&self, value: i64) -> String {
        let c_end = ((self.max - self.min) as f64 / 20.0).max(1.0);
        format!(
            "{}, int, {value}, {}, {}, {c_end}, 0.002",
            self.name, self.min, self.max
        )
    }
}

macro_rules! params {
    ($($(#[doc = $doc:literal])+ $name:ident: $ty:ty = $value:literal, $min:literal..=$max:literal;)+) => {
        /// The search's tunable constants.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $($(#[doc = $doc])+ pub $name: $ty,)+
        }

        /// The constants the engine plays with.
        pub const DEFAULT: Params = Params { $($name: $value,)+ };

        // Each range fits its field's type (checked when compiling).
        $(const _: () = assert!(
            $min as i128 >= <$ty>::MIN as i128 && $max as i128 <= <$ty>::MAX as i128
        );)+

        /// Every constant, in the order of [`Params`]'s fields.
        pub const TUNABLES: &[Tunable] = &[
            $(Tunable { name: stringify!($name), default: $value, min: $min, max: $max },)+
        ];

        impl Params {
            /// The value of the constant `name` (matched without regard to
            /// case), or `None` if there is no such constant.
            pub fn get(&self, name: &str) -> Option<i64> {
                $(if name.eq_ignore_ascii_case(stringify!($name)) {
                    return Some(i64::from(self.$name));
                })+
                None
            }

            /// Sets the constant `name` to `value` if `name` is one and
            /// `value` lies in its range; the error says what is wrong.
            pub fn set(&mut self, name: &str, value: i64) -> Result<(), String> {
                let t = TUNABLES
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(name.trim()))
                    .ok_or_else(|| format!("unknown option '{name}'"))?;
                if !(t.min..=t.max).contains(&value) {
                    return Err(format!(
                        "option '{}': {value} is outside {}..{}",
                        t.name, t.min, t.max
                    ));
                }
                $(if t.name == stringify!($name) {
                    self.$name = <$ty>::try_from(value)
                        .unwrap_or_else(|_| unreachable!("the range fits the type"));
                })+
                Ok(())
            }
        }
    };
}

params! {
    /// Aspiration window: the first half-width, in centipawns.
    aspiration_delta: i32 = 24, 5..=100;
    /// Aspiration windows from this depth on (full window before).
    aspiration_min_depth: u32 = 5, 1..=10;
    /// Reverse futility pruning: up to this depth.
    rfp_max_depth: i32 = 8, 2..=14;
    /// Reverse futility pruning: the margin per ply of depth.
    rfp_margin: i32 = 72, 20..=200;
    /// Reverse futility pruning: the margin is this much smaller when improving.
    rfp_improving: i32 = 40, 0..=120;
    /// Null-move pruning: from this depth on.
    nmp_min_depth: i32 = 3, 1..=6;
    /// Null-move pruning: the base reduction.
    nmp_base: i32 = 3, 1..=6;
    /// Null-move pruning: one more ply of reduction per this much depth.
    nmp_depth_divisor: i32 = 4, 2..=8;
    /// Null-move pruning: one more ply per this many centipawns above beta.
    nmp_eval_divisor: i32 = 199, 50..=400;
    /// Null-move pruning: at most this many plies from the eval term.
    nmp_eval_max: i32 = 3, 0..=6;
    /// Internal iterative reduction: from this depth on, without a TT move.
    iir_min_depth: i32 = 5, 2..=10;
    /// A tablebase result is stored this much deeper than the node's depth
    /// (it is exact whatever the depth; Stockfish's 6).
    tb_depth_bonus: i32 = 6, 0..=12;
    /// Late-move pruning and futility pruning: up to this depth.
    lmp_max_depth: i32 = 6, 2..=12;
    /// Late-move pruning: quiet moves tried before the rest are skipped,
    /// `lmp_base + depth²` (halved when not improving).
    lmp_base: i32 = 4, 0..=10;
    /// Futility pruning: the margin's constant part.
    futility_base: i32 = 96, 0..=300;
    /// Futility pruning: the margin per ply of depth.
    futility_per_depth: i32 = 85, 20..=200;
    /// SEE pruning in the main search: up to this depth.
    see_prune_max_depth: i32 = 6, 2..=12;
    /// SEE pruning of quiet moves: the threshold per ply of depth (negative).
    see_quiet_margin: i32 = 59, 10..=150;
    /// SEE pruning of noisy moves: the threshold per ply of depth squared
    /// (negative).
    see_noisy_margin: i32 = 25, 5..=80;
    /// Late-move reductions: the table's constant term, in hundredths of a
    /// ply.
    lmr_base: i32 = 85, 0..=200;
    /// Late-move reductions: the divisor of `ln(depth)·ln(move number)`,
    /// in hundredths.
    lmr_divisor: i32 = 198, 100..=400;
    /// Late-move reductions: from this depth on.
    lmr_min_depth: i32 = 3, 1..=6;
    /// Late-move reductions: one ply less per this much history.
    lmr_history_divisor: i32 = 8_350, 2_000..=16_000;
    /// Late-move reductions: a reduced search that beats the node's best
    /// by more than this plus two centipawns per ply is searched again a
    /// ply deeper.
    lmr_deeper_margin: i32 = 40, 0..=150;
    /// History: the bonus per ply of depth squared.
    history_bonus_scale: i32 = 17, 4..=64;
    /// History: the largest bonus.
    history_bonus_max: i32 = 1_716, 400..=4_000;
    /// History: values tend toward at most this (gravity).
    history_max: i32 = 16_420, 4_096..=32_767;
    /// Correction history: an update weighs depth + 1, at most this…
    corr_max_weight: i32 = 17, 4..=64;
    /// …out of this.
    corr_weight_scale: i32 = 245, 64..=1_024;
    /// Singular extensions: from this depth on.
    se_min_depth: i32 = 6, 4..=12;
    /// Singular extensions: the TT entry may be this much shallower.
    se_tt_depth_margin: i32 = 2, 1..=6;
    /// Singular extensions: the singular beta is the TT score less this
    /// many centipawns per ply of depth.
    se_beta_per_depth: i32 = 2, 0..=4;
    /// Singular extensions: two plies instead of one when the other moves
    /// fall this far below the singular beta (non-PV nodes only)…
    se_double_margin: i32 = 23, 0..=60;
    /// …at most this many times on a path.
    se_max_doubles: u8 = 6, 0..=12;
    /// Quiescence: delta-pruning margin.
    qs_delta_margin: i32 = 226, 50..=500;
}

/// The constants the search plays with: [`DEFAULT`], a constant the
/// compiler folds into the code.
#[cfg(not(feature = "spsa"))]
#[inline(always)]
pub fn params() -> &'static Params {
    &DEFAULT
}

/// The tuning build's constants: [`DEFAULT`] until a UCI option sets one.
#[cfg(feature = "spsa")]
type Store = std::sync::RwLock<&'static Params>;

/// The tuning build's constants: [`DEFAULT`] until a UCI option sets one.
#[cfg(feature = "spsa")]
static CURRENT: Store = Store::new(&DEFAULT);

#[cfg(feature = "spsa")]
thread_local! {
    /// This thread's view of [`CURRENT`]: what [`params`] reads, without a
    /// lock.
    static LOCAL: std::cell::Cell<&'static Params> = const { std::cell::Cell::new(&DEFAULT) };
}

/// The constants the search plays with: in the tuning build, the ones the
/// UCI options had set when this thread's search began ([`load`]); the
/// tuner sets them between games, not during a search.
#[cfg(feature = "spsa")]
#[inline]
pub fn params() -> &'static Params {
    LOCAL.with(std::cell::Cell::get)
}

/// Takes the constants the UCI options set last into this thread: every
/// search thread does as it starts. Nothing in the release build, whose
/// constants are constant.
#[inline(always)]
pub fn load() {
    #[cfg(feature = "spsa")]
    LOCAL.with(|local| local.set(read(&CURRENT)));
}

#[cfg(feature = "spsa")]
fn read(store: &Store) -> &'static Params {
    *store.read().unwrap_or_else(|e| e.into_inner())
}

/// The tuning build's `option` lines of `uci`: every constant, a spin with
/// its built-in value as the default.
#[cfg(feature = "spsa")]
pub fn uci_options() -> Vec<String> {
    TUNABLES
        .iter()
        .map(|t| {
            format!(
                "option name {} type spin default {} min {} max {}",
                t.name, t.default, t.min, t.max
            )
        })
        .collect()
}

/// The tuning build's `setoption` of a constant: sets `name` to `value`
/// for the searches to come, or says why not.
#[cfg(feature = "spsa")]
pub fn set_option(name: &str, value: Option<&str>) -> Result<(), String> {
    match value.map(|v| v.trim().parse::<i64>()) {
        Some(Ok(v)) => set_in(&CURRENT, name, v).map(|()| load()),
        _ if TUNABLES
            .iter()
            .all(|t| !t.name.eq_ignore_ascii_case(name.trim())) =>
        {
            Err(format!("unknown option '{name}'"))
        }
        _ => Err(format!("option '{name}' needs a whole number")),
    }
}

/// Sets `name` in `store`. Each setting leaks one small [`Params`], which is
/// what lets the search read them without a copy; a tuner sets each once.
#[cfg(feature = "spsa")]
fn set_in(store: &Store, name: &str, value: i64) -> Result<(), String> {
    let mut next = read(store).clone();
    next.set(name, value)?;
    *store.write().unwrap_or_else(|e| e.into_inner()) = Box::leak(Box::new(next));
    Ok(())
}

/// OpenBench's SPSA input for every constant at its current value, a line
/// each.
pub fn spsa_input() -> String {
    let now = params();
    TUNABLES
        .iter()
        .map(|t| t.spsa_line(now.get(t.name).unwrap_or(t.default)) + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_reads_back() {
        for t in TUNABLES {
            assert!(t.min <= t.default && t.default <= t.max, "{t:?}");
            assert!(t.min < t.max, "{t:?}");
            assert_eq!(DEFAULT.get(t.name), Some(t.default), "{}", t.name);
            assert_eq!(DEFAULT.get(&t.name.to_uppercase()), Some(t.default));
        }
        assert_eq!(DEFAULT.get("nonsense"), None);
    }

    #[test]
    fn setting_checks_the_name_and_the_range() {
        let mut p = DEFAULT.clone();
        p.set("RFP_MARGIN", 123).unwrap();
        assert_eq!(p.rfp_margin, 123);
        assert_eq!(p.get("rfp_margin"), Some(123));
        p.set("se_max_doubles", 12).unwrap();
        assert_eq!(p.se_max_doubles, 12);
        let e = p.set("rfp_margin", 201).unwrap_err();
        assert!(e.contains("outside 20..200"), "{e}");
        let e = p.set("nonsense", 1).unwrap_err();
        assert!(e.contains("unknown option 'nonsense'"), "{e}");
        assert_eq!(p.rfp_margin, 123, "a refused value changes nothing");
    }

    #[test]
    fn spsa_input_is_a_line_per_constant_in_openbench_form() {
        let text = spsa_input();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), TUNABLES.len());
        assert_eq!(
            lines[0],
            format!(
                "aspiration_delta, int, {}, 5, 100, 4.75, 0.002",
                DEFAULT.aspiration_delta
            )
        );
        for (line, t) in lines.iter().zip(TUNABLES) {
            let f: Vec<&str> = line.split(", ").collect();
            assert_eq!(f.len(), 7, "{line}");
            assert_eq!((f[0], f[1]), (t.name, "int"));
            let c_end: f64 = f[5].parse().unwrap();
            assert!(c_end >= 1.0, "{line}");
        }
    }

    /// The tuning build: setting a constant changes what is read after, and
    /// a refused value changes nothing (on a store of the test's own, so
    /// that no search running beside it sees other constants).
    #[cfg(feature = "spsa")]
    #[test]
    fn the_tuning_build_reads_what_is_set() {
        let store = Store::new(&DEFAULT);
        assert!(set_in(&store, "qs_delta_margin", 50_000).is_err());
        assert_eq!(read(&store).qs_delta_margin, DEFAULT.qs_delta_margin);
        set_in(&store, "QS_DELTA_MARGIN", 321).unwrap();
        assert_eq!(read(&store).qs_delta_margin, 321);
        assert_eq!(
            read(&store).get("rfp_margin"),
            Some(i64::from(DEFAULT.rfp_margin))
        );
        assert_eq!(
            *params(),
            DEFAULT,
            "the engine's own constants are untouched"
        );
    }
}
