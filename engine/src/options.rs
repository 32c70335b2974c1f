//! The UCI options: one table ([`OPTIONS`]) of each option's name, type,
//! default and range, read by `uci` (the `option` lines), by `setoption`
//! (the checks) and by [`Options::default`]. What an option sets is
//! [`Options::set`], or the driver for the options that act (`Hash`,
//! `Clear Hash`, `BookFile`).

use attacks::Method;

use crate::evaluator::{EvalKind, Evaluator};
use crate::search::Strength;
use crate::uci::quote;

/// The largest `Hash`, in MB (the smallest is 1).
pub use movegen::table::MAX_HASH_MB;
/// The most search `Threads` (the fewest is 1).
pub use movegen::table::MAX_THREADS;

/// Every option, as the driver tells them apart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Name {
    /// `Hash`: the table's size in MB.
    Hash,
    /// `Threads`: search threads.
    Threads,
    /// `MultiPV`: lines to show.
    MultiPv,
    /// `Ponder`: the GUI may ask us to ponder (informative).
    Ponder,
    /// `Move Overhead`: milliseconds kept back from each move's time.
    MoveOverhead,
    /// `Clear Hash`: empties the table.
    ClearHash,
    /// `OwnBook`: play from the book when it has a move.
    OwnBook,
    /// `BookFile`: the Polyglot book.
    BookFile,
    /// `BookDepth`: use the book up to this full move.
    BookDepth,
    /// `AttackMethod`: the sliding-attack method of the search.
    AttackMethod,
    /// `UCI_Chess960`: castling written as the king taking its rook.
    Chess960,
    /// `SyzygyPath`: folders of Syzygy tables.
    SyzygyPath,
    /// `SyzygyProbeDepth`: the least depth at which to probe.
    SyzygyProbeDepth,
    /// `Syzygy50MoveRule`: the 50-move rule turns cursed wins into draws.
    Syzygy50MoveRule,
    /// `SyzygyProbeLimit`: probe positions of at most this many pieces.
    SyzygyProbeLimit,
    /// `UCI_ShowWDL`: `wdl W D L` in `info` lines.
    ShowWdl,
    /// `UCI_LimitStrength`: play at `UCI_Elo`.
    LimitStrength,
    /// `UCI_Elo`: the strength to play at when limited.
    Elo,
    /// `Evaluation`: the net or the hand-crafted evaluation.
    Evaluation,
    /// `EvalFile`: a net file instead of the built-in net.
    EvalFile,
}

/// An option's type, default and range, as UCI declares them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A number in `min..=max`.
    Spin {
        /// The default.
        default: u64,
        /// The smallest value.
        min: u64,
        /// The largest value.
        max: u64,
    },
    /// `true` or `false`.
    Check {
        /// The default.
        default: bool,
    },
    /// No value: setting it acts.
    Button,
    /// Text; `<empty>` declares the empty default.
    String,
    /// One of the attack methods' names.
    Methods,
    /// One of the evaluations' names (`nnue`, `classical`).
    Evaluations,
}

/// One row of the table.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Which option.
    pub name: Name,
    /// Its UCI name (matched without regard to case).
    pub uci: &'static str,
    /// Its type, default and range.
    pub kind: Kind,
}

