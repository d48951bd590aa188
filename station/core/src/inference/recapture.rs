//! A capture and its recapture on one square, decided as the recapture lands
//! (issue 32): a chain of captures on one square leaves the board no rest
//! between them, and no catch-up reads eight plies at once.

use super::*;

impl BoardTracker {
    /// A capture and its recapture on the same square, the recapture's piece
    /// just put down where no hand can make it another move: decided now, as
    /// one move would be. A chain of captures on one square relifts each
    /// landing peg before the board can rest, and a line that read the first
    /// capture's two pegs in one reading leaves it nothing to decide alone.
    pub(super) fn pending_recapture(&self) -> Option<Decision> {
        let expected = self.expected();
        if self.timing.settled || self.lifts.unconfirmed.any() || self.sensed == expected {
            return None;
        }
        // Two captures leave two pegs fewer and fill no hole that was empty:
        // any other board is no capture and recapture, and needs no search
        // (this runs at every tick of a hand in motion).
        if self.sensed.count() + 2 != expected.count() || (self.sensed & !expected).any() {
            return None;
        }
        // And the square of both captures was emptied twice (below) and holds a peg again.
        let (mut once, mut twice) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for lift in &self.log {
            twice |= once & lift.square;
            once |= lift.square;
        }
        if (twice & self.sensed).is_empty() {
            return None;
        }
        let pos = self.game.position();
        let order = self.lift_order(&self.log);
        let sequence::Sequences::One(moves) =
            sequence::explain_sequence(pos, self.sensed, &order, self.cfg.promotion)
        else {
            return None;
        };
        let [first, last] = moves[..] else { return None };
        if !first.is_capture() || !last.is_capture() || first.to() != last.to() {
            return None;
        }
        let mut before_last = pos.clone();
        before_last.play_unchecked(first);
        let now = Stood {
            occ: self.sensed,
            lifts: self.log.len(),
            last_placed: self.placed.last_placed,
            since: self.timing.state_since,
        };
        // The recapture's own lifts: the captured peg taken (the last lift of
        // that hole, after the first capture's piece was lifted to land
        // there), the capturing one after it and not since the hole's lift
        // before (which was the first capture's).
        let hands = hand_lifts(&self.log).0;
        let taken = hands.iter().rposition(|&sq| sq == last.to())?;
        let first_lifted = hands.iter().position(|&sq| Some(sq) == first.from())?;
        let since = hands[..taken].iter().rposition(|&sq| sq == last.to()).map_or(0, |i| i + 1);
        let from = last.from()?;
        let captured_first =
            first_lifted < taken && !hands[since..taken].contains(&from) && hands[taken..].contains(&from);
        // The hole was emptied once before the recapture took its peg (the
        // first capture's captured peg, by a hand or in one reading): else
        // the peg taken was the first capture's own, and the recapture is a
        // touch the hand has not finished.
        let taken_at = self.log.iter().enumerate().filter(|(_, l)| l.kind != LiftKind::Bounce).nth(taken)?.0;
        let emptied_before = self.log[..taken_at].iter().any(|l| l.square == last.to());
        let made = captured_first
            && emptied_before
            && ends(&before_last, &self.log, &now, &last)
            && early::terminal(&before_last, &last);
        made.then(|| Decision {
            revises: false,
            moves: self.with_promotion(moves),
            consumed: self.log.len(),
            made: self.timing.state_since,
        })
    }
}
