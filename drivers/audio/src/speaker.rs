//! A listener's speaker: a bounded priority queue in front of a background
//! thread that says each utterance with the best voice that works.
//!
//! [`Speaker::say`] never blocks: it only takes a short lock to queue and,
//! when the new utterance outranks what is being said, flips that
//! utterance's stop flag (checked on every sample). Voices fail over
//! pack → espeak-ng → speech-dispatcher → text; every failure is a warning in
//! the log, the [`SpeakerStatus`] and the event stream, and the game goes on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use super::error::AudioError;
use super::espeak::{Espeak, espeak_voice};
use super::output::{Output, Signal};
use super::pack::VoicePack;
use super::pcm::duration_of;
use super::queue::{Queue, Queued};
use super::settings::{AudioSettings, ListenerSettings, VoiceKind};
use super::tts_voice::{TtsOutcome, TtsVoice};
use super::utterance::{Priority, Utterance};

/// Most warnings kept in the status (the newest).
const MAX_WARNINGS: usize = 16;
/// Events buffered for a reader; when nobody reads, further events are dropped.
const EVENT_BUFFER: usize = 256;
/// How long a stopped clip may take to acknowledge before the device is
/// considered stalled.
const STOP_GRACE: Duration = Duration::from_millis(300);
/// Slack over a clip's length before the device is considered stalled.
const PLAY_SLACK: Duration = Duration::from_millis(1_500);
/// Do not retry opening a failed device more often than this.
const REOPEN_EVERY: Duration = Duration::from_secs(5);
/// espeak-ng fallback must be quick or not at all: the game does not wait.
const ESPEAK_TIMEOUT: Duration = Duration::from_secs(3);

/// What a speaker reports, for the event stream and tests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpeakerEvent {
    /// Started saying an utterance with a voice.
    Started {
        /// Id returned by [`Speaker::say`].
        id: u64,
        /// The voice used.
        voice: VoiceKind,
        /// What is said.
        text: String,
    },
    /// The first sample was handed to the device.
    FirstSample {
        /// Utterance id.
        id: u64,
        /// The moment the first sample went to the device.
        at: Instant,
        /// Since [`Speaker::say`] was called.
        latency: Duration,
    },
    /// Said to the end.
    Finished {
        /// Utterance id.
        id: u64,
    },
    /// Cut off by a more urgent or newer utterance.
    Cut {
        /// Utterance id.
        id: u64,
    },
    /// Dropped from the queue unsaid (superseded or queue full).
    Dropped {
        /// Utterance id.
        id: u64,
    },
    /// Something is degraded (no device, missing pack, failed voice).
    Warning {
        /// Human-readable, for the daemon to surface.
        message: String,
    },
}

/// How a speaker was done with an utterance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Said to the end: the device took its last sample (a pack, espeak-ng),
    /// or the text was handed on whole (text only).
    Finished,
    /// A voice that cannot tell its end (speech-dispatcher without a device
    /// to report from): the time it takes to say it passed.
    Estimated,
    /// Stopped before its end by more urgent or newer words.
    Cut,
    /// Never begun: dropped from the queue (superseded, queue full, `silence`).
    Dropped,
}

impl Ending {
    /// Its name in the journal: `finished`, `estimated`, `cut`, `dropped`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Finished => "finished",
            Ending::Estimated => "estimated",
            Ending::Cut => "cut",
            Ending::Dropped => "dropped",
        }
    }
}

/// An utterance a speaker is done with ([`Speaker::endings`]): what the
/// station journals, so a restart knows what the listener heard to the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ended {
    /// The id [`Speaker::say`] returned.
    pub id: u64,
    /// How it ended.
    pub ending: Ending,
    /// The voice that began it, if one did.
    pub voice: Option<VoiceKind>,
    /// The moment it ended.
    pub at: Instant,
}

/// A snapshot of a speaker's health for `station status`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SpeakerStatus {
    /// "private" or "public".
    pub listener: String,
    /// The open output device, if any.
    pub device: Option<String>,
    /// Voices that are ready, in preference order (text always last).
    pub available: Vec<VoiceKind>,
    /// Whether voices are still being set up.
    pub starting: bool,
    /// The newest warnings.
    pub warnings: Vec<String>,
    /// Utterances said to the end.
    pub finished: u64,
    /// Utterances cut off.
    pub cut: u64,
    /// Utterances dropped unsaid.
    pub dropped: u64,
}

struct Playing {
    priority: Priority,
    stop: Arc<AtomicBool>,
}

