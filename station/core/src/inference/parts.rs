//! The peg tracker's state, in parts by job: the lifts of one stretch, the
//! states that stood, the clock reading, the pending lifts per square, the
//! hand's placements and the decision state (each one field of
//! [`BoardTracker`](super::BoardTracker), so that struct names its jobs).
//!
//! The parts are `Timing`, `PendingLifts`, `Placements` and `DecisionState`.

use crate::Millis;
use shakmaty::{Bitboard, Square};

/// The lifts seen during one move sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Lifts {
    /// Empty for at least the debounce time.
    pub(super) confirmed: Bitboard,
    /// Empty at any moment, bounce included.
    pub(super) any: Bitboard,
    /// Out and back within one reading's time (read together from a loaded
    /// line): as likely a hand as a bounce.
    pub(super) instant: Bitboard,
}

impl Lifts {
    pub(super) fn union(self, other: Lifts) -> Lifts {
        Lifts {
            confirmed: self.confirmed | other.confirmed,
            any: self.any | other.any,
            instant: self.instant | other.instant,
        }
    }

    pub(super) fn of(log: &[Lift]) -> Lifts {
        let mut lifts = Lifts::default();
        for lift in log.iter().filter(|l| !l.flicker) {
            lifts.any.add(lift.square);
            if lift.kind == LiftKind::Confirmed {
                lifts.confirmed.add(lift.square);
            }
            if lift.instant {
                lifts.instant.add(lift.square);
            }
        }
        lifts
    }

    /// The lifts a decision on evidence reads: a captured peg out longer than
    /// a bounce, or for a time the line did not tell.
    pub(super) fn on_evidence(log: &[Lift]) -> Lifts {
        let all = Lifts::of(log);
        let known = all.confirmed | all.instant;
        Lifts { confirmed: all.confirmed, any: known, instant: all.instant }
    }
}

/// What became of a peg that left its hole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LiftKind {
    /// Out for less than the debounce time so far.
    Pending,
    /// Out for at least the debounce time: a hand.
    Confirmed,
    /// Back within the debounce time (or a peg sensed for a moment): sensor bounce.
    Bounce,
}

/// One peg leaving its hole, in the order the pegs left.
#[derive(Clone, Copy, Debug)]
pub(super) struct Lift {
    pub(super) square: Square,
    pub(super) kind: LiftKind,
    /// The occupancy just before this peg left.
    pub(super) before: Bitboard,
    /// The peg had appeared in an empty hole a moment before (a bounce of
    /// an empty hole): kept for the catch-up only, where it may be a piece
    /// landing and taken at once, read together from a loaded line.
    pub(super) flicker: bool,
    /// Put back in the same reading's time it was lifted (a bounce whose
    /// length the line did not tell).
    pub(super) instant: bool,
}

impl Lift {
    /// A peg sensed in a hole for a moment and gone: kept for the catch-up only.
    pub(super) fn flickered(square: Square, before: Bitboard) -> Lift {
        Lift { square, kind: LiftKind::Bounce, before, flicker: true, instant: false }
    }
}

/// A board state that stood at least the debounce time (a hand had let go of
/// it), with the number of lifts that led to it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stood {
    pub(super) occ: Bitboard,
    pub(super) lifts: usize,
    /// The hole a peg was last put into before this state (a move ends with one
    /// of its own), and the board just before it was.
    pub(super) last_placed: Option<(Square, Bitboard, usize)>,
    /// When the state began: for a move's last state, when the move was made.
    pub(super) since: Millis,
}

/// The tracker's clock reading: the scan time, when the occupancy last
/// changed and whether it has since settled, and when the current and the
/// previous state began. One thing because every scan and tick moves them
/// together and the settle and early-decision rules read them together.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timing {
    pub(super) now: Millis,
    pub(super) last_change: Millis,
    pub(super) settled: bool,
    /// When the current state began (a bounce does not end it).
    pub(super) state_since: Millis,
    /// The state before the current one, and when it began.
    pub(super) previous: (Bitboard, Millis),
}

/// The lift reading per square: when each peg now out was lifted, where its
/// lift is in the log, and which lifts are still unconfirmed or were put back
/// within the debounce time. One thing because a scan sets and clears them
/// square by square together.
#[derive(Clone, Copy, Debug)]
pub(super) struct PendingLifts {
    pub(super) lift_started: [Millis; 64],
    /// Index in `log` of each square's pending lift.
    pub(super) lift_index: [usize; 64],
    pub(super) unconfirmed: Bitboard,
    /// Pegs the last scan put back within the debounce time (their lifts marked
    /// bounces): out again at once, the put-back was the flicker, not the lift.
    pub(super) returned: Bitboard,
}

/// Where pegs were last put down and which squares were touched: the evidence
/// of the hand's path, reset together when a move is decided.
#[derive(Clone, Copy, Debug)]
pub(super) struct Placements {
    /// The hole a peg was last put into (bounces aside), and the one before.
    pub(super) last_placed: Option<(Square, Bitboard, usize)>,
    pub(super) placed_before: Option<(Square, Bitboard, usize)>,
    pub(super) touched: Bitboard,
    /// Pegs put into empty holes while the board held more pegs than the
    /// record has pieces: no piece of the game (pieces never multiply), a
    /// sensor or a foreign peg; taken out again, no evidence of any move.
    pub(super) foreign: Bitboard,
}

/// The state of the last and the next decision: when the last move was made,
/// whether it was decided early and may still be revised, and the early
/// decision switch and its per-state guard. One thing because deciding a move
/// and revising it read and write all of it.
#[derive(Clone, Debug)]
pub(super) struct DecisionState {
    /// When the move decided last was made (its last peg put down or the
    /// captured one taken), which may be before it was decided.
    pub(super) made_at: Millis,
    /// Decide before the settle time where no hand can make it another move.
    pub(super) early: bool,
    /// The current state was already looked at for an early decision.
    pub(super) early_checked: bool,
    /// The last move was decided early (its revision need not wait for the settle time).
    pub(super) decided_early: bool,
    /// Lifts of the sequence that made the last move, while it may still be revised.
    pub(super) revisable: Option<Lifts>,
    /// The moves the station asked about (an ambiguity reported) and where.
    pub(super) asked: Option<Asked>,
    /// The player's answer: the move he announced for the ply asked about.
    pub(super) announced: Option<(shakmaty::Move, usize)>,
    /// The record this board goes back to (moves taken back) while its pegs
    /// are put right: nothing is read from them until the board shows it.
    pub(super) held: Option<crate::game::Game>,
}

/// An ambiguity the station reported: the moves that fit the board and the
/// ply they would be.
#[derive(Clone, Debug)]
pub(super) struct Asked {
    pub(super) candidates: Vec<shakmaty::Move>,
    pub(super) ply: usize,
}
