//! What goes over the broker: one JSON object per message.

use serde::{Deserialize, Serialize};
use station_core::Event;
use station_core::event::PlayedMove;
use station_core::pgn::SevenTags;

/// The largest payload the hall view takes; larger ones are dropped and counted.
pub const MAX_PAYLOAD: usize = 256 * 1024;

/// A message on `annexd/<hall>/<board>/event`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EventMessage {
    /// The hall.
    pub hall: String,
    /// The board that published it (must match its topic).
    pub board: String,
    /// The game whose journal holds it.
    pub game_id: Option<String>,
    /// Its sequence number in that journal (0 for the game's header).
    pub seq: Option<u64>,
    /// The event (absent for a header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<Event>,
    /// The game's header (seq 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header: Option<GameHeader>,
}

/// What the journal's header says of a game, for the hall's PGN.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct GameHeader {
    /// Start position.
    pub fen: String,
    /// When the game started (station time).
    pub started_ms: u64,
    /// PGN tags.
    pub tags: SevenTags,
    /// The scoresheet the game was started from (UCI).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<PlayedMove>,
}

/// A message on `annexd/<hall>/<board>/status` (retained; the last will says not online).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusMessage {
    /// The board.
    pub board: String,
    /// Whether the station is connected.
    pub online: bool,
}

/// Which events go out: the sealed move and other secrets never do. Heard
/// speech and announcements may say a sealed move; touches and buttons are
/// noise for a hall.
pub fn publishable(event: &Event) -> bool {
    !matches!(
        event,
        Event::Heard { .. }
            | Event::Announcement { .. }
            | Event::Touch { .. }
            | Event::PieceReturned { .. }
            | Event::Button { .. }
            | Event::InputRefused { .. }
            | Event::AnnouncementChecked { .. }
            | Event::BoardMismatch { .. }
            | Event::BoardRestored { .. }
            | Event::LineDropped { .. }
            | Event::Move { .. }
            | Event::MoveRevised { .. }
    )
}
