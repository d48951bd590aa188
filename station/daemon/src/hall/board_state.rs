//! A board's state as the hall sees it, folded from its events in sequence
//! order: the station publishes it (retained) and the hall view folds the
//! same events, so both agree.

use super::wire::GameHeader;
use serde::{Deserialize, Serialize};
use station_core::Event;
use station_core::clock::Side;
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
    /// The agreed moves (SAN).
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
            Event::GameResumed { game_id, moves, .. } => {
                if self.game_id.as_deref() != Some(game_id) {
                    self.start_game(game_id);
                }
                // The resumed record is in UCI: SAN for the hall, from the start position.
                let fen = self.header.as_ref().map(|h| h.fen.clone());
                let mut game = match fen.as_deref().map(station_core::Game::from_fen) {
                    Some(Ok(g)) => g,
                    _ => station_core::Game::default(),
                };
                self.moves =
                    moves.iter().map_while(|uci| game.push_uci(uci).map(|san| san.to_string())).collect();
            }
            Event::GameMove { ply, san, .. } => {
                self.moves.truncate(ply.saturating_sub(1));
                self.moves.push(san.clone());
            }
            Event::TakenBack { ply, .. } => self.moves.truncate(*ply),
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
                self.devices.insert(device.clone(), status.clone());
            }
            Event::BoardStatus { board, status, .. } => {
                let status = serde_json::to_value(status).ok().and_then(|v| v.as_str().map(str::to_owned));
                self.devices.insert(format!("{board} board"), status.unwrap_or_default());
            }
            Event::Adjourned { .. } => self.adjourned = true,
            Event::AdjournmentResumed { .. } => self.adjourned = false,
            Event::GameOver { result, reason, .. } => {
                self.result = Some(result.clone());
                self.result_reason = Some(reason.clone());
            }
            _ => {}
        }
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
        let header = self.header.as_ref()?;
        let mut game = station_core::Game::from_fen(&header.fen).ok()?;
        for san in &self.moves {
            let san: shakmaty::san::San = san.trim_end_matches(['+', '#']).parse().ok()?;
            let mv = san.to_move(game.position()).ok()?;
            game.push(mv);
        }
        let result = self.result.as_deref().unwrap_or("*");
        Some(station_core::pgn::write_pgn(&game, &header.tags, result))
    }
}
