//! The station's TOML configuration.
//!
//! Unknown keys are errors (a typo must not silently fall back to a default),
//! and every error names the file, the line and the key.
//!
//! Values are typed as they are read (`values`: a colour, a role, a time control, an address,
//! checked ranges and button sources); each settings struct is `#[serde(default)]` with one
//! `Default`, and only the rules that tie keys together are checked after reading. `buttons` holds
//! the one table of the 22 buttons, their keys and actions (`Buttons::mapped`), read by the lookup,
//! the checks, the doctor and the gamepad watch; `speech` holds `[speech]`.

use serde::Deserialize;
use shakmaty::{Color, Role};
use station_core::TrackerConfig;
use station_core::clock::TimeControl;
use station_core::pgn::SevenTags;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The whole configuration file; every table may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Boards by role (`blind`, later `mirror`).
    pub boards: Boards,
    /// Game settings.
    pub game: GameSettings,
    /// PGN tags for the games played.
    pub tags: Tags,
    /// Where journals go.
    pub journal: JournalSettings,
    /// The station's own clock.
    pub clock: ClockSettings,
    /// Which button does what.
    pub buttons: Buttons,
    /// The web console and mirror display.
    pub console: ConsoleSettings,
    /// How moves are worded for the blind player (language, letters, ranks, long form).
    pub voice: station_voices::VoiceSettings,
    /// Voice packs and the two listeners (earphone, public speaker).
    pub audio: station_audio::AudioSettings,
    /// Spoken moves (`[speech]`).
    pub speech: SpeechSettings,
    /// The tournament hall's broker (`[hall]`); no publishing when absent.
    pub hall: Option<HallSettings>,
    /// A Braille display through BrlAPI (`[braille]`, issue 18 §5).
    pub braille: BrailleSettings,
    /// An engine as the sighted side (`[opponent]`, issue 26); a person when absent.
    pub opponent: Option<OpponentSettings>,
}

/// An engine plays the sighted side (`[opponent]`): practice at home.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct OpponentSettings {
    /// The UCI engine program (`/usr/games/stockfish`), or `sim` for the
    /// simulated engine (a legal move without search).
    #[serde(deserialize_with = "values::program")]
    pub engine: String,
    /// Its strength as a rating (`UCI_Elo`, else a `Skill Level`); absent: full strength.
    #[serde(deserialize_with = "values::within_some::<_, _, 100, 4000>")]
    pub elo: Option<u32>,
    /// How long it thinks about a move; absent: the game's clock when it has
    /// a time control, else 1000 ms.
    #[serde(deserialize_with = "values::within_some::<_, _, 10, 600_000>")]
    pub move_time_ms: Option<u64>,
    /// How long it thinks about a hint and about each move of the review.
    #[serde(deserialize_with = "values::within::<_, _, 10, 60_000>")]
    pub hint_time_ms: u64,
    /// How much "stronger" / "weaker" change the rating (between games).
    #[serde(deserialize_with = "values::within::<_, _, 1, 1000>")]
    pub elo_step: u32,
    /// The simulated engine's seed (`engine = "sim"`).
    pub seed: u64,
}

/// Debian's Stockfish (`scripts/setup` installs it).
pub const DEFAULT_ENGINE: &str = "/usr/games/stockfish";

/// The journal folder of `station run` without `[journal] dir` or `--journal-dir`.
pub const DEFAULT_JOURNAL_DIR: &str = "journal";

/// The journal folder of `station practice` without `[journal] dir` or
/// `--journal-dir`: practice games are kept apart from tournament games.
pub const PRACTICE_JOURNAL_DIR: &str = "journal-practice";

impl Default for OpponentSettings {
    fn default() -> Self {
        OpponentSettings {
            engine: DEFAULT_ENGINE.into(),
            elo: None,
            move_time_ms: None,
            hint_time_ms: 500,
            elo_step: 100,
            seed: 0,
        }
    }
}

impl OpponentSettings {
    /// The engine `engine` names, at the default settings.
    pub fn new(engine: impl Into<String>) -> Self {
        OpponentSettings { engine: engine.into(), ..OpponentSettings::default() }
    }
}

