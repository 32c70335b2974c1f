//! Time management: soft and hard limits from the clock.
//!
//! The soft limit is when not to start another iteration; the hard limit is
//! when to stop in the middle of one. Both leave `Move Overhead` for the
//! GUI's and the operating system's delays, and neither ever exceeds the time
//! left on the clock.

use std::time::Duration;

use attacks::Color;

use crate::uci::Go;

/// The clock as `go` gives it, in milliseconds (negative values allowed:
/// some GUIs send them after a late move).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the side to move.
    pub time: Option<i64>,
    /// Increment per move.
    pub inc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Fixed time for this move.
    pub movetime: Option<i64>,
}

/// `(soft, hard)` limits, or `None` for a search without time limits.
///
/// Any clock is accepted, up to `i64::MIN` and `i64::MAX` milliseconds: the
/// arithmetic saturates, so absurd clocks give long or short limits, never
/// an overflow.
pub fn limits(clock: &Clock, overhead_ms: u64) -> Option<(Duration, Duration)> {
    let overhead = i64::try_from(overhead_ms).unwrap_or(i64::MAX);
    if let Some(mt) = clock.movetime {
        let t = mt.saturating_sub(overhead).max(1) as u64;
        return Some((Duration::from_millis(t), Duration::from_millis(t)));
    }
    let time = clock.time?;
    let inc = clock.inc.unwrap_or(0).max(0);
    // What can be spent at all: keep the overhead, never below one millisecond.
    let available = time.saturating_sub(overhead).max(1);
    let moves_left = i64::from(clock.movestogo.unwrap_or(20).clamp(1, 50));
    let base = (available / moves_left).saturating_add(inc);
    let soft = fraction(base, 6, 10).clamp(1, available);
    let hard = (base.saturating_mul(5) / 2)
        .min(fraction(available, 6, 10))
        .max(1)
        .max(soft.min(available));
    Some((
        Duration::from_millis(soft as u64),
        Duration::from_millis(hard as u64),
    ))
}

/// The `(soft, hard)` limits of `go` for the side to move, `us`: its clock,
/// or none for `go infinite` and a search bounded otherwise (depth, nodes,
/// mate) or by nothing (a bare `go` searches until `stop`).
pub fn limits_of_go(go: &Go, us: Color, overhead_ms: u64) -> (Option<Duration>, Option<Duration>) {
    // `go infinite` searches until `stop`, whatever clocks come with it.
    if go.infinite {
        return (None, None);
    }
    let (time, inc) = match us {
        Color::White => (go.wtime, go.winc),
        Color::Black => (go.btime, go.binc),
    };
    // A timed `go` without our clock (only the opponent's, only the
    // increments, only `movestogo`) must not become a search without
    // limit: take our clock as empty, which answers at once.
    let timed = go.wtime.is_some()
        || go.btime.is_some()
        || go.winc.is_some()
        || go.binc.is_some()
        || go.movestogo.is_some()
        // Likewise a `go` whose every limit was skipped as unreadable
        // (`go depth x`): it asked for a bounded search, so it must
        // answer by itself; only a bare `go` searches until `stop`.
        || (!go.notes.is_empty() && !go.has_limit());
    // Clocks beyond any game (about 35 years) are clamped, a second guard:
    // the arithmetic of `limits` also saturates by itself.
    const MAX_MS: i64 = 1 << 40;
    let ms = |t: Option<i64>| t.map(|t| t.clamp(-MAX_MS, MAX_MS));
    let clock = Clock {
        time: ms(time.or(timed.then_some(0))),
        inc: ms(inc),
        movestogo: go.movestogo,
        movetime: ms(go.movetime),
    };
    limits(&clock, overhead_ms).unzip()
}

