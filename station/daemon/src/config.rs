//! The station's TOML configuration.
//!
//! Unknown keys are errors (a typo must not silently fall back to a default),
//! and every error names the file, the line and the key.

use serde::Deserialize;
use shakmaty::Role;
use station_core::TrackerConfig;
use station_core::pgn::SevenTags;

use std::path::{Path, PathBuf};

/// The whole configuration file.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Boards by role (`blind`, later `mirror`).
    #[serde(default)]
    pub boards: Boards,
    /// Game settings.
    #[serde(default)]
    pub game: GameSettings,
    /// PGN tags for the games played.
    #[serde(default)]
    pub tags: Tags,
    /// Where journals go.
    #[serde(default)]
    pub journal: JournalSettings,
    /// The station's own clock.
    #[serde(default)]
    pub clock: ClockSettings,
    /// Which button does what.
    #[serde(default)]
    pub buttons: Buttons,
    /// The web console and mirror display.
    #[serde(default)]
    pub console: ConsoleSettings,
    /// How moves are worded for the blind player (language, letters, ranks, long form).
    #[serde(default)]
    pub voice: station_voices::VoiceSettings,
    /// Voice packs and the two listeners (earphone, public speaker).
    #[serde(default)]
    pub audio: station_drivers::audio::AudioSettings,
    /// Spoken moves (`[speech]`).
    #[serde(default)]
    pub speech: SpeechSettings,
    /// The tournament hall's broker (`[hall]`); no publishing when absent.
    #[serde(default)]
    pub hall: Option<HallSettings>,
    /// A Braille display through BrlAPI (`[braille]`, issue 18 §5).
    #[serde(default)]
    pub braille: BrailleSettings,
    /// An engine as the sighted side (`[opponent]`, issue 26); a person when absent.
    #[serde(default)]
    pub opponent: Option<OpponentSettings>,
}

/// An engine plays the sighted side (`[opponent]`): practice at home.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct OpponentSettings {
    /// The UCI engine program (`/usr/games/stockfish`), or `sim` for the
    /// simulated engine (a legal move without search).
    #[serde(default = "default_engine")]
    pub engine: String,
    /// Its strength as a rating (`UCI_Elo`, else a `Skill Level`); absent: full strength.
    #[serde(default)]
    pub elo: Option<u32>,
    /// How long it thinks about a move; absent: the game's clock when it has
    /// a time control, else 1000 ms.
    #[serde(default)]
    pub move_time_ms: Option<u64>,
    /// How long it thinks about a hint and about each move of the review.
    #[serde(default = "default_hint_ms")]
    pub hint_time_ms: u64,
    /// How much "stronger" / "weaker" change the rating (between games).
    #[serde(default = "default_elo_step")]
    pub elo_step: u32,
    /// The simulated engine's seed (`engine = "sim"`).
    #[serde(default)]
    pub seed: u64,
}

/// Debian's Stockfish (`scripts/setup` installs it).
pub const DEFAULT_ENGINE: &str = "/usr/games/stockfish";

fn default_engine() -> String {
    DEFAULT_ENGINE.into()
}
fn default_hint_ms() -> u64 {
    500
}
fn default_elo_step() -> u32 {
    100
}

impl OpponentSettings {
    /// The engine `engine` names, at the default settings.
    pub fn new(engine: impl Into<String>) -> Self {
        OpponentSettings {
            engine: engine.into(),
            elo: None,
            move_time_ms: None,
            hint_time_ms: default_hint_ms(),
            elo_step: default_elo_step(),
            seed: 0,
        }
    }

    fn check(&self) -> Result<(), (String, String)> {
        if self.engine.trim().is_empty() {
            return Err(("opponent.engine".into(), "names no program".into()));
        }
        if let Some(elo) = self.elo
            && !(100..=4000).contains(&elo)
        {
            return Err(("opponent.elo".into(), format!("{elo} is outside 100..=4000")));
        }
        if let Some(ms) = self.move_time_ms
            && !(10..=600_000).contains(&ms)
        {
            return Err(("opponent.move_time_ms".into(), format!("{ms} is outside 10..=600000")));
        }
        if !(10..=60_000).contains(&self.hint_time_ms) {
            return Err((
                "opponent.hint_time_ms".into(),
                format!("{} is outside 10..=60000", self.hint_time_ms),
            ));
        }
        if !(1..=1000).contains(&self.elo_step) {
            return Err(("opponent.elo_step".into(), format!("{} is outside 1..=1000", self.elo_step)));
        }
        Ok(())
    }
}

/// A refreshable Braille display through brltty's BrlAPI (`[braille]`): the
/// last move, the clocks on a key, routing keys as `[buttons]` `braille:N`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BrailleSettings {
    /// Use a Braille display.
    #[serde(default)]
    pub enabled: bool,
    /// brltty's BrlAPI host, `:N` (its socket `/var/lib/BrlAPI/N`).
    #[serde(default = "default_braille_host")]
    pub host: String,
    /// The BrlAPI socket itself (overrides `host`).
    #[serde(default)]
    pub socket: Option<PathBuf>,
    /// The key file when brltty asks for key authorization.
    #[serde(default = "default_braille_key_file")]
    pub key_file: PathBuf,
    /// `language`: the moves with his language's piece letters (German
    /// K D T L S, Polish K H W G S); `san`: English SAN letters.
    #[serde(default)]
    pub notation: BrailleNotation,
}

/// The piece letters of moves on the Braille display.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BrailleNotation {
    /// The piece letters of `[voice] language`.
    #[default]
    Language,
    /// English SAN.
    San,
}

fn default_braille_host() -> String {
    ":0".into()
}
fn default_braille_key_file() -> PathBuf {
    PathBuf::from("/etc/brlapi.key")
}

impl Default for BrailleSettings {
    fn default() -> Self {
        BrailleSettings {
            enabled: false,
            host: default_braille_host(),
            socket: None,
            key_file: default_braille_key_file(),
            notation: BrailleNotation::Language,
        }
    }
}

impl BrailleSettings {
    /// The socket to connect to: `socket`, else the one of `host`.
    pub fn socket_path(&self) -> Option<PathBuf> {
        self.socket.clone().or_else(|| station_drivers::braille::BrlapiSettings::socket_of_host(&self.host))
    }
}

