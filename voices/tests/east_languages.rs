//! Russian, Ukrainian, Czech and Hungarian (issue 36): the talking clock's
//! plural forms, the numbers 1–50 said and heard, Cyrillic and the Ukrainian
//! apostrophe in listening, and every draughts square said and understood.

use shakmaty::{Chess, Position};
use station_voices::draughts::{
    DraughtsHeard, DraughtsMoveText, DraughtsSquare, understand_draughts, word_draughts_move,
};
use station_voices::understand::{CommandWord, Understanding, Understood};
use station_voices::{
    Phrasebook, VoiceSettings, Wording, clock_report, position_from_fen, say_duration, say_moves,
};

const EAST: [&str; 4] = ["ru", "uk", "cs", "hu"];
const SECOND: u64 = 1_000;
const MINUTE: u64 = 60 * SECOND;
const HOUR: u64 = 60 * MINUTE;

fn book(code: &str) -> &'static Phrasebook {
    Phrasebook::builtin(code).expect("built-in language")
}

#[test]
fn durations_take_each_languages_plural_forms() {
    let cases: &[(&str, u64, &str)] = &[
        // Russian: 21 → one, 22–24 → few, 11–14 and 25 → many; "одна"/"две" for minutes.
        ("ru", MINUTE, "одна минута"),
        ("ru", 2 * MINUTE, "две минуты"),
        ("ru", 5 * MINUTE, "пять минут"),
        ("ru", 11 * MINUTE, "одиннадцать минут"),
        ("ru", 12 * MINUTE, "двенадцать минут"),
        ("ru", 21 * MINUTE, "двадцать одна минута"),
        ("ru", 22 * MINUTE, "двадцать две минуты"),
        ("ru", 25 * MINUTE, "двадцать пять минут"),
        ("ru", HOUR + 31 * MINUTE, "один час тридцать одна минута"),
        ("ru", 2 * HOUR, "два часа"),
        ("ru", 5 * MINUTE + 41 * SECOND, "пять минут сорок одна секунда"),
        ("ru", 44 * SECOND, "сорок четыре секунды"),
        // Ukrainian: the same rule, "одна"/"дві" for its feminine nouns.
        ("uk", MINUTE, "одна хвилина"),
        ("uk", 2 * MINUTE, "дві хвилини"),
        ("uk", 14 * MINUTE, "чотирнадцять хвилин"),
        ("uk", 21 * MINUTE, "двадцять одна хвилина"),
        ("uk", 23 * MINUTE, "двадцять три хвилини"),
        ("uk", 2 * HOUR + MINUTE, "дві години одна хвилина"),
        ("uk", 5 * SECOND, "п'ять секунд"),
        // Czech: 1 one, 2–4 few, everything else many, compounds tens first.
        ("cs", MINUTE, "jedna minuta"),
        ("cs", 2 * MINUTE, "dvě minuty"),
        ("cs", 4 * MINUTE, "čtyři minuty"),
        ("cs", 5 * MINUTE, "pět minut"),
        ("cs", 21 * MINUTE, "dvacet jedna minut"),
        ("cs", 22 * MINUTE, "dvacet dva minut"),
        ("cs", HOUR, "jedna hodina"),
        ("cs", 3 * HOUR + 2 * MINUTE, "tři hodiny dvě minuty"),
        ("cs", 2 * MINUTE + SECOND, "dvě minuty jedna sekunda"),
        // Hungarian: the noun singular after every number, "két" before it.
        ("hu", MINUTE, "egy perc"),
        ("hu", 2 * MINUTE, "két perc"),
        ("hu", 12 * MINUTE, "tizenkét perc"),
        ("hu", 20 * MINUTE, "húsz perc"),
        ("hu", 22 * MINUTE, "huszonkét perc"),
        ("hu", 32 * MINUTE, "harminckét perc"),
        ("hu", 2 * HOUR + 2 * MINUTE, "két óra két perc"),
        ("hu", 9 * MINUTE + 42 * SECOND, "kilenc perc negyvenkét másodperc"),
    ];
    for (code, ms, want) in cases {
        assert_eq!(say_duration(book(code), *ms), *want, "{code} {ms} ms");
    }
    for (code, moves, want) in [
        ("ru", 1, "один ход"),
        ("ru", 21, "двадцать один ход"),
        ("ru", 24, "двадцать четыре хода"),
        ("ru", 40, "сорок ходов"),
        ("uk", 22, "двадцять два ходи"),
        ("uk", 40, "сорок ходів"),
        ("cs", 1, "jeden tah"),
        ("cs", 3, "tři tahy"),
        ("cs", 21, "dvacet jedna tahů"),
        ("hu", 2, "két lépés"),
        ("hu", 112, "száztizenkét lépés"),
    ] {
        assert_eq!(say_moves(book(code), moves), want, "{code} {moves}");
    }
    assert_eq!(
        clock_report(book("ru"), 5 * MINUTE, 4 * MINUTE, 20),
        "Вы: пять минут. Соперник: четыре минуты. Двадцать ходов."
    );
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

#[test]
fn cyrillic_is_heard_in_any_case_and_the_grammar_is_lower_case() {
    let pos = Chess::default();
    let after_e4_d5 =
        position_from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2").unwrap();
    for (code, shouted, typed_capture) in
        [("ru", "КОНЬ ЭФ-ТРИ!", "Е БЬЕТ ДЭ ПЯТЬ"), ("uk", "Кінь, Еф три.", "е б’є де п’ять")]
    {
        let u = Understanding::language(code).unwrap();
        assert_eq!(u.understand(&pos, shouted, None).line(), "move g1f3 Nf3", "[{code}] {shouted}");
        assert_eq!(
            u.understand(&after_e4_d5, typed_capture, None).line(),
            "move e4d5 exd5",
            "[{code}] {typed_capture}"
        );
        let grammar = u.grammar(&pos);
        assert!(grammar.phrases().iter().all(|p| *p == p.to_lowercase()), "{code}");
        let wording = Wording::new(&VoiceSettings::language(code)).unwrap();
        for mv in pos.legal_moves() {
            let said = wording.word_move(&pos, &mv).unwrap().to_string();
            assert!(said.chars().any(|c| ('\u{0400}'..='\u{04FF}').contains(&c)), "{code}: {said}");
            assert!(grammar.contains(&said), "[{code}] {said} not in the grammar");
        }
    }
    // The modifier letter apostrophe, as a speech model may write it.
    let uk = Understanding::language("uk").unwrap();
    assert_eq!(uk.understand(&after_e4_d5, "е бʼє де пʼять", None).line(), "move e4d5 exd5");
}

#[test]
fn the_annex_d_names_and_the_spelling_alphabets_are_understood() {
    let pos = Chess::default();
    for (code, text) in [
        ("ru", "конь Феликс три"),
        ("uk", "кінь Фелікс три"),
        ("cs", "jezdec František tři"),
        ("cs", "kůň Felix tři"),
        ("hu", "huszár Ferenc három"),
        ("hu", "ló Félix három"),
    ] {
        let u = Understanding::language(code).unwrap();
        let heard = u.understand(&pos, text, None);
        assert!(matches!(heard, Understood::Move { .. }), "[{code}] {text}: {}", heard.line());
        assert_eq!(heard.line(), "move g1f3 Nf3", "[{code}] {text}");
    }
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
