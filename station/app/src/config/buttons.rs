//! The button mapping (`[buttons]`): which board, gamepad or Braille key does what.

use super::*;

/// Button mapping (`[buttons]`): each action lists its sources, `blind:N` or
/// `mirror:N` for board buttons (0–15), `gamepad:NAME` for gamepad buttons,
/// `braille:N` for the Braille display's routing key over cell N (0 = leftmost).
#[derive(Clone, Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Buttons {
    /// Press the clock (the lever).
    #[serde(deserialize_with = "sources")]
    pub clock: Vec<String>,
    /// Say the times and the number of moves.
    #[serde(deserialize_with = "sources")]
    pub time: Vec<String>,
    /// Say the last move again.
    #[serde(deserialize_with = "sources")]
    pub repeat_last_move: Vec<String>,
    /// Answer yes to a question.
    #[serde(deserialize_with = "sources")]
    pub confirm: Vec<String>,
    /// Answer no / cancel.
    #[serde(deserialize_with = "sources")]
    pub cancel: Vec<String>,
    /// Hold to speak a move.
    #[serde(deserialize_with = "sources")]
    pub push_to_talk: Vec<String>,
    /// Read the position aloud.
    #[serde(deserialize_with = "sources")]
    pub read_position: Vec<String>,
    /// Say again what differs between his board and the game.
    #[serde(deserialize_with = "sources")]
    pub read_difference: Vec<String>,
    /// Read the last five moves of the record with their numbers (issue 18).
    #[serde(deserialize_with = "sources")]
    pub read_record: Vec<String>,
    /// One half-move back in the record, like a tape.
    #[serde(deserialize_with = "sources")]
    pub record_back: Vec<String>,
    /// One half-move forward in the record.
    #[serde(deserialize_with = "sources")]
    pub record_forward: Vec<String>,
    /// End the current answer at once (a move is cut, never dropped:
    /// `repeat_last_move` says it again).
    #[serde(deserialize_with = "sources")]
    pub silence: Vec<String>,
    /// Read a rank: each press the next one, from his own side (a spoken
    /// "Reihe vier" chooses one directly).
    #[serde(deserialize_with = "sources")]
    pub read_rank: Vec<String>,
    /// Read a file: each press the next one, from his left.
    #[serde(deserialize_with = "sources")]
    pub read_file: Vec<String>,
    /// Say the draw facts of the record (Art. 9.2/9.3): how often the position
    /// has stood on the board, how many moves without a pawn move or capture.
    #[serde(deserialize_with = "sources")]
    pub draw_status: Vec<String>,
    /// Switch the talking clock between the time left and the time used
    /// (D.2.10.4), and say it (issue 18).
    #[serde(deserialize_with = "sources")]
    pub clock_reading: Vec<String>,
    /// Practice (`[opponent]`): his last move and the engine's reply taken back.
    #[serde(deserialize_with = "sources")]
    pub practice_take_back: Vec<String>,
    /// Practice: one move suggested, in words.
    #[serde(deserialize_with = "sources")]
    pub practice_hint: Vec<String>,
    /// Practice: a new game from the start.
    #[serde(deserialize_with = "sources")]
    pub practice_new_game: Vec<String>,
    /// Practice: the engine one level stronger from the next game on.
    #[serde(deserialize_with = "sources")]
    pub practice_stronger: Vec<String>,
    /// Practice: the engine one level weaker from the next game on.
    #[serde(deserialize_with = "sources")]
    pub practice_weaker: Vec<String>,
    /// Practice: the moves where his evaluation dropped most, after the game.
    #[serde(deserialize_with = "sources")]
    pub practice_review: Vec<String>,
}

impl Default for Buttons {
    fn default() -> Self {
        Buttons {
            clock: vec!["blind:0".into()],
            time: vec!["blind:1".into()],
            repeat_last_move: vec!["blind:2".into()],
            confirm: Vec::new(),
            cancel: Vec::new(),
            push_to_talk: Vec::new(),
            read_position: Vec::new(),
            read_difference: Vec::new(),
            read_record: Vec::new(),
            record_back: Vec::new(),
            record_forward: Vec::new(),
            silence: Vec::new(),
            read_rank: Vec::new(),
            read_file: Vec::new(),
            draw_status: Vec::new(),
            clock_reading: Vec::new(),
            practice_take_back: Vec::new(),
            practice_hint: Vec::new(),
            practice_new_game: Vec::new(),
            practice_stronger: Vec::new(),
            practice_weaker: Vec::new(),
            practice_review: Vec::new(),
        }
    }
}

