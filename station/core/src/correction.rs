//! How to put a board right: the steps that turn the pieces a board shows into
//! the pieces it should show (D.2.9: "the player … is obliged to correct the
//! position"; the assistant or arbiter reads them out square by square).
//!
//! The steps come in an order a hand can follow on a peg board: no peg is dropped into a full hole,
//! and pieces on each other's squares are untangled.

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, Board, Piece, Square};

/// One thing a hand does to correct a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Move a piece from one square to another.
    Move {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
        /// Where it belongs.
        to: Square,
    },
    /// Take a piece off the board.
    Remove {
        /// The piece.
        piece: Piece,
        /// Where it stands.
        from: Square,
    },
    /// Put a piece (from beside the board) on a square.
    Place {
        /// The piece.
        piece: Piece,
        /// Where it belongs.
        to: Square,
    },
}

/// A step as the event stream shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepRecord {
    /// `move`, `remove` or `place`.
    pub action: String,
    /// FEN letter of the piece.
    pub piece: String,
    /// The square it leaves (move, remove).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The square it goes to (move, place).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

impl From<Step> for StepRecord {
    fn from(step: Step) -> Self {
        let (action, piece, from, to) = match step {
            Step::Move { piece, from, to } => ("move", piece, Some(from), Some(to)),
            Step::Remove { piece, from } => ("remove", piece, Some(from), None),
            Step::Place { piece, to } => ("place", piece, None, Some(to)),
        };
        StepRecord {
            action: action.into(),
            piece: piece.char().to_string(),
            from: from.map(|s| s.to_string()),
            to: to.map(|s| s.to_string()),
        }
    }
}

/// The steps from `current` to `target`, in an order a hand can follow on a peg
/// board (a hole must be empty before a peg goes in): removals first, then moves
/// whose destination is free, then placements. A piece of the right kind is
/// moved rather than removed and replaced, the nearest one first.
pub fn steps_between(current: &Board, target: &Board) -> Vec<Step> {
    let mut vacate: Vec<(Square, Piece)> = Vec::new();
    let mut fill: Vec<(Square, Piece)> = Vec::new();
    for sq in current.occupied() | target.occupied() {
        let (now, want) = (current.piece_at(sq), target.piece_at(sq));
        if now == want {
            continue;
        }
        if let Some(p) = now {
            vacate.push((sq, p));
        }
        if let Some(p) = want {
            fill.push((sq, p));
        }
    }
    // Pair each square to fill with the nearest piece of its kind that must leave.
    let mut moves = Vec::new();
    let mut places = Vec::new();
    for (to, piece) in fill {
        let nearest = vacate
            .iter()
            .enumerate()
            .filter(|(_, (_, p))| *p == piece)
            .min_by_key(|(_, (from, _))| (from.distance(to), *from))
            .map(|(i, _)| i);
        match nearest {
            Some(i) => {
                let (from, _) = vacate.swap_remove(i);
                moves.push(Step::Move { piece, from, to });
            }
            None => places.push(Step::Place { piece, to }),
        }
    }
    vacate.sort_by_key(|(sq, _)| *sq);
    let mut steps: Vec<Step> = vacate.into_iter().map(|(from, piece)| Step::Remove { piece, from }).collect();
    // Moves in an order that never drops a peg into a full hole; a cycle
    // (two pieces swapping squares) is broken by lifting one off for a moment.
    let mut occupied: Bitboard = current.occupied();
    for step in &steps {
        if let Step::Remove { from, .. } = step {
            occupied.discard(*from);
        }
    }
    while !moves.is_empty() {
        let ready = moves.iter().position(|m| matches!(m, Step::Move { to, .. } if !occupied.contains(*to)));
        match ready {
            Some(i) => {
                let m = moves.remove(i);
                if let Step::Move { from, to, .. } = m {
                    occupied.discard(from);
                    occupied.add(to);
                }
                steps.push(m);
            }
            None => {
                let Step::Move { piece, from, to } = moves.remove(0) else {
                    unreachable!("only moves are queued")
                };
                occupied.discard(from);
                steps.push(Step::Remove { piece, from });
                places.insert(0, Step::Place { piece, to });
            }
        }
    }
    steps.extend(places);
    steps
}

/// Plays `steps` on `board` (for checking a correction).
pub fn apply(board: &Board, steps: &[Step]) -> Board {
    let mut b = board.clone();
    for step in steps {
        match *step {
            Step::Move { from, to, .. } => {
                if let Some(p) = b.remove_piece_at(from) {
                    b.set_piece_at(to, p);
                }
            }
            Step::Remove { from, .. } => b.discard_piece_at(from),
            Step::Place { piece, to } => b.set_piece_at(to, piece),
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use shakmaty::{Color, Position, Role};

    fn board_after(moves: &[&str]) -> Board {
        let mut g = Game::default();
        for m in moves {
            g.push_uci(m).unwrap();
        }
        g.position().board().clone()
    }

    #[test]
    fn a_knight_on_the_wrong_square_is_moved_back() {
        let wrong = board_after(&["g1h3"]);
        let right = board_after(&["g1f3"]);
        let steps = steps_between(&wrong, &right);
        let knight = Piece { color: Color::White, role: Role::Knight };
        assert_eq!(steps, [Step::Move { piece: knight, from: Square::H3, to: Square::F3 }]);
        assert_eq!(apply(&wrong, &steps), right);
    }

    #[test]
    fn going_back_several_moves_puts_captured_pieces_back() {
        let now = board_after(&["e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5"]);
        let then = board_after(&["e2e4", "d7d5"]);
        let steps = steps_between(&now, &then);
        assert_eq!(apply(&now, &steps), then);
        assert!(steps.iter().any(|s| matches!(s, Step::Place { piece, .. } if piece.role == Role::Pawn)));
        // Every move lands in an empty hole.
        let mut b = now.clone();
        for s in &steps {
            if let Step::Move { to, .. } | Step::Place { to, .. } = *s {
                assert!(b.piece_at(to).is_none(), "{s:?} into a full hole");
            }
            b = apply(&b, std::slice::from_ref(s));
        }
    }

    #[test]
    fn two_pieces_on_each_others_squares_are_untangled() {
        let mut now = Board::default();
        let (n, b) = (now.remove_piece_at(Square::B1).unwrap(), now.remove_piece_at(Square::C1).unwrap());
        now.set_piece_at(Square::C1, n);
        now.set_piece_at(Square::B1, b);
        let steps = steps_between(&now, &Board::default());
        assert_eq!(apply(&now, &steps), Board::default());
        assert_eq!(steps.len(), 3, "{steps:?}");
    }

    #[test]
    fn step_records_use_fen_letters_and_square_names() {
        let knight = Piece { color: Color::Black, role: Role::Knight };
        let r = StepRecord::from(Step::Move { piece: knight, from: Square::E5, to: Square::F3 });
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"action":"move","piece":"n","from":"e5","to":"f3"}"#
        );
    }
}
