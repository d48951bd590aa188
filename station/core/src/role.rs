//! The two boards of a table: the blind player's and the sighted player's.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Which board an event concerns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoardRole {
    /// The blind player's board (the peg board).
    Blind,
    /// The sighted opponent's board (mirror).
    Mirror,
}

impl fmt::Display for BoardRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BoardRole::Blind => "blind",
            BoardRole::Mirror => "mirror",
        })
    }
}
