//! Device adapters for the Annex D station.
//!
//! Each device gets a module with a pure protocol part and a driver that owns
//! the real device on a background thread and reports [`crossbeam_channel`]
//! events. Their simulated twins (boards on pseudo-terminals, hands, a BrlAPI
//! server, a gamepad) live in `station-sim`, which depends on this crate.
//!
//! * [`pegboard`] — the tactile peg board (one sensor per hole) on a serial line.
//! * [`dgt`] — DGT piece-sensing boards and their clocks on a serial line.
//! * [`speech`] — offline speech recognition (Vosk models).
//! * [`audio`] — the spoken announcements in each listener's ear.
//! * [`engine`] — a UCI chess engine as the sighted side (practice).
//! * [`braille`] — a Braille display through BrlAPI (brltty).
//! * [`gamepad`] — gamepads and foot switches as clock levers and buttons.

pub mod audio;
#[cfg(unix)]
pub mod braille;
pub mod dgt;
pub mod drop_counters;
#[cfg(unix)]
pub mod engine;
mod flag_thread;
pub mod gamepad;
pub mod pegboard;
#[cfg(unix)]
pub mod port_holder;
pub mod serial_link;
pub mod speech;
pub mod stamp;
#[cfg(test)]
mod test_support;
