//! How many games the experiment plays: the budget shared out between the
//! calibration (time-odds matches at one or two time controls) and the
//! direct check, from an estimate of how long a game lasts.

use std::time::Duration;

use matches::clock::TimeControl;
use matches::stats::MIN_PAIRS;

/// The shares of the game time: calibration at the experiment's time
/// control, at the second one, and the direct check. Without a second time
/// control its share goes to the first. The direct check gets as much as
/// the first calibration: at the default two hours that is about 400
/// games, the ±25 Elo the issue asks of it.
const SHARE_TC: f64 = 0.40;
const SHARE_TC2: f64 = 0.20;
const SHARE_DIRECT: f64 = 0.40;

/// The estimated wall time of one game at `tc` when the first engine has
/// `factor` times the time: both sides use most of their clock over a game
/// of about fifty moves each (measured here: 8+0.08 games last about 20 s,
/// the estimate gives 20.4 s).
pub fn game_seconds(tc: &TimeControl, factor: f64) -> f64 {
    let one_side = tc.base.as_secs_f64() + 50.0 * tc.increment.as_secs_f64();
    1.7 * one_side * (1.0 + factor) / 2.0
}

/// The time control with every time multiplied by `factor`.
pub fn scaled(tc: &TimeControl, factor: f64) -> TimeControl {
    TimeControl {
        moves: tc.moves,
        base: tc.base.mul_f64(factor),
        increment: tc.increment.mul_f64(factor),
    }
}

/// What the budget buys.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Game pairs per time-odds point at the experiment's time control.
    pub odds_pairs: usize,
    /// Game pairs per time-odds point at the second time control (0: the
    /// second time control is left out).
    pub odds_pairs_tc2: usize,
    /// Game pairs of the direct check.
    pub direct_pairs: usize,
    /// The estimated wall time of all of it.
    pub estimate: Duration,
    /// What the plan had to leave out, in words.
    pub notes: Vec<String>,
}

/// What the plan is made from.
#[derive(Clone, Debug)]
pub struct PlanInput {
    /// The whole budget.
    pub budget: Duration,
    /// The time the measurements before the games take (bench, perft,
    /// identity), estimated.
    pub before_games: Duration,
    /// Games at once.
    pub concurrency: usize,
    /// The experiment's time control.
    pub tc: TimeControl,
    /// The second time control, if any.
    pub tc2: Option<TimeControl>,
    /// The time factors of the calibration.
    pub factors: Vec<f64>,
    /// The time factors at the second time control.
    pub factors2: Vec<f64>,
    /// Pairs given on the command line (they override the plan).
    pub odds_pairs: Option<usize>,
    /// Likewise for the direct check.
    pub direct_pairs: Option<usize>,
}

/// The wall time of `pairs` game pairs at every factor of `factors`.
fn points_seconds(tc: &TimeControl, factors: &[f64], pairs: usize, concurrency: usize) -> f64 {
    let per_pair: f64 = factors.iter().map(|&f| 2.0 * game_seconds(tc, f)).sum();
    per_pair * pairs as f64 / concurrency.max(1) as f64
}

