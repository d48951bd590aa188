//! Arrival stamps: every driver stamps what it reads with a monotonic time the
//! moment the read returns, before any queue. The station decides by these
//! stamps only, so a stalled loop (a slow disk, a busy CPU) may delay a
//! decision but never change it.

use std::time::Instant;

/// A driver event and the moment its bytes were read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stamped<T> {
    /// When the driver read it (monotonic).
    pub at: Instant,
    /// What it read.
    pub event: T,
}

impl<T> Stamped<T> {
    /// `event`, read at `at`.
    pub fn new(at: Instant, event: T) -> Self {
        Stamped { at, event }
    }

    /// `event`, read now (for events a driver makes itself: connected, lost).
    pub fn now(event: T) -> Self {
        Stamped { at: Instant::now(), event }
    }

    /// The event without its stamp.
    pub fn into_event(self) -> T {
        self.event
    }
}

/// How many events a driver may queue for the station before it waits: a
/// stalled loop holds the driver back (the kernel buffers the serial line)
/// instead of growing memory without bound. Stamps are taken before the
/// queue, so waiting changes no decision.
pub const QUEUE_CAPACITY: usize = 4096;
