//! The position a table's games start from, by game: a chess [`Game`] (the
//! standard start, one from a FEN, or Chess960) or a draughts variant's
//! initial position. The start names the game a table plays, so its rules
//! ([`Start::rules`]) are read from it; a draughts table holds no chess start.

use super::SETUP_QUIET_MS;
use crate::Millis;
use crate::diff::SquareDiff;
use crate::draughts::Variant;
use crate::draughts::board::Position as DraughtsPosition;
use crate::game::Game;
use shakmaty::{Bitboard, Position};

/// The standard Chess960 number of the ordinary start position (ICCF Appendix B).
const STANDARD_START_960: u16 = 518;

/// The position a table's games start from.
#[derive(Clone, Debug)]
pub enum Start {
    /// A chess game's start, and the moves it is configured with.
    Chess(Game),
    /// A draughts game of this variant, from its initial position (no other start is played).
    Draughts(Variant),
}

impl Default for Start {
    /// The standard chess start.
    fn default() -> Self {
        Start::Chess(Game::default())
    }
}

impl From<Game> for Start {
    fn from(game: Game) -> Self {
        Start::Chess(game)
    }
}

/// Two starts are equal when they are of the same game and, for chess, start
/// from the same position and hold the same moves ([`Game`] has no equality of its own).
impl PartialEq for Start {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Start::Chess(a), Start::Chess(b)) => a.start_fen() == b.start_fen() && a.moves() == b.moves(),
            (Start::Draughts(a), Start::Draughts(b)) => a == b,
            _ => false,
        }
    }
}

impl Start {
    /// The chess start, when the game is chess.
    pub fn chess(&self) -> Option<&Game> {
        match self {
            Start::Chess(game) => Some(game),
            Start::Draughts(_) => None,
        }
    }

    /// The occupancy of the position a game starts from.
    pub fn occupancy(&self) -> Bitboard {
        match self {
            Start::Chess(game) => game.occupancy(),
            Start::Draughts(variant) => Bitboard(DraughtsPosition::initial(*variant).occupied()),
        }
    }

    /// The FEN of the position a game starts from (PDN FEN for draughts).
    pub fn fen(&self) -> String {
        match self {
            Start::Chess(game) => game.fen(),
            Start::Draughts(variant) => super::draughts_play::fen(&DraughtsPosition::initial(*variant)),
        }
    }

    /// How long the board that starts games must be still before what it
    /// shows is judged, when sensors settle in `settle_ms`: a Chess960 or
    /// draughts set-up as soon as it settles; a standard chess set-up after
    /// the longer pause that lets a hand set it up without being read out.
    pub(super) fn setup_quiet_ms(&self, settle_ms: Millis) -> Millis {
        match self {
            Start::Chess(game) => {
                // A Chess960 set-up is read out as it stands (ICCF Appendix B asks for it).
                let chess960 = crate::setup::chess960_number(game.start().board())
                    .is_some_and(|n| n != STANDARD_START_960);
                if chess960 { settle_ms } else { settle_ms.max(SETUP_QUIET_MS) }
            }
            Start::Draughts(_) => settle_ms,
        }
    }

    /// What a start board showing `sensed` lacks or has too much, square by
    /// square; `None` when there is nothing to say (a draughts board's
    /// differences are said by its sensor once the game is on).
    pub(super) fn setup_differs(&self, sensed: Bitboard) -> Option<Vec<SquareDiff>> {
        let Start::Chess(game) = self else { return None };
        let start = game.start().board();
        (sensed.any() && sensed != start.occupied()).then(|| crate::setup::check(start, sensed))
    }

    /// What a journal header keeps of this start for a game begun from `fen`
    /// (its own key; what [`read_header`](Self::read_header) puts back): a
    /// chess game's start is that FEN's position, this start if it does not read.
    pub fn for_header(&self, fen: &str) -> Start {
        match self {
            Start::Chess(configured) => {
                Start::Chess(Game::from_fen(fen).unwrap_or_else(|_| configured.clone()))
            }
            Start::Draughts(variant) => Start::Draughts(*variant),
        }
    }

    /// The start a journal header's `fen` stands for, in the game of this
    /// start: a chess FEN that does not read makes the header unreadable; a
    /// draughts game always starts from its initial position.
    pub fn read_header(&self, fen: &str) -> Result<Start, String> {
        match self {
            Start::Chess(_) => Game::from_fen(fen).map(Start::Chess).map_err(|e| format!("fen: {e}")),
            Start::Draughts(variant) => Ok(Start::Draughts(*variant)),
        }
    }
}