/// Every option, in the order `uci` declares them.
pub const OPTIONS: [Spec; 20] = [
    Spec {
        name: Name::Hash,
        uci: "Hash",
        kind: Kind::Spin {
            default: 16,
            min: 1,
            max: MAX_HASH_MB as u64,
        },
    },
    Spec {
        name: Name::Threads,
        uci: "Threads",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: MAX_THREADS as u64,
        },
    },
    Spec {
        name: Name::MultiPv,
        uci: "MultiPV",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    },
    Spec {
        name: Name::Ponder,
        uci: "Ponder",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: Name::MoveOverhead,
        uci: "Move Overhead",
        kind: Kind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    },
    Spec {
        name: Name::ClearHash,
        uci: "Clear Hash",
        kind: Kind::Button,
    },
    Spec {
        name: Name::OwnBook,
        uci: "OwnBook",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: Name::BookFile,
        uci: "BookFile",
        kind: Kind::String,
    },
    Spec {
        name: Name::BookDepth,
        uci: "BookDepth",
        kind: Kind::Spin {
            default: 20,
            min: 1,
            max: 1000,
        },
    },
    Spec {
        name: Name::AttackMethod,
        uci: "AttackMethod",
        kind: Kind::Methods,
    },
    Spec {
        name: Name::Chess960,
        uci: "UCI_Chess960",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: Name::SyzygyPath,
        uci: "SyzygyPath",
        kind: Kind::String,
    },
    Spec {
        name: Name::SyzygyProbeDepth,
        uci: "SyzygyProbeDepth",
        kind: Kind::Spin {
            default: 1,
            min: 1,
            max: 100,
        },
    },
    Spec {
        name: Name::Syzygy50MoveRule,
        uci: "Syzygy50MoveRule",
        kind: Kind::Check { default: true },
    },
    Spec {
        name: Name::SyzygyProbeLimit,
        uci: "SyzygyProbeLimit",
        kind: Kind::Spin {
            default: 7,
            min: 0,
            max: 7,
        },
    },
    Spec {
        name: Name::ShowWdl,
        uci: "UCI_ShowWDL",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: Name::LimitStrength,
        uci: "UCI_LimitStrength",
        kind: Kind::Check { default: false },
    },
    Spec {
        name: Name::Elo,
        uci: "UCI_Elo",
        kind: Kind::Spin {
            default: Strength::MIN_ELO as u64,
            min: Strength::MIN_ELO as u64,
            max: Strength::MAX_ELO as u64,
        },
    },
    Spec {
        name: Name::Evaluation,
        uci: "Evaluation",
        kind: Kind::Evaluations,
    },
    Spec {
        name: Name::EvalFile,
        uci: "EvalFile",
        kind: Kind::String,
    },
];

/// A checked value of `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// For a spin, within its range.
    Number(u64),
    /// For a check.
    Bool(bool),
    /// For a button.
    Press,
    /// For a string, trimmed (`<empty>` and nothing are the empty string).
    Text(String),
    /// For `AttackMethod`.
    Method(Method),
    /// For `Evaluation`.
    Evaluation(EvalKind),
}

impl Spec {
    /// The row of `name`, or `None` for an option we do not have.
    pub fn find(name: &str) -> Option<&'static Spec> {
        OPTIONS
            .iter()
            .find(|s| s.uci.eq_ignore_ascii_case(name.trim()))
    }

    /// The row of `name`.
    pub fn of(name: Name) -> &'static Spec {
        OPTIONS
            .iter()
            .find(|s| s.name == name)
            .unwrap_or_else(|| unreachable!("every option is in the table"))
    }

    /// The spin's default (0 for other kinds).
    pub const fn spin_default(&self) -> u64 {
        match self.kind {
            Kind::Spin { default, .. } => default,
            _ => 0,
        }
    }

    /// The `option name ...` line of `uci`.
    pub fn declaration(&self) -> String {
        let name = self.uci;
        match self.kind {
            Kind::Spin { default, min, max } => {
                format!("option name {name} type spin default {default} min {min} max {max}")
            }
            Kind::Check { default } => format!("option name {name} type check default {default}"),
            Kind::Button => format!("option name {name} type button"),
            Kind::String => format!("option name {name} type string default <empty>"),
            Kind::Methods => {
                let vars: Vec<String> = Method::ALL.iter().map(|m| format!("var {m}")).collect();
                format!(
                    "option name {name} type combo default {} {}",
                    Method::default(),
                    vars.join(" ")
                )
            }
            Kind::Evaluations => {
                let vars: Vec<String> = EvalKind::ALL
                    .iter()
                    .map(|k| format!("var {}", k.name()))
                    .collect();
                format!(
                    "option name {name} type combo default {} {}",
                    Evaluator::default_kind().name(),
                    vars.join(" ")
                )
            }
        }
    }

    /// Checks `value` against the type and range; the error says what is
    /// wrong, naming the option as the GUI sent it (`given`).
    pub fn parse(&self, given: &str, value: Option<&str>) -> Result<Value, String> {
        let needs = |what: &str| format!("option '{given}' needs {what}");
        match self.kind {
            Kind::Spin { min, max, .. } => {
                let v = value.ok_or_else(|| needs("a value"))?;
                let n: u64 = v
                    .trim()
                    .parse()
                    .map_err(|_| format!("option '{given}': '{}' is not a number", quote(v)))?;
                if n < min || n > max {
                    return Err(format!("option '{given}': {n} is outside {min}..{max}"));
                }
                Ok(Value::Number(n))
            }
            Kind::Check { .. } => match value.map(|v| v.trim().to_ascii_lowercase()) {
                Some(v) if v == "true" || v == "false" => Ok(Value::Bool(v == "true")),
                _ => Err(needs("true or false")),
            },
            Kind::Button => Ok(Value::Press),
            Kind::String => {
                let v = value.unwrap_or("").trim();
                Ok(Value::Text(if v == "<empty>" { "" } else { v }.to_owned()))
            }
            Kind::Methods => match value.map(str::parse::<Method>) {
                Some(Ok(m)) => Ok(Value::Method(m)),
                Some(Err(e)) => Err(e.to_string()),
                None => Err(needs("a value")),
            },
            Kind::Evaluations => match value.map(str::trim) {
                Some(v) => EvalKind::from_name(v)
                    .map(Value::Evaluation)
                    .ok_or_else(|| {
                        format!(
                            "option '{given}': '{}' is not an evaluation (nnue, classical)",
                            quote(v)
                        )
                    }),
                None => Err(needs("a value")),
            },
        }
    }
}

