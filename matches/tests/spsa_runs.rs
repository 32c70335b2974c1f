//! The SPSA runs kept in `records/spsa/`: a run's constants and its state
//! live in git, so a new machine goes on with the run where the last one
//! stopped (`borrow-spsa … -resume`). Each must still read back with
//! today's code and belong to its own constants and plan.

use matches::spsa::{Schedule, Tuner, parse_params};

/// Run 3: 3,000 iterations of 4 pairs, seed 3 (records/tested-changes.md,
/// "SPSA runs").
#[test]
fn run_3_resumes_with_its_own_constants_and_plan() {
    let params = parse_params(include_str!("../../records/spsa/run3-params.txt")).unwrap();
    assert_eq!(params.len(), 34);
    let state = Tuner::from_text(include_str!("../../records/spsa/run3.state")).unwrap();
    Tuner::new(params, Schedule::new(3000), 3, 4)
        .same_plan(&state)
        .unwrap();
    assert!(state.done <= 3000);
    let games: u64 = state.wdl.iter().sum();
    assert_eq!(games, state.done * state.pairs_per * 2);
}

/// Run 4: 3,000 iterations of 4 pairs, seed 4, from run 3's values with
/// net 10 (records/tested-changes.md, "SPSA runs").
#[test]
fn run_4_resumes_with_its_own_constants_and_plan() {
    let params = parse_params(include_str!("../../records/spsa/run4-params.txt")).unwrap();
    assert_eq!(params.len(), 35);
    let state = Tuner::from_text(include_str!("../../records/spsa/run4.state")).unwrap();
    Tuner::new(params, Schedule::new(3000), 4, 4)
        .same_plan(&state)
        .unwrap();
    assert!(state.done <= 3000);
    let games: u64 = state.wdl.iter().sum();
    assert_eq!(games, state.done * state.pairs_per * 2);
}
