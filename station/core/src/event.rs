//! The event vocabulary: one JSON object per line on the event stream, the same
//! objects in the journal, and (later) on the console's WebSocket.
//!
//! Field names are a contract for outside tools: add fields, never rename them.

use crate::Millis;
use crate::clock::{Missing, Side, Warning};
use crate::diff::SquareDiff;
use crate::discrepancy::{BoardFix, ClockProposal, DiscrepancyKind};
use crate::draughts::DraughtsPath;
pub use crate::role::BoardRole;
use serde::{Deserialize, Serialize};

mod typed;
pub use typed::{About, Decision, DeviceState, GameResult, Listener, NotAMove, PlayedMove, SpeechEnd};

/// Why a settled board is reported as not matching the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MismatchReason {
    /// No legal move explains the board.
    Unexplained,
    /// Several legal moves explain the board and the lift sequence does not tell them apart.
    Ambiguous,
    /// The board shows the pegs of an earlier position of this game.
    Takeback,
    /// The rook was touched before the king and the board shows the castling:
    /// the rook's move stands (D.2.2, Art. 4.4.2); the king goes back.
    RookFirst,
}

/// Connection state of a board's serial line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkStatus {
    /// The port is open and talking.
    Connected,
    /// The port vanished or failed; the driver is retrying.
    Disconnected,
}

