//! Legal moves (chapter I, articles 3–4) and the end of the game (7.2.2–7.2.3).
//!
//! Men step forward and capture forward and backward (4.1–4.2); kings fly
//! (3.6, 4.3); capturing is compulsory and the largest number of pieces must be
//! taken, a king counting as one (4.13); captured pieces stay on the board until
//! the move is over, so they block and cannot be jumped twice (4.8, 4.11); a man
//! that only passes the last row during a capture stays a man (4.15).

use super::board::{Color, Dir, Position, Square};
use super::moves::Move;

/// Every maximal capture path, duplicates (same start, end and captured set
/// reached by different paths) included; empty when no capture is possible.
pub fn capture_paths(pos: &Position) -> Vec<Move> {
    walk_captures(pos, false)
}

/// Every capture sequence, maximal or not, stopping after any capture: what a
/// player might have done when he took fewer pieces than the maximum (5.4.8).
pub fn capture_sequences(pos: &Position) -> Vec<Move> {
    walk_captures(pos, true)
}

fn walk_captures(pos: &Position, every: bool) -> Vec<Move> {
    let mut out = Vec::new();
    let mut best = 0usize;
    let me = pos.pieces(pos.turn);
    for from in super::board::squares(me) {
        let king = pos.kings & from.bit() != 0;
        let mut walk = Walk { pos, from, king, every, out: &mut out, best: &mut best };
        // The moving piece's own hole counts as empty while it moves (4.8).
        let empty = !pos.occupied() | from.bit();
        walk.extend(from, 0, empty, &mut Vec::new(), &mut Vec::new());
    }
    out
}

struct Walk<'a> {
    pos: &'a Position,
    from: Square,
    king: bool,
    every: bool,
    out: &'a mut Vec<Move>,
    best: &'a mut usize,
}

impl Walk<'_> {
    fn extend(
        &mut self,
        at: Square,
        taken: u64,
        empty: u64,
        path: &mut Vec<Square>,
        captured: &mut Vec<Square>,
    ) {
        let v = self.pos.variant;
        let enemy = self.pos.pieces(self.pos.turn.other()) & !taken;
        if self.every && !captured.is_empty() {
            self.record(at, path, captured);
        }
        let mut went_on = false;
        for dir in Dir::ALL {
            // Find the first non-empty square along `dir` (only the adjacent one for a man).
            let mut s = v.neighbour(at, dir);
            if self.king {
                while let Some(sq) = s {
                    if empty & sq.bit() == 0 {
                        break;
                    }
                    s = v.neighbour(sq, dir);
                }
            }
            let Some(victim) = s else { continue };
            if enemy & victim.bit() == 0 {
                continue; // own piece, a piece already taken, or an empty square for a man
            }
            let mut land = v.neighbour(victim, dir);
            while let Some(l) = land {
                if empty & l.bit() == 0 {
                    break;
                }
                went_on = true;
                path.push(l);
                captured.push(victim);
                self.extend(l, taken | victim.bit(), empty, path, captured);
                path.pop();
                captured.pop();
                if !self.king {
                    break;
                }
                land = v.neighbour(l, dir);
            }
        }
        if !self.every && !went_on && !captured.is_empty() {
            let n = captured.len();
            if n > *self.best {
                *self.best = n;
                self.out.clear();
            }
            if n == *self.best {
                self.record(at, path, captured);
            }
        }
    }

    fn record(&mut self, at: Square, path: &[Square], captured: &[Square]) {
        let promotes = !self.king && self.pos.promotion_row(self.pos.turn) & at.bit() != 0;
        self.out.push(Move {
            from: self.from,
            to: at,
            path: path.to_vec(),
            captured: captured.to_vec(),
            promotes,
        });
    }
}

/// The non-capturing moves: men one step forward, kings any distance (2.8, 3.6).
pub fn quiet_moves(pos: &Position) -> Vec<Move> {
    let v = pos.variant;
    let empty = !pos.occupied() & v.all();
    let mut out = Vec::new();
    for from in super::board::squares(pos.pieces(pos.turn)) {
        let king = pos.kings & from.bit() != 0;
        let dirs: &[Dir] = if king { &Dir::ALL } else { &Dir::forward(pos.turn) };
        for &dir in dirs {
            let mut s = v.neighbour(from, dir);
            while let Some(to) = s {
                if empty & to.bit() == 0 {
                    break;
                }
                let promotes = !king && pos.promotion_row(pos.turn) & to.bit() != 0;
                out.push(Move { from, to, path: Vec::new(), captured: Vec::new(), promotes });
                if !king {
                    break;
                }
                s = v.neighbour(to, dir);
            }
        }
    }
    out
}

/// The legal moves: the maximal captures when any capture exists (4.13), one
/// per start, end and captured set; otherwise the quiet moves.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let paths = capture_paths(pos);
    if paths.is_empty() {
        return quiet_moves(pos);
    }
    let mut out: Vec<Move> = Vec::with_capacity(paths.len());
    for m in paths {
        if !out.iter().any(|o| o.same_effect(&m)) {
            out.push(m);
        }
    }
    out
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// 7.2.3: the side to move has no pieces left.
    NoPieces {
        /// The winner.
        winner: Color,
    },
    /// 7.2.2: the side to move has pieces but cannot move them.
    Blocked {
        /// The winner.
        winner: Color,
    },
}

/// The end of the game, if the side to move has lost (7.2.2–7.2.3).
pub fn game_end(pos: &Position) -> Option<GameEnd> {
    let winner = pos.turn.other();
    if pos.pieces(pos.turn) == 0 {
        return Some(GameEnd::NoPieces { winner });
    }
    (capture_paths(pos).is_empty() && quiet_moves(pos).is_empty()).then_some(GameEnd::Blocked { winner })
}
