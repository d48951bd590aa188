//! The two boards of a table: the blind player's and the sighted player's.
//!
//! [`BoardRole`] names a board; [`ByBoard`] holds one value per board, indexed by its role, never
//! by a slot number.

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

impl BoardRole {
    /// Both boards, the blind player's first.
    pub const ALL: [BoardRole; 2] = [BoardRole::Blind, BoardRole::Mirror];

    /// The other board.
    pub const fn other(self) -> BoardRole {
        match self {
            BoardRole::Blind => BoardRole::Mirror,
            BoardRole::Mirror => BoardRole::Blind,
        }
    }

    const fn index(self) -> usize {
        match self {
            BoardRole::Blind => 0,
            BoardRole::Mirror => 1,
        }
    }
}

/// One value per board, indexed by [`BoardRole`] (never by a number, so a
/// board's state cannot be read from the other board's slot). Serialised as
/// a two-element array, the blind board's first, as the journal always had it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ByBoard<T>([T; 2]);

impl<T> ByBoard<T> {
    /// The blind board's value and the mirror board's.
    pub const fn new(blind: T, mirror: T) -> Self {
        ByBoard([blind, mirror])
    }

    /// Each board's value from its role.
    pub fn from_fn(mut f: impl FnMut(BoardRole) -> T) -> Self {
        ByBoard([f(BoardRole::Blind), f(BoardRole::Mirror)])
    }

    /// Each board with its value, the blind board first.
    pub fn iter(&self) -> impl Iterator<Item = (BoardRole, &T)> {
        BoardRole::ALL.into_iter().zip(self.0.iter())
    }

    /// Each board with its value to change, the blind board first.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (BoardRole, &mut T)> {
        BoardRole::ALL.into_iter().zip(self.0.iter_mut())
    }

    /// The values, the blind board's first.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.0.iter()
    }

    /// The values to change, the blind board's first.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.0.iter_mut()
    }

    /// Both values changed by `f`.
    pub fn map<U>(self, f: impl FnMut(T) -> U) -> ByBoard<U> {
        ByBoard(self.0.map(f))
    }
}

impl<T: Clone> ByBoard<T> {
    /// The same value for both boards.
    pub fn both(value: T) -> Self {
        ByBoard([value.clone(), value])
    }
}

impl<T> std::ops::Index<BoardRole> for ByBoard<T> {
    type Output = T;

    fn index(&self, role: BoardRole) -> &T {
        &self.0[role.index()]
    }
}

impl<T> std::ops::IndexMut<BoardRole> for ByBoard<T> {
    fn index_mut(&mut self, role: BoardRole) -> &mut T {
        &mut self.0[role.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_board_reads_its_own_slot_and_serialises_as_the_old_array() {
        let mut b = ByBoard::new(1, 2);
        b[BoardRole::Mirror] += 10;
        assert_eq!((b[BoardRole::Blind], b[BoardRole::Mirror]), (1, 12));
        assert_eq!(serde_json::to_string(&b).unwrap(), "[1,12]");
        assert_eq!(serde_json::from_str::<ByBoard<u8>>("[3,4]").unwrap(), ByBoard::new(3, 4));
        let roles: Vec<BoardRole> = b.iter().map(|(r, _)| r).collect();
        assert_eq!(roles, BoardRole::ALL);
    }
}