/// Something that happened, as written to the event stream.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A new game began: the board showed the initial position.
    GameStarted {
        /// Identifier of the game (and its journal file).
        game_id: String,
        /// Start position.
        fen: String,
        /// When the boards showed the start (station time, ms).
        t_ms: Millis,
        /// The game's tags (players, event, site, round, board, date), when
        /// the start named them (`new_game`); the configured ones otherwise.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tags: Option<crate::pgn::SevenTags>,
        /// The moves of a scoresheet the game was started from (UCI), already
        /// on the record before any move is made on the boards.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        moves: Vec<PlayedMove>,
    },
    /// The daemon restarted and continued an unfinished game from its journal.
    GameResumed {
        /// Identifier of the game.
        game_id: String,
        /// Half-moves already played.
        ply: usize,
        /// The moves so far, UCI (draughts: PDN).
        moves: Vec<PlayedMove>,
        /// When the restarted daemon took the game up again.
        t_ms: Millis,
    },
    /// A move was sensed as complete on a board (placed, captured piece removed).
    Move {
        /// Half-move number, 1 = White's first move.
        ply: usize,
        /// SAN with check/mate suffix.
        san: String,
        /// UCI (draughts: PDN).
        uci: PlayedMove,
        /// Where it was sensed.
        board: BoardRole,
        /// When the decision was taken.
        t_ms: Millis,
        /// Position after the move.
        fen: String,
        /// True when the promotion piece was assumed (a peg board cannot see it).
        #[serde(default, skip_serializing_if = "is_false")]
        promotion_assumed: bool,
        /// Draughts: the move in PDN (`32-28`, `28x17`, or the full path `28x17x6`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pdn: Option<DraughtsPath>,
    },
    /// The last move was replaced before the next one: the hand went on from the
    /// square where it had rested (e.g. rook first when castling).
    MoveRevised {
        /// Half-move number of the replaced move.
        ply: usize,
        /// The new SAN.
        san: String,
        /// The new UCI.
        uci: PlayedMove,
        /// The move it replaces (UCI).
        replaces: PlayedMove,
        /// Where.
        board: BoardRole,
        /// When the hand went on and the move was replaced.
        t_ms: Millis,
        /// Position after the new move.
        fen: String,
    },
    /// A peg was lifted out of its hole (D.2.2: the piece counts as touched).
    Touch {
        /// Where.
        board: BoardRole,
        /// The square, e.g. `g1`.
        square: String,
        /// FEN letter of the piece (`N` white knight, `n` black knight).
        piece: String,
        /// When the peg left its hole.
        t_ms: Millis,
    },
    /// A piece lifted on a piece-sensing board and put back on its square without
    /// moving: touch-move evidence for the assistant (D.2.10.5).
    PieceReturned {
        /// Where.
        board: BoardRole,
        /// The square.
        square: String,
        /// FEN letter of the piece.
        piece: String,
        /// When it was put back.
        t_ms: Millis,
    },
    /// A settled board that the game does not explain; nothing is guessed.
    BoardMismatch {
        /// Where.
        board: BoardRole,
        /// Why.
        reason: MismatchReason,
        /// Square by square, against the current game position.
        diff: Vec<SquareDiff>,
        /// For `ambiguous`: the legal moves (UCI) that would explain the board.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        candidates: Vec<PlayedMove>,
        /// For `takeback`: the ply whose position the board shows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        takeback_to_ply: Option<usize>,
        /// When the board had settled on what the game does not explain.
        t_ms: Millis,
    },
    /// A board that was reported as mismatching shows the game position again.
    BoardRestored {
        /// Where.
        board: BoardRole,
        /// When the board showed the game position again.
        t_ms: Millis,
    },
    /// While the station waits for a Chess960 start (ICCF Appendix B), the
    /// blind player's board, still for the settle time, differs from it:
    /// square by square, as a board mismatch says it.
    SetupDiffers {
        /// The board set up.
        board: BoardRole,
        /// Square by square, against the start position.
        diff: Vec<SquareDiff>,
        /// When the board had settled on a position other than the start.
        t_ms: Millis,
    },
    /// A board's serial link came or went.
    BoardStatus {
        /// Which board.
        board: BoardRole,
        /// `connected` or `disconnected`.
        status: LinkStatus,
        /// Why, for disconnects.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// When the link came or went.
        t_ms: Millis,
    },
    /// A board button (clock lever or tactile button).
    Button {
        /// Which board.
        board: BoardRole,
        /// Button number 0–15.
        button: u8,
        /// Pressed (true) or released.
        pressed: bool,
        /// When the button was pressed.
        t_ms: Millis,
    },
    /// The board's identity line.
    BoardIdentity {
        /// Which board.
        board: BoardRole,
        /// What it said.
        text: String,
        /// When the board sent its identity.
        t_ms: Millis,
    },
    /// A fault the board reported about itself.
    BoardFault {
        /// Which board.
        board: BoardRole,
        /// What it said.
        text: String,
        /// When the board reported the fault.
        t_ms: Millis,
    },
    /// A line from a board was dropped (bad checksum, too long, malformed …).
    LineDropped {
        /// Which board.
        board: BoardRole,
        /// Why.
        reason: String,
        /// Lines dropped from this board so far.
        total: u64,
        /// When the line arrived.
        t_ms: Millis,
    },
    /// The agreed record grew (or its last move was revised before the other
    /// board executed it): this is the move that is announced.
    GameMove {
        /// Half-move number.
        ply: usize,
        /// SAN with check/mate suffix.
        san: String,
        /// UCI (draughts: PDN).
        uci: PlayedMove,
        /// The board it was made on (its side's owner).
        by: BoardRole,
        /// True when it replaces the previous announcement of this ply.
        #[serde(default, skip_serializing_if = "is_false")]
        revised: bool,
        /// When the record grew (the move is made, D.2.3).
        t_ms: Millis,
        /// Draughts: the move in PDN (`32-28`, `28x17`, or the full path `28x17x6`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pdn: Option<DraughtsPath>,
    },
    /// The game was adjourned with a sealed move (Guidelines I): the move is in
    /// the journal (the envelope), never in an event.
    Adjourned {
        /// The ply of the sealed move.
        ply: usize,
        /// When the game was adjourned.
        t_ms: Millis,
    },
    /// An adjourned game resumed; the sealed move follows as a `game_move`.
    AdjournmentResumed {
        /// When play resumed.
        t_ms: Millis,
    },
    /// The blind player's spoken announcement was checked against his board
    /// (D.2.3.3); a mismatch is a slip of the tongue or a wrong execution that
    /// must be corrected before the opponent's clock starts (D.2.8).
    AnnouncementChecked {
        /// The ply of the move announced.
        ply: usize,
        /// What he said (UCI; draughts: PDN).
        said: PlayedMove,
        /// What his board shows (UCI; draughts: PDN).
        sensed: PlayedMove,
        /// They agree.
        matches: bool,
        /// When the announcement was compared with the board.
        t_ms: Millis,
    },
    /// The arbiter took the last agreed move back; the boards must follow.
    TakenBack {
        /// The ply that was removed.
        ply: usize,
        /// When the arbiter took the move back.
        t_ms: Millis,
        /// The arbiter's take-back of a move whose clock was pressed: the
        /// readings as they were before it (the mover's time spent on it given
        /// back, its increment withdrawn), for him to accept or not (Art. 7,
        /// as a D.2.9 proposal).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock_proposal: Option<ClockProposal>,
    },
    /// The two boards (or the two records) differ: D.2.9.
    Discrepancy {
        /// Identifier, for `discrepancy_resolved`.
        id: u64,
        /// `execution` (records agree, a board is wrong) or `records`.
        kind: DiscrepancyKind,
        /// The board to correct (execution), or none (records: every board).
        board: Option<BoardRole>,
        /// The ply of the position every board must show.
        agreed_ply: usize,
        /// Per board, the steps that correct it.
        fix: Vec<BoardFix>,
        /// For records: the clock readings at `agreed_ply`, for the arbiter to confirm.
        clock_proposal: Option<ClockProposal>,
        /// When the boards were found to differ.
        t_ms: Millis,
    },
    /// A discrepancy is over: every board shows the agreed position.
    DiscrepancyResolved {
        /// The discrepancy's identifier.
        id: u64,
        /// When the last board showed the agreed position.
        t_ms: Millis,
    },
    /// A clock button was pressed and accepted: the opponent's clock runs.
    ClockPressed {
        /// The side that completed its move (`white`/`black`).
        side: Side,
        /// The ply of the move the press closed (its clock time goes on the record).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
        /// Its remaining time after bonus.
        remaining_ms: u64,
        /// Moves that side has made.
        moves: u32,
        /// When the press arrived.
        t_ms: Millis,
        /// When the move was made, where that was before the press counted (the
        /// station decided it later and pressed for him): his time ran to here,
        /// the opponent's from here.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        made_ms: Option<Millis>,
    },
    /// A clock press before the move was made (D.2.4): recorded, not accepted;
    /// the player is told privately.
    ClockPremature {
        /// Who pressed.
        side: Side,
        /// What was still missing (`placement`, `captured_piece_removal`, `announcement`).
        missing: Vec<Missing>,
        /// When the early press arrived.
        t_ms: Millis,
    },
    /// The clock was started, paused, resumed or corrected by the operator.
    ClockChanged {
        /// `started`, `paused`, `resumed`, `time_set`, `moves_set`.
        action: String,
        /// The side concerned, for corrections.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        /// Who (for corrections).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        who: Option<String>,
        /// Why (for corrections).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        why: Option<String>,
        /// `time_added`: how much was added.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        added_ms: Option<Millis>,
        /// `time_set` and `time_added`: the side's time once corrected.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        remaining_ms: Option<Millis>,
        /// When the operator changed the clock.
        t_ms: Millis,
    },
    /// A spoken time warning is due (D.2.6.1).
    ClockWarning {
        /// The warning.
        warning: Warning,
        /// When the warning fell due.
        t_ms: Millis,
    },
    /// A flag fell (Article 6.1); the arbiter decides what follows.
    FlagFell {
        /// Whose.
        side: Side,
        /// The exact time it fell.
        t_ms: Millis,
    },
    /// Something was said to a listener (every announcement is also text).
    Announcement {
        /// `private` (the blind player's earphone) or `public` (the opponent's speaker).
        listener: Listener,
        /// What was said.
        text: String,
        /// What it was about (`move`, `correction`, `clock`, `warning`, `status`, `result`).
        about: About,
        /// When it was queued to be said.
        t_ms: Millis,
    },
    /// An input the table refused (an illegal entered move, a press without a
    /// clock, a damaged value): journaled with its reason, counted, never dropped.
    InputRefused {
        /// The input's kind (`enter_move`, `clock_press`, `scan` …).
        input: String,
        /// Why.
        reason: String,
        /// When the input was refused.
        t_ms: Millis,
    },
    /// A device other than a board came, went or is unavailable (gamepad, clock, microphone).
    DeviceStatus {
        /// `gamepad`, `dgt_clock`, `microphone` ….
        device: String,
        /// Its name, if it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// `connected`, `disconnected` or `unavailable`.
        status: DeviceState,
        /// Why, for `unavailable`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        detail: Option<String>,
        /// The words a speech model lacks (`speech_model`, status
        /// `missing_words`, issue 24): the player cannot be heard saying them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        words: Vec<String>,
        /// When the device came, went or was found unavailable.
        t_ms: Millis,
    },
    /// The recogniser heard the blind player (speech input): what it heard,
    /// how sure it was, and what the station understood.
    Heard {
        /// The words heard, lower-case ("" when nothing).
        text: String,
        /// The weakest word's confidence (0–1).
        confidence: f32,
        /// What it means: `move UCI SAN`, `ask UCI…`, `command NAME`, `reject REASON`
        /// (the `station understand` line).
        understood: String,
        /// Recognition time after the end of the utterance, ms.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        latency_ms: Option<u64>,
        /// When the recogniser gave its result.
        t_ms: Millis,
    },
    /// A draw offer (Art. 9.1), marked "(=)" after the offering player's last
    /// move in the record and the PGN (Appendix E).
    DrawOffered {
        /// Who offered.
        side: Side,
        /// The ply the mark follows (0: before the first move).
        ply: usize,
        /// When the offer was made.
        t_ms: Millis,
    },
    /// A draw claim (Art. 9.2/9.3) checked against the record; both clocks
    /// stop (9.5) until the arbiter confirms the station's verdict.
    DrawClaimed {
        /// The claimant (the player to move).
        side: Side,
        /// The ply of the position the claim was made in.
        ply: usize,
        /// His written move not yet played (9.2(a)/9.3(a)), SAN.
        #[serde(default, skip_serializing_if = "Option::is_none", with = "typed::opt_text")]
        written: Option<shakmaty::san::SanPlus>,
        /// The record upholds it.
        correct: bool,
        /// `threefold_repetition` or `fifty_moves` when correct.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ground: Option<String>,
        /// How often the position claimed about has occurred (Art. 9.2).
        repetitions: u32,
        /// Moves of both players without a pawn move or a capture (Art. 9.3).
        moves_without_pawn_or_capture: u32,
        /// When the claim was made.
        t_ms: Millis,
    },
    /// The arbiter confirmed the verdict on a draw claim: a correct one ends the
    /// game (a `game_over` follows); an incorrect one costs the claimant time
    /// and gives his opponent three minutes (9.5, `clock_changed` events), and
    /// a written move is played.
    DrawClaimDecided {
        /// The claimant.
        side: Side,
        /// The claim was correct.
        correct: bool,
        /// When the claim was decided.
        t_ms: Millis,
    },
    /// The arbiter found an illegal move (Art. 7.4): the record went back to
    /// the position before it (`taken_back` events, the boards' correction
    /// steps follow); the clocks are set as they were then and the opponent
    /// gets two minutes, or the offender loses at his third (`game_over`).
    IllegalMoveFound {
        /// The ply of the illegal move.
        ply: usize,
        /// Who made it.
        side: Side,
        /// The move taken back (UCI).
        uci: PlayedMove,
        /// His illegal moves in this game, this one included.
        count: u32,
        /// When the arbiter recorded the illegal move.
        t_ms: Millis,
    },
    /// Draughts: a board shows an irregularity of 5.4 (named to both players
    /// and the console; the opponent decides, 5.4 and 5.9: the assistant
    /// enters `accept` or `correct`), or a board that does not show the game
    /// (VIII.2.4, VIII.3.1) with what puts it right.
    Irregularity {
        /// Where.
        board: BoardRole,
        /// The article of the code (`5.4.6`, `VIII.3.1`).
        article: String,
        /// What the board shows, in words.
        text: String,
        /// What puts the board right, square by square (`put a white man on 28`).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps: Vec<String>,
        /// Whether the opponent is asked to decide (`accept` / `correct`).
        #[serde(default, skip_serializing_if = "is_false")]
        decision_wanted: bool,
        /// The case, for wording in any language: `two_moves_in_a_row`,
        /// `wrong_direction`, `opponents_piece`, `capture_omitted`,
        /// `fewer_than_maximum`, `not_all_removed`, `wrong_piece_removed`
        /// (5.4), `removal_order` (5.4.10), `boards_differ` (VIII.3.1),
        /// `not_executed` (VIII.2.4).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        kind: String,
        /// The moves involved, in PDN (for `two_moves_in_a_row` both; for
        /// `boards_differ` the board's move, then the game's).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        moves: Vec<DraughtsPath>,
        /// The move number (ply, 1-based) concerned, where the case names one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<usize>,
        /// Pieces that had to be captured (5.4.6, 5.4.8).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        required: Option<usize>,
        /// Pieces the move captured (5.4.8).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        taken: Option<usize>,
        /// The squares concerned (pieces left or wrongly removed).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        squares: Vec<String>,
        /// `steps` as structured fixes, square by square.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fixes: Vec<PieceFix>,
        /// When the board had settled on the irregular position.
        t_ms: Millis,
    },
    /// Draughts: the opponent's decision on an irregularity: `accept` (the
    /// position stands and play goes on from it, 5.7) or `correct` (what to
    /// put back, square by square).
    IrregularityDecided {
        /// `accept` or `correct`.
        decision: Decision,
        /// The board concerned.
        board: BoardRole,
        /// For `correct`: the steps, square by square.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps: Vec<String>,
        /// `steps` as structured fixes, square by square.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        fixes: Vec<PieceFix>,
        /// When the opponent or the arbiter decided.
        t_ms: Millis,
    },
    /// The game ended: on the board (mate, stalemate, dead position), by a
    /// resignation, a draw agreed or claimed, or the arbiter's `result`.
    GameOver {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: GameResult,
        /// `checkmate`, `stalemate`, `insufficient_material`, `resignation`,
        /// `new_game`, `agreement`, `threefold_repetition`, `fifty_moves`; in
        /// draughts `no_pieces`, `no_move` (7.2.3, 7.2.2; `2-0`/`0-2`) and the
        /// draws of article 6 (`1-1`): `threefold_repetition` (6.1),
        /// `king_moves` (6.2), `long_ending` (6.3), `short_ending` (6.4); after the
        /// arbiter's `result` command, his own words ("White resigned").
        reason: String,
        /// The PGN `Termination` value: `normal`, `time forfeit`, `adjudication`,
        /// `rules infraction`, `abandoned`, `unterminated`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        termination: Option<String>,
        /// When the game ended.
        t_ms: Millis,
    },
}

