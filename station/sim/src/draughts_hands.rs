//! How a hand makes a draughts move on a peg board: the occupancy scans it
//! produces, with timing jitter and, with noise, sensor bounce.
//!
//! The hand knows holes, not rules: it is told the start, the landing squares
//! and the captured pieces (bit n−1 = square n). It lifts the piece, sets it
//! briefly into each landing square (4.9), puts it on its last square and
//! removes the captured pieces in the order of capture or the reverse (4.11);
//! a man taking one man sometimes removes it first (4.16).
//!
//! With noise: bounces, long rests, and a piece touched and put back.

use crate::jitter::SplitMix64;

/// A move as the hand sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandMove {
    /// Start square index (square number − 1).
    pub from: u8,
    /// The squares the piece is set into after each capture, the last being its
    /// last square; for a quiet move just the last square.
    pub path: Vec<u8>,
    /// The captured pieces' squares in capture order.
    pub captured: Vec<u8>,
    /// One man taking one man (4.16 allows removing the captured man first).
    pub man_takes_man: bool,
}

/// One scan: when, and the holes holding a peg.
pub type Scan = (u64, u64);

/// A simulated hand.
#[derive(Debug, Clone)]
pub struct DraughtsHands {
    rng: SplitMix64,
    noise: bool,
    squares: u8,
}

impl DraughtsHands {
    /// A hand on a board of `squares` dark squares (50 or 32); with `noise` its
    /// scans carry bounce (pegs out or in for a few ms) drawn from `seed`.
    pub fn new(squares: u8, seed: u64, noise: bool) -> DraughtsHands {
        DraughtsHands { rng: SplitMix64(seed), noise, squares }
    }

    /// The scans of `mv` made on a board showing `occupancy`, starting after `t0`
    /// (ms). Returns the scans and the time the hand is done.
    pub fn play(&mut self, occupancy: u64, mv: &HandMove, t0: u64) -> (Vec<Scan>, u64) {
        let mut scans = Vec::with_capacity(8 + 2 * mv.path.len() + mv.captured.len());
        let mut occ = occupancy;
        let mut t = t0 + self.rng.between(50, 200);
        if self.noise && self.rng.percent(5) {
            // A piece of its own touched and put back first (touch, not move).
            self.touch_and_return(&mut scans, occ, &mut t, mv.from);
        }
        let mut step = |this: &mut Self, occ: &mut u64, t: &mut u64, toggle: u64| {
            if this.noise && this.rng.percent(15) {
                this.bounce(&mut scans, *occ, t);
            }
            // With noise, now and then a hand that rests longer than the settle time
            // (on a landing square, between removals): the board must wait, not judge.
            *t += if this.noise && this.rng.percent(8) {
                this.rng.between(350, 900)
            } else {
                this.rng.between(60, 250)
            };
            *occ ^= toggle;
            scans.push((*t, *occ));
        };
        let Some((&last, landings)) = mv.path.split_last() else { return (scans, t) };
        let captured_first = mv.man_takes_man && self.rng.percent(30);
        if captured_first {
            for &c in &mv.captured {
                step(self, &mut occ, &mut t, 1 << c);
            }
        }
        step(self, &mut occ, &mut t, 1 << mv.from);
        for &l in landings {
            // 4.9: the piece touches each landing square (unless a peg is in it: its own start).
            if occ & (1 << l) == 0 {
                step(self, &mut occ, &mut t, 1 << l);
                step(self, &mut occ, &mut t, 1 << l);
            }
        }
        step(self, &mut occ, &mut t, 1 << last);
        if !captured_first {
            let reverse = self.rng.percent(50);
            let order: Vec<u8> =
                if reverse { mv.captured.iter().rev().copied().collect() } else { mv.captured.clone() };
            for c in order {
                step(self, &mut occ, &mut t, 1 << c);
            }
        }
        if self.noise && self.rng.percent(10) {
            self.bounce(&mut scans, occ, &mut t);
        }
        (scans, t)
    }

    /// The piece on `sq` lifted for 100–250 ms and put back.
    fn touch_and_return(&mut self, scans: &mut Vec<Scan>, occ: u64, t: &mut u64, sq: u8) {
        *t += self.rng.between(60, 200);
        scans.push((*t, occ & !(1 << sq)));
        *t += self.rng.between(100, 250);
        scans.push((*t, occ));
    }

    /// A peg out of (or into) a hole for a few ms, then back: shorter than any debounce.
    fn bounce(&mut self, scans: &mut Vec<Scan>, occ: u64, t: &mut u64) {
        let sq = self.rng.below(u64::from(self.squares));
        *t += self.rng.between(5, 40);
        scans.push((*t, occ ^ (1 << sq)));
        *t += self.rng.between(3, 25);
        scans.push((*t, occ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_multiple_capture_touches_landings_and_removes_every_captured_piece() {
        // 14x3x12 on a 50-square board: from 14 over 9 to 3, over 8 to 12.
        let occ = (1 << 13) | (1 << 8) | (1 << 7);
        let mv = HandMove { from: 13, path: vec![2, 11], captured: vec![8, 7], man_takes_man: false };
        let mut hands = DraughtsHands::new(50, 1, false);
        let (scans, end) = hands.play(occ, &mv, 0);
        assert_eq!(scans.last().unwrap().1, 1 << 11);
        assert!(scans.iter().any(|&(_, o)| o & (1 << 2) != 0), "3 touched (4.9)");
        assert!(scans.windows(2).all(|w| w[0].0 < w[1].0 && (w[0].1 ^ w[1].1).count_ones() == 1));
        assert!(end >= scans.last().unwrap().0);
    }

    #[test]
    fn noise_bounces_come_back_within_the_debounce_time() {
        let occ = 0xF_FFFF;
        let mv = HandMove { from: 16, path: vec![21], captured: vec![], man_takes_man: false };
        let mut hands = DraughtsHands::new(50, 9, true);
        for _ in 0..50 {
            let (scans, _) = hands.play(occ, &mv, 0);
            assert_eq!(scans.last().unwrap().1, (occ & !(1 << 16)) | (1 << 21));
        }
    }
}
