//! The draughts peg-board sensor: occupancy scans in, moves out.
//!
//! Like the chess [`crate::inference`] tracker it decides only once the board
//! has been still for the settle time and exactly one legal move explains the
//! settled holes; everything else is reported, never guessed. What the code
//! says about making a move on the board:
//! - 4.9: during a multiple capture the piece is set briefly into the squares
//!   it lands on; those fills come and go and decide nothing.
//! - 4.11: a capture is made when the capturing piece stands on its last square
//!   and every captured piece is removed, in the order of capture or the reverse.
//!   Another order is still the move (the board shows it) but is named as an
//!   irregularity (5.4.10) for the opponent to decide on.
//! - 4.16: a man taking one man may remove the captured man first.
//! - Two maximal captures with the same start and end but different captured
//!   pieces leave different holes: the removals decide, never a guess.
//! - 3.7: a man reaching the last row is a king even though no sensor sees the crown.

use super::board::{Position, squares};
use super::irregular::{Irregular, classify};
use super::movegen::{capture_paths, legal_moves};
use super::moves::Move;
use crate::Millis;

/// Timing of the sensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SensorConfig {
    /// How long the board must stay unchanged before it is judged (ms).
    pub settle_ms: Millis,
    /// A peg out of (or into) its hole for less than this is bounce (ms).
    pub debounce_ms: Millis,
}

impl Default for SensorConfig {
    fn default() -> Self {
        SensorConfig { settle_ms: 300, debounce_ms: 40 }
    }
}

/// A way a move was made that the code calls irregular, though the board shows a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Irregularity {
    /// 4.11 / 5.4.10: captured pieces removed before the capturing piece reached
    /// its last square, or not in the order of capture nor its reverse.
    RemovalOrder,
}

/// What the sensor concluded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sensed {
    /// A move is complete on the board.
    Moved {
        /// Half-move number (1 = White's first move).
        ply: usize,
        /// The move.
        mv: Move,
        /// How it was made, if irregularly.
        irregularity: Option<Irregularity>,
        /// When the board had settled.
        t: Millis,
    },
    /// A settled board no legal move (or more than one) explains.
    Mismatch {
        /// The settled occupancy.
        sensed: u64,
        /// The moves that explain it when more than one does.
        candidates: Vec<Move>,
        /// The irregularity of 5.4 it shows, when one explains it (named for the
        /// opponent to decide on, 5.4 and 5.9).
        irregular: Option<Irregular>,
        /// When the board had settled on what no move explains.
        t: Millis,
    },
    /// The board shows the game position again after a mismatch.
    Restored {
        /// When the board showed the game position again.
        t: Millis,
    },
}

/// Follows one draughts peg board against the game played on it.
#[derive(Clone, Debug)]
pub struct DraughtsTracker {
    cfg: SensorConfig,
    pos: Position,
    ply: usize,
    sensed: u64,
    last_change: Millis,
    settled: bool,
    /// When each hole last went empty.
    emptied_at: [Millis; 64],
    /// When each hole was last filled (not counting bounce) in this move sequence.
    filled_at: [Option<Millis>; 64],
    reported: Option<u64>,
}

impl DraughtsTracker {
    /// A tracker for a board that shows `pos` (its holes are assumed to match).
    pub fn new(cfg: SensorConfig, pos: Position) -> DraughtsTracker {
        DraughtsTracker {
            cfg,
            pos,
            ply: 0,
            sensed: pos.occupied(),
            last_change: 0,
            settled: true,
            emptied_at: [0; 64],
            filled_at: [None; 64],
            reported: None,
        }
    }

    /// The game position as the tracker knows it.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The last occupancy seen.
    pub fn sensed(&self) -> u64 {
        self.sensed
    }

    /// Plies decided so far.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// When the board will be judged if nothing changes (for the table's timer).
    pub fn deadline(&self) -> Option<Millis> {
        (!self.settled).then(|| self.last_change + self.cfg.settle_ms)
    }

    /// Puts the tracker on `pos` at ply `ply` with the board showing `sensed`
    /// (after a correction procedure decided elsewhere).
    pub fn resync(&mut self, pos: Position, ply: usize, sensed: u64, t: Millis) {
        self.pos = pos;
        self.ply = ply;
        self.sensed = sensed & pos.variant.all();
        self.last_change = t;
        self.settled = true;
        self.filled_at = [None; 64];
        self.reported = None;
    }

