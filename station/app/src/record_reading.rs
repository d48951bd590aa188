//! The blind player's scoresheet by ear (issue 18): where he is in the
//! record, which rank or file a button reads next, and the record's marks —
//! draw offers and take-backs (D.2.9, Art. 7.4), folded from the game's
//! events (the journal's after a restart) to be read where they happened.
//! Only reads: nothing here changes the game, so no journal input is needed.
//!
//! It also keeps the next rank and file the `read_rank` and `read_file` buttons read.

use shakmaty::{Color, File, Rank};
use station_core::record::{GameRecord, Mark};
use station_core::table::Table;
use station_voices::understand::{RecordCursor, RecordMark, RecordStep, SpokenCommand, Understanding};

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

    /// What to say for one step through the game's record; `None` before a game.
    pub fn step(&mut self, understanding: &Understanding, table: &Table, step: RecordStep) -> Option<String> {
        let record = table.record()?;
        let game = record.chess_game()?;
        let me = table.config().blind_color;
        let marks = marks_of(record);
        Some(self.cursor.step_marked(understanding, game.start(), game.moves(), &marks, me, step))
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

/// The record's marks the blind player hears where they happened: draw
/// offers and take-backs (the record keeps more: claims, clock corrections).
pub fn marks_of(record: &GameRecord) -> Vec<RecordMark> {
    record
        .marks
        .iter()
        .filter_map(|m| match m {
            Mark::DrawOffer { after, side, .. } => {
                Some(RecordMark::DrawOffer { after: *after, by: Color::from(*side) })
            }
            Mark::TakenBack { after, moves, illegal, .. } => {
                Some(RecordMark::TakenBack { after: *after, moves: moves.clone(), illegal: *illegal })
            }
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use station_core::clock::Side;
    use station_core::{BoardRole, Event};

    fn game_move(ply: usize, uci: &str) -> Event {
        Event::GameMove {
            ply,
            san: String::new(),
            uci: uci.into(),
            by: BoardRole::Blind,
            revised: false,
            t_ms: 0,
            pdn: None,
        }
    }

    #[test]
    fn draw_offers_and_take_backs_become_marks_where_they_happened() {
        let mut r = GameRecord::new("g", station_core::Game::default().fen(), Default::default(), 0);
        for (ply, uci) in ["e2e4", "c7c5", "g1f3", "d7d6"].iter().enumerate() {
            r.apply(&game_move(ply + 1, uci));
        }
        r.apply(&Event::DrawOffered { side: Side::Black, ply: 4, t_ms: 5 });
        r.apply(&Event::TakenBack { ply: 4, t_ms: 10, clock_proposal: None });
        r.apply(&game_move(4, "b8c6"));
        // Art. 7.4 found three plies late: one correction of three moves.
        r.apply(&game_move(5, "d2d4"));
        for ply in [5, 4, 3] {
            r.apply(&Event::TakenBack { ply, t_ms: 20, clock_proposal: None });
        }
        r.apply(&Event::IllegalMoveFound {
            ply: 3,
            side: Side::White,
            uci: "g1f3".into(),
            count: 1,
            t_ms: 20,
        });
        assert_eq!(
            marks_of(&r),
            [RecordMark::TakenBack {
                after: 2,
                moves: vec!["g1f3".into(), "b8c6".into(), "d2d4".into()],
                illegal: true
            },],
            "the draw offer and the first correction were about moves no longer on the record"
        );
        r.apply(&Event::GameStarted {
            game_id: "g2".into(),
            fen: String::new(),
            t_ms: 30,
            tags: None,
            moves: Vec::new(),
        });
        assert!(marks_of(&r).is_empty());
    }
}
