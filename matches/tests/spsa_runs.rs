//! The SPSA runs kept in `records/spsa/`: a run's constants and its state
//! live in git, so a new machine goes on with the run where the last one
//! stopped (`borrow-spsa … -resume`). Each must still read back with
//! today's code and belong to its own constants and plan.

use matches::spsa::{Schedule, Tuner, parse_params};

/// Checks that a run's state reads back and is the plan of its constants
/// (`count` of them): 3,000 iterations of 4 pairs with `seed`, and as many
/// games as its iterations played.
fn resumes_under_its_plan(params: &str, state: &str, count: usize, seed: u64) {
    let params = parse_params(params).unwrap();
    assert_eq!(params.len(), count);
    let state = Tuner::from_text(state).unwrap();
    Tuner::new(params, Schedule::new(3000), seed, 4)
        .same_plan(&state)
        .unwrap();
    assert!(state.done <= 3000);
    let games: u64 = state.wdl.iter().sum();
    assert_eq!(games, state.done * state.pairs_per * 2);
}

/// Run 3: 3,000 iterations of 4 pairs, seed 3 (records/tested-changes.md,
/// "SPSA runs").
#[test]
fn run_3_resumes_with_its_own_constants_and_plan() {
    resumes_under_its_plan(
        include_str!("../../records/spsa/run3-params.txt"),
        include_str!("../../records/spsa/run3.state"),
        34,
        3,
    );
}

/// Run 4: 3,000 iterations of 4 pairs, seed 4, from run 3's values with
/// net 10.
#[test]
fn run_4_resumes_with_its_own_constants_and_plan() {
    resumes_under_its_plan(
        include_str!("../../records/spsa/run4-params.txt"),
        include_str!("../../records/spsa/run4.state"),
        35,
        4,
    );
}
