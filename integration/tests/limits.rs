//! Limits set in two places for the same thing: the engine's `Hash` and
//! `Threads` options and the `perft` tool's `--hash` and `--threads`. Each
//! crate owns its own; this keeps them equal, as a user would expect.

#[test]
fn the_engine_and_perft_allow_the_same_hash_and_threads() {
    assert_eq!(engine::options::MAX_HASH_MB, perft::MAX_HASH_MB);
    assert_eq!(engine::options::MAX_THREADS, perft::MAX_THREADS);
}
