//! The wiring: driver events and operator commands in, the core table in the
//! middle, the journal, the voices, the event stream and the web hub out.
//! No rules live here.
//!
//! A spoken move of either game reaches the table through the speech desk's `announce_spoken`;
//! Braille routing keys come in like the gamepad's buttons ([`Station::handle_braille`]). Dropped
//! serial lines are summarised, one `line_dropped` a second per board. Operator commands are
//! answered once their events, and what was said because of them, are out.
//!
//! The station's parts, one job each: `pipeline` (journal first, then the world: the writer, the
//! batches waiting for the disk, the answers waiting for their batch, the subscribers),
//! `board_link` (each board's link, `ByBoard<BoardLinkState>`: the orientation applied to every scan,
//! the heartbeat, dropped-line summaries, connected or not), `dgt_link` (the DGT clock),
//! `speech_desk` (understanding, the grammar, what was asked back), `recorder` (the recording
//! device), `console_log` (recent events and open discrepancies), `practice` (the engine opponent),
//! `resume` (a restart) and `test_support` (tests only). Each game's spoken moves sit behind the
//! desk's seam, `game_speech` (`spoken_chess`, `spoken_draughts`): a game reads a `SpeechView`
//! (the table, the question open) and names a `Deed`. The parts keep their behaviour and return
//! what the station must journal and say; none is given the station.

use crate::braille_display::{BrailleMoves, BrailleOut};
use crate::clock::{StationClock, pgn_date};
use crate::config::Action;
use crate::config::{ClockSource, Config, DgtDisplay};
use crate::delivery::{HubEvents, Observer, Subscriber, VoicesHandle};
use crate::event_sink::EventSink;
use crate::hub::{CommandRequest, Hub, OperatorCommand, Routed};
use crate::journal_file::{Durable, Journal, JournalDir, WriterOptions};
use crate::listening::Heard;
use crate::record_reading::RecordReading;
use crate::speaking::Voices;
use crate::speech_state::{SpeechState, state_path};
use anyhow::{Context, Result};
use board_link::BoardLinkState;
use console_log::ConsoleLog;
use crossbeam_channel::Receiver;
use dgt_link::{DgtLink, dgt_clock_status};
pub use pipeline::PipelineStats;
use pipeline::{Pipeline, Reply};
use recorder::Recorder;
use serde_json::{Value, json};
use shakmaty::{Bitboard, Position};
use speech_desk::{Asked, SpeechDesk};
use station_audio::Ended;
use station_core::clock::Side;
use station_core::clock::{ClockWatch, WatchChange};
use station_core::journal::{self, Header, Input};
use station_core::occupancy::Orientation;
use station_core::role::ByBoard;
use station_core::table::ClockCommand;
use station_core::table::rules::ScanSize;
use station_core::table::{Table, TableConfig, TableError};
use station_core::{BoardRole, Event, Game, Millis};
use station_gamepad::GamepadEvent;
use station_serial::braille::{BrailleDisplay, BrailleEvent, Key as BrailleKey};
use station_serial::dgt::{BwTime, ClockRun, DgtCommands, DgtEvent, DgtMessage, HostCommand};
use station_serial::pegboard::{BoardMessage, DriverEvent};
use station_stamp::Stamped;
use station_voices::understand::{RecordStep, SpokenCommand};
use std::time::{Duration, Instant};

/// The station: the table (both boards) and the jobs around it, each in its
/// own part: the pipeline (journal first, then the world), each board's link,
/// the DGT clock link, the speech desk, the recording device, the console's log.
pub struct Station {
    config: Config,
    /// Each board's serial link: orientation, last scan, drops, connected.
    links: ByBoard<BoardLinkState>,
    table: Table,
    /// Journal first, then the world: the writer, batches waiting for the
    /// disk, answers waiting for their batch, the subscribers, the figures.
    pipeline: Pipeline,
    clock: StationClock,
    voices: Option<VoicesHandle>,
    /// The blind player's Braille display (`[braille]`), when enabled.
    braille: Option<BrailleOut>,
    /// Where the blind player is in the record and which rank or file a button reads next.
    reading: RecordReading,
    hub: Option<Hub>,
    /// The recent events and the open discrepancies, for the console.
    console: ConsoleLog,
    /// The DGT clock: commands, the watch on its answers, its setup.
    dgt_link: DgtLink,
    /// A simulated gamepad's events, in place of gilrs (tests).
    gamepad_feed: Option<Receiver<Stamped<GamepadEvent>>>,
    /// Speech input: listening, understanding, the questions asked back.
    speech: SpeechDesk,
    /// The recording device of D.2.7 (`[speech] keep_audio`).
    recorder: Recorder,
    /// The engine playing the sighted side (`[opponent]`, issue 26).
    practice: practice::Practice,
}

