//! Spoken moves and commands (`[speech]`).

use super::*;

/// Spoken moves and commands (`[speech]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SpeechSettings {
    /// The blind player announces his moves aloud and the station checks them;
    /// his clock press counts only after a matching announcement (D.2.3.3).
    pub enabled: bool,
    /// Listen through a microphone (or `input_wav`) when speech is enabled;
    /// off: heard text comes only through the `spoken` operator command.
    pub microphone: bool,
    /// The language of the acoustic model (default: `[voice] language`).
    /// Any Vosk model's code, not only the three spoken to him (a Korean
    /// model proves the listening path in tests), so it stays a string.
    pub language: Option<String>,
    /// Vosk model folder per language, e.g. `de = "/var/lib/annexd/vosk/vosk-model-small-de-0.15"`
    /// (default: `/var/lib/annexd/vosk/<the language's small model>`).
    pub models: std::collections::BTreeMap<String, PathBuf>,
    /// Input device by name (exactly, or the only one containing it); the default device if absent.
    pub input_device: Option<String>,
    /// `vad` (always listening, voice activity detection) or `push_to_talk`
    /// (only while a `push_to_talk` button is held).
    pub mode: ListenMode,
    /// Phrases added to the recogniser's grammar besides the moves and
    /// commands of the position (diagnostics: proves the path with a model of
    /// another language).
    pub extra_phrases: Vec<String>,
    /// TEST ONLY: read this WAV file (any rate) in real time instead of a
    /// microphone, then silence; it goes through the same mute gate,
    /// resampler, detector and recogniser as the microphone.
    pub input_wav: Option<PathBuf>,
    /// Decide as soon as the recogniser's partial result is a whole phrase
    /// that nothing longer changes, instead of waiting for the detector's
    /// 600 ms of silence (issue 14).
    pub decide_early: bool,
    /// Quiet after the last loud sound before a partial result decides, ms
    /// (keeps a word's onset from being taken for the end of the phrase).
    #[serde(deserialize_with = "super::values::within::<_, _, 0, 600>")]
    pub decide_quiet_ms: u32,
    /// Below this word confidence (the weakest word) a move is asked back.
    #[serde(deserialize_with = "super::values::fraction")]
    pub move_confidence: f32,
    /// Below this word confidence a command is not acted on.
    #[serde(deserialize_with = "super::values::fraction")]
    pub command_confidence: f32,
    /// Below this word confidence a move one known mishearing away from
    /// another legal move is asked back.
    #[serde(deserialize_with = "super::values::fraction")]
    pub sure_confidence: f32,
    /// The recording device of D.2.7 (issue 18): the audio of each spoken
    /// move the station accepted is kept beside the journal, a WAV per ply.
    pub keep_audio: bool,
    /// The most audio one game keeps, in MiB; later moves' audio is not kept (said once).
    pub keep_audio_max_mb: u32,
}

/// How the station knows the blind player is speaking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListenMode {
    /// Always listening; voice activity detection finds the utterances.
    #[default]
    Vad,
    /// Listening only while the push-to-talk button is held.
    PushToTalk,
}

impl Default for SpeechSettings {
    fn default() -> Self {
        SpeechSettings {
            enabled: false,
            microphone: true,
            language: None,
            models: Default::default(),
            input_device: None,
            mode: ListenMode::Vad,
            extra_phrases: Vec::new(),
            input_wav: None,
            decide_early: true,
            decide_quiet_ms: 50,
            move_confidence: station_voices::understand::DEFAULT_MIN_CONFIDENCE,
            command_confidence: station_voices::understand::DEFAULT_COMMAND_CONFIDENCE,
            sure_confidence: station_voices::understand::DEFAULT_SURE_CONFIDENCE,
            keep_audio: false,
            keep_audio_max_mb: 64,
        }
    }
}

impl SpeechSettings {
    /// The language of the acoustic model.
    pub fn model_language<'a>(&'a self, voice: &'a station_voices::VoiceSettings) -> &'a str {
        self.language.as_deref().unwrap_or(&voice.language)
    }

    /// The understanding of the blind player's language with these
    /// confidence thresholds.
    ///
    /// # Errors
    /// An unknown language in `voice`.
    pub fn understanding(
        &self,
        voice: &station_voices::VoiceSettings,
    ) -> Result<station_voices::understand::Understanding, station_voices::VoiceError> {
        Ok(station_voices::understand::Understanding::new(voice)?.with_confidences(
            self.move_confidence,
            self.command_confidence,
            self.sure_confidence,
        ))
    }

    /// Where the model of `lang` is expected.
    pub fn model_dir(&self, lang: &str) -> PathBuf {
        self.models.get(lang).cloned().unwrap_or_else(|| {
            let name = station_audio::speech::expected_model(lang).unwrap_or("vosk-model");
            PathBuf::from("/var/lib/annexd/vosk").join(name)
        })
    }
}
