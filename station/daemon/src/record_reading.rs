//! The blind player's scoresheet by ear (issue 18): where he is in the
//! record and which rank or file a button reads next. Only reads: nothing
//! here changes the game, so no journal input is needed.

use shakmaty::{Color, File, Rank};
use station_core::table::Table;
use station_voices::understand::{Command as SpokenCommand, RecordCursor, RecordStep, Understanding};

/// The reading position of the blind player in the record and on the board.
#[derive(Debug, Default)]
pub struct RecordReading {
    cursor: RecordCursor,
    /// Presses of the `read_rank` button so far (the next rank from his side).
    rank_presses: usize,
    /// Presses of the `read_file` button so far (the next file from his left).
    file_presses: usize,
}

impl RecordReading {
    /// A reading at the end of the record.
    pub fn new() -> RecordReading {
        RecordReading::default()
    }

    /// What to say for one step through the agreed record; `None` before a game.
    pub fn step(&mut self, understanding: &Understanding, table: &Table, step: RecordStep) -> Option<String> {
        let game = table.agreed()?;
        let me = table.config().blind_color;
        Some(self.cursor.step(understanding, game.start(), game.moves(), me, step))
    }

    /// The rank the `read_rank` button reads now: first his own back rank,
    /// then on towards the opponent, round again after the eighth.
    pub fn next_rank(&mut self, me: Color) -> SpokenCommand {
        let at = self.rank_presses % 8;
        self.rank_presses += 1;
        let index = if me == Color::White { at } else { 7 - at };
        SpokenCommand::ReadRank(Rank::ALL[index])
    }

    /// The file the `read_file` button reads now: from his left to his right.
    pub fn next_file(&mut self, me: Color) -> SpokenCommand {
        let at = self.file_presses % 8;
        self.file_presses += 1;
        let index = if me == Color::White { at } else { 7 - at };
        SpokenCommand::ReadFile(File::ALL[index])
    }
}
