//! What the station says, to whom: every agreed move, corrections, clock
//! readings and warnings, in each listener's language, through the audio path
//! (voice pack → espeak-ng → speech-dispatcher → text). Every utterance is
//! also an `announcement` event. Every change to the record (`told`) is
//! said to the blind player; the result to both players.
//!
//! Every utterance is also an `announcement` event. The utterances of a move (with its ply) and
//! of the result are tracked by the speaker's id until the speaker says how they ended
//! (`Speaker::endings`, a feed of the loop), which is journaled as `said`: a move counts as said
//! when the speaker finished it. A newer move replaces a move still waiting or being said, but
//! the moves of one delivered batch (plies read at once, or said again after a restart) follow
//! each other (`Speaker::say_following_move`): all are said, in order. Every change to the
//! record (`told`) is said to the blind player, the result to both players. A device that goes
//! (DGT clock silent, gamepad unplugged) is told privately once, and once when it is back. The
//! speakers mute the microphone while they talk; `silence` cuts the private speaker at once,
//! queued moves kept.

use crate::config::Config;
use crate::games::chess::word_event_move;
use crate::journal_file::Said;
use crate::told::{Change, Told, Viewer};
use shakmaty::{Position, Role, Square};
use station_audio::{Ended, Listeners, Priority, Speaker, Utterance};
use station_core::clock::{Side, Warning};
use station_core::event::About;
use station_core::table::Table;
use station_core::{BoardRole, Event, Millis};
use station_voices::{
    ClockTimeRead, Message, MoveReading, SquareDifference, VoiceSettings, Wording, clock_report,
    clock_report_used, say_duration, say_moves,
};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// One listener: a speaker and the wording in its language.
struct Listener {
    name: &'static str,
    speaker: Speaker,
    wording: Wording,
    /// The utterances whose end the journal keeps (a move and its ply, a
    /// result), by the speaker's id: what a restart says again unless they
    /// were heard to the end.
    tracked: RefCell<HashMap<u64, (About, Option<usize>)>>,
    /// A move was said in this batch of events: the next one follows it
    /// rather than replacing it (plies read at once are all said, in order).
    moved: Cell<bool>,
}

impl Listener {
    fn new(name: &'static str, speaker: Speaker, wording: Wording) -> Listener {
        Listener { name, speaker, wording, tracked: RefCell::default(), moved: Cell::new(false) }
    }

    /// Keeps utterance `id` (about `about`, the move of `ply`) until its speaker is done with it.
    fn track(&self, id: u64, about: About, ply: Option<usize>) {
        self.tracked.borrow_mut().insert(id, (about, ply));
    }
}

mod draughts;
#[cfg(test)]
mod tests;

/// The station's voices.
pub struct Voices {
    private: Listener,
    public: Option<Listener>,
    /// The last move as said (his words, the opponent's) and its ply.
    last_move: Option<(String, Option<String>)>,
    last_ply: Option<usize>,
    /// What differs between his board and the game now, as last said.
    difference: Option<String>,
    /// Devices the blind player was told are gone (`device:name`), so he is
    /// told once when one goes and once when it comes back.
    lost: std::collections::HashSet<String>,
    /// What the talking clock reads: time left or time used (D.2.10.4).
    clock_reading: ClockTimeRead,
    /// The record as told, to name what changes.
    told: Told,
    /// The changes told in this batch of events.
    batch: Vec<Change>,
    /// The changes of the last batch that had any, worded for the mirror
    /// in every page language (see [`Voices::mirror_change`]).
    latest: Option<serde_json::Value>,
    /// The wording options the mirror's line is said with.
    mirror_settings: VoiceSettings,
}

