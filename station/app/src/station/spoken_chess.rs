//! The blind player's spoken chess moves: understood against the legal moves
//! of the position he speaks about, by piece and square in his spelling,
//! checked first against the move his board shows when it shows one (issue
//! 33); what it means is carried out by the speech desk (`Station::carry_out`).
//!
//! The board's move is the one `Table::board_move_to_announce` names: a misheard announcement of it
//! is it, and a slip of the tongue is raised only for clear words of another move. What the desk
//! does with the rest: moves, questions asked back, commands.

use super::Asked;
use super::game_speech::{Deed, GameSpeech, Said, SpeechView, SpokenMeaning};
use serde_json::json;
use shakmaty::Chess;
use station_core::table::Table;
use station_voices::understand::{SpokenCommand, Understanding, Understood};

/// Chess spoken: moves by piece and square in his spelling, and the command words.
pub(super) struct ChessSpeech;

/// The position the blind player speaks about (the start position before
/// a game), and its FEN.
fn listening_position(table: &Table) -> (Chess, String) {
    let start = || table.config().start.chess().map_or_else(Chess::default, |g| g.position().clone());
    let pos = table.announce_position().unwrap_or_else(start);
    let fen = fen_of(&pos);
    (pos, fen)
}

impl GameSpeech for ChessSpeech {
    fn grammar_key(&self, view: SpeechView<'_>) -> String {
        listening_position(view.table).1
    }

    fn grammar(&self, view: SpeechView<'_>, understanding: &Understanding) -> Vec<String> {
        let (pos, _) = listening_position(view.table);
        understanding.grammar(&pos).into_phrases()
    }

    fn understand(
        &self,
        view: SpeechView<'_>,
        understanding: &Understanding,
        said: Said<'_>,
    ) -> Result<Box<dyn SpokenMeaning>, String> {
        let Said { text, confidence, readings } = said;
        let pos = view.table.announce_position().ok_or("no game in progress")?;
        // His board's move, when it shows one he has not announced: what he
        // most likely said (issue 33, D.2.8).
        let board = view.table.board_move_to_announce();
        let understood = if readings.len() > 1 {
            understanding.understand_readings(&pos, readings, confidence, board)
        } else {
            understanding.understand_expecting(&pos, text, confidence, board)
        };
        Ok(Box::new(ChessMeaning { pos, understood }))
    }
}

/// A position as FEN (the key a question and a grammar belong to).
fn fen_of(pos: &Chess) -> String {
    shakmaty::fen::Fen::from_position(pos, shakmaty::EnPassantMode::Legal).to_string()
}

/// A chess utterance understood in `pos`.
struct ChessMeaning {
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

    fn act(self: Box<Self>, view: SpeechView<'_>, understanding: &Understanding) -> Deed {
        let ChessMeaning { pos, mut understood } = *self;
        let fen = fen_of(&pos);
        // "Ja" to "Springer Felix drei?" in the same position is that move.
        if let (Understood::Command(SpokenCommand::Yes), Some(Asked::Move { fen: asked, mv })) =
            (&understood, view.asked)
            && *asked == fen
        {
            let uci = mv.to_uci(shakmaty::CastlingMode::Standard).to_string();
            let san = shakmaty::san::SanPlus::from_move(pos.clone(), *mv).to_string();
            understood = Understood::Move { mv: *mv, uci, san };
        }
        match understood {
            Understood::Move { uci, san, .. } => {
                Deed::Announce { answer: json!({"understood": "move", "uci": uci, "san": san}), mv: uci }
            }
            // The words clearly name another move than his board's: announced
            // as said, the table raises the slip of the tongue (D.2.8).
            Understood::Slip { uci, san, .. } => {
                Deed::Announce { answer: json!({"understood": "slip", "uci": uci, "san": san}), mv: uci }
            }
            Understood::Ask { candidates, .. } => {
                let question = understanding.confirm_question(&pos, &candidates);
                // Only a question about one move can be answered with yes.
                let asked = match candidates.as_slice() {
                    [one] => Some(Asked::Move { fen, mv: *one }),
                    _ => None,
                };
                Deed::Ask { answer: json!({"understood": "ask", "question": question}), question, asked }
            }
            Understood::Command(command) => Deed::Command(command),
            other => Deed::Answer(json!({"understood": other.line()})),
        }
    }
}
