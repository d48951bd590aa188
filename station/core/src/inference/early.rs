//! Which moves no hand can make into another by going on (issue 25): the
//! board may be decided before the settle time when it shows one of these.
//!
//! A move is made when its piece stands in its new hole and a captured piece
//! is gone (D.2.3.1–2). A hand that puts a piece down may still lift it again
//! and go on only where another legal move of the same piece passes through,
//! or ends with, that hole: a pawn's single step before the double one, a
//! slider stopped short of the end of its line, the rook of a castling put
//! down first, the king one step towards its castling square. Everywhere else
//! (knights, captures, the pawn's double step, a slider at the end of its line)
//! nothing the hand does next can make the board another move of it.

use super::sequence::{lifted_by, placed_by};
use crate::occupancy::castling_targets;
use shakmaty::{Bitboard, Chess, Move, Position, Square, attacks};

/// Whether no other legal move from `pos` can have the board `mv` leaves on
/// its way: one that lifts the pegs `mv` lifted and passes through, or ends
/// in, the holes `mv` filled.
pub(super) fn terminal(pos: &Chess, mv: &Move) -> bool {
    let landing = placed_by(mv);
    let lifted = lifted_by(pos, mv);
    !pos.legal_moves().iter().any(|other| {
        let same_path = other.from() == mv.from() && other.to() == mv.to();
        // The board is a waypoint of `other` when every peg `mv` took out is
        // one `other` takes out too, and every hole it filled lies on its way.
        !same_path && lifted.is_subset(lifted_by(pos, other)) && landing.is_subset(reach(pos, other))
    })
}

/// For a capture: whether the captured peg left its hole before the
/// capturing one (`lifts` in order). Lifted after it, the peg put into the
/// captured piece's hole may be that piece's own going home (knocked by the
/// hand on its way to another square); the board then waits for the settle
/// time or the next move.
pub(super) fn captured_first(mv: &Move, lifts: impl IntoIterator<Item = Square>) -> bool {
    let Move::Normal { from, to, capture: Some(_), .. } = *mv else { return true };
    lifts.into_iter().find(|&sq| sq == from || sq == to) == Some(to)
}

/// Every hole a move's pegs leave, pass over or end in.
fn reach(pos: &Chess, mv: &Move) -> Bitboard {
    let path = match *mv {
        Move::Normal { from, to, .. } => attacks::between(from, to),
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_targets(king, rook);
            attacks::between(king, king_to) | attacks::between(rook, rook_to)
        }
        Move::EnPassant { .. } | Move::Put { .. } => Bitboard::EMPTY,
    };
    lifted_by(pos, mv) | placed_by(mv) | path
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn terminal_uci(pos: &Chess, uci: &str) -> bool {
        let mv = uci.parse::<UciMove>().unwrap().to_move(pos).unwrap();
        terminal(pos, &mv)
    }

    #[test]
    fn knights_double_steps_and_captures_end_where_they_land() {
        let start = Chess::default();
        assert!(terminal_uci(&start, "g1f3"));
        assert!(terminal_uci(&start, "e2e4"));
        assert!(!terminal_uci(&start, "e2e3"), "the double step passes through e3");
        let pos = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        assert!(terminal_uci(&pos, "e4d5"));
        assert!(terminal_uci(&pos, "e4e5"), "a single step beyond the second rank");
    }

    #[test]
    fn sliders_end_only_at_the_end_of_their_line() {
        let pos = position("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert!(!terminal_uci(&pos, "a1a4"), "the rook may go on to a8");
        assert!(terminal_uci(&pos, "a1a8"));
        // The rook put down first when castling, and the king's step towards it.
        assert!(!terminal_uci(&pos, "h1f1"));
        assert!(!terminal_uci(&pos, "e1f1"));
        assert!(!terminal_uci(&pos, "a1d1"));
        assert!(terminal_uci(&pos, "e1g1"), "castled: both pieces home");
        assert!(terminal_uci(&pos, "e1e2"));
    }
}