    /// A scan arrived at `t`: the holes holding a peg (bit n−1 = square n).
    /// Bits beyond the board are ignored (the protocol refuses them earlier).
    pub fn scan(&mut self, t: Millis, occupancy: u64) -> Vec<Sensed> {
        let mut out = self.tick(t);
        let occupancy = occupancy & self.pos.variant.all();
        let changed = occupancy ^ self.sensed;
        if changed == 0 {
            return out;
        }
        for sq in squares(changed) {
            let i = sq.0 as usize;
            if occupancy & sq.bit() == 0 {
                self.emptied_at[i] = t;
            } else {
                // A peg back after a short lift is bounce: keep the earlier fill time.
                let bounce = self.filled_at[i].is_some()
                    && t.saturating_sub(self.emptied_at[i]) < self.cfg.debounce_ms;
                if !bounce {
                    self.filled_at[i] = Some(t);
                }
            }
        }
        self.sensed = occupancy;
        self.last_change = t;
        self.settled = false;
        out.append(&mut self.tick(t));
        out
    }

    /// Time passes up to `t`: a board still for the settle time is judged.
    pub fn tick(&mut self, t: Millis) -> Vec<Sensed> {
        if self.settled || t < self.last_change + self.cfg.settle_ms {
            return Vec::new();
        }
        self.settled = true;
        self.judge(self.last_change + self.cfg.settle_ms)
    }

    fn judge(&mut self, t: Millis) -> Vec<Sensed> {
        let before = self.pos.occupied();
        if self.sensed == before {
            self.filled_at = [None; 64];
            return match self.reported.take() {
                Some(_) => vec![Sensed::Restored { t }],
                None => Vec::new(),
            };
        }
        let moves = legal_moves(&self.pos);
        let fits: Vec<&Move> = moves.iter().filter(|m| m.occupancy_after(before) == self.sensed).collect();
        if let [mv] = fits.as_slice() {
            let mv = self.touched_path(mv);
            let irregularity = self.removal_irregularity(&mv);
            self.pos = mv.apply(&self.pos);
            self.ply += 1;
            self.filled_at = [None; 64];
            self.reported = None;
            return vec![Sensed::Moved { ply: self.ply, mv, irregularity, t }];
        }
        if fits.is_empty() && self.in_progress(&moves, before) {
            return Vec::new();
        }
        if self.reported == Some(self.sensed) {
            return Vec::new();
        }
        self.reported = Some(self.sensed);
        let candidates: Vec<Move> = fits.into_iter().cloned().collect();
        let irregular = if candidates.is_empty() { classify(&self.pos, self.sensed) } else { None };
        vec![Sensed::Mismatch { sensed: self.sensed, candidates, irregular, t }]
    }

    /// The board is on its way to a legal move: pieces lifted (the mover, captured
    /// pieces) and at most one landing square (4.9) or the last square filled.
    fn in_progress(&self, moves: &[Move], before: u64) -> bool {
        let removed = before & !self.sensed;
        let added = self.sensed & !before;
        if added == 0 && removed & !self.pos.pieces(self.pos.turn) == 0 && removed.count_ones() == 1 {
            return true; // a piece in the hand
        }
        added.count_ones() <= 1
            && moves.iter().any(|m| {
                let landings = m.path.iter().fold(m.to.bit(), |b, s| b | s.bit());
                removed & !(m.from.bit() | m.captured_mask()) == 0 && added & !landings == 0
            })
    }

    /// Of the paths with the same start, end and captured pieces (one move for
    /// the board), the one whose landing squares the hand touched (4.9), so the
    /// record shows the path as it was made; the first one when none fits.
    fn touched_path(&self, mv: &Move) -> Move {
        if mv.captured.len() < 2 {
            return mv.clone();
        }
        let touched = |m: &Move| m.intermediate().iter().all(|s| self.filled_at[s.0 as usize].is_some());
        if touched(mv) {
            return mv.clone();
        }
        capture_paths(&self.pos)
            .into_iter()
            .find(|m| m.same_effect(mv) && touched(m))
            .unwrap_or_else(|| mv.clone())
    }

    fn removal_irregularity(&self, mv: &Move) -> Option<Irregularity> {
        if !mv.is_capture() {
            return None;
        }
        let placed = self.filled_at[mv.to.0 as usize].unwrap_or(self.emptied_at[mv.from.0 as usize]);
        let removals: Vec<Millis> = mv.captured.iter().map(|s| self.emptied_at[s.0 as usize]).collect();
        let man_takes_man = self.pos.kings & (mv.from.bit() | mv.captured_mask()) == 0;
        if mv.captured.len() == 1 && man_takes_man {
            return None; // 4.16: before or after the move, both regular
        }
        let after = removals.iter().all(|&r| r >= placed);
        let ascending = removals.windows(2).all(|w| w[0] <= w[1]);
        let descending = removals.windows(2).all(|w| w[0] >= w[1]);
        (!(after && (ascending || descending))).then_some(Irregularity::RemovalOrder)
    }
}