impl Station {
    /// Starts the station with the newest game in the journal directory as it
    /// stood: an unfinished one goes on, a finished one is shown (see `resume`).
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
        let start = config.game.start_fen.clone().unwrap_or_default();
        let table = Table::new(TableConfig {
            tracker: config.tracker(),
            start: start.into(),
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
        // The rules seam, chosen here once by the configured name: a draughts
        // table reads the boards' scans and the entered moves as draughts.
        let table = table.with_rules(config.game.rules.rules());
        let clock_watch =
            (config.clock.source == ClockSource::Dgt).then(|| ClockWatch::new(config.clock.dgt_silent_ms));
        let mut station = Station {
            links: ByBoard::new(
                BoardLinkState::new(flipped(&config.boards.blind)),
                BoardLinkState::new(flipped(&config.boards.mirror)),
            ),
            config,
            table,
            pipeline: Pipeline::new(journals, Journal::start(writer)?, vec![Box::new(sink)]),
            clock: StationClock::new(),
            voices: None,
            braille: None,
            reading: RecordReading::new(),
            hub: None,
            console: ConsoleLog::default(),
            dgt_link: DgtLink::new(clock_watch),
            gamepad_feed: None,
            speech: SpeechDesk::default(),
            recorder: Recorder::default(),
            practice: practice::Practice::default(),
        };
        if station.config.speech.keep_audio {
            crate::kept_audio::prune_orphans(station.pipeline.journals.path());
            station.recorder.keeper = Some(crate::kept_audio::AudioKeeper::new(
                station.pipeline.journals.path(),
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
        let state = SpeechState::load(&state_path(self.pipeline.journals.path()));
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
        reading: Option<station_voices::ClockTimeRead>,
        t: Millis,
        events: &mut Vec<Event>,
    ) {
        let Some(v) = self.voices.as_ref() else { return };
        let reading = reading.unwrap_or_else(|| v.get().clock_reading().other());
        v.get_mut().set_clock_reading(reading);
        let path = state_path(self.pipeline.journals.path());
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
        let path = state_path(self.pipeline.journals.path());
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
        self.pipeline.subscribers.push(Box::new(HubEvents(hub.clone())));
        self.hub = Some(hub);
        self.publish_state();
    }

    /// The DGT board's command queue: with clock source `dgt`, the DGT clock is
    /// set through it (SetNRun) when a game starts.
    pub fn attach_dgt_clock(&mut self, commands: DgtCommands) {
        self.dgt_link.commands = Some(commands);
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
        self.pipeline
            .subscribers
            .push(Box::new(BrailleMoves::new(out.clone(), self.table.record().cloned())));
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

    /// How each listener's speaker tells the end of what it said, for the loop.
    pub fn speech_endings(&self) -> Vec<(&'static str, Receiver<Ended>)> {
        self.voices.as_ref().map(|v| v.get().endings()).unwrap_or_default()
    }

    /// A speaker is done with an utterance: a move or a result is journaled
    /// as said to the end or not (`said`), which a restart reads to say again
    /// what he did not hear.
    pub fn handle_ended(&mut self, listener: &str, ended: Ended) {
        let Some(said) = self.voices.as_ref().and_then(|v| v.get().ended(listener, &ended)) else { return };
        let t = self.time_of(ended.at);
        self.pipeline.journal.said(t, said);
    }

    /// Hands every durable batch to `s` from now on (the hall's broker).
    pub fn subscribe(&mut self, s: Box<dyn Subscriber>) {
        self.pipeline.subscribers.push(s);
    }

    /// Calls `f` with every event as it is emitted (the demo prints them).
    pub fn observe(&mut self, f: impl FnMut(&Event) + 'static) {
        self.pipeline.subscribers.push(Box::new(Observer(Box::new(f))));
    }

    /// How long the loop may wait for input before the table needs a tick.
    pub fn timeout(&self) -> Duration {
        let now = self.clock.now();
        let drops = self.links.values().filter_map(BoardLinkState::summary_due);
        let deadline = [self.table.deadline(), self.dgt_link.watch.as_ref().and_then(ClockWatch::deadline)]
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
            self.pipeline.journal.input(t, Input::Tick);
            self.decide(events);
        }
        let mut events = Vec::new();
        events.extend(self.dgt_link.setup.take_events());
        // Device liveness decides nothing about the game: not a table input.
        if let Some(WatchChange::Silent { since }) = self.dgt_link.watch.as_mut().and_then(|w| w.tick(t)) {
            let detail = format!("no reading for {} ms", t.saturating_sub(since));
            events.push(dgt_clock_status("disconnected", detail, t));
        }
        for board in [BoardRole::Blind, BoardRole::Mirror] {
            events.extend(self.links[board].drop_summary(board, None, t));
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
        let tags = self.practice.tags(self.config.seven_tags(date), self.table.config().blind_color);
        if self.table.config().tags != tags {
            self.table.set_default_tags(tags);
        }
        self.pipeline.journal.input(t, input.clone());
        match self.table.apply(t, &input) {
            Ok(decided) => {
                events.extend(decided);
                Ok(())
            }
            Err(e) => {
                self.pipeline.stats.refused = self.table.refused();
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
        // A scan the game cannot read (a chess board's in a 10×10 game, a
        // draughts board's in chess) is dropped and named.
        let refused = match &event {
            DriverEvent::Message(BoardMessage::Scan(_)) => {
                self.table.rules().refuses_scan(ScanSize::Squares64)
            }
            DriverEvent::Message(BoardMessage::Scan50(_)) => {
                self.table.rules().refuses_scan(ScanSize::Squares50)
            }
            _ => None,
        };
        match event {
            DriverEvent::Message(BoardMessage::Scan(_) | BoardMessage::Scan50(_)) if refused.is_some() => {
                let total = self.links[board].next_drop_total();
                let reason = refused.unwrap_or_default().to_string();
                events.extend(self.links[board].drop_summary(board, Some((reason, total)), t));
            }
            DriverEvent::Message(BoardMessage::Scan50(raw)) => {
                let bits = self.links[board].orientation.to_standard_50(raw);
                if self.links[board].fresh_scan(Bitboard(bits)).is_none() {
                    return self.tick_at(t);
                }
                let _ = self.apply(t, Input::scan50(board, bits), &mut events);
            }
            DriverEvent::Message(BoardMessage::Scan(raw)) => {
                let turned = self.links[board].orientation.to_standard(raw);
                let Some(occ) = self.links[board].fresh_scan(turned) else {
                    // A heartbeat: only time passes.
                    return self.tick_at(t);
                };
                let _ = self.apply(t, Input::scan(board, occ), &mut events);
            }
            DriverEvent::Message(BoardMessage::Button { index, pressed }) => {
                let _ = self.apply(t, Input::Button { board, button: index, pressed }, &mut events);
                events.push(Event::Button { board, button: index, pressed, t_ms: t });
                self.speech.push_to_talk(&self.config, &format!("{board}:{index}"), pressed);
                if pressed && let Some(action) = self.config.buttons.action_of(&format!("{board}:{index}")) {
                    self.action(board, action, t, &mut events);
                }
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
                events.extend(self.links[board].drop_summary(board, Some((error.to_string(), total)), t));
            }
        }
        self.decide(events);
        Ok(())
    }

    /// A board's link came (`reason` none) or went: journaled, and an event.
    fn link(&mut self, board: BoardRole, reason: Option<String>, t: Millis, events: &mut Vec<Event>) {
        let status = self.links[board].connect(reason.is_none());
        let _ = self.apply(t, Input::Link { board, status }, events);
        events.push(Event::BoardStatus { board, status, detail: reason, t_ms: t });
    }

    /// True when a button is mapped to a gamepad.
    pub fn uses_gamepads(&self) -> bool {
        self.config.buttons.sources().any(|s| s.starts_with("gamepad:"))
    }

    /// Handles a gamepad or foot switch: its buttons are the blind player's.
    pub fn handle_gamepad(&mut self, event: GamepadEvent, at: Instant) -> Result<()> {
        let t = self.time_of(at);
        let mut events = Vec::new();
        let status = |name, status, detail| device_status("gamepad", name, status, detail, t);
        if let GamepadEvent::Button { button, pressed, .. } = &event {
            self.speech.push_to_talk(&self.config, &format!("gamepad:{button}"), *pressed);
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
        self.pipeline.unanswered.push(Reply { to: request.reply, answer });
        Ok(())
    }

    fn execute(
        &mut self,
        command: OperatorCommand,
        t: Millis,
        events: &mut Vec<Event>,
    ) -> Result<Value, String> {
        // Most commands only pass an input on: the table decides.
        let command = match command.route() {
            Routed::Input(input) => {
                return self.apply(t, input, events).map(|()| json!({"ok": true})).map_err(|e| e.to_string());
            }
            Routed::Wrong(why) => return Err(why),
            Routed::Station(command) => *command,
        };
        let side = |s: &str| match s {
            "white" => Ok(Side::White),
            "black" => Ok(Side::Black),
            other => Err(format!("`{other}` is not white or black")),
        };
        let clock = |this: &mut Station, cmd: ClockCommand, events: &mut Vec<Event>| {
            this.apply(t, Input::from_clock_command(&cmd), events)
                .map(|()| json!({"ok": true}))
                .map_err(|e| e.to_string())
        };
        let ok = |r: Result<(), TableError>| r.map(|()| json!({"ok": true})).map_err(|e| e.to_string());
        match command {
            OperatorCommand::AcceptClockProposal { id } => {
                let proposal = self.console.discrepancies.iter().find_map(|e| match e {
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
            OperatorCommand::DrawOffer { side: s } => {
                let s = side(&s)?;
                self.apply(t, Input::DrawOffer { side: s }, events).map_err(|e| e.to_string())?;
                let ply = self.table.turn().map_or(0, |(ply, _)| ply);
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
            OperatorCommand::ClaimFlag { side: s } => {
                let s = side(&s)?;
                let fallen = self.table.clock().and_then(|c| c.flag(s));
                Ok(
                    json!({"side": if s == Side::White { "white" } else { "black" }, "flag_fell": fallen.is_some(), "at_ms": fallen}),
                )
            }
            OperatorCommand::EnterMove { mv, confirm } => {
                // Read back before it counts when the reading took liberties (issue 22 §3).
                // Chess's liberal notations only: a draughts move is given by its squares.
                let pos = self.table.agreed();
                if let Some(echo) = pos.and_then(|g| crate::move_echo::echo(g.position(), &mv, confirm)) {
                    return Ok(echo);
                }
                ok(self.apply(t, Input::EnterMove { mv }, events))
            }
            OperatorCommand::Practice { action, game } => {
                self.practice(practice::PracticeAction::parse(&action, game)?, t, events)
            }
            OperatorCommand::ClaimDraw { side: s, mv } => {
                let side = side(&s)?;
                self.apply(t, Input::ClaimDraw { side, mv }, events).map_err(|e| e.to_string())?;
                Ok(draw_claim_answer(events))
            }
            OperatorCommand::Spoken { text, confidence } => self.spoken(&text, confidence, t, events),
            OperatorCommand::NewGame { fen, chess960, moves, white, black, event, site, round, board } => {
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
            // Passed on above.
            passed => Err(format!("{passed:?} was not passed on to the table")),
        }
    }
}

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
                "written": written.as_ref().map(ToString::to_string),
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

mod board_link;
mod console_log;
mod dgt_link;
#[cfg(test)]
mod draughts_move_numbers;
mod game_speech;
mod pipeline;
mod practice;
mod recorder;
mod resume;
mod speech_desk;
mod spoken_chess;
mod spoken_draughts;
#[cfg(any(test, feature = "test-support"))]
pub mod test_support;
#[cfg(test)]
mod tests;
