//! The counts by an attack method named at run time, for the `perft` tool
//! and the suites test (feature `tool`).
//!
//! Each function here is the generic count instantiated once for every
//! method, in this crate. Called generically from the tool and from its
//! tests instead, the move generator was compiled again for every method in
//! each of them (the binary, the README test's copy of it and the suites
//! test: together about 40% of the compile time of `cargo test
//! --workspace`, summed over its units).

use std::time::Instant;

use attacks::{Method, dispatch};
use movegen::{FenError, Move, Position};

use crate::{PerftHash, perft, perft_full, perft_hashed, split_root};

/// Leaf nodes `depth` plies below `fen` by `method`, the last ply
/// bulk-counted ([`perft`]), with the root moves split among `threads`
/// threads and the table `hash` for plies 2 and deeper when given
/// ([`parallel_perft`](crate::parallel_perft)).
pub fn count(
    method: Method,
    fen: &str,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
) -> Result<u64, FenError> {
    dispatch!(method, A => Ok(crate::parallel_perft(&Position::<A>::from_fen(fen)?, depth, threads, hash)))
}

/// Leaf nodes `depth` plies below `fen` by `method`, making every move
/// ([`perft_full`]).
pub fn count_full(method: Method, fen: &str, depth: u32) -> Result<u64, FenError> {
    dispatch!(method, A => Ok(perft_full(&Position::<A>::from_fen(fen)?, depth)))
}

/// The count `depth - 1` plies below each legal root move of `fen` by
/// `method`, in generation order, the root moves shared among `threads`
/// threads ([`split_root`], `progress` as there), and the moment the last
/// count finished. At depth 0 there are no moves.
pub fn divide(
    method: Method,
    fen: &str,
    depth: u32,
    threads: usize,
    hash: Option<&PerftHash>,
    progress: Option<&mut dyn FnMut(usize, usize)>,
) -> Result<(Vec<(Move, u64)>, Instant), FenError> {
    dispatch!(method, A => {
        let pos = Position::<A>::from_fen(fen)?;
        if depth == 0 {
            return Ok((Vec::new(), Instant::now()));
        }
        let moves = pos.legal_moves();
        let children: Vec<Position<A>> = moves
            .iter()
            .map(|&m| {
                let mut child = pos;
                child.play_unchecked(m);
                child
            })
            .collect();
        let (counts, end) = split_root(
            &children,
            |c| match hash {
                Some(h) => perft_hashed(c, depth - 1, h),
                None => perft(c, depth - 1),
            },
            threads,
            progress,
        );
        Ok((moves.iter().copied().zip(counts).collect(), end))
    })
}
