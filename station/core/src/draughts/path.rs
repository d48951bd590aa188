//! A draughts move as it is written (`32-28`, `28x17x6`, `c3-d4`): its
//! squares as written and whether it captures, read and written without the
//! variant, so the event stream and the journal keep their text while the
//! process passes the move as a value (issue 37). The variant turns it into
//! the board's squares and the legal move it names (a typed conversion).

use super::board::{Position, Square, Variant, WrittenSquare};
use super::movegen::{capture_paths, legal_moves};
use super::moves::Move;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// Text that is not a draughts move as the station writes one.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("`{0}` is not a draughts move as the station writes it")]
pub struct PathError(pub String);

/// A draughts move as written: the squares it names, in order (start, then
/// for a capture each landing square or only the last), and whether it
/// captures (`x`) or steps (`-`). The empty path is no move (an announcement
/// checked against a board that shows none writes it as empty text).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DraughtsPath {
    squares: Vec<WrittenSquare>,
    capture: bool,
}

impl DraughtsPath {
    /// The path of `mv` as `variant` writes it, with every landing square of
    /// a capture (`28x17x6`).
    pub fn of_move(mv: &Move, variant: Variant) -> DraughtsPath {
        let mut squares = vec![WrittenSquare::of(mv.from, variant)];
        if mv.is_capture() {
            squares.extend(mv.path.iter().map(|&sq| WrittenSquare::of(sq, variant)));
        } else {
            squares.push(WrittenSquare::of(mv.to, variant));
        }
        DraughtsPath { squares, capture: mv.is_capture() }
    }

    /// The squares as written.
    pub fn squares(&self) -> &[WrittenSquare] {
        &self.squares
    }

    /// The move captures (written with `x`).
    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// No move (the empty text).
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// The board's squares the path names in `variant`, in order; `None`
    /// when one is not on that board.
    pub fn board_squares(&self, variant: Variant) -> Option<Vec<Square>> {
        self.squares.iter().map(|s| s.square(variant)).collect()
    }

    /// The legal move the path names in `pos`: `Ok(None)` when none fits,
    /// `Err(count)` when several different captures do (a path written by
    /// its start and end only).
    pub fn find_in(&self, pos: &Position) -> Result<Option<Move>, usize> {
        let Some(parts) = self.board_squares(pos.variant).filter(|p| p.len() >= 2) else { return Ok(None) };
        if !self.capture && parts.len() != 2 {
            return Ok(None);
        }
        let (from, to) = (parts[0], parts[parts.len() - 1]);
        let via = &parts[1..parts.len() - 1];
        let candidates: Vec<Move> = if self.capture {
            capture_paths(pos)
        } else {
            legal_moves(pos).into_iter().filter(|m| !m.is_capture()).collect()
        };
        let mut found: Vec<Move> = Vec::new();
        for m in candidates {
            if m.from == from
                && m.to == to
                && is_subsequence(via, m.intermediate())
                && !found.iter().any(|f| f.same_effect(&m))
            {
                found.push(m);
            }
        }
        match found.len() {
            0 => Ok(None),
            1 => Ok(found.pop()),
            n => Err(n),
        }
    }

    /// Reads a move as a person writes it (a PDN file, the console): `x` or
    /// `X`, spaces around the squares, upper-case files. The station's own
    /// text reads with [`FromStr`], which takes only what [`fmt::Display`] writes.
    pub fn read_loosely(text: &str) -> Option<DraughtsPath> {
        let capture = text.contains(['x', 'X']);
        let squares: Option<Vec<WrittenSquare>> = text
            .split(['-', 'x', 'X'])
            .map(|s| WrittenSquare::read(&s.trim().to_ascii_lowercase()))
            .collect();
        let squares = squares.filter(|s| s.len() >= 2)?;
        Some(DraughtsPath { squares, capture })
    }
}

fn is_subsequence(needle: &[Square], hay: &[Square]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

impl fmt::Display for DraughtsPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        for (i, sq) in self.squares.iter().enumerate() {
            if i > 0 {
                write!(f, "{sep}")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

/// The station's own text of a move (what [`fmt::Display`] writes, the
/// empty text for no move): nothing else reads, so a move read writes back
/// the same text.
impl FromStr for DraughtsPath {
    type Err = PathError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.is_empty() {
            return Ok(DraughtsPath::default());
        }
        // Only what `Display` writes reads: the text written back is the text read.
        let written = |p: &DraughtsPath| p.to_string();
        let path = DraughtsPath::read_loosely(text).filter(|p| written(p) == text);
        path.ok_or_else(|| PathError(text.to_owned()))
    }
}

/// For literals in tests: text that is no move is a mistake in the literal (it panics).
impl From<&str> for DraughtsPath {
    fn from(text: &str) -> Self {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }
}

impl PartialEq<str> for DraughtsPath {
    fn eq(&self, other: &str) -> bool {
        other.parse::<DraughtsPath>().is_ok_and(|p| p == *self)
    }
}

impl PartialEq<&str> for DraughtsPath {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

/// The JSON of a move is its text, as before it was typed.
impl Serialize for DraughtsPath {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DraughtsPath {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_written_is_the_text_read() {
        for text in ["32-28", "28x17x6", "c3-d4", "c3xe5xg7", "1-7", "50x1", ""] {
            let path: DraughtsPath = text.parse().unwrap();
            assert_eq!(path.to_string(), text);
        }
        for text in ["32 - 28", "28X17", "C3-d4", "032-28", "32", "32-28x17", "e2e4", "x"] {
            assert!(text.parse::<DraughtsPath>().is_err(), "{text}");
        }
    }

    #[test]
    fn squares_in_a_variant() {
        let p: DraughtsPath = "c3-d4".parse().unwrap();
        assert_eq!(p.board_squares(Variant::International), None);
        let sq = p.board_squares(Variant::Draughts64).unwrap();
        assert_eq!(Variant::Draughts64.name(sq[0]), "c3");
        assert_eq!(Variant::Draughts64.name(sq[1]), "d4");
        let p: DraughtsPath = "32-28".parse().unwrap();
        assert_eq!(p.board_squares(Variant::International), Some(vec![Square(31), Square(27)]));
        let pos = Position::initial(Variant::International);
        let mv = p.find_in(&pos).unwrap().unwrap();
        assert_eq!(DraughtsPath::of_move(&mv, Variant::International), p);
    }
}