struct State {
    queue: Queue,
    playing: Option<Playing>,
    next_id: u64,
    shutdown: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    status: Mutex<SpeakerStatus>,
    events: Sender<SpeakerEvent>,
    /// Held while speaking, so the microphone does not hear the station.
    mute: Mutex<Option<crate::speech::MuteFlag>>,
    /// The listener's speaking rate in percent (100 normal; issue 18).
    rate_percent: std::sync::atomic::AtomicU32,
    /// Every utterance's end, unbounded: none may be lost (see [`Ended`]).
    endings: Sender<Ended>,
    /// The voice each utterance under way began with.
    begun: Mutex<std::collections::HashMap<u64, VoiceKind>>,
}

impl Shared {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn status(&self) -> MutexGuard<'_, SpeakerStatus> {
        self.status.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn emit(&self, event: SpeakerEvent) {
        let ended = match &event {
            SpeakerEvent::Started { id, voice, .. } => {
                self.begun.lock().unwrap_or_else(PoisonError::into_inner).insert(*id, *voice);
                None
            }
            SpeakerEvent::Finished { id } => {
                self.status().finished += 1;
                Some((*id, Ending::Finished))
            }
            SpeakerEvent::Cut { id } => {
                self.status().cut += 1;
                Some((*id, Ending::Cut))
            }
            SpeakerEvent::Dropped { id } => {
                self.status().dropped += 1;
                Some((*id, Ending::Dropped))
            }
            _ => None,
        };
        if let Some((id, ending)) = ended {
            let voice = self.begun.lock().unwrap_or_else(PoisonError::into_inner).remove(&id);
            // speech-dispatcher's end is the estimate of `tts_voice`, not a report.
            let ending = match (ending, voice) {
                (Ending::Finished, Some(VoiceKind::Tts)) => Ending::Estimated,
                (ending, _) => ending,
            };
            let _ = self.endings.send(Ended { id, ending, voice, at: Instant::now() });
        }
        let _ = self.events.try_send(event);
    }

    fn warn(&self, message: String) {
        let listener = self.status().listener.clone();
        tracing::warn!(%listener, "{message}");
        {
            let mut status = self.status();
            status.warnings.push(message.clone());
            let excess = status.warnings.len().saturating_sub(MAX_WARNINGS);
            status.warnings.drain(..excess);
        }
        self.emit(SpeakerEvent::Warning { message });
    }
}

/// One listener's speaker. Dropping it stops its thread (waiting at most a
/// second for it).
pub struct Speaker {
    shared: Arc<Shared>,
    events: Receiver<SpeakerEvent>,
    endings: Receiver<Ended>,
    exited: Receiver<()>,
    thread: Option<JoinHandle<()>>,
}

