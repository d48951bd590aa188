//! Arbiter corrections of the clock (Article 6.14 of the Laws: the arbiter may
//! set the times and the move counter after a malfunction or a penalty).

use super::Side;
use crate::Millis;
use serde::{Deserialize, Serialize};

/// One correction, as the arbiter made it. The clock keeps every correction so
/// the daemon can journal it and the record shows who changed what and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    /// When the correction was made.
    pub at: Millis,
    /// Who made it (the arbiter's name or role).
    pub who: String,
    /// Why (free text, e.g. "clock malfunction, Article 6.11").
    pub why: String,
    /// What changed.
    pub change: CorrectionChange,
}

/// What a correction changed, with the value before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CorrectionChange {
    /// A side's remaining time.
    Remaining {
        /// Whose clock.
        side: Side,
        /// Remaining time shown just before the correction.
        from_ms: Millis,
        /// Remaining time set.
        to_ms: Millis,
    },
    /// Whose clock runs (the record went back: a take-back or D.2.9).
    OnMove {
        /// The side whose clock ran.
        from: Side,
        /// The side whose clock runs now.
        to: Side,
    },
    /// A side's move counter.
    Moves {
        /// Whose counter.
        side: Side,
        /// Moves counted before the correction.
        from: u32,
        /// Moves counted after.
        to: u32,
    },
}
