//! The words the station listens for besides moves: commands such as "time"
//! or "where is my queen". They are the `[commands]` and `[question]` tables
//! of each language's phrasebook (`voices/phrasebooks/*.toml`), read and
//! checked by the phrasebook's own reader: one source of truth for speaking
//! and listening.
//!
//! Read by `phrasebook::file`, used by `understand`, and dependent on neither.

use crate::entry::Entry;

/// What a command word stands for, independent of language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandWord {
    /// Read the clock.
    Time,
    /// Say the last move again.
    Repeat,
    /// The last announcement was wrong.
    Correction,
    /// Yes (answer to a confirm question).
    Yes,
    /// No.
    No,
    /// A draw is offered (the phrasebook's `draw_offer`).
    DrawOffer,
    /// The speaker resigns.
    Resign,
    /// "where is" (followed by a piece).
    WhereIs,
    /// "what stands on" (followed by a square).
    WhatStandsOn,
    /// "my".
    Mine,
    /// "his" (the opponent's).
    His,
    /// Read all of the speaker's pieces.
    ReadMyPieces,
    /// Read all of the opponent's pieces.
    ReadHisPieces,
    /// Say again what differs between his board and the game.
    ReadDifference,
    /// A question about the draw facts (not an offer: other words).
    DrawStatus,
    /// Read the last moves of the record (issue 18).
    ReadRecord,
    /// One move back in the record.
    RecordBack,
    /// One move forward in the record.
    RecordForward,
    /// "move" (followed by a move number): jump there in the record.
    GoToMove,
    /// "rank" (followed by a rank): read the squares of one rank.
    ReadRank,
    /// "file" (followed by a letter): read the squares of one file.
    ReadFile,
    /// The pieces each side has lost.
    Material,
    /// End the current answer at once.
    Silence,
    /// Speak faster.
    Faster,
    /// Speak slower.
    Slower,
    /// The clock reads the time used from now on, and says it (D.2.10.4).
    ClockUsed,
    /// The clock reads the time left from now on, and says it.
    ClockRemaining,
    /// Practice (issue 26): take back his last move and the engine's reply.
    TakeBack,
    /// Practice: a hint, one move.
    Hint,
    /// Practice: a new game (followed by a number: a famous game's position).
    NewGame,
    /// Practice: the engine plays stronger from the next game on.
    Stronger,
    /// Practice: the engine plays weaker from the next game on.
    Weaker,
    /// Practice: the moves where his evaluation dropped most.
    Review,
}

/// Keys of the phrasebook's `[commands]` table, in a fixed order (draw
/// offer excluded: it is the phrasebook's `words.draw_offer`).
pub(crate) const KEYS: [(&str, CommandWord); 12] = [
    ("time", CommandWord::Time),
    ("repeat", CommandWord::Repeat),
    ("correction", CommandWord::Correction),
    ("yes", CommandWord::Yes),
    ("no", CommandWord::No),
    ("resign", CommandWord::Resign),
    ("where_is", CommandWord::WhereIs),
    ("what_stands_on", CommandWord::WhatStandsOn),
    ("mine", CommandWord::Mine),
    ("his", CommandWord::His),
    ("read_my_pieces", CommandWord::ReadMyPieces),
    ("read_his_pieces", CommandWord::ReadHisPieces),
];

/// Keys of `[commands]` added later (issue 14): optional in a loaded file,
/// present in every built-in one.
pub(crate) const OPTIONAL_KEYS: [(&str, CommandWord); 20] = [
    ("read_difference", CommandWord::ReadDifference),
    ("draw_status", CommandWord::DrawStatus),
    // Issue 18: the record, the position by rank and file, speech control.
    ("read_record", CommandWord::ReadRecord),
    ("record_back", CommandWord::RecordBack),
    ("record_forward", CommandWord::RecordForward),
    ("go_to_move", CommandWord::GoToMove),
    ("read_rank", CommandWord::ReadRank),
    ("read_file", CommandWord::ReadFile),
    ("material", CommandWord::Material),
    ("silence", CommandWord::Silence),
    ("faster", CommandWord::Faster),
    ("slower", CommandWord::Slower),
    // Issue 18 §4: what the talking clock reads.
    ("clock_used", CommandWord::ClockUsed),
    ("clock_remaining", CommandWord::ClockRemaining),
    // Issue 26: practice against an engine.
    ("take_back", CommandWord::TakeBack),
    ("hint", CommandWord::Hint),
    ("new_game", CommandWord::NewGame),
    ("stronger", CommandWord::Stronger),
    ("weaker", CommandWord::Weaker),
    ("review", CommandWord::Review),
];

/// The listening words of one language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandWords {
    code: String,
    words: Vec<(CommandWord, Entry)>,
    or: String,
    /// "leer" (an empty square), "keine" (no such piece) and "bis" (a run
    /// of empty squares, "Anna bis Cesar leer"), for answers.
    answers: [String; 4],
}

impl CommandWords {
    /// No command words at all: moves are still understood (for a language
    /// whose phrasebook has no `[commands]` table).
    pub fn none(code: &str) -> CommandWords {
        CommandWords {
            code: code.to_owned(),
            words: Vec::new(),
            or: "/".to_owned(),
            answers: ["-".to_owned(), "-".to_owned(), "-".to_owned(), "-".to_owned()],
        }
    }

    /// Command words as a phrasebook's reader checked them.
    pub(crate) fn new(
        code: &str,
        words: Vec<(CommandWord, Entry)>,
        or: String,
        answers: [String; 4],
    ) -> CommandWords {
        CommandWords { code: code.to_owned(), words, or, answers }
    }

    /// The language code.
    pub fn code(&self) -> &str {
        &self.code
    }

    /// Every command word with its entry.
    pub fn words(&self) -> &[(CommandWord, Entry)] {
        &self.words
    }

    /// The entry of one command word (`None` for the draw offer, which is
    /// the phrasebook's, or when the file has no words).
    pub fn entry(&self, word: CommandWord) -> Option<&Entry> {
        self.words.iter().find(|(w, _)| *w == word).map(|(_, e)| e)
    }

    /// The word between the candidates of a confirm question ("oder").
    pub fn or(&self) -> &str {
        &self.or
    }

    /// The answer for an empty square ("leer").
    pub fn empty(&self) -> &str {
        &self.answers[0]
    }

    /// The answer when no piece of the kind asked for is there ("keine").
    pub fn no_such_piece(&self) -> &str {
        &self.answers[1]
    }

    /// The word joining the ends of a run of empty squares ("bis").
    pub fn through(&self) -> &str {
        &self.answers[2]
    }

    /// The word ending a correction read back in the record ("zurückgenommen").
    pub fn taken_back(&self) -> &str {
        &self.answers[3]
    }
}