impl Voices {
    /// Starts both listeners from the config (never fails: problems become warnings).
    pub fn start(config: &Config) -> anyhow::Result<Voices> {
        let listeners = Listeners::start(&config.audio);
        let private_wording = Wording::new(&config.voice)?;
        let public = match listeners.public {
            Some(speaker) => {
                // ICCF numbers are the blind player's choice; the public speaker says letters.
                let settings = VoiceSettings {
                    language: config.audio.public.language.clone(),
                    move_reading: MoveReading::Letters,
                    ..config.voice.clone()
                };
                Some(Listener::new("public", speaker, Wording::new(&settings)?))
            }
            None => None,
        };
        Ok(Voices {
            private: Listener::new("private", listeners.private, private_wording),
            public,
            last_move: None,
            last_ply: None,
            difference: None,
            lost: Default::default(),
            clock_reading: config.voice.clock_reading,
            told: Told::new(),
            batch: Vec::new(),
            latest: None,
            mirror_settings: VoiceSettings { move_reading: MoveReading::Letters, ..config.voice.clone() },
        })
    }

    /// The microphone is muted while either listener's speaker talks.
    pub fn mute_while_speaking(&self, flag: &station_audio::speech::MuteFlag) {
        self.private.speaker.mute_while_speaking(flag.clone());
        if let Some(public) = &self.public {
            public.speaker.mute_while_speaking(flag.clone());
        }
    }

    /// Each listener's speaker and how it tells the end of what it said
    /// (for [`Voices::ended`]).
    pub fn endings(&self) -> Vec<(&'static str, crossbeam_channel::Receiver<Ended>)> {
        std::iter::once(&self.private)
            .chain(self.public.as_ref())
            .map(|l| (l.name, l.speaker.endings().clone()))
            .collect()
    }

    /// `listener`'s speaker is done with an utterance: what the journal
    /// keeps of it (a move or a result), if it keeps anything.
    pub fn ended(&self, listener: &str, ended: &Ended) -> Option<Said> {
        let l = std::iter::once(&self.private).chain(self.public.as_ref()).find(|l| l.name == listener)?;
        let (about, ply) = l.tracked.borrow_mut().remove(&ended.id)?;
        Some(Said {
            listener: l.name.into(),
            about,
            ply,
            outcome: speech_end(ended.ending),
            voice: ended.voice.map(|v| format!("{v:?}").to_lowercase()),
        })
    }

