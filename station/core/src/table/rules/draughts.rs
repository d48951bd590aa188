//! International and 64-square draughts: the table's draughts play
//! ([`DraughtsPlay`](crate::table::draughts_play::DraughtsPlay)).

use super::{Rules, ScanSize};
use crate::Millis;
use crate::diff::SquareDiff;
use crate::draughts::Variant;
use crate::draughts::board::Position;
use crate::event::Event;
use crate::game::Game;
use crate::input::Input;
use crate::record::GameRecord;
use crate::role::ByBoard;
use crate::table::draughts_play::fen;
use crate::table::draughts_table::DraughtsAtTable;
use crate::table::{Table, TableConfig, TableError};
use shakmaty::{Bitboard, Board, Move};

/// International draughts, 10×10, squares 1–50.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct International;

/// The code's 64-square draughts: international rules on 8×8.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Draughts64;

/// The rules of `variant`.
pub(super) fn of(variant: Variant) -> &'static dyn Rules {
    match variant {
        Variant::International => &super::INTERNATIONAL,
        Variant::Draughts64 => &super::DRAUGHTS64,
    }
}

/// The two variants differ in their board and name only: one body serves both.
macro_rules! draughts_rules {
    ($ty:ty, $variant:expr, $name:literal, $refused_64:expr) => {
        impl Rules for $ty {
            fn name(&self) -> &'static str {
                $name
            }

            fn draughts_variant(&self) -> Option<Variant> {
                Some($variant)
            }

            fn results(&self) -> &'static [&'static str] {
                &["2-0", "0-2", "1-1"]
            }

            fn start_occupancy(&self, _start: &Game) -> Bitboard {
                Bitboard(Position::initial($variant).occupied())
            }

            fn start_fen(&self, _start: &Game) -> String {
                fen(&Position::initial($variant))
            }

            fn header_start(&self, _fen: &str, _configured: &Game) -> Game {
                Game::default()
            }

            fn setup_quiet_ms(&self, _start: &Game, settle_ms: Millis) -> Millis {
                settle_ms
            }

            fn setup_differs(&self, _start: &Game, _sensed: Bitboard) -> Option<Vec<SquareDiff>> {
                // A draughts board's differences are said by its sensor once the game is on.
                None
            }

            fn refuses_scan(&self, size: ScanSize) -> Option<&'static str> {
                (size == ScanSize::Squares64).then_some($refused_64).flatten()
            }

            fn export_format(&self) -> &'static str {
                "pdn"
            }

            fn engine_refusal(&self) -> Option<&'static str> {
                Some("an engine opponent plays chess only")
            }

            fn start_game(
                &self,
                table: &mut Table,
                game_id: String,
                _scoresheet: &[Move],
                t: Millis,
            ) -> Vec<String> {
                // A draughts game starts from the initial position: no scoresheet reaches it.
                DraughtsAtTable::new(table).start($variant, game_id, t);
                Vec::new()
            }

            fn consume(
                &self,
                table: &mut Table,
                t: Millis,
                input: &Input,
                out: &mut Vec<Event>,
            ) -> Option<Result<(), TableError>> {
                DraughtsAtTable::new(table).consume($variant, t, input, out)
            }

            fn header_name(&self) -> Option<&'static str> {
                Some($name)
            }

            fn header_rules(&self, _fen: &str) -> &'static dyn Rules {
                of($variant)
            }

            fn start_from_header(&self, _fen: &str) -> Result<Game, String> {
                // A draughts table keeps the standard chess start it was built with.
                Ok(Game::default())
            }

            fn resume(
                &self,
                cfg: TableConfig,
                game_id: String,
                _moves: &[String],
                sensed: ByBoard<Bitboard>,
                _mirror_board: Option<Board>,
                t: Millis,
            ) -> Result<Table, String> {
                // A draughts game starts from the initial position (no scoresheet),
                // its boards sensed by occupancy alone.
                Ok(DraughtsAtTable::resume(cfg, $variant, game_id, sensed, t))
            }

            fn follow_record(
                &self,
                replayed: Table,
                _game_id: String,
                _record: GameRecord,
                _last_t: Millis,
            ) -> (Table, Option<String>) {
                // The inputs are the draughts game's evidence: its record is what they reproduce.
                let damage = "the journaled inputs no longer reproduce the recorded draughts moves; \
                              the game follows the inputs";
                (replayed, Some(damage.to_string()))
            }
        }
    };
}

// A 10×10 game reads 13-digit scans only; the 8×8 game reads a chess board's.
draughts_rules!(
    International,
    Variant::International,
    "draughts",
    Some("16-digit chess scan while the game is international draughts")
);
draughts_rules!(Draughts64, Variant::Draughts64, "draughts64", None::<&str>);