/// Publishing to a tournament hall's MQTT broker (`[hall]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HallSettings {
    /// `mqtt://HOST:PORT` (or `mqtts://HOST:PORT` with `ca_file`).
    pub broker: String,
    /// The hall's name (one topic level).
    pub hall: String,
    /// This station's board in the hall (one topic level), e.g. `"7"`.
    pub board: String,
    /// A file holding `USER:PASSWORD` (from `station hall credentials`).
    #[serde(default)]
    pub credentials: Option<PathBuf>,
    /// The CA certificate for `mqtts://`.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
}

/// Spoken moves and commands (`[speech]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeechSettings {
    /// The blind player announces his moves aloud and the station checks them;
    /// his clock press counts only after a matching announcement (D.2.3.3).
    #[serde(default)]
    pub enabled: bool,
    /// Listen through a microphone (or `input_wav`) when speech is enabled;
    /// off: heard text comes only through the `spoken` operator command.
    #[serde(default = "yes")]
    pub microphone: bool,
    /// The language of the acoustic model (default: `[voice] language`).
    #[serde(default)]
    pub language: Option<String>,
    /// Vosk model folder per language, e.g. `de = "/var/lib/annexd/vosk/vosk-model-small-de-0.15"`
    /// (default: `/var/lib/annexd/vosk/<the language's small model>`).
    #[serde(default)]
    pub models: std::collections::BTreeMap<String, PathBuf>,
    /// Input device by name (exactly, or the only one containing it); the default device if absent.
    #[serde(default)]
    pub input_device: Option<String>,
    /// `vad` (always listening, voice activity detection) or `push_to_talk`
    /// (only while a `push_to_talk` button is held).
    #[serde(default)]
    pub mode: ListenMode,
    /// Phrases added to the recogniser's grammar besides the moves and
    /// commands of the position (diagnostics: proves the path with a model of
    /// another language).
    #[serde(default)]
    pub extra_phrases: Vec<String>,
    /// TEST ONLY: read this WAV file (any rate) in real time instead of a
    /// microphone, then silence; it goes through the same mute gate,
    /// resampler, detector and recogniser as the microphone.
    #[serde(default)]
    pub input_wav: Option<PathBuf>,
    /// Decide as soon as the recogniser's partial result is a whole phrase
    /// that nothing longer changes, instead of waiting for the detector's
    /// 600 ms of silence (issue 14).
    #[serde(default = "yes")]
    pub decide_early: bool,
    /// Quiet after the last loud sound before a partial result decides, ms
    /// (keeps a word's onset from being taken for the end of the phrase).
    #[serde(default = "default_decide_quiet_ms")]
    pub decide_quiet_ms: u32,
    /// Below this word confidence (the weakest word) a move is asked back.
    #[serde(default = "default_move_confidence")]
    pub move_confidence: f32,
    /// Below this word confidence a command is not acted on.
    #[serde(default = "default_command_confidence")]
    pub command_confidence: f32,
    /// Below this word confidence a move one known mishearing away from
    /// another legal move is asked back.
    #[serde(default = "default_sure_confidence")]
    pub sure_confidence: f32,
    /// The recording device of D.2.7 (issue 18): the audio of each spoken
    /// move the station accepted is kept beside the journal, a WAV per ply.
    #[serde(default)]
    pub keep_audio: bool,
    /// The most audio one game keeps, in MiB; later moves' audio is not kept (said once).
    #[serde(default = "default_keep_audio_max_mb")]
    pub keep_audio_max_mb: u32,
}

fn default_keep_audio_max_mb() -> u32 {
    64
}

fn default_decide_quiet_ms() -> u32 {
    50
}

fn default_move_confidence() -> f32 {
    station_voices::understand::DEFAULT_MIN_CONFIDENCE
}

fn default_command_confidence() -> f32 {
    station_voices::understand::DEFAULT_COMMAND_CONFIDENCE
}

fn default_sure_confidence() -> f32 {
    station_voices::understand::DEFAULT_SURE_CONFIDENCE
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
            decide_quiet_ms: default_decide_quiet_ms(),
            move_confidence: default_move_confidence(),
            command_confidence: default_command_confidence(),
            sure_confidence: default_sure_confidence(),
            keep_audio: false,
            keep_audio_max_mb: default_keep_audio_max_mb(),
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

    /// The `[speech]` values that can be out of range: (key, problem).
    fn check(&self) -> Result<(), (String, String)> {
        for (key, value) in [
            ("move_confidence", self.move_confidence),
            ("command_confidence", self.command_confidence),
            ("sure_confidence", self.sure_confidence),
        ] {
            if !(0.0..=1.0).contains(&value) {
                return Err((format!("speech.{key}"), format!("{value} is outside 0..=1")));
            }
        }
        if self.decide_quiet_ms > 600 {
            return Err((
                "speech.decide_quiet_ms".into(),
                format!("{} is outside 0..=600", self.decide_quiet_ms),
            ));
        }
        Ok(())
    }

    /// Where the model of `lang` is expected.
    pub fn model_dir(&self, lang: &str) -> PathBuf {
        self.models.get(lang).cloned().unwrap_or_else(|| {
            let name = station_drivers::speech::expected_model(lang).unwrap_or("vosk-model");
            PathBuf::from("/var/lib/annexd/vosk").join(name)
        })
    }
}

/// The station's clock (`[clock]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockSettings {
    /// PGN `TimeControl` notation (`5400+30`, `40/7200:20/3600:900+30`, `5400d30` simple
    /// delay, `5400b30` Bronstein); no clock when absent.
    #[serde(default)]
    pub time_control: Option<String>,
    /// Start the clock when the game starts.
    #[serde(default = "yes")]
    pub auto_start: bool,
    /// Press the clock for a player once his move is made and announced (no lever).
    #[serde(default)]
    pub auto_press: bool,
    /// The blind player's spoken warnings.
    #[serde(default)]
    pub warnings: station_core::clock::WarningConfig,
    /// Which clock keeps the time: `station` (the station's own, pressed with a
    /// lever) or `dgt` (a DGT 3000 on the sighted player's DGT board: the
    /// master, set when a game starts; the station reads and voices it).
    #[serde(default)]
    pub source: ClockSource,
    /// Which display of the DGT clock is White's: `left` or `right`.
    #[serde(default)]
    pub dgt_white: DgtDisplay,
    /// After this long without a reading of the DGT clock (while the DGT board
    /// is connected) the blind player is told, once, that it is not answering.
    #[serde(default = "default_dgt_silent")]
    pub dgt_silent_ms: u64,
}

