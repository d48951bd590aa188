//! The hall view's knowledge: every board's games folded from the messages,
//! de-duplicated by sequence number; alerts for the arbiter; what was
//! dropped and why. No I/O here: `server` feeds it and reads it.

use super::board_state::{BoardState, device_lost};
use super::wire::{EventMessage, GameHeader, MAX_PAYLOAD, StatusMessage};
use serde::Serialize;
use serde_json::{Value, json};
use station_core::Event;
use std::collections::BTreeMap;

/// An alert for the arbiter.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Alert {
    /// Its number in the hall (for acknowledging).
    pub id: u64,
    /// The board.
    pub board: String,
    /// `discrepancy`, `flag fall`, `call arbiter`, `device lost` or `station gone`.
    pub kind: String,
    /// One sentence for the page.
    pub text: String,
    /// The arbiter has seen it.
    pub acknowledged: bool,
}

/// One game of one board as received.
#[derive(Default)]
struct GameLog {
    header: Option<GameHeader>,
    events: BTreeMap<u64, Event>,
    /// The events folded in sequence order.
    folded: BoardState,
    /// The newest retained state of this game.
    retained: Option<BoardState>,
}

#[derive(Default)]
struct HallBoard {
    games: BTreeMap<String, GameLog>,
    current: Option<String>,
    online: Option<bool>,
    /// Device statuses and the console outside any game.
    loose: BoardState,
}

/// Everything the hall view knows.
pub struct Hall {
    name: String,
    boards: BTreeMap<String, HallBoard>,
    alerts: Vec<Alert>,
    /// Dropped messages by reason.
    dropped: BTreeMap<String, u64>,
    /// Events received twice (dropped by sequence number).
    duplicates: u64,
    /// Messages taken.
    received: u64,
    /// Decision → hall view, in ms, of each move's first arrival (the last `LATENCY_KEEP`).
    latencies: std::collections::VecDeque<u64>,
    /// The time of the message being taken.
    now_ms: Option<u64>,
}

/// How many move latencies are kept for the percentiles.
const LATENCY_KEEP: usize = 100_000;

impl Hall {
    /// An empty hall named `name`.
    pub fn new(name: &str) -> Self {
        Hall {
            name: name.to_owned(),
            boards: BTreeMap::new(),
            alerts: Vec::new(),
            dropped: BTreeMap::new(),
            duplicates: 0,
            received: 0,
            latencies: std::collections::VecDeque::new(),
            now_ms: None,
        }
    }

    /// Takes one message; a refused one is counted under its reason, which is returned.
    #[cfg(test)]
    pub fn on_message(&mut self, topic: &str, payload: &[u8]) -> Result<(), String> {
        self.on_message_at(topic, payload, None)
    }

    /// `on_message` (the tests') at wall-clock `now_ms` (Unix ms, the
    /// stations' clock): a move's first arrival is timed from its decision.
    pub fn on_message_at(&mut self, topic: &str, payload: &[u8], now_ms: Option<u64>) -> Result<(), String> {
        self.now_ms = now_ms;
        let result = self.take(topic, payload);
        match &result {
            Ok(()) => self.received += 1,
            Err(reason) => {
                let key = reason.split(':').next().unwrap_or(reason).to_owned();
                *self.dropped.entry(key).or_default() += 1;
            }
        }
        result
    }

    fn take(&mut self, topic: &str, payload: &[u8]) -> Result<(), String> {
        if payload.len() > MAX_PAYLOAD {
            return Err(format!("oversized: {} bytes on {topic}", payload.len()));
        }
        if topic == super::replay_topic(&self.name) {
            return Ok(()); // this view's own request for a replay
        }
        let parts: Vec<&str> = topic.split('/').collect();
        let [root, hall, board, kind] = parts[..] else {
            return Err(format!("unknown topic: {topic}"));
        };
        if root != "annexd" || hall != self.name {
            return Err(format!("unknown topic: {topic}"));
        }
        match kind {
            "event" => {
                let msg: EventMessage =
                    serde_json::from_slice(payload).map_err(|e| format!("malformed: {topic}: {e}"))?;
                if msg.board != board || msg.hall != hall {
                    return Err(format!("forged: board `{}` of hall `{}` on {topic}", msg.board, msg.hall));
                }
                self.take_event(board, msg)
            }
            "state" => {
                if payload.is_empty() {
                    return Ok(()); // a cleared retained message
                }
                let state: BoardState =
                    serde_json::from_slice(payload).map_err(|e| format!("malformed: {topic}: {e}"))?;
                if state.board != board {
                    return Err(format!("forged: state of board `{}` on {topic}", state.board));
                }
                self.take_state(board, state)
            }
            "status" => {
                if payload.is_empty() {
                    return Ok(());
                }
                let status: StatusMessage =
                    serde_json::from_slice(payload).map_err(|e| format!("malformed: {topic}: {e}"))?;
                if status.board != board {
                    return Err(format!("forged: status of board `{}` on {topic}", status.board));
                }
                let b = self.boards.entry(board.to_owned()).or_default();
                let was = b.online;
                b.online = Some(status.online);
                if !status.online && was != Some(false) {
                    self.alert(board, "station gone", format!("Board {board}: the station is gone"));
                }
                Ok(())
            }
            _ => Err(format!("unknown topic: {topic}")),
        }
    }

