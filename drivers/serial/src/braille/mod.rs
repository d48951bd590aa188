//! A refreshable Braille display through BrlAPI (brltty's client protocol):
//! one line of text shown, the display's keys (routing keys by cell, other
//! brltty commands by code) reported as [`Stamped`] events on a bounded queue.
//!
//! * [`protocol`] — the BrlAPI packets, pure.
//! * [`brlapi`] — [`BrlapiDriver`]: the client on brltty's Unix socket, on its
//!   own thread; a missing brltty is reported once and looked for again.
//!
//! The simulated twin (a BrlAPI server) and a real brltty with its virtual
//! driver, for tests, are in `station-sim`.
//!
//! BrlAPI protocol 8 over brltty's Unix socket is spoken by hand: the version, key-file
//! authorization, the display's size, tty mode, text writes, and keys as routing-key cells or
//! brltty commands (the `BrailleDisplay` trait). Garbled packets are dropped and counted; an
//! oversized header is a reconnection.

pub mod brlapi;
pub mod protocol;

pub use brlapi::{BrlapiDriver, BrlapiSettings};
pub use protocol::Key;

use crossbeam_channel::Receiver;
use station_stamp::Stamped;

/// What a Braille display's driver reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrailleEvent {
    /// The display is ours (after a start or a reconnection).
    Connected {
        /// Its cells per line.
        columns: u32,
    },
    /// A key of the display was pressed.
    Key(Key),
    /// brltty cannot be reached or refused us (told once per outage; retried).
    Unavailable {
        /// Why.
        reason: String,
    },
    /// A connection that worked was lost (retried).
    Lost {
        /// Why.
        reason: String,
    },
    /// A packet from the socket was garbled or unexpected: dropped, counted.
    Dropped {
        /// Packets dropped since the driver started.
        total: u64,
        /// What was wrong with this one.
        reason: String,
    },
}

/// A Braille display as the station uses it: one line shown, keys reported.
pub trait BrailleDisplay {
    /// Shows `text` (cut or padded to the display's width); the newest line
    /// wins, and it is shown again after a reconnection.
    fn show(&self, text: &str);
    /// The display's events.
    fn events(&self) -> Receiver<Stamped<BrailleEvent>>;
}
