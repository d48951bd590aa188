//! The table playing draughts: the same life cycle, clock, refusals and
//! journal contract as chess; the game-specific part is [`DraughtsPlay`].
//! [`DraughtsAtTable`] is the draughts game at the table, called by
//! [`Play`](super::play::Play)'s start, consume and resume for a draughts start and, for
//! time passing, by the table's tick on a draughts play: its entry points are the few places where the two
//! games differ (a scan's meaning, an entered move's notation, the start
//! position, the game's end), each named for its job as chess's twin is.

use super::draughts_play::{DraughtsPlay, DraughtsVariant};
use super::{Phase, Table, TableConfig, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::draughts::board::Variant;
use crate::draughts::sensing::SensorConfig;
use crate::event::{BoardRole, Event};
use crate::input::{Input, Occupancy};
use crate::role::ByBoard;
use shakmaty::Bitboard;

/// The draughts game at a table: the table's life cycle, clock, refusals
/// and journal contract around its [`DraughtsPlay`]. A table whose start
/// is a draughts one ([`Play::consume`](super::play::Play::consume)) hands
/// it the table for the jobs whose meaning is the game's own: a scan, an entered move, an arbiter's decision; the
/// table's tick hands it time passing.
pub(crate) struct DraughtsAtTable<'a> {
    pub(super) table: &'a mut Table,
}

impl<'a> DraughtsAtTable<'a> {
    /// The draughts game at `table`.
    pub(crate) fn new(table: &'a mut Table) -> Self {
        DraughtsAtTable { table }
    }

    /// A draughts table continuing a game started at `t` (journal restore).
    pub(crate) fn resume(
        cfg: TableConfig,
        variant: DraughtsVariant,
        game_id: String,
        sensed: ByBoard<Bitboard>,
        t: Millis,
    ) -> Table {
        let mut table = Table::new(cfg).with_draughts(variant);
        table.sensed.occupancy = sensed;
        table.stillness.last_change = t;
        DraughtsAtTable::new(&mut table).start(variant, game_id.clone(), t);
        let start = table.start_fen();
        table.keeping.record =
            Some(crate::record::GameRecord::started(game_id, start, table.cfg.tags.clone(), t, &[]));
        table
    }

    /// Starts a draughts game of `variant`: the boards' sensors and the draughts record.
    pub(crate) fn start(&mut self, variant: Variant, game_id: String, t: Millis) {
        let table = &mut *self.table;
        let cfg = &table.cfg;
        let sensor = SensorConfig { settle_ms: cfg.tracker.settle_ms, debounce_ms: cfg.tracker.debounce_ms };
        let blind = (!cfg.blind_unsensed).then_some(table.sensed[BoardRole::Blind].0);
        let mirror = (cfg.mirror_sensed && !cfg.mirror_pieces).then_some(table.sensed[BoardRole::Mirror].0);
        let play = DraughtsPlay::new(variant, sensor, ByBoard::new(blind, mirror));
        let shown = table.start_occupancy();
        table.clocking.clock = table.new_clock(play.to_move(), shown, t);
        table.clocking.warnings = crate::clock::WarningSchedule::new(table.cfg.warnings.clone());
        table.seat.seat_draughts(play);
        table.clocking.pressed_ply = 0;
        table.announcing.announced_ply = 0;
        table.rulings.draw_offers.clear();
        table.game_id = Some(game_id);
        table.phase = Phase::Playing;
    }

    /// The inputs whose meaning depends on the game, for a draughts table;
    /// `None` for the inputs both games treat alike.
    pub(crate) fn consume(
        &mut self,
        variant: Variant,
        t: Millis,
        input: &Input,
        out: &mut Vec<Event>,
    ) -> Option<Result<(), TableError>> {
        Some(match input {
            Input::Scan { board, occ } => self.scan(variant, *board, *occ, t, out),
            Input::EnterMove { mv } => self.enter(mv, t, out),
            Input::IrregularityDecision { decision } => self.decide(decision, t, out),
            Input::Announce { mv } => self.announce(mv, t, out),
            Input::Scoresheet { moves } => self.scoresheet(moves, t, out),
            Input::NewGame { fen: None, chess960: None, moves, tags } if moves.is_empty() => {
                self.table.tick(t, out);
                self.table.restart(&[], tags, t, out);
                Ok(())
            }
            Input::NewGame { .. } => Err(TableError::Invalid(
                "a draughts game starts from the initial position (no FEN, no moves)".into(),
            )),
            Input::Pieces { .. }
            | Input::Field { .. }
            | Input::TakeBack
            | Input::Adjourn { .. }
            | Input::ClaimDraw { .. }
            | Input::IllegalMove { .. } => {
                Err(TableError::Invalid(format!("`{}` is not available in a draughts game", input.kind())))
            }
            _ => return None,
        })
    }