/// A button action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Press the clock.
    Clock,
    /// Say the times.
    Time,
    /// Say the last move again.
    RepeatLastMove,
    /// Yes.
    Confirm,
    /// No.
    Cancel,
    /// Hold to speak.
    PushToTalk,
    /// Read the position.
    ReadPosition,
    /// Say what differs between his board and the game.
    ReadDifference,
    /// Read the last five moves.
    ReadRecord,
    /// One half-move back in the record.
    RecordBack,
    /// One half-move forward in the record.
    RecordForward,
    /// End the current answer.
    Silence,
    /// Read the next rank.
    ReadRank,
    /// Read the next file.
    ReadFile,
    /// Say the draw facts of the record.
    DrawStatus,
    /// Switch the clock between time left and time used, and say it.
    ClockReading,
    /// Practice (`[opponent]`): his last move and the engine's reply taken back.
    PracticeTakeBack,
    /// Practice: one move suggested, in words.
    PracticeHint,
    /// Practice: a new game from the start.
    PracticeNewGame,
    /// Practice: the engine one level stronger from the next game on.
    PracticeStronger,
    /// Practice: the engine one level weaker from the next game on.
    PracticeWeaker,
    /// Practice: the moves where his evaluation dropped most, after the game.
    PracticeReview,
}

impl Buttons {
    /// Every action with its config key and its sources, in the config's order:
    /// the one list the lookup, the checks and the device watch all read.
    pub fn mapped(&self) -> [(&'static str, Action, &Vec<String>); 22] {
        [
            ("clock", Action::Clock, &self.clock),
            ("time", Action::Time, &self.time),
            ("repeat_last_move", Action::RepeatLastMove, &self.repeat_last_move),
            ("confirm", Action::Confirm, &self.confirm),
            ("cancel", Action::Cancel, &self.cancel),
            ("push_to_talk", Action::PushToTalk, &self.push_to_talk),
            ("read_position", Action::ReadPosition, &self.read_position),
            ("read_difference", Action::ReadDifference, &self.read_difference),
            ("read_record", Action::ReadRecord, &self.read_record),
            ("record_back", Action::RecordBack, &self.record_back),
            ("record_forward", Action::RecordForward, &self.record_forward),
            ("silence", Action::Silence, &self.silence),
            ("read_rank", Action::ReadRank, &self.read_rank),
            ("read_file", Action::ReadFile, &self.read_file),
            ("draw_status", Action::DrawStatus, &self.draw_status),
            ("clock_reading", Action::ClockReading, &self.clock_reading),
            ("practice_take_back", Action::PracticeTakeBack, &self.practice_take_back),
            ("practice_hint", Action::PracticeHint, &self.practice_hint),
            ("practice_new_game", Action::PracticeNewGame, &self.practice_new_game),
            ("practice_stronger", Action::PracticeStronger, &self.practice_stronger),
            ("practice_weaker", Action::PracticeWeaker, &self.practice_weaker),
            ("practice_review", Action::PracticeReview, &self.practice_review),
        ]
    }

    /// Every source mapped to any action.
    pub fn sources(&self) -> impl Iterator<Item = &String> {
        self.mapped().into_iter().flat_map(|(_, _, sources)| sources)
    }

    /// The action of a source such as `blind:0`.
    pub fn action_of(&self, source: &str) -> Option<Action> {
        self.mapped()
            .into_iter()
            .find(|(_, _, sources)| sources.iter().any(|s| s == source))
            .map(|(_, a, _)| a)
    }

    /// One button, one action, across all the actions: (key, problem).
    pub(super) fn check(&self) -> Result<(), (String, String)> {
        let mut taken: Vec<(&str, &str)> = Vec::new();
        for (name, _, sources) in self.mapped() {
            for s in sources {
                // One button, one action: a press must never do two things at once
                // (the defaults are clock blind:0, time blind:1, repeat_last_move blind:2).
                if let Some((other, _)) = taken.iter().find(|(_, t)| *t == s.as_str()) {
                    return Err((
                        format!("buttons.{name}"),
                        format!("`{s}` is already the `{other}` button; map `{other}` to another button"),
                    ));
                }
                taken.push((name, s));
            }
        }
        Ok(())
    }
}

/// A list of button sources, each `blind:N`, `mirror:N` (0–15),
/// `gamepad:NAME` or `braille:N` (0–255).
fn sources<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let sources = Vec::<String>::deserialize(d)?;
    for s in &sources {
        let ok = match s.split_once(':') {
            Some(("blind" | "mirror", n)) => n.parse::<u8>().is_ok_and(|n| n < 16),
            Some(("gamepad", name)) => !name.is_empty(),
            Some(("braille", n)) => n.parse::<u16>().is_ok_and(|n| n < 256),
            _ => false,
        };
        if !ok {
            return Err(serde::de::Error::custom(format!(
                "`{s}` is not blind:N, mirror:N (0-15), gamepad:NAME or braille:N (0-255)"
            )));
        }
    }
    Ok(sources)
}
