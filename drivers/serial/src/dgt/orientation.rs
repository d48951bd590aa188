//! Which way round a DGT board stands, detected from a start position.
//!
//! A DGT board has its sensors' a1 in one fixed corner. Players sometimes turn
//! the board 180° (the connector then sits on the other side); every square
//! then reads as its point reflection (a1 ↔ h8). The station cannot know this
//! from one move, but it can from a start position: a board whose white pawns
//! fill the sensors' seventh rank and black pawns the second is a start
//! position seen turned round.
//!
//! This file depends on nothing but `shakmaty` so other crates' tests may
//! include it by path.

use shakmaty::{Bitboard, Board, Color, Rank, Role, Square};

/// How the board stands relative to its sensors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Orientation {
    /// The sensors' a1 is the real a1.
    #[default]
    Normal,
    /// The board is turned 180°: the sensors' a1 is the real h8.
    Rotated,
}

impl Orientation {
    /// Maps a square as the sensors report it to the real square (and back:
    /// the mapping is its own inverse).
    pub fn square(self, square: Square) -> Square {
        match self {
            Orientation::Normal => square,
            Orientation::Rotated => square.rotate_180(),
        }
    }

    /// Maps a whole board as the sensors report it to the real board (and back).
    pub fn board(self, board: &Board) -> Board {
        let mut board = board.clone();
        if self == Orientation::Rotated {
            board.rotate_180();
        }
        board
    }

    /// The other orientation.
    pub fn turned(self) -> Orientation {
        match self {
            Orientation::Normal => Orientation::Rotated,
            Orientation::Rotated => Orientation::Normal,
        }
    }
}

/// Detects the orientation from a board that shows a start position.
///
/// A start position here is any arrangement Chess960 allows too: eight white
/// pawns on rank 2, eight black pawns on rank 7, eight white pieces (one king)
/// on rank 1, eight black pieces (one king) on rank 8, nothing else. `None`
/// when the board (as sensed) shows no start position either way round — the
/// caller keeps the orientation it had.
pub fn detect_orientation(sensed: &Board) -> Option<Orientation> {
    if is_start_arrangement(sensed) {
        return Some(Orientation::Normal);
    }
    let turned = Orientation::Rotated.board(sensed);
    is_start_arrangement(&turned).then_some(Orientation::Rotated)
}

/// Whether `board` shows a (standard or Chess960) start arrangement as described
/// at [`detect_orientation`].
pub fn is_start_arrangement(board: &Board) -> bool {
    let rank = |r: Rank| Bitboard::from_rank(r);
    let white = board.by_color(Color::White);
    let black = board.by_color(Color::Black);
    let pawns = board.by_role(Role::Pawn);
    let kings = board.by_role(Role::King);
    board.occupied() == (rank(Rank::First) | rank(Rank::Second) | rank(Rank::Seventh) | rank(Rank::Eighth))
        && white == rank(Rank::First) | rank(Rank::Second)
        && pawns == rank(Rank::Second) | rank(Rank::Seventh)
        && (kings & white).count() == 1
        && (kings & black).count() == 1
        // A legal back rank has rooks round the king; that is the caller's
        // business (the game start): here only the shape matters.
        && (black & rank(Rank::Eighth)) == rank(Rank::Eighth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, Piece, Position, fen::Fen};

    #[test]
    fn standard_start_both_ways_round() {
        let start = Board::new();
        assert_eq!(detect_orientation(&start), Some(Orientation::Normal));
        let turned = Orientation::Rotated.board(&start);
        assert_ne!(turned, start);
        assert_eq!(detect_orientation(&turned), Some(Orientation::Rotated));
        assert_eq!(Orientation::Rotated.board(&turned), start, "its own inverse");
    }

    #[test]
    fn chess960_start_is_recognised() {
        let fen: Fen = "bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w HFhf - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Chess960).unwrap();
        let board = pos.board().clone();
        assert_eq!(detect_orientation(&board), Some(Orientation::Normal));
        assert_eq!(detect_orientation(&Orientation::Rotated.board(&board)), Some(Orientation::Rotated));
    }

    #[test]
    fn other_positions_say_nothing() {
        let mut board = Board::new();
        assert!(detect_orientation(&Board::empty()).is_none());
        board.discard_piece_at(Square::E2);
        assert!(detect_orientation(&board).is_none());
        board.set_piece_at(Square::E4, Piece::from_char('P').unwrap());
        assert!(detect_orientation(&board).is_none());
        // Colours swapped rank for rank is a turned board with king and queen
        // mirrored: a Chess960 start, seen turned round.
        let mut swapped = Board::new();
        swapped.flip_vertical();
        assert_eq!(detect_orientation(&swapped), Some(Orientation::Rotated));
        // Pawns on the back ranks are never a start.
        let mut pawns_back = Board::new();
        for sq in [Square::A1, Square::A2] {
            pawns_back.discard_piece_at(sq);
        }
        pawns_back.set_piece_at(Square::A1, Piece::from_char('P').unwrap());
        pawns_back.set_piece_at(Square::A2, Piece::from_char('R').unwrap());
        assert!(detect_orientation(&pawns_back).is_none());
    }

    #[test]
    fn squares_map_by_point_reflection() {
        assert_eq!(Orientation::Rotated.square(Square::A1), Square::H8);
        assert_eq!(Orientation::Rotated.square(Square::E2), Square::D7);
        assert_eq!(Orientation::Normal.square(Square::E2), Square::E2);
        assert_eq!(Orientation::Normal.turned(), Orientation::Rotated);
    }
}
