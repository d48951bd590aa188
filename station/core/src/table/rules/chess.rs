//! Chess (FIDE Laws, Annex D): its results, start and scans; its play at the
//! table is [`ChessPlay`](crate::table::play::ChessPlay)'s.

use super::{Rules, ScanSize, Start};
use crate::draughts::Variant;

/// Chess: standard, from a FEN, or Chess960.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chess;

impl Rules for Chess {
    fn name(&self) -> &'static str {
        "chess"
    }

    fn draughts_variant(&self) -> Option<Variant> {
        None
    }

    fn results(&self) -> &'static [&'static str] {
        &["1-0", "0-1", "1/2-1/2"]
    }

    fn start(&self) -> Start {
        Start::default()
    }

    fn refuses_scan(&self, size: ScanSize) -> Option<&'static str> {
        // The chess table cannot read a 10×10 draughts board.
        (size == ScanSize::Squares50).then_some("13-digit draughts scan while the game is chess")
    }

    fn export_format(&self) -> &'static str {
        "pgn"
    }

    fn engine_refusal(&self) -> Option<&'static str> {
        None
    }

    fn header_name(&self) -> Option<&'static str> {
        None
    }

    fn header_rules(&self, fen: &str) -> &'static dyn Rules {
        super::from_fen(fen)
    }
}
