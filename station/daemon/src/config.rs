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

mod buttons;
mod speech;
#[cfg(test)]
mod tests;

pub use buttons::{Action, Buttons};
pub use speech::{ListenMode, SpeechSettings};