    fn scan(
        &mut self,
        variant: Variant,
        board: BoardRole,
        occ: Occupancy,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        let bits = occupancy(variant, occ)?;
        let table = &mut *self.table;
        let changed = table.sensed[board].0 != bits;
        table.sensed[board] = Bitboard(bits);
        if table.phase != Phase::Playing {
            table.waiting_change(board, changed, t, out);
            return Ok(());
        }
        let blind = Side::from(table.cfg.blind_color);
        let before = out.len();
        if let Some(d) = table.seat.draughts_mut() {
            d.scan(board, t, bits, blind, out);
        }
        self.settle_new_moves(before, t, out);
        Ok(())
    }

    /// Lets time pass up to `t` for the boards' sensors and the game's end.
    pub(crate) fn tick(&mut self, t: Millis, out: &mut Vec<Event>) {
        let blind = Side::from(self.table.cfg.blind_color);
        let before = out.len();
        let Some(d) = self.table.seat.draughts_mut() else { return };
        d.tick(t, blind, out);
        self.settle_new_moves(before, t, out);
    }

    fn enter(&mut self, text: &str, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let blind = Side::from(self.table.cfg.blind_color);
        let d = self.playing()?;
        let ply = d.ply() + 1;
        let before = out.len();
        d.enter(text, blind, t, out).map_err(|e| TableError::illegal_at(ply, text, &e.to_string()))?;
        self.settle_new_moves(before, t, out);
        Ok(())
    }

    /// VIII.3.1.2: a scoresheet that differs takes the game back to the last
    /// position both records agree on; the clock's press count follows.
    fn scoresheet(&mut self, moves: &[String], t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let d = self.playing()?;
        if let Some(common) = d.scoresheet(moves, t, out).map_err(TableError::Invalid)? {
            self.table.clocking.pressed_ply = self.table.clocking.pressed_ply.min(common);
        }
        Ok(())
    }

    fn decide(&mut self, decision: &str, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let accept = match decision {
            "accept" => true,
            "correct" => false,
            other => return Err(TableError::Invalid(format!("decision `{other}` (accept or correct)"))),
        };
        let blind = Side::from(self.table.cfg.blind_color);
        let d = self.playing()?;
        let before = out.len();
        d.decide(accept, blind, t, out).map_err(TableError::Invalid)?;
        self.settle_new_moves(before, t, out);
        Ok(())
    }

    /// The draughts play while a game is on; [`TableError::NoGame`] otherwise.
    fn playing(&mut self) -> Result<&mut DraughtsPlay, TableError> {
        let table = &mut *self.table;
        table.seat.draughts_mut().filter(|_| table.phase == Phase::Playing).ok_or(TableError::NoGame)
    }

    /// After the draughts record grew: the clock pressed for each mover when
    /// the station presses (no lever), and the game's end (7.2.2–7.2.3).
    pub(super) fn settle_new_moves(&mut self, from: usize, t: Millis, out: &mut Vec<Event>) {
        self.check_said_early(from, t, out);
        let movers = self.movers_to_press(&out[from..]);
        let table = &mut *self.table;
        if table.cfg.clock_auto_press {
            for side in movers {
                let _ = table.press_now(side, t, out);
            }
        }
        let Some((result, reason)) = table.seat.draughts().and_then(|d| d.game_over()) else { return };
        if table.phase != Phase::Playing {
            return;
        }
        if let Some(clock) = table.clocking.clock.as_mut().filter(|c| c.is_running()) {
            let _ = clock.pause(t);
        }
        out.push(super::game_over(result, reason, t));
        table.phase = Phase::Finished;
        table.stillness.settled = true;
    }
}

/// A scan's hex digits as the draughts board's squares: 13 digits on the
/// 10×10 board (bits beyond square 50 refused), the ordinary 16-digit scan on
/// the 8×8 board (its dark squares read, square n = bit n−1).
fn occupancy(variant: Variant, occ: Occupancy) -> Result<u64, TableError> {
    match (variant, occ) {
        (Variant::International, Occupancy::Squares50(value)) if value >> 50 == 0 => Ok(value),
        (Variant::International, Occupancy::Squares50(_)) => {
            Err(TableError::Invalid(format!("draughts scan `{}` names a square beyond 50", occ.hex())))
        }
        (Variant::International, _) => Err(TableError::Invalid(format!(
            "a {}-digit scan while the game is international draughts (a 10×10 board sends 13 digits)",
            occ.digits()
        ))),
        (Variant::Draughts64, Occupancy::Squares64(value)) => {
            let mut bits = 0u64;
            for n in 1..=variant.squares() {
                let sq = variant.square(n).expect("1..=32");
                let (row, col) = sq.coords(variant);
                let chess = (7 - u32::from(row)) * 8 + u32::from(col);
                if value.0 >> chess & 1 == 1 {
                    bits |= sq.bit();
                }
            }
            Ok(bits)
        }
        (Variant::Draughts64, _) => Err(TableError::Invalid(format!(
            "a {}-digit scan while the game is 64-square draughts (the 8×8 board sends 16 digits)",
            occ.digits()
        ))),
    }
}
