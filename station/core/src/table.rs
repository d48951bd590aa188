//! The table: one game, played on the blind player's board and, when it is
//! sensed, the sighted player's board. It waits for the initial position,
//! follows both boards with their trackers, keeps the agreed record with the
//! D.2.9 procedure, and turns everything into events.
//!
//! The journal feeds a table the same inputs again to restore it, so everything
//! that decides anything lives here, not in the daemon.
//!
//! `Table::new_game` starts a game at once, with the tags and the scoresheet so far it names;
//! `finish` ends it with the arbiter's result. A board that shows the start position starts a
//! game on the scan that shows it, so a first move made milliseconds later is played into it; a
//! board showing anything else is read out once it is still, never silence. Every input is a
//! method, every decision an `Event`, and the table folds each event it returns into its
//! `GameRecord` (`Table::record`).
//!
//! Spoken announcements are checked against the blind player's board (D.2.3.3, D.2.8); without
//! his sensor board (`blind_unsensed`) the spoken move is the move, and a game starts on the
//! mirror board's start position, or at once. `two_boards` agrees every ply a board owns when
//! its tracker catches up several at once.
//!
//! The submodules by job: `apply` (the reducer), `parts` (the state by job), `clock_presses`,
//! `press` (the player's own evidence), `announcing`, `observed` (a tracker's observations as
//! events), `external` (a DGT 3000 as the master clock), `draws`, `illegal`, `adjournment`,
//! `config`, `start` (the configured start, which names the game), `rules` (its static facts),
//! `play` (each game's play and what it does its own way) and the draughts modules (`draughts_play`, `draughts_table`,
//! `draughts_announce`).

use crate::Millis;
use crate::clock::{
    ChessClock, ClockError, ClockEvent, ClockGate, GateDecision, MoveProgress, Pressed, Side, WarningSchedule,
};
use crate::diff::square_diff;
use crate::event::{BoardRole, Event, GameResult, PlayedMove};
use crate::game::Game;
use crate::inference::{BoardTracker, Observation};
// The table's tests build their configurations from it.
#[cfg(test)]
use crate::inference::TrackerConfig;
pub use crate::input::ClockCommand;
use crate::pgn::{SevenTags, TagOverrides};
use crate::piece_tracking::{PieceObservation, PieceTracker, PieceTrackerConfig};
use crate::record::{GameRecord, termination_of};
use crate::role::ByBoard;
use crate::tracker::{Tracker, earliest};
use crate::two_boards::TwoBoards;
use shakmaty::{Bitboard, Board, KnownOutcome, Move, Outcome, Piece, Position, Square};

/// Where the table is in its life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Waiting for the blind player's board to show the initial position.
    Waiting,
    /// A game is in progress.
    Playing,
    /// The game ended on the board; a new one starts when the initial position is set up.
    Finished,
}

/// Why an operator input was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TableError {
    /// No game is in progress.
    #[error("no game is in progress")]
    NoGame,
    /// Resume without an adjournment.
    #[error("the game is not adjourned")]
    NotAdjourned,
    /// No move to take back (or the boards are going back already).
    #[error("there is no move to take back")]
    NothingToTakeBack,
    /// A spoken move while it is the opponent's turn (no sensor board).
    #[error("{text}: it is not the blind player's turn")]
    NotYourTurn {
        /// What was said (UCI).
        text: String,
    },
    /// The game has no clock.
    #[error("the game has no clock (no time control configured)")]
    NoClock,
    /// The clock is an external master: it is set and pressed on the device itself.
    #[error("the clock is the DGT clock: set, start and press it on the clock itself")]
    ExternalClock,
    /// The clock refused.
    #[error("clock: {0}")]
    Clock(#[from] ClockError),
    /// An input that does not make sense (a damaged journal, a bad value).
    #[error("invalid input: {0}")]
    Invalid(String),
    /// Only the player to move may claim a draw (Art. 9.2, 9.3).
    #[error("only the player to move may claim a draw")]
    NotToMove,
    /// A draw claim is waiting for the arbiter.
    #[error("a draw claim is waiting for the arbiter")]
    ClaimPending,
    /// Nothing to confirm.
    #[error("there is no draw claim to confirm")]
    NoClaim,
    /// A move (entered, in a scoresheet, claimed, spoken) is not legal at its
    /// place: said as on a scoresheet, "21... Ke9: the king cannot go there".
    #[error("{}", illegal_words(.number, .text, .why))]
    IllegalMove {
        /// 1-based ply.
        ply: usize,
        /// What was given.
        text: String,
        /// Its move number as a scoresheet writes it ("21." or "21...").
        number: String,
        /// Why, in the arbiter's words ("not a move", "no pawn can go to d5").
        why: String,
    },
}

