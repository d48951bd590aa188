//! A board's state as the hall sees it, folded from its events in sequence
//! order: the station publishes it (retained) and the hall view folds the
//! same events, so both agree.

use super::wire::GameHeader;
use serde::{Deserialize, Serialize};
use station_core::Event;
use station_core::clock::Side;
use station_core::record::GameRecord;
use std::collections::BTreeMap;

/// One board's state.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct BoardState {
    /// The board's name in the hall.
    pub board: String,
    /// The current game.
    pub game_id: Option<String>,
    /// The game's header (tags, start position, start time).
    pub header: Option<GameHeader>,
    /// The highest sequence number folded in.
    pub seq: u64,
    /// The game's record, folded from its events as every view folds them.
    pub record: Option<GameRecord>,
    /// The record's moves (SAN), for the hall page.
    pub moves: Vec<String>,
    /// The result once the game is over.
    pub result: Option<String>,
    /// Why it ended.
    pub result_reason: Option<String>,
    /// White's remaining time after his last press.
    pub white_ms: Option<u64>,
    /// Black's remaining time after his last press.
    pub black_ms: Option<u64>,
    /// Whose flag fell.
    pub flag: Option<String>,
    /// Devices by name and their last status.
    pub devices: BTreeMap<String, String>,
    /// Open discrepancies (ids).
    pub discrepancies: Vec<u64>,
    /// The game is adjourned.
    pub adjourned: bool,
    /// The clocks are paused (the arbiter was called).
    pub paused: bool,
    /// The station's console (for the hall page's link).
    pub console: Option<String>,
}

/// Device statuses that mean a device is gone.
pub fn device_lost(status: &str) -> bool {
    matches!(status, "disconnected" | "unavailable" | "lost" | "failed" | "missing" | "silent" | "damaged")
}

impl BoardState {
    /// A board with nothing known.
    pub fn new(board: &str) -> Self {
        BoardState { board: board.to_owned(), ..Default::default() }
    }

    /// The game's state starts over (a new game id).
    pub fn start_game(&mut self, game_id: &str) {
        let board = std::mem::take(&mut self.board);
        let devices = std::mem::take(&mut self.devices);
        let console = self.console.take();
        *self =
            BoardState { board, devices, console, game_id: Some(game_id.to_owned()), ..Default::default() };
    }

    /// Folds one event (with its sequence number when journaled).
    pub fn apply(&mut self, seq: Option<u64>, event: &Event) {
        if let Some(s) = seq {
            self.seq = self.seq.max(s);
        }
        match event {
            Event::GameStarted { game_id, .. } if self.game_id.as_deref() != Some(game_id) => {
                self.start_game(game_id);
            }
            Event::GameResumed { game_id, .. } if self.game_id.as_deref() != Some(game_id) => {
                self.start_game(game_id);
            }
            _ => {}
        }
        self.fold_record(event);
        match event {
            Event::ClockPressed { side, remaining_ms, .. } => match side {
                Side::White => self.white_ms = Some(*remaining_ms),
                Side::Black => self.black_ms = Some(*remaining_ms),
            },
            Event::ClockChanged { action, .. } => {
                if action.contains("pause") {
                    self.paused = true;
                } else if action.contains("resume") || action.contains("start") {
                    self.paused = false;
                }
            }
            Event::FlagFell { side, .. } => self.flag = Some(side.to_string()),
            Event::Discrepancy { id, .. } if !self.discrepancies.contains(id) => self.discrepancies.push(*id),
            Event::DiscrepancyResolved { id, .. } => self.discrepancies.retain(|d| d != id),
            Event::DeviceStatus { device, status, .. } => {
                self.devices.insert(device.clone(), status.to_string());
            }
            Event::BoardStatus { board, status, .. } => {
                let status = serde_json::to_value(status).ok().and_then(|v| v.as_str().map(str::to_owned));
                self.devices.insert(format!("{board} board"), status.unwrap_or_default());
            }
            _ => {}
        }
    }

    /// The record follows the event; what the hall page shows of it is kept
    /// beside it (moves in SAN, the result, an adjournment).
    fn fold_record(&mut self, event: &Event) {
        let game_id = self.game_id.clone().unwrap_or_default();
        let record = self.record.get_or_insert_with(|| match &self.header {
            Some(h) => GameRecord::started(game_id, h.fen.clone(), h.tags.clone(), h.started_ms, &h.moves),
            None => GameRecord::new(game_id, station_core::Game::default().fen(), Default::default(), 0),
        });
        record.apply(event);
        self.moves = record.moves.iter().map(|m| m.san.clone()).collect();
        self.result = record.end.as_ref().map(|e| e.result.clone());
        self.result_reason = record.end.as_ref().map(|e| e.reason.clone());
        self.adjourned = record.adjourned;
    }

    /// The game's header arrived (its journal's first line): the record starts from it.
    pub fn set_header(&mut self, header: GameHeader) {
        let game_id = self.game_id.clone().unwrap_or_default();
        if self.record.as_ref().is_none_or(|r| r.moves.is_empty() && r.game_id == game_id) {
            self.record = Some(GameRecord::started(
                game_id,
                header.fen.clone(),
                header.tags.clone(),
                header.started_ms,
                &header.moves,
            ));
        }
        self.header = Some(header);
    }

    /// The move number of the next move.
    pub fn move_number(&self) -> usize {
        self.moves.len() / 2 + 1
    }

    /// A short word for the hall table.
    pub fn phase(&self) -> &'static str {
        if self.result.is_some() {
            "finished"
        } else if self.adjourned {
            "adjourned"
        } else if !self.discrepancies.is_empty() {
            "discrepancy"
        } else if self.game_id.is_some() {
            "playing"
        } else {
            "waiting"
        }
    }

    /// The game as PGN (tags from the header, `*` while it goes on); `None`
    /// before a game or when a move does not fit the position.
    pub fn pgn(&self) -> Option<String> {
        self.header.as_ref()?;
        let record = self.record.as_ref()?;
        record.pgn(None).or_else(|| station_app::pdn::pdn_of_record(record))
    }
}