/// The options' values.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Lines to show.
    pub multipv: usize,
    /// Whether the GUI may ask us to ponder (informative).
    pub ponder: bool,
    /// Milliseconds kept back from each move's time.
    pub move_overhead: u64,
    /// The sliding-attack method the search uses.
    pub method: Method,
    /// Play from the opening book when it has a move.
    pub own_book: bool,
    /// The Polyglot book file (empty: none).
    pub book_file: String,
    /// Use the book only up to this full-move number.
    pub book_depth: u32,
    /// `SyzygyProbeDepth`.
    pub syzygy_probe_depth: i32,
    /// `Syzygy50MoveRule`.
    pub syzygy_50_move_rule: bool,
    /// `SyzygyProbeLimit`.
    pub syzygy_probe_limit: u32,
    /// The `SyzygyPath` given (the tables are the driver's).
    pub syzygy_path: String,
    /// `UCI_ShowWDL`: win/draw/loss permille in `info` lines.
    pub show_wdl: bool,
    /// Chess960 (Fischer random): castling moves are written and read as
    /// the king taking its own rook (`e1h1`). Positions are read the same
    /// either way.
    pub chess960: bool,
    /// `UCI_LimitStrength`: play at [`Options::elo`].
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
    /// `Evaluation`: the net or the hand-crafted evaluation (the net
    /// itself, built in or `EvalFile`'s, is the driver's).
    pub evaluation: EvalKind,
}

impl Default for Options {
    /// The table's defaults.
    fn default() -> Options {
        let spin = |n| Spec::of(n).spin_default();
        Options {
            hash_mb: spin(Name::Hash) as usize,
            threads: spin(Name::Threads) as usize,
            multipv: spin(Name::MultiPv) as usize,
            ponder: false,
            move_overhead: spin(Name::MoveOverhead),
            method: Method::default(),
            own_book: false,
            book_file: String::new(),
            book_depth: spin(Name::BookDepth) as u32,
            chess960: false,
            syzygy_probe_depth: spin(Name::SyzygyProbeDepth) as i32,
            syzygy_50_move_rule: true,
            syzygy_probe_limit: spin(Name::SyzygyProbeLimit) as u32,
            syzygy_path: String::new(),
            show_wdl: false,
            limit_strength: false,
            elo: spin(Name::Elo) as u32,
            evaluation: Evaluator::default_kind(),
        }
    }
}