impl Speaker {
    /// Starts a speaker for `listener` ("private", "public"). Never fails:
    /// voices are set up on the speaker's thread, and what cannot be set up
    /// becomes a warning while the speaker falls back to the next voice.
    pub fn start(listener: &str, settings: &ListenerSettings, packs_dir: Option<&Path>) -> Speaker {
        let (events_tx, events) = crossbeam_channel::bounded(EVENT_BUFFER);
        let (endings_tx, endings) = crossbeam_channel::unbounded();
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                queue: Queue::new(settings.queue),
                playing: None,
                next_id: 1,
                shutdown: false,
            }),
            wake: Condvar::new(),
            status: Mutex::new(SpeakerStatus {
                listener: listener.to_owned(),
                starting: true,
                ..SpeakerStatus::default()
            }),
            events: events_tx,
            mute: Mutex::new(None),
            rate_percent: std::sync::atomic::AtomicU32::new(100),
            endings: endings_tx,
            begun: Mutex::new(std::collections::HashMap::new()),
        });
        let (exited_tx, exited) = crossbeam_channel::bounded(1);
        let thread_shared = shared.clone();
        let settings = settings.clone();
        let packs_dir = packs_dir.map(Path::to_path_buf);
        let thread = std::thread::Builder::new().name(format!("speaker-{listener}")).spawn(move || {
            run(&thread_shared, &settings, packs_dir);
            let _ = exited_tx.send(());
        });
        let thread = match thread {
            Ok(handle) => Some(handle),
            Err(e) => {
                shared.warn(format!("cannot start speaker thread: {e}; text only"));
                None
            }
        };
        Speaker { shared, events, endings, exited, thread }
    }

    /// Queues `utterance`; returns its id for the events. Never blocks: an
    /// utterance that outranks the one being said cuts it off, a newer move
    /// replaces a stale one, and a full queue drops its least urgent entry.
    pub fn say(&self, utterance: Utterance, priority: Priority) -> u64 {
        self.admit(utterance, |queue, item, playing| queue.push(item, playing), priority)
    }

    /// Queues the words of a move decided together with the move just said
    /// (several plies read at once, or said again after a restart): after
    /// it, neither replacing it nor cutting it off; a later move replaces
    /// both as it replaces one. Returns its id for the events.
    pub fn say_following_move(&self, utterance: Utterance) -> u64 {
        self.admit(utterance, |queue, item, _| queue.push_following(item), Priority::Move)
    }

    /// Queues `utterance` as `push` admits it; its id.
    fn admit(
        &self,
        utterance: Utterance,
        push: impl FnOnce(&mut Queue, Queued, Option<Priority>) -> super::queue::Admitted,
        priority: Priority,
    ) -> u64 {
        let asked = Instant::now();
        let (id, dropped) = {
            let mut state = self.shared.state();
            let id = state.next_id;
            state.next_id += 1;
            let playing = state.playing.as_ref().map(|p| p.priority);
            let admitted = push(&mut state.queue, Queued { id, priority, utterance, asked }, playing);
            if admitted.interrupt
                && let Some(p) = &state.playing
            {
                p.stop.store(true, Ordering::Relaxed);
            }
            (id, admitted.dropped)
        };
        self.shared.wake.notify_one();
        for id in dropped {
            self.shared.emit(SpeakerEvent::Dropped { id });
        }
        id
    }

    /// Holds `flag` while anything is being said (the microphone drops what
    /// it hears meanwhile: the station's own voice is never a move).
    pub fn mute_while_speaking(&self, flag: crate::speech::MuteFlag) {
        *self.shared.mute.lock().unwrap_or_else(PoisonError::into_inner) = Some(flag);
    }

    /// The listener's `silence`: cuts off what is being said at once (the
    /// output checks the stop flag on every sample) and drops the queued
    /// answers; queued moves stay, a move cut short is said again on request.
    pub fn cut(&self) {
        self.cut_and_drop(Queue::drop_all_but_moves);
    }

    /// Cuts off what is being said and drops what `drop` takes from the
    /// queue, reporting each dropped utterance once the lock is let go.
    fn cut_and_drop(&self, drop: impl FnOnce(&mut Queue) -> Vec<u64>) {
        let dropped = {
            let mut state = self.shared.state();
            if let Some(p) = &state.playing {
                p.stop.store(true, Ordering::Relaxed);
            }
            drop(&mut state.queue)
        };
        for id in dropped {
            self.shared.emit(SpeakerEvent::Dropped { id });
        }
    }

    /// Sets the speaking rate in percent of normal (clamped to 50–250) for
    /// what is said from now on: packs are time-stretched at the same pitch,
    /// espeak-ng speaks at that share of `speed_wpm`. Returns the rate set.
    pub fn set_rate(&self, percent: u32) -> u32 {
        let percent = percent.clamp(super::stretch::MIN_RATE_PERCENT, super::stretch::MAX_RATE_PERCENT);
        self.shared.rate_percent.store(percent, Ordering::Relaxed);
        percent
    }

    /// The speaking rate in percent of normal.
    pub fn rate(&self) -> u32 {
        self.shared.rate_percent.load(Ordering::Relaxed)
    }

    /// Drops everything queued and cuts off what is being said.
    pub fn stop_all(&self) {
        self.cut_and_drop(Queue::clear);
    }

    /// Whether nothing is queued or being said.
    pub fn is_idle(&self) -> bool {
        let state = self.shared.state();
        state.playing.is_none() && state.queue.len() == 0
    }

    /// Waits until idle or `timeout`; returns whether it became idle.
    pub fn wait_idle(&self, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        while Instant::now() < until {
            if self.is_idle() {
                return true;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.is_idle()
    }

    /// Waits until voices are set up or `timeout`; returns whether they are.
    pub fn wait_ready(&self, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        while self.shared.status().starting {
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }

    /// The speaker's events (started, first sample, finished, cut, dropped,
    /// warnings). Buffered; once the buffer is full, new events are dropped
    /// until it is read.
    pub fn events(&self) -> &Receiver<SpeakerEvent> {
        &self.events
    }

    /// How each utterance ended, in order, none lost: finished, estimated
    /// (speech-dispatcher), cut or dropped. For whoever must know what the
    /// listener heard to the end (the station journals it).
    pub fn endings(&self) -> &Receiver<Ended> {
        &self.endings
    }

    /// Health snapshot.
    pub fn status(&self) -> SpeakerStatus {
        self.shared.status().clone()
    }
}

impl Drop for Speaker {
    fn drop(&mut self) {
        {
            let mut state = self.shared.state();
            state.shutdown = true;
            if let Some(p) = &state.playing {
                p.stop.store(true, Ordering::Relaxed);
            }
        }
        self.shared.wake.notify_all();
        if let Some(thread) = self.thread.take() {
            if self.exited.recv_timeout(Duration::from_secs(1)).is_ok() {
                let _ = thread.join();
            } else {
                tracing::warn!("speaker thread did not stop in time; left behind");
            }
        }
    }
}

/// Both listeners of the station.
pub struct Listeners {
    /// The blind player's earphone.
    pub private: Speaker,
    /// The opponent's speaker, when enabled.
    pub public: Option<Speaker>,
}

impl Listeners {
    /// Starts the speakers the settings enable. A disabled private channel
    /// still gets a text-only speaker, so callers always have one to talk to.
    pub fn start(settings: &AudioSettings) -> Listeners {
        let packs = settings.packs_dir.as_deref();
        let private = if settings.private.enabled {
            settings.private.clone()
        } else {
            ListenerSettings { voices: vec![VoiceKind::Text], ..settings.private.clone() }
        };
        Listeners {
            private: Speaker::start("private", &private, packs),
            public: settings.public.enabled.then(|| Speaker::start("public", &settings.public, packs)),
        }
    }
}

/// The voices a speaker thread owns.
struct Voices {
    order: Vec<VoiceKind>,
    volume: f32,
    device: Option<String>,
    pace: bool,
    output: Option<Output>,
    last_open: Option<Instant>,
    pack: Option<VoicePack>,
    espeak: Option<(Espeak, String)>,
    tts: Option<TtsVoice>,
    missing_words: HashSet<String>,
}

fn run(shared: &Shared, settings: &ListenerSettings, packs_dir: Option<PathBuf>) {
    let mut voices = Voices::set_up(shared, settings, packs_dir.as_deref());
    loop {
        let (item, stop) = {
            let mut state = shared.state();
            loop {
                if state.shutdown {
                    return;
                }
                if let Some(item) = state.queue.pop() {
                    let stop = Arc::new(AtomicBool::new(false));
                    state.playing = Some(Playing { priority: item.priority, stop: stop.clone() });
                    break (item, stop);
                }
                state = shared
                    .wake
                    .wait_timeout(state, Duration::from_millis(250))
                    .unwrap_or_else(PoisonError::into_inner)
                    .0;
            }
        };
        let muted = shared.mute.lock().unwrap_or_else(PoisonError::into_inner).as_ref().map(|f| f.mute());
        voices.say(shared, &item, &stop);
        drop(muted);
        shared.state().playing = None;
    }
}

impl Voices {
    fn set_up(shared: &Shared, settings: &ListenerSettings, packs_dir: Option<&Path>) -> Voices {
        let mut voices = Voices {
            order: settings.voices.iter().copied().filter(|v| *v != VoiceKind::Text).collect(),
            volume: settings.volume,
            device: settings.device.clone(),
            pace: settings.pace,
            output: None,
            last_open: None,
            pack: None,
            espeak: None,
            tts: None,
            missing_words: HashSet::new(),
        };
        let order = voices.order.clone();
        let wants = |kind| order.contains(&kind);
        if wants(VoiceKind::Pack) || wants(VoiceKind::Espeak) {
            voices.reopen(shared);
        }
        if wants(VoiceKind::Pack) {
            match packs_dir {
                None => shared.warn("no voice packs folder configured; pack voice off".to_owned()),
                Some(dir) => match VoicePack::load_language(dir, &settings.language) {
                    Ok(pack) => {
                        for problem in pack.problems() {
                            shared.warn(format!("voice pack {}: {problem}", settings.language));
                        }
                        voices.pack = Some(pack);
                    }
                    Err(e) => {
                        shared.warn(format!("{e}; run `station voices build --lang {}`", settings.language))
                    }
                },
            }
        }
        if wants(VoiceKind::Espeak) {
            let espeak =
                Espeak { speed_wpm: settings.speed_wpm, timeout: ESPEAK_TIMEOUT, ..Espeak::default() };
            if espeak.available() {
                let voice = settings
                    .espeak_voice
                    .clone()
                    .unwrap_or_else(|| espeak_voice(&settings.language).to_owned());
                voices.espeak = Some((espeak, voice));
            } else {
                shared.warn("espeak-ng not found; espeak voice off".to_owned());
            }
        }
        if wants(VoiceKind::Tts) {
            match TtsVoice::connect(
                &settings.language,
                Duration::from_millis(settings.tts_connect_timeout_ms),
            ) {
                Ok(tts) => voices.tts = Some(tts),
                Err(e) => shared.warn(format!("{e}; speech-dispatcher voice off")),
            }
        }
        let mut status = shared.status();
        status.available = voices.available();
        status.starting = false;
        status.device = voices.output.as_ref().map(|o| o.name().to_owned());
        drop(status);
        voices
    }

    fn available(&self) -> Vec<VoiceKind> {
        let mut out: Vec<VoiceKind> = self
            .order
            .iter()
            .copied()
            .filter(|kind| match kind {
                VoiceKind::Pack => self.pack.is_some() && self.output.is_some(),
                VoiceKind::Espeak => self.espeak.is_some() && self.output.is_some(),
                VoiceKind::Tts => self.tts.is_some(),
                VoiceKind::Text => false,
            })
            .collect();
        out.push(VoiceKind::Text);
        out
    }

    /// (Re)opens the output device, at most every few seconds.
    fn reopen(&mut self, shared: &Shared) {
        if self.last_open.is_some_and(|t| t.elapsed() < REOPEN_EVERY) {
            return;
        }
        self.last_open = Some(Instant::now());
        match Output::open(self.device.as_deref(), self.pace) {
            Ok(output) => self.output = Some(output),
            Err(e) => shared.warn(format!("{e}; speaking without this device")),
        }
        let mut status = shared.status();
        status.device = self.output.as_ref().map(|o| o.name().to_owned());
        status.available = self.available();
    }

    fn say(&mut self, shared: &Shared, item: &Queued, stop: &Arc<AtomicBool>) {
        if self.output.as_ref().is_some_and(Output::has_failed) {
            shared.warn("audio device failed; reopening".to_owned());
            self.output = None;
            self.last_open = None;
        }
        if self.output.is_none()
            && self.order.iter().any(|v| matches!(v, VoiceKind::Pack | VoiceKind::Espeak))
        {
            self.reopen(shared);
        }
        let text = item.utterance.as_str();
        for kind in self.order.clone() {
            if stop.load(Ordering::Relaxed) {
                shared.emit(SpeakerEvent::Cut { id: item.id });
                return;
            }
            let samples = match kind {
                VoiceKind::Pack => self.pack_samples(shared, item),
                VoiceKind::Espeak => self.espeak_samples(shared, text),
                VoiceKind::Tts => {
                    if let Some(tts) = &self.tts {
                        shared.emit(SpeakerEvent::Started {
                            id: item.id,
                            voice: kind,
                            text: text.to_owned(),
                        });
                        match tts.speak(text, stop) {
                            Ok(TtsOutcome::Done) => shared.emit(SpeakerEvent::Finished { id: item.id }),
                            Ok(TtsOutcome::Cut) => shared.emit(SpeakerEvent::Cut { id: item.id }),
                            Err(e) => {
                                shared.warn(format!("{e}; speech-dispatcher voice off"));
                                self.tts = None;
                                shared.status().available = self.available();
                                continue;
                            }
                        }
                        return;
                    }
                    None
                }
                VoiceKind::Text => None,
            };
            let (Some((samples, rate)), Some(output)) = (samples, self.output.as_ref()) else {
                continue;
            };
            shared.emit(SpeakerEvent::Started { id: item.id, voice: kind, text: text.to_owned() });
            match play(shared, output, item, samples, rate, stop) {
                Ok(()) => return,
                Err(e) => {
                    shared.warn(format!("{e}; trying the next voice"));
                    self.output = None;
                    shared.status().device = None;
                }
            }
        }
        // Text: the daemon already shows it; say so in the log for the arbiter.
        tracing::info!(text, "said as text only");
        shared.emit(SpeakerEvent::Started { id: item.id, voice: VoiceKind::Text, text: text.to_owned() });
        shared.emit(SpeakerEvent::Finished { id: item.id });
    }

    fn pack_samples(&mut self, shared: &Shared, item: &Queued) -> Option<(Vec<f32>, u32)> {
        let pack = self.pack.as_ref()?;
        self.output.as_ref()?;
        match pack.segments(&item.utterance) {
            Ok(segments) => {
                let clip = super::pcm::assemble(&segments, pack.sample_rate(), self.volume);
                let percent = shared.rate_percent.load(Ordering::Relaxed);
                let samples = super::stretch::time_stretch(&to_f32(&clip), pack.sample_rate(), percent);
                Some((samples, pack.sample_rate()))
            }
            Err(AudioError::MissingWord { word, .. }) => {
                if self.missing_words.insert(word.clone()) {
                    shared.warn(format!(
                        "voice pack {} has no clip for {word:?}; using the next voice",
                        pack.language()
                    ));
                }
                None
            }
            Err(e) => {
                shared.warn(e.to_string());
                None
            }
        }
    }

    fn espeak_samples(&mut self, shared: &Shared, text: &str) -> Option<(Vec<f32>, u32)> {
        let (espeak, voice) = self.espeak.as_ref()?;
        self.output.as_ref()?;
        let percent = shared.rate_percent.load(Ordering::Relaxed);
        let espeak = Espeak { speed_wpm: espeak.speed_wpm * percent / 100, ..espeak.clone() };
        match espeak.render(voice, text) {
            Ok(clip) => {
                let volume = self.volume;
                Some((clip.samples.iter().map(|&s| f32::from(s) / 32768.0 * volume).collect(), clip.rate))
            }
            Err(e) => {
                shared.warn(e.to_string());
                None
            }
        }
    }
}

fn to_f32(samples: &[i16]) -> Vec<f32> {
    samples.iter().map(|&s| f32::from(s) / 32768.0).collect()
}

/// Plays samples and waits for their end, a cut, or a stalled device.
fn play(
    shared: &Shared,
    output: &Output,
    item: &Queued,
    samples: Vec<f32>,
    rate: u32,
    stop: &Arc<AtomicBool>,
) -> Result<(), AudioError> {
    let length = duration_of(samples.len(), rate);
    let signals = output.play(samples, rate, stop.clone());
    let started = Instant::now();
    let mut stop_seen: Option<Instant> = None;
    loop {
        match signals.recv_timeout(Duration::from_millis(20)) {
            Ok(Signal::First(at)) => {
                let latency = at.saturating_duration_since(item.asked);
                shared.emit(SpeakerEvent::FirstSample { id: item.id, at, latency });
            }
            Ok(Signal::Done { cut }) => {
                shared.emit(if cut {
                    SpeakerEvent::Cut { id: item.id }
                } else {
                    SpeakerEvent::Finished { id: item.id }
                });
                return Ok(());
            }
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => {
                shared.emit(SpeakerEvent::Cut { id: item.id });
                return Ok(());
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
        }
        if stop.load(Ordering::Relaxed) {
            let seen = *stop_seen.get_or_insert_with(Instant::now);
            if seen.elapsed() > STOP_GRACE {
                shared.emit(SpeakerEvent::Cut { id: item.id });
                return Err(AudioError::Device {
                    device: output.name().to_owned(),
                    problem: "does not take samples (stalled)".to_owned(),
                });
            }
        } else if started.elapsed() > length + PLAY_SLACK {
            stop.store(true, Ordering::Relaxed);
            shared.emit(SpeakerEvent::Cut { id: item.id });
            return Err(AudioError::Device {
                device: output.name().to_owned(),
                problem: format!("playback of {length:?} did not end in time (stalled)"),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every utterance's end is told, none lost: what the station journals
    /// as said (issue 32).
    #[test]
    fn each_utterance_tells_how_it_ended() {
        let settings = ListenerSettings { voices: vec![VoiceKind::Text], ..ListenerSettings::default() };
        let speaker = Speaker::start("private", &settings, None);
        assert!(speaker.wait_ready(Duration::from_secs(5)));
        let said = speaker.say(Utterance::text("Springer Felix drei"), Priority::Move);
        let ended = speaker.endings().recv_timeout(Duration::from_secs(5)).expect("its end");
        assert_eq!((ended.id, ended.ending, ended.voice), (said, Ending::Finished, Some(VoiceKind::Text)));
        // A hint while something is queued is dropped unsaid, and says so.
        speaker.shared.state().playing = Some(Playing { priority: Priority::Urgent, stop: Arc::default() });
        let hint = speaker.say(Utterance::text("Bauer Eva vier"), Priority::Low);
        let ended = speaker.endings().recv_timeout(Duration::from_secs(5)).expect("its end");
        assert_eq!((ended.id, ended.ending, ended.voice), (hint, Ending::Dropped, None));
        assert_eq!(Ending::Estimated.name(), "estimated");
    }
}
