//! The tactile peg board: a sensor under every hole reports occupancy over a serial line.
//!
//! * [`protocol`] — the line protocol (version 1), pure and total.
//! * [`serial`] — [`PegBoardDriver`], a background thread owning the serial port.
//! * [`hands`] — how human hands turn a chess move into a sequence of scans.
//! * [`sim`] — [`SimPegBoard`], a simulated board on a real pseudo-terminal.

pub mod hands;
pub mod protocol;
pub mod serial;
#[cfg(unix)]
pub mod sim;

pub use hands::{HandTiming, Hands, TimedScan, TimingViolation, check_timing, occupancy_after};
pub use protocol::{
    BoardMessage, DEFAULT_BAUD, DropCounters, LineError, LineReader, MAX_LINE_LEN, StationCommand, parse_line,
};
pub use serial::{DriverEvent, DriverStopped, PegBoardDriver, SerialSettings};
#[cfg(unix)]
pub use sim::{SimOptions, SimPegBoard};