/// Shares the budget out. An error when it does not buy even
/// [`MIN_PAIRS`] pairs at each calibration point of the experiment's time
/// control.
pub fn plan(input: &PlanInput) -> Result<Plan, String> {
    let c = input.concurrency.max(1);
    let games = input
        .budget
        .saturating_sub(input.before_games)
        .as_secs_f64();
    let mut notes = Vec::new();
    let (share_tc, share_tc2) = match input.tc2 {
        Some(_) => (SHARE_TC, SHARE_TC2),
        None => (SHARE_TC + SHARE_TC2, 0.0),
    };
    let pairs_for = |tc: &TimeControl, factors: &[f64], seconds: f64| -> usize {
        let one = points_seconds(tc, factors, 1, c);
        if one <= 0.0 {
            0
        } else {
            (seconds / one).floor() as usize
        }
    };
    let odds_pairs = input
        .odds_pairs
        .unwrap_or_else(|| pairs_for(&input.tc, &input.factors, share_tc * games));
    if odds_pairs < MIN_PAIRS as usize && input.odds_pairs.is_none() {
        let need = points_seconds(&input.tc, &input.factors, MIN_PAIRS as usize, c) / share_tc
            + input.before_games.as_secs_f64();
        return Err(format!(
            "a budget of {:.2} h buys {odds_pairs} game pair(s) per calibration point at {}; \
             {MIN_PAIRS} are needed for an interval: give --budget {:.2} or more, \
             or a shorter --tc",
            input.budget.as_secs_f64() / 3600.0,
            input.tc,
            (need / 3600.0 * 100.0).ceil() / 100.0
        ));
    }
    let mut odds_pairs_tc2 = match &input.tc2 {
        Some(tc2) => input
            .odds_pairs
            .unwrap_or_else(|| pairs_for(tc2, &input.factors2, share_tc2 * games)),
        None => 0,
    };
    if let Some(tc2) = &input.tc2
        && odds_pairs_tc2 < MIN_PAIRS as usize
        && input.odds_pairs.is_none()
    {
        notes.push(format!(
            "the second time control ({tc2}) is left out: the budget buys {odds_pairs_tc2} \
             pair(s) per point there, {MIN_PAIRS} are needed"
        ));
        odds_pairs_tc2 = 0;
    }
    let direct_pairs = input.direct_pairs.unwrap_or_else(|| {
        let one = 2.0 * game_seconds(&input.tc, 1.0) / c as f64;
        (SHARE_DIRECT * games / one).floor() as usize
    });
    let mut seconds = input.before_games.as_secs_f64()
        + points_seconds(&input.tc, &input.factors, odds_pairs, c)
        + direct_pairs as f64 * 2.0 * game_seconds(&input.tc, 1.0) / c as f64;
    if let Some(tc2) = &input.tc2 {
        seconds += points_seconds(tc2, &input.factors2, odds_pairs_tc2, c);
    }
    Ok(Plan {
        odds_pairs,
        odds_pairs_tc2,
        direct_pairs,
        estimate: Duration::from_secs_f64(seconds),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    fn input(hours: f64) -> PlanInput {
        PlanInput {
            budget: Duration::from_secs_f64(hours * 3600.0),
            before_games: Duration::from_secs(300),
            concurrency: 2,
            tc: tc("5+0.05"),
            tc2: Some(tc("10+0.1")),
            factors: vec![0.5, 0.7, 1.4, 2.0],
            factors2: vec![0.5, 2.0],
            odds_pairs: None,
            direct_pairs: None,
        }
    }

    #[test]
    fn game_length_and_scaling() {
        // 8+0.08: 1.7 · (8 + 4) = 20.4 s; half the time for one side:
        // three quarters of that.
        assert!((game_seconds(&tc("8+0.08"), 1.0) - 20.4).abs() < 1e-9);
        assert!((game_seconds(&tc("8+0.08"), 0.5) - 15.3).abs() < 1e-9);
        assert_eq!(scaled(&tc("10+0.1"), 0.5), tc("5+0.05"));
    }

    #[test]
    fn the_budget_is_shared_and_fits() {
        let p = plan(&input(2.0)).unwrap();
        // 6,900 s of games. At 5+0.05 (12.75 s a game at equal time) the
        // four factors cost 2 · 12.75 · (0.75 + 0.85 + 1.2 + 1.5) / 2 =
        // 54.825 s a pair each, on two cores: 40% buys 50 pairs a point.
        assert_eq!(p.odds_pairs, 50);
        // At 10+0.1 (25.5 s a game) factors 0.5 and 2 cost
        // 2 · 25.5 · (0.75 + 1.5) / 2 = 57.375 s a pair; 20% buys 24.
        assert_eq!(p.odds_pairs_tc2, 24);
        assert!(p.notes.is_empty(), "{:?}", p.notes);
        // The direct check: 40% of 6,900 s at 12.75 s a pair (two cores).
        assert_eq!(p.direct_pairs, 216);
        assert!(p.estimate <= Duration::from_secs(7200), "{:?}", p.estimate);
        // At 20+0.2 (51 s a game) the four factors cost 219.3 s a pair:
        // 20% of two hours buys 6 < 10, so it is left out, and said.
        let mut i = input(2.0);
        i.tc2 = Some(tc("20+0.2"));
        i.factors2 = i.factors.clone();
        let p = plan(&i).unwrap();
        assert_eq!(p.odds_pairs_tc2, 0);
        assert_eq!(p.notes.len(), 1, "{:?}", p.notes);
        // Six hours buy it.
        i.budget = Duration::from_secs(6 * 3600);
        let p = plan(&i).unwrap();
        assert!(p.odds_pairs_tc2 >= 10 && p.notes.is_empty(), "{p:?}");
        assert!(p.estimate <= Duration::from_secs(6 * 3600));
        // Pairs given by hand win.
        let mut i = input(0.01);
        i.odds_pairs = Some(2);
        i.direct_pairs = Some(3);
        let p = plan(&i).unwrap();
        assert_eq!((p.odds_pairs, p.odds_pairs_tc2, p.direct_pairs), (2, 2, 3));
    }

    #[test]
    fn a_budget_too_small_says_what_is_needed() {
        let e = plan(&input(0.1)).unwrap_err();
        assert!(e.contains("--budget"), "{e}");
        assert!(e.contains("0.10 h buys"), "{e}");
    }
}