impl TableError {
    /// `text`, given as the move of `ply` in `pos`, names no legal move there.
    pub fn illegal_move(pos: &shakmaty::Chess, ply: usize, text: &str) -> Self {
        let why = crate::notation::refusal(pos, text);
        TableError::IllegalMove {
            ply,
            text: text.to_owned(),
            number: crate::notation::move_number(pos),
            why: if why.is_empty() { "it cannot be played now".to_owned() } else { why },
        }
    }

    /// `text` cannot be played as the move of `ply` (1-based, the game from
    /// White's first move), for the reason `why`.
    pub fn illegal_at(ply: usize, text: &str, why: &str) -> Self {
        // A reason that repeats the text ("`19-23` is not a legal …") says it once.
        let why = why.strip_prefix(&format!("`{text}` ")).unwrap_or(why);
        TableError::IllegalMove {
            ply,
            text: text.to_owned(),
            number: if ply == 0 { String::new() } else { crate::notation::ply_number(ply) },
            why: why.strip_prefix("is ").unwrap_or(why).to_owned(),
        }
    }
}

fn illegal_words(number: &str, text: &str, why: &str) -> String {
    match (number.is_empty(), why.is_empty()) {
        (true, true) => format!("{text}: not a legal move here"),
        (true, false) => format!("{text}: {why}"),
        (false, true) => format!("{number} {text}: not a legal move here"),
        (false, false) => format!("{number} {text}: {why}"),
    }
}

/// The table.
#[derive(Clone, Debug)]
pub struct Table {
    cfg: TableConfig,
    phase: Phase,
    game_id: Option<String>,
    sensed: SensedBoards,
    stillness: Stillness,
    clocking: Clocking,
    rulings: Rulings,
    announcing: Announcing,
    refusals: Refusals,
    seat: PlaySeat,
    keeping: KeptRecord,
}

/// How long a board showing another position than a standard start must be
/// still before it is read out (a hand setting up pauses between pieces).
pub const SETUP_QUIET_MS: Millis = 3_000;

impl Table {
    /// A table waiting for the initial position.
    pub fn new(cfg: TableConfig) -> Self {
        // With no board to show the start position, nothing would ever unsettle it.
        let no_board = cfg.no_board();
        let cfg_tags = cfg.tags.clone();
        Table {
            cfg,
            phase: Phase::Waiting,
            game_id: None,
            sensed: SensedBoards::default(),
            stillness: Stillness { last_change: 0, settled: !no_board },
            clocking: Clocking::default(),
            rulings: Rulings::default(),
            announcing: Announcing::default(),
            refusals: Refusals::default(),
            seat: PlaySeat::default(),
            keeping: KeptRecord { record: None, next_tags: cfg_tags },
        }
    }

    /// A table continuing a game started at `t` with the boards sensed as `sensed`
    /// (restoring from a journal), or continuing from `game` when its record is known.
    pub fn resume(
        cfg: TableConfig,
        game_id: String,
        game: Game,
        sensed: ByBoard<Bitboard>,
        mirror_board: Option<Board>,
        t: Millis,
    ) -> Self {
        let mut table = Table::new(cfg);
        table.sensed.occupancy = sensed;
        table.sensed.mirror_pieces = mirror_board;
        table.stillness.last_change = t;
        let start_fen = game.start_fen();
        let moves: Vec<PlayedMove> = game.moves().iter().map(|m| game.played(*m).into()).collect();
        table.start_chess(game_id.clone(), game, t);
        table.keeping.record =
            Some(GameRecord::started(game_id, start_fen, table.cfg.tags.clone(), t, &moves));
        table
    }

    /// The record of the game in progress or just finished: every view reads it.
    pub fn record(&self) -> Option<&GameRecord> {
        self.keeping.record.as_ref()
    }

    /// The tags every game gets unless its `new_game` names others (the
    /// daemon keeps the date current; the tags decide nothing).
    pub fn set_default_tags(&mut self, tags: SevenTags) {
        if self.keeping.next_tags == self.cfg.tags {
            self.keeping.next_tags = tags.clone();
        }
        self.cfg.tags = tags;
    }

    /// Takes `record` as the game's record (a restore whose inputs no longer
    /// reproduce the journal's record: the journal's record wins).
    pub(crate) fn adopt_record(&mut self, record: GameRecord) {
        self.keeping.record = Some(record);
    }

