//! The wiring: driver events in, the core session in the middle, the journal
//! and the event stream out. No rules live here.

use crate::clock::{StationClock, pgn_date};
use crate::config::Config;
use crate::event_sink::EventSink;
use crate::journal_file::{JournalDir, JournalWriter};
use anyhow::Result;
use shakmaty::{Bitboard, Role};
use station_core::event::LinkStatus;
use station_core::journal::{self, Header, Input, occ_hex};
use station_core::occupancy::Orientation;
use station_core::table::{Table, TableConfig};
use station_core::{BoardRole, Event, Game, Millis};
use station_drivers::pegboard::{BoardMessage, DriverEvent};
use std::time::Duration;

/// The station: the table (both boards), the journal, the event stream.
pub struct Station {
    config: Config,
    orientation: [Orientation; 2],
    table: Table,
    journals: JournalDir,
    journal: Option<JournalWriter>,
    sink: EventSink,
    clock: StationClock,
    last_scan: [Option<Bitboard>; 2],
    observers: Vec<Box<dyn FnMut(&Event)>>,
}

impl Station {
    /// Starts the station, resuming the newest unfinished game in the journal directory.
    pub fn start(config: Config, journals: JournalDir, sink: EventSink) -> Result<Self> {
        let flipped = |b: &Option<crate::config::BoardConfig>| {
            Orientation::from_flipped(b.as_ref().is_some_and(|b| b.flipped))
        };
        let start = match &config.game.start_fen {
            Some(fen) => Game::from_fen(fen)?,
            None => Game::default(),
        };
        let table = Table::new(TableConfig {
            tracker: config.tracker(),
            start,
            blind_color: config.blind_color(),
            mirror_sensed: config.mirror_sensed(),
            grace_ms: config.game.grace_ms,
        });
        let mut station = Station {
            orientation: [flipped(&config.boards.blind), flipped(&config.boards.mirror)],
            config,
            table,
            journals,
            journal: None,
            sink,
            clock: StationClock::new(),
            last_scan: [None, None],
            observers: Vec::new(),
        };
        station.resume()?;
        Ok(station)
    }

    /// Calls `f` with every event as it is emitted (the demo prints them).
    pub fn observe(&mut self, f: impl FnMut(&Event) + 'static) {
        self.observers.push(Box::new(f));
    }

    fn resume(&mut self) -> Result<()> {
        let Some(found) = self.journals.newest_unfinished()? else { return Ok(()) };
        let restored = journal::restore(&found.contents)?;
        if !restored.reproduced {
            tracing::warn!(path = %found.path.display(), "journal inputs did not reproduce the record; the recorded moves were kept");
        }
        self.table = restored.table;
        self.clock.not_before(found.contents.last_t_ms());
        self.journal = Some(JournalWriter::reopen(&found)?);
        let t = self.clock.now();
        let game = self.table.agreed().expect("a restored table has a game");
        let resumed = Event::GameResumed {
            game_id: found.contents.header.game_id.clone(),
            ply: game.ply(),
            moves: game.moves().iter().map(|m| game.uci(*m)).collect(),
            t_ms: t,
        };
        tracing::info!(path = %found.path.display(), ply = game.ply(), "resumed unfinished game");
        self.commit(vec![resumed])?;
        self.tick()
    }

    /// How long the loop may wait for the driver before the session needs a tick.
    pub fn timeout(&self) -> Duration {
        let now = self.clock.now();
        let wait = self.table.deadline().map_or(250, |d| d.saturating_sub(now).min(250));
        Duration::from_millis(wait)
    }

    /// Lets the session judge whatever has settled.
    pub fn tick(&mut self) -> Result<()> {
        self.tick_at(self.clock.now())
    }

    /// A tick that decided something is journaled as an input, so a restore
    /// takes the same decisions at the same moments.
    fn tick_at(&mut self, t: Millis) -> Result<()> {
        let mut events = Vec::new();
        self.table.tick(t, &mut events);
        if !events.is_empty() {
            self.record(t, Input::Tick);
        }
        self.commit(events)
    }