    fn take_event(&mut self, board: &str, msg: EventMessage) -> Result<(), String> {
        let Some(game) = msg.game_id else {
            // Device news between games: shown, not journaled.
            if let Some(event) = &msg.event {
                let alert = alert_of(board, event);
                self.boards.entry(board.to_owned()).or_default().loose.apply(None, event);
                if let Some((kind, text)) = alert {
                    self.alert(board, kind, text);
                }
            }
            return Ok(());
        };
        let seq =
            msg.seq.ok_or_else(|| format!("malformed: an event of game {game} without a sequence number"))?;
        let b = self.boards.entry(board.to_owned()).or_default();
        if let Some(header) = msg.header {
            if seq != 0 {
                return Err(format!("malformed: a header with sequence number {seq}"));
            }
            if let Some(older) = older_game(b, &game, header.started_ms) {
                return Err(format!("older game: {game} started before {older} on board {board}"));
            }
            let log = b.games.entry(game.clone()).or_default();
            log.folded.game_id = Some(game.clone());
            if log.header.is_some() {
                self.duplicates += 1;
                return Ok(());
            }
            log.header = Some(header.clone());
            log.folded.set_header(header);
            b.current = Some(game);
            return Ok(());
        }
        let event = msg.event.ok_or_else(|| format!("malformed: sequence number {seq} without an event"))?;
        if b.current.as_deref() != Some(game.as_str()) {
            let known = b.games.get(&game).and_then(|g| g.header.as_ref()).map(|h| h.started_ms);
            match (&b.current, known) {
                // The current game's header came first: this is an older game's news.
                (Some(current), None) if b.games.get(current).is_some_and(|g| g.header.is_some()) => {
                    b.games.entry(game.clone()).or_default();
                }
                (None, _) => b.current = Some(game.clone()),
                _ => {}
            }
        }
        let current = b.current.as_deref() == Some(game.as_str());
        let log = b.games.entry(game.clone()).or_default();
        log.folded.game_id = Some(game.clone());
        if log.events.contains_key(&seq) {
            self.duplicates += 1;
            return Ok(());
        }
        if let (Event::GameMove { t_ms, .. }, Some(now)) = (&event, self.now_ms) {
            if self.latencies.len() == LATENCY_KEEP {
                self.latencies.pop_front();
            }
            self.latencies.push_back(now.saturating_sub(*t_ms));
        }
        let newest = log.events.keys().next_back().is_none_or(|last| seq > *last);
        log.events.insert(seq, event.clone());
        if newest {
            log.folded.apply(Some(seq), &event);
        } else {
            // Out of order (a replay after a partition): fold again from the start.
            let mut folded = BoardState::new(board);
            folded.game_id = Some(game.clone());
            if let Some(h) = log.header.clone() {
                folded.set_header(h);
            }
            for (s, e) in &log.events {
                folded.apply(Some(*s), e);
            }
            log.folded = folded;
        }
        log.folded.board = board.to_owned();
        if current && let Some((kind, text)) = alert_of(board, &event) {
            self.alert(board, kind, text);
        }
        Ok(())
    }

    fn take_state(&mut self, board: &str, state: BoardState) -> Result<(), String> {
        let b = self.boards.entry(board.to_owned()).or_default();
        b.loose.console = state.console.clone().or(b.loose.console.take());
        let Some(game) = state.game_id.clone() else {
            b.loose.devices = state.devices.clone();
            return Ok(());
        };
        let started = state.header.as_ref().map(|h| h.started_ms).unwrap_or(0);
        if let Some(older) = older_game(b, &game, started) {
            return Err(format!("older game: retained state of {game} (before {older}) on board {board}"));
        }
        let log = b.games.entry(game.clone()).or_default();
        if log.header.is_none() {
            log.header = state.header.clone();
            if let Some(h) = state.header.clone() {
                log.folded.set_header(h);
            }
        }
        if log.retained.as_ref().is_none_or(|r| r.seq <= state.seq) {
            log.retained = Some(state);
        }
        if b.current.as_deref() != Some(game.as_str()) {
            b.current = Some(game);
        }
        Ok(())
    }

    fn alert(&mut self, board: &str, kind: &str, text: String) {
        let id = self.alerts.len() as u64 + 1;
        tracing::info!(board, kind, "hall: alert");
        self.alerts.push(Alert {
            id,
            board: board.to_owned(),
            kind: kind.to_owned(),
            text,
            acknowledged: false,
        });
    }

    /// The arbiter has seen alert `id`; false when there is none.
    pub fn acknowledge(&mut self, id: u64) -> bool {
        match self.alerts.iter_mut().find(|a| a.id == id) {
            Some(a) => {
                a.acknowledged = true;
                true
            }
            None => false,
        }
    }

