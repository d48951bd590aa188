//! Perft: the number of move sequences of a given length, to check the generator
//! against published figures. Captures that differ only in their path are one
//! move, as the published international draughts figures count them.

use super::board::Position;
use super::movegen::legal_moves;

/// Leaf count at `depth` plies from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| perft(&m.apply(pos), depth - 1)).sum()
}
