//! Irregularities named, not hidden (5.4): a settled board that no legal move
//! explains is compared with what a player may have done wrongly. Only the
//! opponent decides whether it stands or is corrected (5.4, 5.9); this module
//! only says what the board shows.

use super::board::{Dir, Position, squares};
use super::movegen::{capture_paths, capture_sequences, legal_moves, quiet_moves};
use super::moves::Move;

/// An irregularity of 5.4, with the move it concerns where there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Irregular {
    /// 5.4.1: two moves in a row by the same side.
    TwoMovesInARow {
        /// The first move.
        first: Move,
        /// The second.
        second: Move,
    },
    /// 5.4.2: a man stepped backward.
    WrongDirection {
        /// The step (as a quiet move).
        mv: Move,
    },
    /// 5.4.5: a move of the side not to move: the opponent's piece moved, or,
    /// if its owner made it, his second move in a row (5.4.1) — a peg board
    /// cannot tell whose hand it was, so the arbiter is told both.
    OpponentsPiece {
        /// The move (legal for the other side).
        mv: Move,
    },
    /// 5.4.6: a quiet move while a capture was compulsory.
    CaptureOmitted {
        /// The quiet move made.
        mv: Move,
        /// How many pieces had to be taken.
        required: usize,
    },
    /// 5.4.8: fewer pieces captured than the maximum.
    FewerThanMaximum {
        /// The capture made.
        mv: Move,
        /// How many had to be taken.
        required: usize,
    },
    /// 5.4.11: a legal capture, but not all captured pieces removed.
    NotAllRemoved {
        /// The capture.
        mv: Move,
        /// Captured pieces still on the board.
        left: u64,
    },
    /// 5.4.12 / 5.4.14: a legal capture, but a piece removed that was not
    /// jumped (the opponent's, 5.4.12) or the player's own (5.4.14).
    WrongPieceRemoved {
        /// The capture.
        mv: Move,
        /// Pieces removed that the capture did not take.
        extra: u64,
        /// Among them, the player's own pieces.
        own: u64,
    },
}

impl Irregular {
    /// The article of the code.
    pub fn article(&self) -> &'static str {
        match self {
            Irregular::TwoMovesInARow { .. } => "5.4.1",
            Irregular::WrongDirection { .. } => "5.4.2",
            Irregular::OpponentsPiece { .. } => "5.4.5",
            Irregular::CaptureOmitted { .. } => "5.4.6",
            Irregular::FewerThanMaximum { .. } => "5.4.8",
            Irregular::NotAllRemoved { .. } => "5.4.11",
            Irregular::WrongPieceRemoved { own, .. } if *own != 0 => "5.4.14",
            Irregular::WrongPieceRemoved { .. } => "5.4.12",
        }
    }
}

/// What irregularity the board `sensed` shows in `pos`, if one explains it
/// (none when a legal move does, or nothing recognisable does).
pub fn classify(pos: &Position, sensed: u64) -> Option<Irregular> {
    let before = pos.occupied();
    let moves = legal_moves(pos);
    if moves.iter().any(|m| m.occupancy_after(before) == sensed) {
        return None;
    }
    let fits = |m: &Move| m.occupancy_after(before) == sensed;
    let max = moves.first().map_or(0, |m| m.captured.len());
    // A quiet move while a capture was compulsory (5.4.6).
    if max > 0
        && let Some(mv) = quiet_moves(pos).into_iter().find(|m| fits(m))
    {
        return Some(Irregular::CaptureOmitted { mv, required: max });
    }
    // Fewer pieces than the maximum (5.4.8).
    if let Some(mv) = capture_sequences(pos).into_iter().find(|m| fits(m) && m.captured.len() < max) {
        return Some(Irregular::FewerThanMaximum { mv, required: max });
    }
    // A legal capture with the removals wrong (5.4.11, 5.4.12, 5.4.14).
    let removed = before & !sensed;
    let added = sensed & !before;
    for mv in capture_paths(pos) {
        let lands = if mv.from == mv.to { added == 0 } else { added == mv.to.bit() };
        if !lands || removed & mv.from.bit() == 0 && mv.from != mv.to {
            continue;
        }
        let taken = mv.captured_mask();
        let extra = removed & !taken & !mv.from.bit();
        let left = taken & !removed;
        if extra != 0 {
            return Some(Irregular::WrongPieceRemoved { own: extra & pos.pieces(pos.turn), extra, mv });
        }
        if left != 0 {
            return Some(Irregular::NotAllRemoved { mv, left });
        }
    }
    // A man stepped backward (5.4.2).
    if added.count_ones() == 1 && removed.count_ones() == 1 {
        let (from, to) = (squares(removed).next()?, squares(added).next()?);
        let own_man = pos.pieces(pos.turn) & !pos.kings & from.bit() != 0;
        let back = Dir::forward(pos.turn.other());
        if own_man && back.iter().any(|&d| pos.variant.neighbour(from, d) == Some(to)) {
            let mv = Move { from, to, path: Vec::new(), captured: Vec::new(), promotes: false };
            return Some(Irregular::WrongDirection { mv });
        }
    }
    // The opponent's piece moved (5.4.5).
    let mut other = *pos;
    other.turn = pos.turn.other();
    if let Some(mv) = legal_moves(&other).into_iter().find(|m| m.occupancy_after(before) == sensed) {
        return Some(Irregular::OpponentsPiece { mv });
    }
    // Two moves in a row (5.4.1).
    for first in moves {
        let mut mid = first.apply(pos);
        mid.turn = pos.turn;
        let mid_occ = mid.occupied();
        if let Some(second) = legal_moves(&mid).into_iter().find(|m| m.occupancy_after(mid_occ) == sensed) {
            return Some(Irregular::TwoMovesInARow { first, second });
        }
    }
    None
}
