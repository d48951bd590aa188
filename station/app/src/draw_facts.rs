//! The blind player's draw question ("Remis Stand", the `draw_status` button):
//! only facts from the record, in his language — how often the position has
//! stood on the board (Art. 9.2) and how many moves were made without a pawn
//! move or a capture (Art. 9.3). Never advice, never "you may claim".
//!
//! In a draughts game the game's words answer instead (`games::draughts`: the draws of I.6.1–6.4).

use station_core::draws::DrawFacts;
use station_voices::{Message, Wording, say_moves};

/// "Diese Stellung zum dritten Mal. Siebenundvierzig Züge ohne Bauernzug oder Schlagen".
pub fn draw_facts_text(wording: &Wording, facts: &DrawFacts) -> String {
    let book = wording.phrasebook();
    let position = match facts.repetitions {
        0 | 1 => wording.message(Message::PositionFirstTime).to_owned(),
        2 => wording.message(Message::PositionSecondTime).to_owned(),
        3 => wording.message(Message::PositionThirdTime).to_owned(),
        n => wording.message(Message::PositionTimes).replace("{n}", &book.numbers().spell(u64::from(n))),
    };
    let moves = say_moves(book, facts.moves_without_pawn_or_capture());
    let mut quiet = wording.message(Message::MovesWithoutPawnOrCapture).replace("{moves}", &moves);
    // A language whose messages open with a capital letter opens this sentence so too.
    if position.starts_with(char::is_uppercase) {
        quiet = capitalise(&quiet);
    }
    format!("{position}. {quiet}")
}

/// The text with its first letter a capital (a phrase that starts a
/// sentence); `told` uses it too, as it already depends on this module.
pub(crate) fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use station_core::Game;
    use station_voices::VoiceSettings;

    fn wording(lang: &str) -> Wording {
        Wording::new(&VoiceSettings { language: lang.into(), ..VoiceSettings::default() }).unwrap()
    }

    /// The answer to the draw question on `facts`, in each language as given.
    fn assert_said(facts: &DrawFacts, said: &[(&str, &str)]) {
        for (lang, want) in said {
            assert_eq!(draw_facts_text(&wording(lang), facts), *want, "{lang}");
        }
    }

    /// A real record: knights out and back twice, then 47 quiet moves from a FEN.
    #[test]
    fn art_9_2_and_9_3_the_draw_question_is_answered_with_facts_from_the_record() {
        let mut g = Game::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
            g.push_uci(m).unwrap();
        }
        let facts = station_core::draws::facts(&g);
        assert_said(
            &facts,
            &[
                ("de", "Diese Stellung zum dritten Mal. Vier Züge ohne Bauernzug oder Schlagen"),
                ("pl", "ta pozycja po raz trzeci. cztery posunięcia bez ruchu pionkiem i bez bicia"),
            ],
        );
        let quiet = Game::from_fen("4k2n/8/8/8/8/8/8/1N2K3 w - - 94 60").unwrap();
        let facts = station_core::draws::facts(&quiet);
        assert_eq!(facts.moves_without_pawn_or_capture(), 47);
        assert_said(
            &facts,
            &[
                ("de", "Diese Stellung zum ersten Mal. Siebenundvierzig Züge ohne Bauernzug oder Schlagen"),
                ("en", "this position for the first time. forty-seven moves without a pawn move or capture"),
            ],
        );
    }
}
