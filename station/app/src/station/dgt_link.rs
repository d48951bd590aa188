//! The DGT clock's link: the commands that set it, the watch on whether it
//! still answers, the last reading given to the table and its setup.
//!
//! With `[clock] source = "dgt"` the station feeds the clock's readings to the table, sets the
//! clock (SetNRun) when a game starts, and watches it (`device_status` `dgt_clock`).

use super::*;
use station_core::clock::{ClockReading, ClockWatch};
use station_serial::dgt::DgtCommands;

/// The DGT clock, as the station drives it (clock source `dgt`).
pub(super) struct DgtLink {
    /// Sets the DGT clock when a game starts.
    pub commands: Option<DgtCommands>,
    /// Whether the DGT clock still answers.
    pub watch: Option<ClockWatch>,
    /// The last DGT clock reading given to the table (only changes are).
    pub last_reading: Option<ClockReading>,
    /// A game started while the DGT board was away: its clock is set when the
    /// board connects, unless a move has been made by then.
    pub set_when_connected: bool,
    /// The DGT master clock's setup, link reports and bonus check.
    pub setup: crate::dgt_clock::DgtClock,
}

impl DgtLink {
    /// No clock attached yet; `watch` when the clock source is `dgt`.
    pub fn new(watch: Option<ClockWatch>) -> Self {
        DgtLink {
            commands: None,
            watch,
            last_reading: None,
            set_when_connected: false,
            setup: crate::dgt_clock::DgtClock::new(),
        }
    }
}

impl DgtLink {
    /// The DGT clock answered (a reading or an acknowledgement): if it had
    /// been silent, the status that says it answers again, to journal.
    pub fn answered(&mut self, t: Millis) -> Option<Event> {
        match self.watch.as_mut().and_then(|w| w.on_reading(t)) {
            Some(WatchChange::Answering) => Some(dgt_clock_status("connected", "answering again".into(), t)),
            _ => None,
        }
    }
}

impl Station {
    /// Handles one event of a DGT board (the sighted player's), read at `at`.
    pub fn handle_dgt(&mut self, board: BoardRole, event: DgtEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        match event {
            DgtEvent::Message(DgtMessage::BoardDump(b)) => {
                let _ = self.apply(t, Input::Pieces { board, fen: b.board_fen().to_string() }, &mut events);
            }
            DgtEvent::Message(DgtMessage::FieldUpdate { square, piece }) => {
                let input =
                    Input::Field { board, square: square.to_string(), piece: piece.map(|p| p.char()) };
                let _ = self.apply(t, input, &mut events);
            }
            DgtEvent::Message(DgtMessage::Trademark(text) | DgtMessage::SerialNumber(text)) => {
                events.push(Event::BoardIdentity { board, text, t_ms: t });
            }
            DgtEvent::Message(DgtMessage::ClockTime(time)) => self.clock_time(&time, t, &mut events),
            DgtEvent::Message(DgtMessage::ClockAck(ack)) => {
                if ack.ack0 != 0x10 {
                    // 0x40: e.g. SetNRun while the DGT 3000 is not in mode 23.
                    tracing::warn!(?ack, "the DGT clock refused a command");
                }
                events.extend(self.dgt_link.answered(t));
            }
            DgtEvent::Message(_) => {}
            DgtEvent::Clock(report) if self.dgt_link.watch.is_some() => {
                self.dgt_link.setup.on_report(&report, t, &mut events)
            }
            DgtEvent::Clock(_) => {}
            DgtEvent::OrientationChanged(o) => {
                events.push(Event::BoardFault { board, text: format!("board orientation: {o:?}"), t_ms: t });
            }
            DgtEvent::Connected => {
                if let Some(w) = self.dgt_link.watch.as_mut() {
                    w.link(true, t);
                }
                self.link(board, None, t, &mut events);
                if std::mem::take(&mut self.dgt_link.set_when_connected)
                    && self.table.turn().is_some_and(|(ply, _)| ply == 0)
                {
                    self.set_dgt_clock();
                }
            }
            DgtEvent::Disconnected { reason } => {
                if let Some(w) = self.dgt_link.watch.as_mut() {
                    w.link(false, t);
                }
                self.link(board, Some(reason), t, &mut events)
            }
            DgtEvent::Dropped { error, total } => {
                events.extend(self.links[board].drop_summary(board, Some((error.to_string(), total)), t));
            }
        }
        self.decide(events);
        Ok(())
    }

