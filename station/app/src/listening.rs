//! Listening: the microphone (or, in tests, a WAV file played in real time)
//! → mute gate → 16 kHz resampler → voice activity detection or push-to-talk
//! → Vosk restricted to the grammar of the position → what was heard, on its
//! own thread. The station understands it and feeds it to the table exactly
//! as the `spoken` operator command does.
//!
//! Nothing here decides anything about the game: the thread only turns sound
//! into words. A missing model is reported once and the thread ends; a
//! missing microphone, or one that goes away, is reported once and looked for
//! again until it is back. The station runs on without speech input meanwhile.
//!
//! The microphone itself is the drivers' (capture with cpal in `station_audio::speech`, and the
//! sound source in `station_audio`: the microphone, or its twin, a WAV file played in real
//! time in the 25 ms periods ALSA capture delivers); this module keeps only what turns the sound
//! into words. Every grammar is fitted to the model by `vocabulary` first. With `decide_early` an
//! utterance is decided as soon as the partial result decides it and the speaker is quiet; its
//! latency is counted from the end of speech (the last sample as loud as the detector's threshold,
//! at the moment it was recorded). With `[speech] keep_audio` the utterance's sound (at most 30 s)
//! goes along for `kept_audio`. A lost microphone is looked for every 2 s.

use crate::config::{ListenMode, SpeechSettings};
use crate::vocabulary::Vocabulary;
use crossbeam_channel::{Receiver, Sender};
use station_audio::microphone::{Chunk, Next, SoundInput, WavPlayer};
use station_audio::speech::{
    CaptureSettings, Decisive, InputFormat, Listener, Microphone, MuteFlag, PushToTalk, Samples, Transcript,
    Utterances, VadEvent, level_db, load_model, read_wav,
};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What the listening thread reports.
#[derive(Debug, Clone, PartialEq)]
pub enum Heard {
    /// Listening started (the device and model in use).
    Ready {
        /// The input device (or the test WAV file).
        device: String,
    },
    /// An utterance, recognised.
    Utterance {
        /// The words heard.
        text: String,
        /// The weakest word's confidence.
        confidence: f32,
        /// The recogniser's readings, best first, each with its likelihood
        /// share (empty when it gave one).
        alternatives: Vec<(String, f32)>,
        /// From the end of speech (the last loud frame) to the transcript:
        /// what the player waits for.
        latency: Duration,
        /// The utterance's sound, 16 kHz mono, with `[speech] keep_audio`
        /// (the recording device of D.2.7); at most [`MAX_KEPT_SAMPLES`].
        audio: Option<Vec<i16>>,
    },
    /// Grammar words the model does not list (each said once): the player
    /// cannot be heard saying them.
    MissingWords {
        /// The words, sorted.
        words: Vec<String>,
        /// The model's folder.
        model: PathBuf,
    },
    /// Listening is impossible; the station goes on without it.
    Unavailable {
        /// `speech_model` or `microphone`.
        device: &'static str,
        /// What to do about it (names the model to install and where).
        detail: String,
    },
}

/// The listening thread's handle. Dropping it stops the thread.
pub struct Listening {
    grammar: Sender<Vec<String>>,
    heard: Receiver<Heard>,
    push_to_talk: PushToTalk,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    /// Keeps the channel open after the thread gave up, so the loop never
    /// sees a disconnected feed.
    _keep_open: Sender<Heard>,
}

/// Where the sound comes from.
enum Source {
    Microphone(Option<String>),
    /// Test only: a file played in real time, then silence.
    Wav(PathBuf),
}

/// Everything the thread needs, owned.
struct Setup {
    lang: String,
    model_dir: PathBuf,
    source: Source,
    capture: CaptureSettings,
    mute: MuteFlag,
    grammar: Vec<String>,
    /// Deciding on a partial result (issue 14), if enabled.
    early: Option<Early>,
    /// Keep each utterance's sound (`[speech] keep_audio`).
    keep_audio: bool,
}

/// The recogniser's readings of each utterance (Vosk's n-best, issue 33):
/// the move his board shows, or a move asked back, may come from another
/// reading it thought likely; each word's confidence is the likelihood share
/// of the readings that have it. Measured with the Korean model, those
/// confidences ask back as Vosk's own word confidences do, and end of speech
/// to heard takes no longer.
const READINGS: u16 = 5;