    /// Says what an event calls for; the announcements are pushed to `out`.
    /// Call [`Voices::end_batch`] after the last event of a batch.
    ///
    /// The event is about its own moment and `table` may be further on (the
    /// batch's later events are in it already): a move is worded from the
    /// record as told (`told`), which has folded every event up to this one.
    /// The table is read for the configuration only (the listeners'
    /// colours, the rules and so the game's words, a draughts game's variant),
    /// which no event of a batch changes.
    pub fn on_event(&mut self, event: &Event, table: &Table, t: Millis, out: &mut Vec<Event>) {
        let changes = self.told.observe(event, table);
        let ply = match event {
            Event::GameMove { ply, .. } => Some(*ply),
            _ => None,
        };
        self.tell(changes, table, ply, t, out);
        let blind = Side::from(table.config().blind_color);
        match event {
            // A new game starts with a clean line on the mirror.
            Event::GameStarted { .. } => {
                self.latest = None;
                self.batch.clear();
            }
            // Said as a correction of the move he heard (`told`).
            Event::GameMove { revised: true, .. } => {}
            Event::GameMove { ply, pdn: Some(pdn), .. } => self.draughts_move(*ply, pdn, table, t, out),
            Event::Irregularity {
                text, steps, kind, moves, ply, required, taken, squares, fixes, ..
            } => {
                // Draughts (5.4, VIII.3.1): named to both players in their
                // languages, with what puts the board right.
                let facts = crate::draughts_speech::IrregularityFacts {
                    kind,
                    moves,
                    ply: *ply,
                    required: *required,
                    taken: *taken,
                    squares,
                    fixes,
                };
                self.say_draughts(table, text, steps, t, out, |book, variant| {
                    crate::draughts_speech::irregularity_words(book, variant, &facts)
                });
            }
            Event::IrregularityDecided { decision, steps, fixes, .. } => {
                let accept = *decision == station_core::event::Decision::Accept;
                self.say_draughts(table, decision.as_str(), steps, t, out, |book, variant| {
                    crate::draughts_speech::decision_words(book, variant, accept, fixes)
                });
            }
            Event::GameMove { ply, uci, .. } => {
                // The record as told, which has folded this move: the table
                // may be further on (a take-back or a new game later in the
                // same batch).
                let Some(pos) = self.told.position_before(*ply).cloned() else {
                    return;
                };
                let pos = &pos;
                let word = |l: &Listener| word_event_move(&l.wording, pos, uci);
                let private = word(&self.private);
                let public = self.public.as_ref().and_then(word);
                if let Some((utterance, text)) = private.clone() {
                    say_move(&self.private, utterance, text, *ply, t, out);
                }
                if let (Some(l), Some((utterance, text))) = (self.public.as_ref(), public.clone()) {
                    say_move(l, utterance, text, *ply, t, out);
                }
                self.last_move = private.map(|(_, p)| (p, public.map(|(_, q)| q)));
                self.last_ply = Some(*ply);
            }
            Event::Discrepancy { fix, .. } => {
                for f in fix {
                    let listener = match f.board {
                        BoardRole::Blind => Some(&self.private),
                        BoardRole::Mirror => self.public.as_ref(),
                    };
                    let Some(l) = listener else { continue };
                    let mut texts = vec![l.wording.message(Message::CorrectPosition).to_owned()];
                    for step in &f.steps {
                        texts.push(step_text(&l.wording, step));
                    }
                    let text = texts.join(". ");
                    say(l, Utterance::text(text.clone()), text, About::Correction, Priority::Urgent, t, out);
                }
            }
            Event::AnnouncementChecked { ply, said, sensed, matches: false, .. } => {
                // D.2.8 (VIII.2.3 in draughts): name both, so he can correct the board or the
                // announcement; both in the position the record as told holds for the ply.
                let (words, wording) = (crate::games::words_of(table.rules()), &self.private.wording);
                let before = self.told.position_before(*ply);
                let (Some(said), Some(sensed)) =
                    (words.move_at(wording, before, said), words.move_at(wording, before, sensed))
                else {
                    return;
                };
                let text = format!("{said} — {}: {sensed}", wording.message(Message::BoardMismatch));
                say(
                    &self.private,
                    Utterance::text(text.clone()),
                    text,
                    About::Correction,
                    Priority::Urgent,
                    t,
                    out,
                );
            }
            Event::BoardMismatch { board: BoardRole::Blind, diff, reason, candidates, .. } => {
                // Said once per new difference, never again after every move;
                // the `read_difference` button or word says it again.
                let mut text = difference_text(&self.private.wording, diff);
                if let Some(question) = self.which_move(table, *reason, candidates) {
                    // D.2.3: the board fits several moves; his announcement tells which.
                    text = question;
                }
                if *reason == station_core::event::MismatchReason::RookFirst {
                    // Art. 4.4.2: why his castling is the rook's move, before what to put back.
                    text = format!("{}. {text}", self.private.wording.message(Message::RookFirst));
                }
                if self.difference.as_deref() == Some(text.as_str()) {
                    return;
                }
                self.difference = Some(text.clone());
                say(
                    &self.private,
                    Utterance::text(text.clone()),
                    text,
                    About::Difference,
                    Priority::Urgent,
                    t,
                    out,
                );
            }
            Event::BoardRestored { board: BoardRole::Blind, .. } => self.difference = None,
            Event::SetupDiffers { board: BoardRole::Blind, diff, .. } => {
                // His Chess960 set-up (ICCF Appendix B), once his board is still:
                // what differs from the start position, square by square.
                let text = self.private.wording.word_setup_check(&square_differences(diff));
                say(
                    &self.private,
                    Utterance::text(text.clone()),
                    text,
                    About::Setup,
                    Priority::Urgent,
                    t,
                    out,
                );
            }
            Event::BoardStatus { board: BoardRole::Blind, status, .. } => {
                let m = match status {
                    station_core::event::LinkStatus::Connected => Message::BoardConnected,
                    station_core::event::LinkStatus::Disconnected => Message::BoardDisconnected,
                };
                let text = self.private.wording.message(m).to_owned();
                say(
                    &self.private,
                    Utterance::text(text.clone()),
                    text,
                    About::Status,
                    Priority::Urgent,
                    t,
                    out,
                );
            }
            Event::DeviceStatus { device, name, status, .. } => {
                let key = format!("{device}:{}", name.as_deref().unwrap_or(""));
                let message = match (device.as_str(), status.as_str()) {
                    ("dgt_clock", "disconnected") if self.lost.insert(key.clone()) => {
                        Message::ClockNotAnswering
                    }
                    ("dgt_clock", "connected") if self.lost.remove(&key) => Message::ClockAnswering,
                    // The clock link gave a command up (see `dgt_clock`).
                    ("dgt_clock", "not_in_mode_23") => Message::ClockNotInMode23,
                    ("dgt_clock", "not_answering") if self.lost.insert(key.clone()) => {
                        Message::ClockNotAnswering
                    }
                    ("dgt_clock", "refused") => Message::CallArbiter,
                    ("gamepad", "disconnected") if self.lost.insert(key.clone()) => {
                        Message::GamepadDisconnected
                    }
                    ("gamepad", "connected") if self.lost.remove(&key) => Message::GamepadConnected,
                    // Speech input: the model or the microphone, whatever its name, is one thing to him.
                    ("speech_model" | "microphone", "unavailable") if self.lost.insert("speech".into()) => {
                        Message::SpeechUnavailable
                    }
                    ("microphone", "connected") if self.lost.remove("speech") => Message::SpeechAvailable,
                    ("journal", "damaged") if self.lost.insert("journal".into()) => Message::JournalDamaged,
                    _ => return,
                };
                let text = self.private.wording.message(message).to_owned();
                say(
                    &self.private,
                    Utterance::text(text.clone()),
                    text,
                    About::Device,
                    Priority::Urgent,
                    t,
                    out,
                );
            }
            Event::ClockPremature { side, .. } if *side == blind => {
                let text = self.private.wording.message(Message::WaitingForMove).to_owned();
                say(
                    &self.private,
                    Utterance::text(text.clone()),
                    text,
                    About::Clock,
                    Priority::Urgent,
                    t,
                    out,
                );
            }
            Event::ClockWarning { warning, .. } => {
                if let Some(text) = warning_text(&self.private.wording, warning, blind) {
                    let urgent = matches!(
                        warning,
                        Warning::FlagFell { .. } | Warning::Remaining { time_trouble: true, .. }
                    );
                    let priority = if urgent { Priority::Urgent } else { Priority::Low };
                    say(&self.private, Utterance::text(text.clone()), text, About::Warning, priority, t, out);
                }
            }
            _ => {}
        }
    }