    /// Folds the events `apply` returns into the record.
    pub(crate) fn fold_record(&mut self, events: &[Event]) {
        for e in events {
            if let Event::GameStarted { game_id, fen, t_ms, .. } = e
                && self.keeping.record.is_none()
            {
                self.keeping.record = Some(GameRecord::new(
                    game_id.clone(),
                    fen.clone(),
                    self.keeping.next_tags.clone(),
                    *t_ms,
                ));
            }
            if let Some(r) = self.keeping.record.as_mut() {
                r.apply(e);
            }
        }
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The current game's identifier.
    pub fn game_id(&self) -> Option<&str> {
        self.game_id.as_deref()
    }

    /// The agreed record of the game in progress or just finished.
    pub fn agreed(&self) -> Option<&Game> {
        self.seat.chess().map(|c| c.sync.agreed())
    }

    /// The tracker of a board.
    pub fn tracker(&self, role: BoardRole) -> Option<&BoardTracker> {
        self.seat.chess()?.trackers[role].as_ref()
    }

    /// The piece tracker of a piece-sensing mirror board.
    pub fn piece_tracker(&self) -> Option<&PieceTracker> {
        self.seat.chess()?.pieces.as_ref()
    }

    /// The pieces last sensed on the mirror board.
    pub fn mirror_board(&self) -> &Board {
        static NONE_SENSED: Board = Board::empty();
        self.sensed.mirror_pieces.as_ref().unwrap_or(&NONE_SENSED)
    }

    /// The last occupancy sensed on a board.
    pub fn sensed(&self, role: BoardRole) -> Bitboard {
        self.sensed[role]
    }

    /// The configuration.
    pub fn config(&self) -> &TableConfig {
        &self.cfg
    }

    /// The station's clock, when the game has one.
    pub fn clock(&self) -> Option<&ChessClock> {
        self.clocking.clock.as_ref()
    }

    /// The two-board procedure's state.
    pub fn sync(&self) -> Option<&TwoBoards> {
        self.seat.chess().map(|c| &c.sync)
    }

    /// When [`tick`](Self::tick) is next needed.
    pub fn deadline(&self) -> Option<Millis> {
        match self.phase {
            Phase::Playing => [
                self.seat.chess().and_then(|c| earliest(c.trackers.values().flatten())),
                self.sync().and_then(TwoBoards::deadline),
                self.clocking.clock.as_ref().and_then(ChessClock::next_flag_fall).map(|f| f.at),
                self.piece_tracker().and_then(|p| earliest(Some(p))),
                self.seat.draughts().and_then(|d| d.deadline()),
            ]
            .into_iter()
            .flatten()
            .min(),
            Phase::Waiting | Phase::Finished => {
                (!self.stillness.settled).then(|| self.stillness.last_change + self.waiting_quiet_ms())
            }
        }
    }

    /// Feeds one scan of a board (standard square numbering).
    pub fn on_scan(&mut self, role: BoardRole, t: Millis, occ: Bitboard, out: &mut Vec<Event>) {
        self.tick(t, out);
        let changed = self.sensed[role] != occ;
        self.sensed[role] = occ;
        match self.phase {
            Phase::Playing => {
                if let Some(c) = self.seat.chess_mut()
                    && let Some(tracker) = c.trackers[role].as_mut()
                {
                    tracker.read(t, &occ, &mut c.scratch);
                    self.settle_observations(role, t, out);
                }
            }
            Phase::Waiting | Phase::Finished => self.waiting_change(role, changed, t, out),
        }
    }

    /// A full board from the piece-sensing mirror board.
    pub fn on_pieces(&mut self, t: Millis, board: &Board, out: &mut Vec<Event>) {
        self.tick(t, out);
        self.sensed.mirror_pieces = Some(board.clone());
        let changed = self.sensed[BoardRole::Mirror] != board.occupied();
        self.sensed[BoardRole::Mirror] = board.occupied();
        self.waiting_change(BoardRole::Mirror, changed, t, out);
        if self.phase == Phase::Playing
            && let Some(c) = self.seat.chess_mut()
            && let Some(p) = c.pieces.as_mut()
        {
            p.read(t, board, &mut c.piece_scratch);
            self.after_pieces(t, out);
        }
    }

    /// One square changed on the piece-sensing mirror board.
    pub fn on_field(&mut self, t: Millis, square: Square, piece: Option<Piece>, out: &mut Vec<Event>) {
        self.tick(t, out);
        let shown = self.sensed.mirror_pieces.get_or_insert_with(Board::empty);
        match piece {
            Some(p) => shown.set_piece_at(square, p),
            None => shown.discard_piece_at(square),
        }
        let occupied = shown.occupied();
        let changed = self.sensed[BoardRole::Mirror] != occupied;
        self.sensed[BoardRole::Mirror] = occupied;
        self.waiting_change(BoardRole::Mirror, changed, t, out);
        if self.phase == Phase::Playing
            && let Some(c) = self.seat.chess_mut()
            && let Some(p) = c.pieces.as_mut()
        {
            p.on_field_update(t, square, piece, &mut c.piece_scratch);
            self.after_pieces(t, out);
        }
    }

    /// Lets time pass up to `t`.
    pub fn tick(&mut self, t: Millis, out: &mut Vec<Event>) {
        match self.phase {
            Phase::Playing => {
                // The game's own part passes first (its boards, its record), then the clock.
                match &self.seat.play {
                    Some(Play::Chess(_)) => self.chess_tick(t, out),
                    Some(Play::Draughts(_)) => draughts_table::DraughtsAtTable::new(self).tick(t, out),
                    None => {}
                }
                self.clock_tick(t, out);
            }
            Phase::Waiting | Phase::Finished => {
                let settle_at = self.stillness.last_change + self.waiting_quiet_ms();
                if !self.stillness.settled && t >= settle_at {
                    self.stillness.settled = true;
                    // No board at all: the game starts now (its id must differ from the last one's).
                    let no_board = self.cfg.no_board();
                    let settle_at = if no_board { t } else { settle_at };
                    if self.sensed[self.start_board()] == self.start_occupancy() || no_board {
                        self.begin(settle_at, &[], out);
                    } else if let Some(diff) = self.setup_differs() {
                        out.push(Event::SetupDiffers { board: self.start_board(), diff, t_ms: settle_at });
                    }
                }
            }
        }
    }

    /// Lets time pass up to `t` for a chess game's boards' trackers and its two-board record.
    fn chess_tick(&mut self, t: Millis, out: &mut Vec<Event>) {
        for role in BoardRole::ALL {
            if let Some(c) = self.seat.chess_mut()
                && let Some(tracker) = c.trackers[role].as_mut()
            {
                tracker.pass(t, &mut c.scratch);
                self.settle_observations(role, t, out);
            }
        }
        if let Some(c) = self.seat.chess_mut()
            && let Some(p) = c.pieces.as_mut()
        {
            p.pass(t, &mut c.piece_scratch);
            self.after_pieces(t, out);
        }
        if let Some(c) = self.seat.chess_mut() {
            c.sync.tick(t, out);
        }
    }

    /// Refuses with [`TableError::NoGame`] when no game is on: what every
    /// ruling, claim and announcement checks first.
    fn playing(&self) -> Result<(), TableError> {
        if self.phase != Phase::Playing {
            return Err(TableError::NoGame);
        }
        Ok(())
    }

    /// Lets time pass up to `t` (which may end the game: a flag, a settled
    /// mate), then refuses as [`Self::playing`] does when no game is on.
    fn tick_in_game(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick(t, out);
        self.playing()
    }

    /// A new game starts at `t` from the configured start (after `moves`, a
    /// scoresheet so far): its id differs from the last game's, its tags are
    /// the ones named for it.
    fn begin(&mut self, t: Millis, moves: &[Move], out: &mut Vec<Event>) {
        let mut game_id = format!("game-{t}");
        if self.game_id.as_deref() == Some(game_id.as_str()) {
            game_id.push_str("-2");
        }
        let tags = std::mem::replace(&mut self.keeping.next_tags, self.cfg.tags.clone());
        self.keeping.next_tags = tags.clone();
        let scoresheet = Play::start(self, game_id.clone(), moves, t);
        self.keeping.next_tags = self.cfg.tags.clone();
        out.push(Event::GameStarted {
            game_id,
            fen: self.start_fen(),
            t_ms: t,
            tags: Some(tags),
            moves: scoresheet,
        });
        // A board that does not show the start is told so at once, square by
        // square: a missing peg alone would be a piece in the hand, never said.
        if let Some(diff) = self.setup_differs().filter(|_| moves.is_empty()) {
            out.push(Event::SetupDiffers { board: self.start_board(), diff, t_ms: t });
        }
    }

    /// How long the board that starts games must be still before what it
    /// shows is judged: the settle time, but a standard set-up in progress is
    /// not read out square by square at every pause of the hand (a Chess960
    /// set-up is: ICCF Appendix B asks for it).
    fn waiting_quiet_ms(&self) -> Millis {
        let settle_ms = self.cfg.tracker.settle_ms;
        if self.cfg.no_board() { settle_ms } else { self.cfg.start.setup_quiet_ms(settle_ms) }
    }

    /// What a board that should show the start position shows instead, square
    /// by square, once it is still (ICCF Appendix B for a Chess960 set-up; any
    /// other position is said too, never silence). Nothing for an empty board.
    fn setup_differs(&self) -> Option<Vec<crate::diff::SquareDiff>> {
        self.cfg.start.setup_differs(self.sensed[self.start_board()])
    }

    /// An operator entered a player's scoresheet (UCI or SAN moves from the start).
    pub fn scoresheet(
        &mut self,
        moves: &[String],
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        let sync = &mut self.seat.chess_mut().ok_or(TableError::NoGame)?.sync;
        let mut game = Game::new(sync.agreed().start().clone(), sync.agreed().castling_mode());
        let mut parsed: Vec<Move> = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(game.position(), text)
                .ok_or_else(|| TableError::illegal_move(game.position(), i + 1, text))?;
            game.push(mv);
            parsed.push(mv);
        }
        sync.scoresheet(&parsed, t, out);
        Ok(())
    }

