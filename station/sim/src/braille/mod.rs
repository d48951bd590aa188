//! Braille displays without hardware.
//!
//! * [`server`] — [`SimBrailleServer`]: the simulated twin, a BrlAPI server on a
//!   Unix socket with a display of N cells (tests, the demo).
//! * [`brltty_vr`] — [`BrlttyVirtual`]: a real brltty with its hardware-free
//!   virtual driver on private sockets, and its virtual display (tests).

pub mod brltty_vr;
pub mod server;

pub use brltty_vr::BrlttyVirtual;
pub use server::SimBrailleServer;