/// Which clock keeps the time (`[clock] source`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockSource {
    /// The station's own clock.
    #[default]
    Station,
    /// A DGT 3000 read through the DGT board.
    Dgt,
}

/// A display of the DGT clock, seen from its front.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DgtDisplay {
    /// The left display.
    #[default]
    Left,
    /// The right display.
    Right,
}

fn default_dgt_silent() -> u64 {
    3000
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            time_control: None,
            auto_start: true,
            auto_press: false,
            warnings: Default::default(),
            source: ClockSource::Station,
            dgt_white: DgtDisplay::Left,
            dgt_silent_ms: default_dgt_silent(),
        }
    }
}

fn yes() -> bool {
    true
}

/// Button mapping (`[buttons]`): each action lists its sources, `blind:N` or
/// `mirror:N` for board buttons (0–15), `gamepad:NAME` for gamepad buttons,
/// `braille:N` for the Braille display's routing key over cell N (0 = leftmost).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Buttons {
    /// Press the clock (the lever).
    #[serde(default = "default_clock_buttons")]
    pub clock: Vec<String>,
    /// Say the times and the number of moves.
    #[serde(default = "default_time_buttons")]
    pub time: Vec<String>,
    /// Say the last move again.
    #[serde(default = "default_repeat_buttons")]
    pub repeat_last_move: Vec<String>,
    /// Answer yes to a question.
    #[serde(default)]
    pub confirm: Vec<String>,
    /// Answer no / cancel.
    #[serde(default)]
    pub cancel: Vec<String>,
    /// Hold to speak a move.
    #[serde(default)]
    pub push_to_talk: Vec<String>,
    /// Read the position aloud.
    #[serde(default)]
    pub read_position: Vec<String>,
    /// Say again what differs between his board and the game.
    #[serde(default)]
    pub read_difference: Vec<String>,
    /// Read the last five moves of the record with their numbers (issue 18).
    #[serde(default)]
    pub read_record: Vec<String>,
    /// One half-move back in the record, like a tape.
    #[serde(default)]
    pub record_back: Vec<String>,
    /// One half-move forward in the record.
    #[serde(default)]
    pub record_forward: Vec<String>,
    /// End the current answer at once (a move is cut, never dropped:
    /// `repeat_last_move` says it again).
    #[serde(default)]
    pub silence: Vec<String>,
    /// Read a rank: each press the next one, from his own side (a spoken
    /// "Reihe vier" chooses one directly).
    #[serde(default)]
    pub read_rank: Vec<String>,
    /// Read a file: each press the next one, from his left.
    #[serde(default)]
    pub read_file: Vec<String>,
    /// Say the draw facts of the record (Art. 9.2/9.3): how often the position
    /// has stood on the board, how many moves without a pawn move or capture.
    #[serde(default)]
    pub draw_status: Vec<String>,
    /// Switch the talking clock between the time left and the time used
    /// (D.2.10.4), and say it (issue 18).
    #[serde(default)]
    pub clock_reading: Vec<String>,
    /// Practice (`[opponent]`): his last move and the engine's reply taken back.
    #[serde(default)]
    pub practice_take_back: Vec<String>,
    /// Practice: one move suggested, in words.
    #[serde(default)]
    pub practice_hint: Vec<String>,
    /// Practice: a new game from the start.
    #[serde(default)]
    pub practice_new_game: Vec<String>,
    /// Practice: the engine one level stronger from the next game on.
    #[serde(default)]
    pub practice_stronger: Vec<String>,
    /// Practice: the engine one level weaker from the next game on.
    #[serde(default)]
    pub practice_weaker: Vec<String>,
    /// Practice: the moves where his evaluation dropped most, after the game.
    #[serde(default)]
    pub practice_review: Vec<String>,
}

fn default_clock_buttons() -> Vec<String> {
    vec!["blind:0".into()]
}
fn default_time_buttons() -> Vec<String> {
    vec!["blind:1".into()]
}
fn default_repeat_buttons() -> Vec<String> {
    vec!["blind:2".into()]
}

impl Default for Buttons {
    fn default() -> Self {
        Buttons {
            clock: default_clock_buttons(),
            time: default_time_buttons(),
            repeat_last_move: default_repeat_buttons(),
            confirm: Vec::new(),
            cancel: Vec::new(),
            push_to_talk: Vec::new(),
            read_position: Vec::new(),
            read_difference: Vec::new(),
            read_record: Vec::new(),
            record_back: Vec::new(),
            record_forward: Vec::new(),
            silence: Vec::new(),
            read_rank: Vec::new(),
            read_file: Vec::new(),
            draw_status: Vec::new(),
            clock_reading: Vec::new(),
            practice_take_back: Vec::new(),
            practice_hint: Vec::new(),
            practice_new_game: Vec::new(),
            practice_stronger: Vec::new(),
            practice_weaker: Vec::new(),
            practice_review: Vec::new(),
        }
    }
}

/// A button action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Press the clock.
    Clock,
    /// Say the times.
    Time,
    /// Say the last move again.
    RepeatLastMove,
    /// Yes.
    Confirm,
    /// No.
    Cancel,
    /// Hold to speak.
    PushToTalk,
    /// Read the position.
    ReadPosition,
    /// Say what differs between his board and the game.
    ReadDifference,
    /// Read the last five moves.
    ReadRecord,
    /// One half-move back in the record.
    RecordBack,
    /// One half-move forward in the record.
    RecordForward,
    /// End the current answer.
    Silence,
    /// Read the next rank.
    ReadRank,
    /// Read the next file.
    ReadFile,
    /// Say the draw facts of the record.
    DrawStatus,
    /// Switch the clock between time left and time used, and say it.
    ClockReading,
    /// Practice (`[opponent]`): his last move and the engine's reply taken back.
    PracticeTakeBack,
    /// Practice: one move suggested, in words.
    PracticeHint,
    /// Practice: a new game from the start.
    PracticeNewGame,
    /// Practice: the engine one level stronger from the next game on.
    PracticeStronger,
    /// Practice: the engine one level weaker from the next game on.
    PracticeWeaker,
    /// Practice: the moves where his evaluation dropped most, after the game.
    PracticeReview,
}