    /// The operator enters the move of the side to move (SAN or UCI).
    pub fn enter_move(&mut self, text: &str, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick(t, out);
        if self.claim_waits() {
            return Err(TableError::ClaimPending);
        }
        let sync = &self.seat.chess().ok_or(TableError::NoGame)?.sync;
        let ply = sync.agreed().ply() + 1;
        let pos = sync.agreed().position();
        let mv = parse_move(pos, text).ok_or_else(|| TableError::illegal_move(pos, ply, text))?;
        self.enter_parsed(mv, text, t, out)
    }

    /// Makes an operator's move (already read) the agreed one; the boards execute it.
    fn enter_parsed(
        &mut self,
        mv: Move,
        text: &str,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        let sync = &mut self.seat.chess_mut().ok_or(TableError::NoGame)?.sync;
        let ply = sync.agreed().ply() + 1;
        let number = crate::notation::move_number(sync.agreed().position());
        let illegal = || TableError::IllegalMove {
            ply,
            text: text.to_owned(),
            number,
            why: "the boards are going back to an earlier position: enter it once they show it".to_owned(),
        };
        let blinds_move = sync.agreed().position().turn() == self.cfg.blind_color;
        let before = out.len();
        if !sync.enter_move(mv, t, out) {
            return Err(illegal());
        }
        if self.cfg.blind_unsensed && blinds_move {
            // No board to check it against: the operator enters what he announced.
            self.announcing.announced_ply = ply;
        }
        self.adopt_targets(t, out);
        if self.cfg.blind_unsensed && blinds_move {
            // Entered for him is announced for him: his clock is pressed like a spoken move's.
            if self.cfg.clock_auto_press {
                let _ = self.press_now(Side::from(self.cfg.blind_color), t, out);
            }
        } else if !blinds_move {
            self.auto_press(before, t, out);
        }
        self.check_game_over(t, out);
        Ok(())
    }

