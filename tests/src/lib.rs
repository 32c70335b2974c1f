//! Workspace-level integration tests for Borrow live in `tests/tests/`; this
//! library is empty.
