//! The blind player's draw question ("Remis Stand", the `draw_status` button):
//! only facts from the record, in his language — how often the position has
//! stood on the board (Art. 9.2) and how many moves were made without a pawn
//! move or a capture (Art. 9.3). Never advice, never "you may claim".

use station_core::draughts::Variant;
use station_core::draughts::draws::{Draw, DrawStatus};
use station_core::draws::DrawFacts;
use station_core::table::Table;
use station_voices::draughts::{DraughtsDrawFacts, word_draughts_draw_facts};
use station_voices::{Message, Wording, say_moves};

/// The draw question answered for the table's game: the draughts draws of
/// article 6 in a draughts game, the chess facts otherwise; `None` without a game.
pub fn table_draw_facts_text(wording: &Wording, table: &Table) -> Option<String> {
    match table.draughts() {
        Some(d) => draughts_draw_facts_text(wording, d.variant(), &d.draw_status()),
        None => table.draw_facts().map(|facts| draw_facts_text(wording, &facts)),
    }
}

/// The draughts draw facts (I.6.1–6.4): how often the position stood on the
/// board, the moves each of kings only against 25 (20 in the 64-square
/// version), and in an ending of 6.3/6.4 the moves each side has left.
pub fn draughts_draw_facts_text(wording: &Wording, variant: Variant, status: &DrawStatus) -> Option<String> {
    let facts = DraughtsDrawFacts {
        repetitions: u32::from(status.repetitions),
        king_moves: status.king_plies / 2,
        king_limit: variant.king_moves_limit(),
        ending: status.ending.map(|(draw, left)| (draw == Draw::LongEnding, left)),
    };
    word_draughts_draw_facts(wording.phrasebook(), &facts).ok()
}

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
    use station_core::draughts::board::{Color, Piece, Position};
    use station_core::draughts::draws::DrawWatch;
    use station_core::draughts::pdn::find_move;
    use station_voices::VoiceSettings;

    fn wording(lang: &str) -> Wording {
        Wording::new(&VoiceSettings { language: lang.into(), ..VoiceSettings::default() }).unwrap()
    }

    fn draughts_position(turn: Color, pieces: &[(u8, Color, bool)]) -> Position {
        let v = Variant::International;
        let mut p = Position::empty(v, turn);
        for &(n, color, king) in pieces {
            p.put(v.square(n).unwrap(), Piece { color, king });
        }
        p
    }

    /// Plays `moves` (`46-41`) on a watch of `start`: each must be legal.
    fn watch(start: Position, moves: &[&str]) -> DrawWatch {
        let mut w = DrawWatch::new(start);
        let mut pos = start;
        for m in moves {
            let mv = find_move(&pos, m).unwrap().unwrap_or_else(|| panic!("{m} legal"));
            w.played(&mv);
            pos = mv.apply(&pos);
        }
        w
    }

    fn draughts_answer(lang: &str, w: &DrawWatch) -> String {
        draughts_draw_facts_text(&wording(lang), Variant::International, &w.status()).unwrap()
    }

    /// 6.1 and 6.2: kings back and forth — the position's count and the
    /// kings-only moves against 25, in each player's language.
    #[test]
    fn i_6_1_and_6_2_repetitions_and_king_moves_answered_in_draughts() {
        use Color::{Black, White};
        let start = draughts_position(
            White,
            &[(46, White, true), (1, Black, true), (30, White, false), (21, Black, false)],
        );
        let w = watch(start, &["46-41", "1-6", "41-46", "6-1"]);
        assert_eq!(w.status().repetitions, 2);
        assert_eq!(
            draughts_answer("en", &w),
            "this position stood on the board two times. moves of kings only two of twenty-five"
        );
        let w = watch(start, &["46-41", "1-6", "41-46", "6-1", "46-41", "1-6", "41-46", "6-1"]);
        assert_eq!(
            draughts_answer("de", &w),
            "diese Stellung stand drei mal auf dem Brett. Züge nur mit Damen vier von fünfundzwanzig"
        );
        // A man's move starts the kings-only count again.
        let w = watch(start, &["46-41", "1-6", "30-24"]);
        assert!(draughts_answer("pl", &w).ends_with("posunięcia tylko damkami zero z dwadzieścia pięć"));
    }

    /// 6.3 and 6.4: the endings against a lone king say the moves left.
    #[test]
    fn i_6_3_and_6_4_endings_say_the_moves_left() {
        use Color::{Black, White};
        let long = draughts_position(
            White,
            &[(46, White, true), (47, White, true), (48, White, true), (5, Black, true)],
        );
        let w = watch(long, &["47-42", "5-10"]);
        assert_eq!(w.status().ending, Some((Draw::LongEnding, 15)));
        assert!(draughts_answer("en", &w).ends_with("three pieces against a lone king moves left fifteen"));
        let short = draughts_position(White, &[(46, White, true), (47, White, false), (1, Black, true)]);
        let w = watch(short, &["46-41"]);
        assert_eq!(w.status().ending.map(|(d, _)| d), Some(Draw::ShortEnding));
        let left = w.status().ending.unwrap().1;
        let said = draughts_answer("pl", &w);
        let book = wording("pl");
        let n = book.phrasebook().numbers().spell(u64::from(left));
        assert!(
            said.ends_with(&format!("dwie bierki przeciw samotnej damce pozostało posunięć {n}")),
            "{said}"
        );
        // The 64-square version counts kings-only moves against 20.
        let s64 = draughts_draw_facts_text(&wording("en"), Variant::Draughts64, &w.status()).unwrap();
        assert!(s64.contains("of twenty."), "{s64}");
    }

    /// A real record: knights out and back twice, then 47 quiet moves from a FEN.
    #[test]
    fn art_9_2_and_9_3_the_draw_question_is_answered_with_facts_from_the_record() {
        let mut g = Game::default();
        for m in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
            g.push_uci(m).unwrap();
        }
        let facts = station_core::draws::facts(&g);
        assert_eq!(
            draw_facts_text(&wording("de"), &facts),
            "Diese Stellung zum dritten Mal. Vier Züge ohne Bauernzug oder Schlagen"
        );
        assert_eq!(
            draw_facts_text(&wording("pl"), &facts),
            "ta pozycja po raz trzeci. cztery posunięcia bez ruchu pionkiem i bez bicia"
        );
        let quiet = Game::from_fen("4k2n/8/8/8/8/8/8/1N2K3 w - - 94 60").unwrap();
        let facts = station_core::draws::facts(&quiet);
        assert_eq!(facts.moves_without_pawn_or_capture(), 47);
        assert_eq!(
            draw_facts_text(&wording("de"), &facts),
            "Diese Stellung zum ersten Mal. Siebenundvierzig Züge ohne Bauernzug oder Schlagen"
        );
        assert_eq!(
            draw_facts_text(&wording("en"), &facts),
            "this position for the first time. forty-seven moves without a pawn move or capture"
        );
    }
}