    /// A DGT clock reading relayed by the DGT board. With clock source `dgt` the
    /// table's clock follows it; a reading that differs from the last one is journaled.
    pub(super) fn clock_time(&mut self, time: &BwTime, t: Millis, events: &mut Vec<Event>) {
        if self.dgt_link.watch.is_none() || time.no_clock {
            // Not our clock source, or the board says no clock is attached: no answer from a clock.
            return;
        }
        events.extend(self.dgt_link.answered(t));
        let reading = reading_of(time, self.config.clock.dgt_white);
        self.dgt_link.setup.on_reading(&reading, t, events);
        if self.dgt_link.last_reading != Some(reading) && self.table.clock().is_some() {
            self.dgt_link.last_reading = Some(reading);
            let _ = self.apply(t, Input::from_clock_reading(&reading), events);
        }
    }

    /// Sets the DGT clock for a new game (see [`crate::dgt_clock`]): both
    /// displays to the time control's initial time, the first mover's running
    /// when the clock starts with the game, the lever switching sides.
    pub(super) fn set_dgt_clock(&mut self) {
        if self.config.clock.source != ClockSource::Dgt {
            return;
        }
        if !self.links[BoardRole::Mirror].connected {
            // Commands to an absent board are lost: set it when it comes.
            self.dgt_link.set_when_connected = true;
            return;
        }
        let Some(commands) = &self.dgt_link.commands else { return };
        let (Some(tc), Some(clock)) = (self.table.config().time_control.as_ref(), self.table.clock()) else {
            return;
        };
        let first_left =
            (clock.on_move() == Side::White) == (self.config.clock.dgt_white == DgtDisplay::Left);
        let run = match (self.config.clock.auto_start, first_left) {
            (false, _) => ClockRun::Paused,
            (true, true) => ClockRun::LeftRunning,
            (true, false) => ClockRun::RightRunning,
        };
        for command in self.dgt_link.setup.setup(tc, run, self.clock.now()) {
            tracing::info!(?command, "setting the DGT clock for the new game");
            if let Err(e) = commands.send(HostCommand::Clock(command)) {
                tracing::warn!(error = %e, "the DGT clock could not be set");
            }
        }
    }
}

/// The `device_status` event of the DGT clock.
pub(super) fn dgt_clock_status(status: &str, detail: String, t: Millis) -> Event {
    device_status("dgt_clock", None, status, Some(detail), t)
}

/// A DGT clock reading as White's and Black's times.
pub(super) fn reading_of(time: &BwTime, white: DgtDisplay) -> ClockReading {
    let white_left = white == DgtDisplay::Left;
    let (w, b) = if white_left { (time.left, time.right) } else { (time.right, time.left) };
    // The side to move; the raised lever tells it when the clock sets no to-move bit.
    let left_runs = match (time.left_to_move, time.right_to_move) {
        (true, false) => true,
        (false, true) => false,
        _ => !time.lever_right_high,
    };
    let running = time.running.then_some(if left_runs == white_left { Side::White } else { Side::Black });
    ClockReading {
        white_ms: u64::from(w.total_secs()) * 1000,
        black_ms: u64::from(b.total_secs()) * 1000,
        running,
        white_flag: w.flag_blocked || w.flag_shown,
        black_flag: b.flag_blocked || b.flag_shown,
    }
}
