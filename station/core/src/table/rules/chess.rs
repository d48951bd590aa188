//! Chess (FIDE Laws, Annex D): the table's trackers and two-board record.

use super::Rules;
use crate::Millis;
use crate::clock::Side;
use crate::diff::SquareDiff;
use crate::draughts::Variant;
use crate::event::Event;
use crate::game::Game;
use crate::input::Input;
use crate::table::{Table, TableError};
use shakmaty::{Bitboard, Position};

/// The standard Chess960 number of the ordinary start position (ICCF Appendix B).
const STANDARD_START_960: u16 = 518;

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

    fn start_occupancy(&self, start: &Game) -> Bitboard {
        start.occupancy()
    }

    fn start_fen(&self, start: &Game) -> String {
        start.fen()
    }

    fn header_start(&self, fen: &str, configured: &Game) -> Game {
        Game::from_fen(fen).unwrap_or_else(|_| configured.clone())
    }

    fn judges_setup_at_settle(&self, start: &Game) -> bool {
        // A Chess960 set-up is read out as it stands (ICCF Appendix B asks for it).
        crate::setup::chess960_number(start.start().board()).is_some_and(|n| n != STANDARD_START_960)
    }

    fn setup_differs(&self, start: &Game, sensed: Bitboard) -> Option<Vec<SquareDiff>> {
        let start = start.start().board();
        (sensed.any() && sensed != start.occupied()).then(|| crate::setup::check(start, sensed))
    }

    fn drops_chess_scans(&self) -> bool {
        false
    }

    fn takes_13_digit_scans(&self) -> bool {
        false
    }

    fn echoes_entered_moves(&self) -> bool {
        true
    }

    fn names_moves_by_squares(&self) -> bool {
        false
    }

    fn record_replays_as_chess(&self) -> bool {
        true
    }

    fn export_format(&self) -> &'static str {
        "pgn"
    }

    fn engine_can_play(&self) -> bool {
        true
    }

    fn start_game(&self, table: &mut Table, game_id: String, game: Game, t: Millis) {
        table.start_chess(game_id, game, t);
    }

    fn consume(
        &self,
        _table: &mut Table,
        _t: Millis,
        _input: &Input,
        _out: &mut Vec<Event>,
    ) -> Option<Result<(), TableError>> {
        // Every input keeps the table's own (chess) meaning.
        None
    }

    fn record_turn(&self, table: &Table) -> Option<(usize, Side)> {
        let agreed = table.agreed()?;
        Some((agreed.ply(), Side::from(agreed.position().turn())))
    }

    fn record_texts(&self, table: &Table) -> Option<Vec<String>> {
        table.agreed().map(|g| g.moves().iter().map(|m| g.uci(*m)).collect())
    }

    fn fen(&self, table: &Table) -> Option<String> {
        table.agreed().map(Game::fen)
    }
}