    /// The end of a batch of events: what it gathered is told (the
    /// take-backs of one moment as one correction), and its changes become
    /// the mirror's line.
    pub fn end_batch(&mut self, table: &Table, t: Millis, out: &mut Vec<Event>) {
        for l in std::iter::once(&self.private).chain(self.public.as_ref()) {
            l.moved.set(false);
        }
        let changes = self.told.flush();
        self.tell(changes, table, None, t, out);
        if !self.batch.is_empty() {
            let changes = std::mem::take(&mut self.batch);
            self.latest = Some(self.mirror_line(&changes, table, t));
        }
    }

    /// Every change to the record, said to the blind player in his words
    /// from his side; the result to the opponent's speaker too. A revised
    /// move is the move of `ply` when the event told gives it. Each change
    /// carries its words' facts; `table` gives only who sits where (the
    /// configuration, the same at every moment).
    fn tell(
        &mut self,
        changes: Vec<Change>,
        table: &Table,
        ply: Option<usize>,
        t: Millis,
        out: &mut Vec<Event>,
    ) {
        let me = table.config().blind_color;
        let (his, theirs) = (Viewer { color: me, blind: true }, Viewer { color: !me, blind: false });
        for change in changes {
            let priority = match change {
                Change::Revised(_) => Priority::Move,
                Change::TimeAdded { .. } | Change::TimeSet { .. } | Change::MovesSet { .. } => {
                    Priority::Normal
                }
                Change::BoardRight { .. } => Priority::Normal,
                _ => Priority::Urgent,
            };
            // A restart says a move or the result again unless it was heard to the end.
            let kept = match &change {
                Change::Revised(_) => Some(ply),
                Change::Result { .. } => Some(None),
                _ => None,
            };
            let text = crate::told::word(&change, &self.private.wording, his);
            let id =
                say(&self.private, Utterance::text(text.clone()), text, change.about(), priority, t, out);
            if let Some(ply) = kept {
                self.private.track(id, change.about(), ply);
            }
            // The opponent hears the result, and a move he heard replaced.
            if let (Some(l), Change::Revised(_) | Change::Result { .. }) = (&self.public, &change) {
                let text = crate::told::word(&change, &l.wording, theirs);
                let id = say(l, Utterance::text(text.clone()), text, change.about(), priority, t, out);
                l.track(id, change.about(), kept.flatten());
            }
            if let Change::Revised(said) = &change {
                let public = self.public.as_ref().map(|l| said.words(&l.wording));
                self.last_move = Some((said.words(&self.private.wording), public));
                self.last_ply = ply;
            }
            self.batch.push(change);
        }
    }

