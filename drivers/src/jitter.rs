//! The deterministic randomness of simulated hands: both boards' hands draw
//! their jitter from the same small generator, so a seed replays a game's
//! hand movements exactly on either board.

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

    #[test]
    fn same_seed_same_sequence() {
        let (mut a, mut b) = (SplitMix64(42), SplitMix64(42));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(SplitMix64(1).next_u64(), SplitMix64(2).next_u64());
    }
}
