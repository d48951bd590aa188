//! The talking clock (Annex D.2.6.1): numbers, noun forms and the report.

use station_voices::{Phrasebook, clock_report, clock_report_used, say_duration, say_moves};

fn book(code: &str) -> &'static Phrasebook {
    Phrasebook::builtin(code).expect("built-in language")
}

const MINUTE: u64 = 60_000;
const HOUR: u64 = 60 * MINUTE;
const SECOND: u64 = 1_000;

#[test]
fn numbers_in_words() {
    let cases: &[(&str, u64, &str)] = &[
        ("de", 0, "null"),
        ("de", 1, "eins"),
        ("de", 7, "sieben"),
        ("de", 12, "zwölf"),
        ("de", 17, "siebzehn"),
        ("de", 20, "zwanzig"),
        ("de", 21, "einundzwanzig"),
        ("de", 30, "dreißig"),
        ("de", 58, "achtundfünfzig"),
        ("de", 99, "neunundneunzig"),
        ("de", 100, "hundert"),
        ("de", 101, "hunderteins"),
        ("de", 121, "hunderteinundzwanzig"),
        ("de", 199, "hundertneunundneunzig"),
        ("de", 250, "zweihundertfünfzig"),
        ("pl", 0, "zero"),
        ("pl", 1, "jeden"),
        ("pl", 11, "jedenaście"),
        ("pl", 14, "czternaście"),
        ("pl", 22, "dwadzieścia dwa"),
        ("pl", 40, "czterdzieści"),
        ("pl", 59, "pięćdziesiąt dziewięć"),
        ("pl", 100, "sto"),
        ("pl", 112, "sto dwanaście"),
        ("pl", 199, "sto dziewięćdziesiąt dziewięć"),
        ("pl", 200, "dwieście"),
        ("en", 0, "zero"),
        ("en", 13, "thirteen"),
        ("en", 21, "twenty-one"),
        ("en", 40, "forty"),
        ("en", 100, "one hundred"),
        ("en", 145, "one hundred forty-five"),
        ("en", 199, "one hundred ninety-nine"),
        ("en", 1000, "1000"),
    ];
    for (code, n, expected) in cases {
        assert_eq!(book(code).numbers().spell(*n), *expected, "{code} {n}");
    }
}

#[test]
fn every_number_up_to_199_is_spelled_in_words() {
    for code in station_voices::BUILTIN_LANGUAGES {
        for n in 0..=199 {
            let words = book(code).numbers().spell(n);
            assert!(!words.is_empty() && !words.chars().any(|c| c.is_ascii_digit()), "{code} {n}: {words:?}");
        }
    }
}

