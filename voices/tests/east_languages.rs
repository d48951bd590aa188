//! Russian, Ukrainian, Czech and Hungarian (issue 36): the numbers 1–50 said
//! and heard, Cyrillic and the Ukrainian apostrophe in listening, other letter
//! names, and every draughts square said and understood (the clock's plural
//! forms are in `clock.rs`).

use shakmaty::{Chess, Position};
use station_voices::draughts::{
    DraughtsHeard, DraughtsMoveText, DraughtsSquare, understand_draughts, word_draughts_move,
};
use station_voices::understand::{CommandWord, Understanding};
use station_voices::{Phrasebook, VoiceSettings, Wording, position_from_fen};

const EAST: [&str; 4] = ["ru", "uk", "cs", "hu"];

fn book(code: &str) -> &'static Phrasebook {
    Phrasebook::builtin(code).expect("built-in language")
}

#[test]
fn move_numbers_one_to_fifty_are_words_and_are_heard_back() {
    let pos = Chess::default();
    for code in EAST {
        let book = book(code);
        let u = Understanding::language(code).unwrap();
        let go_to =
            book.command_words().unwrap().entry(CommandWord::GoToMove).expect("a go-to-move word").say();
        for n in 1..=50 {
            let words = book.numbers().spell(n);
            assert!(!words.is_empty() && !words.chars().any(|c| c.is_ascii_digit()), "{code} {n}: {words}");
            let heard = u.understand(&pos, &format!("{go_to} {words}"), None);
            assert_eq!(heard.line(), format!("command go_to_move {n}"), "[{code}] {go_to} {words}");
        }
    }
}

/// What the station understands of `text` in `code` after `fen`'s position.
fn heard(code: &str, fen: &str, text: &str) -> String {
    let position = position_from_fen(fen).unwrap();
    Understanding::language(code).unwrap().understand(&position, text, None).line()
}

const AFTER_E4_D5: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";

#[test]
fn cyrillic_is_heard_in_any_case_and_the_grammar_is_lower_case() {
    assert_eq!(heard("ru", "startpos", "КОНЬ ЭФ-ТРИ!"), "move g1f3 Nf3");
    assert_eq!(heard("ru", AFTER_E4_D5, "Е БЬЕТ ДЭ ПЯТЬ"), "move e4d5 exd5");
    assert_eq!(heard("uk", "startpos", "Кінь, Еф три."), "move g1f3 Nf3");
    // The typographic and the modifier letter apostrophe, as typed or as a
    // speech model may write them.
    assert_eq!(heard("uk", AFTER_E4_D5, "е б’є де п’ять"), "move e4d5 exd5");
    assert_eq!(heard("uk", AFTER_E4_D5, "е бʼє де пʼять"), "move e4d5 exd5");
    let pos = Chess::default();
    for code in ["ru", "uk"] {
        let grammar = Understanding::language(code).unwrap().grammar(&pos);
        assert!(grammar.phrases().iter().all(|p| *p == p.to_lowercase()), "{code}");
        let wording = Wording::new(&VoiceSettings::language(code)).unwrap();
        for mv in pos.legal_moves() {
            let said = wording.word_move(&pos, &mv).unwrap().to_string();
            assert!(said.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)), "{code}: {said}");
            assert!(grammar.contains(&said), "[{code}] {said} not in the grammar");
        }
    }
}

#[test]
fn the_annex_d_names_and_the_spelling_alphabets_are_understood() {
    let said = [
        ("ru", "конь Феликс три"),
        ("uk", "кінь Фелікс три"),
        ("cs", "jezdec František tři"),
        ("cs", "kůň Felix tři"),
        ("hu", "huszár Ferenc három"),
        ("hu", "ló Félix három"),
    ];
    let lines: Vec<String> = said.iter().map(|(code, text)| heard(code, "startpos", text)).collect();
    assert_eq!(lines, vec!["move g1f3 Nf3"; said.len()], "{said:?}");
}

/// Every square 1–50 as a start and an end of a quiet move, said and
/// understood back among all 50 × 49 moves of the same kind.
#[test]
fn every_draughts_square_is_said_and_understood_back() {
    let quiet = |from: u8, to: u8| DraughtsMoveText {
        from: DraughtsSquare::Number(from),
        to: DraughtsSquare::Number(to),
        via: Vec::new(),
        capture: false,
        king: false,
    };
    for code in EAST {
        let book = book(code);
        for from in 1..=50u8 {
            let legal: Vec<DraughtsMoveText> =
                (1..=50u8).filter(|to| *to != from).map(|to| quiet(from, to)).collect();
            for (i, mv) in legal.iter().enumerate() {
                let said = word_draughts_move(book, mv, false).unwrap();
                assert_eq!(
                    understand_draughts(book, &said, &legal),
                    DraughtsHeard::Move(i),
                    "[{code}] {said}"
                );
            }
        }
    }
}