/// One step that puts a draughts board right: `remove` the piece on a
/// square, or `put` a piece (colour, man or king) on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceFix {
    /// `remove` or `put`.
    pub action: String,
    /// The square in the board's own names (`28`, `c3`).
    pub square: String,
    /// For `put`: `white` or `black`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// For `put`: `man` or `king`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Event {
    /// The event's time.
    pub fn t_ms(&self) -> Millis {
        match self {
            Event::GameStarted { t_ms, .. }
            | Event::GameResumed { t_ms, .. }
            | Event::Move { t_ms, .. }
            | Event::MoveRevised { t_ms, .. }
            | Event::Touch { t_ms, .. }
            | Event::PieceReturned { t_ms, .. }
            | Event::BoardMismatch { t_ms, .. }
            | Event::BoardRestored { t_ms, .. }
            | Event::SetupDiffers { t_ms, .. }
            | Event::BoardStatus { t_ms, .. }
            | Event::Button { t_ms, .. }
            | Event::BoardIdentity { t_ms, .. }
            | Event::BoardFault { t_ms, .. }
            | Event::LineDropped { t_ms, .. }
            | Event::GameMove { t_ms, .. }
            | Event::TakenBack { t_ms, .. }
            | Event::AnnouncementChecked { t_ms, .. }
            | Event::Adjourned { t_ms, .. }
            | Event::AdjournmentResumed { t_ms, .. }
            | Event::ClockPressed { t_ms, .. }
            | Event::Announcement { t_ms, .. }
            | Event::DeviceStatus { t_ms, .. }
            | Event::InputRefused { t_ms, .. }
            | Event::Heard { t_ms, .. }
            | Event::ClockPremature { t_ms, .. }
            | Event::ClockChanged { t_ms, .. }
            | Event::ClockWarning { t_ms, .. }
            | Event::FlagFell { t_ms, .. }
            | Event::Discrepancy { t_ms, .. }
            | Event::DiscrepancyResolved { t_ms, .. }
            | Event::DrawOffered { t_ms, .. }
            | Event::DrawClaimed { t_ms, .. }
            | Event::DrawClaimDecided { t_ms, .. }
            | Event::IllegalMoveFound { t_ms, .. }
            | Event::Irregularity { t_ms, .. }
            | Event::IrregularityDecided { t_ms, .. }
            | Event::GameOver { t_ms, .. } => *t_ms,
        }
    }

    /// One JSON line (without the newline).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("events always serialise")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_event_has_the_contract_fields() {
        let e = Event::Move {
            ply: 1,
            san: "e4".into(),
            uci: "e2e4".into(),
            board: BoardRole::Blind,
            t_ms: 1200,
            fen: "x".into(),
            promotion_assumed: false,
            pdn: None,
        };
        let v: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(v["type"], "move");
        assert_eq!(v["ply"], 1);
        assert_eq!(v["san"], "e4");
        assert_eq!(v["uci"], "e2e4");
        assert_eq!(v["board"], "blind");
        assert_eq!(v["t_ms"], 1200);
        assert!(v.get("promotion_assumed").is_none());
        let back: Event = serde_json::from_value(v).unwrap();
        assert_eq!(back, e);
    }

    /// Issue 37: a draughts move travels typed and writes the text it was read from.
    #[test]
    fn a_draughts_move_is_typed_and_writes_its_text_back() {
        let line = r#"{"type":"game_move","ply":3,"san":"28x17x6","uci":"28x17x6","by":"blind","t_ms":9,"pdn":"28x17x6"}"#;
        let e: Event = serde_json::from_str(line).unwrap();
        let Event::GameMove { uci: PlayedMove::Draughts(path), pdn: Some(pdn), .. } = &e else {
            panic!("{e:?}")
        };
        assert!(path.is_capture() && path.squares().len() == 3 && path == pdn);
        assert_eq!(e.to_json(), line);
        for text in ["e2e4", "e7e8q", "32-28", "c3-d4", ""] {
            assert_eq!(text.parse::<PlayedMove>().map(|m| m.to_string()).as_deref(), Ok(text));
        }
        assert_eq!(PlayedMove::from_text("e2e4"), PlayedMove::Chess("e2e4".parse().unwrap()));
        for text in ["E2E4", "32 - 28", "Nf3"] {
            assert!(text.parse::<PlayedMove>().is_err(), "{text}");
        }
    }

    #[test]
    fn status_and_touch_events_use_the_documented_spelling() {
        let s = Event::BoardStatus {
            board: BoardRole::Blind,
            status: LinkStatus::Connected,
            detail: None,
            t_ms: 0,
        };
        assert_eq!(s.to_json(), r#"{"type":"board_status","board":"blind","status":"connected","t_ms":0}"#);
        let t = Event::Touch { board: BoardRole::Blind, square: "g1".into(), piece: "N".into(), t_ms: 5 };
        assert_eq!(t.to_json(), r#"{"type":"touch","board":"blind","square":"g1","piece":"N","t_ms":5}"#);
    }
}
