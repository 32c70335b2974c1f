//! `borrow bench`: a fixed search over fixed positions, for OpenBench and
//! for comparing attack methods. Single thread, a fresh table per position,
//! depth-limited: the node count depends on nothing but the code, and is the
//! same for every attack method (only the speed differs).

use std::time::{Duration, Instant};

use attacks::{Method, SliderAttacks, dispatch};
use movegen::Position;

use crate::evaluator::Evaluator;
use crate::search::{Limits, Shared, Silent, search};

/// The default depth: the one source for `borrow bench`, its help, and the
/// tools that run it (`borrow-experiment`).
pub const DEFAULT_DEPTH: u32 = 13;

/// The depths `borrow bench` accepts, however they are given.
pub const DEPTHS: std::ops::RangeInclusive<u32> = 1..=64;

/// Reads a bench depth: a whole number in [`DEPTHS`]; the error says so.
pub fn parse_depth(text: &str) -> Result<u32, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|d| DEPTHS.contains(d))
        .ok_or_else(|| {
            format!(
                "'{text}' is not a depth from {} to {}",
                DEPTHS.start(),
                DEPTHS.end()
            )
        })
}

/// Positions from openings, middlegames and endgames (tactics, passed pawns,
/// checks, promotions, castling both ways).
pub const POSITIONS: [&str; 16] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9",
    "r2q1rk1/ppp1ppbp/2np1npB/8/2PP4/2N2P2/PP1Q1PPP/R3KB1R w KQ - 6 9",
    "rn1q1rk1/1bp1ppbp/p2p1np1/1p6/3PP3/2PB1N2/PP1NQPPP/R1B2RK1 w - - 0 9",
    "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 8 12",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "3r1rk1/p4ppp/1p2p3/2q5/2P1Q3/1P3P2/P5PP/3RR1K1 w - - 0 23",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "8/8/1p1k4/p2p4/P2P1K2/1P6/8/8 w - - 0 40",
    "6k1/5p2/6p1/8/7p/8/6PP/6K1 b - - 0 1",
    "8/8/8/4k3/8/8/3QK3/8 w - - 0 1",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R b KQkq - 0 5",
    "8/P5k1/8/8/8/8/6K1/1r6 w - - 0 1",
    "1k1r4/pp1b1R2/3q2pp/4p3/2B5/4Q3/PPP2B2/2K5 b - - 0 1",
];

/// The result of a bench run.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// Wall time of the searches.
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1_000_000_000 / self.time.as_nanos().max(1)) as u64
    }
}

fn run<A: SliderAttacks>(
    depth: u32,
    evaluator: &Evaluator,
    mut per_position: impl FnMut(usize, u64),
) -> BenchResult {
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos: Position<A> =
            Position::from_fen(fen).unwrap_or_else(|e| unreachable!("bench FEN {fen}: {e}"));
        let shared = Shared::new(16);
        let limits = Limits {
            depth: Some(depth),
            multipv: 1,
            evaluator: evaluator.clone(),
            ..Limits::default()
        };
        let start = Instant::now();
        let outcome = search(&pos, &[], &limits, 1, &shared, &Silent);
        time += start.elapsed();
        nodes += outcome.nodes;
        per_position(i, outcome.nodes);
    }
    BenchResult { nodes, time }
}

/// Runs the bench with `method` and `evaluator` to `depth`, calling
/// `per_position` with each position's index and node count.
pub fn bench(
    method: Method,
    depth: u32,
    evaluator: &Evaluator,
    per_position: impl FnMut(usize, u64),
) -> BenchResult {
    dispatch!(method, A => run::<A>(depth, evaluator, per_position))
}
