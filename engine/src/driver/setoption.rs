//! `setoption`: an option checked against the table and applied, and what
//! setting it opens: the opening book, the net, the Syzygy tables.

use std::sync::Arc;

use book::{Book, plural};

use super::Driver;
use crate::evaluator::Evaluator;
use crate::options::{Name, Spec, Value};
use crate::tablebase::Syzygy;
use nnue::Network;

impl Driver {
    pub(super) fn set_option(&mut self, name: &str, value: Option<&str>) {
        let result = match Spec::find(name) {
            #[cfg(feature = "spsa")]
            None => crate::search::params::set_option(name, value),
            #[cfg(not(feature = "spsa"))]
            None => Err(format!("unknown option '{name}'")),
            Some(spec) => spec
                .parse(name, value)
                .and_then(|v| self.apply(spec.name, v)),
        };
        if let Err(why) = result {
            self.info_string(&why);
        } else if self.debug {
            self.info_string(&format!("{name} set"));
        }
    }

    /// Does what setting `name` to `value` (checked by the table) means.
    fn apply(&mut self, name: Name, value: Value) -> Result<(), String> {
        if self.options.set(name, &value) {
            if name == Name::Evaluation {
                // The table keeps static evaluations: the other one's.
                self.stop_search();
                self.shared.tt.clear();
            }
            let probing = [
                Name::SyzygyProbeDepth,
                Name::Syzygy50MoveRule,
                Name::SyzygyProbeLimit,
            ];
            if probing.contains(&name) && self.syzygy.is_some() {
                return self.open_tablebases();
            }
            return Ok(());
        }
        match (name, value) {
            // Made at the next `isready`, `ucinewgame` or `go` (see
            // `make_table`), where a size the machine cannot give is refused.
            (Name::Hash, Value::Number(mb)) => {
                self.options.hash_mb = mb as usize;
                self.table_pending = true;
                Ok(())
            }
            (Name::ClearHash, _) => {
                self.stop_search();
                self.shared.tt.clear();
                Ok(())
            }
            (Name::BookFile, Value::Text(path)) => self.load_book(&path),
            (Name::EvalFile, Value::Text(path)) => self.load_net(&path),
            (Name::SyzygyPath, Value::Text(path)) => {
                self.options.syzygy_path = path;
                self.open_tablebases()
            }
            (name, value) => unreachable!("{name:?} is never {value:?}"),
        }
    }

    /// `SyzygyPath` (or a probe setting) changed: open the tables again
    /// with the current settings, or none.
    fn open_tablebases(&mut self) -> Result<(), String> {
        self.syzygy = None;
        let path = self.options.syzygy_path.clone();
        if path.is_empty() || path == "<empty>" {
            return Ok(());
        }
        let o = &self.options;
        match Syzygy::open(
            &path,
            o.syzygy_probe_limit,
            o.syzygy_probe_depth,
            o.syzygy_50_move_rule,
        ) {
            Ok((tables, warnings)) => {
                for w in warnings {
                    self.info_string(&format!("SyzygyPath: {w}"));
                }
                self.info_string(&format!(
                    "found {} Syzygy files, up to {} pieces",
                    tables.files, tables.cardinality
                ));
                self.syzygy = Some(Arc::new(tables));
                Ok(())
            }
            Err(e) => Err(format!("SyzygyPath: {e}; playing without tablebases")),
        }
    }

    /// `setoption name EvalFile`: the net at `path`, or (empty, or a file
    /// that is not a net of this build's layout) the built-in one.
    fn load_net(&mut self, path: &str) -> Result<(), String> {
        self.stop_search();
        self.shared.tt.clear();
        self.net = Evaluator::built_in_net();
        if path.is_empty() || path.eq_ignore_ascii_case("<default>") {
            return Ok(());
        }
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            return Err(format!(
                "cannot use net '{path}': not a regular file; the built-in net stays"
            ));
        }
        match Network::from_file(std::path::Path::new(path)) {
            Ok(net) => {
                self.info_string(&format!("net {path} loaded"));
                self.net = Arc::new(net);
                Ok(())
            }
            Err(e) => Err(format!(
                "cannot use net '{path}': {e}; the built-in net stays"
            )),
        }
    }

    /// `setoption name BookFile`: the book at `path`, or none.
    fn load_book(&mut self, path: &str) -> Result<(), String> {
        self.book = None;
        self.options.book_file = String::new();
        if path.is_empty() {
            return Ok(());
        }
        if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
            // A device or pipe (/dev/zero, /dev/stdin) would be read until
            // memory or input runs out.
            return Err(format!(
                "cannot use book '{path}': not a regular file; playing without a book"
            ));
        }
        match Book::open(path) {
            Ok(book) => {
                self.info_string(&format!("book {path}: {}", plural(book.len(), "entry")));
                self.book = Some(book);
                self.options.book_file = path.to_owned();
                Ok(())
            }
            Err(e) => Err(format!(
                "cannot use book '{path}': {e}; playing without a book"
            )),
        }
    }
}
