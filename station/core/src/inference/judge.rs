//! The settled board judged (the settle time passed with no evidence before
//! it): one move, a revision, several plies, pegs still in a hand, a castling
//! half made, or a difference reported.
//!
//! The moves before pegs still in a hand: a loaded line read a placement and the next lift
//! together, so the board never stood, and the rest with a peg out says the move is over. A
//! castling's king put down waiting for its rook is no difference; anything else unexplained is
//! reported once.

use super::*;

impl BoardTracker {
    /// The settled board explained by several plies from the lift order:
    /// recorded when one sequence does, reported when several do; `true` when
    /// either happened.
    fn judge_sequence(&mut self, sensed: Bitboard, t: Millis, out: &mut Vec<Observation>) -> bool {
        let order = self.lift_order(&self.log);
        match sequence::explain_sequence(self.game.position(), sensed, &order, self.cfg.promotion) {
            sequence::Sequences::One(moves) => {
                let decision = Decision {
                    revises: false,
                    moves: self.with_promotion(moves),
                    consumed: 0,
                    made: self.timing.state_since,
                };
                self.record(&decision, t, out);
                self.decision.revisable = None;
                self.agreement = Agreement::InStep;
                self.reported.clear();
                self.clear_sequence();
                true
            }
            sequence::Sequences::Many(several) => {
                self.ask(several, t, out);
                true
            }
            sequence::Sequences::None => false,
        }
    }

    /// The board shows a castling whose rook was touched first (Art. 4.4.2):
    /// the rook's move stands (decided now, or already), and he is told; the
    /// king goes back. One ruling whatever the hands' timing. `true` when it did.
    fn judge_rook_first(&mut self, sensed: Bitboard, t: Millis, out: &mut Vec<Observation>) -> bool {
        if let Some((rook_move, castle)) = rook_first(self.game.position(), sensed, &self.log) {
            self.commit(rook_move, false, t, out);
            self.report(MismatchReason::RookFirst, vec![castle], None, t, out);
            return true;
        }
        let Some(&Move::Normal { role: Role::Rook, from, .. }) = self.game.moves().last() else {
            return false;
        };
        let Some(previous) = self.previous_position() else { return false };
        let castle = previous.legal_moves().into_iter().find(|m| {
            matches!(m, Move::Castle { rook, .. } if *rook == from) && occupancy_after(previous, m) == sensed
        });
        let Some(castle) = castle else { return false };
        self.report(MismatchReason::RookFirst, vec![castle], None, t, out);
        true
    }

    pub(super) fn judge(&mut self, t: Millis, out: &mut Vec<Observation>) {
        let sensed = self.sensed;
        if sensed == self.expected() {
            // ICCF B.3.2.2: king and rook swapped squares, the holes as they were.
            if let Some(castle) = self.hidden_castle() {
                return match touch_order(&castle, &self.log) {
                    TouchOrder::KingFirst => self.commit(castle, false, t, out),
                    _ => self.report(MismatchReason::Ambiguous, vec![castle], None, t, out),
                };
            }
            // Pegs of both sides lifted and the record's position again: a
            // repetition played through (4 plies at least), not a touch put
            // back. Never taken as nothing: explained by its lift order, or
            // its lifts are kept for what follows.
            let both_sides = self.both_sides_lifted();
            if both_sides && self.judge_sequence(sensed, t, out) {
                return;
            }
            if matches!(self.agreement, Agreement::Reported(_)) {
                out.push(Observation::Restored { t });
            }
            self.agreement = Agreement::InStep;
            self.reported.clear();
            if !both_sides {
                self.clear_sequence();
            }
            return;
        }
        if self.judge_rook_first(sensed, t, out) {
            return;
        }
        let lifts = Lifts::of(&self.log);
        match self.narrowed(explain(self.game.position(), sensed, lifts, Some(&self.log), self.cfg.promotion))
        {
            Explanation::One { mv, promotion_assumed } => {
                // A peg of a piece that does not move, taken elsewhere and back:
                // several plies may have come back to these holes (a position
                // repeated inside a burst); their lift order goes first.
                let fits = pegs_fit(self.game.position(), &self.log, sensed, &mv);
                if !fits && self.judge_sequence(sensed, t, out) {
                    return;
                }
                return self.commit(mv, promotion_assumed, t, out);
            }
            Explanation::Many(c) => return self.report(MismatchReason::Ambiguous, c, None, t, out),
            Explanation::None => {}
        }
        // Pegs of both sides lifted since: the other side has moved, so the
        // last move was over (D.2.3); the plies since read the board.
        let revisable = if self.both_sides_lifted() { None } else { self.revise_candidate(sensed, lifts) };
        match revisable {
            Some(Explanation::One { mv, promotion_assumed }) => {
                let earlier = self.decision.revisable.unwrap_or_default();
                return self.revise(mv, promotion_assumed, earlier.union(lifts), t, out);
            }
            Some(Explanation::Many(c)) => return self.report(MismatchReason::Ambiguous, c, None, t, out),
            _ => {}
        }
        if self.judge_sequence(sensed, t, out) {
            return;
        }
        if let Some(decision) = self.decided_with_pegs_in_hand(sensed) {
            // The moves before stand; the pegs still out are the next move's
            // (a loaded line read their lifts with the last placement).
            self.take_decision(&decision, t, out);
            self.agreement = Agreement::Pending;
            return;
        }
        if sensed.is_subset(self.expected()) || self.castling_half_made(sensed) {
            // Pegs in a hand, nothing out of place: a move in progress (or
            // the king of a castling put down, its rook still to come: Art. 4.4(a)).
            if self.agreement == Agreement::InStep {
                self.agreement = Agreement::Pending;
            }
            return;
        }
        match self.game.last_ply_with_occupancy(sensed) {
            Some(ply) => self.report(MismatchReason::Takeback, Vec::new(), Some(ply), t, out),
            None => self.report(MismatchReason::Unexplained, Vec::new(), None, t, out),
        }
    }

