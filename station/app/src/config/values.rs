//! Typed config values: each key read once, by serde, into the type the
//! station uses, from exactly the spellings the config has always accepted.
//!
//! A refused value is a serde error whose message says what is wrong with
//! the value; `Config::parse` finds the key from the error's place in the
//! text, so every message names its line and key, e.g.
//! ``line 4, key `game.blind_color`: `purple` is not white or black``.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use shakmaty::Role;
use std::fmt::Display;

/// A promotion piece: its name or letter, in any case (`queen`, `Q`, `knight`, `n`).
pub(super) fn promotion<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
    let text = String::deserialize(d)?;
    match text.to_ascii_lowercase().as_str() {
        "queen" | "q" => Ok(Role::Queen),
        "rook" | "r" => Ok(Role::Rook),
        "bishop" | "b" => Ok(Role::Bishop),
        "knight" | "n" => Ok(Role::Knight),
        _ => Err(D::Error::custom(format!("`{text}` is not queen, rook, bishop or knight"))),
    }
}

/// `ADDRESS:PORT` (`127.0.0.1:8040`, `[::1]:8040`).
pub(super) fn socket_addr<'de, D: Deserializer<'de>>(d: D) -> Result<std::net::SocketAddr, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(|_| D::Error::custom(format!("`{text}` is not ADDRESS:PORT")))
}

/// A start position as FEN, read into the game it starts.
pub(super) fn start_fen<'de, D: Deserializer<'de>>(d: D) -> Result<Option<station_core::Game>, D::Error> {
    let text = String::deserialize(d)?;
    station_core::Game::from_fen(&text).map(Some).map_err(D::Error::custom)
}

/// A whole number within `LO..=HI`.
pub(super) fn within<'de, D, T, const LO: u64, const HI: u64>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Into<u64> + Display,
{
    let value = T::deserialize(d)?;
    if (LO..=HI).contains(&value.into()) {
        Ok(value)
    } else {
        Err(D::Error::custom(format!("{value} is outside {LO}..={HI}")))
    }
}

/// An optional whole number within `LO..=HI` (absent: the key's own meaning of "none").
pub(super) fn within_some<'de, D, T, const LO: u64, const HI: u64>(d: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Into<u64> + Display,
{
    within::<D, T, LO, HI>(d).map(Some)
}

/// A confidence from 0 to 1.
pub(super) fn fraction<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
    let value = f32::deserialize(d)?;
    // NaN is outside too: `contains` is false for it.
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(D::Error::custom(format!("{value} is outside 0..=1")))
    }
}

/// A finite number above zero (a simulated hand's speed factor).
pub(super) fn positive<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    let value = f64::deserialize(d)?;
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(D::Error::custom(format!("{value} is not a positive number")))
    }
}

/// A serial line speed: anything but zero.
pub(super) fn baud<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    match u32::deserialize(d)? {
        0 => Err(D::Error::custom("must be positive")),
        baud => Ok(baud),
    }
}

/// A 1-based game number in a PGN file.
pub(super) fn game_number<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    match usize::deserialize(d)? {
        0 => Err(D::Error::custom("games are numbered from 1")),
        n => Ok(n),
    }
}

/// The longest PGN tag value the config may set.
pub(super) const MAX_TAG: usize = 255;

/// A PGN tag value: one line of at most [`MAX_TAG`] characters without
/// control characters (a newline would break the exported PGN).
pub(super) fn pgn_tag<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let value = String::deserialize(d)?;
    if value.chars().any(char::is_control) || value.chars().count() > MAX_TAG {
        return Err(D::Error::custom(format!(
            "a PGN tag is one line of at most {MAX_TAG} characters without control characters \
             (a newline would break the exported PGN)"
        )));
    }
    Ok(Some(value))
}

/// Program names: not blank.
pub(super) fn program<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let value = String::deserialize(d)?;
    if value.trim().is_empty() { Err(D::Error::custom("names no program")) } else { Ok(value) }
}