    /// Handles one driver event of a board.
    pub fn handle(&mut self, board: BoardRole, event: DriverEvent) -> Result<()> {
        let t = self.clock.now();
        let s = slot(board);
        // Whatever settled before this event is decided (and journaled) first.
        self.tick_at(t)?;
        let mut events = Vec::new();
        match event {
            DriverEvent::Message(BoardMessage::Scan(raw)) => {
                let occ = self.orientation[s].to_standard(raw);
                if self.last_scan[s] != Some(occ) {
                    self.last_scan[s] = Some(occ);
                    self.record(t, Input::Scan { board, occ: occ_hex(occ) });
                }
                self.table.on_scan(board, t, occ, &mut events);
            }
            DriverEvent::Message(BoardMessage::Button { index, pressed }) => {
                self.record(t, Input::Button { board, button: index, pressed });
                events.push(Event::Button { board, button: index, pressed, t_ms: t });
            }
            DriverEvent::Message(BoardMessage::Identity(text)) => {
                events.push(Event::BoardIdentity { board, text, t_ms: t });
            }
            DriverEvent::Message(BoardMessage::Fault(text)) => {
                events.push(Event::BoardFault { board, text, t_ms: t });
            }
            DriverEvent::Connected => {
                self.record(t, Input::Link { board, status: LinkStatus::Connected });
                events.push(Event::BoardStatus {
                    board,
                    status: LinkStatus::Connected,
                    detail: None,
                    t_ms: t,
                });
            }
            DriverEvent::Disconnected { reason } => {
                self.last_scan[s] = None;
                self.record(t, Input::Link { board, status: LinkStatus::Disconnected });
                events.push(Event::BoardStatus {
                    board,
                    status: LinkStatus::Disconnected,
                    detail: Some(reason),
                    t_ms: t,
                });
            }
            DriverEvent::Dropped { error, total } => {
                events.push(Event::LineDropped { board, reason: error.to_string(), total, t_ms: t });
            }
        }
        self.commit(events)
    }

    fn record(&mut self, t: Millis, input: Input) {
        if let Some(j) = self.journal.as_mut() {
            j.input(t, input);
        }
    }

    /// Journals the events (opening and closing game journals as games start
    /// and end), makes them durable, and only then publishes them.
    fn commit(&mut self, events: Vec<Event>) -> Result<()> {
        for e in &events {
            if let Event::GameStarted { game_id, fen, t_ms } = e {
                self.open_journal(game_id, fen, *t_ms)?;
            }
            if let Some(j) = self.journal.as_mut() {
                j.event(e);
            }
            if let Event::GameOver { result, t_ms, .. } = e {
                if let Some(mut j) = self.journal.take() {
                    j.end(*t_ms, result);
                    j.sync()?;
                }
            }
        }
        if let Some(j) = self.journal.as_mut() {
            j.sync()?;
        }
        for e in &events {
            for f in &mut self.observers {
                f(e);
            }
        }
        self.sink.write(&events)
    }

    fn open_journal(&mut self, game_id: &str, fen: &str, t_ms: Millis) -> Result<()> {
        let tracker = self.table.tracker(BoardRole::Blind).expect("a started game has a tracker");
        let cfg = tracker.config();
        let table = self.table.config();
        let header = Header {
            format: journal::FORMAT.into(),
            version: journal::VERSION,
            game_id: game_id.to_owned(),
            fen: fen.to_owned(),
            t_ms,
            board: BoardRole::Blind,
            occupancy: occ_hex(tracker.sensed()),
            mirror_occupancy: self.table.tracker(BoardRole::Mirror).map(|m| occ_hex(m.sensed())),
            blind_color: if table.blind_color == shakmaty::Color::White { "white" } else { "black" }.into(),
            grace_ms: table.grace_ms,
            settle_ms: cfg.settle_ms,
            debounce_ms: cfg.debounce_ms,
            promotion: Role::char(cfg.promotion),
            tags: self.config.seven_tags(pgn_date(t_ms)),
        };
        tracing::info!(game_id, "new game");
        self.journal = Some(self.journals.create(header)?);
        Ok(())
    }
}

fn slot(role: BoardRole) -> usize {
    match role {
        BoardRole::Blind => 0,
        BoardRole::Mirror => 1,
    }
}
