//! The wiring: driver events and operator commands in, the core table in the
//! middle, the journal, the voices, the event stream and the web hub out.
//! No rules live here.

use crate::braille_display::{BrailleMoves, BrailleOut};
use crate::clock::{StationClock, pgn_date};
use crate::config::Action;
use crate::config::{ClockSource, Config, DgtDisplay};
use crate::delivery::{Delivered, HubEvents, Observer, Pending, Subscriber, VoicesHandle};
use crate::event_sink::EventSink;
use crate::hub::{Command, CommandRequest, Hub};
use crate::journal_file::{Durable, Journal, JournalDir, WriterOptions};
use crate::listening::{Heard, Listening};
use crate::record_reading::RecordReading;
use crate::speaking::Voices;
use crate::speech_state::{SpeechState, state_path};
use anyhow::{Context, Result};
use board_link::BoardLink;
use crossbeam_channel::Receiver;
use serde_json::{Value, json};
use shakmaty::{Bitboard, Chess, Position};
use station_core::clock::Side;
use station_core::clock::{ClockReading, ClockWatch, WatchChange};
use station_core::event::LinkStatus;
use station_core::journal::{self, Header, Input};
use station_core::occupancy::Orientation;
use station_core::role::ByBoard;
use station_core::table::ClockCommand;
use station_core::table::{Table, TableConfig, TableError};
use station_core::{BoardRole, Event, Game, Millis};
use station_drivers::braille::{BrailleDisplay, BrailleEvent, Key as BrailleKey};
use station_drivers::dgt::{BwTime, ClockRun, DgtCommands, DgtEvent, DgtMessage, HostCommand};
use station_drivers::gamepad::GamepadEvent;
use station_drivers::pegboard::{BoardMessage, DriverEvent};
use station_drivers::stamp::Stamped;
use station_voices::understand::{Command as SpokenCommand, RecordStep, Understanding, Understood};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// A question the blind player answers with yes or no.
enum Asked {
    /// "Springer Felix drei?": this move, in the position (FEN) it was asked in.
    Move { fen: String, mv: shakmaty::Move },
    /// "Remis?": he offers a draw.
    DrawOffer,
    /// "Ich gebe auf?": he resigns.
    Resign,
    /// Draughts moves (PDN) asked about in the position (PDN FEN) they fit:
    /// one answered with yes, several with the choice's number.
    Draughts { fen: String, moves: Vec<String>, question: String },
}

/// How many recent events the console's log shows.
const LOG_LEN: usize = 100;

/// An operator command's answer, sent once what it decided is out.
struct Reply {
    to: crossbeam_channel::Sender<Result<Value, String>>,
    answer: Result<Value, String>,
}

/// Figures of the decision pipeline, for the log and `station bench`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipelineStats {
    /// Journal batches made durable.
    pub batches: u64,
    /// The longest write + fsync of one batch.
    pub longest_sync: Duration,
    /// The sum of all batches' write + fsync time.
    pub total_sync: Duration,
    /// The longest time the loop spent on one turn (it takes no input meanwhile).
    pub longest_turn: Duration,
    /// Inputs the table refused (journaled with their reason).
    pub refused: u64,
}

/// The station: the table (both boards), the journal, the event stream.
pub struct Station {
    config: Config,
    /// Each board's serial link: orientation, last scan, drops, connected.
    links: ByBoard<BoardLink>,
    table: Table,
    journals: JournalDir,
    /// The journal writer (its own thread, group commit).
    journal: Journal,
    clock: StationClock,
    /// Who hears of durable events: the event stream, the console's live
    /// feed, the demo's printer (the voices come first, on their own).
    subscribers: Vec<Box<dyn Subscriber>>,
    voices: Option<VoicesHandle>,
    /// The blind player's Braille display (`[braille]`), when enabled.
    braille: Option<BrailleOut>,
    /// Where the blind player is in the record and which rank or file a button reads next.
    reading: RecordReading,
    hub: Option<Hub>,
    /// Events decided in this turn of the loop, not yet committed.
    decided: Vec<Delivered>,
    /// Committed batches waiting for the disk, oldest first.
    pending: Pending,
    /// The journal could not be written (told once).
    journal_failed: bool,
    /// Operator commands whose answer waits for the next batch.
    unanswered: Vec<Reply>,
    /// Answers waiting for their batch (by ticket) to be durable and delivered.
    answers: Vec<(u64, Reply)>,
    /// Figures of the pipeline: the longest fsync batch and loop stall.
    pub stats: PipelineStats,
    log: VecDeque<Event>,
    discrepancies: Vec<Event>,
    /// Sets the DGT clock when a game starts (clock source `dgt`).
    dgt_clock: Option<DgtCommands>,
    /// Whether the DGT clock still answers (clock source `dgt`).
    clock_watch: Option<ClockWatch>,
    /// The last DGT clock reading given to the table (only changes are).
    last_reading: Option<ClockReading>,
    /// A game started while the DGT board was away: its clock is set when the
    /// board connects, unless a move has been made by then.
    dgt_clock_pending: bool,
    /// The DGT master clock's setup, link reports and bonus check.
    dgt: crate::dgt_clock::DgtClock,
    /// A simulated gamepad's events, in place of gilrs (tests).
    gamepad_feed: Option<Receiver<Stamped<GamepadEvent>>>,
    /// Speech input: the listening thread, the understanding of the blind
    /// player's language, and the position whose grammar it listens with.
    listening: Option<Listening>,
    understanding: Option<Understanding>,
    grammar_fen: Option<String>,
    /// What the blind player was asked to confirm with yes.
    asked: Option<Asked>,
    /// The recording device of D.2.7 (`[speech] keep_audio`).
    audio_keeper: Option<crate::kept_audio::AudioKeeper>,
    /// The sound of the last spoken move not yet accepted (asked back: "Ja" accepts it).
    spoken_audio: Option<Vec<i16>>,
    /// The reason the recording failed, as last told (told once, again when it changes).
    audio_failed: Option<String>,
    /// The engine playing the sighted side (`[opponent]`, issue 26).
    opponent: Option<crate::opponent::Opponent>,
}

impl Station {
    /// Starts the station, resuming the newest unfinished game in the journal directory.
    pub fn start(config: Config, journals: JournalDir, sink: EventSink) -> Result<Self> {
        Self::start_with(config, journals, sink, WriterOptions::default())
    }