    /// Ends the game in progress (result unknown, `*`) and starts a new one at
    /// once from `start` (a standard game, one from a FEN, or Chess960), after
    /// `moves` when the arbiter gives the scoresheet so far, with the tags
    /// named for it: the next input plays into it. A board that does not show
    /// the position is told what differs, as in any game.
    pub fn new_game(
        &mut self,
        start: Game,
        moves: &[String],
        tags: &TagOverrides,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.tick(t, out);
        let mut game = start.clone();
        let mut parsed = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = parse_move(game.position(), text)
                .ok_or_else(|| TableError::illegal_move(game.position(), i + 1, text))?;
            game.push(mv);
            parsed.push(mv);
        }
        self.cfg.start = Start::Chess(start);
        self.restart(&parsed, tags, t, out);
        Ok(())
    }

    /// Ends the game in progress (`*`) and starts the next at once from the
    /// configured start, after `moves` (a chess scoresheet so far), with the
    /// tags named for it: what [`new_game`](Self::new_game) does once its
    /// start is read, and a draughts new game (which has no chess start).
    pub(crate) fn restart(&mut self, moves: &[Move], tags: &TagOverrides, t: Millis, out: &mut Vec<Event>) {
        if self.phase == Phase::Playing {
            if let Some(clock) = self.clocking.clock.as_mut().filter(|c| c.is_running()) {
                let _ = clock.pause(t);
            }
            out.push(game_over("*", "new_game", t));
        }
        self.keeping.next_tags = self.cfg.tags.overridden(tags);
        self.stillness.settled = true;
        self.stillness.last_change = t;
        self.begin(t, moves, out);
    }

    /// The arbiter ends the game with `result` (a resignation, a flag, an
    /// agreed draw, his decision), `reason` in his words: the clock stops and
    /// the record is closed.
    pub fn finish(
        &mut self,
        result: &str,
        reason: &str,
        termination: Option<&str>,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.tick_in_game(t, out)?;
        let allowed = self.rules().results();
        if !allowed.contains(&result) {
            return Err(TableError::Invalid(format!("result `{result}`: one of {}", allowed.join(", "))));
        }
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| c.is_running()) {
            let _ = clock.pause(t);
        }
        let reason: String = reason.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
        let termination = termination.map_or_else(|| termination_of(&reason).to_owned(), str::to_owned);
        out.push(Event::GameOver {
            // The arbiter's own words at the edge: a result this build names, or as given.
            result: GameResult::from_text(result),
            reason: reason.trim().to_owned(),
            termination: Some(termination),
            t_ms: t,
        });
        self.phase = Phase::Finished;
        self.stillness.settled = true;
        Ok(())
    }

    /// A player resigned (Article 5.1.2; a spoken resignation is confirmed
    /// first): the game ends, his opponent wins, the clock stops.
    pub fn resign(&mut self, side: Side, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick_in_game(t, out)?;
        if let Some(clock) = self.clocking.clock.as_mut().filter(|c| c.is_running()) {
            let _ = clock.pause(t);
        }
        let result = self.rules().win_for(side.opponent());
        out.push(game_over(result, "resignation", t));
        self.phase = Phase::Finished;
        self.stillness.settled = true;
        Ok(())
    }

    /// The board whose settled position starts a game: the blind player's,
    /// or the sighted player's when the blind player has none.
    fn start_board(&self) -> BoardRole {
        if self.cfg.blind_unsensed { BoardRole::Mirror } else { BoardRole::Blind }
    }

    /// While waiting, the board that starts games changed: showing the start
    /// position it starts the game at once (the station started, or the board
    /// was plugged in, as the game begins: the first move may follow within
    /// milliseconds); anything else is judged once it is still.
    fn waiting_change(&mut self, role: BoardRole, changed: bool, t: Millis, out: &mut Vec<Event>) {
        if self.phase == Phase::Playing || !changed || role != self.start_board() {
            return;
        }
        if self.sensed[role] == self.start_occupancy() && !self.cfg.no_board() {
            self.stillness.settled = true;
            self.stillness.last_change = t.max(self.stillness.last_change);
            self.begin(t, &[], out);
        } else {
            self.stillness.last_change = t.max(self.stillness.last_change);
            self.stillness.settled = false;
        }
    }

    /// The arbiter takes the last agreed move back. When its clock was
    /// pressed, the `taken_back` event carries the readings from before it
    /// for the arbiter to decide on (Art. 7; the clock itself is left alone).
    pub fn take_back(&mut self, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick(t, out);
        let proposal = self.take_back_proposal();
        let ChessPlay { trackers, sync, .. } = self.seat.chess_mut().ok_or(TableError::NoGame)?;
        let before = out.len();
        if !sync.take_back(t, out) {
            return Err(TableError::NothingToTakeBack);
        }
        for tracker in trackers.values_mut().flatten() {
            if goes_back(tracker.game(), sync.agreed()) {
                // The board goes back (adopt_targets, below, follows it).
                tracker.hold_until(sync.agreed().clone());
            }
        }
        for e in &mut out[before..] {
            if let Event::TakenBack { clock_proposal, .. } = e {
                *clock_proposal = proposal;
            }
        }
        self.adopt_targets(t, out);
        Ok(())
    }

    /// Starts a chess game: the boards' trackers and the two-board record.
    pub(crate) fn start_chess(&mut self, game_id: String, game: Game, t: Millis) {
        let blind = (!self.cfg.blind_unsensed)
            .then(|| BoardTracker::new(self.cfg.tracker, game.clone(), self.sensed[BoardRole::Blind], t));
        let pegs = self.cfg.mirror_sensed && !self.cfg.mirror_pieces;
        let mirror = pegs
            .then(|| BoardTracker::new(self.cfg.tracker, game.clone(), self.sensed[BoardRole::Mirror], t));
        let piece_cfg = PieceTrackerConfig { settle_ms: self.cfg.tracker.settle_ms };
        let pieces = self
            .cfg
            .mirror_pieces
            .then(|| PieceTracker::new(piece_cfg, game.clone(), self.mirror_board().clone(), t));
        self.clocking.pressed_ply = game.ply();
        self.rulings.draw_offers.clear();
        let shown = game.position().board().occupied();
        self.clocking.clock = self.new_clock(Side::from(game.position().turn()), shown, t);
        self.clocking.warnings = WarningSchedule::new(self.cfg.warnings.clone());
        let mut sync = TwoBoards::new(self.cfg.sync(), game.clone());
        if self.cfg.blind_unsensed {
            sync = sync.without_blind_board();
        }
        if let Some(clock) = &self.clocking.clock {
            sync.record_clock(game.ply(), clock.remaining(Side::White, t), clock.remaining(Side::Black, t));
        }
        self.seat.play =
            Some(Play::Chess(Box::new(ChessPlay::new(ByBoard::new(blind, mirror), pieces, sync))));
        self.game_id = Some(game_id);
        self.phase = Phase::Playing;
    }

    /// Turns a tracker's observations into events and keeps the agreed record.
    fn settle_observations(&mut self, role: BoardRole, t: Millis, out: &mut Vec<Event>) {
        if self.seat.chess().is_none_or(|c| c.scratch.is_empty()) {
            return;
        }
        self.said_promotion_first(role);
        let c = self.seat.chess_mut().expect("observations come from the chess play");
        let tracker = c.trackers[role].as_ref().expect("observations come from a tracker");
        let record_changed = c.scratch.iter().any(|o| {
            matches!(
                o,
                Observation::Moved { .. } | Observation::Revised { .. } | Observation::PutRight { .. }
            )
        });
        let made = tracker.made_at().min(t);
        observation_events(tracker.game(), role, c.scratch.drain(..), out);
        let before = out.len();
        if record_changed {
            c.sync.board_record(role, tracker.game(), t, out);
        }
        self.adopt_targets(t, out);
        let blind_moved = out[before..].iter().rev().find_map(|e| match e {
            Event::GameMove { ply, .. } => Some(*ply),
            _ => None,
        });
        let said_early = self.seat.chess().and_then(|c| c.said_early);
        if let (Some(ply), Some((said, said_at))) = (blind_moved, said_early) {
            let mover = self.agreed().and_then(|g| g.position_at(ply - 1)).map(|p| Side::from(p.turn()));
            if mover == Some(Side::from(self.cfg.blind_color)) {
                if let Some(c) = self.seat.chess_mut() {
                    c.said_early = None;
                }
                self.check_announcement(ply, said, made.max(said_at).min(t), t, out);
            }
        }
        self.auto_press_made(before, made, t, out);
        self.check_game_over(t, out);
    }

    /// His promotion piece, said before his pegs showed the promotion (they
    /// cannot show the piece), is the piece of the move as it is decided: the
    /// move is said and recorded once, never as a queen corrected a moment later.
    fn said_promotion_first(&mut self, role: BoardRole) {
        let Some(c) = self.seat.chess_mut() else { return };
        let Some((said, _)) = c.said_early else { return };
        let (Some(piece), Some(tracker)) = (said.promotion(), c.trackers[role].as_mut()) else { return };
        let last_ply = tracker.game().ply();
        for o in &mut c.scratch {
            if let Observation::Moved { ply, mv, promotion_assumed, .. } = o
                && *promotion_assumed
                && *ply == last_ply
                && (mv.from(), mv.to()) == (said.from(), said.to())
                && let Some(corrected) = tracker.set_promotion(piece)
            {
                *mv = corrected;
                *promotion_assumed = false;
            }
        }
    }

    /// The piece tracker's observations as events, and the agreed record kept.
    fn after_pieces(&mut self, t: Millis, out: &mut Vec<Event>) {
        let Some(c) = self.seat.chess_mut().filter(|c| !c.piece_scratch.is_empty()) else { return };
        let tracker = c.pieces.as_ref().expect("observations come from the piece tracker");
        let game = tracker.game();
        let board = BoardRole::Mirror;
        let mut record_changed = false;
        for obs in c.piece_scratch.drain(..) {
            match obs {
                PieceObservation::Lifted { square, piece, t } => {
                    out.push(observed::touch_event(board, square, piece, t))
                }
                PieceObservation::PutBack { square, piece, t } => out.push(Event::PieceReturned {
                    board,
                    square: square.to_string(),
                    piece: piece.char().to_string(),
                    t_ms: t,
                }),
                PieceObservation::Moved { ply, mv, t } => {
                    record_changed = true;
                    out.push(move_event(game, board, ply, mv, false, t));
                }
                PieceObservation::Revised { ply, mv, replaces, t } => {
                    record_changed = true;
                    out.push(revised_event(game, board, ply, mv, replaces, t));
                }
                PieceObservation::Mismatch { reason, diff, candidates, takeback_to_ply, t } => {
                    out.push(Event::BoardMismatch {
                        board,
                        reason,
                        diff: diff.iter().map(|d| d.to_square_diff()).collect(),
                        candidates: candidates.iter().map(|m| game.played(*m).into()).collect(),
                        takeback_to_ply,
                        t_ms: t,
                    })
                }
                PieceObservation::Restored { t } => out.push(Event::BoardRestored { board, t_ms: t }),
            }
        }
        let made = tracker.made_at().min(t);
        let before = out.len();
        if record_changed {
            c.sync.board_record(board, tracker.game(), t, out);
        }
        self.adopt_targets(t, out);
        self.auto_press_made(before, made, t, out);
        self.check_game_over(t, out);
    }

    /// A board put right shows its target position: its tracker takes the record over.
    fn adopt_targets(&mut self, t: Millis, out: &mut Vec<Event>) {
        let ChessPlay { trackers, pieces, sync, .. } =
            self.seat.chess_mut().expect("playing chess has a sync");
        if let (Some(p), Some(target)) = (pieces.as_mut(), sync.target_for(BoardRole::Mirror)) {
            // Only a settled board is taken over; a board still settling decides for itself.
            let settled = p.deadline().is_none();
            if settled && p.sensed() == target.position().board() && p.game().moves() != target.moves() {
                let common = p.game().moves().iter().zip(target.moves()).take_while(|(a, b)| a == b).count();
                p.take_back(common, t);
                let mut silent = Vec::new();
                for &mv in &target.moves()[common..] {
                    p.apply_move(mv, t, &mut silent);
                }
                sync.board_record(BoardRole::Mirror, p.game(), t, out);
            }
        }
        for role in BoardRole::ALL {
            let Some(tracker) = trackers[role].as_mut() else { continue };
            let Some(target) = sync.target_for(role) else { continue };
            if goes_back(tracker.game(), &target) && (tracker.held() || sync.rewind_target().is_some()) {
                // Going back: the pegs on their way back are no moves.
                tracker.hold_until(target.clone());
            }
            if tracker.held() {
                let mut put_right = Vec::new();
                tracker.release_if_put_right(t, &mut put_right);
                if !put_right.is_empty() {
                    sync.board_record(role, tracker.game(), t, out);
                }
                continue;
            }
            let settled = tracker.deadline().is_none();
            if settled && tracker.sensed() == target.occupancy() && tracker.game().moves() != target.moves() {
                tracker.adopt(target);
                sync.board_record(role, tracker.game(), t, out);
            }
        }
        self.clock_follows_record(t, out);
    }

    fn check_game_over(&mut self, t: Millis, out: &mut Vec<Event>) {
        if self.phase != Phase::Playing {
            return;
        }
        let Some(agreed) = self.agreed() else { return };
        let Outcome::Known(outcome) = agreed.outcome() else { return };
        let reason = match outcome {
            KnownOutcome::Decisive { .. } => "checkmate",
            KnownOutcome::Draw if agreed.position().legal_moves().is_empty() => "stalemate",
            KnownOutcome::Draw => "insufficient_material",
        };
        out.push(game_over(&outcome.to_string(), reason, t));
        self.phase = Phase::Finished;
        self.stillness.settled = true;
    }
}