    /// A settled board with pegs still out: the board just before the first
    /// of them was lifted (every change since a lift still out) explained by
    /// one move or one sequence from the record. At a quick pace on a loaded
    /// line that board may never have stood, so the lift that followed it was
    /// no evidence; the settle time with the pegs still in the hand is.
    fn decided_with_pegs_in_hand(&self, sensed: Bitboard) -> Option<Decision> {
        let pos = self.game.position();
        let mut out_since = Bitboard::EMPTY;
        for i in (0..self.log.len()).rev() {
            let lift = self.log[i];
            if lift.kind == LiftKind::Bounce {
                continue;
            }
            // At most a capture's two pegs and a touch in the hand; every one still out.
            if lift.kind != LiftKind::Confirmed || sensed.contains(lift.square) || out_since.count() >= 3 {
                return None;
            }
            out_since.add(lift.square);
            let board = lift.before;
            if board & !out_since != sensed {
                return None; // a peg was put down since: not a hand holding the next move's pegs
            }
            if board == self.expected() {
                continue;
            }
            let before = &self.log[..i];
            let confirmed = Lifts::of(before).confirmed;
            let lifts = Lifts::on_evidence(before);
            let moves = match self.narrowed(explain(pos, board, lifts, Some(before), self.cfg.promotion)) {
                Explanation::One { mv, promotion_assumed }
                    if pegs_fit(pos, before, board, &mv) && required_lifts(pos, &mv).is_subset(confirmed) =>
                {
                    vec![(mv, promotion_assumed)]
                }
                Explanation::One { .. } | Explanation::Many(_) => return None,
                Explanation::None => {
                    match sequence::explain_sequence(pos, board, &self.lift_order(before), self.cfg.promotion)
                    {
                        sequence::Sequences::One(moves) => self.with_promotion(moves),
                        sequence::Sequences::Many(_) => return None,
                        sequence::Sequences::None => continue,
                    }
                }
            };
            return Some(Decision { revises: false, moves, consumed: i, made: self.timing.state_since });
        }
        None
    }

    /// The king of a legal castling lifted and standing on its new square,
    /// its rook still home: the castling is half made, the rook to come.
    fn castling_half_made(&self, sensed: Bitboard) -> bool {
        let pos = self.game.position();
        let confirmed = Lifts::of(&self.log).confirmed;
        pos.legal_moves().iter().any(|m| match *m {
            Move::Castle { king, rook } => {
                let (king_to, _) = castling_targets(king, rook);
                king_to != rook
                    && confirmed.contains(king)
                    && sensed == self.expected().without(king).with(king_to)
            }
            _ => false,
        })
    }

    /// Chess960: a king and rook that castle onto each other's squares leave the
    /// holes as they were; if both were out of their holes at one moment, that
    /// may have been castling (touched apart, each was put back).
    pub(super) fn hidden_castle(&self) -> Option<Move> {
        let confirmed = Lifts::of(&self.log).confirmed;
        if confirmed.count() < 2 {
            return None;
        }
        let pos = self.game.position();
        pos.legal_moves().into_iter().find(|m| {
            matches!(m, Move::Castle { .. })
                && occupancy_after(pos, m) == self.sensed
                && required_lifts(pos, m).any()
                && required_lifts(pos, m).is_subset(confirmed)
                && touch_order(m, &self.log) != TouchOrder::Apart
        })
    }
}
