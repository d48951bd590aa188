//! The recogniser's other readings of an utterance (Vosk's n-best, issue
//! 33): the best reading is understood as always; another the recogniser
//! thought likely enough may bring the board's move, or moves to ask back,
//! never a move made without a board.

use shakmaty::{Chess, Move};

use super::repair::MAX_CHOICES;
use super::{AskReason, Understanding, Understood};

/// A reading with less of the likelihood than this is not listened to.
pub const MIN_READING_SHARE: f32 = 0.1;

impl Understanding {
    /// What the recogniser's readings mean: `readings` best first, each with
    /// its share of the likelihood (0–1), as [`Understanding::understand_expecting`]
    /// for the best. With the board's move, another likely reading near it
    /// makes it the board's move; without, the moves other likely readings
    /// name or come near are asked back with the best's (nearest first, the
    /// best's first), never made.
    pub fn understand_readings(
        &self,
        pos: &Chess,
        readings: &[(String, f32)],
        confidence: Option<f32>,
        board: Option<Move>,
    ) -> Understood {
        let Some((best_text, _)) = readings.first() else {
            return self.understand_expecting(pos, "", confidence, board);
        };
        let best = self.understand_expecting(pos, best_text, confidence, board);
        let others = readings[1..].iter().filter(|(_, share)| *share >= MIN_READING_SHARE);
        match board {
            Some(board) => {
                if matches!(best, Understood::Move { mv, .. } if mv == board) {
                    return best;
                }
                for (text, _) in others {
                    if let made @ Understood::Move { mv, .. } =
                        self.understand_expecting(pos, text, confidence, Some(board))
                        && mv == board
                    {
                        return made;
                    }
                }
                best
            }
            None => {
                let mut candidates = match &best {
                    Understood::Move { .. } | Understood::Command(_) => return best,
                    Understood::Ask { candidates, .. } => candidates.clone(),
                    _ => Vec::new(),
                };
                let before = candidates.len();
                for (text, _) in others {
                    let named = match self.understand(pos, text, confidence) {
                        Understood::Move { mv, .. } => vec![mv],
                        Understood::Ask { candidates, .. } => candidates,
                        _ => Vec::new(),
                    };
                    for mv in named {
                        if !candidates.contains(&mv) && candidates.len() < MAX_CHOICES {
                            candidates.push(mv);
                        }
                    }
                }
                if candidates.len() == before {
                    return best;
                }
                let reason = AskReason::Repaired(format!(
                    "heard \"{best_text}\"; the recogniser's other readings: {}",
                    self.confirm_question(pos, &candidates)
                ));
                Understood::Ask { candidates, reason }
            }
        }
    }
}
