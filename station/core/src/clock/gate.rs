//! When a clock press is allowed to start the opponent's clock (Annex D.2.3–D.2.4).
//!
//! The clock engine is mechanical: it switches whenever it is pressed. Whether a
//! press *counts* is a rules question answered here. For the blind player a move
//! is made only when the piece is placed in a hole, a captured piece has been
//! removed, and the move has been announced (D.2.3); only then may the
//! opponent's clock be started (D.2.4). The sighted player follows the ordinary
//! Laws (D.2.5): placing the piece and removing the captured one make the move,
//! the announcement is not a condition for the clock.
//!
//! A premature press is not a rules violation the station punishes: the daemon
//! keeps the clock running for the presser and tells the blind player privately
//! what is still missing.

use serde::{Deserialize, Serialize};

/// How far a move has got on the board and in speech.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveProgress {
    /// The moved piece stands on (is placed in) its new square.
    pub placed: bool,
    /// The move captures a piece that is still on the board.
    pub capture_pending: bool,
    /// The move has been announced aloud.
    pub announced: bool,
}

/// A condition for a made move that is not yet met.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Missing {
    /// The piece is not placed yet (D.2.3.2).
    Placement,
    /// The captured piece is still on the board (D.2.3.1).
    CapturedPieceRemoval,
    /// The move was not announced (D.2.3.3).
    Announcement,
}

/// What to do with a clock press.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum GateDecision {
    /// The move is made: switch the clock.
    Accept,
    /// The move is not made yet: do not switch; record the premature press.
    Premature {
        /// What is still missing, in the order D.2.3 lists it.
        missing: Vec<Missing>,
    },
}

/// Decides whether a press of one player's clock button is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockGate {
    /// Whether the move must have been announced before the press counts.
    pub require_announcement: bool,
}

impl ClockGate {
    /// The gate for the blind player: all three conditions of D.2.3.
    pub fn blind() -> Self {
        ClockGate { require_announcement: true }
    }

    /// The gate for the sighted player (D.2.5: the ordinary Laws).
    pub fn sighted() -> Self {
        ClockGate { require_announcement: false }
    }

    /// Whether a press with the move in this state is accepted.
    pub fn check(&self, progress: MoveProgress) -> GateDecision {
        let mut missing = Vec::new();
        if progress.capture_pending {
            missing.push(Missing::CapturedPieceRemoval);
        }
        if !progress.placed {
            missing.push(Missing::Placement);
        }
        if self.require_announcement && !progress.announced {
            missing.push(Missing::Announcement);
        }
        if missing.is_empty() { GateDecision::Accept } else { GateDecision::Premature { missing } }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MADE: MoveProgress = MoveProgress { placed: true, capture_pending: false, announced: true };

    #[test]
    fn the_blind_player_needs_placement_removal_and_announcement() {
        let gate = ClockGate::blind();
        assert_eq!(gate.check(MADE), GateDecision::Accept);
        assert_eq!(
            gate.check(MoveProgress { announced: false, ..MADE }),
            GateDecision::Premature { missing: vec![Missing::Announcement] }
        );
        assert_eq!(
            gate.check(MoveProgress { placed: false, capture_pending: true, announced: false }),
            GateDecision::Premature {
                missing: vec![Missing::CapturedPieceRemoval, Missing::Placement, Missing::Announcement]
            }
        );
    }

    #[test]
    fn the_sighted_player_follows_the_ordinary_laws() {
        let gate = ClockGate::sighted();
        assert_eq!(gate.check(MoveProgress { announced: false, ..MADE }), GateDecision::Accept);
        assert_eq!(
            gate.check(MoveProgress { capture_pending: true, ..MADE }),
            GateDecision::Premature { missing: vec![Missing::CapturedPieceRemoval] }
        );
    }
}
