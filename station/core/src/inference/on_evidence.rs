//! Moves decided on evidence (D.2.3): the lift that follows a board which stood
//! completes the move that board shows, or the plies the lift order explains; a
//! board one move explains waits for that move to be over.

use super::*;

impl BoardTracker {
    /// D.2.3: a move is complete once the next change cannot belong to it. The
    /// lift at `index` (just confirmed at `t`) is that change when the board the
    /// hand left before it is explained and the lift is no continuation.
    pub(super) fn decide_on_evidence(&mut self, mut index: usize, t: Millis, out: &mut Vec<Observation>) {
        let mut ask = None;
        while let Some(decision) = self.evidence(index, &mut ask) {
            self.take_decision(&decision, t, out);
            index -= decision.consumed;
        }
        if let Some(several) = ask {
            self.ask(several, t, out);
        }
    }

    /// The decision the lift at `index` completes, if any.
    fn evidence(&self, index: usize, ask: &mut Option<sequence::Several>) -> Option<Decision> {
        let lift = self.log[index];
        let expected = self.expected();
        // The board the hand left must have stood (a state shorter than the
        // debounce time may be a hand passing through): otherwise wait.
        let newest = *self.stood.iter().rev().find(|s| s.lifts <= index)?;
        // Sensor bounces since it stood change nothing about the board the hand left.
        let only_bounces = self.log[newest.lifts..index].iter().all(|l| l.kind == LiftKind::Bounce);
        if newest.occ != lift.before || !only_bounces {
            return None;
        }
        // Back at the record's holes: nothing was moved, unless pegs of both
        // sides were lifted (a position repeated within the burst): then the
        // lift order may tell the plies that came back to it.
        let back_at_record = newest.occ == expected;
        if back_at_record && !both_sides(self.game.position(), &self.log[..newest.lifts]) {
            return None;
        }
        for stood in self.stood.iter().rev().filter(|s| s.lifts <= index && !back_at_record) {
            if stood.occ == expected {
                break; // the board agreed with the record then: nothing older is undecided
            }
            // On evidence a captured peg must have been out for longer than a bounce.
            let lifts = Lifts::on_evidence(&self.log[..stood.lifts]);
            // More lifts than one move makes, noise included, is more than one
            // move (or a position repeated): leave it to the sequences.
            let hands = self.log[..stood.lifts].iter().filter(|l| l.kind != LiftKind::Bounce).count();
            if hands > MAX_LIFTS_OF_ONE_MOVE {
                continue;
            }
            // D.2.3 decides a move by the change that follows it: a board that
            // stood several moves' worth of lifts ago is no longer judged alone
            // (the plies since may have gone through its holes); the sequences
            // read it with them.
            let since = self.log[stood.lifts..=index].iter().filter(|l| l.kind != LiftKind::Bounce).count();
            if since > MAX_LIFTS_OF_ONE_MOVE {
                break;
            }
            // (A revision waits for the settle time: the moved piece lifted again
            // for a capture looks like the mover going on.)
            let order = Some(&self.log[..stood.lifts]);
            let found = match self.narrowed(explain(
                self.game.position(),
                stood.occ,
                lifts,
                order,
                self.cfg.promotion,
            )) {
                // Two moves fit this board (a peg touched and put back since may
                // be either's capture): an older board the hand left may tell,
                // else the plies since.
                Explanation::Many(_) => continue,
                // A move ends with its own peg put down: a peg put elsewhere after
                // it (and lifted again) means the hands went on to something else.
                // A rival whose captured peg was out only as long as a bounce
                // (or a hand on a jittered line) leaves it to the plies after.
                Explanation::One { mv, .. }
                    if has_rival(self.game.position(), stood.occ, &self.log[..stood.lifts], &mv) =>
                {
                    break;
                }
                Explanation::One { mv, promotion_assumed }
                    if ends(self.game.position(), &self.log, stood, &mv)
                        && pegs_fit(self.game.position(), &self.log[..stood.lifts], stood.occ, &mv) =>
                {
                    (mv, promotion_assumed)
                }
                Explanation::One { .. } | Explanation::None => continue,
            };
            // A peg the hand put since into a hole the move leaves empty is a
            // later ply's, or says the board never stood as that move: the
            // sequences read the whole stretch.
            let after = occupancy_after(self.game.position(), &found.0);
            if (newest.occ & !after).any() {
                break;
            }
            // A peg sensed for a moment since in a hole the move leaves empty,
            // where the moving piece may go instead: it may have landed there
            // and been taken at once (on a jittered line, how long it stood is
            // not known); the plies after read it.
            if self.flickered_where_it_may_go(self.game.position(), &found.0, stood.lifts, index) {
                break;
            }
            // A peg put down after it stood, before any hand lifted a peg: the
            // hand was still placing, so the board never stood as that move
            // (a made move leaves the hand nothing to put down but a captured peg).
            if self.placed_before_next_lift(stood, index) {
                break;
            }
            if self.completes(self.game.position(), &found.0, stood, index, lift.before) {
                return Some(Decision {
                    revises: false,
                    moves: vec![found],
                    consumed: stood.lifts,
                    made: stood.since,
                });
            }
            break; // the move may still be going on, unless several plies explain the board
        }
        // One move explains the board the hand left, its pegs as one move's:
        // several plies through the same holes are no better evidence (the
        // shortest explanation wins; a flicker and a bounce can pass for a
        // piece going out and back). It is decided once it is over.
        let before = &self.log[..newest.lifts];
        if !back_at_record
            && let Explanation::One { mv, .. } = self.narrowed(explain(
                self.game.position(),
                newest.occ,
                Lifts::of(before),
                Some(before),
                self.cfg.promotion,
            ))
            && pegs_fit(self.game.position(), before, newest.occ, &mv)
        {
            return None;
        }
        // Catch-up: the board the hand left, explained by several plies.
        let order = self.lift_order(&self.log[..newest.lifts]);
        let moves =
            match sequence::explain_sequence(self.game.position(), newest.occ, &order, self.cfg.promotion) {
                sequence::Sequences::One(moves) => moves,
                // Several sequences, and the hands go on: waiting for a rest that
                // may never come would stop the station deciding. It asks.
                sequence::Sequences::Many(firsts) => {
                    *ask = Some(firsts);
                    return None;
                }
                sequence::Sequences::None => return None,
            };
        let mut before_last = self.game.position().clone();
        for mv in &moves[..moves.len() - 1] {
            before_last.play_unchecked(*mv);
        }
        let last = moves[moves.len() - 1];
        // A peg sensed for a moment since, in a hole the last ply leaves empty
        // and its piece may go to instead: it may have landed there and been
        // taken at once (the next ply's capture under way, on a jittered line
        // that does not tell how long it stood). The boards after tell.
        if self.flickered_where_it_may_go(&before_last, &last, newest.lifts, index) {
            return None;
        }
        (ends(&before_last, &self.log, &newest, &last)
            && self.completes(&before_last, &last, &newest, index, lift.before))
        .then(|| Decision {
            revises: false,
            moves: self.with_promotion(moves),
            consumed: newest.lifts,
            made: newest.since,
        })
    }

