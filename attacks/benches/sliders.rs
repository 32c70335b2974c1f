//! Slider-attack throughput of every method in [`Method::ALL`] and of
//! `shakmaty::attacks` (fixed-shift fancy magics), on realistic occupancies.
//!
//! # Work
//!
//! `benches/positions.epd` holds 600 positions (see its header and
//! `benches/make_positions.py`): 300 human opening positions from
//! UHO_4060_v4.epd (CC0), 150 middlegames and 150 endgames played on from
//! them. For every rook, bishop and queen of either colour on those boards,
//! the pair (its square, the board's occupancy) is one lookup of that piece's
//! attacks. A *sweep* looks up every pair of one piece kind once.
//!
//! Every getter runs the same monomorphised loop ([`sweep`]): each pair goes
//! through [`black_box`], so the compiler can neither precompute the answers
//! nor vectorise the loop across pairs (AVX-512 could, for some methods, which
//! an engine looking up one square at a time would never see), and the
//! results are XOR-ed together and returned, so no lookup is dead code.
//! Lookups are independent of each other: this measures throughput, as in
//! move generation. shakmaty gets its own `(Square, Bitboard)` pairs,
//! converted beforehand, so its loop does the same work as ours.
//!
//! # Running
//!
//! ```text
//! cargo bench -p attacks --bench sliders               # criterion, then the table
//! cargo bench -p attacks --bench sliders -- --table    # the table only (a few seconds)
//! cargo bench -p attacks --bench sliders -- queen      # criterion filter (then the table)
//! ```
//!
//! Criterion reports each getter in groups `rook`, `bishop` and `queen`, in
//! lookups per second (`Throughput::Elements`). Its runs are kept short:
//! 1 s warm-up, 1 s measurement, 20 samples, 10,000 bootstrap resamples, and
//! no HTML plots (add `-- --plotting-backend plotters` for them), about two
//! seconds a benchmark and a minute and a half in all.
//!
//! The table then times every getter with [`Instant`] in one run: rounds
//! that visit every getter and piece in turn, each timing a block of sweeps
//! of about [`BLOCK_LOOKUPS`] lookups, keeping each one's best block (the
//! least disturbed by the rest of the machine). It prints millions of
//! lookups per second for rook, bishop and queen, `all` (every lookup of the
//! three sweeps over their summed best times), and `all` as a multiple of
//! shakmaty's, fastest first.

use std::hint::black_box;
use std::marker::PhantomData;
use std::time::{Duration, Instant};

use attacks::{Bitboard, Method, SliderAttacks, Square, dispatch};
use criterion::{Criterion, Throughput};

/// The positions, one FEN (or EPD) a line; `#` starts a comment line.
const POSITIONS: &str = include_str!("positions.epd");

/// Lookups in one timed block of the table.
const BLOCK_LOOKUPS: usize = 400_000;
/// Rounds of the table: every getter and piece is timed once per round.
const ROUNDS: usize = 40;

/// The three piece kinds whose attacks are looked up.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Piece {
    Rook,
    Bishop,
    Queen,
}

impl Piece {
    const ALL: [Piece; 3] = [Piece::Rook, Piece::Bishop, Piece::Queen];

    fn name(self) -> &'static str {
        match self {
            Piece::Rook => "rook",
            Piece::Bishop => "bishop",
            Piece::Queen => "queen",
        }
    }
}

/// The (square, occupancy) pairs of one piece kind, in both crates' types.
#[derive(Default)]
struct Pairs {
    ours: Vec<(Square, Bitboard)>,
    shakmaty: Vec<(shakmaty::Square, shakmaty::Bitboard)>,
}

impl Pairs {
    fn push(&mut self, sq: Square, occ: Bitboard) {
        self.ours.push((sq, occ));
        self.shakmaty
            .push((shakmaty::Square::new(sq as u32), shakmaty::Bitboard(occ.0)));
    }
}

/// All lookups of the benchmark.
struct Workload {
    positions: usize,
    pairs: [Pairs; 3],
}

impl Workload {
    fn load() -> Workload {
        let mut w = Workload {
            positions: 0,
            pairs: Default::default(),
        };
        for line in POSITIONS.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let board = line.split_whitespace().next().unwrap_or_default();
            let (occ, sliders) =
                parse_board(board).unwrap_or_else(|e| panic!("positions.epd: {e} in '{line}'"));
            for (piece, sq) in sliders {
                w.pairs[piece as usize].push(sq, occ);
            }
            w.positions += 1;
        }
        assert!(
            w.pairs.iter().all(|p| !p.ours.is_empty()),
            "positions.epd has no sliders"
        );
        w
    }

    fn len(&self, piece: Piece) -> usize {
        self.pairs[piece as usize].ours.len()
    }
}

