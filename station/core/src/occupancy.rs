//! What moves do to the holes of a peg board.
//!
//! A peg board senses only whether a hole holds a peg, so a position is seen
//! as its occupancy [`Bitboard`] (bit n = square n, a1 = 0, h8 = 63).
//!
//! [`occupancy_after`] says which holes a move leaves filled and [`required_lifts`] which pegs it
//! must lift. Board orientation lives here too: [`Orientation`] is the one place a turned board's
//! scan becomes standard squares, chess and 10×10 draughts alike (square n of a turned 10×10 board
//! is 51−n).

use serde::{Deserialize, Serialize};
use shakmaty::{Bitboard, CastlingSide, Move, Position, Square};

/// The squares holding a peg after `mv` is played from `pos`, computed without
/// playing the move (this runs for every legal move of every settled board).
pub fn occupancy_after<P: Position>(pos: &P, mv: &Move) -> Bitboard {
    let occ = pos.board().occupied();
    match *mv {
        Move::Normal { from, to, .. } => occ.without(from).with(to),
        Move::EnPassant { from, to } => {
            let captured = Square::from_coords(to.file(), from.rank());
            occ.without(from).without(captured).with(to)
        }
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_targets(king, rook);
            occ.without(king).without(rook).with(king_to).with(rook_to)
        }
        Move::Put { to, .. } => occ.with(to),
    }
}

/// Squares that hold a peg both before and after `mv` but whose piece changes:
/// a hand must have emptied them during the move (the captured piece removed,
/// or in Chess960 a king and rook landing on each other's squares). Occupancy
/// alone cannot see these changes, so the lift sequence must have shown them.
pub fn required_lifts<P: Position>(pos: &P, mv: &Move) -> Bitboard {
    let occ = pos.board().occupied();
    match *mv {
        Move::Normal { to, .. } => Bitboard::from(to) & occ,
        Move::EnPassant { .. } | Move::Put { .. } => Bitboard::EMPTY,
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_targets(king, rook);
            let after = occupancy_after(pos, mv);
            (Bitboard::from(king) | Bitboard::from(rook) | Bitboard::from(king_to) | Bitboard::from(rook_to))
                & occ
                & after
        }
    }
}

/// Where king and rook land when castling with the rook on `rook`.
pub fn castling_targets(king: Square, rook: Square) -> (Square, Square) {
    let side = CastlingSide::from_king_side(king < rook);
    let rank = king.rank();
    (Square::from_coords(side.king_to_file(), rank), Square::from_coords(side.rook_to_file(), rank))
}

/// How a board is turned relative to the standard diagram (white at the bottom).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Orientation {
    /// a1 is where the protocol says (square 0).
    #[default]
    Normal,
    /// The board is turned 180° (the black player's side faces the sensors' a1).
    Flipped,
}

impl Orientation {
    /// Maps a raw sensor scan to standard square numbering.
    pub fn to_standard(self, raw: Bitboard) -> Bitboard {
        match self {
            Orientation::Normal => raw,
            Orientation::Flipped => raw.rotate_180(),
        }
    }

    /// Maps a raw 10×10 draughts scan (bit n−1 for FMJD square n, 1–50) to
    /// standard numbering. Turned 180°, square n is where square 51−n was:
    /// the 50 bits reversed.
    pub fn to_standard_50(self, raw: u64) -> u64 {
        let raw = raw & ((1 << 50) - 1);
        match self {
            Orientation::Normal => raw,
            Orientation::Flipped => raw.reverse_bits() >> 14,
        }
    }

    /// From a config flag.
    pub fn from_flipped(flipped: bool) -> Self {
        if flipped { Orientation::Flipped } else { Orientation::Normal }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{CastlingMode, Chess, fen::Fen, uci::UciMove};

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap()
    }

    #[test]
    fn a_flipped_10_by_10_board_numbers_square_n_as_51_minus_n() {
        for n in 1..=50u32 {
            let raw = 1u64 << (n - 1);
            assert_eq!(Orientation::Normal.to_standard_50(raw), raw);
            assert_eq!(Orientation::Flipped.to_standard_50(raw), 1u64 << (50 - n), "square {n}");
        }
        // White's men on 31–50 read from the other side are on 1–20.
        let white = ((1u64 << 20) - 1) << 30;
        assert_eq!(Orientation::Flipped.to_standard_50(white), (1 << 20) - 1);
        assert_eq!(Orientation::Flipped.to_standard_50(u64::MAX), (1 << 50) - 1, "bits beyond 50 dropped");
    }

    #[test]
    fn occupancy_after_matches_playing_every_legal_move() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "bqnb1rkr/pppp1ppp/6n1/4p3/4P3/1N4N1/PPPP1PPP/BQ1B1RKR w HFhf - 2 3",
            "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1",
        ] {
            let p = pos(fen);
            for m in p.legal_moves() {
                let mut q = p.clone();
                q.play_unchecked(m);
                assert_eq!(occupancy_after(&p, &m), q.board().occupied(), "{fen} {m:?}");
            }
        }
    }

    #[test]
    fn a_capture_requires_its_target_to_have_been_lifted() {
        let p = pos("4k3/8/2p5/1B6/8/8/8/4K3 w - - 0 1");
        let m = UciMove::from_ascii(b"b5c6").unwrap().to_move(&p).unwrap();
        assert_eq!(required_lifts(&p, &m), Bitboard::from(Square::C6));
        let quiet = UciMove::from_ascii(b"b5a4").unwrap().to_move(&p).unwrap();
        assert_eq!(required_lifts(&p, &quiet), Bitboard::EMPTY);
    }

    #[test]
    fn chess960_castling_onto_each_others_squares_requires_both_lifts() {
        // King f1, rook g1: O-O puts the king on g1 and the rook on f1.
        let p = pos("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
        let castle = p.legal_moves().into_iter().find(|m| matches!(m, Move::Castle { .. })).unwrap();
        assert_eq!(occupancy_after(&p, &castle), p.board().occupied());
        assert_eq!(required_lifts(&p, &castle), Bitboard::from(Square::F1) | Bitboard::from(Square::G1));
    }

    #[test]
    fn flipping_maps_a1_to_h8() {
        let raw = Bitboard::from(Square::A1);
        assert_eq!(Orientation::Flipped.to_standard(raw), Bitboard::from(Square::H8));
        assert_eq!(Orientation::Normal.to_standard(raw), raw);
    }
}
