//! The game in play at a table, one type a game, each owning its state:
//! [`ChessPlay`] (the boards' trackers, the two-board record, an
//! announcement said before its move was sensed) and
//! [`DraughtsPlay`](super::draughts_play::DraughtsPlay), behind [`Play`]
//! (shakmaty's `VariantPosition` way). The table holds one once a game has
//! started; what both games share (the clock, draw offers, the record's
//! fold) stays the table's.
//!
//! What a game does at the table in its own way is its play's too: its start
//! (the chess trackers or the draughts sensors), the inputs whose meaning is
//! its own, its restore from a journal and what a restore follows when the
//! journaled inputs no longer reproduce the record ([`Play::start`],
//! [`Play::consume`], [`Play::resume`], [`Play::follow_record`]). Before the
//! first game there is no play to ask, so these are chosen by the table's
//! configured [`Start`], which names its game.

use super::adjournment::Envelope;
use super::draughts_play::DraughtsPlay;
use super::draughts_table::DraughtsAtTable;
use super::draws::PendingClaim;
use super::{Start, Table, TableConfig, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::event::{BoardRole, Event, PlayedMove};
use crate::game::Game;
use crate::inference::{BoardTracker, Observation};
use crate::input::Input;
use crate::piece_tracking::{PieceObservation, PieceTracker};
use crate::record::GameRecord;
use crate::role::ByBoard;
use crate::two_boards::TwoBoards;
use shakmaty::{Bitboard, Board, Move, Position};

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

    /// The agreed moves as the record holds them (UCI for chess, the PDN path for draughts).
    pub fn record_moves(&self) -> Vec<PlayedMove> {
        match self {
            Play::Chess(c) => {
                let agreed = c.sync.agreed();
                agreed.moves().iter().map(|m| agreed.played(*m).into()).collect()
            }
            Play::Draughts(d) => d.moves().iter().cloned().map(PlayedMove::Draughts).collect(),
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

/// What each game does at the table in its own way, chosen by the table's
/// configured start (none of these has a play to ask yet, or the play is
/// the one being replaced).
impl Play {
    /// Starts `table`'s game `game_id` at `t` from the configured start,
    /// after `scoresheet` (a chess game's moves so far; a draughts game has
    /// none): the chess trackers or the draughts play. Returns those moves as
    /// the record holds them.
    pub fn start(table: &mut Table, game_id: String, scoresheet: &[Move], t: Millis) -> Vec<PlayedMove> {
        match &table.cfg.start {
            Start::Chess(start) => {
                let mut game = start.clone();
                let played = scoresheet
                    .iter()
                    .map(|&mv| {
                        let played = game.played(mv).into();
                        game.push(mv);
                        played
                    })
                    .collect();
                table.start_chess(game_id, game, t);
                played
            }
            &Start::Draughts(variant) => {
                // A draughts game starts from the initial position: no scoresheet reaches it.
                DraughtsAtTable::new(table).start(variant, game_id, t);
                Vec::new()
            }
        }
    }

    /// The inputs whose meaning is the game's own, consumed for `table`
    /// (a draughts board's scan while waiting too); `None` for the inputs
    /// both games treat alike, which chess's are all.
    pub fn consume(
        table: &mut Table,
        t: Millis,
        input: &Input,
        out: &mut Vec<Event>,
    ) -> Option<Result<(), TableError>> {
        match table.cfg.start {
            Start::Chess(_) => None,
            Start::Draughts(variant) => DraughtsAtTable::new(table).consume(variant, t, input, out),
        }
    }

    /// A table continuing, from a journal, a game started at `t` on boards
    /// sensed as `sensed` (and the piece board showing `mirror_board`), after
    /// the scoresheet `moves` it was started from: the inputs journaled
    /// since are then fed to it again.
    pub fn resume(
        cfg: TableConfig,
        game_id: String,
        moves: &[PlayedMove],
        sensed: ByBoard<Bitboard>,
        mirror_board: Option<Board>,
        t: Millis,
    ) -> Result<Table, String> {
        match &cfg.start {
            Start::Chess(start) => {
                let mut game = start.clone();
                for played in moves {
                    let mv =
                        played.to_move(game.position()).ok_or_else(|| format!("scoresheet move {played}"))?;
                    game.push(mv);
                }
                Ok(Table::resume(cfg, game_id, game, sensed, mirror_board, t))
            }
            // A draughts game starts from the initial position (no scoresheet),
            // its boards sensed by occupancy alone.
            &Start::Draughts(variant) => Ok(DraughtsAtTable::resume(cfg, variant, game_id, sensed, t)),
        }
    }

    /// A restore of the game `game_id` whose journaled inputs, fed again to
    /// `replayed`, no longer reproduce the journal's `record` (the last input
    /// at `last_t`): the table the game goes on from, and what was wrong when
    /// something was. Chess takes the recorded moves as the game (the boards
    /// judged anew) unless one is illegal; draughts follows the inputs and says so.
    pub fn follow_record(
        replayed: Table,
        game_id: String,
        record: GameRecord,
        last_t: Millis,
    ) -> (Table, Option<String>) {
        let Start::Chess(start) = &replayed.cfg.start else {
            // The inputs are the draughts game's evidence: its record is what they reproduce.
            let damage = "the journaled inputs no longer reproduce the recorded draughts moves; \
                          the game follows the inputs";
            return (replayed, Some(damage.to_string()));
        };
        // The inputs no longer reproduce the record (a different settle time, a
        // changed rule): the recorded moves are the game; the boards are judged anew.
        let mut game: Game = start.clone();
        for played in record.played_moves() {
            let Some(mv) = played.to_move(game.position()) else {
                // A damaged record (a flipped byte): the inputs are the evidence.
                let damage =
                    format!("recorded move {played} is illegal; the game follows the journaled inputs");
                return (replayed, Some(damage));
            };
            game.push(mv);
        }
        let cfg = replayed.config().clone();
        let now = ByBoard::from_fn(|role: BoardRole| replayed.sensed(role));
        let board_now = cfg.mirror_pieces.then(|| replayed.mirror_board().clone());
        let mut table = Table::resume(cfg, game_id, game, now, board_now, last_t);
        table.adopt_record(record);
        (table, None)
    }
}

/// The journal's side of the plays: a restore asks the table, which asks its game's play.
impl Table {
    /// [`Play::resume`]: a table continuing a journaled game.
    pub(crate) fn resume_journaled(
        cfg: TableConfig,
        game_id: String,
        moves: &[PlayedMove],
        sensed: ByBoard<Bitboard>,
        mirror_board: Option<Board>,
        t: Millis,
    ) -> Result<Table, String> {
        Play::resume(cfg, game_id, moves, sensed, mirror_board, t)
    }

    /// [`Play::follow_record`]: what a restore goes on from when the inputs
    /// no longer reproduce the journal's `record`.
    pub(crate) fn follow_record(
        self,
        game_id: String,
        record: GameRecord,
        last_t: Millis,
    ) -> (Table, Option<String>) {
        Play::follow_record(self, game_id, record, last_t)
    }
}