/// The occupancy and the sliders of a FEN's board field.
fn parse_board(board: &str) -> Result<(Bitboard, Vec<(Piece, Square)>), String> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(format!("{} ranks", ranks.len()));
    }
    let mut occ = Bitboard::EMPTY;
    let mut sliders = Vec::new();
    for (i, rank) in ranks.iter().enumerate() {
        let r = 7 - i as u32;
        let mut file = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
                continue;
            }
            let piece = match c.to_ascii_lowercase() {
                'r' => Some(Piece::Rook),
                'b' => Some(Piece::Bishop),
                'q' => Some(Piece::Queen),
                'p' | 'n' | 'k' => None,
                _ => return Err(format!("bad character '{c}'")),
            };
            if file >= 8 {
                return Err(format!("rank {} too long", r + 1));
            }
            let sq = Square::new(8 * r + file);
            occ |= sq;
            if let Some(p) = piece {
                sliders.push((p, sq));
            }
            file += 1;
        }
        if file != 8 {
            return Err(format!("rank {} has {file} files", r + 1));
        }
    }
    Ok((occ, sliders))
}

/// One way to get slider attacks, over its own pair type.
trait Getter {
    type Pair: Copy;
    fn pairs(w: &Workload, piece: Piece) -> &[Self::Pair];
    fn rook(p: Self::Pair) -> u64;
    fn bishop(p: Self::Pair) -> u64;
    fn queen(p: Self::Pair) -> u64;
}

/// A method of this crate.
struct Ours<A>(PhantomData<A>);

impl<A: SliderAttacks> Getter for Ours<A> {
    type Pair = (Square, Bitboard);
    fn pairs(w: &Workload, piece: Piece) -> &[Self::Pair] {
        &w.pairs[piece as usize].ours
    }
    #[inline(always)]
    fn rook((sq, occ): Self::Pair) -> u64 {
        A::rook_attacks(sq, occ).0
    }
    #[inline(always)]
    fn bishop((sq, occ): Self::Pair) -> u64 {
        A::bishop_attacks(sq, occ).0
    }
    #[inline(always)]
    fn queen((sq, occ): Self::Pair) -> u64 {
        A::queen_attacks(sq, occ).0
    }
}

/// `shakmaty::attacks`.
struct Shakmaty;

impl Getter for Shakmaty {
    type Pair = (shakmaty::Square, shakmaty::Bitboard);
    fn pairs(w: &Workload, piece: Piece) -> &[Self::Pair] {
        &w.pairs[piece as usize].shakmaty
    }
    #[inline(always)]
    fn rook((sq, occ): Self::Pair) -> u64 {
        shakmaty::attacks::rook_attacks(sq, occ).0
    }
    #[inline(always)]
    fn bishop((sq, occ): Self::Pair) -> u64 {
        shakmaty::attacks::bishop_attacks(sq, occ).0
    }
    #[inline(always)]
    fn queen((sq, occ): Self::Pair) -> u64 {
        shakmaty::attacks::queen_attacks(sq, occ).0
    }
}

const ROOK: u8 = 0;
const BISHOP: u8 = 1;
const QUEEN: u8 = 2;

/// One lookup per pair, the same loop for every getter (see the module doc).
#[inline(never)]
fn sweep<G: Getter, const PIECE: u8>(pairs: &[G::Pair]) -> u64 {
    let mut acc = 0;
    for p in pairs {
        let p = black_box(*p);
        acc ^= match PIECE {
            ROOK => G::rook(p),
            BISHOP => G::bishop(p),
            _ => G::queen(p),
        };
    }
    acc
}

/// The sweep of `piece` for getter `G`, as a plain function pointer.
fn sweep_fn<G: Getter>(piece: Piece) -> fn(&[G::Pair]) -> u64 {
    match piece {
        Piece::Rook => sweep::<G, ROOK>,
        Piece::Bishop => sweep::<G, BISHOP>,
        Piece::Queen => sweep::<G, QUEEN>,
    }
}

fn bench_getter<G: Getter>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    w: &Workload,
    piece: Piece,
) {
    let pairs = G::pairs(w, piece);
    let f = sweep_fn::<G>(piece);
    group.bench_function(name, |b| b.iter(|| f(black_box(pairs))));
}