/// A refreshable Braille display through brltty's BrlAPI (`[braille]`): the
/// last move, the clocks on a key, routing keys as `[buttons]` `braille:N`.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(default, deny_unknown_fields)]
pub struct BrailleSettings {
    /// Use a Braille display.
    pub enabled: bool,
    /// brltty's BrlAPI host, `:N` (its socket `/var/lib/BrlAPI/N`).
    pub host: String,
    /// The BrlAPI socket itself (overrides `host`).
    pub socket: Option<PathBuf>,
    /// The key file when brltty asks for key authorization.
    pub key_file: PathBuf,
    /// `language`: the moves with his language's piece letters (German
    /// K D T L S, Polish K H W G S); `san`: English SAN letters.
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

impl Default for BrailleSettings {
    fn default() -> Self {
        BrailleSettings {
            enabled: false,
            host: ":0".into(),
            socket: None,
            key_file: PathBuf::from("/etc/brlapi.key"),
            notation: BrailleNotation::Language,
        }
    }
}

impl BrailleSettings {
    /// The socket to connect to: `socket`, else the one of `host`.
    pub fn socket_path(&self) -> Option<PathBuf> {
        self.socket.clone().or_else(|| station_serial::braille::BrlapiSettings::socket_of_host(&self.host))
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

/// The station's clock (`[clock]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClockSettings {
    /// PGN `TimeControl` notation (`5400+30`, `40/7200:20/3600:900+30`, `5400d30` simple
    /// delay, `5400b30` Bronstein), read once into the clock's time control; no clock when absent.
    pub time_control: Option<TimeControl>,
    /// Start the clock when the game starts, once its position stands on
    /// every sensed board (never without one: the arbiter or a press starts it).
    pub auto_start: bool,
    /// Press the clock for a player once his move is made and announced (no lever).
    pub auto_press: bool,
    /// The blind player's spoken warnings.
    pub warnings: station_core::clock::WarningConfig,
    /// Which clock keeps the time: `station` (the station's own, pressed with a
    /// lever) or `dgt` (a DGT 3000 on the sighted player's DGT board: the
    /// master, set when a game starts; the station reads and voices it).
    pub source: ClockSource,
    /// Which display of the DGT clock is White's: `left` or `right`.
    pub dgt_white: DgtDisplay,
    /// After this long without a reading of the DGT clock (while the DGT board
    /// is connected) the blind player is told, once, that it is not answering.
    #[serde(deserialize_with = "values::within::<_, _, 500, 600_000>")]
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

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            time_control: None,
            auto_start: true,
            auto_press: false,
            warnings: Default::default(),
            source: ClockSource::Station,
            dgt_white: DgtDisplay::Left,
            dgt_silent_ms: 3000,
        }
    }
}

/// The web console (`[console]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConsoleSettings {
    /// Address and port; loopback unless `allow_remote`.
    #[serde(deserialize_with = "values::socket_addr")]
    pub listen: SocketAddr,
    /// Operator token (generated at start when absent).
    pub token: Option<String>,
    /// Allow listening on a non-loopback address.
    pub allow_remote: bool,
    /// The mirror display's language. Any code is accepted (the mirror page
    /// falls back to English for one it lacks), so it stays a string.
    pub mirror_language: String,
}

impl Default for ConsoleSettings {
    fn default() -> Self {
        ConsoleSettings {
            listen: SocketAddr::from(([127, 0, 0, 1], 8040)),
            token: None,
            allow_remote: false,
            mirror_language: "de".into(),
        }
    }
}

/// Board roles.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
#[serde(default, deny_unknown_fields)]
pub struct BoardConfig {
    /// Driver.
    pub driver: DriverKind,
    /// Serial device (pegboard), e.g. `/dev/ttyUSB0` or the udev link `/dev/annexd-pegboard`.
    pub port: Option<PathBuf>,
    /// Baud rate.
    #[serde(deserialize_with = "values::baud")]
    pub baud: u32,
    /// The board is turned 180° (the sensors' a1 is at h8).
    pub flipped: bool,
    /// Sim only: the PGN file whose game the simulated hands play (the built-in demo game if absent).
    pub pgn: Option<PathBuf>,
    /// Sim only: which game of the file (1-based).
    #[serde(deserialize_with = "values::game_number")]
    pub game: usize,
    /// Sim only: noise seed (no noise if absent).
    pub noise_seed: Option<u64>,
    /// Sim only: time factor (10 = ten times faster than a human).
    #[serde(deserialize_with = "values::positive")]
    pub speed: f64,
    /// Sim only: the simulated hand presses the clock lever (board button 0)
    /// after each move, as a player does.
    pub lever: bool,
}

