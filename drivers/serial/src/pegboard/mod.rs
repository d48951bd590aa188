//! The tactile peg board: a sensor under every hole reports occupancy over a serial line.
//!
//! * [`protocol`] — the line protocol (version 1), pure and total.
//! * [`serial`] — [`PegBoardDriver`], a background thread owning the serial port.
//!
//! Its simulated twin and the hands that play on it are in `station-sim`.
//!
//! The protocol is version 1 of `docs/pegboard-protocol.md`; an `S` line of exactly 13 hex
//! digits is a 10×10 draughts board (`Scan50`).

pub mod protocol;
pub mod serial;

pub use protocol::{
    BoardMessage, DEFAULT_BAUD, DropCounters, LineError, LineReader, MAX_LINE_LEN, StationCommand, parse_line,
};
pub use serial::{DriverEvent, DriverStopped, PegBoardDriver, SerialSettings};
