//! The table's state, grouped by job: each group is one field of [`Table`](super::Table).

use super::draughts_play::DraughtsPlay;
use super::play::{ChessPlay, ChessRulings, Play};
use crate::Millis;
use crate::clock::{ChessClock, WarningConfig, WarningSchedule};
use crate::event::BoardRole;
use crate::pgn::SevenTags;
use crate::record::GameRecord;
use crate::role::ByBoard;
use shakmaty::{Bitboard, Board};

/// When the start board last changed and whether it has been still since.
#[derive(Clone, Debug)]
pub(super) struct Stillness {
    pub last_change: Millis,
    pub settled: bool,
}

/// The game's clock, its spoken warnings and the last move it was pressed for.
#[derive(Clone, Debug)]
pub(super) struct Clocking {
    pub clock: Option<ChessClock>,
    pub warnings: WarningSchedule,
    /// The last ply whose clock press was accepted.
    pub pressed_ply: usize,
}

impl Default for Clocking {
    fn default() -> Self {
        Clocking { clock: None, warnings: WarningSchedule::new(WarningConfig::default()), pressed_ply: 0 }
    }
}

/// What the boards last showed, whichever game is played: each board's
/// occupancy, and the pieces of a piece-sensing mirror board (a DGT board
/// reports its pieces in any game and between games; the chess play's piece
/// tracker starts from them). Kept from one game to the next.
#[derive(Clone, Debug, Default)]
pub(super) struct SensedBoards {
    /// Each board's occupancy as last sensed (standard squares).
    pub occupancy: ByBoard<Bitboard>,
    /// The pieces the piece-sensing mirror board last showed; none until
    /// such a board reported.
    pub mirror_pieces: Option<Board>,
}

impl std::ops::Index<BoardRole> for SensedBoards {
    type Output = Bitboard;

    fn index(&self, role: BoardRole) -> &Bitboard {
        &self.occupancy[role]
    }
}

impl std::ops::IndexMut<BoardRole> for SensedBoards {
    fn index_mut(&mut self, role: BoardRole) -> &mut Bitboard {
        &mut self.occupancy[role]
    }
}

/// What the arbiter rules on in either game besides moves: the draw offers
/// (a chess game's own rulings are its play's: [`ChessRulings`](super::play::ChessRulings)).
#[derive(Clone, Debug, Default)]
pub(super) struct Rulings {
    /// Draw offers of this game: after which ply, by whom (Art. 9.1(b)).
    pub draw_offers: Vec<(usize, crate::clock::Side)>,
}

/// The blind player's announcements (D.2.3): the last one checked (one said
/// before its move was sensed is the game's own: [`Play`]).
#[derive(Clone, Debug, Default)]
pub(super) struct Announcing {
    /// The last ply of the blind player whose announcement matched his board.
    pub announced_ply: usize,
}

/// Inputs refused, and what time decided before one was.
#[derive(Clone, Debug, Default)]
pub(super) struct Refusals {
    /// What time decided before an input that was then refused: the next
    /// [`apply`](super::Table::apply) returns it first.
    pub deferred: Vec<crate::event::Event>,
    /// Inputs refused so far.
    pub refused: u64,
}

/// The game in progress or just finished, once a game has started (the
/// chess or the draughts play, each owning its state); which game the table
/// plays is its configured start's ([`Start`](super::Start)).
#[derive(Clone, Debug, Default)]
pub(super) struct PlaySeat {
    /// The game in progress or just finished; none before the first.
    pub play: Option<Play>,
}

/// The play of the game `$game` in `$play` (a `&` or `&mut Option<Play>`), if that is the game.
macro_rules! play_of {
    ($play:expr, $game:ident) => {
        match $play {
            Some(Play::$game(p)) => Some(p),
            _ => None,
        }
    };
}

/// The play by its game: borrowed through the seat alone, so the rest of the
/// table (its configuration, clock, rulings) stays free to use alongside.
impl PlaySeat {
    /// Seats a draughts play as the game in play.
    pub fn seat_draughts(&mut self, play: super::draughts_play::DraughtsPlay) {
        self.play = Some(Play::Draughts(Box::new(play)));
    }

    /// The chess play, when the game is chess.
    pub fn chess(&self) -> Option<&ChessPlay> {
        play_of!(&self.play, Chess)
    }

    /// The chess play to change, when the game is chess.
    pub fn chess_mut(&mut self) -> Option<&mut ChessPlay> {
        play_of!(&mut self.play, Chess)
    }

    /// The chess game's own rulings, when the game is chess.
    pub fn chess_rulings(&self) -> Option<&ChessRulings> {
        self.chess().map(|c| &c.rulings)
    }

    /// The chess game's own rulings to change, when the game is chess.
    pub fn chess_rulings_mut(&mut self) -> Option<&mut ChessRulings> {
        self.chess_mut().map(|c| &mut c.rulings)
    }

    /// The draughts play, when the game is draughts.
    pub fn draughts(&self) -> Option<&DraughtsPlay> {
        play_of!(&self.play, Draughts)
    }

    /// The draughts play to change, when the game is draughts.
    pub fn draughts_mut(&mut self) -> Option<&mut DraughtsPlay> {
        play_of!(&mut self.play, Draughts)
    }
}

/// The record of the game in progress or just finished, folded from the
/// events [`apply`](super::Table::apply) returns (what every view reads), and
/// the tags the next game gets.
#[derive(Clone, Debug)]
pub(super) struct KeptRecord {
    pub record: Option<GameRecord>,
    /// The tags the next game gets (a `new_game` naming the players).
    pub next_tags: SevenTags,
}
