//! Device adapters for the Annex D station.
//!
//! Each device gets a module with a pure protocol part, a driver that owns the
//! real device on a background thread and reports [`crossbeam_channel`] events,
//! and a simulated twin so everything can be tested without hardware.
//!
//! * [`pegboard`] — the tactile peg board (one sensor per hole) on a serial line.
//! * [`speech`] — offline speech recognition (Vosk models).
//! * [`engine`] — a UCI chess engine as the sighted side (practice), with a simulated twin.
//! * [`braille`] — a Braille display through BrlAPI (brltty), with a simulated brltty.
//!
//! Later modules (DGT boards, audio, speech, gamepad) will follow the same shape.

pub mod audio;
#[cfg(unix)]
pub mod braille;
pub mod dgt;
pub mod draughts_hands;
pub mod drop_counters;
#[cfg(unix)]
pub mod engine;
mod flag_thread;
pub mod gamepad;
pub mod jitter;
pub mod pegboard;
#[cfg(unix)]
pub mod port_holder;
pub mod serial_link;
pub mod sim_game;
#[cfg(unix)]
mod sim_pty;
pub mod speech;
pub mod stamp;
#[cfg(test)]
mod test_support;
