//! Typed values inside events that travel as text at the edge: the JSON of
//! the event stream and the journal keeps the exact text of before (issue 37),
//! while the process passes moves and words as values it never parses back.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use shakmaty::uci::UciMove;
use std::fmt;
use std::str::FromStr;

/// A move as an event carries it: a chess move (written in UCI), or a
/// draughts move (written in PDN, `32-28`, `28x17x6`, `c3-d4`: the draughts
/// move needs its variant to be read, so it stays the station's own text).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayedMove {
    /// Chess: the move in UCI (Chess960 castling as king takes rook).
    Chess(UciMove),
    /// Draughts: the move in PDN.
    Draughts(String),
}

impl PlayedMove {
    /// The chess move, if it is one.
    pub fn uci(&self) -> Option<&UciMove> {
        match self {
            PlayedMove::Chess(m) => Some(m),
            PlayedMove::Draughts(_) => None,
        }
    }

    /// The chess move in the position it was played in (a typed conversion,
    /// no text read): `None` for a draughts move or one not legal there.
    pub fn to_move(&self, pos: &shakmaty::Chess) -> Option<shakmaty::Move> {
        self.uci()?.to_move(pos).ok()
    }

    /// Reads a move as the journal holds it: UCI, else the draughts text.
    /// No PDN parses as UCI (its squares are joined by `-` or `x`), so the
    /// text written is the text read back.
    pub fn from_text(text: &str) -> PlayedMove {
        match UciMove::from_ascii(text.as_bytes()) {
            Ok(m) if m.to_string() == text => PlayedMove::Chess(m),
            _ => PlayedMove::Draughts(text.to_owned()),
        }
    }
}

impl From<UciMove> for PlayedMove {
    fn from(m: UciMove) -> Self {
        PlayedMove::Chess(m)
    }
}

/// For literals in tests and the journal's own text: see [`PlayedMove::from_text`].
impl From<&str> for PlayedMove {
    fn from(text: &str) -> Self {
        PlayedMove::from_text(text)
    }
}

impl fmt::Display for PlayedMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayedMove::Chess(m) => m.fmt(f),
            PlayedMove::Draughts(text) => f.write_str(text),
        }
    }
}

impl PartialEq<str> for PlayedMove {
    fn eq(&self, other: &str) -> bool {
        match self {
            PlayedMove::Chess(m) => m.to_string() == other,
            PlayedMove::Draughts(text) => text == other,
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
        let text = String::deserialize(d)?;
        Ok(PlayedMove::from_text(&text))
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
