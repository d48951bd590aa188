//! An external clock as the master (a DGT 3000 read through the DGT board):
//! its readings, and whether it is still answering.
//!
//! When the station's clock follows an external one, the external clock keeps
//! the time and the station only reads and voices it. A reading says what both
//! displays show and which side runs; [`super::ChessClock::follow`] makes the
//! engine show exactly that. [`ClockWatch`] notices when readings stop coming
//! (a loose cable, a clock switched off) and when they come again. Like the
//! rest of the core, both take the time as an input.

use super::Side;
use crate::Millis;
use serde::{Deserialize, Serialize};

/// What an external clock shows at one moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockReading {
    /// White's display.
    pub white_ms: Millis,
    /// Black's display.
    pub black_ms: Millis,
    /// The side whose time runs down; `None` when the clock stands still.
    pub running: Option<Side>,
    /// White's flag is shown (or his display reads zero).
    #[serde(default)]
    pub white_flag: bool,
    /// Black's flag is shown (or his display reads zero).
    #[serde(default)]
    pub black_flag: bool,
}

impl ClockReading {
    /// The display of `side`.
    pub fn ms(&self, side: Side) -> Millis {
        match side {
            Side::White => self.white_ms,
            Side::Black => self.black_ms,
        }
    }

    /// Whether `side`'s flag has fallen according to the clock.
    pub fn flag(&self, side: Side) -> bool {
        match side {
            Side::White => self.white_flag || self.white_ms == 0,
            Side::Black => self.black_flag || self.black_ms == 0,
        }
    }
}

/// A change in whether the external clock answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchChange {
    /// No reading came for the configured silence; `since` is the last reading
    /// (or when watching began, if none ever came).
    Silent {
        /// When the clock was last heard (or watching began).
        since: Millis,
    },
    /// Readings come again after a silence.
    Answering,
}

/// Notices an external clock that stops answering, once, and its return, once.
///
/// Silence is counted only while the link to the device that relays the clock
/// is up: a board that is unplugged is reported as such, not as a silent clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockWatch {
    silent_ms: Millis,
    /// Silence is counted from here (the last reading, or the link coming up);
    /// `None` while the link is down.
    since: Option<Millis>,
    silent: bool,
}

impl ClockWatch {
    /// A watch that reports a clock silent for `silent_ms`; the link is down until [`Self::link`].
    pub fn new(silent_ms: Millis) -> Self {
        ClockWatch { silent_ms, since: None, silent: false }
    }

    /// The link to the relaying device came up (`true`, counting from `t`) or went down.
    pub fn link(&mut self, up: bool, t: Millis) {
        self.since = up.then_some(t);
    }

    /// A reading arrived at `t` (identical readings count: the clock answered).
    pub fn on_reading(&mut self, t: Millis) -> Option<WatchChange> {
        self.since = Some(self.since.map_or(t, |s| s.max(t)));
        std::mem::take(&mut self.silent).then_some(WatchChange::Answering)
    }

    /// When [`Self::tick`] is next needed.
    pub fn deadline(&self) -> Option<Millis> {
        if self.silent {
            return None;
        }
        self.since.map(|s| s.saturating_add(self.silent_ms))
    }

    /// Lets time pass up to `t`: reports the silence once.
    pub fn tick(&mut self, t: Millis) -> Option<WatchChange> {
        let since = self.since?;
        if self.silent || t < since.saturating_add(self.silent_ms) {
            return None;
        }
        self.silent = true;
        Some(WatchChange::Silent { since })
    }

    /// Whether the clock is silent now (reported and not yet answering again).
    pub fn is_silent(&self) -> bool {
        self.silent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn silence_is_told_once_and_the_return_once() {
        let mut w = ClockWatch::new(3000);
        assert_eq!(w.deadline(), None, "no link, no watching");
        w.link(true, 1000);
        assert_eq!(w.deadline(), Some(4000));
        for t in (1500..=3000).step_by(500) {
            assert_eq!(w.on_reading(t), None);
        }
        assert_eq!(w.tick(5999), None);
        assert_eq!(w.tick(6000), Some(WatchChange::Silent { since: 3000 }));
        for t in [6001, 7000, 60_000] {
            assert_eq!(w.tick(t), None, "told once");
        }
        assert_eq!(w.deadline(), None);
        assert!(w.is_silent());
        assert_eq!(w.on_reading(61_000), Some(WatchChange::Answering));
        assert_eq!(w.on_reading(62_000), None, "recovery told once");
        assert_eq!(w.deadline(), Some(65_000));
    }

    #[test]
    fn an_unplugged_board_is_not_a_silent_clock() {
        let mut w = ClockWatch::new(3000);
        w.link(true, 0);
        w.on_reading(500);
        w.link(false, 1000);
        assert_eq!(w.tick(100_000), None);
        assert_eq!(w.deadline(), None);
        w.link(true, 100_000);
        assert_eq!(w.tick(102_999), None);
        assert_eq!(w.tick(103_000), Some(WatchChange::Silent { since: 100_000 }));
    }

    #[test]
    fn a_flag_is_a_flag_or_a_zero() {
        let r =
            ClockReading { white_ms: 0, black_ms: 5000, running: None, white_flag: false, black_flag: true };
        assert!(r.flag(Side::White) && r.flag(Side::Black));
        assert_eq!(r.ms(Side::Black), 5000);
    }
}
