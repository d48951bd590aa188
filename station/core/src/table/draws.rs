//! Draws at the table (Article 9): offers marked in the record, agreement,
//! claims checked against the record and decided by the arbiter, with the
//! clock correction of 9.5 for an incorrect one.

use super::{Phase, Table, TableError, parse_move};
use crate::Millis;
use crate::clock::Side;
use crate::draws::{self as rules, ClaimCheck, INCORRECT_CLAIM_BONUS_MS};
use crate::event::Event;
use shakmaty::{Move, Position};

/// A claim the station checked, waiting for the arbiter.
#[derive(Clone, Debug)]
pub(crate) struct PendingClaim {
    side: Side,
    written: Option<Move>,
    check: ClaimCheck,
    /// The clock ran when the claim stopped it (9.5): it runs again after an incorrect one.
    clock_was_running: bool,
}

impl Table {
    /// Draw offers of this game: the ply each follows and who made it (9.1(b)).
    pub fn draw_offers(&self) -> &[(usize, Side)] {
        &self.rulings.draw_offers
    }

    /// The draw facts of the current position of the agreed record.
    pub fn draw_facts(&self) -> Option<rules::DrawFacts> {
        self.agreed().map(rules::facts)
    }

    /// A player offers a draw (9.1): recorded after the last move with the
    /// "(=)" mark of Appendix E.
    pub(crate) fn draw_offer(
        &mut self,
        side: Side,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.playing()?;
        // After the game's own last ply: a draughts game has no chess record.
        let ply = self.turn().map_or(0, |(ply, _)| ply);
        if !self.rulings.draw_offers.contains(&(ply, side)) {
            self.rulings.draw_offers.push((ply, side));
        }
        out.push(Event::DrawOffered { side, ply, t_ms: t });
        Ok(())
    }

    /// The players agreed to a draw (9.1): the game ends at once.
    pub(crate) fn accept_draw(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.playing()?;
        self.end_game("1/2-1/2", "agreement", t, out);
        Ok(())
    }

    /// The player to move claims a draw under 9.2 or 9.3, about the position
    /// now or with his written move (which must be legal). The station checks
    /// the record and stops the clock; the arbiter confirms (9.5).
    pub(crate) fn claim_draw(
        &mut self,
        side: Side,
        written: Option<&str>,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.playing()?;
        if self.claim_waits() {
            return Err(TableError::ClaimPending);
        }
        let game = self.agreed().ok_or(TableError::NoGame)?;
        if Side::from(game.position().turn()) != side {
            return Err(TableError::NotToMove);
        }
        let ply = game.ply();
        let written = match written.map(str::trim).filter(|w| !w.is_empty()) {
            Some(text) => Some(
                parse_move(game.position(), text)
                    .ok_or_else(|| TableError::illegal_move(game.position(), ply + 1, text))?,
            ),
            None => None,
        };
        let check = rules::check_claim(game, written);
        let written_san = written.map(|mv| shakmaty::san::SanPlus::from_move(game.position().clone(), mv));
        let clock_was_running =
            match self.clocking.clock.as_mut().filter(|c| c.is_running() && !c.is_followed()) {
                Some(clock) => clock.pause(t).is_ok(),
                None => false,
            };
        if clock_was_running {
            out.push(super::clock_changed(
                "paused",
                None,
                "station",
                "Art. 9.5: a draw claim stops both clocks",
                t,
            ));
        }
        out.push(Event::DrawClaimed {
            side,
            ply,
            written: written_san,
            correct: check.correct(),
            ground: check.ground.map(|g| g.reason().to_owned()),
            repetitions: check.facts.repetitions,
            moves_without_pawn_or_capture: check.facts.moves_without_pawn_or_capture(),
            t_ms: t,
        });
        if let Some(r) = self.seat.chess_rulings_mut() {
            r.claim = Some(PendingClaim { side, written, check, clock_was_running });
        }
        Ok(())
    }

    /// The arbiter confirms the station's verdict (9.5): a correct claim ends
    /// the game as a draw; an incorrect one gives the opponent three minutes,
    /// takes the claimant's time as the article says, lets the clock run again
    /// and plays his written move.
    pub(crate) fn confirm_claim(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.playing()?;
        let claim = self.seat.chess_rulings_mut().and_then(|r| r.claim.take()).ok_or(TableError::NoClaim)?;
        let correct = claim.check.correct();
        out.push(Event::DrawClaimDecided { side: claim.side, correct, t_ms: t });
        if let Some(ground) = claim.check.ground {
            self.end_game("1/2-1/2", ground.reason(), t, out);
            return Ok(());
        }
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed()) {
            let who = "arbiter";
            let why = "Art. 9.5: incorrect draw claim";
            let opponent = claim.side.opponent();
            let to = clock.remaining(opponent, t).saturating_add(INCORRECT_CLAIM_BONUS_MS);
            clock.set_remaining(opponent, to, t, who, why);
            self.clocking.warnings.reset(opponent);
            out.push(super::clock_corrected(opponent, Some(INCORRECT_CLAIM_BONUS_MS), to, who, why, t));
            let had = clock.remaining(claim.side, t);
            let left = rules::claimant_time_after_incorrect_claim(had);
            if left != had {
                clock.set_remaining(claim.side, left, t, who, why);
                out.push(super::clock_corrected(claim.side, None, left, who, why, t));
            }
            if claim.clock_was_running && clock.resume(t).is_ok() {
                out.push(super::clock_changed("resumed", None, "station", "Art. 9.5: play goes on", t));
            }
        }
        if let Some(mv) = claim.written {
            let text = self.agreed().map(|g| g.uci(mv)).unwrap_or_default();
            self.enter_parsed(mv, &text, t, out)?;
        }
        Ok(())
    }

    /// Ends the game with `result`: the clock stops.
    pub(crate) fn end_game(&mut self, result: &str, reason: &str, t: Millis, out: &mut Vec<Event>) {
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| c.is_running() && !c.is_followed()) {
            let _ = clock.pause(t);
        }
        out.push(super::game_over(result, reason, t));
        self.phase = Phase::Finished;
        self.stillness.settled = true;
        if let Some(r) = self.seat.chess_rulings_mut() {
            r.claim = None;
        }
    }

    /// A chess draw claim is waiting for the arbiter (Art. 9.5).
    pub(super) fn claim_waits(&self) -> bool {
        self.seat.chess_rulings().is_some_and(|r| r.claim.is_some())
    }
}
