//! Typed values inside events that travel as text at the edge: the JSON of
//! the event stream and the journal keeps the exact text of before (issue 37),
//! while the process passes moves and words as values it never parses back.

use crate::draughts::DraughtsPath;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shakmaty::uci::UciMove;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A move as an event carries it: a chess move (written in UCI), or a
/// draughts move (written in PDN, `32-28`, `28x17x6`, `c3-d4`, read and
/// written without its variant: [`DraughtsPath`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayedMove {
    /// Chess: the move in UCI (Chess960 castling as king takes rook).
    Chess(UciMove),
    /// Draughts: the move as PDN writes it.
    Draughts(DraughtsPath),
}

impl PlayedMove {
    /// The chess move, if it is one.
    pub fn uci(&self) -> Option<&UciMove> {
        match self {
            PlayedMove::Chess(m) => Some(m),
            PlayedMove::Draughts(_) => None,
        }
    }

    /// The draughts move, if it is one.
    pub fn draughts(&self) -> Option<&DraughtsPath> {
        match self {
            PlayedMove::Chess(_) => None,
            PlayedMove::Draughts(p) => Some(p),
        }
    }

    /// The chess move in the position it was played in (a typed conversion,
    /// no text read): `None` for a draughts move or one not legal there.
    pub fn to_move(&self, pos: &shakmaty::Chess) -> Option<shakmaty::Move> {
        self.uci()?.to_move(pos).ok()
    }

    /// A move written as a literal (tests): see the [`FromStr`] reading;
    /// text that is no move is a mistake in the literal (it panics).
    pub fn from_text(text: &str) -> PlayedMove {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }
}

/// Text that is neither a chess move in UCI nor a draughts move in PDN.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("`{0}` is no move in UCI or PDN")]
pub struct NotAMove(pub String);

/// Reads a move as the journal holds it: UCI, else the draughts text. No
/// PDN parses as UCI (its squares are joined by `-` or `x`), and each reads
/// only the text it writes, so the text written is the text read back.
impl FromStr for PlayedMove {
    type Err = NotAMove;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match UciMove::from_ascii(text.as_bytes()) {
            Ok(m) if m.to_string() == text => Ok(PlayedMove::Chess(m)),
            _ => text.parse().map(PlayedMove::Draughts).map_err(|_| NotAMove(text.to_owned())),
        }
    }
}

impl From<UciMove> for PlayedMove {
    fn from(m: UciMove) -> Self {
        PlayedMove::Chess(m)
    }
}

impl From<DraughtsPath> for PlayedMove {
    fn from(p: DraughtsPath) -> Self {
        PlayedMove::Draughts(p)
    }
}

/// For literals in tests: see [`PlayedMove::from_text`] (it panics on text that is no move).
impl From<&str> for PlayedMove {
    fn from(text: &str) -> Self {
        PlayedMove::from_text(text)
    }
}

impl fmt::Display for PlayedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayedMove::Chess(m) => m.fmt(f),
            PlayedMove::Draughts(p) => p.fmt(f),
        }
    }
}

impl PartialEq<str> for PlayedMove {
    fn eq(&self, other: &str) -> bool {
        match self {
            PlayedMove::Chess(m) => m.to_string() == other,
            PlayedMove::Draughts(p) => p == other,
        }
    }
}

impl PartialEq<&str> for PlayedMove {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

impl Serialize for PlayedMove {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for PlayedMove {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// Serde by `Display`/`FromStr` for an optional value (`SanPlus`).
pub(super) mod opt_text {
    use super::*;

