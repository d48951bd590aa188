//! The table with an external master clock (a DGT 3000 read through the DGT
//! board): the clock follows the readings; a switch of the running side is a
//! press, judged by the D.2.4 gate like a press of the station's own lever —
//! except that the master cannot be held, so a premature press is recorded
//! (and the blind player told) while the clock runs on as the master shows it.
//!
//! The readings are journaled as `clock_reading` when they change (`on_clock_reading`).

use super::{Phase, Table, TableError};
use crate::Millis;
use crate::clock::{ClockReading, GateDecision, Pressed, Side};
use crate::event::Event;

/// A side whose time rose by more than this was set (period time, an arbiter),
/// so its spoken warnings start again.
const WARNINGS_AGAIN_MS: Millis = 60_000;

impl Table {
    /// A reading of the external master clock at `t`. The daemon feeds (and
    /// journals) only readings that differ from the previous one.
    pub fn on_clock_reading(
        &mut self,
        reading: ClockReading,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.tick(t, out);
        if !self.cfg.external_clock {
            return Err(TableError::NoClock);
        }
        if self.phase != Phase::Playing {
            // Between games the master is set and tried out: nothing to judge.
            return Err(TableError::NoGame);
        }
        let clock = self.clocking.clock.as_mut().ok_or(TableError::NoClock)?;
        let before = [Side::White, Side::Black].map(|side| clock.remaining(side, t));
        let (was_started, was_running) = (clock.is_started(), clock.is_running());
        let pressed = clock.follow(&reading, t);
        let action = match (was_started, was_running, clock.is_running()) {
            (false, _, true) => Some("started"),
            (true, true, false) => Some("paused"),
            (true, false, true) => Some("resumed"),
            _ => None,
        };
        for side in [Side::White, Side::Black] {
            if reading.ms(side) > before[side.index()].saturating_add(WARNINGS_AGAIN_MS) {
                self.clocking.warnings.reset(side);
            }
        }
        if let Some(action) = action {
            out.push(Event::ClockChanged {
                action: action.into(),
                side: None,
                who: Some("dgt_clock".into()),
                why: None,
                added_ms: None,
                remaining_ms: None,
                t_ms: t,
            });
        }
        if let Some(pressed) = pressed {
            self.judge_reading_press(pressed, t, out);
        }
        self.clock_events(t, out);
        Ok(())
    }

    /// D.2.4 for a press seen on the master clock: the same gate as the
    /// station's own lever, but the master has already switched.
    fn judge_reading_press(&mut self, pressed: Pressed, t: Millis, out: &mut Vec<Event>) {
        // The press is evidence: it decides the move his board shows (issue 25).
        self.press_evidence(pressed.side, t, out);
        match self.gate(pressed.side) {
            Some(GateDecision::Accept) => self.press_counted(pressed, t, out),
            Some(GateDecision::Premature { missing }) => {
                out.push(Event::ClockPremature { side: pressed.side, missing, t_ms: t })
            }
            None => {}
        }
    }
}

#[cfg(test)]
mod tests;