/// The `clock_changed` event of a change `who` (the arbiter, the station)
/// made for a reason (`why`): `side`'s clock, or both when `None`.
pub(crate) fn clock_changed(
    action: &str,
    side: Option<Side>,
    who: &str,
    why: impl Into<String>,
    t: Millis,
) -> Event {
    Event::ClockChanged {
        action: action.into(),
        side,
        who: Some(who.into()),
        why: Some(why.into()),
        added_ms: None,
        remaining_ms: None,
        t_ms: t,
    }
}

/// A `clock_changed` event of a correction of `side`'s time (`time_set`, or
/// `time_added` with `added`), with the time his clock shows now: the PGN
/// says what changed, so the next `[%clk]` does not jump unexplained.
pub(crate) fn clock_corrected(
    side: Side,
    added: Option<Millis>,
    remaining: Millis,
    who: &str,
    why: impl Into<String>,
    t: Millis,
) -> Event {
    let action = if added.is_some() { "time_added" } else { "time_set" };
    let mut event = clock_changed(action, Some(side), who, why, t);
    if let Event::ClockChanged { added_ms, remaining_ms, .. } = &mut event {
        *added_ms = added;
        *remaining_ms = Some(remaining);
    }
    event
}

/// The `game_over` event of a game ended for one of the station's own reasons.
pub(crate) fn game_over(result: &str, reason: &str, t: Millis) -> Event {
    Event::GameOver {
        result: GameResult::from_text(result),
        reason: reason.into(),
        termination: Some(termination_of(reason).into()),
        t_ms: t,
    }
}

