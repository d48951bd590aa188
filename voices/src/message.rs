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
}

impl Message {
    /// Every message, in a fixed order.
    pub const ALL: [Message; 29] = [
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
        }
    }

    /// The message with this id, if any.
    pub fn from_id(id: &str) -> Option<Message> {
        Message::ALL.into_iter().find(|m| m.id() == id)
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
}