impl Buttons {
    /// The action of a source such as `blind:0`.
    pub fn action_of(&self, source: &str) -> Option<Action> {
        [
            (&self.clock, Action::Clock),
            (&self.time, Action::Time),
            (&self.repeat_last_move, Action::RepeatLastMove),
            (&self.confirm, Action::Confirm),
            (&self.cancel, Action::Cancel),
            (&self.push_to_talk, Action::PushToTalk),
            (&self.read_position, Action::ReadPosition),
            (&self.read_difference, Action::ReadDifference),
            (&self.read_record, Action::ReadRecord),
            (&self.record_back, Action::RecordBack),
            (&self.record_forward, Action::RecordForward),
            (&self.silence, Action::Silence),
            (&self.read_rank, Action::ReadRank),
            (&self.read_file, Action::ReadFile),
            (&self.draw_status, Action::DrawStatus),
            (&self.clock_reading, Action::ClockReading),
            (&self.practice_take_back, Action::PracticeTakeBack),
            (&self.practice_hint, Action::PracticeHint),
            (&self.practice_new_game, Action::PracticeNewGame),
            (&self.practice_stronger, Action::PracticeStronger),
            (&self.practice_weaker, Action::PracticeWeaker),
            (&self.practice_review, Action::PracticeReview),
        ]
        .into_iter()
        .find(|(sources, _)| sources.iter().any(|s| s == source))
        .map(|(_, a)| a)
    }

    fn check(&self) -> Result<(), (String, String)> {
        let mut taken: Vec<(&str, &str)> = Vec::new();
        for (name, sources) in [
            ("clock", &self.clock),
            ("time", &self.time),
            ("repeat_last_move", &self.repeat_last_move),
            ("confirm", &self.confirm),
            ("cancel", &self.cancel),
            ("push_to_talk", &self.push_to_talk),
            ("read_position", &self.read_position),
            ("read_difference", &self.read_difference),
            ("read_record", &self.read_record),
            ("record_back", &self.record_back),
            ("record_forward", &self.record_forward),
            ("silence", &self.silence),
            ("read_rank", &self.read_rank),
            ("read_file", &self.read_file),
            ("draw_status", &self.draw_status),
            ("clock_reading", &self.clock_reading),
            ("practice_take_back", &self.practice_take_back),
            ("practice_hint", &self.practice_hint),
            ("practice_new_game", &self.practice_new_game),
            ("practice_stronger", &self.practice_stronger),
            ("practice_weaker", &self.practice_weaker),
            ("practice_review", &self.practice_review),
        ] {
            for s in sources {
                let ok = match s.split_once(':') {
                    Some(("blind" | "mirror", n)) => n.parse::<u8>().is_ok_and(|n| n < 16),
                    Some(("gamepad", name)) => !name.is_empty(),
                    Some(("braille", n)) => n.parse::<u16>().is_ok_and(|n| n < 256),
                    _ => false,
                };
                if !ok {
                    return Err((
                        format!("buttons.{name}"),
                        format!("`{s}` is not blind:N, mirror:N (0-15), gamepad:NAME or braille:N (0-255)"),
                    ));
                }
                // One button, one action: a press must never do two things at once
                // (the defaults are clock blind:0, time blind:1, repeat_last_move blind:2).
                if let Some((other, _)) = taken.iter().find(|(_, t)| *t == s.as_str()) {
                    return Err((
                        format!("buttons.{name}"),
                        format!("`{s}` is already the `{other}` button; map `{other}` to another button"),
                    ));
                }
                taken.push((name, s));
            }
        }
        Ok(())
    }
}

/// The web console (`[console]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConsoleSettings {
    /// Address and port; loopback unless `allow_remote`.
    #[serde(default = "default_listen")]
    pub listen: String,
    /// Operator token (generated at start when absent).
    #[serde(default)]
    pub token: Option<String>,
    /// Allow listening on a non-loopback address.
    #[serde(default)]
    pub allow_remote: bool,
    /// The mirror display's language.
    #[serde(default = "default_mirror_language")]
    pub mirror_language: String,
}

fn default_listen() -> String {
    "127.0.0.1:8040".into()
}
fn default_mirror_language() -> String {
    "de".into()
}

impl Default for ConsoleSettings {
    fn default() -> Self {
        ConsoleSettings {
            listen: default_listen(),
            token: None,
            allow_remote: false,
            mirror_language: default_mirror_language(),
        }
    }
}

/// Board roles.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Boards {
    /// The blind player's board.
    pub blind: Option<BoardConfig>,
    /// The sighted player's board (none: an ordinary board; his moves reach the
    /// station through the blind player's board or the operator).
    pub mirror: Option<BoardConfig>,
}

/// Which driver a board uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriverKind {
    /// The peg board over a serial line.
    #[default]
    Pegboard,
    /// A simulated peg board on a pseudo-terminal, playing a game from a PGN file.
    Sim,
    /// A DGT e-board (senses pieces) on a serial line; the sighted player's board.
    Dgt,
    /// No sensed board.
    None,
}

/// One board's settings.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardConfig {
    /// Driver.
    #[serde(default)]
    pub driver: DriverKind,
    /// Serial device (pegboard), e.g. `/dev/ttyUSB0` or the udev link `/dev/annexd-pegboard`.
    #[serde(default)]
    pub port: Option<PathBuf>,
    /// Baud rate.
    #[serde(default = "default_baud")]
    pub baud: u32,
    /// The board is turned 180° (the sensors' a1 is at h8).
    #[serde(default)]
    pub flipped: bool,
    /// Sim only: the PGN file whose game the simulated hands play (the built-in demo game if absent).
    #[serde(default)]
    pub pgn: Option<PathBuf>,
    /// Sim only: which game of the file (1-based).
    #[serde(default = "default_game_number")]
    pub game: usize,
    /// Sim only: noise seed (no noise if absent).
    #[serde(default)]
    pub noise_seed: Option<u64>,
    /// Sim only: time factor (10 = ten times faster than a human).
    #[serde(default = "default_speed")]
    pub speed: f64,
    /// Sim only: the simulated hand presses the clock lever (board button 0)
    /// after each move, as a player does.
    #[serde(default)]
    pub lever: bool,
}