/// A move in any notation the station reads (SAN, Polish, ICCF numeric,
/// long, figurine, UCI): [`crate::notation::read`].
fn parse_move(pos: &shakmaty::Chess, text: &str) -> Option<Move> {
    crate::notation::read(pos, text)
}

mod apply;
mod config;
pub use config::{TableConfig, color_name};
mod observed;
pub(crate) use apply::board_of;
/// Whether a board's `record` goes back to `target`: it is `target` and more.
fn goes_back(record: &Game, target: &Game) -> bool {
    record.ply() > target.ply() && record.moves().starts_with(target.moves())
}

use observed::{move_event, observation_events, revised_event};
mod adjournment;
mod announcing;
mod clock_presses;
mod parts;
use parts::{Announcing, Clocking, KeptRecord, PlaySeat, Refusals, Rulings, SensedBoards, Stillness};
mod play;
use play::{ChessPlay, Play};
mod start;
pub use start::Start;
mod draughts_announce;
#[cfg(test)]
mod draughts_announce_tests;
pub mod draughts_play;
mod draughts_table;
#[cfg(test)]
mod draughts_tests;
mod draws;
mod illegal;
mod press;
pub mod rules;
pub use illegal::{ILLEGAL_MOVE_BONUS_MS, ILLEGAL_MOVES_LOSE_AT};
mod external;
#[cfg(test)]
mod tests;
