//! Draughts' words: moves by their squares (numbers on 10×10, letter and rank
//! on 8×8), the draw facts of I.6.1–6.4, the console's last move as PDN.

use super::{AnnounceOptions, GameWords, Said};
use anyhow::Result;
use serde_json::{Value, json};
use station_core::Game;
use station_core::draughts::draws::{Draw, DrawStatus};
use station_core::draughts::{DraughtsPath, Variant};
use station_core::event::PlayedMove;
use station_core::record::{GameRecord, RecordedMove};
use station_core::table::Table;
use station_voices::Wording;
use station_voices::draughts::{DraughtsDrawFacts, word_draughts_draw_facts};

/// The words of a draughts variant.
#[derive(Debug)]
pub struct DraughtsWords(pub Variant);

impl GameWords for DraughtsWords {
    fn draw_facts_text(&self, wording: &Wording, table: &Table) -> Option<String> {
        table.draughts().and_then(|d| draw_facts_words(wording, self.0, &d.draw_status()))
    }

    /// The record's last move in PDN where the chess record's SAN would be
    /// (the console's live record), with its words in each language.
    fn last_move(&self, table: &Table, record: Option<&GameRecord>, _: Option<Value>) -> Option<Value> {
        let play = table.draughts()?;
        let m = record?.moves.last()?;
        let ply = m.ply;
        let path = m.pdn.as_ref().or(m.played.draughts())?;
        let mut text = serde_json::Map::new();
        for lang in station_voices::BUILTIN_LANGUAGES {
            if let Some(book) = station_voices::Phrasebook::builtin(lang)
                && let Ok(words) = crate::announce_draughts::say_move(book, self.0, path, play.made_king(ply))
            {
                text.insert(lang.into(), Value::String(words));
            }
        }
        let pdn = path.to_string();
        Some(json!({"ply": ply, "san": pdn, "uci": pdn, "pdn": pdn, "text": text}))
    }

    fn move_at(&self, wording: &Wording, _: Option<&shakmaty::Chess>, mv: &PlayedMove) -> Option<String> {
        let book = wording.phrasebook();
        // A draughts move's squares need the variant, known here.
        let PlayedMove::Draughts(path) = mv else { return Some(String::new()) };
        Some(crate::announce_draughts::say_move(book, self.0, path, false).unwrap_or_default())
    }

    fn said(&self, table: &Table, _: Option<&Game>, m: &RecordedMove, ply: usize) -> Option<Said> {
        let (pdn, play) = (m.pdn.as_ref()?, table.draughts()?);
        Some(Said::Draughts { variant: self.0, pdn: pdn.clone(), king: play.made_king(ply) })
    }

    fn announce(&self, opts: &AnnounceOptions) -> Result<Vec<String>> {
        crate::announce_draughts::announce_moves(&opts.voice.language, self.0, &opts.moves)
    }
}

/// A draughts move in `w`'s words, by its start and end square.
pub(super) fn said_words(w: &Wording, variant: Variant, path: &DraughtsPath, king: bool) -> String {
    crate::announce_draughts::say_move_with_path(w.phrasebook(), variant, path, king, false)
        .unwrap_or_default()
}

/// The draughts draw facts (I.6.1–6.4): how often the position stood on the
/// board, the moves each of kings only against 25 (20 in the 64-square
/// version), and in an ending of 6.3/6.4 the moves each side has left.
pub fn draw_facts_words(wording: &Wording, variant: Variant, status: &DrawStatus) -> Option<String> {
    let facts = DraughtsDrawFacts {
        repetitions: u32::from(status.repetitions),
        king_moves: status.king_plies / 2,
        king_limit: variant.king_moves_limit(),
        ending: status.ending.map(|(draw, left)| (draw == Draw::LongEnding, left)),
    };
    word_draughts_draw_facts(wording.phrasebook(), &facts).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
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
        draw_facts_words(&wording(lang), Variant::International, &w.status()).unwrap()
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
        let s64 = draw_facts_words(&wording("en"), Variant::Draughts64, &w.status()).unwrap();
        assert!(s64.contains("of twenty."), "{s64}");
    }
}
