//! The deterministic randomness of simulated hands: both boards' hands draw
//! their jitter from the same small generator, so a seed replays a game's
//! hand movements exactly on either board; and the line's jitter
//! ([`LineJitter`]): a hand never exactly on time, a loaded line delivering a
//! few readings together late (`station replay --jitter`).

use shakmaty::{Bitboard, Square};

/// SplitMix64: small, fast and good enough for hand jitter; no dependency.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`; 0 when `n == 0`.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi` (`lo` when the range is empty).
    pub(crate) fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi.saturating_sub(lo).saturating_add(1))
    }

    /// True with probability `p` percent.
    pub(crate) fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }

    /// One of `squares`, or none when it is empty.
    pub(crate) fn pick(&mut self, squares: Bitboard) -> Option<Square> {
        let n = squares.count() as u64;
        if n == 0 {
            return None;
        }
        squares.into_iter().nth(self.below(n) as usize)
    }
}

/// What a serial line delivers: a reading with the time it arrived.
pub trait OnTheLine {
    /// When it arrives (ms).
    fn at(&self) -> u64;
    /// Moves its arrival.
    fn set_at(&mut self, at: u64);
    /// The reading itself (a flicker returns to the reading before it).
    fn reading(&self) -> u64;
}

/// A sensor flicker lasts less than this (the hands' bounce limit); it moves
/// with the hand step it is in, never stretched into a hand of its own.
const FLICKER_MS: u64 = 30;

/// In a hundred readings, how many begin a burst: a loaded serial line (or a
/// loaded station) that holds a few readings back and delivers them together.
const BURST_PERCENT: u64 = 3;

/// A hand never exactly on time and a line that is sometimes late: every hand
/// step moved by a seeded amount within ±`ms`, now and then two to four
/// readings delivered together up to `ms` late; the order of the readings is
/// kept (a line delivers in order), a sensor flicker keeps its length. A
/// burst holds no reading back longer than `ms`: the readings it delivers
/// together are those the hands made while the line held the first.
#[derive(Debug, Clone)]
pub struct LineJitter {
    rng: SplitMix64,
    ms: u64,
    /// The reading delivered last (a flicker may begin in one delivery's
    /// first reading and return to the reading before it).
    last_reading: Option<u64>,
}

impl LineJitter {
    /// Jitter of at most ±`ms`, deterministic from `seed`.
    pub fn new(seed: u64, ms: u64) -> LineJitter {
        LineJitter { rng: SplitMix64(seed ^ 0xD1B5_4A32_D192_ED03), ms, last_reading: None }
    }

    /// The most a step moves.
    pub fn ms(&self) -> u64 {
        self.ms
    }

    /// Moves the arrivals of `items` (in order, each after the one before),
    /// none before `floor` (the arrival of what the line delivered last);
    /// returns the arrival of the last one (or `floor`).
    pub fn deliver<T: OnTheLine>(&mut self, items: &mut [T], floor: u64) -> u64 {
        let original: Vec<u64> = items.iter().map(OnTheLine::at).collect();
        // A reading that returns to the one two back within a flicker's time ends a flicker.
        let two_back = |i: usize| match i {
            0 => None,
            1 => self.last_reading,
            _ => Some(items[i - 2].reading()),
        };
        let ends_flicker = |i: usize| {
            i >= 1 && two_back(i) == Some(items[i].reading()) && original[i] - original[i - 1] < FLICKER_MS
        };
        let flicker_ends: Vec<bool> = (0..items.len()).map(ends_flicker).collect();
        let mut last = floor;
        let mut i = 0;
        while i < items.len() {
            if i >= 1 && flicker_ends[i] {
                last = last.max(items[i - 1].at() + (original[i] - original[i - 1]));
                items[i].set_at(last);
                i += 1;
                continue;
            }
            if self.ms > 0 && self.rng.percent(BURST_PERCENT) {
                // The line holds the reading back at most `ms`, and with it the
                // next few the hands made meanwhile.
                let held = original[i] + self.rng.between(0, self.ms);
                let most = (i + self.rng.between(1, 3) as usize).min(items.len() - 1);
                let mut end = (i..=most).take_while(|&j| original[j] <= held).last().unwrap_or(i);
                // A burst that holds a flicker's start holds its end too.
                while end + 1 < items.len() && flicker_ends[end + 1] {
                    end += 1;
                }
                last = last.max(held.max(original[end]));
                for item in &mut items[i..=end] {
                    item.set_at(last);
                }
                i = end + 1;
                continue;
            }
            let moved = (original[i] + self.rng.between(0, 2 * self.ms)).saturating_sub(self.ms);
            last = last.max(moved);
            items[i].set_at(last);
            i += 1;
        }
        if let Some(item) = items.last() {
            self.last_reading = Some(item.reading());
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn below_stays_in_range_and_between_is_inclusive() {
        let mut rng = SplitMix64(7);
        for n in [1u64, 2, 3, 10, 1000] {
            assert!((0..1000).all(|_| rng.below(n) < n));
        }
        assert_eq!(rng.below(0), 0);
        let seen: std::collections::BTreeSet<u64> = (0..1000).map(|_| rng.between(3, 5)).collect();
        assert_eq!(seen.into_iter().collect::<Vec<_>>(), vec![3, 4, 5]);
        assert_eq!(rng.between(9, 2), 9);
    }

    /// A reading and its arrival, for the line's tests.
    #[derive(Clone, Copy)]
    struct Reading(u64, u64);

    impl super::OnTheLine for Reading {
        fn at(&self) -> u64 {
            self.0
        }
        fn set_at(&mut self, at: u64) {
            self.0 = at;
        }
        fn reading(&self) -> u64 {
            self.1
        }
    }

    #[test]
    fn the_line_holds_no_reading_back_longer_than_its_jitter_and_keeps_the_order() {
        let mut step = SplitMix64(5);
        let mut line = super::LineJitter::new(9, 40);
        let mut bursts = 0;
        for round in 0..2_000u64 {
            let mut t = round * 10_000;
            let readings: Vec<Reading> = (0..8)
                .map(|i| {
                    t += step.between(40, 220);
                    Reading(t, i)
                })
                .collect();
            let mut delivered = readings.clone();
            line.deliver(&mut delivered, round * 10_000);
            for (i, (sent, got)) in readings.iter().zip(&delivered).enumerate() {
                assert!(got.0 <= sent.0 + 40, "reading {i} held back {} ms", got.0 - sent.0);
                assert!(got.0 + 40 >= sent.0, "reading {i} early by {} ms", sent.0 - got.0);
            }
            assert!(delivered.windows(2).all(|w| w[0].0 <= w[1].0), "out of order");
            bursts += delivered.windows(2).filter(|w| w[0].0 == w[1].0).count();
        }
        assert!(bursts > 0, "a loaded line delivers some readings together");
    }

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (SplitMix64(42), SplitMix64(42));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(SplitMix64(1).next_u64(), SplitMix64(2).next_u64());
    }
}
