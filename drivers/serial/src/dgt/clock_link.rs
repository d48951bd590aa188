//! The clock link: commands for a DGT clock attached to the board, one at a
//! time, as DGT requires.
//!
//! A clock command travels board → clock and is answered by an
//! acknowledgement (a `BWTIME` frame with the ack marker) naming the command.
//! DGT's own clients hold a lock from sending a clock command until its ack
//! arrives, and resend it after about two seconds or after an error ack. The
//! link does the same, bounded: a command is tried [`MAX_TRIES`] times, then
//! given up and reported with the reason ([`ClockFailure`]), so the station
//! can tell the players and the console what the clock did not do.
//!
//! Pure: time is passed in (an [`Instant`]), nothing is written here; the
//! driver thread sends what [`ClockLink::poll`] hands it.
//!
//! A command is resent after 2 s, three tries in all, then given up with a reason: the clock is
//! not in mode 23, or it does not answer.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::protocol::{ClockAck, ClockCommand, ClockModel};

/// How long the link waits for a command's acknowledgement before resending it.
pub const ACK_TIMEOUT: Duration = Duration::from_secs(2);
/// How often a command is sent before it is given up (the first send included).
pub const MAX_TRIES: u32 = 3;
/// After a refusal (error ack, "not in mode 23") the command is sent again
/// after this pause: a refusal comes at once, and the clock needs a hand
/// (switching it to mode 23) before it can succeed.
pub const RETRY_PAUSE: Duration = Duration::from_secs(2);

/// Why a clock command was given up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockFailure {
    /// SetNRun refused: the clock is not in mode 23, the only mode in which it
    /// can be set from the board.
    NotInMode23,
    /// Every try ended without an acknowledgement: no clock, or one that does
    /// not listen (a clock answers only while the board is in update mode 0x43 or 0x4b).
    NoAnswer,
    /// The clock answered with an error acknowledgement every time.
    Refused,
}

impl ClockFailure {
    /// A short reason for logs and the console, in English.
    pub fn describe(self) -> &'static str {
        match self {
            ClockFailure::NotInMode23 => "the clock is not in mode 23",
            ClockFailure::NoAnswer => "the clock does not answer",
            ClockFailure::Refused => "the clock refused the command",
        }
    }
}

/// What the link tells the station.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockReport {
    /// The clock answered the version query: which model it is.
    Model {
        /// DGT 3000, DGT XL or another.
        model: ClockModel,
        /// Main and sub version.
        version: (u8, u8),
    },
    /// The clock acknowledged a command.
    Done(ClockCommand),
    /// A command was given up after [`MAX_TRIES`] tries.
    Failed {
        /// The command.
        command: ClockCommand,
        /// Why.
        failure: ClockFailure,
        /// How often it was sent.
        tries: u32,
    },
}

/// What [`ClockLink::poll`] asks of the driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClockStep {
    /// Write this command to the board now.
    Send(ClockCommand),
    /// Tell the station.
    Report(ClockReport),
}

#[derive(Debug, Clone)]
struct InFlight {
    command: ClockCommand,
    /// When it was last sent, or `None` while it waits to be (re)sent.
    sent_at: Option<Instant>,
    /// Not before this instant (a pause after a refusal).
    not_before: Option<Instant>,
    tries: u32,
    /// The reason of the last refusal, if any.
    refused: Option<ClockFailure>,
}

/// One clock command at a time, acknowledged, resent, reported.
#[derive(Debug, Clone, Default)]
pub struct ClockLink {
    queue: VecDeque<ClockCommand>,
    in_flight: Option<InFlight>,
    model: Option<ClockModel>,
}

impl ClockLink {
    /// An idle link.
    pub fn new() -> Self {
        Self::default()
    }

    /// The clock's model, once it answered the version query.
    pub fn model(&self) -> Option<ClockModel> {
        self.model
    }

    /// Queues a command. A text display for a clock known not to show text
    /// (a DGT XL) is dropped: the XL would not acknowledge it.
    pub fn queue(&mut self, command: ClockCommand) {
        if matches!(command, ClockCommand::Display { .. }) && self.model.is_some_and(|m| !m.shows_text()) {
            return;
        }
        self.queue.push_back(command);
    }

