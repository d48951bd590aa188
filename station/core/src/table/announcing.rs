//! The blind player's spoken announcements (D.2.3, D.2.8): checked against
//! his board, a promotion piece the pegs cannot show settled by them, and
//! without a sensed board his spoken move is his move.
//!
//! When announcing is not required, an announcement is about his last move only while it is the
//! last.

use super::*;

impl Table {
    /// The blind player announced `mv` aloud (speech input, D.2.1/D.2.3.3).
    /// It is checked against the move his board shows; said before the move is
    /// sensed, it is checked when the move comes. A promotion piece named in
    /// the announcement settles the piece the peg board cannot see.
    pub fn announce(&mut self, mv: Move, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick(t, out);
        if self.cfg.blind_unsensed {
            return self.spoken_move(mv, t, out);
        }
        self.announcement_evidence(mv, t, out);
        if self.seat.chess().is_none() {
            return Err(TableError::NoGame);
        }
        match self.unannounced_ply() {
            Some(ply) => self.check_announcement(ply, mv, t, t, out),
            None => {
                if let Some(c) = self.seat.chess_mut() {
                    c.said_early = Some((mv, t));
                }
            }
        }
        Ok(())
    }

    /// [`announce`](Self::announce) from UCI or SAN, in the position before the
    /// blind player's latest unannounced move (or the current one).
    pub fn announce_uci(&mut self, text: &str, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let pos = self.announce_position().ok_or(TableError::NoGame)?;
        let mv = parse_move(&pos, text).ok_or_else(|| TableError::illegal_move(&pos, 0, text))?;
        self.announce(mv, t, out)
    }

    /// The position an announcement is about: before the blind player's latest
    /// unannounced move, or the current one when he has not moved yet.
    pub fn announce_position(&self) -> Option<shakmaty::Chess> {
        let agreed = self.agreed()?;
        if self.cfg.blind_unsensed {
            // Without a board, announcing is moving: always about the position now.
            return Some(agreed.position().clone());
        }
        Some(match self.unannounced_ply() {
            Some(ply) => agreed.position_at(ply - 1)?.clone(),
            None => agreed.position().clone(),
        })
    }

    /// The move his board shows that his announcement now is about (issue
    /// 33): his latest unannounced move as the board decided it, `None` when
    /// he has not moved yet, announces before his board decides, or has no
    /// sensed board. The words he says are checked against it first.
    pub fn board_move_to_announce(&self) -> Option<Move> {
        if self.cfg.blind_unsensed {
            return None;
        }
        let ply = self.unannounced_ply()?;
        self.agreed()?.moves().get(ply - 1).copied()
    }

    /// The blind player's move an announcement now is about, if not the one
    /// to come. When announcing is required it is his latest unannounced move.
    /// When it is not, he announces only now and then (a promotion piece the
    /// pegs cannot show): it is about his move only while that is the last
    /// one; once answered, what he says is about his next move.
    pub(super) fn unannounced_ply(&self) -> Option<usize> {
        let agreed = self.agreed()?;
        let blind = Side::from(self.cfg.blind_color);
        let latest = (self.announcing.announced_ply + 1..=agreed.ply())
            .rev()
            .find(|&ply| agreed.position_at(ply - 1).is_some_and(|p| Side::from(p.turn()) == blind))?;
        (self.cfg.announcement_required || latest == agreed.ply()).then_some(latest)
    }

    /// Without a sensor board the blind player's announcement is his move
    /// (D.2.3.3 with nothing to check it against): legal and his turn, it is
    /// made at once and the boards execute it; otherwise it is refused.
    pub(super) fn spoken_move(
        &mut self,
        mv: Move,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        let sync = &mut self.seat.chess_mut().ok_or(TableError::NoGame)?.sync;
        let agreed = sync.agreed();
        let ply = agreed.ply() + 1;
        let text = agreed.uci(mv);
        if agreed.position().turn() != self.cfg.blind_color {
            return Err(TableError::NotYourTurn { text });
        }
        if !sync.enter_move(mv, t, out) {
            let why = "the boards are going back to an earlier position: say it once they show it";
            return Err(TableError::illegal_at(ply, &text, why));
        }
        self.announcing.announced_ply = ply;
        if self.cfg.clock_auto_press {
            let _ = self.press_now(Side::from(self.cfg.blind_color), t, out);
        }
        self.adopt_targets(t, out);
        self.check_game_over(t, out);
        Ok(())
    }

    /// `made`: when the move became made, the later of its placement and the
    /// announcement (the clock is pressed for him from then).
    pub(super) fn check_announcement(
        &mut self,
        ply: usize,
        said: Move,
        made: Millis,
        t: Millis,
        out: &mut Vec<Event>,
    ) {
        let Some(ChessPlay { sync, trackers, .. }) = self.seat.chess_mut() else { return };
        let mut sensed = sync.agreed().moves()[ply - 1];
        let same_path = said.from() == sensed.from() && said.to() == sensed.to();
        if same_path && said.promotion().is_some() && said != sensed && ply == sync.agreed().ply() {
            // The peg board could not see the piece: the announcement names it.
            if let (Some(role), Some(tracker)) = (said.promotion(), trackers[BoardRole::Blind].as_mut())
                && tracker.set_promotion(role).is_some()
            {
                sync.board_record(BoardRole::Blind, tracker.game(), t, out);
                sensed = sync.agreed().moves()[ply - 1];
            }
        }
        let game = sync.agreed();
        let matches = sensed == said;
        out.push(Event::AnnouncementChecked {
            ply,
            said: game.played(said).into(),
            sensed: game.played(sensed).into(),
            matches,
            t_ms: t,
        });
        if matches {
            self.announcing.announced_ply = ply;
            // Only a press held back for the announcement is due now: without
            // speech input the move pressed his clock when it was made.
            if self.cfg.clock_auto_press && self.cfg.announcement_required {
                let _ = self.press_made(Side::from(self.cfg.blind_color), made, t, out);
            }
        }
    }
}