impl BoardConfig {
    /// A peg board on `port` at the protocol's line speed, as the demos wire
    /// their simulated boards.
    pub fn pegboard(port: PathBuf) -> BoardConfig {
        BoardConfig {
            driver: DriverKind::Pegboard,
            port: Some(port),
            baud: 115_200,
            flipped: false,
            pgn: None,
            game: 1,
            noise_seed: None,
            speed: 1.0,
            lever: false,
        }
    }
}

fn default_baud() -> u32 {
    115_200
}
fn default_game_number() -> usize {
    1
}
fn default_speed() -> f64 {
    1.0
}

/// Game settings.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSettings {
    /// How long a board must be still before it is judged.
    #[serde(default = "default_settle")]
    pub settle_ms: u64,
    /// Shorter lifts are sensor bounce.
    #[serde(default = "default_debounce")]
    pub debounce_ms: u64,
    /// The piece a promotion is assumed to be: queen, rook, bishop or knight.
    #[serde(default = "default_promotion")]
    pub promotion: String,
    /// Start position (standard if absent).
    #[serde(default)]
    pub start_fen: Option<String>,
    /// The blind player's colour: white or black.
    #[serde(default = "default_blind_color")]
    pub blind_color: String,
    /// How long a board may take to execute the agreed position before it is reminded (D.2.9).
    #[serde(default = "default_grace")]
    pub grace_ms: u64,
    /// Which game: chess (default), international draughts or the 64-square version (issue 17).
    #[serde(default)]
    pub rules: GameRules,
}

/// `[game] rules`: which game the station runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum GameRules {
    /// Chess (FIDE Laws, Annex D).
    #[default]
    Chess,
    /// International draughts, 10×10.
    Draughts,
    /// The code's 64-square draughts, 8×8.
    Draughts64,
}

fn default_blind_color() -> String {
    "white".into()
}
fn default_grace() -> u64 {
    30_000
}

fn default_settle() -> u64 {
    300
}
fn default_debounce() -> u64 {
    40
}
fn default_promotion() -> String {
    "queen".into()
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            settle_ms: default_settle(),
            debounce_ms: default_debounce(),
            promotion: default_promotion(),
            start_fen: None,
            blind_color: default_blind_color(),
            grace_ms: default_grace(),
            rules: GameRules::Chess,
        }
    }
}

/// PGN tags.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tags {
    /// Event.
    pub event: Option<String>,
    /// Site.
    pub site: Option<String>,
    /// Round.
    pub round: Option<String>,
    /// White player.
    pub white: Option<String>,
    /// Black player.
    pub black: Option<String>,
    /// Board number (PGN `Board`).
    pub board: Option<String>,
}

/// The longest PGN tag value the config may set.
const MAX_TAG: usize = 255;

impl Tags {
    /// Every tag by its key.
    fn named(&self) -> [(&'static str, &Option<String>); 6] {
        [
            ("event", &self.event),
            ("site", &self.site),
            ("round", &self.round),
            ("white", &self.white),
            ("black", &self.black),
            ("board", &self.board),
        ]
    }
}

/// Journal settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalSettings {
    /// Directory of the per-game journals.
    pub dir: Option<PathBuf>,
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("{path}: cannot read: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// TOML syntax or a key of the wrong type or name; the message names line and key.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// What the parser said, with line, column and key.
        message: String,
    },
    /// Values that parse but do not fit together; the line is the key's own,
    /// or its table's when the key is absent.
    #[error("{path}: {}key `{key}`: {message}", .line.map(|l| format!("line {l}, ")).unwrap_or_default())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line of the key (1-based), when the file names it or its table.
        line: Option<usize>,
        /// The dotted key.
        key: String,
        /// Why.
        message: String,
    },
}