    /// Whether a command waits for its acknowledgement or to be sent.
    pub fn busy(&self) -> bool {
        self.in_flight.is_some() || !self.queue.is_empty()
    }

    /// The board reconnected: the command under way is sent again from its first
    /// try (whatever was on the line is lost), the model is asked again.
    pub fn reconnected(&mut self) {
        if let Some(flight) = self.in_flight.take() {
            self.queue.push_front(flight.command);
        }
        self.model = None;
    }

    /// What to do now: send the next command, resend one whose ack is overdue, or
    /// report one given up. Call often (every loop of the driver).
    pub fn poll(&mut self, now: Instant, out: &mut Vec<ClockStep>) {
        if self.in_flight.is_none() {
            let Some(command) = self.queue.pop_front() else { return };
            self.in_flight =
                Some(InFlight { command, sent_at: None, not_before: None, tries: 0, refused: None });
        }
        let Some(flight) = self.in_flight.as_mut() else { return };
        let due = match flight.sent_at {
            None => flight.not_before.is_none_or(|t| now >= t),
            Some(sent) => now.saturating_duration_since(sent) >= ACK_TIMEOUT,
        };
        if !due {
            return;
        }
        if flight.tries >= MAX_TRIES {
            let failure = flight.refused.unwrap_or(ClockFailure::NoAnswer);
            let (command, tries) = (flight.command.clone(), flight.tries);
            self.in_flight = None;
            out.push(ClockStep::Report(ClockReport::Failed { command, failure, tries }));
            // The next command may go at once.
            self.poll(now, out);
            return;
        }
        flight.tries += 1;
        flight.sent_at = Some(now);
        flight.not_before = None;
        out.push(ClockStep::Send(flight.command.clone()));
    }

