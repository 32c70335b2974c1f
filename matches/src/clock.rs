//! Time controls and the chess clock.
//!
//! A time control is written `[moves/]time[+increment]` with times in
//! seconds (`time` may also be `minutes:seconds`): `40/60+0.6` is 60 s for
//! every 40 moves plus 0.6 s a move, `10+0.1` is 10 s for the game plus
//! 0.1 s a move, `1:30` is 90 s for the game.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A clock-based time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Moves per period (`40/...`); `None` for the whole game.
    pub moves: Option<u32>,
    /// Time for a period (or the game).
    pub base: Duration,
    /// Time added after each move.
    pub increment: Duration,
}

fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs = if let Some((m, sec)) = s.split_once(':') {
        let m: f64 = m.parse().map_err(|_| format!("bad minutes '{m}'"))?;
        let sec: f64 = sec.parse().map_err(|_| format!("bad seconds '{sec}'"))?;
        m * 60.0 + sec
    } else {
        s.parse().map_err(|_| format!("bad time '{s}'"))?
    };
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(format!("bad time '{s}'"));
    }
    Ok(Duration::from_secs_f64(secs))
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<TimeControl, String> {
        let err = |e: String| format!("time control '{s}': {e}");
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m
                    .parse()
                    .map_err(|_| err(format!("bad move count '{m}'")))?;
                (if m == 0 { None } else { Some(m) }, rest)
            }
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (
                parse_seconds(b).map_err(err)?,
                parse_seconds(i).map_err(err)?,
            ),
            None => (parse_seconds(rest).map_err(err)?, Duration::ZERO),
        };
        if base.is_zero() && inc.is_zero() {
            return Err(err("no time at all".into()));
        }
        Ok(TimeControl {
            moves,
            base,
            increment: inc,
        })
    }
}

fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for TimeControl {
    /// `40/60+0.6`, `10+0.1`, `60`: also the form of PGN's `TimeControl`
    /// tag (seconds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", secs(self.increment))?;
        }
        Ok(())
    }
}

/// Everything that limits one engine's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// A clock (`tc=`).
    pub tc: Option<TimeControl>,
    /// A fixed time per move (`st=`, `go movetime`).
    pub movetime: Option<Duration>,
    /// A node limit (`nodes=`, `go nodes`).
    pub nodes: Option<u64>,
    /// A depth limit (`depth=`, `go depth`).
    pub depth: Option<u32>,
    /// Grace past the clock or the move time before a time loss
    /// (`timemargin=`, milliseconds).
    pub margin: Duration,
}

impl Limits {
    /// Whether anything limits the search.
    pub fn is_limited(&self) -> bool {
        self.tc.is_some() || self.movetime.is_some() || self.nodes.is_some() || self.depth.is_some()
    }

    /// A short description for the summary and PGN: `10+0.1`, `st=0.1`,
    /// `nodes=1000`, joined by spaces.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(tc.to_string());
        }
        if let Some(st) = self.movetime {
            parts.push(format!("st={}", secs(st)));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        parts.join(" ")
    }
}

/// One side's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Time left, in microseconds (negative within the margin).
    remaining_us: i64,
    /// Moves left in the current period.
    moves_left: Option<u32>,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            remaining_us: tc.base.as_micros() as i64,
            moves_left: tc.moves,
        }
    }

    /// Time left in milliseconds (may be negative within the margin).
    pub fn remaining_ms(&self) -> i64 {
        self.remaining_us.div_euclid(1000)
    }

    /// Time left, zero if none.
    pub fn remaining(&self) -> Duration {
        Duration::from_micros(self.remaining_us.max(0) as u64)
    }

    /// Moves to the next time control (`movestogo`), if there are periods.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_left
    }

    /// The increment.
    pub fn increment(&self) -> Duration {
        self.tc.increment
    }

    /// Charges a move that took `elapsed`. Returns `false` if the flag fell:
    /// more than `margin` past the time left. Otherwise adds the increment
    /// and, at the end of a period, the next period's time.
    pub fn spend(&mut self, elapsed: Duration, margin: Duration) -> bool {
        self.remaining_us -= elapsed.as_micros() as i64;
        if self.remaining_us < -(margin.as_micros() as i64) {
            return false;
        }
        self.remaining_us += self.tc.increment.as_micros() as i64;
        if let Some(left) = self.moves_left.as_mut() {
            *left -= 1;
            if *left == 0 {
                *left = self.tc.moves.unwrap_or(1);
                self.remaining_us += self.tc.base.as_micros() as i64;
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn parses_time_controls() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(tc.moves, Some(40));
        assert_eq!(tc.base, ms(60_000));
        assert_eq!(tc.increment, ms(600));
        assert_eq!(tc.to_string(), "40/60+0.6");
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.increment),
            (None, ms(10_000), ms(100))
        );
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "1:30".parse().unwrap();
        assert_eq!((tc.base, tc.increment), (ms(90_000), Duration::ZERO));
        assert_eq!(tc.to_string(), "90");
        assert_eq!("0/5+1".parse::<TimeControl>().unwrap().moves, None);
        for bad in ["", "x", "40/", "/10", "10+", "-5", "0+0", "a/10"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_with_increment() {
        let mut c = Clock::new("1+0.1".parse().unwrap());
        assert_eq!(c.remaining_ms(), 1000);
        assert!(c.spend(ms(300), Duration::ZERO));
        assert_eq!(c.remaining_ms(), 800); // 1000 - 300 + 100
        assert_eq!(c.moves_to_go(), None);
        // 850 ms against 800 left: flagged without a margin…
        let mut flagged = c;
        assert!(!flagged.spend(ms(850), Duration::ZERO));
        // …but not with 100 ms of margin.
        assert!(c.spend(ms(850), ms(100)));
        assert_eq!(c.remaining_ms(), 50); // 800 - 850 + 100
    }

    #[test]
    fn clock_with_periods() {
        let mut c = Clock::new("2/1".parse().unwrap());
        assert_eq!(c.moves_to_go(), Some(2));
        assert!(c.spend(ms(400), Duration::ZERO));
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (600, Some(1)));
        assert!(c.spend(ms(500), Duration::ZERO));
        // End of the period: 100 left + 1000 for the next two moves.
        assert_eq!((c.remaining_ms(), c.moves_to_go()), (1100, Some(2)));
    }

    #[test]
    fn limits_description() {
        let l = Limits {
            tc: Some("10+0.1".parse().unwrap()),
            nodes: Some(5000),
            ..Limits::default()
        };
        assert!(l.is_limited());
        assert_eq!(l.describe(), "10+0.1 nodes=5000");
        assert!(!Limits::default().is_limited());
        let st = Limits {
            movetime: Some(ms(250)),
            ..Limits::default()
        };
        assert_eq!(st.describe(), "st=0.25");
    }
}
