//! The peg board's simulated twin and the hands that play on it.
//!
//! * [`hands`] — how human hands turn a chess move into a sequence of scans.
//! * [`board`] — [`SimPegBoard`], a simulated board on a real pseudo-terminal.

#[cfg(unix)]
pub mod board;
pub mod hands;

#[cfg(unix)]
pub use board::{SimOptions, SimPegBoard};
pub use hands::{HandTiming, Hands, TimedScan, TimingViolation, check_timing, occupancy_after};