    /// [`start`](Self::start) with the journal writer's test knobs (a slow disk).
    pub fn start_with(
        config: Config,
        journals: JournalDir,
        sink: EventSink,
        writer: WriterOptions,
    ) -> Result<Self> {
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
            mirror_pieces: config.mirror_pieces(),
            grace_ms: config.game.grace_ms,
            time_control: config.time_control(),
            clock_auto_start: config.clock.auto_start,
            clock_auto_press: config.clock.auto_press,
            warnings: config.clock.warnings.clone(),
            announcement_required: config.speech.enabled,
            external_clock: config.clock.source == ClockSource::Dgt,
            blind_unsensed: config.blind_unsensed(),
            opponent_entered: config.opponent.is_some(),
            tags: config.seven_tags(pgn_date(StationClock::new().now())),
        });
        // The rules seam: a draughts table reads the boards' scans and the entered moves as draughts.
        let table = match config.game.rules {
            crate::config::GameRules::Chess => table,
            crate::config::GameRules::Draughts => {
                table.with_draughts(station_core::draughts::Variant::International)
            }
            crate::config::GameRules::Draughts64 => {
                table.with_draughts(station_core::draughts::Variant::Draughts64)
            }
        };
        let clock_watch =
            (config.clock.source == ClockSource::Dgt).then(|| ClockWatch::new(config.clock.dgt_silent_ms));
        let mut station = Station {
            links: ByBoard::new(
                BoardLink::new(flipped(&config.boards.blind)),
                BoardLink::new(flipped(&config.boards.mirror)),
            ),
            config,
            table,
            journals,
            journal: Journal::start(writer)?,
            clock: StationClock::new(),
            subscribers: vec![Box::new(sink)],
            voices: None,
            braille: None,
            reading: RecordReading::new(),
            hub: None,
            decided: Vec::new(),
            pending: Pending::default(),
            journal_failed: false,
            unanswered: Vec::new(),
            answers: Vec::new(),
            stats: PipelineStats::default(),
            log: VecDeque::with_capacity(LOG_LEN),
            discrepancies: Vec::new(),
            dgt_clock: None,
            clock_watch,
            last_reading: None,
            dgt_clock_pending: false,
            dgt: crate::dgt_clock::DgtClock::new(),
            gamepad_feed: None,
            listening: None,
            understanding: None,
            grammar_fen: None,
            asked: None,
            audio_keeper: None,
            spoken_audio: None,
            audio_failed: None,
            opponent: None,
        };
        if station.config.speech.keep_audio {
            crate::kept_audio::prune_orphans(station.journals.path());
            station.audio_keeper = Some(crate::kept_audio::AudioKeeper::new(
                station.journals.path(),
                station.config.speech.keep_audio_max_mb,
            ));
        }
        station.resume()?;
        Ok(station)
    }

    /// Speaks through the configured listeners from now on.
    pub fn enable_voices(&mut self) -> Result<()> {
        let voices = Voices::start(&self.config)?;
        // The rate he chose before a restart (see `speech_state`).
        let mut voices = voices;
        let state = SpeechState::load(&state_path(self.journals.path()));
        voices.set_rate(state.rate_percent);
        if let Some(reading) = state.clock_reading {
            voices.set_clock_reading(reading);
        }
        self.voices = Some(VoicesHandle::new(voices));
        Ok(())
    }

    /// "Zeit verbraucht" / "Restzeit" / the `clock_reading` button (`None`:
    /// the other one): the clock reads that from now on, kept across
    /// restarts, and says the time at once.
    fn change_clock_reading(
        &mut self,
        reading: Option<station_voices::ClockReading>,
        t: Millis,
        events: &mut Vec<Event>,
    ) {
        let Some(v) = self.voices.as_ref() else { return };
        let reading = reading.unwrap_or_else(|| v.get().clock_reading().other());
        v.get_mut().set_clock_reading(reading);
        let path = state_path(self.journals.path());
        let state = SpeechState { clock_reading: Some(reading), ..SpeechState::load(&path) };
        if let Err(e) = state.save(&path) {
            // A full disk loses the preference, never the game.
            tracing::warn!(path = %path.display(), "clock reading not kept: {e}");
        }
        events.push(Event::Announcement {
            listener: "log".into(),
            text: format!("clock reading {}", reading.name()),
            about: "clock_reading".into(),
            t_ms: t,
        });
        v.get().say_time(&self.table, t, events);
    }

    /// "schneller" / "langsamer": one step, kept across restarts.
    fn change_rate(&mut self, faster: bool, t: Millis, events: &mut Vec<Event>) -> Option<u32> {
        let v = self.voices.as_ref()?;
        let path = state_path(self.journals.path());
        let state = SpeechState::load(&path).step(faster);
        let rate = v.get().set_rate(state.rate_percent);
        if let Err(e) = state.save(&path) {
            // A full disk loses the preference, never the game.
            tracing::warn!(path = %path.display(), "speaking rate not kept: {e}");
        }
        events.push(Event::Announcement {
            listener: "log".into(),
            text: format!("speaking rate {rate} percent"),
            about: "rate".into(),
            t_ms: t,
        });
        Some(rate)
    }

    /// Publishes state and events to the web hub from now on.
    pub fn attach_hub(&mut self, hub: Hub) {
        self.subscribers.push(Box::new(HubEvents(hub.clone())));
        self.hub = Some(hub);
        self.publish_state();
    }

    /// The DGT board's command queue: with clock source `dgt`, the DGT clock is
    /// set through it (SetNRun) when a game starts.
    pub fn attach_dgt_clock(&mut self, commands: DgtCommands) {
        self.dgt_clock = Some(commands);
    }

    /// Takes gamepad events from `feed` (a simulated pad) instead of gilrs.
    #[cfg(test)]
    pub fn use_gamepad_feed(&mut self, feed: Receiver<Stamped<GamepadEvent>>) {
        self.gamepad_feed = Some(feed);
    }

    /// The simulated gamepad's events, when one is used instead of gilrs.
    pub fn gamepad_feed(&self) -> Option<Receiver<Stamped<GamepadEvent>>> {
        self.gamepad_feed.clone()
    }

    /// Shows the game on a Braille display from now on: the moves once
    /// durable, the clocks on its keys; its routing keys are buttons.
    pub fn attach_braille(&mut self, display: std::rc::Rc<dyn BrailleDisplay>) {
        let out = BrailleOut::new(display, &self.config.braille, &self.config.voice.language);
        self.subscribers.push(Box::new(BrailleMoves::new(out.clone(), self.table.record().cloned())));
        self.braille = Some(out);
    }

    /// The Braille display's events, when one is attached.
    pub fn braille_feed(&self) -> Option<Receiver<Stamped<BrailleEvent>>> {
        self.braille.as_ref().map(BrailleOut::events)
    }

    /// Handles the Braille display: a routing key mapped in `[buttons]`
    /// (`braille:N`) is that button of the blind player; any other key of the
    /// display shows the clocks. Garbled packets were dropped, counted and
    /// logged by the driver.
    pub fn handle_braille(&mut self, event: BrailleEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        let status = |status, detail| device_status("braille", None, status, detail, t);
        match event {
            BrailleEvent::Key(BrailleKey::Routing(cell)) => {
                match self.config.buttons.action_of(&format!("braille:{cell}")) {
                    Some(action) => self.action(BoardRole::Blind, action, t, &mut events),
                    None => self.show_braille_clocks(t),
                }
            }
            BrailleEvent::Key(BrailleKey::Command(_)) => self.show_braille_clocks(t),
            BrailleEvent::Connected { columns } => {
                // After a restart of the station the display starts from the record.
                if let (Some(b), Some((ply, text))) =
                    (&self.braille, self.table.record().and_then(crate::braille_display::last_move))
                {
                    b.show_move(ply, &text);
                }
                events.push(status("connected", Some(format!("{columns} cells"))));
            }
            BrailleEvent::Unavailable { reason } => events.push(status("unavailable", Some(reason))),
            BrailleEvent::Lost { reason } => events.push(status("disconnected", Some(reason))),
            // The driver counted and logged it; the game is not concerned.
            BrailleEvent::Dropped { total, reason } => {
                tracing::debug!(total, %reason, "a garbled BrlAPI packet was dropped");
            }
        }
        self.decide(events);
        Ok(())
    }

    fn show_braille_clocks(&self, t: Millis) {
        if let Some(b) = &self.braille {
            let reading = self.voices.as_ref().map(|v| v.get().clock_reading()).unwrap_or_default();
            b.show_clocks(&self.table, reading, t);
        }
    }

    /// Hands every durable batch to `s` from now on (the hall's broker).
    pub fn subscribe(&mut self, s: Box<dyn Subscriber>) {
        self.subscribers.push(s);
    }

    /// Calls `f` with every event as it is emitted (the demo prints them).
    pub fn observe(&mut self, f: impl FnMut(&Event) + 'static) {
        self.subscribers.push(Box::new(Observer(Box::new(f))));
    }

    /// Resumes the newest unfinished game. A damaged journal is set aside
    /// (kept, renamed) and what can be read of it is salvaged; the station
    /// starts either way, and the console and the player are told.
    fn resume(&mut self) -> Result<()> {
        let listing = self.journals.list()?;
        let t = self.clock.now();
        let mut notices = Vec::new();
        let mut candidates: Vec<(crate::journal_file::Found, bool)> =
            listing.found.into_iter().map(|f| (f, false)).collect();
        for damaged in listing.damaged {
            let aside = self.journals.set_aside(&damaged.path)?;
            let detail = format!(
                "journal {} damaged ({}); kept as {}",
                damaged.path.display(),
                damaged.error,
                aside.display()
            );
            tracing::error!("{detail}");
            notices.push(detail);
            let salvaged = std::fs::read(&aside).ok().and_then(|b| journal::decode_salvage(b).ok());
            if let Some((contents, skipped)) = salvaged {
                tracing::warn!(skipped, "salvaged the readable records of the damaged journal");
                candidates.push((crate::journal_file::Found { path: damaged.path, contents }, true));
            }
        }
        candidates.sort_by_key(|(f, _)| (f.contents.header.t_ms, f.path.clone()));
        let newest = candidates.into_iter().rev().find(|(f, _)| !f.contents.finished());
        let mut events: Vec<Event> =
            notices.iter().map(|d| device_status("journal", None, "damaged", Some(d.clone()), t)).collect();
        let Some((found, salvaged)) = newest else {
            self.decide(events);
            return Ok(());
        };
        let restored = match journal::restore(&found.contents) {
            Ok(r) => r,
            Err(e) => {
                let detail = format!("journal {} cannot be restored: {e}", found.path.display());
                tracing::error!("{detail}");
                if !salvaged {
                    let aside = self.journals.set_aside(&found.path)?;
                    tracing::error!(aside = %aside.display(), "set aside");
                }
                events.push(device_status("journal", None, "damaged", Some(detail), t));
                self.decide(events);
                return Ok(());
            }
        };
        if !restored.reproduced {
            tracing::warn!(path = %found.path.display(), "journal inputs did not reproduce the record; the recorded moves were kept");
        }
        if let Some(damage) = &restored.damage {
            events.push(device_status("journal", None, "damaged", Some(damage.clone()), t));
        }
        self.table = restored.table;
        self.clock.not_before(found.contents.last_t_ms());
        if salvaged {
            self.journal.rewrite(found.path.clone(), found.contents.header.clone(), &found.contents.records);
        } else {
            let bytes = std::fs::read(&found.path)
                .with_context(|| format!("cannot read journal {}", found.path.display()))?;
            self.journal.reopen(&found, bytes);
        }
        let t = self.clock.now();
        let moves = self.table.record_texts().unwrap_or_default();
        let ply = moves.len();
        events.push(Event::GameResumed {
            game_id: found.contents.header.game_id.clone(),
            ply,
            moves,
            t_ms: t,
        });
        tracing::info!(path = %found.path.display(), ply, "resumed unfinished game");
        self.decide(events);
        // Decided before the stop but never said: said now (already journaled).
        let unsaid = found.contents.unsaid_moves();
        if !unsaid.is_empty() {
            tracing::info!(moves = unsaid.len(), "saying the moves decided but not said before the stop");
            let game_id = Some(found.contents.header.game_id.clone());
            let unsaid = unsaid
                .into_iter()
                .map(|(seq, event)| Delivered { game_id: game_id.clone(), seq: Some(seq), event })
                .collect();
            self.pending.push(self.journal.last_ticket(), unsaid);
        }
        self.tick()
    }

    /// How long the loop may wait for input before the table needs a tick.
    pub fn timeout(&self) -> Duration {
        let now = self.clock.now();
        let drops = self.links.values().filter_map(BoardLink::summary_due);
        let deadline = [self.table.deadline(), self.clock_watch.as_ref().and_then(ClockWatch::deadline)]
            .into_iter()
            .flatten()
            .chain(drops)
            .min();
        let wait = deadline.map_or(250, |d| d.saturating_sub(now).min(250));
        Duration::from_millis(wait)
    }

    /// Lets the table judge whatever has settled by now.
    pub fn tick(&mut self) -> Result<()> {
        self.tick_at(self.clock.now())
    }

    /// Lets the table judge whatever had settled by `instant`.
    pub fn tick_until(&mut self, instant: Instant) -> Result<()> {
        self.tick_at(self.time_of(instant))
    }

    /// A tick that decided something is journaled as an input, so a restore
    /// takes the same decisions at the same moments.
    fn tick_at(&mut self, t: Millis) -> Result<()> {
        if let Ok(events) = self.table.apply(t, &Input::Tick)
            && !events.is_empty()
        {
            self.journal.input(t, Input::Tick);
            self.decide(events);
        }
        let mut events = Vec::new();
        events.extend(self.dgt.take_events());
        // Device liveness decides nothing about the game: not a table input.
        if let Some(WatchChange::Silent { since }) = self.clock_watch.as_mut().and_then(|w| w.tick(t)) {
            let detail = format!("no reading for {} ms", t.saturating_sub(since));
            events.push(dgt_clock_status("disconnected", detail, t));
        }
        for board in [BoardRole::Blind, BoardRole::Mirror] {
            self.drop_summary(board, None, t, &mut events);
        }
        self.decide(events);
        Ok(())
    }

    /// Journals `input` and gives it to the table: its events are decided; a
    /// refusal is journaled (the input and an `input_refused` event) and counted.
    fn apply(&mut self, t: Millis, input: Input, events: &mut Vec<Event>) -> Result<(), TableError> {
        // A game's `Date` is the day it starts: the station may run for days.
        let date = pgn_date(t);
        // The engine's name and level on its side (practice).
        let tags = self.practice_tags(self.config.seven_tags(date));
        if self.table.config().tags != tags {
            self.table.set_default_tags(tags);
        }
        self.journal.input(t, input.clone());
        match self.table.apply(t, &input) {
            Ok(decided) => {
                events.extend(decided);
                Ok(())
            }
            Err(e) => {
                self.stats.refused = self.table.refused();
                tracing::info!(input = input.kind(), error = %e, "input refused");
                events.push(Event::InputRefused {
                    input: input.kind().into(),
                    reason: e.to_string(),
                    t_ms: t,
                });
                Err(e)
            }
        }
    }

    /// The station's time of an arrival stamp.
    fn time_of(&self, at: Instant) -> Millis {
        self.clock.at(at)
    }

    /// Handles one driver event of a board, read at `at`.
    pub fn handle(&mut self, board: BoardRole, event: DriverEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        match event {
            DriverEvent::Message(BoardMessage::Scan(_))
                if self.table.draughts_variant() == Some(station_core::draughts::Variant::International) =>
            {
                // A 10×10 draughts board sends 13 digits: a chess board's scan is dropped and named.
                let total = self.links[board].next_drop_total();
                let reason = "16-digit chess scan while the game is international draughts".to_string();
                self.drop_summary(board, Some((reason, total)), t, &mut events);
            }
            DriverEvent::Message(BoardMessage::Scan50(raw)) if self.table.draughts_variant().is_some() => {
                let bits = self.links[board].orientation.to_standard_50(raw);
                if self.links[board].news(Bitboard(bits)).is_none() {
                    return self.tick_at(t);
                }
                let _ = self.apply(t, Input::Scan { board, occ: format!("{bits:013X}") }, &mut events);
            }
            DriverEvent::Message(BoardMessage::Scan(raw)) => {
                let turned = self.links[board].orientation.to_standard(raw);
                let Some(occ) = self.links[board].news(turned) else {
                    // A heartbeat: only time passes.
                    return self.tick_at(t);
                };
                let _ = self.apply(t, Input::scan(board, occ), &mut events);
            }
            DriverEvent::Message(BoardMessage::Button { index, pressed }) => {
                let _ = self.apply(t, Input::Button { board, button: index, pressed }, &mut events);
                events.push(Event::Button { board, button: index, pressed, t_ms: t });
                self.push_to_talk_source(&format!("{board}:{index}"), pressed);
                if pressed && let Some(action) = self.config.buttons.action_of(&format!("{board}:{index}")) {
                    self.action(board, action, t, &mut events);
                }
            }
            DriverEvent::Message(BoardMessage::Scan50(_)) => {
                // The chess table cannot read a 10×10 draughts board: dropped and named.
                let total = self.links[board].next_drop_total();
                let reason = "13-digit draughts scan while the game is chess".to_string();
                self.drop_summary(board, Some((reason, total)), t, &mut events);
            }
            DriverEvent::Message(BoardMessage::Identity(text)) => {
                events.push(Event::BoardIdentity { board, text, t_ms: t });
            }
            DriverEvent::Message(BoardMessage::Fault(text)) => {
                events.push(Event::BoardFault { board, text, t_ms: t });
            }
            DriverEvent::Connected => self.link(board, None, t, &mut events),
            DriverEvent::Disconnected { reason } => self.link(board, Some(reason), t, &mut events),
            DriverEvent::Dropped { error, total } => {
                self.drop_summary(board, Some((error.to_string(), total)), t, &mut events);
            }
        }
        self.decide(events);
        Ok(())
    }

    /// Dropped lines are counted; a `line_dropped` summary is journaled and
    /// published at most once a second per board (a flood of garbage must not
    /// become a flood of records).
    fn drop_summary(
        &mut self,
        board: BoardRole,
        dropped: Option<(String, u64)>,
        t: Millis,
        events: &mut Vec<Event>,
    ) {
        let link = &mut self.links[board];
        if let Some((reason, total)) = dropped {
            link.drop_reason = Some((reason, total));
            link.drops.0 += 1;
        }
        let (count, last) = link.drops;
        if count == 0 || last.is_some_and(|l| t < l + 1000) {
            return;
        }
        if let Some((reason, total)) = link.drop_reason.clone() {
            events.push(Event::LineDropped { board, reason, total, t_ms: t });
        }
        link.drops = (0, Some(t));
    }

    /// A board's link came (`reason` none) or went: journaled, and an event.
    fn link(&mut self, board: BoardRole, reason: Option<String>, t: Millis, events: &mut Vec<Event>) {
        let status = if reason.is_none() { LinkStatus::Connected } else { LinkStatus::Disconnected };
        let link = &mut self.links[board];
        link.connected = reason.is_none();
        if reason.is_some() {
            link.last_scan = None;
        }
        let _ = self.apply(t, Input::Link { board, status }, events);
        events.push(Event::BoardStatus { board, status, detail: reason, t_ms: t });
    }

    /// Handles one event of a DGT board (the sighted player's), read at `at`.
    pub fn handle_dgt(&mut self, board: BoardRole, event: DgtEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        match event {
            DgtEvent::Message(DgtMessage::BoardDump(b)) => {
                let _ = self.apply(t, Input::Pieces { board, fen: b.board_fen().to_string() }, &mut events);
            }
            DgtEvent::Message(DgtMessage::FieldUpdate { square, piece }) => {
                let input =
                    Input::Field { board, square: square.to_string(), piece: piece.map(|p| p.char()) };
                let _ = self.apply(t, input, &mut events);
            }
            DgtEvent::Message(DgtMessage::Trademark(text) | DgtMessage::SerialNumber(text)) => {
                events.push(Event::BoardIdentity { board, text, t_ms: t });
            }
            DgtEvent::Message(DgtMessage::ClockTime(time)) => self.clock_time(&time, t, &mut events),
            DgtEvent::Message(DgtMessage::ClockAck(ack)) => {
                if ack.ack0 != 0x10 {
                    // 0x40: e.g. SetNRun while the DGT 3000 is not in mode 23.
                    tracing::warn!(?ack, "the DGT clock refused a command");
                }
                self.clock_answered(t, &mut events);
            }
            DgtEvent::Message(_) => {}
            DgtEvent::Clock(report) if self.clock_watch.is_some() => {
                self.dgt.on_report(&report, t, &mut events)
            }
            DgtEvent::Clock(_) => {}
            DgtEvent::OrientationChanged(o) => {
                events.push(Event::BoardFault { board, text: format!("board orientation: {o:?}"), t_ms: t });
            }
            DgtEvent::Connected => {
                if let Some(w) = self.clock_watch.as_mut() {
                    w.link(true, t);
                }
                self.link(board, None, t, &mut events);
                if std::mem::take(&mut self.dgt_clock_pending)
                    && self.table.agreed().is_some_and(|g| g.ply() == 0)
                {
                    self.set_dgt_clock();
                }
            }
            DgtEvent::Disconnected { reason } => {
                if let Some(w) = self.clock_watch.as_mut() {
                    w.link(false, t);
                }
                self.link(board, Some(reason), t, &mut events)
            }
            DgtEvent::Dropped { error, total } => {
                self.drop_summary(board, Some((error.to_string(), total)), t, &mut events);
            }
        }
        self.decide(events);
        Ok(())
    }

    /// A DGT clock reading relayed by the DGT board. With clock source `dgt` the
    /// table's clock follows it; a reading that differs from the last one is journaled.
    fn clock_time(&mut self, time: &BwTime, t: Millis, events: &mut Vec<Event>) {
        if self.clock_watch.is_none() || time.no_clock {
            // Not our clock source, or the board says no clock is attached: no answer from a clock.
            return;
        }
        self.clock_answered(t, events);
        let reading = reading_of(time, self.config.clock.dgt_white);
        self.dgt.on_reading(&reading, t, events);
        if self.last_reading != Some(reading) && self.table.clock().is_some() {
            self.last_reading = Some(reading);
            let _ = self.apply(t, Input::from_clock_reading(&reading), events);
        }
    }

    /// The DGT clock answered (a reading or an acknowledgement): if it had been
    /// silent, it is reported back.
    fn clock_answered(&mut self, t: Millis, events: &mut Vec<Event>) {
        if let Some(WatchChange::Answering) = self.clock_watch.as_mut().and_then(|w| w.on_reading(t)) {
            events.push(dgt_clock_status("connected", "answering again".into(), t));
        }
    }

    /// Sets the DGT clock for a new game (see [`crate::dgt_clock`]): both
    /// displays to the time control's initial time, the first mover's running
    /// when the clock starts with the game, the lever switching sides.
    fn set_dgt_clock(&mut self) {
        if self.config.clock.source != ClockSource::Dgt {
            return;
        }
        if !self.links[BoardRole::Mirror].connected {
            // Commands to an absent board are lost: set it when it comes.
            self.dgt_clock_pending = true;
            return;
        }
        let Some(commands) = &self.dgt_clock else { return };
        let (Some(tc), Some(clock)) = (self.table.config().time_control.as_ref(), self.table.clock()) else {
            return;
        };
        let first_left =
            (clock.on_move() == Side::White) == (self.config.clock.dgt_white == DgtDisplay::Left);
        let run = match (self.config.clock.auto_start, first_left) {
            (false, _) => ClockRun::Paused,
            (true, true) => ClockRun::LeftRunning,
            (true, false) => ClockRun::RightRunning,
        };
        for command in self.dgt.setup(tc, run, self.clock.now()) {
            tracing::info!(?command, "setting the DGT clock for the new game");
            if let Err(e) = commands.send(HostCommand::Clock(command)) {
                tracing::warn!(error = %e, "the DGT clock could not be set");
            }
        }
    }

    /// True when a button is mapped to a gamepad.
    pub fn uses_gamepads(&self) -> bool {
        let b = &self.config.buttons;
        [
            &b.clock,
            &b.time,
            &b.repeat_last_move,
            &b.confirm,
            &b.cancel,
            &b.push_to_talk,
            &b.read_position,
            &b.read_difference,
            &b.clock_reading,
        ]
        .iter()
        .any(|sources| sources.iter().any(|s| s.starts_with("gamepad:")))
    }

    /// Handles a gamepad or foot switch: its buttons are the blind player's.
    pub fn handle_gamepad(&mut self, event: GamepadEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        let status = |name, status, detail| device_status("gamepad", name, status, detail, t);
        if let GamepadEvent::Button { button, pressed, .. } = &event {
            self.push_to_talk_source(&format!("gamepad:{button}"), *pressed);
        }
        match event {
            GamepadEvent::Button { button, pressed: true, .. } => {
                if let Some(action) = self.config.buttons.action_of(&format!("gamepad:{button}")) {
                    self.action(BoardRole::Blind, action, t, &mut events);
                }
            }
            GamepadEvent::Button { .. } => {}
            GamepadEvent::Connected { name } => events.push(status(Some(name), "connected", None)),
            GamepadEvent::Disconnected { name } => events.push(status(Some(name), "disconnected", None)),
            GamepadEvent::Unavailable { reason } => events.push(status(None, "unavailable", Some(reason))),
        }
        self.decide(events);
        Ok(())
    }

    /// A button's action.
    fn action(&mut self, board: BoardRole, action: Action, t: Millis, events: &mut Vec<Event>) {
        match action {
            Action::Clock => {
                let blind = Side::from(self.table.config().blind_color);
                let side = if board == BoardRole::Blind { blind } else { blind.opponent() };
                let _ = self.apply(t, Input::ClockPress { side }, events);
            }
            Action::Time => {
                if let Some(v) = &self.voices {
                    v.get().say_time(&self.table, t, events);
                }
                self.show_braille_clocks(t);
            }
            Action::RepeatLastMove => {
                if let Some(v) = &self.voices {
                    v.get().repeat_last_move(t, events);
                }
            }
            Action::ReadDifference => {
                if let Some(v) = &self.voices {
                    v.get().read_difference(&self.table, t, events);
                }
            }
            Action::ReadRecord | Action::RecordBack | Action::RecordForward => {
                let step = match action {
                    Action::ReadRecord => RecordStep::Last,
                    Action::RecordBack => RecordStep::Back,
                    _ => RecordStep::Forward,
                };
                self.read_record(step, t, events);
            }
            Action::Silence => {
                if let Some(v) = &self.voices {
                    v.get().silence(t, events);
                }
            }
            Action::ClockReading => self.change_clock_reading(None, t, events),
            Action::ReadRank | Action::ReadFile => {
                let me = self.table.config().blind_color;
                let command = match action {
                    Action::ReadRank => self.reading.next_rank(me),
                    _ => self.reading.next_file(me),
                };
                self.answer_question(&command, t, events);
            }
            Action::DrawStatus => self.say_draw_facts(t, events),
            Action::PracticeTakeBack
            | Action::PracticeHint
            | Action::PracticeNewGame
            | Action::PracticeStronger
            | Action::PracticeWeaker
            | Action::PracticeReview => {
                use practice::PracticeAction as P;
                let asked = match action {
                    Action::PracticeTakeBack => P::TakeBack,
                    Action::PracticeHint => P::Hint,
                    Action::PracticeNewGame => P::NewGame(None),
                    Action::PracticeStronger => P::Stronger,
                    Action::PracticeWeaker => P::Weaker,
                    _ => P::Review,
                };
                // Said to him like a spoken request's answer; a station without
                // an engine opponent logs the press and does nothing.
                if let Err(e) = self.practice(asked, t, events) {
                    tracing::info!(error = %e, "practice button without a practice game");
                }
            }
            // Questions and answers come with spoken input; reading the position aloud comes later.
            Action::Confirm | Action::Cancel | Action::PushToTalk | Action::ReadPosition => {}
        }
    }

    /// Executes an operator command (from the web console) and answers it.
    pub fn command(&mut self, request: CommandRequest, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        let answer = self.execute(request.command, t, &mut events);
        self.decide(events);
        // Answered once what it decided is durable and delivered.
        self.unanswered.push(Reply { to: request.reply, answer });
        Ok(())
    }

    fn execute(&mut self, command: Command, t: Millis, events: &mut Vec<Event>) -> Result<Value, String> {
        let side = |s: &str| match s {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            other => Err(format!("`{other}` is not white or black")),
        };
        let who = |w: Option<String>| w.unwrap_or_else(|| "operator".into());
        let clock = |this: &mut Station, cmd: ClockCommand, events: &mut Vec<Event>| {
            this.apply(t, Input::from_clock_command(&cmd), events)
                .map(|()| json!({"ok": true}))
                .map_err(|e| e.to_string())
        };
        let ok = |r: Result<(), TableError>| r.map(|()| json!({"ok": true})).map_err(|e| e.to_string());
        match command {
            Command::ClockStart => clock(self, ClockCommand::Start, events),
            Command::ClockPause => clock(self, ClockCommand::Pause, events),
            Command::ClockResume => clock(self, ClockCommand::Resume, events),
            Command::ClockPress { side: s } => {
                let side = side(&s)?;
                ok(self.apply(t, Input::ClockPress { side }, events))
            }
            Command::SetTime { side: s, ms, who: w, why } => {
                let cmd =
                    ClockCommand::SetTime { side: side(&s)?, ms, who: who(w), why: why.unwrap_or_default() };
                clock(self, cmd, events)
            }
            Command::AddTime { side: s, ms, who: w, why } => {
                let cmd =
                    ClockCommand::AddTime { side: side(&s)?, ms, who: who(w), why: why.unwrap_or_default() };
                clock(self, cmd, events)
            }
            Command::SetMoves { moves, who: w, why } => clock(
                self,
                ClockCommand::SetMoves { moves, who: who(w), why: why.unwrap_or_default() },
                events,
            ),
            Command::Scoresheet { moves } => ok(self.apply(t, Input::Scoresheet { moves }, events)),
            Command::AcceptClockProposal { id } => {
                let proposal = self.discrepancies.iter().find_map(|e| match e {
                    Event::Discrepancy { id: i, clock_proposal: Some(p), .. } if *i == id => Some(*p),
                    _ => None,
                });
                let p = proposal.ok_or_else(|| format!("discrepancy {id} has no open clock proposal"))?;
                for (s, ms) in [(Side::White, p.white_ms), (Side::Black, p.black_ms)] {
                    let why = format!("D.2.9: clocks as at ply {}", p.ply);
                    clock(self, ClockCommand::SetTime { side: s, ms, who: "arbiter".into(), why }, events)?;
                }
                Ok(json!({"ok": true}))
            }
            Command::DrawOffer { side: s } => {
                let s = side(&s)?;
                self.apply(t, Input::DrawOffer { side: s }, events).map_err(|e| e.to_string())?;
                let ply = self.table.agreed().map_or(0, |g| g.ply());
                let text = format!(
                    "draw offer by {} after ply {ply}",
                    if s == Side::White { "white" } else { "black" }
                );
                events.push(Event::Announcement {
                    listener: "log".into(),
                    text,
                    about: "draw_offer".into(),
                    t_ms: t,
                });
                Ok(json!({"ok": true, "ply": ply}))
            }
            Command::ClaimFlag { side: s } => {
                let s = side(&s)?;
                let fallen = self.table.clock().and_then(|c| c.flag(s));
                Ok(
                    json!({"side": if s == Side::White { "white" } else { "black" }, "flag_fell": fallen.is_some(), "at_ms": fallen}),
                )
            }
            Command::EnterMove { mv, confirm } => {
                // Read back before it counts when the reading took liberties (issue 22 §3).
                let pos = self.table.agreed().filter(|_| self.table.draughts_variant().is_none());
                if let Some(echo) = pos.and_then(|g| crate::move_echo::echo(g.position(), &mv, confirm)) {
                    return Ok(echo);
                }
                ok(self.apply(t, Input::EnterMove { mv }, events))
            }
            Command::Practice { action, game } => {
                self.practice(practice::PracticeAction::parse(&action, game)?, t, events)
            }
            Command::Accept => {
                ok(self.apply(t, Input::IrregularityDecision { decision: "accept".into() }, events))
            }
            Command::Correct => {
                ok(self.apply(t, Input::IrregularityDecision { decision: "correct".into() }, events))
            }
            Command::AcceptDraw => ok(self.apply(t, Input::AcceptDraw, events)),
            Command::ClaimDraw { side: s, mv } => {
                let side = side(&s)?;
                self.apply(t, Input::ClaimDraw { side, mv }, events).map_err(|e| e.to_string())?;
                Ok(draw_claim_answer(events))
            }
            Command::ConfirmClaim => ok(self.apply(t, Input::ConfirmClaim, events)),
            Command::IllegalMove { ply } => ok(self.apply(t, Input::IllegalMove { ply }, events)),
            Command::TakeBack => ok(self.apply(t, Input::TakeBack, events)),
            Command::Spoken { text, confidence } if self.table.draughts_variant().is_some() => {
                self.draughts_spoken(&text, confidence, t, events)
            }
            Command::Spoken { text, confidence } => self.spoken(&text, confidence, t, events),
            Command::Adjourn { sealed_move, session_left_ms } => {
                ok(self.apply(t, Input::Adjourn { sealed: sealed_move, session_left_ms }, events))
            }
            Command::ResumeReplierAbsent => ok(self.apply(t, Input::ResumeReplierAbsent, events)),
            Command::OpenEnvelope => ok(self.apply(t, Input::OpenEnvelope, events)),
            Command::SealReply { sealed_move } => {
                ok(self.apply(t, Input::SealReply { sealed: sealed_move }, events))
            }
            Command::EnvelopeLost => ok(self.apply(t, Input::EnvelopeLost, events)),
            Command::ResumeAdjourned => ok(self.apply(t, Input::ResumeAdjourned, events)),
            Command::Result { result, reason, termination } => {
                ok(self.apply(t, Input::Result { result, reason, termination }, events))
            }
            Command::NewGame { fen, chess960, moves, white, black, event, site, round, board } => {
                let tags = station_core::pgn::TagOverrides { white, black, event, site, round, board };
                let start = match (fen.clone(), chess960) {
                    (Some(fen), _) => Game::from_fen(&fen).map_err(|e| e.to_string())?,
                    (None, Some(n)) => {
                        Game::chess960(n).ok_or_else(|| format!("{n} is not a Chess960 number (0-959)"))?
                    }
                    (None, None) => Game::default(),
                };
                let start_fen = start.start_fen();
                self.apply(t, Input::NewGame { fen, chess960, moves, tags }, events)
                    .map_err(|e| e.to_string())?;
                if let Some(v) = &self.voices {
                    v.get().say_setup(&self.table, t, events);
                }
                let fen = start_fen;
                let game_id = self.table.game_id().map(str::to_owned);
                let ply = self.table.record().map_or(0, |r| r.ply());
                Ok(json!({"ok": true, "start_fen": fen, "game_id": game_id, "ply": ply}))
            }
        }
    }

    /// What the blind player said: a move is checked against his board, a
    /// question goes back to him, a refusal is said why.
    fn spoken(
        &mut self,
        text: &str,
        confidence: Option<f32>,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        let (understanding, pos) = self.spoken_context()?;
        let understood = understanding.understand(&pos, text, confidence);
        self.act_on_spoken(&understanding, &pos, understood, t, events)
    }

    /// What spoken words are understood with: his language, and the position
    /// he speaks about.
    fn spoken_context(&mut self) -> Result<(Understanding, Chess), String> {
        let understanding = self.understanding().map_err(|e| e.to_string())?.clone();
        let pos = self.table.announce_position().ok_or("no game in progress")?;
        Ok((understanding, pos))
    }

    /// Acts on what the blind player was understood to say in `pos`.
    fn act_on_spoken(
        &mut self,
        understanding: &Understanding,
        pos: &Chess,
        mut understood: Understood,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        let fen = fen_of(pos);
        let answer = match understood {
            Understood::Command(SpokenCommand::Yes) => self.asked.take(),
            Understood::Command(SpokenCommand::No) => {
                self.asked = None;
                None
            }
            _ => None,
        };
        let blind = Side::from(self.table.config().blind_color);
        match answer {
            // "Ja" to "Springer Felix drei?" in the same position is that move.
            Some(Asked::Move { fen: asked_fen, mv }) if asked_fen == fen => {
                let uci = mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
                let san = shakmaty::san::SanPlus::from_move(pos.clone(), mv).to_string();
                understood = Understood::Move { mv, uci, san };
            }
            Some(Asked::DrawOffer) => {
                self.apply(t, Input::DrawOffer { side: blind }, events).map_err(|e| e.to_string())?;
                let ply = self.table.agreed().map_or(0, |g| g.ply());
                let by = if blind == Side::White { "white" } else { "black" };
                events.push(Event::Announcement {
                    listener: "log".into(),
                    text: format!("draw offer by {by} after ply {ply}"),
                    about: "draw_offer".into(),
                    t_ms: t,
                });
                if let Some(v) = &self.voices {
                    v.get().say_public_draw_offer(t, events);
                }
                return Ok(json!({"understood": "command yes", "confirmed": "draw_offer", "ply": ply}));
            }
            Some(Asked::Resign) => {
                self.apply(t, Input::Resign { side: blind }, events).map_err(|e| e.to_string())?;
                return Ok(json!({"understood": "command yes", "confirmed": "resign"}));
            }
            _ => {}
        }
        match understood {
            Understood::Move { uci, san, .. } => {
                self.asked = None;
                if let Err(e) = self.apply(t, Input::Announce { mv: uci.clone() }, events) {
                    let refused = understanding.wording().message(station_voices::Message::IllegalMove);
                    self.say_private(refused.to_owned(), "refused", t, events);
                    return Err(e.to_string());
                }
                Ok(json!({"understood": "move", "uci": uci, "san": san}))
            }
            Understood::Ask { candidates, .. } => {
                let question = understanding.confirm_question(pos, &candidates);
                // Only a question about one move can be answered with yes.
                self.asked = match candidates.as_slice() {
                    [one] => Some(Asked::Move { fen, mv: *one }),
                    _ => None,
                };
                self.say_private(question.clone(), "question", t, events);
                Ok(json!({"understood": "ask", "question": question}))
            }
            Understood::Command(command @ (SpokenCommand::DrawOffer | SpokenCommand::Resign)) => {
                // Never on one word: a draw offer and a resignation need a yes.
                let book = understanding.wording().phrasebook();
                let (asked, words) = match command {
                    SpokenCommand::DrawOffer => (Asked::DrawOffer, book.words().draw_offer.say().to_owned()),
                    _ => (
                        Asked::Resign,
                        book.command_words()
                            .and_then(|c| c.entry(station_voices::understand::CommandWord::Resign))
                            .map_or_else(|| "resign".to_owned(), |e| e.say().to_owned()),
                    ),
                };
                let question = format!("{words}?");
                self.asked = Some(asked);
                self.say_private(question.clone(), "question", t, events);
                Ok(
                    json!({"understood": format!("command {command}"), "command": command.name(), "question": question}),
                )
            }
            Understood::Command(command) if practice_action(&command).is_some() => {
                let action = practice_action(&command).ok_or("not a practice command")?;
                let mut answer = self.practice(action, t, events)?;
                if let Some(o) = answer.as_object_mut() {
                    o.insert("understood".into(), json!(format!("command {command}")));
                    o.insert("command".into(), json!(command.name()));
                }
                Ok(answer)
            }
            Understood::Command(command) => {
                if let Some(text) = self.board_answer(understanding, &command) {
                    self.say_private(text, "answer", t, events);
                }
                if let Some(step) = RecordStep::of(&command)
                    && let Some(text) = self.reading.step(understanding, &self.table, step)
                {
                    self.say_private(text, "record", t, events);
                }
                if matches!(command, SpokenCommand::DrawStatus)
                    && let Some(text) =
                        crate::draw_facts::table_draw_facts_text(understanding.wording(), &self.table)
                {
                    // "Remis Stand" asks for the draw facts; "Remis" alone offers a draw.
                    self.say_private(text, "draw_status", t, events);
                }
                if let Some(v) = &self.voices {
                    match command {
                        SpokenCommand::Time => v.get().say_time(&self.table, t, events),
                        SpokenCommand::Repeat => v.get().repeat_last_move(t, events),
                        SpokenCommand::ReadDifference => v.get().read_difference(&self.table, t, events),
                        SpokenCommand::Silence => v.get().silence(t, events),
                        _ => {}
                    }
                }
                match command {
                    SpokenCommand::ClockUsed => {
                        self.change_clock_reading(Some(station_voices::ClockReading::Used), t, events)
                    }
                    SpokenCommand::ClockRemaining => {
                        self.change_clock_reading(Some(station_voices::ClockReading::Remaining), t, events)
                    }
                    _ => {}
                }
                if let SpokenCommand::Faster | SpokenCommand::Slower = command {
                    let rate = self.change_rate(command == SpokenCommand::Faster, t, events);
                    return Ok(
                        json!({"understood": format!("command {command}"), "command": command.name(), "rate_percent": rate}),
                    );
                }
                Ok(json!({"understood": format!("command {command}"), "command": command.name()}))
            }
            other => Ok(json!({"understood": other.line()})),
        }
    }

    /// Keeps the spoken moves' sound through `writer` (tests: a full disk).
    #[cfg(test)]
    pub fn keep_audio_through(&mut self, writer: Box<dyn crate::kept_audio::AudioWriter>) {
        self.audio_keeper = Some(crate::kept_audio::AudioKeeper::with_writer(
            self.journals.path(),
            self.config.speech.keep_audio_max_mb,
            writer,
        ));
    }

    /// The recording device of D.2.7: the sound of a spoken move the station
    /// accepted in `events[from..]` is kept for its ply ("Ja" to a question
    /// keeps the sound of the move asked about). A failure is told once, as a
    /// `device_status` `recording`; the game and the journal go on untouched.
    fn keep_spoken_audio(
        &mut self,
        audio: Option<Vec<i16>>,
        yes: bool,
        from: usize,
        t: Millis,
        events: &mut Vec<Event>,
    ) {
        let Some(keeper) = self.audio_keeper.as_mut() else { return };
        let accepted = events[from..].iter().find_map(|e| match e {
            Event::GameMove { ply, by: BoardRole::Blind, revised: false, .. } => Some(*ply),
            Event::AnnouncementChecked { ply, matches: true, .. } => Some(*ply),
            _ => None,
        });
        let sound = if yes { self.spoken_audio.take() } else { audio };
        let (Some(ply), Some(game_id)) = (accepted, self.table.game_id()) else {
            // Not (yet) a move: kept for a "Ja" that makes it one.
            if !yes {
                self.spoken_audio = sound;
            }
            return;
        };
        self.spoken_audio = None;
        let Some(sound) = sound else { return };
        match keeper.keep(game_id, ply, &sound) {
            Ok(path) => {
                tracing::debug!(ply, path = %path.display(), "spoken move kept");
                if self.audio_failed.take().is_some() {
                    events.push(device_status("recording", None, "connected", None, t));
                }
            }
            Err(e) => {
                let detail = format!("{e}; the game goes on, the journal is untouched");
                let reason = match &e {
                    crate::kept_audio::NotKept::Full { .. } => "full".to_owned(),
                    crate::kept_audio::NotKept::Write { source, .. } => source.kind().to_string(),
                };
                if self.audio_failed.as_deref() != Some(reason.as_str()) {
                    tracing::error!("{detail}");
                    eprintln!("station: {detail}");
                    events.push(device_status("recording", None, "unavailable", Some(detail), t));
                    self.audio_failed = Some(reason);
                }
            }
        }
    }

    /// The answer to a question about the board, from his own board's state
    /// only (no analysis): the record his board follows, or the agreed one
    /// when he has no board.
    fn board_answer(&self, understanding: &Understanding, command: &SpokenCommand) -> Option<String> {
        let board = match (self.table.tracker(BoardRole::Blind), self.table.agreed()) {
            (Some(tracker), _) => tracker.game().position().board().clone(),
            (None, Some(agreed)) => agreed.position().board().clone(),
            (None, None) => return None,
        };
        understanding.answer(&board, self.table.config().blind_color, command)
    }

    /// Runs `f` with the understanding of his language, lent out of `self`
    /// (no copy); `None` when it cannot be built (logged).
    fn with_understanding<R>(&mut self, f: impl FnOnce(&mut Self, &Understanding) -> R) -> Option<R> {
        if let Err(e) = self.understanding() {
            tracing::warn!("no words for the answer: {e:#}");
            return None;
        }
        let understanding = self.understanding.take()?;
        let out = f(self, &understanding);
        self.understanding = Some(understanding);
        Some(out)
    }

    /// A board question asked by button (`read_rank`, `read_file`).
    fn answer_question(&mut self, command: &SpokenCommand, t: Millis, events: &mut Vec<Event>) {
        let text = self.with_understanding(|this, u| this.board_answer(u, command)).flatten();
        if let Some(text) = text {
            self.say_private(text, "answer", t, events);
        }
    }

    /// A step through the record by button (`read_record`, `record_back`, `record_forward`).
    fn read_record(&mut self, step: RecordStep, t: Millis, events: &mut Vec<Event>) {
        let text = self.with_understanding(|this, u| this.reading.step(u, &this.table, step)).flatten();
        if let Some(text) = text {
            self.say_private(text, "record", t, events);
        }
    }

    /// The blind player's draw question (the `draw_status` button, the spoken
    /// "Remis Stand"): the facts of the record, said to him privately.
    pub fn say_draw_facts(&mut self, t: Millis, events: &mut Vec<Event>) {
        if self.understanding().is_err() {
            return;
        }
        let Some(understanding) = self.understanding.as_ref() else { return };
        let Some(text) = crate::draw_facts::table_draw_facts_text(understanding.wording(), &self.table)
        else {
            return;
        };
        self.say_private(text, "draw_status", t, events);
    }

    /// Says `text` to the blind player (or, without voices, only records it as an event).
    fn say_private(&self, text: String, about: &str, t: Millis, events: &mut Vec<Event>) {
        match &self.voices {
            Some(v) => v.get().say_private(text, about, t, events),
            None => events.push(Event::Announcement {
                listener: "private".into(),
                text,
                about: about.into(),
                t_ms: t,
            }),
        }
    }

    /// The understanding of the blind player's language, built once.
    fn understanding(&mut self) -> Result<&Understanding> {
        if self.understanding.is_none() {
            self.understanding = Some(self.config.speech.understanding(&self.config.voice)?);
        }
        Ok(self.understanding.as_ref().expect("just built"))
    }

    /// Starts listening when speech input is enabled (microphone, or the
    /// test WAV input): the speakers mute it while they talk.
    pub fn enable_listening(&mut self) -> Result<()> {
        let speech = &self.config.speech;
        if !speech.enabled || !speech.microphone {
            return Ok(());
        }
        let mute = station_drivers::speech::MuteFlag::new();
        if let Some(v) = &self.voices {
            v.get().mute_while_speaking(&mute);
        }
        let lang = speech.model_language(&self.config.voice).to_owned();
        let settings = speech.clone();
        let (fen, grammar) = match self.draughts_grammar(true) {
            Some(draughts) => draughts?,
            None => {
                let (pos, fen) = self.listening_position();
                (fen, self.grammar(&pos)?)
            }
        };
        self.grammar_fen = Some(fen);
        self.listening = Some(Listening::start(&settings, &lang, mute, grammar));
        tracing::info!(lang, model = %settings.model_dir(&lang).display(), "listening");
        Ok(())
    }

    /// The position the blind player speaks about (the start position before
    /// a game), and its FEN.
    fn listening_position(&self) -> (Chess, String) {
        let pos =
            self.table.announce_position().unwrap_or_else(|| self.table.config().start.position().clone());
        let fen = fen_of(&pos);
        (pos, fen)
    }

    /// The grammar of `pos` (plus the configured extra phrases).
    fn grammar(&mut self, pos: &Chess) -> Result<Vec<String>> {
        let mut phrases = self.understanding()?.grammar(pos).into_phrases();
        phrases.extend(self.config.speech.extra_phrases.iter().map(|p| p.to_lowercase()));
        Ok(phrases)
    }

    /// After every change, the recogniser listens for the moves of the new position.
    fn refresh_grammar(&mut self) {
        if self.listening.is_none() {
            return;
        }
        if let Some(Ok((key, _))) = self.draughts_grammar(false) {
            // A draughts game: the moves of his position, and the choices of a question open.
            if self.grammar_fen.as_deref() == Some(key.as_str()) {
                return;
            }
            match self.draughts_grammar(true) {
                Some(Ok((key, phrases))) => {
                    if let Some(l) = &self.listening {
                        l.set_grammar(phrases);
                    }
                    self.grammar_fen = Some(key);
                }
                Some(Err(e)) => tracing::warn!(error = %e, "no grammar for the new position"),
                None => {}
            }
            return;
        }
        let (pos, fen) = self.listening_position();
        if self.grammar_fen.as_deref() == Some(fen.as_str()) {
            return;
        }
        match self.grammar(&pos) {
            Ok(phrases) => {
                if let Some(l) = &self.listening {
                    l.set_grammar(phrases);
                }
                self.grammar_fen = Some(fen);
            }
            Err(e) => tracing::warn!(error = %e, "no grammar for the new position"),
        }
    }

    /// What the listening thread heard, for the loop to select on.
    pub fn heard_events(&self) -> Option<Receiver<Heard>> {
        self.listening.as_ref().map(Listening::heard)
    }

    /// A push-to-talk source (`blind:N`, `gamepad:NAME`) was pressed or released.
    fn push_to_talk_source(&self, source: &str, pressed: bool) {
        if let (Some(l), Some(Action::PushToTalk)) = (&self.listening, self.config.buttons.action_of(source))
        {
            l.push_to_talk(pressed);
        }
    }

    /// Something the listening thread reported: an utterance goes the way of
    /// the `spoken` command (journaled announcement, checked by the table),
    /// after a `heard` event; a missing model or microphone is said once.
    pub fn handle_heard(&mut self, heard: Heard, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        match heard {
            Heard::Ready { device } => {
                events.push(device_status("microphone", Some(device), "connected", None, t))
            }
            Heard::MissingWords { words, model } => {
                let detail = format!(
                    "{} in {}: install the language's model (station models install), or name a spelling the model lists in the phrasebook's [listening.spellings]",
                    crate::vocabulary::describe_missing(&words),
                    model.display()
                );
                tracing::warn!("{detail}");
                eprintln!("station: {detail}");
                events.push(Event::DeviceStatus {
                    device: "speech_model".into(),
                    name: Some(model.display().to_string()),
                    status: "missing_words".into(),
                    detail: Some(detail),
                    words,
                    t_ms: t,
                });
            }
            Heard::Unavailable { device, detail } => {
                tracing::error!(device, "{detail}; the station runs on without speech input");
                eprintln!("station: {detail}; the station runs on without speech input");
                events.push(device_status(device, None, "unavailable", Some(detail), t));
            }
            Heard::Utterance { text, confidence, latency, audio } => {
                let heard = |understood| Event::Heard {
                    text: text.clone(),
                    confidence,
                    understood,
                    latency_ms: Some(latency.as_millis() as u64),
                    t_ms: t,
                };
                // Understood once: the `heard` event says what, then it is acted on.
                if self.table.draughts_variant().is_some() {
                    match self.understand_draughts(&text, Some(confidence)) {
                        Ok(understood) => {
                            events.push(heard(understood.line()));
                            let yes = understood.is_answer();
                            let audio = audio.filter(|_| yes || understood.is_move());
                            let from = events.len();
                            if let Err(e) = self.act_on_draughts(understood, t, &mut events) {
                                tracing::info!(text, error = %e, "spoken input refused");
                            }
                            self.keep_spoken_audio(audio, yes, from, t, &mut events);
                        }
                        Err(e) => events.push(heard(format!("reject {e}"))),
                    }
                    self.decide(events);
                    return Ok(());
                }
                match self.spoken_context() {
                    Ok((understanding, pos)) => {
                        let understood = understanding.understand(&pos, &text, Some(confidence));
                        events.push(heard(understood.line()));
                        let yes = matches!(understood, Understood::Command(SpokenCommand::Yes));
                        // Only a move (or one asked back) may have its sound kept.
                        let audio = audio.filter(|_| {
                            yes || matches!(understood, Understood::Move { .. } | Understood::Ask { .. })
                        });
                        let from = events.len();
                        let acted = self.act_on_spoken(&understanding, &pos, understood, t, &mut events);
                        if let Err(e) = acted {
                            tracing::info!(text, error = %e, "spoken input refused");
                        }
                        self.keep_spoken_audio(audio, yes, from, t, &mut events);
                    }
                    Err(e) => events.push(heard(format!("reject {e}"))),
                }
            }
        }
        self.decide(events);
        Ok(())
    }

    fn publish_state(&self) {
        let Some(hub) = &self.hub else { return };
        let log: Vec<Event> = self.log.iter().cloned().collect();
        let extras = crate::snapshot::Extras {
            connected: ByBoard::from_fn(|role| self.links[role].connected),
            discrepancies: &self.discrepancies,
            log: &log,
        };
        let t = self.clock.now();
        let mut snapshot = crate::snapshot::build(&self.table, &self.config, &extras, t);
        // The latest change to the record, one line per page language (the mirror).
        let change = self.voices.as_ref().and_then(|v| v.get().mirror_change());
        if let Some(object) = snapshot.as_object_mut() {
            object.insert("change".into(), change.unwrap_or(Value::Null));
        }
        if self.audio_keeper.is_some() {
            // The recording device (D.2.7): the kept sound per ply, for the console.
            let files = match self.table.game_id() {
                Some(game) => crate::kept_audio::list(self.journals.path(), game),
                None => Vec::new(),
            };
            let listed: Vec<Value> = files
                .iter()
                .map(|(ply, _)| json!({"ply": ply, "url": format!("/audio/{}", crate::kept_audio::file_name(*ply))}))
                .collect();
            if let Some(object) = snapshot.as_object_mut() {
                object.insert("audio".into(), Value::Array(listed));
            }
            hub.publish_audio(&files);
        }
        // `/game.pgn` is the record, as every export writes it.
        let pgn = self
            .table
            .record()
            .and_then(|r| {
                r.pgn(self.table.config().time_control.as_ref())
                    .or_else(|| crate::export_pdn::pdn_of_record(r))
            })
            .unwrap_or_default();
        hub.publish_state(snapshot, pgn);
    }

    /// Journals what the table decided (opening and closing game journals as
    /// games start and end); it reaches the world once it is durable.
    fn decide(&mut self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        let mut started = false;
        for event in events {
            if let Event::GameStarted { game_id, fen, t_ms, tags, moves } = &event {
                self.open_journal(game_id, fen, *t_ms, tags.clone(), moves.clone());
                started = true;
            }
            let seq = self.journal.event(&event);
            let game_id = seq.and_then(|_| self.table.game_id().map(str::to_owned));
            if let Event::GameOver { result, t_ms, .. } = &event {
                self.journal.end(*t_ms, result);
            }
            self.decided.push(Delivered { game_id, seq, event });
        }
        if started {
            // The new game's first reading goes to the table whatever the last one was.
            self.last_reading = None;
            self.set_dgt_clock();
        }
    }

    /// Ends a turn of the loop: what was decided in it is one batch for the
    /// journal writer, delivered when the writer says it is on disk.
    pub fn flush(&mut self) {
        if self.decided.is_empty() && self.unanswered.is_empty() {
            return;
        }
        let ticket = self.journal.commit();
        self.pending.push(ticket, std::mem::take(&mut self.decided));
        self.answers.extend(self.unanswered.drain(..).map(|r| (ticket, r)));
    }

    /// The journal writer's acknowledgements, for the loop to select on.
    pub fn durable_feed(&self) -> Receiver<Durable> {
        self.journal.durable().clone()
    }

    /// The writer made batches durable: their events go out.
    pub fn on_durable(&mut self, d: Durable) -> Result<()> {
        self.stats.batches += d.batches;
        self.stats.total_sync += d.sync_time;
        self.stats.longest_sync = self.stats.longest_sync.max(d.sync_time);
        let t = self.clock.now();
        let mut notes = Vec::new();
        match &d.error {
            Some(e) if !self.journal_failed => {
                self.journal_failed = true;
                tracing::error!(error = %e, "the journal cannot be written; the game goes on from memory");
                notes.push(device_status("journal", None, "failed", Some(e.clone()), t));
            }
            None if self.journal_failed => {
                self.journal_failed = false;
                notes.push(device_status("journal", None, "connected", Some("written again".into()), t));
            }
            _ => {}
        }
        if let Some(path) = &d.rewritten {
            let detail = format!("{} was deleted and written again from memory", path.display());
            notes.push(device_status("journal", None, "rewritten", Some(detail), t));
        }
        self.decide(notes);
        let ready = self.pending.ready(d.ticket);
        self.deliver(ready)?;
        // An answer goes once its events are out, and what was said because of
        // them too (journaled now, so it waits for the next batch).
        let (due, later): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.answers).into_iter().partition(|(t, _)| *t <= d.ticket);
        self.answers = later;
        for (_, reply) in due {
            if self.decided.is_empty() {
                let _ = reply.to.send(reply.answer);
            } else {
                self.unanswered.push(reply);
            }
        }
        Ok(())
    }

    /// Waits (at most `timeout`) until everything decided so far is durable
    /// and delivered (shutdown, tests).
    pub fn drain(&mut self, timeout: Duration) -> Result<()> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            self.flush();
            if self.pending.is_empty() && self.answers.is_empty() {
                return Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            for d in self.journal.wait_durable(left) {
                self.on_durable(d)?;
            }
        }
        Ok(())
    }

    /// Durable events to the voices first (what they say is decided in turn),
    /// then to every subscriber; the console's state follows.
    fn deliver(&mut self, batch: Vec<Delivered>) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let t = self.clock.now();
        let mut said = Vec::new();
        if let Some(voices) = &self.voices {
            let mut v = voices.get_mut();
            for d in &batch {
                v.on_event(&d.event, &self.table, t, &mut said);
            }
            v.end_batch(&self.table, t, &mut said);
        }
        for e in batch.iter().map(|d| &d.event) {
            match e {
                Event::Discrepancy { .. } => self.discrepancies.push(e.clone()),
                Event::DiscrepancyResolved { id, .. } => {
                    self.discrepancies.retain(|d| !matches!(d, Event::Discrepancy { id: i, .. } if i == id))
                }
                _ => {}
            }
            if self.log.len() == LOG_LEN {
                self.log.pop_front();
            }
            self.log.push_back(e.clone());
        }
        for subscriber in &mut self.subscribers {
            subscriber.deliver(&batch)?;
        }
        self.decide(said);
        self.publish_state();
        self.refresh_grammar();
        Ok(())
    }

    /// Notes how long a turn of the loop took (no input is taken meanwhile).
    pub fn turn_took(&mut self, took: Duration) {
        self.stats.longest_turn = self.stats.longest_turn.max(took);
    }

    fn open_journal(
        &mut self,
        game_id: &str,
        fen: &str,
        t_ms: Millis,
        tags: Option<station_core::pgn::SevenTags>,
        moves: Vec<String>,
    ) {
        let tags = tags.unwrap_or_else(|| self.practice_tags(self.config.seven_tags(pgn_date(t_ms))));
        let mut header = Header::of_table(&self.table, game_id, fen, t_ms, tags);
        header.moves = moves;
        tracing::info!(game_id, "new game");
        self.journal.create(&self.journals, header);
    }
}

