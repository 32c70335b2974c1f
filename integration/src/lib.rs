//! Workspace-level integration tests for Borrow live in `integration/tests/`:
//! tests that need several crates at once (the engine against the move
//! generator and the outside oracle, the limits two crates share). This
//! library is empty.
