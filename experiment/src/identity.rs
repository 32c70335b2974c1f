//! The identity check: fixed-node games must be the baseline's move for
//! move, whatever the method.

use matches::tournament::FinishedGame;
use matches::uci_engine::Info;
use std::collections::BTreeMap;

/// One engine move as the identity check compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move (UCI).
    pub uci: String,
    /// What the engine said last about its search.
    pub info: Info,
}

/// A game as the identity check compares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    /// The opening's `position` arguments.
    pub opening: String,
    /// The engine moves.
    pub plies: Vec<Ply>,
    /// The result (`1-0`, ...) and how the game ended.
    pub result: String,
}

/// Games by (round, game of the round).
pub type GameLines = BTreeMap<(usize, usize), GameLine>;

pub(super) fn line_of(g: &FinishedGame<'_>) -> GameLine {
    GameLine {
        opening: g.record.opening.uci_position(),
        plies: g
            .record
            .moves
            .iter()
            .map(|m| Ply {
                uci: m.uci.clone(),
                info: m.info,
            })
            .collect(),
        result: format!("{} {{{}}}", g.record.result.as_str(), g.record.reason()),
    }
}

/// The first difference between two games of the same opening and colours,
/// in words; `None` if they are the same.
pub fn first_difference(expected: &GameLine, got: &GameLine) -> Option<String> {
    if expected.opening != got.opening {
        return Some(format!(
            "different openings: '{}' and '{}'",
            expected.opening, got.opening
        ));
    }
    for (i, (a, b)) in expected.plies.iter().zip(&got.plies).enumerate() {
        if a.uci != b.uci {
            return Some(format!(
                "engine move {} is {} instead of {}",
                i + 1,
                b.uci,
                a.uci
            ));
        }
        if a.info != b.info {
            return Some(format!(
                "engine move {} ({}): search info {:?} instead of {:?}",
                i + 1,
                a.uci,
                b.info,
                a.info
            ));
        }
    }
    if expected.plies.len() != got.plies.len() || expected.result != got.result {
        return Some(format!(
            "{} engine moves, {} instead of {} engine moves, {}",
            got.plies.len(),
            got.result,
            expected.plies.len(),
            expected.result
        ));
    }
    None
}

/// The identity check's verdict on one method.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Identity {
    /// Not checked.
    NotChecked,
    /// The baseline: its games were played twice; whether they came out
    /// the same.
    Baseline {
        /// Whether the repeat matched.
        deterministic: bool,
        /// Games per run.
        games: usize,
    },
    /// Compared with the baseline's games.
    Compared {
        /// Games compared.
        games: usize,
        /// How the games that differ differ.
        differences: Vec<String>,
    },
}

impl Identity {
    /// Whether the check passed (`None` if there was none).
    pub fn passed(&self) -> Option<bool> {
        match self {
            Identity::NotChecked => None,
            Identity::Baseline { deterministic, .. } => Some(*deterministic),
            Identity::Compared { differences, .. } => Some(differences.is_empty()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_differences() {
        let ply = |uci: &str, depth| Ply {
            uci: uci.into(),
            info: Info {
                depth: Some(depth),
                ..Info::default()
            },
        };
        let a = GameLine {
            opening: "startpos".into(),
            plies: vec![ply("e2e4", 5), ply("e7e5", 5)],
            result: "1/2-1/2 {x}".into(),
        };
        assert_eq!(first_difference(&a, &a.clone()), None);
        let mut b = a.clone();
        b.plies[1] = ply("c7c5", 5);
        assert_eq!(
            first_difference(&a, &b).unwrap(),
            "engine move 2 is c7c5 instead of e7e5"
        );
        let mut c = a.clone();
        c.plies[0] = ply("e2e4", 6);
        assert!(first_difference(&a, &c).unwrap().contains("search info"));
        let mut d = a.clone();
        d.plies.pop();
        assert!(
            first_difference(&a, &d)
                .unwrap()
                .starts_with("1 engine moves")
        );
    }
}
