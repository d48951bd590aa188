//! Chess (FIDE Laws, Annex D): the table's trackers and two-board record.

use super::{Rules, ScanSize};
use crate::Millis;
use crate::diff::SquareDiff;
use crate::draughts::Variant;
use crate::event::{BoardRole, Event};
use crate::game::Game;
use crate::input::Input;
use crate::record::GameRecord;
use crate::role::ByBoard;
use crate::table::{SETUP_QUIET_MS, Table, TableConfig, TableError};
use shakmaty::{Bitboard, Board, Move, Position};

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

    fn setup_quiet_ms(&self, start: &Game, settle_ms: Millis) -> Millis {
        // A Chess960 set-up is read out as it stands (ICCF Appendix B asks for it).
        let chess960 =
            crate::setup::chess960_number(start.start().board()).is_some_and(|n| n != STANDARD_START_960);
        if chess960 { settle_ms } else { settle_ms.max(SETUP_QUIET_MS) }
    }

    fn setup_differs(&self, start: &Game, sensed: Bitboard) -> Option<Vec<SquareDiff>> {
        let start = start.start().board();
        (sensed.any() && sensed != start.occupied()).then(|| crate::setup::check(start, sensed))
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

    fn start_game(&self, table: &mut Table, game_id: String, scoresheet: &[Move], t: Millis) -> Vec<String> {
        let mut game = table.config().start.clone();
        let texts = scoresheet
            .iter()
            .map(|&mv| {
                let uci = game.uci(mv);
                game.push(mv);
                uci
            })
            .collect();
        table.start_chess(game_id, game, t);
        texts
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

    fn header_name(&self) -> Option<&'static str> {
        None
    }

    fn header_rules(&self, fen: &str) -> &'static dyn Rules {
        super::from_fen(fen)
    }

    fn start_from_header(&self, fen: &str) -> Result<Game, String> {
        Game::from_fen(fen).map_err(|e| format!("fen: {e}"))
    }

    fn resume(
        &self,
        cfg: TableConfig,
        game_id: String,
        moves: &[String],
        sensed: ByBoard<Bitboard>,
        mirror_board: Option<Board>,
        t: Millis,
    ) -> Result<Table, String> {
        let mut start = cfg.start.clone();
        for uci in moves {
            start.push_uci(uci).ok_or_else(|| format!("scoresheet move {uci}"))?;
        }
        Ok(Table::resume(cfg, game_id, start, sensed, mirror_board, t))
    }

    fn follow_record(
        &self,
        replayed: Table,
        game_id: String,
        record: GameRecord,
        last_t: Millis,
    ) -> (Table, Option<String>) {
        // The inputs no longer reproduce the record (a different settle time, a
        // changed rule): the recorded moves are the game; the boards are judged anew.
        let cfg = replayed.config().clone();
        let mut game = cfg.start.clone();
        for uci in record.ucis() {
            if game.push_uci(&uci).is_none() {
                // A damaged record (a flipped byte): the inputs are the evidence.
                let damage = format!("recorded move {uci} is illegal; the game follows the journaled inputs");
                return (replayed, Some(damage));
            }
        }
        let now = ByBoard::from_fn(|role: BoardRole| replayed.sensed(role));
        let board_now = cfg.mirror_pieces.then(|| replayed.mirror_board().clone());
        let mut table = Table::resume(cfg, game_id, game, now, board_now, last_t);
        table.adopt_record(record);
        (table, None)
    }
}