impl Options {
    /// Sets the value of a plain option (one that only changes a value
    /// here); `false` for the options the driver acts on (`Hash`,
    /// `Clear Hash`, `BookFile`), which it sets itself.
    pub fn set(&mut self, name: Name, value: &Value) -> bool {
        match (name, value) {
            (Name::Threads, &Value::Number(n)) => self.threads = n as usize,
            (Name::MultiPv, &Value::Number(n)) => self.multipv = n as usize,
            (Name::MoveOverhead, &Value::Number(n)) => self.move_overhead = n,
            (Name::BookDepth, &Value::Number(n)) => self.book_depth = n as u32,
            (Name::Ponder, &Value::Bool(b)) => self.ponder = b,
            (Name::OwnBook, &Value::Bool(b)) => self.own_book = b,
            (Name::AttackMethod, &Value::Method(m)) => self.method = m,
            (Name::Chess960, &Value::Bool(b)) => self.chess960 = b,
            (Name::SyzygyProbeDepth, &Value::Number(n)) => self.syzygy_probe_depth = n as i32,
            (Name::Syzygy50MoveRule, &Value::Bool(b)) => self.syzygy_50_move_rule = b,
            (Name::SyzygyProbeLimit, &Value::Number(n)) => self.syzygy_probe_limit = n as u32,
            (Name::ShowWdl, &Value::Bool(b)) => self.show_wdl = b,
            (Name::LimitStrength, &Value::Bool(b)) => self.limit_strength = b,
            (Name::Elo, &Value::Number(n)) => self.elo = n as u32,
            (Name::Evaluation, &Value::Evaluation(k)) => self.evaluation = k,
            _ => return false,
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_without_regard_to_case_and_each_once() {
        assert_eq!(Spec::find("multipv").map(|s| s.name), Some(Name::MultiPv));
        assert_eq!(
            Spec::find(" move OVERHEAD ").map(|s| s.name),
            Some(Name::MoveOverhead)
        );
        assert_eq!(Spec::find("Contempt"), None);
        for s in &OPTIONS {
            assert_eq!(OPTIONS.iter().filter(|t| t.name == s.name).count(), 1);
            assert_eq!(Spec::of(s.name), s);
        }
    }

    #[test]
    fn values_are_checked_by_kind_and_range() {
        let mpv = Spec::of(Name::MultiPv);
        assert_eq!(mpv.parse("MultiPV", Some(" 3 ")), Ok(Value::Number(3)));
        assert_eq!(
            mpv.parse("multipv", Some("257")),
            Err("option 'multipv': 257 is outside 1..256".into())
        );
        assert!(
            mpv.parse("MultiPV", Some("x"))
                .unwrap_err()
                .contains("not a number")
        );
        assert!(
            mpv.parse("MultiPV", None)
                .unwrap_err()
                .contains("needs a value")
        );
        let ponder = Spec::of(Name::Ponder);
        assert_eq!(ponder.parse("Ponder", Some("TRUE")), Ok(Value::Bool(true)));
        assert!(ponder.parse("Ponder", Some("yes")).is_err());
        let book = Spec::of(Name::BookFile);
        assert_eq!(
            book.parse("BookFile", Some("<empty>")),
            Ok(Value::Text(String::new()))
        );
        assert_eq!(book.parse("BookFile", None), Ok(Value::Text(String::new())));
        let m = Spec::of(Name::AttackMethod);
        assert_eq!(
            m.parse("AttackMethod", Some("magic")),
            Ok(Value::Method(Method::Magic))
        );
        assert!(m.parse("AttackMethod", Some("nope")).is_err());
        let e = Spec::of(Name::Evaluation);
        assert_eq!(
            e.parse("evaluation", Some(" NNUE ")),
            Ok(Value::Evaluation(EvalKind::Nnue))
        );
        assert!(
            e.parse("Evaluation", Some("hce"))
                .unwrap_err()
                .contains("not an evaluation")
        );
    }

    #[test]
    fn declarations_and_defaults_come_from_the_table() {
        assert_eq!(
            Spec::of(Name::Hash).declaration(),
            format!("option name Hash type spin default 16 min 1 max {MAX_HASH_MB}")
        );
        assert_eq!(
            Spec::of(Name::ClearHash).declaration(),
            "option name Clear Hash type button"
        );
        let d = Options::default();
        assert_eq!(
            (
                d.hash_mb,
                d.threads,
                d.multipv,
                d.move_overhead,
                d.book_depth
            ),
            (16, 1, 1, 10, 20)
        );
        let mut o = Options::default();
        assert!(o.set(Name::MultiPv, &Value::Number(4)));
        assert_eq!(o.multipv, 4);
        assert!(!o.set(Name::Hash, &Value::Number(64)));
    }
}
