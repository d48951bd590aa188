//! The station's own spoken messages, keyed by stable ids.

/// A message the station speaks about itself rather than about a move.
///
/// The id (see [`Message::id`]) is the key in a phrasebook's `[messages]` table;
/// every phrasebook must define all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Message {
    /// The station has started and is ready.
    StationReady,
    /// The electronic board answered.
    BoardConnected,
    /// The electronic board stopped answering.
    BoardDisconnected,
    /// The two boards show different positions (Annex D.2.9).
    BoardMismatch,
    /// A piece was lifted out of its hole (touched, Annex D.2.2).
    PieceLifted,
    /// The move was announced (Annex D.2.3.3).
    MoveAnnounced,
    /// The station waits for a move.
    WaitingForMove,
    /// It is the listener's turn.
    YourMove,
    /// The move on the board is not legal.
    IllegalMove,
    /// The board must be put back in order.
    CorrectPosition,
    /// Castling begun with the rook (Art. 4.4.2): the rook's move stands, the king goes back.
    RookFirst,
    /// The board fits several moves: which was it (his announcement tells, D.2.3)?
    WhichMove,
    /// The board is in order again.
    PositionRestored,
    /// Something the station cannot settle; the arbiter must decide.
    CallArbiter,
    /// The game has ended.
    GameOver,
    /// The DGT clock stopped answering (its times are not read any more).
    ClockNotAnswering,
    /// The DGT clock answers again.
    ClockAnswering,
    /// The gamepad or foot switch was unplugged.
    GamepadDisconnected,
    /// The gamepad or foot switch is back.
    GamepadConnected,
    /// Spoken moves are not heard (no model, no microphone): announce to the
    /// assistant instead.
    SpeechUnavailable,
    /// The microphone is back: spoken moves are heard again.
    SpeechAvailable,
    /// The blind player's board differs from the game (one board, no second to compare).
    BoardDiffers,
    /// A square that should hold a piece is empty: `{square}` and `{piece}` are filled in.
    SquareMissing,
    /// A square holds a peg it should not: `{square}` is filled in.
    SquareExtra,
    /// The game's journal was damaged; it was kept aside and the game goes on.
    JournalDamaged,
    /// The DGT clock refused to be set: it is not in mode 23 (the arbiter switches it).
    ClockNotInMode23,
    /// Draw facts (Art. 9.2): the position stands on the board for the first time.
    PositionFirstTime,
    /// ... for the second time.
    PositionSecondTime,
    /// ... for the third time.
    PositionThirdTime,
    /// ... for the `{n}`th time (four and more).
    PositionTimes,
    /// Draw facts (Art. 9.3): `{moves}` (a count of moves in words) without a pawn move or capture.
    MovesWithoutPawnOrCapture,
    /// Moves taken back (a take-back, D.2.9): `{moves}` is the moves in words.
    TakenBack,
    /// An illegal move taken back (Art. 7.4): `{moves}` is the moves in words.
    IllegalTakenBack,
    /// A captured piece to put back: `{piece}` on `{square}`.
    PieceBack,
    /// A piece to take off the board (a promotion taken back): `{piece}` from `{square}`.
    PieceOff,
    /// It is the opponent's turn (after a take-back).
    OpponentToMove,
    /// The listener claims a draw (Art. 9.2/9.3).
    YouClaimDraw,
    /// The listener's opponent claims a draw (Art. 9.2/9.3).
    OpponentClaimsDraw,
    /// The written move of a draw claim: `{move}` in words.
    ClaimWritten,
    /// The ground of a correct claim: the position for the third time (Art. 9.2).
    GroundThreefold,
    /// The ground of a correct claim: fifty moves without a pawn move or capture (Art. 9.3).
    GroundFiftyMoves,
    /// Both clocks stopped, the arbiter decides (Art. 9.5).
    ClocksStopped,
    /// The arbiter upheld the draw claim.
    ClaimUpheld,
    /// The arbiter rejected the draw claim: play goes on.
    ClaimRejected,
    /// Time added to a clock: `{who}`, `{amount}` added, `{time}` now.
    TimeAdded,
    /// A clock set: `{who}`, `{time}` now.
    TimeSet,
    /// The clock's move counter set: `{moves}` (a count of moves in words).
    MovesSet,
    /// Heads a move that replaces the one announced before.
    MoveRevised,
    /// The blind player's board shows the game again.
    BoardRightAgain,
    /// White (the side), in a result.
    White,
    /// Black (the side), in a result.
    Black,
    /// `{side}` won the game.
    Wins,
    /// The game is drawn.
    Drawn,
    /// The game ended without a result.
    NoResult,
    /// `{result}` by checkmate.
    ResultCheckmate,
    /// `{result}`: `{loser}` resigned.
    ResultResignation,
    /// `{result}` by agreement.
    ResultAgreement,
    /// `{result}` by stalemate.
    ResultStalemate,
    /// `{result}` by threefold repetition (Art. 9.2; draughts 6.1).
    ResultThreefold,
    /// `{result}` by the fifty-move rule (Art. 9.3).
    ResultFiftyMoves,
    /// `{result}`: no mate is possible any more.
    ResultInsufficientMaterial,
    /// `{result}`: `{loser}` made too many illegal moves (Art. 7.4).
    ResultIllegalMoves,
    /// `{result}`: a new game begins.
    ResultNewGame,
    /// `{result}`: `{loser}` lost on time.
    ResultTimeForfeit,
    /// `{result}` by the arbiter's decision.
    ResultAdjudication,
    /// `{result}`: a rules infraction by `{loser}`.
    ResultInfraction,
    /// `{result}`: the game was abandoned.
    ResultAbandoned,
    /// Draughts (7.2.3): `{result}`, `{loser}` has no pieces left.
    ResultNoPieces,
    /// Draughts (7.2.2): `{result}`, `{loser}` cannot move.
    ResultNoMove,
    /// Draughts (6.2): `{result}`, only king moves.
    ResultKingMoves,
    /// Draughts (6.3, 6.4): `{result}`, an ending against a lone king.
    ResultEnding,
}