impl Default for BoardConfig {
    /// A peg board (port still to be named) at the protocol's line speed.
    fn default() -> Self {
        BoardConfig {
            driver: DriverKind::Pegboard,
            port: None,
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

impl BoardConfig {
    /// A peg board on `port` at the protocol's line speed, as the demos wire
    /// their simulated boards.
    pub fn pegboard(port: PathBuf) -> BoardConfig {
        BoardConfig { port: Some(port), ..BoardConfig::default() }
    }
}

/// Game settings.
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GameSettings {
    /// How long a board must be still before it is judged.
    #[serde(deserialize_with = "values::within::<_, _, 1, 10_000>")]
    pub settle_ms: u64,
    /// Shorter lifts are sensor bounce.
    pub debounce_ms: u64,
    /// The piece a promotion is assumed to be: queen, rook, bishop or knight
    /// (or its letter, in any case).
    #[serde(deserialize_with = "values::promotion")]
    pub promotion: Role,
    /// Start position, given as FEN (standard if absent).
    #[serde(deserialize_with = "values::start_fen")]
    pub start_fen: Option<station_core::Game>,
    /// The blind player's colour: white or black.
    #[serde(deserialize_with = "station_core::table::color_name::deserialize")]
    pub blind_color: Color,
    /// How long a board may take to execute the agreed position before it is reminded (D.2.9).
    pub grace_ms: u64,
    /// Which game: chess (default), international draughts or the 64-square version (issue 17).
    pub rules: GameRules,
}

/// `[game] rules`: which game the station runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
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

impl GameRules {
    /// The core's rules of this game, found by the name the config gives it.
    pub fn rules(self) -> &'static dyn station_core::rules::Rules {
        // The names `[game] rules` reads (serde, lower case).
        let name = match self {
            GameRules::Chess => "chess",
            GameRules::Draughts => "draughts",
            GameRules::Draughts64 => "draughts64",
        };
        station_core::rules::named(name).unwrap_or(&station_core::rules::CHESS)
    }
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            settle_ms: 300,
            debounce_ms: 40,
            promotion: Role::Queen,
            start_fen: None,
            blind_color: Color::White,
            grace_ms: 30_000,
            rules: Default::default(),
        }
    }
}

/// PGN tags, each one line (checked as it is read).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tags {
    /// Event.
    #[serde(deserialize_with = "values::pgn_tag")]
    pub event: Option<String>,
    /// Site.
    #[serde(deserialize_with = "values::pgn_tag")]
    pub site: Option<String>,
    /// Round.
    #[serde(deserialize_with = "values::pgn_tag")]
    pub round: Option<String>,
    /// White player.
    #[serde(deserialize_with = "values::pgn_tag")]
    pub white: Option<String>,
    /// Black player.
    #[serde(deserialize_with = "values::pgn_tag")]
    pub black: Option<String>,
    /// Board number (PGN `Board`).
    #[serde(deserialize_with = "values::pgn_tag")]
    pub board: Option<String>,
}