    /// The mirror's line: the changes of the last batch that had any, in
    /// each page language from the sighted player's side
    /// (`{"t_ms", "text": {"de": …, "pl": …, …}}`, one per built-in language); `None` before any.
    pub fn mirror_change(&self) -> Option<serde_json::Value> {
        self.latest.clone()
    }

    /// `changes` worded for the mirror, once per page language.
    fn mirror_line(&self, changes: &[Change], table: &Table, t: Millis) -> serde_json::Value {
        let viewer = Viewer { color: !table.config().blind_color, blind: false };
        let mut text = serde_json::Map::new();
        for lang in station_voices::BUILTIN_LANGUAGES {
            let settings = VoiceSettings { language: lang.into(), ..self.mirror_settings.clone() };
            let Ok(w) = Wording::new(&settings) else { continue };
            let line: Vec<String> = changes.iter().map(|c| crate::told::word(c, &w, viewer)).collect();
            text.insert(lang.into(), serde_json::Value::String(line.join(". ")));
        }
        serde_json::json!({ "t_ms": t, "text": text })
    }

    /// What the talking clock reads from now on (`[voice] clock_reading`,
    /// "Zeit verbraucht"/"Restzeit", the `clock_reading` button).
    pub fn set_clock_reading(&mut self, reading: ClockTimeRead) {
        self.clock_reading = reading;
    }

    /// What the talking clock reads now.
    pub fn clock_reading(&self) -> ClockTimeRead {
        self.clock_reading
    }

    /// The talking clock on request (D.2.6.1, D.2.10.4): own time, the
    /// opponent's — left or used, as he chose — and the moves made.
    pub fn say_time(&self, table: &Table, t: Millis, out: &mut Vec<Event>) {
        let book = self.private.wording.phrasebook();
        let moves = table.turn().map_or(0, |(ply, _)| ply.div_ceil(2)) as u32;
        let text = match table.clock() {
            Some(clock) => {
                let own = Side::from(table.config().blind_color);
                match self.clock_reading {
                    ClockTimeRead::Remaining => {
                        clock_report(book, clock.remaining(own, t), clock.remaining(own.opponent(), t), moves)
                    }
                    ClockTimeRead::Used => clock_report_used(
                        book,
                        clock.time_used(own, t),
                        clock.time_used(own.opponent(), t),
                        moves,
                    ),
                }
            }
            None => say_moves(book, moves),
        };
        say(&self.private, Utterance::text(text.clone()), text, About::Clock, Priority::Urgent, t, out);
    }

