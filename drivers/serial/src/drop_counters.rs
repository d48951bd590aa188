//! Per-reason counts of the input a board driver dropped: one counter type
//! for the peg board's lines and the DGT board's messages alike.

use std::marker::PhantomData;

/// The most counters an error type may use.
const COUNTERS: usize = 8;

/// An error that makes a driver drop input, counted by reason.
pub trait DropReason: Copy {
    /// The counter this error is counted on, below 8; errors that are the
    /// same reason to the reader of the counts share one.
    fn counter(self) -> usize;
}

/// How much input was dropped for each reason `E` knows, since the driver started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DropCounters<E> {
    counts: [u64; COUNTERS],
    reasons: PhantomData<E>,
}

impl<E> Default for DropCounters<E> {
    fn default() -> Self {
        DropCounters { counts: [0; COUNTERS], reasons: PhantomData }
    }
}

impl<E: DropReason> DropCounters<E> {
    /// Counts one drop.
    pub fn record(&mut self, error: &E) {
        let count = &mut self.counts[error.counter()];
        *count = count.saturating_add(1);
    }

    /// The drops counted on `error`'s counter.
    pub fn count(&self, error: E) -> u64 {
        self.counts[error.counter()]
    }

    /// All drops, whatever the reason.
    pub fn total(&self) -> u64 {
        self.counts.iter().fold(0, |total, &count| total.saturating_add(count))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dgt::DgtError;
    use crate::pegboard::LineError;

    /// Records `errors`, then checks `twice` (recorded twice) and the total;
    /// every reason in `errors` has a counter of its own.
    fn counts_by_reason<E: DropReason + std::fmt::Debug>(errors: &[E], twice: E) {
        let mut counters = DropCounters::default();
        for e in errors {
            counters.record(e);
        }
        assert_eq!(counters.count(twice), 2, "{twice:?}");
        assert_eq!(counters.total(), errors.len() as u64);
        let mut used: Vec<usize> = errors.iter().map(|e| e.counter()).collect();
        used.sort_unstable();
        used.dedup();
        assert_eq!(used.len(), errors.len() - 1, "one counter a reason: {errors:?}");
    }

    #[test]
    fn counters_count_by_reason() {
        {
            use DgtError::*;
            counts_by_reason(&[Garbage, BadLength, Truncated, UnknownId, Malformed, Truncated], Truncated);
        }
        use LineError::*;
        counts_by_reason(&[TooLong, BadChecksum, BadChecksum, UnknownType, Malformed, NotAscii], BadChecksum);
        // A draughts scan naming a square beyond 50 is a malformed scan.
        assert_eq!(BeyondSquare50.counter(), Malformed.counter());
    }
}
