//! Arrival stamps: every driver stamps what it reads with a monotonic time the
//! moment the read returns, before any queue. The station decides by these
//! stamps only, so a stalled loop (a slow disk, a busy CPU) may delay a
//! decision but never change it.
//!
//! A read not yet handed over holds the loop's time horizon (`ReadMark`): no tick passes an
//! input still in a driver's hands. The queues are bounded (`QUEUE_CAPACITY`): a stalled loop
//! holds the driver back, the kernel buffers the line, and the stamps are already taken.
//!
//! [`FlagThread`]: the background thread a driver polls its device on, stopped and joined
//! when its handle goes (the Braille display's and the gamepads').

mod flag_thread;

pub use flag_thread::FlagThread;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
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

/// How far a driver has handed over what it read: set the moment a read
/// returns (before its stamp is taken), cleared once every event of that read
/// is in the queue. The loop lets time pass only up to the earliest read still
/// in a driver's hands, so an input stamped before a decision can never reach
/// the loop after that decision was taken without it.
#[derive(Clone, Debug, Default)]
pub struct ReadMark(Arc<AtomicU64>);

/// The process-wide origin of [`ReadMark`]'s nanoseconds.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

impl ReadMark {
    /// A read returned now: what it brings is on its way. Returns the
    /// instant to stamp it with (never before the mark).
    pub fn reading(&self) -> Instant {
        let origin = epoch();
        let mark = Instant::now();
        // 0 means idle: a read at the origin itself is stored as 1 ns.
        let nanos = mark.saturating_duration_since(origin).as_nanos().max(1);
        self.0.store(u64::try_from(nanos).unwrap_or(u64::MAX), Ordering::SeqCst);
        Instant::now()
    }

    /// Everything that read brought is in the queue.
    pub fn delivered(&self) {
        self.0.store(0, Ordering::SeqCst);
    }

    /// The earliest moment of a read not yet handed over, if any.
    pub fn in_flight(&self) -> Option<Instant> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            nanos => Some(epoch() + std::time::Duration::from_nanos(nanos)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_in_flight_holds_the_horizon_at_or_before_its_stamp_until_delivered() {
        let mark = ReadMark::default();
        assert_eq!(mark.in_flight(), None);
        let before = Instant::now();
        let stamp = mark.reading();
        let held = mark.in_flight().expect("in flight");
        assert!(before <= held && held <= stamp, "the horizon never passes the stamp");
        mark.clone().delivered();
        assert_eq!(mark.in_flight(), None, "clones share the mark");
    }
}
