//! The blind player's scoresheet by ear (issue 18): where he is in the
//! record, which rank or file a button reads next, and the record's marks —
//! draw offers and take-backs (D.2.9, Art. 7.4), folded from the game's
//! events (the journal's after a restart) to be read where they happened.
//! Only reads: nothing here changes the game, so no journal input is needed.

use shakmaty::{Color, File, Rank};
use station_core::table::Table;
use station_core::{Event, Millis};
use station_voices::understand::{
    Command as SpokenCommand, RecordCursor, RecordMark, RecordStep, Understanding,
};

/// The reading position of the blind player in the record and on the board.
#[derive(Debug, Default)]
pub struct RecordReading {
    cursor: RecordCursor,
    /// Presses of the `read_rank` button so far (the next rank from his side).
    rank_presses: usize,
    /// Presses of the `read_file` button so far (the next file from his left).
    file_presses: usize,
    /// Draw offers and take-backs of this game, oldest first.
    marks: Vec<RecordMark>,
    /// The agreed moves as the events gave them (UCI), to name a move taken back.
    played: Vec<String>,
    /// When the last take-back came: take-backs of one moment are one correction.
    taken_back_at: Option<Millis>,
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
        Some(self.cursor.step_marked(understanding, game.start(), game.moves(), &self.marks, me, step))
    }

    /// The record's marks so far.
    #[cfg(test)]
    pub fn marks(&self) -> &[RecordMark] {
        &self.marks
    }

    /// Follows the game's events: a new game starts a clean record; agreed
    /// moves are remembered; a draw offer and a take-back leave a mark.
    pub fn observe(&mut self, event: &Event) {
        match event {
            Event::GameStarted { .. } => *self = RecordReading::new(),
            Event::GameResumed { moves, .. } => self.played = moves.clone(),
            Event::GameMove { ply, uci, .. } => {
                self.played.truncate(ply.saturating_sub(1));
                self.played.push(uci.clone());
            }
            Event::DrawOffered { side, ply, .. } => {
                self.marks.push(RecordMark::DrawOffer { after: *ply, by: Color::from(*side) });
            }
            Event::TakenBack { ply, t_ms } => {
                let to = ply.saturating_sub(1);
                let uci = self.played.get(to).cloned().unwrap_or_default();
                self.played.truncate(to);
                let same_moment = self.taken_back_at == Some(*t_ms);
                self.taken_back_at = Some(*t_ms);
                let mut taken = match self.marks.last() {
                    Some(RecordMark::TakenBack { after, .. }) if same_moment && after == ply => {
                        self.marks.pop()
                    }
                    _ => None,
                }
                .unwrap_or(RecordMark::TakenBack {
                    after: to,
                    moves: Vec::new(),
                    illegal: false,
                });
                if let RecordMark::TakenBack { after, moves, .. } = &mut taken {
                    *after = to;
                    moves.insert(0, uci);
                }
                // Marks after the position the record went back to are about
                // moves no longer on it; the correction names those moves.
                self.marks.retain(|m| m.after() <= to);
                self.marks.push(taken);
            }
            Event::IllegalMoveFound { ply, .. } => {
                if let Some(RecordMark::TakenBack { after, illegal, .. }) = self.marks.last_mut()
                    && *after + 1 == *ply
                {
                    *illegal = true;
                }
            }
            _ => {}
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use station_core::BoardRole;
    use station_core::clock::Side;

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
        let mut r = RecordReading::new();
        for (ply, uci) in ["e2e4", "c7c5", "g1f3", "d7d6"].iter().enumerate() {
            r.observe(&game_move(ply + 1, uci));
        }
        r.observe(&Event::DrawOffered { side: Side::Black, ply: 4, t_ms: 5 });
        r.observe(&Event::TakenBack { ply: 4, t_ms: 10 });
        r.observe(&game_move(4, "b8c6"));
        // Art. 7.4 found three plies late: one correction of three moves.
        r.observe(&game_move(5, "d2d4"));
        for ply in [5, 4, 3] {
            r.observe(&Event::TakenBack { ply, t_ms: 20 });
        }
        r.observe(&Event::IllegalMoveFound {
            ply: 3,
            side: Side::White,
            uci: "g1f3".into(),
            count: 1,
            t_ms: 20,
        });
        assert_eq!(
            r.marks(),
            [RecordMark::TakenBack {
                after: 2,
                moves: vec!["g1f3".into(), "b8c6".into(), "d2d4".into()],
                illegal: true
            },],
            "the draw offer and the first correction were about moves no longer on the record"
        );
        r.observe(&Event::GameStarted { game_id: "g".into(), fen: String::new(), t_ms: 30 });
        assert!(r.marks().is_empty());
    }
}