    /// "Welcher Zug war es: Läufer schlägt Anna sechs oder Läufer schlägt
    /// Cesar sechs?": the moves a board fits, worded for him, when the station
    /// asks about the record's next ply: worded in the position the record as
    /// told stands at, the moment of the question (the table may be further
    /// on). None for a question about a later ply (its moves cannot be worded
    /// from the record): the difference is said.
    fn which_move(
        &self,
        table: &Table,
        reason: station_core::event::MismatchReason,
        candidates: &[station_core::event::PlayedMove],
    ) -> Option<String> {
        if reason != station_core::event::MismatchReason::Ambiguous || candidates.len() < 2 {
            return None;
        }
        let wording = &self.private.wording;
        let words = crate::games::words_of(table.rules());
        let now = self.told.position();
        let named: Option<Vec<String>> =
            candidates.iter().map(|c| words.move_at(wording, now, c).filter(|w| !w.is_empty())).collect();
        let named = named?;
        let or = format!(" {} ", wording.phrasebook().command_words().map_or("/", |w| w.or()));
        Some(format!("{}: {}?", wording.message(Message::WhichMove), named.join(&or)))
    }

    /// Words for the blind player alone (questions, refusals).
    pub fn say_private(&self, text: String, about: About, t: Millis, out: &mut Vec<Event>) {
        say(&self.private, Utterance::text(text.clone()), text, about, Priority::Urgent, t, out);
    }

    /// The blind player offers a draw: the opponent hears it on the public speaker.
    pub fn say_public_draw_offer(&self, t: Millis, out: &mut Vec<Event>) {
        if let Some(l) = &self.public {
            let text = l.wording.word_draw_offer().to_owned();
            say(l, Utterance::text(text.clone()), text, About::DrawOffer, Priority::Urgent, t, out);
        }
    }

    /// What differs between his board and the game, again (`read_difference`);
    /// nothing differing is said as such. While the station waits for a new
    /// game, his set-up is checked square by square against the start position.
    pub fn read_difference(&self, table: &Table, t: Millis, out: &mut Vec<Event>) {
        if table.phase() == station_core::table::Phase::Waiting && table.sensed(BoardRole::Blind).any() {
            // A draughts table has no chess start: the standard one stands in, as it always did.
            let standard = station_core::Game::default();
            let start = table.config().start.chess().unwrap_or(&standard).start().board();
            let diff = station_core::setup::check(start, table.sensed(BoardRole::Blind));
            let text = self.private.wording.word_setup_check(&square_differences(&diff));
            say(&self.private, Utterance::text(text.clone()), text, About::Setup, Priority::Urgent, t, out);
            return;
        }
        let text = match &self.difference {
            Some(text) => text.clone(),
            None => self.private.wording.message(Message::PositionRestored).to_owned(),
        };
        say(&self.private, Utterance::text(text.clone()), text, About::Difference, Priority::Urgent, t, out);
    }

    /// The start position read to him piece by piece so he can set up his
    /// board (ICCF Appendix B): a Chess960 start other than the standard one.
    pub fn say_setup(&self, table: &Table, t: Millis, out: &mut Vec<Event>) {
        // A draughts start has no set-up to read out.
        let Some(start) = table.config().start.chess() else { return };
        let board = start.start().board();
        let Some(number) = station_core::setup::chess960_number(board).filter(|&n| n != 518) else { return };
        let text = self.private.wording.word_setup(number, &station_core::setup::first_rank(board));
        say(&self.private, Utterance::text(text.clone()), text, About::Setup, Priority::Urgent, t, out);
    }

    /// `silence`: the blind player's speaker stops at once; what it said
    /// stays in the events, a move cut short is said again on "Wiederholen".
    pub fn silence(&self, t: Millis, out: &mut Vec<Event>) {
        self.private.speaker.cut();
        out.push(Event::Announcement {
            listener: self.private.name.into(),
            text: String::new(),
            about: About::Silence,
            t_ms: t,
        });
    }

    /// Sets the blind player's speaking rate (percent of normal) for his
    /// earphone; returns the rate the speaker took.
    pub fn set_rate(&self, percent: u32) -> u32 {
        self.private.speaker.set_rate(percent)
    }

