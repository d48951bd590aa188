//! Heard-right (issue 33) in every built-in language (issue 36): with the
//! move his board shows known, an announcement with a word lost to `[unk]`
//! or cut short by the recogniser is that move, and the station's own clear
//! words of another legal move are a slip — over the moves of real games.

mod common;

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};
use station_voices::understand::Understanding;
use station_voices::{VoiceSettings, Wording};

/// The first plies of the vendored games: openings, captures, castling.
const PLIES: usize = 40;
/// How sure the recogniser was of a misheard phrase (as in the heard-right tests).
const UNSURE: Option<f32> = Some(0.82);

/// Known gaps (language, phrase, wanted kind), found by this test when the
/// languages met heard-right and left for the matcher's owner: French "un"
/// (rank one) is one sound (`'W~`), too short for the repair to hold a gap
/// next to it or to call other words a clear slip; a Russian or Ukrainian
/// castling whose second word is cut, or "пят" cut from "пять", loses to
/// other moves. Each must still fail somewhere: a fix shows here and shrinks the list.
const KNOWN: [(&str, &str, &str); KNOWN_GAPS] = [
    ("fr", "[unk] Félix César un", "move"),
    ("fr", "tour Félix [unk] un", "move"),
    ("fr", "tour Félix César un", "slip"),
    ("fr", "[unk] César un", "move"),
    ("fr", "tour [unk] un", "move"),
    ("fr", "tour César un", "slip"),
    ("fr", "[unk] Eva un", "move"),
    ("fr", "fou [unk] un", "move"),
    ("fr", "fou Eva un", "slip"),
    ("fr", "[unk] Anna César un", "move"),
    ("fr", "tour Anna [unk] un", "move"),
    ("fr", "tour Anna César un", "slip"),
    ("fr", "[unk] Félix David un", "move"),
    ("fr", "tour Félix David un", "slip"),
    ("ru", "дэ бьёт е пят", "move"),
    ("ru", "короткая рокировк", "move"),
    ("ru", "длинная рокировк", "move"),
    ("ru", "конь бэ а четыр", "move"),
    ("uk", "коротка рокіровк", "move"),
    ("uk", "довга рокіровк", "move"),
];
const KNOWN_GAPS: usize = 20;

/// (position, move) for the first [`PLIES`] plies of the first games.
fn positions() -> Vec<(Chess, Move)> {
    let mut out = Vec::new();
    for game in common::read_games(include_str!("data/games.pgn")).iter().take(3) {
        let mut pos = Chess::default();
        for san in game.sans.iter().take(PLIES) {
            let mv = SanPlus::from_ascii(san.as_bytes()).unwrap().san.to_move(&pos).unwrap();
            out.push((pos.clone(), mv));
            pos.play_unchecked(mv);
        }
    }
    out
}

/// The phrase with its `i`-th word replaced by `with`.
fn replaced(words: &[&str], i: usize, with: &str) -> String {
    let mut words: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    words[i] = with.to_owned();
    words.join(" ")
}

#[test]
fn every_language_hears_the_boards_move_and_tells_a_slip() {
    let positions = positions();
    assert!(positions.len() >= 100, "{} positions", positions.len());
    let mut failures = Vec::new();
    let mut still_known: std::collections::BTreeSet<(&str, String, &str)> = std::collections::BTreeSet::new();
    for lang in station_voices::BUILTIN_LANGUAGES {
        let u = Understanding::language(lang).unwrap();
        let wording = Wording::new(&VoiceSettings::language(lang)).unwrap();
        for (pos, mv) in &positions {
            let uci = mv.to_uci(shakmaty::CastlingMode::Standard);
            let want = |line: &str, kind: &str| line.starts_with(&format!("{kind} {uci} "));
            let said = wording.word_move(pos, mv).unwrap().to_string();
            let words: Vec<&str> = said.split_whitespace().collect();
            let mut check = |text: String, confidence: Option<f32>, board: Move, kind: &'static str| {
                let line = u.understand_expecting(pos, &text, confidence, Some(board)).line();
                let known = KNOWN.contains(&(lang, text.as_str(), kind));
                if !want(&line, kind) {
                    if known {
                        still_known.insert((lang, text.clone(), kind));
                    } else {
                        failures.push(format!(
                            "[{lang}] {uci}, board {board}: {text:?} → {line:?} (want {kind})"
                        ));
                    }
                }
            };
            // His own words, and each word in turn lost to [unk].
            check(said.clone(), UNSURE, *mv, "move");
            if words.len() > 1 {
                for i in 0..words.len() {
                    check(replaced(&words, i, "[unk]"), UNSURE, *mv, "move");
                }
            }
            // The last word cut short by one letter ("tres" heard "tre").
            let last = words[words.len() - 1];
            if last.chars().count() > 3 {
                let cut: String = last.chars().take(last.chars().count() - 1).collect();
                check(replaced(&words, words.len() - 1, &cut), UNSURE, *mv, "move");
            }
            // His board shows another move: his clear words are a slip.
            if let Some(other) = pos.legal_moves().into_iter().find(|m| m != mv) {
                check(said.clone(), None, other, "slip");
            }
        }
    }
    assert_eq!(
        still_known.len(),
        KNOWN.len(),
        "a KNOWN phrase is understood now in every position: take it from KNOWN"
    );
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}
