//! Positions the simulated hands of every board are tried on (tests only):
//! castling of every kind, en passant and promotions.

use shakmaty::{CastlingMode, Chess, fen::Fen};

/// The position of `fen`, Chess960 castling rights read as given.
pub(crate) fn position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Chess960).unwrap()
}

/// Positions with every kind of move a hand makes differently.
pub(crate) const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
    "bqnb1rkr/pppp1ppp/6n1/4p3/4P3/1N4N1/PPPP1PPP/BQ1B1RKR w HFhf - 2 3",
    // King and rook swap squares (king f1 -> g1, rook g1 -> f1).
    "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
    // Queen side swap (king d1 -> c1, rook c1 -> d1).
    "4k3/8/8/8/8/8/8/2RK4 w C - 0 1",
    // King already on g1: only the rook moves.
    "6kr/8/8/8/8/8/8/6KR w Hh - 0 1",
    // Rook already on d1: only the king moves.
    "3rk3/3p4/8/8/8/8/3P4/3RK3 w Dd - 0 1",
    // En passant and promotions with and without capture.
    "r1n4k/1P6/8/3pP3/8/8/6K1/8 w - d6 0 2",
    "8/8/8/8/3Pp3/8/6k1/K7 b - d3 0 1",
    "7k/8/8/8/8/8/1p6/R1N4K b - - 0 1",
    // Queens facing each other on an open board: long slides.
    "3q3k/8/8/8/8/8/8/1Q5K w - - 0 1",
];
