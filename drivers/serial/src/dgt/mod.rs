//! DGT electronic boards: piece-sensing boards on a serial line.
//!
//! * [`protocol`] — the DGT binary protocol (`dgtbrd.h`), pure and total.
//! * [`orientation`] — a board turned 180°, detected from a start position.
//! * [`serial`] — [`DgtDriver`], a background thread owning the serial port.
//! * [`clock_link`] — clock commands one at a time, acknowledged, resent, reported.
//!
//! The simulated board (an emulator on a pseudo-terminal) and the hands that
//! play on it are in `station-sim`.
//!
//! The protocol is described for board makers in `docs/dgt-protocol.md`. The driver paces its
//! writes; the emulator (in `station-sim`) keeps the board's rules: bus mode at power-up,
//! a 10-byte input buffer while busy, the clock's rules. The clock's model (DGT 3000 or XL) is
//! read from its version.

pub mod clock_link;
pub mod orientation;
pub mod protocol;
pub mod serial;

pub use clock_link::{ClockFailure, ClockLink, ClockReport};
pub use orientation::{Orientation, detect_orientation, is_start_arrangement};
pub use protocol::{
    BwTime, ClockAck, ClockCommand, ClockModel, ClockRun, DEFAULT_BAUD, DgtError, DgtMessage, DgtReader,
    DropCounters, HostCommand, HostCommandReader, SideTime,
};
pub use serial::{
    DgtCommands, DgtDriver, DgtDriverStopped, DgtEvent, DgtSettings, OrientationSetting, UpdateMode,
};