/// The most sound kept of one utterance: 30 s at 16 kHz (a move is said in
/// two; a longer stretch is noise around it, and its start is dropped).
pub const MAX_KEPT_SAMPLES: usize = 30 * 16_000;

/// When the listening thread ends an utterance before the detector does:
/// the partial result is a whole phrase nothing longer changes
/// ([`Decisive`]) and the speaker has been quiet this long.
#[derive(Clone)]
struct Early {
    /// Words that never change which move a phrase names (check, mate …).
    endings: Vec<String>,
    /// Quiet audio after the last loud frame before a partial result counts.
    quiet: Duration,
}

impl Listening {
    /// Starts listening with the `[speech]` settings; `lang` is the model's
    /// language, `grammar` the phrases of the current position, `mute` the
    /// flag the station's speakers hold while they talk.
    pub fn start(settings: &SpeechSettings, lang: &str, mute: MuteFlag, grammar: Vec<String>) -> Listening {
        let push_to_talk = PushToTalk::new();
        let early = settings.decide_early.then(|| Early {
            endings: station_voices::understand::Understanding::language(lang)
                .map(|u| u.neutral_endings())
                .unwrap_or_default(),
            quiet: Duration::from_millis(u64::from(settings.decide_quiet_ms)),
        });
        let capture = CaptureSettings {
            push_to_talk: (settings.mode == ListenMode::PushToTalk).then(|| push_to_talk.clone()),
            ..CaptureSettings::default()
        };
        let setup = Setup {
            lang: lang.to_owned(),
            model_dir: settings.model_dir(lang),
            source: match &settings.input_wav {
                Some(path) => Source::Wav(path.clone()),
                None => Source::Microphone(settings.input_device.clone()),
            },
            capture,
            mute,
            grammar,
            early,
            keep_audio: settings.keep_audio,
        };
        let (grammar_tx, grammar_rx) = crossbeam_channel::unbounded();
        let (heard_tx, heard) = crossbeam_channel::bounded(64);
        let stop = Arc::new(AtomicBool::new(false));
        let thread_stop = stop.clone();
        let keep_open = heard_tx.clone();
        let thread = std::thread::Builder::new()
            .name("listening".into())
            .spawn(move || listen(setup, &grammar_rx, &heard_tx, &thread_stop));
        let thread = match thread {
            Ok(t) => Some(t),
            Err(e) => {
                tracing::error!(error = %e, "cannot start the listening thread; no speech input");
                None
            }
        };
        Listening { grammar: grammar_tx, heard, push_to_talk, stop, thread, _keep_open: keep_open }
    }

    /// The phrases of a new position (taken between utterances).
    pub fn set_grammar(&self, phrases: Vec<String>) {
        let _ = self.grammar.send(phrases);
    }

    /// The push-to-talk button was pressed or released.
    pub fn push_to_talk(&self, pressed: bool) {
        self.push_to_talk.set(pressed);
    }

