//! How the table is set, and the form it takes in a journal header.
//!
//! The journal header carries a [`TableConfig`] as it is (flattened into the
//! header's JSON object), so restore takes the configuration back in one
//! piece. The serde forms below are the ones the header has always written
//! (`blind_color` as `"white"`/`"black"`, the time control as its text, the
//! promotion piece as its letter, the tracker's timings as top-level keys), so
//! a header written today is a superset of an old one and old ones still read.

use super::Start;
use crate::Millis;
use crate::clock::{TimeControl, WarningConfig};
use crate::inference::TrackerConfig;
use crate::pgn::SevenTags;
use crate::two_boards::TwoBoardsConfig;
use serde::{Deserialize, Serialize};
use shakmaty::Color;

/// How the table is set.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableConfig {
    /// Inference timing (the header's `settle_ms`, `debounce_ms`, `promotion`).
    #[serde(flatten)]
    pub tracker: TrackerConfig,
    /// The position a game starts from, which names the game the table
    /// plays (its rules). Not serialised with the rest: the journal header
    /// writes the start as its own `fen` (chess FEN or PDN FEN) and its
    /// rules' name, and its reader puts the start back here.
    #[serde(skip)]
    pub start: Start,
    /// The colour of the blind player.
    #[serde(default = "white", with = "color_name")]
    pub blind_color: Color,
    /// Whether the sighted player's board is sensed. Headers older than this
    /// key leave it to the header's reader, which judges it from the mirror
    /// board's recorded state.
    #[serde(default)]
    pub mirror_sensed: bool,
    /// The sighted player's board senses pieces (a DGT board), not only pegs.
    #[serde(default)]
    pub mirror_pieces: bool,
    /// How long a board may take to execute the agreed position.
    #[serde(default = "default_grace")]
    pub grace_ms: Millis,
    /// The time control of the station's own clock (no clock when absent).
    #[serde(default)]
    pub time_control: Option<TimeControl>,
    /// Start the clock as soon as the game starts.
    #[serde(default)]
    pub clock_auto_start: bool,
    /// Press the clock for the player once his move is made and announced
    /// (when there is no clock lever).
    #[serde(default)]
    pub clock_auto_press: bool,
    /// Spoken time warnings for the blind player.
    #[serde(default)]
    pub warnings: WarningConfig,
    /// The blind player announces his moves aloud and the station checks them
    /// (speech input): his clock press counts only after a matching announcement.
    #[serde(default)]
    pub announcement_required: bool,
    /// The clock is an external master (a DGT 3000): the table's clock follows
    /// its readings ([`super::Table::on_clock_reading`]) instead of being pressed.
    #[serde(default)]
    pub external_clock: bool,
    /// The blind player has no sensor board (speech input only): his spoken
    /// move is his move, checked for legality; a game starts when the
    /// sighted player's board shows the start position, or at once when that
    /// board is not sensed either.
    #[serde(default)]
    pub blind_unsensed: bool,
    /// The sighted side's moves are entered, never sensed (an engine opponent,
    /// issue 26): his board executes them and is checked like any execution.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub opponent_entered: bool,
    /// The tags every game gets unless its `new_game` names others (the
    /// configured `[tags]`, with the date the daemon puts in). In a journal
    /// header: the game's own tags.
    pub tags: SevenTags,
}

/// Headers written before `blind_color` existed were the blind player's with White.
fn white() -> Color {
    Color::White
}

/// The grace time headers written before `grace_ms` existed played with.
fn default_grace() -> Millis {
    30_000
}

/// A colour as the header and the station's config write it: `"white"` or
/// `"black"` (the one reader of the word, for both).
pub mod color_name {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Color;

    /// Writes `white` or `black`.
    pub fn serialize<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(if *color == Color::White { "white" } else { "black" })
    }

    /// Reads `white` or `black`; anything else is refused by name.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(D::Error::custom(format!("`{other}` is not white or black"))),
        }
    }
}

/// Two configurations are equal when every setting is (two starts as
/// [`Start`]'s equality has them).
impl PartialEq for TableConfig {
    fn eq(&self, other: &Self) -> bool {
        // Destructured so that a new field cannot be forgotten here.
        let TableConfig {
            tracker,
            start,
            blind_color,
            mirror_sensed,
            mirror_pieces,
            grace_ms,
            time_control,
            clock_auto_start,
            clock_auto_press,
            warnings,
            announcement_required,
            external_clock,
            blind_unsensed,
            opponent_entered,
            tags,
        } = self;
        *tracker == other.tracker
            && *start == other.start
            && *blind_color == other.blind_color
            && *mirror_sensed == other.mirror_sensed
            && *mirror_pieces == other.mirror_pieces
            && *grace_ms == other.grace_ms
            && *time_control == other.time_control
            && *clock_auto_start == other.clock_auto_start
            && *clock_auto_press == other.clock_auto_press
            && *warnings == other.warnings
            && *announcement_required == other.announcement_required
            && *external_clock == other.external_clock
            && *blind_unsensed == other.blind_unsensed
            && *opponent_entered == other.opponent_entered
            && *tags == other.tags
    }
}

impl TableConfig {
    /// Neither player's board is sensed (speech and entered moves only): no
    /// board can show the start position, so a game starts at once.
    pub fn no_board(&self) -> bool {
        self.blind_unsensed && !self.mirror_sensed
    }

    /// A peg board alone, standard start, the blind player with White.
    pub fn single(tracker: TrackerConfig) -> Self {
        TableConfig {
            tracker,
            start: Start::default(),
            blind_color: Color::White,
            mirror_sensed: false,
            mirror_pieces: false,
            grace_ms: 30_000,
            time_control: None,
            clock_auto_start: true,
            clock_auto_press: false,
            warnings: WarningConfig::default(),
            announcement_required: false,
            external_clock: false,
            blind_unsensed: false,
            opponent_entered: false,
            tags: SevenTags::default(),
        }
    }

    pub(super) fn sync(&self) -> TwoBoardsConfig {
        TwoBoardsConfig {
            blind_color: self.blind_color,
            mirror_sensed: self.mirror_sensed,
            grace_ms: self.grace_ms,
            opponent_entered: self.opponent_entered,
        }
    }
}