    /// The last move again.
    pub fn repeat_last_move(&self, t: Millis, out: &mut Vec<Event>) {
        if let Some((text, _)) = &self.last_move {
            let id = say(
                &self.private,
                Utterance::text(text.clone()),
                text.clone(),
                About::Move,
                Priority::Move,
                t,
                out,
            );
            if let Some(ply) = self.last_ply {
                self.private.track(id, About::Move, Some(ply));
            }
        }
    }
}

/// How the journal names a speaker's ending (the driver knows no journal).
fn speech_end(ending: station_audio::Ending) -> station_core::event::SpeechEnd {
    use station_audio::Ending;
    use station_core::event::SpeechEnd;
    match ending {
        Ending::Finished => SpeechEnd::Finished,
        Ending::Estimated => SpeechEnd::Estimated,
        Ending::Cut => SpeechEnd::Cut,
        Ending::Dropped => SpeechEnd::Dropped,
    }
}

/// Says `utterance` to `l` and pushes its `announcement`; the speaker's id for it.
fn say(
    l: &Listener,
    utterance: Utterance,
    text: String,
    about: About,
    priority: Priority,
    t: Millis,
    out: &mut Vec<Event>,
) -> u64 {
    let id = l.speaker.say(utterance, priority);
    out.push(Event::Announcement { listener: l.name.into(), text, about, t_ms: t });
    id
}

/// Says the move of `ply` to `l`, its end kept for the journal: after a
/// move said in the same batch (decided with it), else in place of any
/// move still waiting or being said.
fn say_move(l: &Listener, utterance: Utterance, text: String, ply: usize, t: Millis, out: &mut Vec<Event>) {
    let id = if l.moved.replace(true) {
        let id = l.speaker.say_following_move(utterance);
        out.push(Event::Announcement { listener: l.name.into(), text, about: About::Move, t_ms: t });
        id
    } else {
        say(l, utterance, text, About::Move, Priority::Move, t, out)
    };
    l.track(id, About::Move, Some(ply));
}

/// "Ihr Brett weicht von der Partie ab. Eva eins: König fehlt. David drei: Stift zu viel".
fn difference_text(wording: &Wording, diff: &[station_core::diff::SquareDiff]) -> String {
    wording.word_difference(&square_differences(diff))
}

/// The core's square differences in the voices' terms.
fn square_differences(diff: &[station_core::diff::SquareDiff]) -> Vec<SquareDifference> {
    diff.iter()
        .filter_map(|d| {
            Some(SquareDifference {
                square: d.square.parse::<Square>().ok()?,
                expected: d.expected.and_then(|c| Role::from_char(c.to_ascii_lowercase())),
                peg: d.peg,
            })
        })
        .collect()
}

/// "Springer von Eva fünf zurück nach Felix drei", or a removal/placement in words.
fn step_text(wording: &Wording, step: &station_core::correction::StepRecord) -> String {
    let square = |s: &Option<String>| s.as_deref().and_then(|s| s.parse::<Square>().ok());
    let role = step.piece.chars().next().and_then(Role::from_char).unwrap_or(Role::Pawn);
    match (step.action.as_str(), square(&step.from), square(&step.to)) {
        ("move", Some(from), Some(to)) => wording.word_correction(role, from, to).to_string(),
        (_, Some(sq), None) | (_, None, Some(sq)) => {
            let [letter, rank] = wording.word_square(sq);
            format!("{} {} {}", wording.word_piece(role).text, letter.text, rank.text)
        }
        _ => String::new(),
    }
}

fn warning_text(wording: &Wording, warning: &Warning, blind: Side) -> Option<String> {
    let book = wording.phrasebook();
    match *warning {
        Warning::Remaining { side, threshold_ms, .. } if side == blind => {
            Some(say_duration(book, threshold_ms))
        }
        Warning::FlagFell { .. } => Some(wording.message(Message::CallArbiter).to_owned()),
        Warning::TimeControlReached { side, .. } if side == blind => {
            Some(wording.message(Message::YourMove).to_owned())
        }
        _ => None,
    }
}