    /// What was heard.
    pub fn heard(&self) -> Receiver<Heard> {
        self.heard.clone()
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// How long a microphone may deliver no sound at all before it counts as gone:
/// a live capture stream delivers chunks all the time, silence included.
const MIC_SILENT_MS: u64 = 2_000;
/// How often a microphone that is gone (or was never there) is looked for again.
const REOPEN_EVERY: Duration = Duration::from_secs(2);

/// Why listening to one source ended.
enum Ended {
    /// The station is stopping.
    Stopped,
    /// The microphone went away; it is looked for again.
    Lost(String),
    /// Listening cannot work with this model or grammar; reported, no retry.
    Fatal(String),
}

/// The thread: model, then the source, utterance after utterance, until
/// `stop`. A microphone that is missing or goes away is reported once and
/// looked for again every [`REOPEN_EVERY`] (a USB headset plugged back in
/// works again without a restart); its return is reported as `Ready`.
fn listen(setup: Setup, grammar_rx: &Receiver<Vec<String>>, out: &Sender<Heard>, stop: &AtomicBool) {
    let mut model = match load_model(&setup.model_dir, &setup.lang) {
        Ok(m) => m,
        Err(e) => {
            let _ = out.send(Heard::Unavailable { device: "speech_model", detail: e.to_string() });
            return;
        }
    };
    let unavailable = |detail: String| {
        let _ = out.send(Heard::Unavailable { device: "microphone", detail });
    };
    let mut vocabulary = Vocabulary::for_language(&setup.lang);
    let mut grammar = fit(&mut vocabulary, &mut model, &setup.grammar, &setup.model_dir, out);
    let mut told = false;
    while !stop.load(Ordering::Relaxed) {
        let source = match &setup.source {
            Source::Microphone(name) => {
                Microphone::open(name.as_deref()).map(SoundInput::Mic).map_err(|e| e.to_string())
            }
            Source::Wav(path) => read_wav(path)
                .map(|audio| SoundInput::Wav(WavPlayer::new(audio, path.display().to_string())))
                .map_err(|e| format!("test input {}: {e}", path.display())),
        };
        let ended = match source {
            Ok(source) => {
                told = false;
                let mut fitting = Fitting { vocabulary: &mut vocabulary, model: &mut model };
                listen_to(source, &setup, &mut fitting, &mut grammar, grammar_rx, out, stop)
            }
            Err(detail) if matches!(setup.source, Source::Wav(_)) => Ended::Fatal(detail),
            Err(detail) => Ended::Lost(detail),
        };
        match ended {
            Ended::Stopped => return,
            Ended::Fatal(detail) => return unavailable(detail),
            Ended::Lost(detail) => {
                if !told {
                    told = true;
                    unavailable(detail);
                }
                let again = Instant::now() + REOPEN_EVERY;
                while !stop.load(Ordering::Relaxed) && Instant::now() < again {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
    }
}

/// The model and the vocabulary check that fits each grammar to it.
struct Fitting<'a> {
    vocabulary: &'a mut Vocabulary,
    model: &'a mut station_audio::speech::Model,
}

/// A grammar fitted to the model (issue 24 §2); words it lacks go out once.
fn fit(
    vocabulary: &mut Vocabulary,
    model: &mut station_audio::speech::Model,
    phrases: &[String],
    model_dir: &std::path::Path,
    out: &Sender<Heard>,
) -> Vec<String> {
    let fitted = vocabulary.fit(model, phrases);
    if !fitted.newly_missing.is_empty() {
        let _ = out.send(Heard::MissingWords { words: fitted.newly_missing, model: model_dir.to_owned() });
    }
    fitted.phrases
}

/// Listens to one source until the station stops or the microphone goes away.
fn listen_to(
    mut source: SoundInput,
    setup: &Setup,
    fitting: &mut Fitting<'_>,
    grammar: &mut Vec<String>,
    grammar_rx: &Receiver<Vec<String>>,
    out: &Sender<Heard>,
    stop: &AtomicBool,
) -> Ended {
    let mut utterances = match Utterances::new(source.format(), setup.mute.clone(), setup.capture.clone()) {
        Ok(u) => u,
        Err(e) => return Ended::Fatal(e.to_string()),
    };
    let mono16k = InputFormat { rate: 16_000, channels: 1 };
    let mut listener = match Listener::new(fitting.model, grammar, mono16k) {
        Ok(l) => l,
        Err(e) => return Ended::Fatal(format!("the recogniser refused the grammar: {e}")),
    };
    listener.set_alternatives(READINGS);
    let _ = out.send(Heard::Ready { device: source.name() });
    let mut decisive = Decisive::new(grammar, setup.early.as_ref().map_or(&[][..], |e| &e.endings[..]));
    let mut utterance = Utterance::default();
    let mut events = Vec::new();
    let mut last_sound = Instant::now();
    let threshold_db = setup.capture.vad.threshold_db;
    while !stop.load(Ordering::Relaxed) {
        // A new position's grammar is taken between utterances only.
        if !utterance.talking
            && let Some(latest) = grammar_rx.try_iter().last()
        {
            *grammar = fit(fitting.vocabulary, fitting.model, &latest, &setup.model_dir, out);
            let started = Instant::now();
            match Listener::new(fitting.model, grammar, mono16k) {
                Ok(l) => {
                    listener = l;
                    listener.set_alternatives(READINGS);
                    if let Some(early) = &setup.early {
                        decisive = Decisive::new(grammar, &early.endings);
                    }
                    tracing::debug!(phrases = grammar.len(), took = ?started.elapsed(), "grammar of the new position");
                }
                Err(e) => tracing::warn!(error = %e, "grammar refused; the previous one stays"),
            }
        }
        let chunk = source.next_chunk();
        let received = Instant::now();
        match chunk {
            Next::Chunk(Chunk::F32(chunk)) => utterances.push(Samples::F32(&chunk), |e| events.push(e)),
            Next::Chunk(Chunk::I16(chunk)) => utterances.push(Samples::I16(&chunk), |e| events.push(e)),
            Next::Idle if last_sound.elapsed() < Duration::from_millis(MIC_SILENT_MS) => continue,
            Next::Idle | Next::Gone => {
                return Ended::Lost(format!(
                    "the microphone {} stopped delivering sound; it is used again when it is back",
                    source.name()
                ));
            }
        }
        last_sound = received;
        // Where the events of this chunk end, in time: when its last sample
        // was recorded (the microphone's: when it arrived), less the start
        // of the detector's next frame. Each event's end is placed back from
        // there by the audio that follows it, so the end of speech is the
        // last loud sample's moment, not a moment the thread got to it.
        let recorded = source.recorded().unwrap_or(received);
        let held_back = utterances.held_back();
        let heard_until = recorded.checked_sub(samples_time(held_back.len())).unwrap_or(recorded);
        // The quiet after the last loud frame runs to the last sample
        // recorded, through the detector's unfinished frame when that is
        // quiet too; a loud one (he speaks again) leaves no quiet to count.
        let quiet_until = (level_db(held_back) < threshold_db).then_some(recorded);
        let mut after: Duration = events
            .iter()
            .map(|e| match e {
                VadEvent::Start(s) | VadEvent::Speech(s) => samples_time(s.len()),
                _ => Duration::ZERO,
            })
            .sum();
        for event in events.drain(..) {
            match event {
                VadEvent::Start(samples) | VadEvent::Speech(samples) => {
                    after = after.saturating_sub(samples_time(samples.len()));
                    utterance.talking = true;
                    let tail = &samples[samples.len().saturating_sub(station_audio::speech::vad::FRAME)..];
                    if level_db(tail) >= threshold_db {
                        let frame_end = heard_until.checked_sub(after).unwrap_or(heard_until);
                        utterance.last_loud = Some(frame_end);
                        let after_audible = samples_time(tail.len() - last_audible(tail, threshold_db));
                        utterance.speech_end =
                            Some(frame_end.checked_sub(after_audible).unwrap_or(frame_end));
                    }
                    if utterance.decided {
                        continue;
                    }
                    if setup.keep_audio {
                        utterance.keep(&samples);
                    }
                    if let Err(e) = listener.feed_16k(&samples) {
                        tracing::warn!(error = %e, "recogniser failed on the samples");
                    }
                }
                VadEvent::End => {
                    let was = std::mem::take(&mut utterance);
                    if was.decided {
                        tracing::debug!("the rest of an utterance already decided is dropped");
                        continue;
                    }
                    // Cut off by the station's own voice: half a move must never count as one.
                    let cut_off = setup.mute.is_set();
                    match listener.finish() {
                        Ok(_) if cut_off => tracing::debug!("an utterance cut off by the station speaking"),
                        Ok(t) => send_heard(
                            out,
                            fitting.vocabulary,
                            t,
                            was.speech_end.unwrap_or(heard_until),
                            was.audio,
                        ),
                        Err(e) => tracing::warn!(error = %e, "recogniser failed at the end of an utterance"),
                    }
                }
                VadEvent::Silence => {}
            }
        }
        // Issue 14: the partial result may already decide; then the
        // detector's silence is not waited for.
        if let (Some(early), Some(loud), Some(quiet_until)) = (&setup.early, utterance.last_loud, quiet_until)
            && utterance.talking
            && !utterance.decided
            && quiet_until.saturating_duration_since(loud) >= early.quiet
            && !setup.mute.is_set()
            && decides_now(&mut listener, &decisive, &mut utterance, loud)
        {
            utterance.decided = true;
            let audio = utterance.audio.take();
            match listener.finish() {
                Ok(t) => send_heard(out, fitting.vocabulary, t, utterance.speech_end.unwrap_or(loud), audio),
                Err(e) => tracing::warn!(error = %e, "recogniser failed on a decided utterance"),
            }
        }
    }
    Ended::Stopped
}

/// Silence given to the recogniser once the speaker is quiet: the acoustic
/// model looks a few hundred ms ahead before it settles the last word, and
/// the real silence would only arrive in real time. With the Korean model,
/// 300 ms left a two-word phrase's last word unsettled for two more periods
/// of real silence (50 ms); 400 ms settles it at once.
const LOOK_AHEAD_PAD: Duration = Duration::from_millis(400);

/// Whether the partial result decides the utterance; if not yet, the
/// recogniser is given [`LOOK_AHEAD_PAD`] of silence once per quiet stretch
/// and asked again. Should the speaker go on, the pad is only a pause.
fn decides_now(
    listener: &mut Listener,
    decisive: &Decisive,
    utterance: &mut Utterance,
    loud: Instant,
) -> bool {
    if decisive.decides(&listener.partial()) {
        return true;
    }
    if utterance.padded == Some(loud) {
        return false;
    }
    utterance.padded = Some(loud);
    let silence = vec![0i16; (LOOK_AHEAD_PAD.as_millis() as usize) * 16];
    if let Err(e) = listener.feed_16k(&silence) {
        tracing::warn!(error = %e, "recogniser failed on the look-ahead silence");
        return false;
    }
    decisive.decides(&listener.partial())
}

/// The state of the utterance in progress.
#[derive(Default)]
struct Utterance {
    /// The quiet stretch (by its last loud frame) the recogniser was given
    /// look-ahead silence for.
    padded: Option<Instant>,
    /// Speech is being passed on.
    talking: bool,
    /// When the last loud frame ended: the quiet that follows it lets a
    /// partial result decide.
    last_loud: Option<Instant>,
    /// When the last audible sample of that frame was recorded: the end of
    /// speech so far, from which the player's wait is counted.
    speech_end: Option<Instant>,
    /// Already decided on a partial result: the rest is not recognised.
    decided: bool,
    /// The sound so far, with `keep_audio`.
    audio: Option<Vec<i16>>,
}

impl Utterance {
    /// Keeps `samples` (16 kHz mono), the last [`MAX_KEPT_SAMPLES`] at most.
    fn keep(&mut self, samples: &[i16]) {
        let audio = self.audio.get_or_insert_with(Vec::new);
        audio.extend_from_slice(samples);
        if audio.len() > MAX_KEPT_SAMPLES {
            audio.drain(..audio.len() - MAX_KEPT_SAMPLES);
        }
    }
}

/// How many of `frame`'s samples lead up to and include its last one as
/// loud as `threshold_db` (0 for none): the frame's speech ends there.
fn last_audible(frame: &[i16], threshold_db: f32) -> usize {
    let amplitude = 32768.0 * 10f32.powf(threshold_db / 20.0);
    frame.iter().rposition(|&x| f32::from(x).abs() >= amplitude).map_or(0, |i| i + 1)
}

/// Duration of 16 kHz mono samples.
fn samples_time(samples: usize) -> Duration {
    Duration::from_micros(samples as u64 * 1_000_000 / 16_000)
}

/// Passes a transcript on (nothing for noise); `speech_end` is when the
/// speaker stopped.
fn send_heard(
    out: &Sender<Heard>,
    vocabulary: &Vocabulary,
    t: Transcript,
    speech_end: Instant,
    audio: Option<Vec<i16>>,
) {
    if t.is_empty() {
        tracing::debug!("an utterance with no words (noise)");
        return;
    }
    // A spelling put in for a word the model lacks is read back as the word.
    let text = vocabulary.restore(&t.text);
    let alternatives =
        t.alternatives.iter().map(|(text, share)| (vocabulary.restore(text), *share)).collect();
    let heard = Heard::Utterance {
        text,
        confidence: t.confidence,
        alternatives,
        latency: speech_end.elapsed(),
        audio,
    };
    let _ = out.send(heard);
}

#[cfg(test)]
mod tests {
    //! The daemon's listening thread with the real libvosk and the Korean
    //! model: push-to-talk and the mute flag decide what reaches the recogniser.

    use super::*;
    use station_audio::speech::WavSamples;

    const PHRASES: [&str; 4] = ["안녕하세요", "감사합니다", "서울", "김치"];

    /// espeak-ng speaks `phrase` in Korean into the WAV file `wav`; a test
    /// without it fails saying so.
    fn speak_korean(phrase: &str, wav: &std::path::Path) {
        let status = std::process::Command::new("espeak-ng")
            .args(["-v", "ko", "-s", "140", "-w"])
            .arg(wav)
            .arg(phrase)
            .status();
        assert!(
            status.as_ref().is_ok_and(|s| s.success()),
            "espeak-ng could not speak Korean ({status:?}): scripts/setup installs espeak-ng"
        );
    }

    /// The Korean model (`scripts/setup` installs it; a test without it
    /// fails saying so) and a WAV of `phrase`.
    fn korean(phrase: &str, name: &str) -> (PathBuf, PathBuf) {
        let model = crate::station::test_support::korean_model();
        let wav = std::env::temp_dir().join(format!("station-listening-{name}-{}.wav", std::process::id()));
        speak_korean(phrase, &wav);
        (model, wav)
    }

    fn settings(model: &std::path::Path, wav: &std::path::Path, mode: ListenMode) -> SpeechSettings {
        SpeechSettings {
            enabled: true,
            models: [("ko".to_owned(), model.to_owned())].into(),
            mode,
            input_wav: Some(wav.to_owned()),
            ..SpeechSettings::default()
        }
    }

    /// The first report that is not about grammar words the Korean model
    /// lacks (the test grammars hold a few; each is said once, first).
    fn first_after_missing_words(rx: &Receiver<Heard>) -> Heard {
        loop {
            match rx.recv_timeout(Duration::from_secs(60)).expect("listening reports") {
                Heard::MissingWords { words, .. } => eprintln!("the Korean model lacks {words:?}"),
                other => return other,
            }
        }
    }

    fn grammar() -> Vec<String> {
        PHRASES.iter().map(|p| (*p).to_owned()).chain(["[unk]".to_owned()]).collect()
    }

    /// What was heard within `limit` after listening became ready.
    fn heard_within(listening: &Listening, limit: Duration) -> Vec<String> {
        let rx = listening.heard();
        let ready = first_after_missing_words(&rx);
        assert!(matches!(ready, Heard::Ready { .. }), "{ready:?}");
        let until = Instant::now() + limit;
        let mut texts = Vec::new();
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match rx.recv_timeout(left) {
                Ok(Heard::Utterance { text, .. }) => texts.push(text),
                Ok(other) => panic!("{other:?}"),
                Err(_) => break,
            }
        }
        texts
    }

    #[test]
    fn nothing_is_heard_while_the_station_speaks() {
        let (model, wav) = korean(PHRASES[0], "muted");
        let mute = MuteFlag::new();
        let speaking = mute.mute();
        let listening = Listening::start(&settings(&model, &wav, ListenMode::Vad), "ko", mute, grammar());
        assert!(heard_within(&listening, Duration::from_secs(4)).is_empty());
        drop(speaking);
        let _ = std::fs::remove_file(wav);
    }

    #[test]
    fn an_utterance_cut_off_by_the_station_speaking_is_dropped() {
        let long = format!("{} {}", PHRASES[0], PHRASES[1]);
        let (model, wav) = korean(&long, "cut");
        let mute = MuteFlag::new();
        let mut phrases = grammar();
        phrases.push(long);
        let listening =
            Listening::start(&settings(&model, &wav, ListenMode::Vad), "ko", mute.clone(), phrases);
        let rx = listening.heard();
        assert!(matches!(first_after_missing_words(&rx), Heard::Ready { .. }));
        // The station starts speaking in the middle of the player's words.
        std::thread::sleep(Duration::from_millis(900));
        let _speaking = mute.mute();
        let heard = rx.recv_timeout(Duration::from_secs(4));
        assert!(heard.is_err(), "half an utterance was passed on: {heard:?}");
        let _ = std::fs::remove_file(wav);
    }

    #[test]
    fn push_to_talk_listens_only_while_the_button_is_held() {
        let (model, wav) = korean(PHRASES[2], "ptt");
        // Not held: the phrase goes by unheard.
        let mute = MuteFlag::new();
        let listening =
            Listening::start(&settings(&model, &wav, ListenMode::PushToTalk), "ko", mute.clone(), grammar());
        assert!(heard_within(&listening, Duration::from_secs(3)).is_empty());
        drop(listening);
        // Held through the phrase, then released: heard.
        let listening =
            Listening::start(&settings(&model, &wav, ListenMode::PushToTalk), "ko", mute, grammar());
        listening.push_to_talk(true);
        let rx = listening.heard();
        assert!(matches!(first_after_missing_words(&rx), Heard::Ready { .. }));
        std::thread::sleep(Duration::from_millis(2500));
        listening.push_to_talk(false);
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(Heard::Utterance { text, .. }) => assert_eq!(text, PHRASES[2]),
            other => panic!("{other:?}"),
        }
        let _ = std::fs::remove_file(wav);
    }

    #[test]
    fn speech_ends_at_the_last_sample_as_loud_as_the_threshold() {
        // -40 dBFS is an amplitude of 327.68.
        let mut frame = vec![0i16; 320];
        assert_eq!(last_audible(&frame, -40.0), 0);
        frame[100] = -400;
        frame[200] = 300;
        assert_eq!(last_audible(&frame, -40.0), 101);
        frame[319] = 328;
        assert_eq!(last_audible(&frame, -40.0), 320);
    }

    #[test]
    fn a_missing_model_is_reported_naming_the_model_to_install() {
        let settings = SpeechSettings {
            enabled: true,
            models: [("pl".to_owned(), PathBuf::from("/nonexistent/vosk-pl"))].into(),
            ..SpeechSettings::default()
        };
        let listening = Listening::start(&settings, "pl", MuteFlag::new(), grammar());
        match listening.heard().recv_timeout(Duration::from_secs(10)) {
            Ok(Heard::Unavailable { device: "speech_model", detail }) => {
                assert!(
                    detail.contains("vosk-model-small-pl-0.22") && detail.contains("/nonexistent/vosk-pl")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    /// Writes 16-bit mono PCM as a WAV file.
    fn write_wav(path: &std::path::Path, rate: u32, samples: &[i16]) {
        let clip = station_audio::Clip::new(rate, samples.to_vec());
        station_audio::wav::write_wav(path, &clip).unwrap();
    }

    /// Korean phrases spoken one after another with `gap` of silence, as one
    /// WAV at espeak-ng's rate.
    fn korean_session(phrases: &[&str], gap: Duration, name: &str) -> (PathBuf, PathBuf) {
        let (model, first) = korean(phrases[0], name);
        let mut all: Vec<i16> = Vec::new();
        let mut rate = 0;
        for phrase in phrases {
            let one = std::env::temp_dir().join(format!("station-{name}-one-{}.wav", std::process::id()));
            speak_korean(phrase, &one);
            let audio = read_wav(&one).unwrap();
            rate = audio.rate;
            let WavSamples::I16(samples) = audio.samples else { panic!("espeak-ng writes 16-bit") };
            all.extend(samples);
            all.extend(std::iter::repeat_n(0, (gap.as_secs_f64() * f64::from(rate)) as usize));
            let _ = std::fs::remove_file(one);
        }
        write_wav(&first, rate, &all);
        (model, first)
    }

    /// A decisive phrase is passed on before the detector's 600 ms of
    /// silence; "서울" waits, because "서울 학교" is longer and means more.
    #[test]
    fn a_whole_phrase_is_decided_before_the_silence_a_prefix_is_not() {
        let (model, wav) = korean_session(&["김치", "서울"], Duration::from_millis(1500), "early");
        let grammar: Vec<String> =
            ["김치", "서울", "서울 학교", "[unk]"].iter().map(|p| (*p).to_owned()).collect();
        let listening =
            Listening::start(&settings(&model, &wav, ListenMode::Vad), "ko", MuteFlag::new(), grammar);
        let rx = listening.heard();
        assert!(matches!(first_after_missing_words(&rx), Heard::Ready { .. }));
        let mut heard = Vec::new();
        while heard.len() < 2 {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Ok(Heard::Utterance { text, latency, .. }) => heard.push((text, latency)),
                other => panic!("{other:?} after {heard:?}"),
            }
        }
        assert_eq!(heard[0].0, "김치");
        assert_eq!(heard[1].0, "서울");
        // The detector ends an utterance only after 30 quiet frames (600 ms of
        // audio, played in real time): the prefix waited for them, the whole
        // phrase did not.
        assert!(heard[0].1 < heard[1].1, "{heard:?}");
        let _ = std::fs::remove_file(wav);
    }
}
