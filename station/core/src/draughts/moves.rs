//! A draughts move and what it does to the holes of a peg board.

use super::board::{Position, Square, Variant, squares};

/// A legal move: a step, a king's slide, or a capture with its path.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the piece starts.
    pub from: Square,
    /// Where it ends (may equal `from` for a king's round capture).
    pub to: Square,
    /// For a capture: the square the piece lands on after each captured piece,
    /// the last being `to` (4.9: the intermediate squares are all but the last).
    pub path: Vec<Square>,
    /// The captured pieces in the order they were jumped.
    pub captured: Vec<Square>,
    /// A man ending on the last row becomes a king (3.7; 4.15: passing it does not count).
    pub promotes: bool,
}

impl Move {
    /// A capture.
    pub fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// The captured pieces as a bitboard.
    pub fn captured_mask(&self) -> u64 {
        self.captured.iter().fold(0, |m, s| m | s.bit())
    }

    /// The holes the move empties: its start and every captured piece (4.11: removed after the move).
    pub fn empties(&self) -> u64 {
        (self.from.bit() | self.captured_mask()) & !self.to.bit()
    }

    /// The holes the move fills: its last square (none for a round trip to the start).
    pub fn fills(&self) -> u64 {
        if self.from == self.to { 0 } else { self.to.bit() }
    }

    /// The squares the capturing piece is set into on the way (4.9), in order.
    pub fn intermediate(&self) -> &[Square] {
        match self.path.split_last() {
            Some((_, rest)) => rest,
            None => &[],
        }
    }

    /// The board's occupancy after the move, from the occupancy before it.
    pub fn occupancy_after(&self, before: u64) -> u64 {
        (before & !self.empties()) | self.fills()
    }

    /// Same move as far as the board is concerned (start, end, captured set);
    /// captures that differ only in their path are one move (as FMJD counts them).
    pub fn same_effect(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captured_mask() == other.captured_mask()
    }

    /// PDN: `32-28`, `28x17`, or with `full_path` the landing squares `28x17x6`.
    pub fn pdn(&self, variant: Variant, full_path: bool) -> String {
        let mut s = variant.name(self.from);
        if self.is_capture() {
            let shown: Vec<Square> = if full_path { self.path.clone() } else { vec![self.to] };
            for sq in shown {
                s.push('x');
                s.push_str(&variant.name(sq));
            }
        } else {
            s.push('-');
            s.push_str(&variant.name(self.to));
        }
        s
    }

    /// The position after the move (pieces removed after the move, 4.11; a new king, 3.7).
    pub fn apply(&self, pos: &Position) -> Position {
        let mut next = *pos;
        let piece = pos.piece_at(self.from);
        next.remove(self.from);
        for sq in squares(self.captured_mask()) {
            next.remove(sq);
        }
        if let Some(mut piece) = piece {
            piece.king |= self.promotes;
            next.put(self.to, piece);
        }
        next.turn = pos.turn.other();
        next
    }
}
