//! Workspace-level integration tests for Borrow live in `tests/tests/` (the
//! package `integration` in the folder `tests/`): tests that need several
//! crates at once (the engine against the move generator and the outside
//! oracle, the README's commands, the data manifest, the modules' graph).
//! This library is empty.