#[test]
fn durations_with_grammar() {
    let cases: &[(&str, u64, &str)] = &[
        ("de", HOUR + 12 * MINUTE, "eine Stunde zwölf Minuten"),
        ("de", 2 * HOUR, "zwei Stunden"),
        ("de", 2 * HOUR + MINUTE, "zwei Stunden eine Minute"),
        ("de", 21 * MINUTE, "einundzwanzig Minuten"),
        ("de", 58 * MINUTE + 59 * SECOND, "achtundfünfzig Minuten"),
        ("de", MINUTE, "eine Minute"),
        ("de", MINUTE + SECOND, "eine Minute eine Sekunde"),
        ("de", 9 * MINUTE + 30 * SECOND, "neun Minuten dreißig Sekunden"),
        ("de", 30 * SECOND, "dreißig Sekunden"),
        ("de", 30 * SECOND + 999, "dreißig Sekunden"),
        ("de", 999, "null Sekunden"),
        ("pl", HOUR, "jedna godzina"),
        ("pl", 2 * HOUR, "dwie godziny"),
        ("pl", 5 * HOUR, "pięć godzin"),
        ("pl", HOUR + MINUTE, "jedna godzina jedna minuta"),
        ("pl", MINUTE, "jedna minuta"),
        ("pl", 2 * MINUTE, "dwie minuty"),
        ("pl", 4 * MINUTE + 3 * SECOND, "cztery minuty trzy sekundy"),
        ("pl", 5 * MINUTE, "pięć minut"),
        ("pl", 12 * MINUTE, "dwanaście minut"),
        ("pl", 13 * MINUTE, "trzynaście minut"),
        ("pl", 21 * MINUTE, "dwadzieścia jeden minut"),
        ("pl", 22 * MINUTE, "dwadzieścia dwie minuty"),
        ("pl", 24 * MINUTE, "dwadzieścia cztery minuty"),
        ("pl", 25 * MINUTE, "dwadzieścia pięć minut"),
        ("pl", 30 * SECOND, "trzydzieści sekund"),
        ("pl", SECOND, "jedna sekunda"),
        ("pl", 32 * SECOND, "trzydzieści dwie sekundy"),
        ("en", HOUR + 12 * MINUTE, "one hour twelve minutes"),
        ("en", 3 * HOUR, "three hours"),
        ("en", MINUTE, "one minute"),
        ("en", 2 * MINUTE + SECOND, "two minutes one second"),
        ("en", 30 * SECOND, "thirty seconds"),
        ("en", 41 * MINUTE, "forty-one minutes"),
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
    for (code, ms, expected) in cases {
        assert_eq!(say_duration(book(code), *ms), *expected, "{code} {ms} ms");
    }
}

#[test]
fn moves_with_grammar() {
    let cases: &[(&str, u32, &str)] = &[
        ("de", 0, "null Züge"),
        ("de", 1, "ein Zug"),
        ("de", 2, "zwei Züge"),
        ("de", 21, "einundzwanzig Züge"),
        ("de", 23, "dreiundzwanzig Züge"),
        ("pl", 1, "jedno posunięcie"),
        ("pl", 2, "dwa posunięcia"),
        ("pl", 5, "pięć posunięć"),
        ("pl", 12, "dwanaście posunięć"),
        ("pl", 21, "dwadzieścia jeden posunięć"),
        ("pl", 22, "dwadzieścia dwa posunięcia"),
        ("pl", 23, "dwadzieścia trzy posunięcia"),
        ("pl", 104, "sto cztery posunięcia"),
        ("pl", 114, "sto czternaście posunięć"),
        ("en", 1, "one move"),
        ("en", 23, "twenty-three moves"),
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
    ];
    for (code, n, expected) in cases {
        assert_eq!(say_moves(book(code), *n), *expected, "{code} {n}");
    }
}

#[test]
fn clock_reports() {
    assert_eq!(
        clock_report(book("de"), HOUR + 12 * MINUTE, 58 * MINUTE, 22),
        "Sie: eine Stunde zwölf Minuten. Gegner: achtundfünfzig Minuten. Zweiundzwanzig Züge."
    );
    assert_eq!(
        clock_report(book("pl"), 2 * HOUR, 22 * MINUTE, 23),
        "Ty: dwie godziny. Przeciwnik: dwadzieścia dwie minuty. Dwadzieścia trzy posunięcia."
    );
    assert_eq!(
        clock_report(book("en"), 30 * SECOND, 5 * MINUTE + 7 * SECOND, 1),
        "You: thirty seconds. Opponent: five minutes seven seconds. One move."
    );
    assert_eq!(
        clock_report(book("ru"), 5 * MINUTE, 4 * MINUTE, 20),
        "Вы: пять минут. Соперник: четыре минуты. Двадцать ходов."
    );
    assert_eq!(
        clock_report(book("de"), 0, u64::MAX, 0),
        "Sie: null Sekunden. Gegner: 5124095576030 Stunden fünfundzwanzig Minuten. Null Züge."
    );
}

/// D.2.10.4: the time used, headed by its own words so it never sounds like
/// the time left (speech has no punctuation), with the number of moves.
#[test]
fn clock_reports_in_time_used() {
    assert_eq!(
        clock_report_used(book("de"), 18 * MINUTE + 5 * SECOND, HOUR + MINUTE, 25),
        "Verbrauchte Zeit. Sie: achtzehn Minuten. Gegner: eine Stunde eine Minute. Fünfundzwanzig Züge."
    );
    assert_eq!(
        clock_report_used(book("pl"), 18 * MINUTE + 5 * SECOND, HOUR + MINUTE, 25),
        "Czas zużyty. Ty: osiemnaście minut. Przeciwnik: jedna godzina jedna minuta. Dwadzieścia pięć posunięć."
    );
    assert_eq!(
        clock_report_used(book("en"), 18 * MINUTE + 5 * SECOND, HOUR + MINUTE, 25),
        "Time used. You: eighteen minutes. Opponent: one hour one minute. Twenty-five moves."
    );
    for code in station_voices::BUILTIN_LANGUAGES {
        let left = clock_report(book(code), 3 * MINUTE, 3 * MINUTE, 25);
        let used = clock_report_used(book(code), 3 * MINUTE, 3 * MINUTE, 25);
        assert!(used.ends_with(&left) && used.len() > left.len(), "{code}: {used}");
    }
}