impl Config {
    /// Reads and checks a config file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|source| ConfigError::Read { path: path.to_owned(), source })?;
        Self::parse(&text, path)
    }

    /// Parses and checks config text; `path` names it in errors.
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let config: Config = toml::from_str(text).map_err(|e| ConfigError::Parse {
            path: path.to_owned(),
            message: describe_toml_error(text, &e),
        })?;
        config.check(path).map_err(|e| match e {
            ConfigError::Invalid { path, key, message, .. } => {
                ConfigError::Invalid { line: line_of(text, &key), path, key, message }
            }
            other => other,
        })?;
        Ok(config)
    }

    fn check(&self, path: &Path) -> Result<(), ConfigError> {
        let invalid = |key: &str, message: String| ConfigError::Invalid {
            path: path.to_owned(),
            line: None,
            key: key.to_owned(),
            message,
        };
        let g = &self.game;
        if g.settle_ms == 0 || g.settle_ms > 10_000 {
            return Err(invalid("game.settle_ms", format!("{} is outside 1..=10000", g.settle_ms)));
        }
        if g.debounce_ms >= g.settle_ms {
            return Err(invalid(
                "game.debounce_ms",
                format!("{} must be below settle_ms ({})", g.debounce_ms, g.settle_ms),
            ));
        }
        if self.promotion_role().is_none() {
            return Err(invalid(
                "game.promotion",
                format!("`{}` is not queen, rook, bishop or knight", g.promotion),
            ));
        }
        if let Some(fen) = &g.start_fen {
            station_core::Game::from_fen(fen).map_err(|e| invalid("game.start_fen", e.to_string()))?;
        }
        if let Err(e) = station_voices::Wording::new(&self.voice) {
            return Err(invalid("voice", e.to_string()));
        }
        if let Some(tc) = &self.clock.time_control {
            tc.parse::<station_core::clock::TimeControl>()
                .map_err(|e| invalid("clock.time_control", e.to_string()))?;
        }
        if self.clock.source == ClockSource::Dgt {
            if !self.mirror_pieces() {
                return Err(invalid(
                    "clock.source",
                    "`dgt` needs the DGT board: boards.mirror.driver = \"dgt\"".into(),
                ));
            }
            if self.clock.time_control.is_none() {
                return Err(invalid(
                    "clock.source",
                    "`dgt` needs clock.time_control (the times the DGT clock is set to)".into(),
                ));
            }
        }
        if !(500..=600_000).contains(&self.clock.dgt_silent_ms) {
            return Err(invalid(
                "clock.dgt_silent_ms",
                format!("{} is outside 500..=600000", self.clock.dgt_silent_ms),
            ));
        }
        self.buttons.check().map_err(|(key, message)| invalid(&key, message))?;
        if self.braille.enabled && self.braille.socket_path().is_none() {
            return Err(invalid(
                "braille.host",
                format!("`{}` is not a local BrlAPI host (:N); set braille.socket", self.braille.host),
            ));
        }
        for (name, listener) in [("private", &self.audio.private), ("public", &self.audio.public)] {
            let v = listener.volume;
            if !(v.is_finite() && (0.0..=4.0).contains(&v)) {
                return Err(invalid(
                    &format!("audio.{name}.volume"),
                    format!("{v} is not a number from 0 to 4"),
                ));
            }
        }
        for (name, value) in self.tags.named() {
            if let Some(v) = value
                && (v.chars().any(char::is_control) || v.chars().count() > MAX_TAG)
            {
                return Err(invalid(
                    &format!("tags.{name}"),
                    format!(
                        "a PGN tag is one line of at most {MAX_TAG} characters without control characters \
                         (a newline would break the exported PGN)"
                    ),
                ));
            }
        }
        self.speech.check().map_err(|(key, message)| invalid(&key, message))?;
        if let Some(o) = &self.opponent {
            o.check().map_err(|(key, message)| invalid(&key, message))?;
            if self.game.rules != GameRules::Chess {
                return Err(invalid("opponent", "an engine opponent plays chess only".into()));
            }
            if self.mirror_sensed() {
                return Err(invalid(
                    "opponent",
                    "the engine is the sighted side: boards.mirror must be absent or driver = \"none\""
                        .into(),
                ));
            }
        }
        if self.console.listen.parse::<std::net::SocketAddr>().is_err() {
            return Err(invalid("console.listen", format!("`{}` is not ADDRESS:PORT", self.console.listen)));
        }
        if !matches!(g.blind_color.as_str(), "white" | "black") {
            return Err(invalid("game.blind_color", format!("`{}` is not white or black", g.blind_color)));
        }
        for (name, board) in [("blind", &self.boards.blind), ("mirror", &self.boards.mirror)] {
            let Some(b) = board else { continue };
            let key = |k: &str| format!("boards.{name}.{k}");
            if b.baud == 0 {
                return Err(invalid(&key("baud"), "must be positive".into()));
            }
            if matches!(b.driver, DriverKind::Pegboard | DriverKind::Dgt) && b.port.is_none() {
                return Err(invalid(&key("port"), "this driver needs a serial port".into()));
            }
            if name == "blind" && b.driver == DriverKind::Dgt {
                return Err(invalid(
                    &key("driver"),
                    "a DGT board for the blind player is not supported yet".into(),
                ));
            }
            if !(b.speed.is_finite() && b.speed > 0.0) {
                return Err(invalid(&key("speed"), format!("{} is not a positive number", b.speed)));
            }
            if b.game == 0 {
                return Err(invalid(&key("game"), "games are numbered from 1".into()));
            }
        }
        Ok(())
    }

    /// The blind player's colour.
    pub fn blind_color(&self) -> shakmaty::Color {
        if self.game.blind_color == "black" { shakmaty::Color::Black } else { shakmaty::Color::White }
    }

    /// True when the sighted player's board senses pieces (DGT).
    pub fn mirror_pieces(&self) -> bool {
        self.boards.mirror.as_ref().is_some_and(|m| m.driver == DriverKind::Dgt)
    }

    /// True when the blind player has no sensor board (`[boards.blind]` absent
    /// or `driver = "none"`): his moves are spoken (`[speech] enabled`) or
    /// entered by the assistant (a plain peg board), never waited for.
    pub fn blind_unsensed(&self) -> bool {
        self.boards.blind.as_ref().is_none_or(|b| b.driver == DriverKind::None)
    }

    /// True when the sighted player's board is sensed.
    pub fn mirror_sensed(&self) -> bool {
        self.boards.mirror.as_ref().is_some_and(|m| m.driver != DriverKind::None)
    }

    /// The clock's time control.
    pub fn time_control(&self) -> Option<station_core::clock::TimeControl> {
        self.clock.time_control.as_ref().and_then(|tc| tc.parse().ok())
    }

    /// The promotion piece.
    pub fn promotion_role(&self) -> Option<Role> {
        match self.game.promotion.to_ascii_lowercase().as_str() {
            "queen" | "q" => Some(Role::Queen),
            "rook" | "r" => Some(Role::Rook),
            "bishop" | "b" => Some(Role::Bishop),
            "knight" | "n" => Some(Role::Knight),
            _ => None,
        }
    }

    /// Inference timing from the game settings.
    pub fn tracker(&self) -> TrackerConfig {
        TrackerConfig {
            settle_ms: self.game.settle_ms,
            debounce_ms: self.game.debounce_ms,
            promotion: self.promotion_role().unwrap_or(Role::Queen),
        }
    }

    /// The PGN Seven Tag Roster for a game started on `date` (`YYYY.MM.DD`).
    /// A checked config holds no control characters in its tags; one built
    /// otherwise has them turned into spaces, so a tag stays one PGN line.
    pub fn seven_tags(&self, date: String) -> SevenTags {
        let or_unknown = |v: &Option<String>| {
            v.as_deref().map_or_else(
                || "?".into(),
                |v| v.chars().map(|c| if c.is_control() { ' ' } else { c }).collect(),
            )
        };
        SevenTags {
            event: or_unknown(&self.tags.event),
            site: or_unknown(&self.tags.site),
            date,
            round: or_unknown(&self.tags.round),
            white: or_unknown(&self.tags.white),
            black: or_unknown(&self.tags.black),
            board: self.tags.board.as_deref().map(|v| or_unknown(&Some(v.to_owned()))),
        }
    }
}

/// The line of a dotted key (`boards.blind.port`) in the TOML text, from the
/// parser's spans: the key's own line, or when it is absent the line of its
/// nearest enclosing table that the file names. `None` when the file names none.
fn line_of(text: &str, dotted: &str) -> Option<usize> {
    let root = toml::de::DeTable::parse(text).ok()?;
    let mut table = root.get_ref();
    let mut start = None;
    for part in dotted.split('.') {
        let Some((key, value)) = table.iter().find(|(k, _)| k.get_ref().as_ref() == part) else { break };
        start = Some(key.span().start);
        match value.get_ref() {
            toml::de::DeValue::Table(inner) => table = inner,
            _ => break,
        }
    }
    start.map(|s| text[..s.min(text.len())].matches('\n').count() + 1)
}

