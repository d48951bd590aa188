//! The DGT board's simulated twin and the hands that play on it.
//!
//! * [`hands`] — how hands moving pieces turn a chess move into field updates.
//! * [`emulator`] — [`DgtEmulator`], a simulated board on a real pseudo-terminal.

#[cfg(unix)]
pub mod emulator;
pub mod hands;

#[cfg(unix)]
pub use emulator::{BoardMode, DgtEmulator, EmulatorOptions, SimClock};
pub use hands::{DgtHandTiming, DgtHands, TimedUpdate, apply_updates, board_after};
