//! The search: iterative deepening with aspiration windows over a principal
//! variation search, quiescence search with SEE, and the usual pruning and
//! ordering heuristics; Lazy SMP for several threads. Generic over the attack
//! method, so each method gets its own monomorphised instance.
//!
//! The search knows nothing of text: it reads [`Limits`] and tells a
//! [`Reporter`] what it found.
//!
//! - `limits`: what is asked ([`Limits`]); `report`: what is answered
//!   ([`Report`] to a [`Reporter`], [`SearchResult`]). The score scale
//!   ([`MATE`], [`INFINITY`], [`MAX_PLY`]) and [`Score`] are
//!   [`nnue::score`]'s, which the tablebases and the training data share.
//! - `threads`: [`search`], the entry point: the threads of Lazy SMP.
//! - `iterate`: iterative deepening and aspiration windows, one thread.
//! - `shared`: the [`Shared`] state of the threads and what each learned,
//!   kept between searches; below the worker, the iteration and the
//!   threads (threads → iterate → worker → shared, one way).
//! - `negamax`: the principal variation search, as numbered steps;
//!   `qsearch`: the quiescence search below its horizon.
//! - `worker`: one thread's state and its checks of the limits; `stack`:
//!   what it keeps at each ply of the path.
//! - `movepick`: move ordering; `history`: killers, quiet history (by
//!   squares, continuation 1, 2 and 4 plies back, pawn structure), counter
//!   moves;
//!   `correction`: the static evaluation corrected by what searches of
//!   alike positions found.
//! - [`see`]: static exchange evaluation.
//! - `strength`: weaker play on request ([`Strength`]: `UCI_LimitStrength`).
//! - [`params`]: every constant of the search, in one place.

mod correction;
mod history;
mod iterate;
mod limits;
mod movepick;
mod negamax;
pub mod params;
mod qsearch;
mod report;
mod see;
mod shared;
mod stack;
mod strength;
mod threads;
mod worker;

pub use limits::Limits;
pub use nnue::score::{INFINITY, MATE, MATE_BOUND, MAX_PLY, Score};
pub use report::{Report, Reporter, SearchResult, Silent};
pub use see::{SEE_VALUE, see};
pub use shared::{Shared, wait_for_stop};
pub use strength::Strength;
pub use threads::search;