fn criterion_benches(c: &mut Criterion, w: &Workload) {
    for piece in Piece::ALL {
        let mut group = c.benchmark_group(piece.name());
        group.throughput(Throughput::Elements(w.len(piece) as u64));
        for &m in Method::ALL {
            dispatch!(m, A => bench_getter::<Ours<A>>(&mut group, m.name(), w, piece));
        }
        bench_getter::<Shakmaty>(&mut group, "shakmaty", w, piece);
        group.finish();
    }
}

/// The time of `reps` sweeps of `piece` by `G`; the checksum is passed to
/// [`black_box`] so the sweeps cannot be dropped.
fn time_block<G: Getter>(w: &Workload, piece: Piece, reps: usize) -> Duration {
    let pairs = G::pairs(w, piece);
    let f = sweep_fn::<G>(piece);
    let start = Instant::now();
    for _ in 0..reps {
        black_box(f(black_box(pairs)));
    }
    start.elapsed()
}

/// One row of the table: a getter's best block time per piece.
struct Row {
    name: &'static str,
    best: [Duration; 3],
}

fn print_table(w: &Workload) {
    // The getters: every method of this build, then shakmaty (`None`).
    let getters: Vec<Option<Method>> = Method::ALL
        .iter()
        .copied()
        .map(Some)
        .chain([None])
        .collect();
    let reps = Piece::ALL.map(|p| BLOCK_LOOKUPS.div_ceil(w.len(p)));
    let time = |g: Option<Method>, piece: Piece| {
        let reps = reps[piece as usize];
        match g {
            Some(m) => dispatch!(m, A => time_block::<Ours<A>>(w, piece, reps)),
            None => time_block::<Shakmaty>(w, piece, reps),
        }
    };
    let mut rows: Vec<Row> = getters
        .iter()
        .map(|g| Row {
            name: g.map_or("shakmaty", Method::name),
            best: [Duration::MAX; 3],
        })
        .collect();
    // Warm every table and branch predictor once, then interleave the
    // rounds so that slow drift of the machine affects every getter alike.
    for &g in &getters {
        for piece in Piece::ALL {
            time(g, piece);
        }
    }
    for _ in 0..ROUNDS {
        for (&g, row) in getters.iter().zip(&mut rows) {
            for piece in Piece::ALL {
                let t = time(g, piece);
                let best = &mut row.best[piece as usize];
                *best = (*best).min(t);
            }
        }
    }

    let lookups = Piece::ALL.map(|p| (reps[p as usize] * w.len(p)) as f64);
    let rate = |row: &Row, i: usize| lookups[i] / row.best[i].as_secs_f64() / 1e6;
    let all = |row: &Row| {
        lookups.iter().sum::<f64>() / row.best.iter().map(Duration::as_secs_f64).sum::<f64>() / 1e6
    };
    let shakmaty_all = rows
        .iter()
        .find(|r| r.name == "shakmaty")
        .map(all)
        .unwrap_or(f64::NAN);
    rows.sort_by(|a, b| all(b).total_cmp(&all(a)));

    println!();
    println!(
        "sliders: {} positions; {} rook, {} bishop, {} queen lookups a sweep; \
         best of {ROUNDS} blocks of ~{BLOCK_LOOKUPS} lookups; M lookups/s",
        w.positions,
        w.len(Piece::Rook),
        w.len(Piece::Bishop),
        w.len(Piece::Queen),
    );
    println!(
        "{:<32} {:>8} {:>8} {:>8} {:>8} {:>12}",
        "method", "rook", "bishop", "queen", "all", "vs shakmaty"
    );
    for row in &rows {
        println!(
            "{:<32} {:>8.1} {:>8.1} {:>8.1} {:>8.1} {:>11.2}x",
            row.name,
            rate(row, 0),
            rate(row, 1),
            rate(row, 2),
            all(row),
            all(row) / shakmaty_all
        );
    }
}

fn main() {
    let w = Workload::load();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    if has("--table") {
        print_table(&w);
        return;
    }
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(1))
        .sample_size(20)
        .nresamples(10_000)
        .without_plots()
        .configure_from_args();
    criterion_benches(&mut c, &w);
    c.final_summary();
    // `cargo bench` passes `--bench`; `cargo test --benches` does not (one
    // quick test run of each benchmark, no table), nor do listing runs.
    if has("--bench") && !has("--list") && !has("--test") && !has("--profile-time") {
        print_table(&w);
    }
}