impl Message {
    /// Every message, in a fixed order.
    pub const ALL: [Message; 71] = [
        Message::StationReady,
        Message::BoardConnected,
        Message::BoardDisconnected,
        Message::BoardMismatch,
        Message::PieceLifted,
        Message::MoveAnnounced,
        Message::WaitingForMove,
        Message::YourMove,
        Message::IllegalMove,
        Message::CorrectPosition,
        Message::RookFirst,
        Message::WhichMove,
        Message::PositionRestored,
        Message::CallArbiter,
        Message::GameOver,
        Message::ClockNotAnswering,
        Message::ClockAnswering,
        Message::GamepadDisconnected,
        Message::GamepadConnected,
        Message::SpeechUnavailable,
        Message::SpeechAvailable,
        Message::BoardDiffers,
        Message::SquareMissing,
        Message::SquareExtra,
        Message::JournalDamaged,
        Message::ClockNotInMode23,
        Message::PositionFirstTime,
        Message::PositionSecondTime,
        Message::PositionThirdTime,
        Message::PositionTimes,
        Message::MovesWithoutPawnOrCapture,
        Message::TakenBack,
        Message::IllegalTakenBack,
        Message::PieceBack,
        Message::PieceOff,
        Message::OpponentToMove,
        Message::YouClaimDraw,
        Message::OpponentClaimsDraw,
        Message::ClaimWritten,
        Message::GroundThreefold,
        Message::GroundFiftyMoves,
        Message::ClocksStopped,
        Message::ClaimUpheld,
        Message::ClaimRejected,
        Message::TimeAdded,
        Message::TimeSet,
        Message::MovesSet,
        Message::MoveRevised,
        Message::BoardRightAgain,
        Message::White,
        Message::Black,
        Message::Wins,
        Message::Drawn,
        Message::NoResult,
        Message::ResultCheckmate,
        Message::ResultResignation,
        Message::ResultAgreement,
        Message::ResultStalemate,
        Message::ResultThreefold,
        Message::ResultFiftyMoves,
        Message::ResultInsufficientMaterial,
        Message::ResultIllegalMoves,
        Message::ResultNewGame,
        Message::ResultTimeForfeit,
        Message::ResultAdjudication,
        Message::ResultInfraction,
        Message::ResultAbandoned,
        Message::ResultNoPieces,
        Message::ResultNoMove,
        Message::ResultKingMoves,
        Message::ResultEnding,
    ];