/// "line L, column C: message" from a toml error, with the key path the parser reports.
fn describe_toml_error(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().trim().to_owned();
    match e.span() {
        Some(span) => {
            let before = &text[..span.start.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
            let key = text[span.start.min(text.len())..span.end.min(text.len())].trim();
            format!("line {line}, column {column} (at `{key}`): {message}")
        }
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opponent_section_is_checked() {
        let c = parse("[opponent]\nelo = 1600\n").unwrap();
        let o = c.opponent.unwrap();
        assert_eq!((o.engine.as_str(), o.elo, o.move_time_ms), (DEFAULT_ENGINE, Some(1600), None));
        let err = parse("[opponent]\nelo = 1600\nmove_time_ms = 0\n").unwrap_err().to_string();
        assert!(err.contains("opponent.move_time_ms") && err.contains("line 3"), "{err}");
        let err = parse("[boards.mirror]\ndriver = \"sim\"\n[opponent]\n").unwrap_err().to_string();
        assert!(err.contains("the engine is the sighted side"), "{err}");
        assert!(parse("[opponent]\nlevel = 3\n").is_err(), "unknown keys are errors");
    }

    fn parse(text: &str) -> Result<Config, ConfigError> {
        Config::parse(text, Path::new("station.toml"))
    }

    #[test]
    fn the_minimal_config_of_the_issue_parses() {
        let c = parse(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/ttyUSB0\"\nbaud = 115200\nflipped = false\n[game]\nsettle_ms = 300\n",
        )
        .unwrap();
        let b = c.boards.blind.unwrap();
        assert_eq!(b.driver, DriverKind::Pegboard);
        assert_eq!(b.port.unwrap(), Path::new("/dev/ttyUSB0"));
        assert_eq!(c.game.settle_ms, 300);
        assert_eq!(c.game.debounce_ms, 40);
    }

    #[test]
    fn a_misspelt_key_names_file_line_and_key() {
        let err = parse("[boards.blind]\ndriver = \"pegboard\"\nport = \"/dev/x\"\n[game]\nsettle = 300\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("station.toml: line 5"), "{err}");
        assert!(err.contains("settle"), "{err}");
    }

    #[test]
    fn game_rules_chess_by_default_draughts_by_name_and_a_wrong_one_named() {
        assert_eq!(parse("").unwrap().game.rules, GameRules::Chess);
        assert_eq!(parse("[game]\nrules = \"draughts\"\n").unwrap().game.rules, GameRules::Draughts);
        assert_eq!(parse("[game]\nrules = \"draughts64\"\n").unwrap().game.rules, GameRules::Draughts64);
        let err = parse("[game]\nrules = \"checkers\"\n").unwrap_err().to_string();
        assert!(err.contains("line 2") && err.contains("checkers"), "{err}");
    }

    #[test]
    fn a_wrong_type_names_the_line() {
        let err = parse("[game]\nsettle_ms = \"soon\"\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn values_that_do_not_fit_together_name_the_key() {
        let err = parse("[game]\nsettle_ms = 100\ndebounce_ms = 200\n").unwrap_err().to_string();
        assert!(err.contains("game.debounce_ms"), "{err}");
        let err = parse("[boards.blind]\ndriver = \"pegboard\"\n").unwrap_err().to_string();
        assert!(err.contains("boards.blind.port"), "{err}");
        let err = parse("[game]\npromotion = \"king\"\n").unwrap_err().to_string();
        assert!(err.contains("game.promotion"), "{err}");
        let err = parse("[boards.blind]\ndriver = \"teleport\"\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn every_semantic_error_names_its_line() {
        for (text, key, line) in [
            ("[game]\nsettle_ms = 100\ndebounce_ms = 200\n", "game.debounce_ms", 3),
            ("# a comment\n[game]\nsettle_ms = 0\n", "game.settle_ms", 3),
            ("[game]\npromotion = \"king\"\n", "game.promotion", 2),
            ("[game]\nstart_fen = \"8/8\"\n", "game.start_fen", 2),
            ("\n\n[game]\nblind_color = \"green\"\n", "game.blind_color", 4),
            ("[clock]\ntime_control = \"soon\"\n", "clock.time_control", 2),
            ("[clock]\nsource = \"dgt\"\ntime_control = \"300+2\"\n", "clock.source", 2),
            ("[clock]\ndgt_silent_ms = 1\n", "clock.dgt_silent_ms", 2),
            ("[buttons]\n\nconfirm = [\"elbow:1\"]\n", "buttons.confirm", 3),
            ("[console]\nlisten = \"nowhere\"\n", "console.listen", 2),
            ("[boards.blind]\ndriver = \"pegboard\"\n", "boards.blind.port", 1),
            ("[boards.blind]\nport = \"/dev/x\"\nbaud = 0\n", "boards.blind.baud", 3),
            ("[boards.mirror]\ndriver = \"sim\"\nspeed = -1.0\n", "boards.mirror.speed", 3),
            ("[boards.mirror]\ndriver = \"sim\"\ngame = 0\n", "boards.mirror.game", 3),
            ("[boards.blind]\ndriver = \"dgt\"\nport = \"/dev/x\"\n", "boards.blind.driver", 2),
            ("[voice]\nlanguage = \"xx\"\n", "voice", 1),
            ("[audio.private]\nvolume = nan\n", "audio.private.volume", 2),
            ("[audio.public]\nenabled = true\nvolume = inf\n", "audio.public.volume", 3),
            ("[audio.private]\nvolume = -inf\n", "audio.private.volume", 2),
            ("[tags]\nevent = \"Open\\n[Result \\\"1-0\\\"]\"\n", "tags.event", 2),
            ("[tags]\nwhite = \"\"\"\nMüller\nHans\"\"\"\n", "tags.white", 2),
            ("[buttons]\ntime = [\"braille:256\"]\n", "buttons.time", 2),
            ("[braille]\nenabled = true\nhost = \"display.local:1\"\n", "braille.host", 3),
        ] {
            let err = parse(text).err().unwrap_or_else(|| panic!("{key} accepted:\n{text}")).to_string();
            assert!(err.contains(&format!("`{key}`")), "{key}: {err}");
            assert!(err.starts_with(&format!("station.toml: line {line}, key")), "{key}: {err}");
        }
        // A check that needs another key names the line of the key it is about.
        let err = parse("[boards.mirror]\ndriver = \"dgt\"\nport = \"/x\"\n[clock]\nsource = \"dgt\"\n")
            .unwrap_err();
        assert!(err.to_string().contains("line 5, key `clock.source`"), "{err}");
    }

    #[test]
    fn braille_routing_keys_are_buttons_and_the_host_names_a_local_socket() {
        let c = parse(
            "[buttons]\ntime = [\"blind:1\", \"braille:3\"]\n[braille]\nenabled = true\nhost = \":2\"\n",
        )
        .unwrap();
        assert_eq!(c.buttons.action_of("braille:3"), Some(Action::Time));
        assert_eq!(c.braille.socket_path(), Some(PathBuf::from("/var/lib/BrlAPI/2")));
        let c = parse("[braille]\nsocket = \"/run/brl.sock\"\nnotation = \"san\"\n").unwrap();
        assert_eq!(c.braille.socket_path(), Some(PathBuf::from("/run/brl.sock")));
        assert_eq!(c.braille.notation, BrailleNotation::San);
        let err = parse("[buttons]\nclock = [\"braille:3\"]\ntime = [\"braille:3\"]\n").unwrap_err();
        assert!(err.to_string().contains("already the `clock` button"), "{err}");
    }

    #[test]
    fn volumes_and_tags_within_bounds_are_accepted() {
        let c = parse("[audio.private]\nvolume = 0.5\n[tags]\nwhite = \"Müller, Hans\"\n").unwrap();
        assert_eq!(c.audio.private.volume, 0.5);
        assert_eq!(c.seven_tags("2026.01.01".into()).white, "Müller, Hans");
        let mut c = Config::default();
        c.tags.event = Some("Open\n[Result \"1-0\"]".into());
        assert_eq!(c.seven_tags("?".into()).event, "Open [Result \"1-0\"]", "one line");
    }

    #[test]
    fn practice_requests_have_buttons_too() {
        let c = parse("[buttons]\npractice_hint = [\"blind:5\"]\npractice_take_back = [\"gamepad:West\"]\n")
            .unwrap();
        assert_eq!(c.buttons.action_of("blind:5"), Some(Action::PracticeHint));
        assert_eq!(c.buttons.action_of("gamepad:West"), Some(Action::PracticeTakeBack));
        let err = parse("[buttons]\npractice_hint = [\"blind:5\"]\ntime = [\"blind:5\"]\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("blind:5"), "{err}");
    }

    #[test]
    fn a_button_has_one_action() {
        let err = parse("[buttons]\npush_to_talk = [\"blind:1\"]\n").unwrap_err().to_string();
        assert!(err.contains("buttons.push_to_talk") && err.contains("`time`"), "{err}");
        let err =
            parse("[buttons]\nconfirm = [\"gamepad:South\", \"gamepad:South\"]\n").unwrap_err().to_string();
        assert!(err.contains("buttons.confirm"), "{err}");
        let ok = parse("[buttons]\ntime = [\"blind:4\"]\npush_to_talk = [\"blind:1\"]\n").unwrap();
        assert_eq!(ok.buttons.action_of("blind:1"), Some(Action::PushToTalk));
    }

    #[test]
    fn the_dgt_clock_needs_the_dgt_board_and_a_time_control() {
        let dgt = "[boards.mirror]\ndriver = \"dgt\"\nport = \"/dev/x\"\n";
        let err = parse("[clock]\nsource = \"dgt\"\ntime_control = \"300+2\"\n").unwrap_err().to_string();
        assert!(err.contains("clock.source"), "{err}");
        let err = parse(&format!("{dgt}[clock]\nsource = \"dgt\"\n")).unwrap_err().to_string();
        assert!(err.contains("clock.source"), "{err}");
        let err = parse("[clock]\nsource = \"sundial\"\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
        let c = parse(&format!(
            "{dgt}[clock]\nsource = \"dgt\"\ntime_control = \"300+2\"\ndgt_white = \"right\"\n"
        ))
        .unwrap();
        assert_eq!(
            (c.clock.source, c.clock.dgt_white, c.clock.dgt_silent_ms),
            (ClockSource::Dgt, DgtDisplay::Right, 3000)
        );
        assert_eq!(parse("").unwrap().clock.source, ClockSource::Station);
    }

    #[test]
    fn speech_input_keys_and_the_board_without_sensors() {
        let c = parse(
            "[boards.blind]\ndriver = \"none\"\n[voice]\nlanguage = \"pl\"\n[speech]\nenabled = true\nmode = \"push_to_talk\"\nmodels = { pl = \"/m/pl\" }\ninput_device = \"USB\"\n",
        )
        .unwrap();
        assert!(c.blind_unsensed());
        assert_eq!(c.speech.mode, ListenMode::PushToTalk);
        assert!(c.speech.microphone);
        let lang = c.speech.model_language(&c.voice);
        assert_eq!(lang, "pl");
        assert_eq!(c.speech.model_dir(lang), Path::new("/m/pl"));
        assert!(c.speech.model_dir("de").ends_with("vosk-model-small-de-0.15"));
        // Speech off: a board without sensors is still no board to wait for
        // (the assistant enters his moves).
        assert!(parse("[boards.blind]\ndriver = \"none\"\n").unwrap().blind_unsensed());
        let err = parse("[speech]\nmode = \"always\"\n").unwrap_err().to_string();
        assert!(err.contains("line 2"), "{err}");
    }
}

#[cfg(test)]
mod shipped_configs {
    use super::*;

    #[test]
    fn every_config_file_in_the_repository_loads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                Config::load(&path).unwrap_or_else(|e| panic!("{e}"));
                seen += 1;
            }
        }
        assert!(seen >= 3, "config/ holds the default, minimal and sim configs");
    }

    /// `config/station.toml` documents the defaults: what it sets for the
    /// game, clock, buttons, voice and audio is what a config without them gets.
    #[test]
    fn the_documented_config_holds_the_defaults() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../config/station.toml");
        let documented = Config::load(&path).unwrap();
        let defaults = Config::parse("", Path::new("empty.toml")).unwrap();
        let shown = |c: &Config| {
            let mut game = c.game.clone();
            game.start_fen = None;
            let mut clock = c.clock.clone();
            clock.time_control = None;
            format!("{game:?}\n{clock:?}\n{:?}\n{:?}\n{:?}\n{:?}", c.buttons, c.voice, c.audio, c.braille)
        };
        assert_eq!(shown(&documented), shown(&defaults));
    }
}
