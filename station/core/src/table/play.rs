//! The game in play at a table, one type a game, each owning its state:
//! [`ChessPlay`] (the boards' trackers, the two-board record, an
//! announcement said before its move was sensed) and
//! [`DraughtsPlay`](super::draughts_play::DraughtsPlay), behind [`Play`]
//! (shakmaty's `VariantPosition` way). The table holds one once a game has
//! started; what both games share (the clock, draw offers, the record's
//! fold) stays the table's.

use super::adjournment::Envelope;
use super::draughts_play::DraughtsPlay;
use super::draws::PendingClaim;
use crate::Millis;
use crate::clock::Side;
use crate::inference::{BoardTracker, Observation};
use crate::piece_tracking::{PieceObservation, PieceTracker};
use crate::role::ByBoard;
use crate::two_boards::TwoBoards;
use shakmaty::{Move, Position};

/// The game in progress or just finished at a table.
#[derive(Clone, Debug)]
pub(super) enum Play {
    /// A chess game.
    Chess(Box<ChessPlay>),
    /// A draughts game.
    Draughts(Box<DraughtsPlay>),
}

/// What every view asks the game, whichever it is.
impl Play {
    /// Plies on the agreed record and the side to move.
    pub fn turn(&self) -> (usize, Side) {
        match self {
            Play::Chess(c) => {
                let agreed = c.sync.agreed();
                (agreed.ply(), Side::from(agreed.position().turn()))
            }
            Play::Draughts(d) => (d.ply(), d.to_move()),
        }
    }

    /// The agreed moves as the record writes them (UCI for chess, PDN for draughts).
    pub fn record_texts(&self) -> Vec<String> {
        match self {
            Play::Chess(c) => {
                let agreed = c.sync.agreed();
                agreed.moves().iter().map(|m| agreed.uci(*m)).collect()
            }
            Play::Draughts(d) => d.moves().to_vec(),
        }
    }

    /// The agreed position's FEN (PDN FEN for draughts).
    pub fn fen(&self) -> String {
        match self {
            Play::Chess(c) => c.sync.agreed().fen(),
            Play::Draughts(d) => d.fen(),
        }
    }
}

/// Chess at the table (FIDE Laws, Annex D): each sensed board's tracker
/// (pegs, or the mirror's pieces), the agreed record kept with the D.2.9
/// procedure, the blind player's announcement said before his move, and the
/// arbiter's chess rulings.
#[derive(Clone, Debug)]
pub(super) struct ChessPlay {
    /// The peg boards' trackers (none for an unsensed board or a piece board).
    pub trackers: ByBoard<Option<BoardTracker>>,
    /// The piece-sensing mirror board's tracker (a DGT board).
    pub pieces: Option<PieceTracker>,
    /// The two-board procedure and the agreed record.
    pub sync: TwoBoards,
    /// A chess announcement made before the move was sensed, and when.
    pub said_early: Option<(Move, Millis)>,
    /// The peg trackers' observations, drained as they are turned into events.
    pub scratch: Vec<Observation>,
    /// The piece tracker's observations, drained likewise.
    pub piece_scratch: Vec<PieceObservation>,
    /// What the arbiter rules on in a chess game only.
    pub rulings: ChessRulings,
}

/// What the arbiter rules on in a chess game besides moves: the sealed move
/// of an adjourned game, illegal moves counted and a draw claim waiting
/// (a draughts game has none of them: its inputs are refused).
#[derive(Clone, Debug, Default)]
pub(super) struct ChessRulings {
    /// The sealed move of an adjourned game (the envelope, Guidelines I).
    pub sealed: Option<Envelope>,
    /// Illegal moves of each player found so far (Art. 7.4(b)), white then black.
    pub illegal_moves: [u32; 2],
    /// A draw claim waiting for the arbiter (Art. 9.5).
    pub claim: Option<PendingClaim>,
}

impl ChessPlay {
    /// A game with these boards' trackers and record; nothing said early,
    /// nothing sealed, claimed or found illegal.
    pub fn new(
        trackers: ByBoard<Option<BoardTracker>>,
        pieces: Option<PieceTracker>,
        sync: TwoBoards,
    ) -> Self {
        ChessPlay {
            trackers,
            pieces,
            sync,
            said_early: None,
            scratch: Vec::new(),
            piece_scratch: Vec::new(),
            rulings: ChessRulings::default(),
        }
    }
}
