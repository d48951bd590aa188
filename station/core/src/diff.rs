//! Square-level differences between what a board senses and what it should show.
//!
//! The station never guesses: when a settled board cannot be explained, it says
//! square by square what is wrong ("g1: white knight expected, empty").

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, Board, Color, Piece, Role, Square};
use std::fmt;

/// One square where the sensed board and the expected position disagree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquareDiff {
    /// The square, e.g. `g1`.
    pub square: String,
    /// The piece that should stand there (FEN letter, `N` = white knight), if any.
    pub expected: Option<char>,
    /// Whether a peg is sensed in the hole.
    pub peg: bool,
    /// Human-readable form, e.g. `g1: white knight expected, empty`.
    pub text: String,
}

/// Lists, in square order a1..h8, every square where `sensed` and the pieces on `expected` disagree.
pub fn square_diff(expected: &Board, sensed: Bitboard) -> Vec<SquareDiff> {
    let should = expected.occupied();
    (should ^ sensed)
        .into_iter()
        .map(|sq| {
            let piece = expected.piece_at(sq);
            SquareDiff {
                square: sq.to_string(),
                expected: piece.map(Piece::char),
                peg: sensed.contains(sq),
                text: describe(sq, piece),
            }
        })
        .collect()
}

fn describe(sq: Square, piece: Option<Piece>) -> String {
    match piece {
        Some(p) => format!("{sq}: {} expected, empty", PieceName(p)),
        None => format!("{sq}: unexpected peg"),
    }
}

/// English name of a piece for logs and diffs, e.g. "white knight".
pub struct PieceName(pub Piece);

impl fmt::Display for PieceName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let color = match self.0.color {
            Color::White => "white",
            Color::Black => "black",
        };
        let role = match self.0.role {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        };
        write!(f, "{color} {role}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn a_knight_on_a_wrong_square_gives_two_lines() {
        let pos = Chess::default();
        let sensed = pos.board().occupied().without(Square::G1).with(Square::H3);
        let d = square_diff(pos.board(), sensed);
        let texts: Vec<_> = d.iter().map(|d| d.text.as_str()).collect();
        assert_eq!(texts, ["g1: white knight expected, empty", "h3: unexpected peg"]);
        assert_eq!(d[0].expected, Some('N'));
        assert!(!d[0].peg && d[1].peg);
    }
}
