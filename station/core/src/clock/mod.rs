//! The talking chess clock (Annex D.2.6.1): the clock engine and the pure parts
//! of voicing it.
//!
//! - [`time_control`]: the PGN `TimeControl` tag and the station's delay notation.
//! - [`engine`]: [`ChessClock`] — dials, move counters, periods, bonuses, flags,
//!   pauses and arbiter corrections, with time as an input.
//! - [`gate`]: whether a press may start the opponent's clock (D.2.3–D.2.4).
//! - [`schedule`]: which spoken time warnings are due for a listener.
//! - [`correction`]: the arbiter corrections the clock logs.
//! - [`reading`]: an external master clock (DGT 3000): its readings and its liveness.
//!
//! [`crate::clock_replay`] checks the engine against the `[%clk]` comments of real
//! games (it reads PGN, which reads time controls from here: so it lives outside).
//!
//! Like the rest of the core, nothing here reads a clock: every time is a
//! [`Millis`] the caller passes in.
//!
//! A press for a move made before it was decided ([`ChessClock::press_made`]) switches the clock at
//! the moment the move was made, so the late decision costs the mover nothing. A silent external
//! clock is reported once, and its return once ([`ClockWatch`]).

pub mod correction;
pub mod engine;
pub mod gate;
mod move_time;
pub mod reading;
pub mod schedule;
mod side;
pub mod time_control;

pub use correction::{Correction, CorrectionChange};
pub use engine::{ChessClock, ClockError, ClockEvent, FlagFall, Pressed};
pub use gate::{ClockGate, GateDecision, Missing, MoveProgress};
pub use reading::{ClockReading, ClockWatch, WatchChange};
pub use schedule::{Warning, WarningConfig, WarningSchedule};
pub use side::Side;
pub use time_control::{Bonus, Period, PeriodPosition, TimeControl, TimeControlError, TimeControlTag};

use crate::Millis;

/// A time as a clock shows it in PGN `[%clk]` comments: `h:mm:ss`, whole
/// seconds rounded down (a clock showing 0:00:00 has run out, or nearly).
pub fn format_clock(ms: Millis) -> String {
    let seconds = ms / 1000;
    format!("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60)
}