    /// A board's state as best known: the folded events, or the retained
    /// state when it is further along.
    fn state_of(&self, board: &str) -> Option<BoardState> {
        let b = self.boards.get(board)?;
        let mut state = match b.current.as_ref().and_then(|c| b.games.get(c)) {
            Some(log) => match &log.retained {
                // The station's own fold is complete; events may have been
                // missed while this view was not subscribed (a broker restart).
                Some(r) if r.seq >= log.folded.seq || log.events.is_empty() => {
                    let mut r = r.clone();
                    if r.header.is_none() {
                        r.header = log.header.clone();
                    }
                    r
                }
                _ => log.folded.clone(),
            },
            None => b.loose.clone(),
        };
        state.board = board.to_owned();
        for (k, v) in &b.loose.devices {
            state.devices.entry(k.clone()).or_insert_with(|| v.clone());
        }
        if state.console.is_none() {
            state.console = b.loose.console.clone();
        }
        Some(state)
    }

    /// How many moves the board's current game has from its events alone
    /// (without the retained state): shows that nothing was lost on the way.
    fn event_moves(&self, board: &str) -> usize {
        let b = self.boards.get(board);
        b.and_then(|b| b.current.as_ref().and_then(|c| b.games.get(c))).map_or(0, |g| g.folded.moves.len())
    }

    /// Board names, numbers in numeric order.
    fn board_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.boards.keys().cloned().collect();
        names.sort_by_key(|n| (n.parse::<u64>().unwrap_or(u64::MAX), n.clone()));
        names
    }

    /// Every board's live game in one PGN, board by board.
    pub fn pgn(&self) -> String {
        let mut out = String::new();
        for name in self.board_names() {
            if let Some(pgn) = self.state_of(&name).and_then(|s| s.pgn()) {
                out.push_str(&pgn);
            }
        }
        out
    }

    /// `/api/hall`.
    pub fn json(&self) -> Value {
        let boards: Vec<Value> = self
            .board_names()
            .iter()
            .filter_map(|name| {
                let s = self.state_of(name)?;
                let online = self.boards.get(name).and_then(|b| b.online);
                let tags = s.header.as_ref().map(|h| &h.tags);
                Some(json!({
                    "board": name,
                    "online": online,
                    "game_id": s.game_id,
                    "white": tags.map(|t| t.white.clone()),
                    "black": tags.map(|t| t.black.clone()),
                    "move_number": s.move_number(),
                    "moves": s.moves,
                    "white_ms": s.white_ms,
                    "black_ms": s.black_ms,
                    "phase": s.phase(),
                    "result": s.result,
                    "flag": s.flag,
                    "discrepancies": s.discrepancies,
                    "devices": s.devices,
                    "console": s.console,
                    "seq": s.seq,
                    "event_moves": self.event_moves(name),
                }))
            })
            .collect();
        json!({
            "hall": self.name,
            "boards": boards,
            "alerts": self.alerts,
            "dropped": self.dropped,
            "duplicates": self.duplicates,
            "received": self.received,
            "latency_ms": self.latency(),
        })
    }

    /// Percentiles of decision → hall view for moves.
    fn latency(&self) -> Value {
        let mut l: Vec<u64> = self.latencies.iter().copied().collect();
        l.sort_unstable();
        let at = |p: f64| l.get(((l.len() as f64 * p).ceil() as usize).saturating_sub(1)).copied();
        json!({"moves": l.len(), "p50": at(0.5), "p99": at(0.99), "max": l.last()})
    }
}

/// Whether `game` (started at `started_ms`) is older than the board's current game.
fn older_game(b: &HallBoard, game: &str, started_ms: u64) -> Option<String> {
    let current = b.current.as_ref()?;
    if current == game {
        return None;
    }
    let log = b.games.get(current)?;
    let current_start = log.header.as_ref().map(|h| h.started_ms)?;
    (started_ms < current_start || (started_ms == current_start && game < current.as_str()))
        .then(|| current.clone())
}

/// The alert an event raises, if any.
fn alert_of(board: &str, event: &Event) -> Option<(&'static str, String)> {
    match event {
        Event::Discrepancy { id, agreed_ply, .. } => {
            Some(("discrepancy", format!("Board {board}: discrepancy {id} after ply {agreed_ply}")))
        }
        Event::FlagFell { side, .. } => Some(("flag fall", format!("Board {board}: {side}'s flag fell"))),
        Event::ClockChanged { action, .. } if action.contains("pause") => {
            Some(("call arbiter", format!("Board {board}: clocks paused, the arbiter is called")))
        }
        Event::DeviceStatus { device, status, .. } if device_lost(status.as_str()) => {
            Some(("device lost", format!("Board {board}: {device} {status}")))
        }
        Event::BoardStatus { board: role, status: station_core::event::LinkStatus::Disconnected, .. } => {
            Some(("device lost", format!("Board {board}: the {role} board is disconnected")))
        }
        _ => None,
    }
}
