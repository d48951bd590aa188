//! The table's state, grouped by job: each group is one field of [`Table`](super::Table).

use super::adjournment::Envelope;
use super::draughts_play::DraughtsPlay;
use super::draws::PendingClaim;
use crate::Millis;
use crate::clock::{ChessClock, WarningConfig, WarningSchedule};
use crate::pgn::SevenTags;
use crate::piece_tracking::{PieceObservation, PieceTracker};
use crate::record::GameRecord;
use shakmaty::{Board, Move};

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

/// The mirror board when it senses pieces (a DGT board): its tracker (then
/// the peg tracker of that board is empty) and the pieces it last showed.
#[derive(Clone, Debug)]
pub(super) struct MirrorPieces {
    pub tracker: Option<PieceTracker>,
    pub board: Board,
    pub scratch: Vec<PieceObservation>,
}

impl Default for MirrorPieces {
    fn default() -> Self {
        MirrorPieces { tracker: None, board: Board::empty(), scratch: Vec::new() }
    }
}

/// What the arbiter rules on besides moves: the sealed move of an adjourned
/// game, illegal moves counted, draw offers and a claim waiting.
#[derive(Clone, Debug, Default)]
pub(super) struct Rulings {
    /// The sealed move of an adjourned game (the envelope, Guidelines I).
    pub sealed: Option<Envelope>,
    /// Illegal moves of each player found so far (Art. 7.4(b)), white then black.
    pub illegal_moves: [u32; 2],
    /// Draw offers of this game: after which ply, by whom (Art. 9.1(b)).
    pub draw_offers: Vec<(usize, crate::clock::Side)>,
    /// A draw claim waiting for the arbiter (Art. 9.5).
    pub claim: Option<PendingClaim>,
}

/// The blind player's announcements (D.2.3): the last one checked and one
/// said before its move was sensed.
#[derive(Clone, Debug, Default)]
pub(super) struct Announcing {
    /// The last ply of the blind player whose announcement matched his board.
    pub announced_ply: usize,
    /// A chess announcement made before the move was sensed.
    pub said_early: Option<(Move, Millis)>,
    /// A draughts announcement made before the move was sensed.
    pub draughts_said_early: Option<(crate::draughts::moves::Move, Millis)>,
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

/// The rules seam: the game the table plays. A draughts table's chess state
/// (trackers, two-board record) stays empty, a chess table's draughts play.
#[derive(Clone, Debug)]
pub(super) struct RulesSeat {
    /// Chosen once, when the table is made: every "which game?" asks it.
    pub rules: &'static dyn super::rules::Rules,
    /// The draughts game in progress (positions, boards' sensors, records).
    pub play: Option<Box<DraughtsPlay>>,
}

impl Default for RulesSeat {
    fn default() -> Self {
        RulesSeat { rules: &super::rules::CHESS, play: None }
    }
}

/// The record of the game in progress or just finished, folded from the
/// events [`apply`](super::Table::apply) returns (what every view reads), and
/// the tags the next game gets.
#[derive(Clone, Debug)]
pub(super) struct Keeping {
    pub record: Option<GameRecord>,
    /// The tags the next game gets (a `new_game` naming the players).
    pub next_tags: SevenTags,
}