/// Journal settings.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JournalSettings {
    /// Directory of the per-game journals.
    pub dir: Option<PathBuf>,
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read (it is missing, or not readable).
    #[error("{path}: {}", read_problem(.source))]
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
        let config: Config = toml::from_str(text).map_err(|e| located(text, path, &e))?;
        config.check(path).map_err(|e| match e {
            ConfigError::Invalid { path, key, message, .. } => {
                ConfigError::Invalid { line: line_of(text, &key), path, key, message }
            }
            other => other,
        })?;
        Ok(config)
    }

    /// The rules that tie keys together; each value on its own was checked
    /// as it was read (`values`).
    fn check(&self, path: &Path) -> Result<(), ConfigError> {
        let invalid = |key: &str, message: String| ConfigError::Invalid {
            path: path.to_owned(),
            line: None,
            key: key.to_owned(),
            message,
        };
        let g = &self.game;
        if g.debounce_ms >= g.settle_ms {
            return Err(invalid(
                "game.debounce_ms",
                format!("{} must be below settle_ms ({})", g.debounce_ms, g.settle_ms),
            ));
        }
        // Language, letters and ranks must each name a language the station
        // speaks; the error is on the line of the key that does not.
        let v = &self.voice;
        for (key, code) in [
            ("voice.language", Some(&v.language)),
            ("voice.letters", v.letters.as_ref()),
            ("voice.ranks", v.ranks.as_ref()),
        ] {
            if let Some(code) = code
                && station_voices::Phrasebook::builtin(code).is_none()
            {
                return Err(invalid(key, unknown_language(code)));
            }
        }
        if let Err(e) = station_voices::Wording::new(&self.voice) {
            return Err(invalid("voice", e.to_string()));
        }
        if let Some(token) = &self.console.token
            && token.trim().is_empty()
        {
            return Err(invalid(
                "console.token",
                "the operator token is empty or only spaces: write one (letters and digits), \
                 or leave the key out and the station makes one at start"
                    .into(),
            ));
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
        self.buttons.check().map_err(|(key, message)| invalid(&key, message))?;
        if self.braille.enabled && self.braille.socket_path().is_none() {
            return Err(invalid(
                "braille.host",
                format!("`{}` is not a local BrlAPI host (:N); set braille.socket", self.braille.host),
            ));
        }
        // The listeners' settings belong to station-audio, which reads them untyped.
        for (name, listener) in [("private", &self.audio.private), ("public", &self.audio.public)] {
            let v = listener.volume;
            if !(v.is_finite() && (0.0..=4.0).contains(&v)) {
                return Err(invalid(
                    &format!("audio.{name}.volume"),
                    format!("{v} is not a number from 0 to 4"),
                ));
            }
        }
        if self.opponent.is_some() {
            if let Some(why) = self.game.rules.rules().engine_refusal() {
                return Err(invalid("opponent", why.into()));
            }
            if self.mirror_sensed() {
                return Err(invalid(
                    "opponent",
                    "the engine is the sighted side: boards.mirror must be absent or driver = \"none\""
                        .into(),
                ));
            }
        }
        for (name, board) in [("blind", &self.boards.blind), ("mirror", &self.boards.mirror)] {
            let Some(b) = board else { continue };
            let key = |k: &str| format!("boards.{name}.{k}");
            if matches!(b.driver, DriverKind::Pegboard | DriverKind::Dgt) && b.port.is_none() {
                return Err(invalid(&key("port"), "this driver needs a serial port".into()));
            }
            if name == "blind" && b.driver == DriverKind::Dgt {
                return Err(invalid(
                    &key("driver"),
                    "a DGT board for the blind player is not supported yet".into(),
                ));
            }
        }
        Ok(())
    }

    /// The blind player's colour.
    pub fn blind_color(&self) -> Color {
        self.game.blind_color
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
    pub fn time_control(&self) -> Option<TimeControl> {
        self.clock.time_control.clone()
    }

    /// Inference timing from the game settings.
    pub fn tracker(&self) -> TrackerConfig {
        TrackerConfig {
            settle_ms: self.game.settle_ms,
            debounce_ms: self.game.debounce_ms,
            promotion: self.game.promotion,
        }
    }

    /// The PGN Seven Tag Roster for a game started on `date` (`YYYY.MM.DD`).
    /// A parsed config holds no control characters in its tags; one built
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

/// Why a config file cannot be read, in the arbiter's words: a file that is
/// not there is said to be missing, not "cannot read".
fn read_problem(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "the file is missing (no such file)".into(),
        std::io::ErrorKind::PermissionDenied => {
            "the file cannot be read: permission denied (the station's user must be able to read it)".into()
        }
        std::io::ErrorKind::IsADirectory => "this is a folder, not a config file".into(),
        _ => format!("the file cannot be read: {e}"),
    }
}

impl ConfigError {
    /// Whether the file itself is missing or unreadable (no key is at fault).
    pub fn is_unreadable(&self) -> bool {
        matches!(self, ConfigError::Read { .. })
    }
}

/// Why a language code is refused, naming the ones the station speaks.
fn unknown_language(code: &str) -> String {
    let known = station_voices::BUILTIN_LANGUAGES.join(", ");
    format!("`{code}` is not a language the station speaks ({known})")
}

/// A toml error as a config error: a value or key the reader refused is
/// `Invalid`, naming its line and dotted key (found from the error's place in
/// the text); a syntax error, which has no key, is `Parse` with line and column.
fn located(text: &str, path: &Path, e: &toml::de::Error) -> ConfigError {
    let key = e.span().and_then(|span| key_at(text, span.start));
    match key {
        Some(key) => ConfigError::Invalid {
            path: path.to_owned(),
            line: line_of(text, &key),
            key,
            message: e.message().trim().to_owned(),
        },
        None => ConfigError::Parse { path: path.to_owned(), message: describe_toml_error(text, e) },
    }
}

/// The dotted key whose name or value holds byte `at` of the TOML text
/// (`game.blind_color`), the innermost one; `None` when the text does not
/// parse or no key holds it.
fn key_at(text: &str, at: usize) -> Option<String> {
    fn within(table: &toml::de::DeTable<'_>, at: usize, path: &mut Vec<String>) -> bool {
        for (key, value) in table {
            path.push(key.get_ref().to_string());
            if key.span().contains(&at) {
                return true;
            }
            let inner = match value.get_ref() {
                // A table's own span may not cover its keys (dotted keys, headers): look inside.
                toml::de::DeValue::Table(inner) => within(inner, at, path),
                toml::de::DeValue::Array(items) => items.iter().any(|item| match item.get_ref() {
                    toml::de::DeValue::Table(inner) => within(inner, at, path),
                    _ => false,
                }),
                _ => false,
            };
            if inner || value.span().contains(&at) {
                return true;
            }
            path.pop();
        }
        false
    }
    let root = toml::de::DeTable::parse(text).ok()?;
    let mut path = Vec::new();
    within(root.get_ref(), at, &mut path).then(|| path.join("."))
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

mod buttons;
mod speech;
#[cfg(test)]
mod tests;
mod values;

pub use buttons::{Action, Buttons};
pub use speech::{ListenMode, SpeechSettings};
