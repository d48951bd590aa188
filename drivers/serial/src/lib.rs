//! The station's serial devices: the boards and the Braille display.
//!
//! Each device gets a module with a pure protocol part and a driver that owns
//! the real device on a background thread and reports [`crossbeam_channel`]
//! events, stamped on arrival (`station-stamp`). Their simulated twins (boards
//! on pseudo-terminals, hands, a BrlAPI server) live in `station-sim`, which
//! depends on this crate.
//!
//! * [`pegboard`] — the tactile peg board (one sensor per hole) on a serial line.
//! * [`dgt`] — DGT piece-sensing boards and their clocks on a serial line.
//! * [`braille`] — a Braille display through BrlAPI (brltty).
//! * [`serial_link`], [`port_holder`] — opening, holding and reopening a serial line.
//! * [`drop_counters`] — the boards' dropped input, counted by reason.

#[cfg(unix)]
pub mod braille;
pub mod dgt;
pub mod drop_counters;
pub mod pegboard;
#[cfg(unix)]
pub mod port_holder;
pub mod serial_link;
#[cfg(test)]
mod test_support;
