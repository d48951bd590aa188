//! The player's own evidence for his move (issue 25, D.2.3–D.2.4): a clock
//! press, or an announcement naming the move, decides the move his board
//! shows at once when exactly one legal move explains the board and the
//! lifts, instead of waiting for the board to rest for the settle time.

use super::{Table, slot};
use crate::Millis;
use crate::clock::Side;
use crate::event::{BoardRole, Event};
use shakmaty::{Color, Move, Position};

/// What a press found on the presser's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Evidence {
    /// Nothing was decided by it (decided already, or nothing explains the board).
    Nothing,
    /// The press decided his move; it is still to be judged by the gate.
    Decided,
    /// The press decided his move and the station pressed for him at once.
    PressedAlready,
}

impl Table {
    /// The board a side's moves are read from: the blind player's peg board
    /// for him, the sighted player's peg board for his opponent.
    fn own_board(&self, side: Side) -> BoardRole {
        if side == Side::from(self.cfg.blind_color) { BoardRole::Blind } else { BoardRole::Mirror }
    }

    /// A press by `side` at `t` decides the move in progress on his own board
    /// (peg boards; a piece-sensing board decides its moves itself).
    pub(super) fn press_evidence(&mut self, side: Side, t: Millis, out: &mut Vec<Event>) -> Evidence {
        let before = self.pressed_ply;
        if !self.decide_on_own_board(side, None, t, out) {
            return Evidence::Nothing;
        }
        if self.pressed_ply > before { Evidence::PressedAlready } else { Evidence::Decided }
    }

    /// The blind player's announcement of `said` at `t` decides the move his
    /// board shows when it is that move (D.2.3.3: the announcement is his).
    pub(super) fn announcement_evidence(&mut self, said: Move, t: Millis, out: &mut Vec<Event>) {
        let blind = Side::from(self.cfg.blind_color);
        self.decide_on_own_board(blind, Some(said), t, out);
    }

    fn decide_on_own_board(
        &mut self,
        side: Side,
        said: Option<Move>,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> bool {
        let role = self.own_board(side);
        let Some(tracker) = self.trackers[slot(role)].as_mut() else { return false };
        let to_move: Color = tracker.game().position().turn();
        if Side::from(to_move) != side || !tracker.decide_now(said, t, &mut self.scratch) {
            // Touches seen on the way are still the board's news.
            self.after(role, t, out);
            return false;
        }
        self.after(role, t, out);
        true
    }
}
