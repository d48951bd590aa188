//! The blind player's spoken chess moves: understood against the legal moves
//! of the position he speaks about, by piece and square in his spelling,
//! checked first against the move his board shows when it shows one (issue
//! 33), and acted on by the speech desk's chess path (`Station::act_on_spoken`).
//!
//! The board's move is the one `Table::board_move_to_announce` names: a misheard announcement of it
//! is it, and a slip of the tongue is raised only for clear words of another move. What the desk
//! does with the rest: moves, questions asked back, commands.

use super::Station;
use super::game_speech::{Acted, GameSpeech, Said, SpokenMeaning};
use anyhow::Result;
use shakmaty::Chess;
use station_core::{Event, Millis};
use station_voices::understand::{Command as SpokenCommand, Understanding, Understood};

/// Chess spoken: moves by piece and square in his spelling, and the command words.
pub(super) struct ChessSpeech;

impl GameSpeech for ChessSpeech {
    fn grammar_key(&self, station: &Station) -> String {
        station.listening_position().1
    }

    fn grammar(&self, station: &mut Station) -> Result<Vec<String>> {
        let (pos, _) = station.listening_position();
        Ok(station.understanding()?.grammar(&pos).into_phrases())
    }

    fn understand(&self, station: &mut Station, said: Said<'_>) -> Result<Box<dyn SpokenMeaning>, String> {
        let Said { text, confidence, readings } = said;
        let (understanding, pos) = station.spoken_context()?;
        // His board's move, when it shows one he has not announced: what he
        // most likely said (issue 33, D.2.8).
        let board = station.table.board_move_to_announce();
        let understood = if readings.len() > 1 {
            understanding.understand_readings(&pos, readings, confidence, board)
        } else {
            understanding.understand_expecting(&pos, text, confidence, board)
        };
        Ok(Box::new(ChessMeaning { understanding, pos, understood }))
    }
}

/// A chess utterance understood in `pos`.
struct ChessMeaning {
    understanding: Understanding,
    pos: Chess,
    understood: Understood,
}

impl SpokenMeaning for ChessMeaning {
    fn line(&self) -> String {
        self.understood.line()
    }

    fn is_answer(&self) -> bool {
        matches!(self.understood, Understood::Command(SpokenCommand::Yes))
    }

    fn is_move(&self) -> bool {
        matches!(self.understood, Understood::Move { .. } | Understood::Slip { .. } | Understood::Ask { .. })
    }

    fn act(self: Box<Self>, station: &mut Station, t: Millis, events: &mut Vec<Event>) -> Acted {
        let ChessMeaning { understanding, pos, understood } = *self;
        station.act_on_spoken(&understanding, &pos, understood, t, events)
    }
}