    /// An acknowledgement (or unsolicited report) from the clock. Only reports
    /// come out; the next command goes at the next [`Self::poll`].
    pub fn on_ack(&mut self, ack: &ClockAck, now: Instant, out: &mut Vec<ClockStep>) {
        if let Some((main, sub)) = ack.version() {
            let model = ClockModel::from_main(main);
            self.model = Some(model);
            out.push(ClockStep::Report(ClockReport::Model { model, version: (main, sub) }));
        }
        let Some(flight) = self.in_flight.as_mut() else { return };
        let set_n_run = matches!(flight.command, ClockCommand::SetAndRun { .. });
        let refusal = if ack.not_in_mode_23() && set_n_run {
            Some(ClockFailure::NotInMode23)
        } else if ack.command() != Some(flight.command.id()) {
            // Another command's ack (a late one after a resend) or a button report.
            return;
        } else if ack.is_ok() {
            let done = flight.command.clone();
            self.in_flight = None;
            out.push(ClockStep::Report(ClockReport::Done(done)));
            return;
        } else if set_n_run {
            // The one documented reason a clock refuses SetNRun.
            Some(ClockFailure::NotInMode23)
        } else {
            Some(ClockFailure::Refused)
        };
        flight.refused = refusal;
        flight.sent_at = None;
        flight.not_before = Some(now + RETRY_PAUSE);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::protocol::{ClockRun, SideTime};

    fn set() -> ClockCommand {
        let five = SideTime::from_secs(300);
        ClockCommand::SetAndRun { left: five, right: five, run: ClockRun::LeftRunning, lever: true }
    }

    fn poll(link: &mut ClockLink, now: Instant) -> Vec<ClockStep> {
        let mut out = Vec::new();
        link.poll(now, &mut out);
        out
    }

    fn ack(link: &mut ClockLink, ack: ClockAck, now: Instant) -> Vec<ClockStep> {
        let mut out = Vec::new();
        link.on_ack(&ack, now, &mut out);
        out
    }

    #[test]
    fn one_command_at_a_time_the_next_after_the_ack() {
        let t0 = Instant::now();
        let mut link = ClockLink::new();
        link.queue(ClockCommand::Version);
        link.queue(set());
        assert_eq!(poll(&mut link, t0), [ClockStep::Send(ClockCommand::Version)]);
        assert_eq!(poll(&mut link, t0 + Duration::from_millis(500)), [], "waits for the ack");
        let version = ClockAck { ack0: 0x10, ack1: 0x09, ack2: 0x23, ack3: 0 };
        assert_eq!(
            ack(&mut link, version, t0 + Duration::from_millis(600)),
            [
                ClockStep::Report(ClockReport::Model { model: ClockModel::Dgt3000, version: (2, 3) }),
                ClockStep::Report(ClockReport::Done(ClockCommand::Version)),
            ]
        );
        assert_eq!(poll(&mut link, t0 + Duration::from_millis(650)), [ClockStep::Send(set())]);
        assert_eq!(
            ack(&mut link, ClockAck::ok(0x0a), t0 + Duration::from_millis(700)),
            [ClockStep::Report(ClockReport::Done(set()))]
        );
        assert!(!link.busy());
    }

    #[test]
    fn a_silent_clock_gets_three_tries_then_is_reported() {
        let t0 = Instant::now();
        let mut link = ClockLink::new();
        link.queue(set());
        let mut sends = 0;
        let mut report = None;
        for tenth in 0..100 {
            for step in poll(&mut link, t0 + Duration::from_millis(100 * tenth)) {
                match step {
                    ClockStep::Send(_) => sends += 1,
                    ClockStep::Report(r) => report = Some((tenth, r)),
                }
            }
        }
        assert_eq!(sends, MAX_TRIES);
        let (tenth, report) = report.unwrap();
        assert_eq!(tenth, 60, "given up one time-out after the third send");
        assert_eq!(report, ClockReport::Failed { command: set(), failure: ClockFailure::NoAnswer, tries: 3 });
    }

    #[test]
    fn a_refused_set_n_run_is_retried_after_a_pause_and_reported_as_mode_23() {
        let t0 = Instant::now();
        let mut link = ClockLink::new();
        link.queue(set());
        assert_eq!(poll(&mut link, t0), [ClockStep::Send(set())]);
        let not_23 = ClockAck { ack0: 0x10, ack1: 0x90, ack2: 0, ack3: 0 };
        assert_eq!(ack(&mut link, not_23, t0), [], "not at once");
        assert_eq!(poll(&mut link, t0 + RETRY_PAUSE), [ClockStep::Send(set())]);
        let error = ClockAck { ack0: 0x40, ack1: 0x0a, ack2: 0, ack3: 0 };
        assert_eq!(ack(&mut link, error, t0 + RETRY_PAUSE), []);
        // A button report in between changes nothing.
        assert_eq!(
            ack(&mut link, ClockAck { ack0: 0x10, ack1: 0x88, ack2: 5, ack3: 49 }, t0 + RETRY_PAUSE),
            []
        );
        assert_eq!(poll(&mut link, t0 + RETRY_PAUSE * 2), [ClockStep::Send(set())]);
        assert_eq!(ack(&mut link, not_23, t0 + RETRY_PAUSE * 2), []);
        assert_eq!(
            poll(&mut link, t0 + RETRY_PAUSE * 3),
            [ClockStep::Report(ClockReport::Failed {
                command: set(),
                failure: ClockFailure::NotInMode23,
                tries: 3
            })]
        );
    }

    #[test]
    fn an_xl_gets_no_text_and_a_reconnect_sends_the_command_again() {
        let t0 = Instant::now();
        let mut link = ClockLink::new();
        link.queue(ClockCommand::Version);
        poll(&mut link, t0);
        ack(&mut link, ClockAck { ack0: 0x10, ack1: 0x09, ack2: 0x14, ack3: 0 }, t0);
        assert_eq!(link.model(), Some(ClockModel::DgtXl));
        link.queue(ClockCommand::Display { text: "e4".into(), beep: false });
        assert!(!link.busy(), "no text for an XL");
        link.queue(set());
        assert_eq!(poll(&mut link, t0), [ClockStep::Send(set())]);
        link.reconnected();
        assert_eq!(link.model(), None);
        assert_eq!(poll(&mut link, t0), [ClockStep::Send(set())], "sent again after the reconnect");
    }
}
