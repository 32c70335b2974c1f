//! The search's constants, in one place (as the evaluation's weights are in
//! [`crate::eval::WEIGHTS`]): margins, reductions and limits. Each field
//! says where it is used; `negamax.rs` reads them by name.

/// The search's tunable constants.
#[derive(Clone, Debug)]
pub struct Params {
    /// Aspiration window: the first half-width, in centipawns.
    pub aspiration_delta: i32,
    /// Aspiration windows from this depth on (full window before).
    pub aspiration_min_depth: u32,
    /// Reverse futility pruning: up to this depth.
    pub rfp_max_depth: i32,
    /// Reverse futility pruning: the margin per ply of depth.
    pub rfp_margin: i32,
    /// Reverse futility pruning: the margin is this much smaller when improving.
    pub rfp_improving: i32,
    /// Null-move pruning: from this depth on.
    pub nmp_min_depth: i32,
    /// Null-move pruning: the base reduction.
    pub nmp_base: i32,
    /// Null-move pruning: one more ply of reduction per this much depth.
    pub nmp_depth_divisor: i32,
    /// Null-move pruning: one more ply per this many centipawns above beta.
    pub nmp_eval_divisor: i32,
    /// Null-move pruning: at most this many plies from the eval term.
    pub nmp_eval_max: i32,
    /// Internal iterative reduction: from this depth on, without a TT move.
    pub iir_min_depth: i32,
    /// A tablebase result is stored this much deeper than the node's depth
    /// (it is exact whatever the depth; Stockfish's 6).
    pub tb_depth_bonus: i32,
    /// Late-move pruning and futility pruning: up to this depth.
    pub lmp_max_depth: i32,
    /// Late-move pruning: quiet moves tried before the rest are skipped,
    /// `lmp_base + depth²` (halved when not improving).
    pub lmp_base: i32,
    /// Futility pruning: the margin's constant part.
    pub futility_base: i32,
    /// Futility pruning: the margin per ply of depth.
    pub futility_per_depth: i32,
    /// SEE pruning in the main search: up to this depth.
    pub see_prune_max_depth: i32,
    /// SEE pruning of quiet moves: the threshold per ply of depth (negative).
    pub see_quiet_margin: i32,
    /// SEE pruning of noisy moves: the threshold per ply of depth squared
    /// (negative).
    pub see_noisy_margin: i32,
    /// Late-move reductions: the table's constant term.
    pub lmr_base: f64,
    /// Late-move reductions: the divisor of `ln(depth)·ln(move number)`.
    pub lmr_divisor: f64,
    /// Late-move reductions: from this depth on.
    pub lmr_min_depth: i32,
    /// Late-move reductions: one ply less per this much history.
    pub lmr_history_divisor: i32,
    /// History: the bonus per ply of depth squared.
    pub history_bonus_scale: i32,
    /// History: the largest bonus.
    pub history_bonus_max: i32,
    /// History: values tend toward at most this (gravity).
    pub history_max: i32,
    /// Correction history: an update weighs depth + 1, at most this…
    pub corr_max_weight: i32,
    /// …out of this.
    pub corr_weight_scale: i32,
    /// Singular extensions: from this depth on.
    pub se_min_depth: i32,
    /// Singular extensions: the TT entry may be this much shallower.
    pub se_tt_depth_margin: i32,
    /// Singular extensions: the singular beta is the TT score less this
    /// many centipawns per ply of depth.
    pub se_beta_per_depth: i32,
    /// Singular extensions: two plies instead of one when the other moves
    /// fall this far below the singular beta (non-PV nodes only)…
    pub se_double_margin: i32,
    /// …at most this many times on a path.
    pub se_max_doubles: u8,
    /// Quiescence: delta-pruning margin.
    pub qs_delta_margin: i32,
}

/// The constants the engine plays with.
pub const PARAMS: Params = Params {
    aspiration_delta: 25,
    aspiration_min_depth: 5,
    rfp_max_depth: 8,
    rfp_margin: 80,
    rfp_improving: 40,
    nmp_min_depth: 3,
    nmp_base: 3,
    nmp_depth_divisor: 4,
    nmp_eval_divisor: 200,
    nmp_eval_max: 3,
    iir_min_depth: 4,
    tb_depth_bonus: 6,
    lmp_max_depth: 6,
    lmp_base: 3,
    futility_base: 100,
    futility_per_depth: 90,
    see_prune_max_depth: 6,
    see_quiet_margin: 60,
    see_noisy_margin: 25,
    lmr_base: 0.75,
    lmr_divisor: 2.25,
    lmr_min_depth: 3,
    lmr_history_divisor: 8_000,
    history_bonus_scale: 16,
    history_bonus_max: 1_600,
    history_max: 16_384,
    corr_max_weight: 16,
    corr_weight_scale: 256,
    se_min_depth: 6,
    se_tt_depth_margin: 3,
    se_beta_per_depth: 1,
    se_double_margin: 20,
    se_max_doubles: 6,
    qs_delta_margin: 200,
};