/// `x * num / den` for `0 <= x` and `num <= den`, without overflow.
fn fraction(x: i64, num: i64, den: i64) -> i64 {
    (i128::from(x) * i128::from(num) / i128::from(den)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_beyond_the_clock() {
        for time in [-50, 0, 1, 5, 10, 50, 100, 1_000, 60_000, 3_600_000] {
            for inc in [None, Some(0), Some(10), Some(1_000)] {
                for mtg in [None, Some(1), Some(40)] {
                    let c = Clock {
                        time: Some(time),
                        inc,
                        movestogo: mtg,
                        movetime: None,
                    };
                    let (soft, hard) = limits(&c, 10).unwrap();
                    assert!(soft <= hard, "{c:?}");
                    let cap = (time - 10).max(1) as u128;
                    assert!(hard.as_millis() <= cap, "{c:?}: hard {hard:?}");
                }
            }
        }
    }

    #[test]
    fn movetime_and_none() {
        let c = Clock {
            movetime: Some(1000),
            ..Clock::default()
        };
        assert_eq!(limits(&c, 10).unwrap().1, Duration::from_millis(990));
        assert_eq!(limits(&Clock::default(), 10), None);
    }

    #[test]
    fn one_plus_hundredth_spends_little() {
        let c = Clock {
            time: Some(1_000),
            inc: Some(10),
            movestogo: None,
            movetime: None,
        };
        let (soft, hard) = limits(&c, 10).unwrap();
        assert!(
            soft.as_millis() < 50 && hard.as_millis() < 150,
            "{soft:?} {hard:?}"
        );
    }

    /// A game at 10+0.1 in the model of docs/engine.md: every move takes
    /// 1.46 times its soft limit (the ratio measured in the gauntlet's
    /// games). The clock must be spent: more than 400 ms on the first move
    /// and less than 1.5 s left at move 60 (main's formula of before: 356 ms
    /// and 2,715 ms).
    #[test]
    fn ten_plus_a_tenth_spends_the_clock() {
        let mut time = 10_000_i64;
        let mut first = 0;
        for ply in 0..60 {
            let c = Clock {
                time: Some(time),
                inc: Some(100),
                movestogo: None,
                movetime: None,
            };
            let (soft, _) = limits(&c, 10).unwrap();
            let used = soft.as_millis() as i64 * 146 / 100;
            if ply == 0 {
                first = used;
            }
            time = time - used + 100;
        }
        assert!(first > 400, "first move {first} ms");
        assert!(time < 1_500, "{time} ms left at move 60");
    }

    #[test]
    fn extreme_clocks_do_not_overflow() {
        let ends = [i64::MIN, i64::MIN + 1, -1, 0, 1, i64::MAX - 1, i64::MAX];
        for time in ends {
            for inc in ends {
                for movetime in [None, Some(time)] {
                    for overhead in [0, 10, u64::MAX] {
                        let c = Clock {
                            time: Some(time),
                            inc: Some(inc),
                            movestogo: Some(1),
                            movetime,
                        };
                        let (soft, hard) = limits(&c, overhead).unwrap();
                        assert!(soft <= hard, "{c:?} {overhead}");
                        assert!(hard >= Duration::from_millis(1), "{c:?} {overhead}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_go_gives_the_clock_of_the_side_to_move() {
        let go = Go {
            wtime: Some(60_000),
            btime: Some(1_000),
            ..Go::default()
        };
        let (w, b) = (
            limits_of_go(&go, Color::White, 10),
            limits_of_go(&go, Color::Black, 10),
        );
        assert!(w.1.unwrap() > b.1.unwrap());
        // No limit: a bare go, go infinite (whatever the clocks), go depth.
        assert_eq!(limits_of_go(&Go::default(), Color::White, 10), (None, None));
        let inf = Go {
            infinite: true,
            ..go.clone()
        };
        assert_eq!(limits_of_go(&inf, Color::White, 10), (None, None));
        let depth = Go {
            depth: Some(5),
            ..Go::default()
        };
        assert_eq!(limits_of_go(&depth, Color::White, 10), (None, None));
        // Only the opponent's clock: ours is taken as empty, answered at once.
        let theirs = Go {
            btime: Some(60_000),
            ..Go::default()
        };
        let (soft, hard) = limits_of_go(&theirs, Color::White, 10);
        assert_eq!(
            (soft, hard),
            (
                Some(Duration::from_millis(1)),
                Some(Duration::from_millis(1))
            )
        );
    }
}
