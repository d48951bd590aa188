//! Which spoken time warnings are due, for one listener (D.2.6.1: the clock tells
//! the blind player the time).
//!
//! The caller feeds each side's remaining time and period as often as it likes
//! (each tick, after each press); [`WarningSchedule::due`] returns the warnings
//! whose thresholds the remaining time has reached since the last call, each
//! exactly once, highest first. A threshold is reached when the remaining time
//! is at or below it.
//!
//! Re-arming: a new period re-arms everything (the clock was given time). A
//! correction should be followed by [`WarningSchedule::reset`]. Increments do
//! not re-arm a threshold until the clock has climbed back above it by
//! `rearm_margin_seconds`, so a player hovering around "one minute" with a
//! 2-second increment is not told so after every move.
//!
//! Muting never applies in time trouble: warnings at or below
//! `time_trouble_minutes`, flag falls and time controls reached are always said.

use super::Side;
use crate::Millis;
use serde::{Deserialize, Serialize};

const MINUTE_MS: Millis = 60_000;

/// At most this many thresholds are reported by one call (the lowest ones).
/// Only a caller that stalled for hours or a huge correction crosses more, and
/// then only the latest warnings are worth saying.
const MAX_BURST: usize = 64;

/// A listener's choice of warnings (a TOML table in the station's configuration).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct WarningConfig {
    /// Say the remaining time when a period starts (the game's first one too).
    pub period_start: bool,
    /// Say the time at every multiple of this many minutes (0: never).
    pub every_minutes: u32,
    /// Say the time at every whole minute once at most this many minutes remain (0: never).
    pub every_minute_below_minutes: u32,
    /// Say the time when these many seconds remain.
    pub at_seconds: Vec<u32>,
    /// Say that a side completed a period's moves and got time added.
    pub time_control_reached: bool,
    /// At or below this many minutes a side is in time trouble: its warnings are never muted.
    pub time_trouble_minutes: u32,
    /// Silence the routine warnings (not those in time trouble, flag falls or time controls).
    pub muted: bool,
    /// A passed threshold fires again only once the clock has climbed this far above it.
    pub rearm_margin_seconds: u32,
}

impl Default for WarningConfig {
    fn default() -> Self {
        WarningConfig {
            period_start: true,
            every_minutes: 10,
            every_minute_below_minutes: 5,
            at_seconds: vec![30, 10],
            time_control_reached: true,
            time_trouble_minutes: 5,
            muted: false,
            rearm_margin_seconds: 60,
        }
    }
}

/// A warning to say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "warning", rename_all = "snake_case")]
pub enum Warning {
    /// A period started with this much time.
    PeriodStart {
        /// Whose clock.
        side: Side,
        /// The period (0-based).
        period: u32,
        /// Time on the clock.
        remaining_ms: Millis,
    },
    /// The remaining time reached a threshold.
    Remaining {
        /// Whose clock.
        side: Side,
        /// The threshold reached (what to say: "ten minutes").
        threshold_ms: Millis,
        /// The side is in time trouble (say it even if the listener muted warnings).
        time_trouble: bool,
    },
    /// The side completed the moves of a period; `period` starts now.
    TimeControlReached {
        /// Whose clock.
        side: Side,
        /// The period that starts (0-based).
        period: u32,
    },
    /// The side's time ran out.
    FlagFell {
        /// Whose clock.
        side: Side,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SideState {
    period: u32,
    /// Thresholds at or above this have passed; those below are armed.
    mark_ms: Millis,
    flag_said: bool,
    /// Re-arm at the next call without saying the period start (after a correction).
    rearm: bool,
}

/// The warning state of one listener for both sides.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarningSchedule {
    config: WarningConfig,
    sides: [Option<SideState>; 2],
}

impl WarningSchedule {
    /// A schedule with nothing said yet; the first call per side announces its period start.
    pub fn new(config: WarningConfig) -> Self {
        WarningSchedule { config, sides: [None; 2] }
    }

    /// The listener's configuration.
    pub fn config(&self) -> &WarningConfig {
        &self.config
    }

    /// Re-arms `side` after its time was corrected: the next call takes the
    /// remaining time as the new starting point, silently.
    pub fn reset(&mut self, side: Side) {
        if let Some(state) = &mut self.sides[side.index()] {
            state.rearm = true;
        }
    }

    /// The warnings due for `side`, whose clock shows `remaining_ms` in `period`.
    pub fn due(&mut self, side: Side, remaining_ms: Millis, period: u32) -> Vec<Warning> {
        let mut out = Vec::new();
        let fresh = SideState { period, mark_ms: remaining_ms, flag_said: false, rearm: false };
        let in_trouble = remaining_ms <= self.trouble_ms();
        let say_start = self.config.period_start && (!self.config.muted || in_trouble);
        let start = Warning::PeriodStart { side, period, remaining_ms };
        let state = match self.sides[side.index()] {
            None => {
                out.extend(say_start.then_some(start));
                fresh
            }
            Some(state) if state.rearm => fresh,
            Some(state) if state.period != period => {
                if period > state.period && self.config.time_control_reached {
                    out.push(Warning::TimeControlReached { side, period });
                }
                out.extend(say_start.then_some(start));
                fresh
            }
            Some(state) => state,
        };
        let margin = Millis::from(self.config.rearm_margin_seconds) * 1000;
        let mut state =
            SideState { mark_ms: state.mark_ms.max(remaining_ms.saturating_sub(margin)), ..state };
        for threshold_ms in self.thresholds(remaining_ms, state.mark_ms) {
            let time_trouble = threshold_ms <= self.trouble_ms();
            if !self.config.muted || time_trouble {
                out.push(Warning::Remaining { side, threshold_ms, time_trouble });
            }
        }
        state.mark_ms = state.mark_ms.min(remaining_ms);
        if remaining_ms == 0 && !state.flag_said {
            out.push(Warning::FlagFell { side });
            state.flag_said = true;
        }
        self.sides[side.index()] = Some(state);
        out
    }

    fn trouble_ms(&self) -> Millis {
        Millis::from(self.config.time_trouble_minutes) * MINUTE_MS
    }

    /// The configured thresholds in `[low, high)`, highest first, at most
    /// [`MAX_BURST`] (the lowest ones).
    fn thresholds(&self, low: Millis, high: Millis) -> Vec<Millis> {
        let config = &self.config;
        let mut found = Vec::new();
        if config.every_minutes > 0 {
            found.extend(multiples(Millis::from(config.every_minutes) * MINUTE_MS, low, high));
        }
        if config.every_minute_below_minutes > 0 {
            let top = Millis::from(config.every_minute_below_minutes) * MINUTE_MS;
            found.extend(multiples(MINUTE_MS, low, high.min(top + 1)));
        }
        found.extend(
            config
                .at_seconds
                .iter()
                .map(|&s| Millis::from(s) * 1000)
                .filter(|&t| t > 0 && low <= t && t < high),
        );
        found.sort_unstable_by(|a, b| b.cmp(a));
        found.dedup();
        let skip = found.len().saturating_sub(MAX_BURST);
        found.split_off(skip)
    }
}

/// Positive multiples of `step` in `[low, high)`, at most [`MAX_BURST`] (the lowest).
fn multiples(step: Millis, low: Millis, high: Millis) -> impl Iterator<Item = Millis> {
    let first = low.div_ceil(step).max(1);
    let last = high.saturating_sub(1) / step;
    let last = last.min(first.saturating_add(MAX_BURST as Millis - 1));
    (first..=last).map(move |k| k * step)
}
