//! The console reads what is written (issue 22 §3): a move entered at the
//! console whose reading needed anything beyond its exact notation (a
//! lower-case piece letter, a missing capture or check sign, …) is echoed
//! back in words and SAN, numbered as on a scoresheet, and counts only once
//! the operator confirms it. Nothing is journaled for the question: it
//! changes nothing.
//!
//! The answer is `{"ok":false,"confirm":true,…}` with the SAN, the scoresheet number, the move in
//! English words and what the reading needed; nothing changes until `enter_move` comes again with
//! `confirm: true`.

use serde_json::{Value, json};
use shakmaty::Chess;
use shakmaty::san::SanPlus;
use station_core::notation::{move_number, read_strictly};
use station_voices::{MoveReading, VoiceSettings, Wording};

/// The answer to `enter_move` when `text` must be confirmed first:
/// `{"ok":false,"confirm":true,"san":"dxe4","number":"21...","text":"21... dxe4",
/// "needed":["a capture written without x"],"words":"d takes e4","entered":"de4"}`;
/// `None` when it counts as it is (read exactly, or `confirm` given) or names
/// no move (then the table refuses it with the reason).
pub fn echo(pos: &Chess, text: &str, confirm: Option<bool>) -> Option<Value> {
    if confirm == Some(true) {
        return None;
    }
    let reading = read_strictly(pos, text).ok()?;
    if reading.needed.is_empty() {
        return None;
    }
    let san = SanPlus::from_move(pos.clone(), reading.mv).to_string();
    let number = move_number(pos);
    let settings = VoiceSettings { move_reading: MoveReading::Letters, ..VoiceSettings::language("en") };
    let words = Wording::new(&settings)
        .ok()
        .and_then(|w| w.word_move(pos, &reading.mv).ok().map(|a| a.to_string()))
        .unwrap_or_default();
    let needed: Vec<&str> = reading.needed.iter().map(|l| l.words()).collect();
    Some(json!({
        "ok": false,
        "confirm": true,
        "san": san,
        "number": number,
        "text": format!("{number} {san}"),
        "words": words,
        "needed": needed,
        "entered": text,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    fn after(moves: &[&str]) -> Chess {
        let mut pos = Chess::default();
        for m in moves {
            let mv = station_core::notation::read(&pos, m).unwrap();
            pos.play_unchecked(mv);
        }
        pos
    }

    #[test]
    fn a_move_read_with_a_liberty_is_echoed_until_confirmed() {
        let pos = after(&["e4", "d5", "Nc3"]);
        let answer = echo(&pos, "dxe4", None);
        assert_eq!(answer, None, "the exact notation counts at once");
        let answer = echo(&pos, "nf6", None).expect("a lower-case piece letter is echoed");
        assert_eq!(answer["ok"], false);
        assert_eq!(answer["confirm"], true);
        assert_eq!(answer["san"], "Nf6");
        assert_eq!(answer["number"], "2...");
        assert_eq!(answer["text"], "2... Nf6");
        assert_eq!(answer["needed"], json!(["a piece letter in lower case"]));
        assert!(answer["words"].as_str().is_some_and(|w| w.to_lowercase().contains("knight")), "{answer}");
        assert_eq!(echo(&pos, "nf6", Some(true)), None, "confirmed, it counts");
        assert!(echo(&pos, "nf6", Some(false)).is_some());
        assert_eq!(echo(&pos, "e4", None), None, "no move: the table refuses it with the reason");
    }

    #[test]
    fn a_missing_check_sign_is_echoed() {
        let pos = after(&["e4", "f5", "d3", "g5"]);
        let answer = echo(&pos, "Qh5", None).expect("Qh5 is mate, written without #");
        assert_eq!(answer["text"], "3. Qh5#");
        assert_eq!(answer["needed"], json!(["a mate written without #"]));
        assert_eq!(echo(&pos, "Qh5#", None), None);
        assert_eq!(echo(&pos, "4185", None), None, "ICCF numeric has no signs");
    }
}