    pub fn serialize<T: fmt::Display, S: Serializer>(v: &Option<T>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, T, D>(d: D) -> Result<Option<T>, D::Error>
    where
        T: FromStr,
        T::Err: fmt::Display,
        D: Deserializer<'de>,
    {
        Option::<String>::deserialize(d)?.map(|text| text.parse().map_err(D::Error::custom)).transpose()
    }
}

/// A word of the event vocabulary: an enum whose JSON is the word itself,
/// with `Other` for a word this build has no name for (an older or newer
/// journal's, an arbiter's own), kept as written so it writes back the same.
/// Read a word with `from_text` (or `From<&str>`): it gives the named
/// variant whenever there is one, so two equal words are equal values.
macro_rules! words {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $variant:ident = $text:literal,)* }) => {
        $(#[$m])*
        #[derive(Clone, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $variant,)*
            /// A word with no variant of its own, as written.
            Other(String),
        }

        impl $name {
            /// The word as the event stream writes it.
            pub fn as_str(&self) -> &str {
                match self {
                    $($name::$variant => $text,)*
                    $name::Other(text) => text,
                }
            }

            /// The word read: its variant, or `Other`.
            pub fn from_text(text: &str) -> Self {
                match text {
                    $($text => $name::$variant,)*
                    other => $name::Other(other.to_owned()),
                }
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                $name::from_text(text)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.as_str() == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.as_str() == *other
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let text = String::deserialize(d)?;
                Ok($name::from_text(&text))
            }
        }
    };
}

words! {
    /// Who words are said to.
    Listener {
        /// The blind player's earphone.
        Private = "private",
        /// The opponent's speaker.
        Public = "public",
        /// Nobody: words kept in the journal only (what was heard, rates).
        Log = "log",
    }
}

words! {
    /// What an announcement is about.
    About {
        /// A move of the game.
        Move = "move",
        /// What puts a board right.
        Correction = "correction",
        /// A clock reading or change.
        Clock = "clock",
        /// The clock read out on request.
        ClockReading = "clock_reading",
        /// A time warning.
        Warning = "warning",
        /// The station's or a device's state.
        Status = "status",
        /// The game's result.
        Result = "result",
        /// A draw offer.
        DrawOffer = "draw_offer",
        /// Where a draw claim stands.
        DrawStatus = "draw_status",
        /// A question to the player.
        Question = "question",
        /// An answer to him.
        Answer = "answer",
        /// The record read out.
        Record = "record",
        /// The start position being set up.
        Setup = "setup",
        /// A device came or went.
        Device = "device",
        /// What differs between his board and the game.
        Difference = "difference",
        /// A practice game's words.
        Practice = "practice",
        /// An input refused.
        Refused = "refused",
        /// Moves taken back, and what to put back.
        TakeBack = "take_back",
        /// A draw claim and how it was decided.
        DrawClaim = "draw_claim",
        /// His board shows the game again.
        Restored = "restored",
        /// The recogniser heard nothing it could use (kept in the journal only).
        Silence = "silence",
    }
}

words! {
    /// How a speaker was done with words (the journal's `said` record).
    SpeechEnd {
        /// Said to the end.
        Finished = "finished",
        /// A voice that cannot tell its end (speech-dispatcher): the time it takes passed.
        Estimated = "estimated",
        /// Stopped by newer words.
        Cut = "cut",
        /// Never begun: newer words took their place.
        Dropped = "dropped",
    }
}

impl SpeechEnd {
    /// The listener heard them to the end (or as far as anyone can tell).
    pub fn heard(&self) -> bool {
        matches!(self, SpeechEnd::Finished | SpeechEnd::Estimated)
    }
}

words! {
    /// The state a device (other than a board) reports.
    DeviceState {
        /// It is there and working.
        Connected = "connected",
        /// It went away.
        Disconnected = "disconnected",
        /// It cannot be used (see the event's detail).
        Unavailable = "unavailable",
        /// A speech model lacks words (see the event's words).
        MissingWords = "missing_words",
    }
}

words! {
    /// The opponent's decision on a draughts irregularity (5.4, 5.9).
    Decision {
        /// The position stands and play goes on from it (5.7).
        Accept = "accept",
        /// The board is put back as it was.
        Correct = "correct",
    }
}

words! {
    /// A game's result as the record writes it.
    GameResult {
        /// Chess: White won.
        WhiteWon = "1-0",
        /// Chess: Black won.
        BlackWon = "0-1",
        /// Chess: a draw.
        Draw = "1/2-1/2",
        /// Draughts: White won.
        WhiteWonDraughts = "2-0",
        /// Draughts: Black won.
        BlackWonDraughts = "0-2",
        /// Draughts: a draw.
        DrawDraughts = "1-1",
        /// Not finished.
        Unfinished = "*",
    }
}
