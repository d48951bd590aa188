//! The D.2.9 vocabulary shared by the two-board procedure and the event stream:
//! which kind of discrepancy, how each board is put right, the clock proposal.
//!
//! It lives apart so that `two_boards` and `event` both use it and neither depends on the other.

use crate::correction::StepRecord;
use crate::role::BoardRole;
use serde::{Deserialize, Serialize};

/// Clock readings at a ply, for the arbiter's correction (D.2.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockProposal {
    /// The position's ply.
    pub ply: usize,
    /// White's remaining time then.
    pub white_ms: u64,
    /// Black's remaining time then.
    pub black_ms: u64,
}

/// One board's correction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardFix {
    /// Which board.
    pub board: BoardRole,
    /// What to do, in order.
    pub steps: Vec<StepRecord>,
}

/// Which kind of discrepancy (D.2.9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiscrepancyKind {
    /// The records agree; a board executed a move wrongly (or not yet).
    Execution,
    /// The records differ; back to the last position where they agree.
    Records,
}
