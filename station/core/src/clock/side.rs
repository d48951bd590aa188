//! The two sides of a chess clock.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One of the two clocks (dials) of the chess clock, named by the colour it times.
///
/// The clock has its own type rather than `shakmaty::Color` so that clock state
/// serialises without pulling serde into the chess library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The player of the white pieces.
    White,
    /// The player of the black pieces.
    Black,
}

impl Side {
    /// The other side.
    pub fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// Position in per-side arrays.
    pub(crate) fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }
}

impl From<shakmaty::Color> for Side {
    fn from(color: shakmaty::Color) -> Self {
        match color {
            shakmaty::Color::White => Side::White,
            shakmaty::Color::Black => Side::Black,
        }
    }
}

impl From<Side> for shakmaty::Color {
    fn from(side: Side) -> Self {
        match side {
            Side::White => shakmaty::Color::White,
            Side::Black => shakmaty::Color::Black,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::White => "white",
            Side::Black => "black",
        })
    }
}
