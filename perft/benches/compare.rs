//! Perft speed against other Rust move generators: each of our attack
//! methods, cozy-chess 0.3.4 and shakmaty 0.30.1, on one thread, every one
//! bulk-counting its last ply, on the start position (perft 6) and Kiwipete
//! (perft 5). Each figure is the best of several runs, the engines taking
//! turns so that a slow patch of the machine does not fall on one of them.
//!
//! `cargo bench -p perft --bench compare`; `PERFT_BENCH_REPS=N` sets the
//! runs (default 3). `PERFT_BENCH_DEEP=1` counts a ply deeper (start perft 7,
//! Kiwipete perft 6: about a minute a run for each engine), and
//! `PERFT_BENCH_ENGINES=pext,obstruction-difference` times only the engines
//! named (attack methods as `--method` reads them, `shakmaty`; cozy-chess,
//! the yardstick, always
//! runs). Run without `--bench` (as `cargo test --benches` does), it only
//! checks each engine's counts on small depths.

use std::hint::black_box;
use std::time::{Duration, Instant};

use attacks::{Method, SliderAttacks};
use movegen::Position;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

struct Work {
    name: &'static str,
    fen: &'static str,
    depth: u32,
    nodes: u64,
}

const FULL: &[Work] = &[
    Work {
        name: "startpos perft 6",
        fen: movegen::STARTING_FEN,
        depth: 6,
        nodes: 119_060_324,
    },
    Work {
        name: "kiwipete perft 5",
        fen: KIWIPETE,
        depth: 5,
        nodes: 193_690_690,
    },
];

const DEEP: &[Work] = &[
    Work {
        name: "startpos perft 7",
        fen: movegen::STARTING_FEN,
        depth: 7,
        nodes: 3_195_901_860,
    },
    Work {
        name: "kiwipete perft 6",
        fen: KIWIPETE,
        depth: 6,
        nodes: 8_031_647_685,
    },
];

const SMOKE: &[Work] = &[
    Work {
        name: "startpos perft 4",
        fen: movegen::STARTING_FEN,
        depth: 4,
        nodes: 197_281,
    },
    Work {
        name: "kiwipete perft 3",
        fen: KIWIPETE,
        depth: 3,
        nodes: 97_862,
    },
];

/// cozy-chess's perft the standard way: `generate_moves` hands over the
/// moves piece by piece; at depth 1 only their number is taken.
fn cozy_perft(board: &cozy_chess::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    if depth == 1 {
        board.generate_moves(|moves| {
            nodes += moves.len() as u64;
            false
        });
    } else {
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_perft(&child, depth - 1);
            }
            false
        });
    }
    nodes
}

#[derive(Clone, Copy)]
enum Engine {
    Ours(Method),
    Cozy,
    Shakmaty,
}

impl Engine {
    fn name(self) -> String {
        match self {
            Engine::Ours(m) => format!("borrow {m}"),
            Engine::Cozy => "cozy-chess 0.3.4".into(),
            Engine::Shakmaty => "shakmaty 0.30.1".into(),
        }
    }

    /// One timed run: the count and its time (set-up outside the timing).
    fn run(self, work: &Work) -> (u64, Duration) {
        match self {
            Engine::Ours(m) => attacks::dispatch!(m, A => run_ours::<A>(work)),
            Engine::Cozy => {
                let board = cozy_chess::Board::from_fen(work.fen, false).expect("cozy FEN");
                let start = Instant::now();
                let n = cozy_perft(black_box(&board), work.depth);
                (n, start.elapsed())
            }
            Engine::Shakmaty => {
                let pos = perft::oracle::position(work.fen).expect("shakmaty FEN");
                let start = Instant::now();
                let n = shakmaty::perft(black_box(&pos), work.depth);
                (n, start.elapsed())
            }
        }
    }
}

fn run_ours<A: SliderAttacks>(work: &Work) -> (u64, Duration) {
    let pos = Position::<A>::from_fen(work.fen).expect("our FEN");
    let start = Instant::now();
    let n = perft::perft(black_box(&pos), work.depth);
    (n, start.elapsed())
}

fn mnps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6
}

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let (works, reps) = if full {
        let reps = std::env::var("PERFT_BENCH_REPS")
            .ok()
            .and_then(|r| r.parse().ok())
            .filter(|&r: &usize| r > 0)
            .unwrap_or(3);
        let deep = std::env::var("PERFT_BENCH_DEEP").is_ok_and(|d| d == "1");
        (if deep { DEEP } else { FULL }, reps)
    } else {
        (SMOKE, 1)
    };

    let mut engines: Vec<Engine> = match std::env::var("PERFT_BENCH_ENGINES") {
        Err(_) => Method::ALL
            .iter()
            .map(|&m| Engine::Ours(m))
            .chain([Engine::Shakmaty])
            .collect(),
        // The names asked for: attack methods as `--method` reads them,
        // `shakmaty`; `cozy-chess` runs anyway.
        Ok(named) => named
            .split(',')
            .map(str::trim)
            .filter(|&name| name != "cozy-chess")
            .map(|name| match name {
                "shakmaty" => Engine::Shakmaty,
                _ => Engine::Ours(name.parse().unwrap_or_else(|_| {
                    eprintln!("PERFT_BENCH_ENGINES: no engine {name:?} (method names, shakmaty)");
                    std::process::exit(2)
                })),
            })
            .collect(),
    };
    // cozy-chess, the yardstick of every ratio, last.
    engines.push(Engine::Cozy);

    // best[engine][work]
    let mut best = vec![vec![Duration::MAX; works.len()]; engines.len()];
    for rep in 0..reps {
        if full {
            eprintln!("run {}/{reps}", rep + 1);
        }
        for (e, &engine) in engines.iter().enumerate() {
            for (w, work) in works.iter().enumerate() {
                let (n, t) = engine.run(work);
                assert_eq!(n, work.nodes, "{} on {}", engine.name(), work.name);
                best[e][w] = best[e][w].min(t);
            }
        }
    }
    if !full {
        println!("compare: counts agree for every engine (smoke run; use cargo bench for timings)");
        return;
    }

    let total_nodes: u64 = works.iter().map(|w| w.nodes).sum();
    let total = |e: usize| best[e].iter().sum::<Duration>();
    let cozy = engines.len() - 1;
    let mut order: Vec<usize> = (0..engines.len()).collect();
    order.sort_by_key(|&e| total(e));

    println!(
        "perft, 1 thread, leaf moves bulk-counted by every engine; best of {reps} runs; \
         Mnps = million leaf nodes per second"
    );
    let width = engines.iter().map(|e| e.name().len()).max().unwrap_or(6);
    let mut header = format!("{:<width$}", "engine");
    for w in works {
        let label = format!("{} Mnps", w.name);
        header += &format!("  {label:>7}  {:>7}", "vs cozy");
    }
    header += &format!("  {:>10}  {:>7}", "both Mnps", "vs cozy");
    println!("{header}");
    for &e in &order {
        let mut line = format!("{:<width$}", engines[e].name());
        for (w, work) in works.iter().enumerate() {
            let rate = mnps(work.nodes, best[e][w]);
            let cozy_rate = mnps(work.nodes, best[cozy][w]);
            line += &format!(
                "  {:>width2$.1}  {:>7.2}",
                rate,
                rate / cozy_rate,
                width2 = work.name.len() + 5
            );
        }
        let rate = mnps(total_nodes, total(e));
        let cozy_rate = mnps(total_nodes, total(cozy));
        line += &format!("  {:>10.1}  {:>7.2}", rate, rate / cozy_rate);
        println!("{line}");
    }
}