    /// The key of this message in a phrasebook's `[messages]` table.
    pub fn id(self) -> &'static str {
        match self {
            Message::StationReady => "station_ready",
            Message::BoardConnected => "board_connected",
            Message::BoardDisconnected => "board_disconnected",
            Message::BoardMismatch => "board_mismatch",
            Message::PieceLifted => "piece_lifted",
            Message::MoveAnnounced => "move_announced",
            Message::WaitingForMove => "waiting_for_move",
            Message::YourMove => "your_move",
            Message::IllegalMove => "illegal_move",
            Message::CorrectPosition => "correct_position",
            Message::RookFirst => "rook_first",
            Message::WhichMove => "which_move",
            Message::PositionRestored => "position_restored",
            Message::CallArbiter => "call_arbiter",
            Message::GameOver => "game_over",
            Message::ClockNotAnswering => "clock_not_answering",
            Message::ClockAnswering => "clock_answering",
            Message::GamepadDisconnected => "gamepad_disconnected",
            Message::GamepadConnected => "gamepad_connected",
            Message::SpeechUnavailable => "speech_unavailable",
            Message::SpeechAvailable => "speech_available",
            Message::BoardDiffers => "board_differs",
            Message::SquareMissing => "square_missing",
            Message::SquareExtra => "square_extra",
            Message::JournalDamaged => "journal_damaged",
            Message::ClockNotInMode23 => "clock_not_in_mode_23",
            Message::PositionFirstTime => "position_first_time",
            Message::PositionSecondTime => "position_second_time",
            Message::PositionThirdTime => "position_third_time",
            Message::PositionTimes => "position_times",
            Message::MovesWithoutPawnOrCapture => "moves_without_pawn_or_capture",
            Message::TakenBack => "taken_back",
            Message::IllegalTakenBack => "illegal_taken_back",
            Message::PieceBack => "piece_back",
            Message::PieceOff => "piece_off",
            Message::OpponentToMove => "opponent_to_move",
            Message::YouClaimDraw => "you_claim_draw",
            Message::OpponentClaimsDraw => "opponent_claims_draw",
            Message::ClaimWritten => "claim_written",
            Message::GroundThreefold => "ground_threefold",
            Message::GroundFiftyMoves => "ground_fifty_moves",
            Message::ClocksStopped => "clocks_stopped",
            Message::ClaimUpheld => "claim_upheld",
            Message::ClaimRejected => "claim_rejected",
            Message::TimeAdded => "time_added",
            Message::TimeSet => "time_set",
            Message::MovesSet => "moves_set",
            Message::MoveRevised => "move_revised",
            Message::BoardRightAgain => "board_right_again",
            Message::White => "white",
            Message::Black => "black",
            Message::Wins => "wins",
            Message::Drawn => "drawn",
            Message::NoResult => "no_result",
            Message::ResultCheckmate => "result_checkmate",
            Message::ResultResignation => "result_resignation",
            Message::ResultAgreement => "result_agreement",
            Message::ResultStalemate => "result_stalemate",
            Message::ResultThreefold => "result_threefold",
            Message::ResultFiftyMoves => "result_fifty_moves",
            Message::ResultInsufficientMaterial => "result_insufficient_material",
            Message::ResultIllegalMoves => "result_illegal_moves",
            Message::ResultNewGame => "result_new_game",
            Message::ResultTimeForfeit => "result_time_forfeit",
            Message::ResultAdjudication => "result_adjudication",
            Message::ResultInfraction => "result_infraction",
            Message::ResultAbandoned => "result_abandoned",
            Message::ResultNoPieces => "result_no_pieces",
            Message::ResultNoMove => "result_no_move",
            Message::ResultKingMoves => "result_king_moves",
            Message::ResultEnding => "result_ending",
        }
    }

    /// The message with this id, if any.
    pub fn from_id(id: &str) -> Option<Message> {
        Message::ALL.into_iter().find(|m| m.id() == id)
    }

    /// Whether a loaded phrasebook may leave this message out (it is then
    /// said in English): the messages added after phrasebooks were written
    /// for other languages, from the take-back on (issue 22). Every built-in
    /// book has them all (checked by a test).
    pub fn is_optional(self) -> bool {
        self.index() >= Message::TakenBack.index()
    }

    fn index(self) -> usize {
        // `ALL` lists the variants in declaration order (checked by a test).
        self as usize
    }
}

/// The texts of all messages of one phrasebook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Messages(pub(crate) [crate::Entry; Message::ALL.len()]);

impl Messages {
    /// The entry for `message`.
    pub fn get(&self, message: Message) -> &crate::Entry {
        &self.0[message.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::Message;

    #[test]
    fn all_lists_variants_in_declaration_order() {
        for (i, message) in Message::ALL.into_iter().enumerate() {
            assert_eq!(message as usize, i, "{message:?}");
            assert_eq!(Message::from_id(message.id()), Some(message));
        }
    }

    /// The fallback is for loaded books only: every built-in book words
    /// every message itself.
    #[test]
    fn every_built_in_book_words_every_message_itself() {
        for text in [
            include_str!("../phrasebooks/de.toml"),
            include_str!("../phrasebooks/pl.toml"),
            include_str!("../phrasebooks/en.toml"),
        ] {
            let file: toml::Table = toml::from_str(text).unwrap();
            let messages = file["messages"].as_table().unwrap();
            for message in Message::ALL {
                assert!(messages.contains_key(message.id()), "{} lacks {}", file["code"], message.id());
            }
        }
    }
}