    /// Whether a peg was sensed for a moment (lifts `since..=index`) in a hole
    /// `mv` (made from `pos`) leaves empty, where its piece may go instead.
    fn flickered_where_it_may_go(&self, pos: &Chess, mv: &Move, since: usize, index: usize) -> bool {
        let after = occupancy_after(pos, mv);
        let elsewhere: Bitboard = self.log[since..=index]
            .iter()
            .filter(|l| l.flicker && !after.contains(l.square))
            .map(|l| l.square)
            .collect();
        elsewhere.any()
            && pos.legal_moves().iter().any(|m| m.from() == mv.from() && elsewhere.contains(m.to()))
    }

    /// Whether a peg was put into an empty hole after `stood` and before the
    /// first lift (up to `index`) that was no bounce.
    fn placed_before_next_lift(&self, stood: &Stood, index: usize) -> bool {
        self.log[stood.lifts..=index]
            .iter()
            .find(|l| l.kind != LiftKind::Bounce)
            .is_some_and(|l| (l.before & !stood.occ).any())
    }

    /// Whether the changes since `stood` (lifts up to `index`, pegs put down up to
    /// the board `now`) cannot all belong to `mv` (made from `base`) going on.
    fn completes(&self, base: &Chess, mv: &Move, stood: &Stood, index: usize, now: Bitboard) -> bool {
        debug_assert_eq!(self.log[index].before, now);
        // Every peg put down on the way counts, also one lifted again since.
        let (mut lifted, mut placed, mut occ) = (Bitboard::EMPTY, Bitboard::EMPTY, stood.occ);
        for l in self.log[stood.lifts..=index].iter().filter(|l| l.kind != LiftKind::Bounce) {
            placed |= l.before & !occ;
            lifted.add(l.square);
            occ = l.before.without(l.square);
        }
        // D.2.3: a move is made when its piece stands in its new hole. While it
        // is out again (in the hand, or taken by the opponent) wait for more.
        let stands = sequence::placed_by(mv).is_subset(now);
        stands && !sequence::may_continue(base, mv, lifted | placed)
    }
}
