//! One trait for every board's tracker: the peg board's
//! ([`BoardTracker`]), the piece-sensing board's ([`PieceTracker`]) and the
//! draughts board's sensor ([`DraughtsTracker`]). Each reads what its board
//! sends, lets time pass, and reports what it decided; the table drives them
//! alike through this trait and turns their reports into events.
//!
//! Each tracker reads ([`Tracker::read`]), lets time pass ([`Tracker::pass`]) and says when it next
//! must ([`Tracker::next_deadline`]); the draughts play drives its sensors through the same trait.

use crate::Millis;
use crate::draughts::sensing::{DraughtsTracker, Sensed};
use crate::inference::{BoardTracker, Observation};
use crate::piece_tracking::{PieceObservation, PieceTracker};
use shakmaty::{Bitboard, Board};

/// A board's tracker.
pub trait Tracker {
    /// What the board sends: an occupancy, the pieces on it, a draughts
    /// board's squares (in standard orientation: the board's link turns it).
    type Reading: ?Sized;
    /// What the tracker decides (moves, mismatches, irregularities).
    type Report;

    /// The board sent `reading` at `t`; what it decided goes to `out`.
    fn read(&mut self, t: Millis, reading: &Self::Reading, out: &mut Vec<Self::Report>);

    /// Time passes up to `t` (a still board is judged); what it decided goes to `out`.
    fn pass(&mut self, t: Millis, out: &mut Vec<Self::Report>);

    /// When time must next pass for a decision, if one is waiting.
    fn next_deadline(&self) -> Option<Millis>;
}

impl Tracker for BoardTracker {
    type Reading = Bitboard;
    type Report = Observation;

    fn read(&mut self, t: Millis, reading: &Bitboard, out: &mut Vec<Observation>) {
        self.on_scan(t, *reading, out);
    }

    fn pass(&mut self, t: Millis, out: &mut Vec<Observation>) {
        self.tick(t, out);
    }

    fn next_deadline(&self) -> Option<Millis> {
        self.deadline()
    }
}

impl Tracker for PieceTracker {
    type Reading = Board;
    type Report = PieceObservation;

    fn read(&mut self, t: Millis, reading: &Board, out: &mut Vec<PieceObservation>) {
        self.on_board(t, reading, out);
    }

    fn pass(&mut self, t: Millis, out: &mut Vec<PieceObservation>) {
        self.tick(t, out);
    }

    fn next_deadline(&self) -> Option<Millis> {
        self.deadline()
    }
}

impl Tracker for DraughtsTracker {
    /// The holes holding a peg, bit n−1 = square n.
    type Reading = u64;
    type Report = Sensed;

    fn read(&mut self, t: Millis, reading: &u64, out: &mut Vec<Sensed>) {
        out.extend(self.scan(t, *reading));
    }

    fn pass(&mut self, t: Millis, out: &mut Vec<Sensed>) {
        out.extend(self.tick(t));
    }

    fn next_deadline(&self) -> Option<Millis> {
        self.deadline()
    }
}

/// The earliest deadline of `trackers`, whatever boards they follow.
pub fn earliest<'a, T: Tracker + 'a>(trackers: impl IntoIterator<Item = &'a T>) -> Option<Millis> {
    trackers.into_iter().filter_map(Tracker::next_deadline).min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draughts::board::{Position, Variant};
    use crate::draughts::sensing::SensorConfig;
    use crate::game::Game;
    use crate::inference::TrackerConfig;
    use crate::piece_tracking::PieceTrackerConfig;

    /// Lifts the piece on `from` and puts it on `to`, through the trait only,
    /// and lets the settle time pass: a move must be reported.
    fn move_through_trait<T: Tracker>(tracker: &mut T, lifted: &T::Reading, moved: &T::Reading) -> usize {
        let mut out = Vec::new();
        tracker.read(1_000, lifted, &mut out);
        tracker.read(1_200, moved, &mut out);
        let settle = tracker.next_deadline().expect("a changed board waits to settle");
        tracker.pass(settle + 5_000, &mut out);
        assert_eq!(tracker.next_deadline(), None, "nothing waits once settled");
        out.len()
    }

    #[test]
    fn every_tracker_reports_a_move_read_through_the_trait() {
        let game = Game::default();
        let start = game.occupancy();
        let e2 = Bitboard::from_square(shakmaty::Square::E2);
        let e4 = Bitboard::from_square(shakmaty::Square::E4);
        let mut pegs = BoardTracker::new(TrackerConfig::default(), game.clone(), start, 0);
        assert!(move_through_trait(&mut pegs, &(start ^ e2), &(start ^ e2 ^ e4)) > 0);

        let board = shakmaty::Position::board(game.position()).clone();
        let mut lifted = board.clone();
        let pawn = lifted.remove_piece_at(shakmaty::Square::E2).expect("a pawn on e2");
        let mut moved = lifted.clone();
        moved.set_piece_at(shakmaty::Square::E4, pawn);
        let mut pieces = PieceTracker::new(PieceTrackerConfig::default(), game, board, 0);
        assert!(move_through_trait(&mut pieces, &lifted, &moved) > 0);

        let pos = Position::initial(Variant::International);
        let mut sensor = DraughtsTracker::new(SensorConfig::default(), pos);
        sensor.resync(pos, 0, pos.occupied(), 0);
        // 32-28: square n is bit n−1.
        let lifted = pos.occupied() & !(1u64 << 31);
        let moved = lifted | 1u64 << 27;
        assert!(move_through_trait(&mut sensor, &lifted, &moved) > 0);
    }
}
