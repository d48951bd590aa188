//! DGT electronic boards: piece-sensing boards on a serial line.
//!
//! * [`protocol`] — the DGT binary protocol (`dgtbrd.h`), pure and total.
//! * [`orientation`] — a board turned 180°, detected from a start position.
//! * [`serial`] — [`DgtDriver`], a background thread owning the serial port.
//! * [`clock_link`] — clock commands one at a time, acknowledged, resent, reported.
//! * [`hands`] — how hands moving pieces turn a chess move into field updates.
//! * [`emulator`] — [`DgtEmulator`], a simulated board on a real pseudo-terminal.
//!
//! `hands` and `orientation` depend only on `shakmaty`: station-core's tests
//! include them by path to drive its piece tracker without a crate dependency.

pub mod clock_link;
#[cfg(unix)]
pub mod emulator;
pub mod hands;
pub mod orientation;
pub mod protocol;
pub mod serial;

pub use clock_link::{ClockFailure, ClockLink, ClockReport};
#[cfg(unix)]
pub use emulator::{BoardMode, DgtEmulator, EmulatorOptions, SimClock};
pub use hands::{DgtHandTiming, DgtHands, TimedUpdate, apply_updates, board_after};
pub use orientation::{Orientation, detect_orientation, is_start_arrangement};
pub use protocol::{
    BwTime, ClockAck, ClockCommand, ClockModel, ClockRun, DEFAULT_BAUD, DgtError, DgtMessage, DgtReader,
    DropCounters, HostCommand, HostCommandReader, SideTime,
};
pub use serial::{
    DgtCommands, DgtDriver, DgtDriverStopped, DgtEvent, DgtSettings, OrientationSetting, UpdateMode,
};