/// The `device_status` event of the DGT clock.
fn dgt_clock_status(status: &str, detail: String, t: Millis) -> Event {
    device_status("dgt_clock", None, status, Some(detail), t)
}

/// A position as FEN (the key a question and a grammar belong to).
/// The console's answer to a draw claim: the station's verdict from the record.
fn draw_claim_answer(events: &[Event]) -> Value {
    events
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::DrawClaimed {
                correct,
                ground,
                repetitions,
                moves_without_pawn_or_capture,
                written,
                ..
            } => Some(json!({
                "ok": true,
                "correct": correct,
                "ground": ground,
                "repetitions": repetitions,
                "moves_without_pawn_or_capture": moves_without_pawn_or_capture,
                "written": written,
                "awaiting": "confirm_claim",
            })),
            _ => None,
        })
        .unwrap_or_else(|| json!({"ok": true}))
}

/// The practice action a spoken command asks for (issue 26), if any.
fn practice_action(command: &SpokenCommand) -> Option<practice::PracticeAction> {
    use practice::PracticeAction as A;
    Some(match command {
        SpokenCommand::TakeBack => A::TakeBack,
        SpokenCommand::Hint => A::Hint,
        SpokenCommand::NewGame(n) => A::NewGame(*n),
        SpokenCommand::Stronger => A::Stronger,
        SpokenCommand::Weaker => A::Weaker,
        SpokenCommand::Review => A::Review,
        _ => return None,
    })
}

fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// A device came, went or is missing (`device_status`): the gamepad, the DGT
/// clock, the microphone or the speech model.
fn device_status(
    device: &str,
    name: Option<String>,
    status: &str,
    detail: Option<String>,
    t: Millis,
) -> Event {
    Event::DeviceStatus {
        device: device.into(),
        name,
        status: status.into(),
        detail,
        words: Vec::new(),
        t_ms: t,
    }
}

/// A DGT clock reading as White's and Black's times.
fn reading_of(time: &BwTime, white: DgtDisplay) -> ClockReading {
    let white_left = white == DgtDisplay::Left;
    let (w, b) = if white_left { (time.left, time.right) } else { (time.right, time.left) };
    // The side to move; the raised lever tells it when the clock sets no to-move bit.
    let left_runs = match (time.left_to_move, time.right_to_move) {
        (true, false) => true,
        (false, true) => false,
        _ => !time.lever_right_high,
    };
    let running = time.running.then_some(if left_runs == white_left { Side::White } else { Side::Black });
    ClockReading {
        white_ms: u64::from(w.total_secs()) * 1000,
        black_ms: u64::from(b.total_secs()) * 1000,
        running,
        white_flag: w.flag_blocked || w.flag_shown,
        black_flag: b.flag_blocked || b.flag_shown,
    }
}

mod board_link;
mod practice;
mod spoken_draughts;
#[cfg(test)]
mod tests;
