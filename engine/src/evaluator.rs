//! [`Evaluator`]: which static evaluation the search calls, the hand-crafted
//! one ([`crate::eval`]) or a net ([`crate::nnue`]).

use std::fmt;
use std::sync::{Arc, OnceLock};

use attacks::{Color, SliderAttacks};
use movegen::Position;
use nnue::Network;

/// Whether the net leaves `pos` to the hand-crafted evaluation: against a
/// bare king, whose mop-up (drive the king to the edge, bring the kings
/// together) mates, where a net trained on self-play has seen too few such
/// endings. The search and `eval` both ask this.
pub fn net_defers<A: SliderAttacks>(pos: &Position<A>) -> bool {
    pos.by_color(Color::White).count() == 1 || pos.by_color(Color::Black).count() == 1
}

/// The net built into the engine: `engine/nets/default.nnue` (README "The
/// learned evaluation" says how it was made), or the file the build's
/// `BORROW_EVALFILE` named (`make EVALFILE=<net>`, as OpenBench builds;
/// `engine/build.rs`).
pub const BUILT_IN_NET: &[u8] = include_bytes!(env!("BORROW_NET"));

/// The SHA-256 of [`BUILT_IN_NET`], 64 lower-case hex digits, computed by
/// `engine/build.rs`: the net's name, which `borrow --version` shows and
/// `borrow-experiment` records with its results.
pub const BUILT_IN_NET_SHA256: &str = env!("BORROW_NET_SHA256");

// A net of another layout fails the build here, not the engine at start.
const _: () = assert!(
    nnue::network::is_net_file(BUILT_IN_NET),
    "the net to build in is not a (768->HIDDEN)x2->1 quantised net of this build's HIDDEN, of one output bucket or OUTPUT_BUCKETS"
);

/// The static evaluation a search uses.
#[derive(Clone)]
pub enum Evaluator {
    /// The tapered, hand-crafted evaluation ([`crate::eval`]).
    Classical,
    /// A net ([`crate::nnue`]), updated move by move.
    Nnue(Arc<Network>),
}

impl Evaluator {
    /// The engine's default: the net.
    pub fn default_kind() -> EvalKind {
        EvalKind::Nnue
    }

    /// The net built into the engine, read once and shared.
    pub fn built_in_net() -> Arc<Network> {
        static NET: OnceLock<Arc<Network>> = OnceLock::new();
        NET.get_or_init(|| {
            Arc::new(Network::from_bytes(BUILT_IN_NET).expect("checked when it was built in"))
        })
        .clone()
    }

    /// The evaluator of `kind`, with the built-in net for a net.
    pub fn of_kind(kind: EvalKind) -> Evaluator {
        match kind {
            EvalKind::Classical => Evaluator::Classical,
            EvalKind::Nnue => Evaluator::Nnue(Evaluator::built_in_net()),
        }
    }

    /// Which kind this is.
    pub fn kind(&self) -> EvalKind {
        match self {
            Evaluator::Classical => EvalKind::Classical,
            Evaluator::Nnue(_) => EvalKind::Nnue,
        }
    }
}

impl Default for Evaluator {
    /// [`Evaluator::default_kind`], with the built-in net for a net.
    fn default() -> Evaluator {
        Evaluator::of_kind(Evaluator::default_kind())
    }
}

impl fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind().name())
    }
}

/// The two evaluations by name, as the `Evaluation` option spells them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// `classical`: the hand-crafted evaluation.
    Classical,
    /// `nnue`: the net.
    Nnue,
}

impl EvalKind {
    /// Both, the option's values.
    pub const ALL: [EvalKind; 2] = [EvalKind::Nnue, EvalKind::Classical];

    /// The option value.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Classical => "classical",
            EvalKind::Nnue => "nnue",
        }
    }

    /// The kind a name (any case) spells.
    pub fn from_name(name: &str) -> Option<EvalKind> {
        EvalKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// The name is the SHA-256 of the file the build used (the default
    /// net, or `BORROW_EVALFILE`'s), computed here apart from build.rs.
    #[test]
    fn the_built_in_net_is_named_by_its_sha256() {
        let file = std::fs::read(env!("BORROW_NET")).expect("the net the build read");
        assert_eq!(file, BUILT_IN_NET, "{}", env!("BORROW_NET"));
        let sha256: String = Sha256::digest(&file)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(BUILT_IN_NET_SHA256, sha256);
        assert_eq!(BUILT_IN_NET_SHA256.len(), 64);
        assert!(
            BUILT_IN_NET_SHA256
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)),
            "{BUILT_IN_NET_SHA256}"
        );
    }
}
