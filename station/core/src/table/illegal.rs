//! Illegal moves found later (Art. 7.4, 2001 text): the arbiter names the ply;
//! the position before it is reinstated on both boards (the boards get their
//! correction steps as for a take-back), the clocks are set as they were in
//! that position (6.14, from the readings the station kept at each press),
//! and 7.4(b) applies: two minutes to the opponent for a player's first and
//! second illegal move, the third loses. (The 2018 Laws, 7.5.5, make the
//! second one lose.)

use super::{Table, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::event::Event;
use shakmaty::Position;

/// Time added to the opponent of a player's first and second illegal move (Art. 7.4(b)).
pub const ILLEGAL_MOVE_BONUS_MS: Millis = 2 * 60_000;
/// The illegal move of a player that loses the game (Art. 7.4(b), 2001).
pub const ILLEGAL_MOVES_LOSE_AT: u32 = 3;

impl Table {
    /// Illegal moves found so far: White's, Black's.
    pub fn illegal_moves(&self, side: Side) -> u32 {
        self.seat.chess_rulings().map_or(0, |r| r.illegal_moves[side.index()])
    }

    /// The arbiter found that the move of `ply` (1-based) was illegal.
    pub(crate) fn illegal_move(
        &mut self,
        ply: usize,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.playing()?;
        if self.claim_waits() {
            return Err(TableError::ClaimPending);
        }
        let sync = &self.seat.chess().ok_or(TableError::NoGame)?.sync;
        let agreed = sync.agreed();
        if ply == 0 || ply > agreed.ply() {
            return Err(TableError::Invalid(format!(
                "ply {ply} is not a move of the record (1-{})",
                agreed.ply()
            )));
        }
        let offender = Side::from(agreed.position_at(ply - 1).ok_or(TableError::NoGame)?.turn());
        let before = sync.clock_at(ply - 1);
        let replaced: crate::event::PlayedMove = agreed.played(agreed.moves()[ply - 1]).into();
        let sync = &mut self.seat.chess_mut().ok_or(TableError::NoGame)?.sync;
        while sync.agreed().ply() >= ply {
            if !sync.take_back(t, out) {
                return Err(TableError::NothingToTakeBack);
            }
        }
        let c = self.seat.chess_mut().ok_or(TableError::NoGame)?;
        c.rulings.illegal_moves[offender.index()] += 1;
        let count = c.rulings.illegal_moves[offender.index()];
        out.push(Event::IllegalMoveFound { ply, side: offender, uci: replaced, count, t_ms: t });
        self.adopt_targets(t, out);
        let who = "arbiter";
        if let (Some(clock), Some(at)) = (self.clocking.clock.as_mut().filter(|c| !c.is_followed()), before) {
            // 6.14: the times of the reinstated position, as kept when it was pressed.
            let why = match ply - 1 {
                0 => "Art. 7.4(a): the clocks as they were at the start".to_owned(),
                before => format!(
                    "Art. 7.4(a): the clocks as they were after {}",
                    crate::notation::ply_number(before)
                ),
            };
            for (side, ms) in [(Side::White, at.white_ms), (Side::Black, at.black_ms)] {
                clock.set_remaining(side, ms, t, who, why.clone());
                self.clocking.warnings.reset(side);
                out.push(super::clock_corrected(side, None, ms, who, why.clone(), t));
            }
        }
        if count >= ILLEGAL_MOVES_LOSE_AT {
            let result = self.rules().win_for(offender.opponent());
            self.end_game(result, "illegal_moves", t, out);
            return Ok(());
        }
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed()) {
            let opponent = offender.opponent();
            let to = clock.remaining(opponent, t).saturating_add(ILLEGAL_MOVE_BONUS_MS);
            let why = format!("Art. 7.4(b): illegal move {count} of the opponent");
            clock.set_remaining(opponent, to, t, who, why.clone());
            self.clocking.warnings.reset(opponent);
            out.push(super::clock_corrected(opponent, Some(ILLEGAL_MOVE_BONUS_MS), to, who, why, t));
        }
        // The reinstated position's times are now these: a later reinstatement
        // of the same position keeps the two minutes given.
        if let (Some(clock), Some(c)) = (self.clocking.clock.as_ref(), self.seat.chess_mut()) {
            let (white, black) = (clock.remaining(Side::White, t), clock.remaining(Side::Black, t));
            c.sync.record_clock(ply - 1, white, black);
        }
        Ok(())
    }
}
