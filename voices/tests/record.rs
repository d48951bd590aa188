//! Issue 18 by text, in all three languages, from a real mid-game position
//! (Chandler - Kasparov 1976 after 25.Rxc3, the first game of
//! `data/games.pgn`): the record read back and navigated, the position by
//! rank and file, material, and the bad inputs (a move 900, a rank nine).

mod common;

use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};
use station_voices::understand::{
    RecordCursor, RecordMark, RecordStep, SpokenCommand, Understanding, Understood,
};

/// The first `plies` moves of the first test game, with the position after them.
fn mid_game(plies: usize) -> (Vec<Move>, Chess) {
    let games = common::read_games(include_str!("data/games.pgn"));
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for san in games[0].sans.iter().take(plies) {
        let mv = san.parse::<San>().unwrap().to_move(&pos).unwrap();
        pos = pos.play(mv).unwrap();
        moves.push(mv);
    }
    (moves, pos)
}

fn command(u: &Understanding, pos: &Chess, text: &str) -> SpokenCommand {
    match u.understand(pos, text, None) {
        Understood::Command(c) => c,
        other => panic!("{text:?}: {}", other.line()),
    }
}

/// Says what `texts` ask for, one after the other, with one cursor.
fn walk(lang: &str, me: Color, texts: &[&str]) -> Vec<String> {
    let u = Understanding::language(lang).unwrap();
    let (moves, pos) = mid_game(49);
    let mut cursor = RecordCursor::new();
    texts
        .iter()
        .map(|text| {
            let step = RecordStep::of(&command(&u, &pos, text)).expect("a record step");
            cursor.step(&u, &Chess::default(), &moves, me, step)
        })
        .collect()
}

/// The answer to a board question in the mid-game position, White's view.
fn answer(lang: &str, text: &str) -> String {
    let u = Understanding::language(lang).unwrap();
    let (_, pos) = mid_game(49);
    let c = command(&u, &pos, text);
    u.answer(pos.board(), Color::White, &c).unwrap_or_else(|| panic!("{text:?} has no answer"))
}

fn rejected(lang: &str, text: &str) -> String {
    let u = Understanding::language(lang).unwrap();
    let (_, pos) = mid_game(49);
    u.understand(&pos, text, None).line()
}

#[test]
fn the_record_is_read_back_and_navigated() {
    let cases = [
        (
            "de",
            ["Partie", "zurück", "weiter", "weiter", "Zug dreiundzwanzig", "Zug neunhundert", "weiter"],
            [
                "Zug einundzwanzig Sie Dame Eva eins, Gegner Anna sechs. Zug zweiundzwanzig Sie Turm Anna Bella eins, Gegner Gustav fünf. Zug dreiundzwanzig Sie Springer David zwei, Gegner Springer David vier. Zug vierundzwanzig Sie Dame Eva drei, Gegner Turm schlägt Cesar drei. Zug fünfundzwanzig Sie Turm schlägt Cesar drei",
                "Zug zwanzig Gegner Felix fünf",
                "Zug einundzwanzig Sie Dame Eva eins",
                "Zug einundzwanzig Gegner Anna sechs",
                "Zug dreiundzwanzig Sie Springer David zwei, Gegner Springer David vier",
                "Zug neunhundert keine, fünfundzwanzig Züge",
                "Zug vierundzwanzig Sie Dame Eva drei",
            ],
        ),
        (
            "pl",
            ["zapis", "wstecz", "dalej", "dalej", "ruch dwadzieścia trzy", "ruch dziewięćset", "dalej"],
            [
                "posunięcie dwadzieścia jeden Ty hetman Ewa jeden, Przeciwnik Anna sześć. posunięcie dwadzieścia dwa Ty wieża Anna Bella jeden, Przeciwnik Gustaw pięć. posunięcie dwadzieścia trzy Ty skoczek Dawid dwa, Przeciwnik skoczek Dawid cztery. posunięcie dwadzieścia cztery Ty hetman Ewa trzy, Przeciwnik wieża bije Cesar trzy. posunięcie dwadzieścia pięć Ty wieża bije Cesar trzy",
                "posunięcie dwadzieścia Przeciwnik Feliks pięć",
                "posunięcie dwadzieścia jeden Ty hetman Ewa jeden",
                "posunięcie dwadzieścia jeden Przeciwnik Anna sześć",
                "posunięcie dwadzieścia trzy Ty skoczek Dawid dwa, Przeciwnik skoczek Dawid cztery",
                "posunięcie dziewięćset brak, dwadzieścia pięć posunięć",
                "posunięcie dwadzieścia cztery Ty hetman Ewa trzy",
            ],
        ),
        (
            "en",
            ["record", "back", "next", "next", "move twenty-three", "move nine hundred", "next"],
            [
                "move twenty-one You Queen Eva one, Opponent Anna six. move twenty-two You Rook Anna Bella one, Opponent Gustav five. move twenty-three You Knight David two, Opponent Knight David four. move twenty-four You Queen Eva three, Opponent Rook takes Cesar three. move twenty-five You Rook takes Cesar three",
                "move twenty Opponent Felix five",
                "move twenty-one You Queen Eva one",
                "move twenty-one Opponent Anna six",
                "move twenty-three You Knight David two, Opponent Knight David four",
                "move nine hundred none, twenty-five moves",
                "move twenty-four You Queen Eva three",
            ],
        ),
    ];
    for (lang, texts, expected) in cases {
        assert_eq!(walk(lang, Color::White, &texts), expected, "{lang}");
    }
}

#[test]
fn the_ends_of_the_record_are_said_and_the_cursor_stays() {
    let said = walk("de", Color::Black, &["Zug eins", "zurück", "weiter"]);
    assert_eq!(said[0], "Zug eins Gegner Eva vier, Sie Cesar fünf");
    assert_eq!(said[1], "Zug eins keine, fünfundzwanzig Züge");
    assert_eq!(said[2], "Zug zwei Gegner Cesar drei");
    let end = walk("en", Color::White, &["record", "next"]);
    assert_eq!(end[1], "move twenty-five none, twenty-five moves");
    // Nothing played yet: the count, not a crash.
    let u = Understanding::language("de").unwrap();
    let mut cursor = RecordCursor::new();
    assert_eq!(cursor.step(&u, &Chess::default(), &[], Color::White, RecordStep::Last), "null Züge");
    assert_eq!(cursor.read(), None);
}

#[test]
fn ranks_files_and_material_are_read_from_the_board() {
    let cases = [
        (
            "de",
            ["Reihe vier", "Linie Eva", "Linie e", "Material"],
            [
                "vier Anna leer, Bella Bauer Sie, Cesar leer, David Springer Gegner, Eva bis Hector leer",
                "Eva eins bis zwei leer, drei Dame Sie, vier leer, fünf Bauer Sie, sechs Bauer Gegner, sieben Läufer Gegner, acht leer",
                "Eva eins bis zwei leer, drei Dame Sie, vier leer, fünf Bauer Sie, sechs Bauer Gegner, sieben Läufer Gegner, acht leer",
                "Sie: Läufer, Springer, Bauer, Bauer. Gegner: Turm, Springer, Bauer, Bauer",
            ],
        ),
        (
            "pl",
            ["rząd cztery", "linia Ewa", "linia e", "materiał"],
            [
                "cztery Anna puste, Bella pion Ty, Cesar puste, Dawid skoczek Przeciwnik, Ewa do Hektor puste",
                "Ewa jeden do dwa puste, trzy hetman Ty, cztery puste, pięć pion Ty, sześć pion Przeciwnik, siedem goniec Przeciwnik, osiem puste",
                "Ewa jeden do dwa puste, trzy hetman Ty, cztery puste, pięć pion Ty, sześć pion Przeciwnik, siedem goniec Przeciwnik, osiem puste",
                "Ty: goniec, skoczek, pion, pion. Przeciwnik: wieża, skoczek, pion, pion",
            ],
        ),
        (
            "en",
            ["rank four", "file Eva", "file e", "material"],
            [
                "four Anna empty, Bella Pawn You, Cesar empty, David Knight Opponent, Eva to Hector empty",
                "Eva one to two empty, three Queen You, four empty, five Pawn You, six Pawn Opponent, seven Bishop Opponent, eight empty",
                "Eva one to two empty, three Queen You, four empty, five Pawn You, six Pawn Opponent, seven Bishop Opponent, eight empty",
                "You: Bishop, Knight, Pawn, Pawn. Opponent: Rook, Knight, Pawn, Pawn",
            ],
        ),
    ];
    for (lang, texts, expected) in cases {
        for (text, want) in texts.iter().zip(expected) {
            assert_eq!(answer(lang, text), want, "{lang} {text:?}");
        }
    }
}

#[test]
fn speech_control_and_bad_input_are_understood() {
    let (_, pos) = mid_game(49);
    for (lang, words) in [
        ("de", ["Stopp", "schneller", "langsamer"]),
        ("pl", ["cisza", "szybciej", "wolniej"]),
        ("en", ["stop", "faster", "slower"]),
    ] {
        let u = Understanding::language(lang).unwrap();
        let names: Vec<&str> = words.iter().map(|w| command(&u, &pos, w).name()).collect();
        assert_eq!(names, ["silence", "faster", "slower"], "{lang}");
    }
    for (lang, text) in [("de", "Reihe neun"), ("pl", "rząd dziewięć"), ("en", "rank nine")] {
        assert_eq!(
            rejected(lang, text),
            "reject not a move or command: a rank is a number from one to eight"
        );
    }
    assert_eq!(rejected("de", "Linie Eva vier"), "reject not a move or command: \"file\" takes one letter");
    assert_eq!(rejected("en", "move"), "reject not a move or command: \"move\" takes a move number");
    // A number alone is no move: "dreiundzwanzig" is not a rank.
    assert!(rejected("de", "dreiundzwanzig").starts_with("reject"));
    // The recogniser hears the move numbers played so far, not beyond.
    let u = Understanding::language("de").unwrap();
    let grammar = u.grammar(&pos);
    assert!(
        grammar.contains("zug dreiundzwanzig")
            && grammar.contains("reihe vier")
            && grammar.contains("linie eva")
    );
    assert!(!grammar.contains("zug neunhundert"));
}

/// Issue 18 §4: the talking clock switched between time used and time left
/// by words in all three languages, from the mid-game position; "Zeit" alone
/// still asks for the time.
#[test]
fn the_clock_reading_is_switched_by_words() {
    let (_, pos) = mid_game(49);
    for (lang, words) in [
        ("de", ["Zeit verbraucht", "verbrauchte Zeit", "Restzeit", "verbleibende Zeit", "Zeit"]),
        ("pl", ["czas zużyty", "zużyty czas", "czas pozostały", "pozostały czas", "czas"]),
        ("en", ["time used", "used time", "time left", "remaining time", "time"]),
    ] {
        let u = Understanding::language(lang).unwrap();
        let names: Vec<&str> = words.iter().map(|w| command(&u, &pos, w).name()).collect();
        assert_eq!(
            names,
            ["clock_used", "clock_used", "clock_remaining", "clock_remaining", "time"],
            "{lang}"
        );
        let grammar = u.grammar(&pos);
        assert!(
            grammar.contains(&words[0].to_lowercase()) && grammar.contains(&words[2].to_lowercase()),
            "{lang}"
        );
    }
    // The switch takes no argument: with a rank word after it, it is taken
    // for a misheard move, only ever asked back.
    assert!(rejected("de", "Restzeit vier").starts_with("ask"));
}

/// Issue 18 §1: draw offers and corrections are read back where they
/// happened — Black's draw offer after 22...g5, the arbiter's take-back of
/// 23...Nd4 (played again), and 24...Rxc3 taken back as illegal (Art. 7.4)
/// and played again — in all three languages, stepping through by words.
#[test]
fn draw_offers_and_corrections_are_read_where_they_happened() {
    let (moves, pos) = mid_game(49);
    let uci = |ply: usize| moves[ply].to_uci(shakmaty::CastlingMode::Standard).to_string();
    let marks = [
        RecordMark::DrawOffer { after: 44, by: Color::Black },
        RecordMark::TakenBack { after: 45, moves: vec![uci(45)], illegal: false },
        RecordMark::TakenBack { after: 47, moves: vec![uci(47)], illegal: true },
    ];
    let cases = [
        (
            "de",
            ["Zug zweiundzwanzig", "weiter", "weiter", "Zug vierundzwanzig"],
            [
                "Zug zweiundzwanzig Sie Turm Anna Bella eins, Gegner Gustav fünf, Gegner Remisangebot",
                "Zug dreiundzwanzig Sie Springer David zwei, Korrektur Gegner Springer David vier zurückgenommen",
                "Zug dreiundzwanzig Gegner Springer David vier",
                "Zug vierundzwanzig Sie Dame Eva drei, Unzulässiger Zug Gegner Turm schlägt Cesar drei zurückgenommen, Gegner Turm schlägt Cesar drei",
            ],
        ),
        (
            "pl",
            ["ruch dwadzieścia dwa", "dalej", "dalej", "ruch dwadzieścia cztery"],
            [
                "posunięcie dwadzieścia dwa Ty wieża Anna Bella jeden, Przeciwnik Gustaw pięć, Przeciwnik propozycja remisu",
                "posunięcie dwadzieścia trzy Ty skoczek Dawid dwa, korekta Przeciwnik skoczek Dawid cztery cofnięto",
                "posunięcie dwadzieścia trzy Przeciwnik skoczek Dawid cztery",
                "posunięcie dwadzieścia cztery Ty hetman Ewa trzy, niedozwolone posunięcie Przeciwnik wieża bije Cesar trzy cofnięto, Przeciwnik wieża bije Cesar trzy",
            ],
        ),
        (
            "en",
            ["move twenty-two", "next", "next", "move twenty-four"],
            [
                "move twenty-two You Rook Anna Bella one, Opponent Gustav five, Opponent draw offer",
                "move twenty-three You Knight David two, correction Opponent Knight David four taken back",
                "move twenty-three Opponent Knight David four",
                "move twenty-four You Queen Eva three, illegal move Opponent Rook takes Cesar three taken back, Opponent Rook takes Cesar three",
            ],
        ),
    ];
    for (lang, texts, expected) in cases {
        let u = Understanding::language(lang).unwrap();
        let mut cursor = RecordCursor::new();
        let said: Vec<String> = texts
            .iter()
            .map(|text| {
                let step = RecordStep::of(&command(&u, &pos, text)).expect("a record step");
                cursor.step_marked(&u, &Chess::default(), &moves, &marks, Color::White, step)
            })
            .collect();
        assert_eq!(said, expected, "{lang}");
    }
    // A mark that names no move of its position is said as written, never a panic.
    let u = Understanding::language("de").unwrap();
    let odd = [RecordMark::TakenBack { after: 0, moves: vec!["e2e5".into(), "zz".into()], illegal: false }];
    let said = RecordCursor::new().step_marked(
        &u,
        &Chess::default(),
        &moves,
        &odd,
        Color::White,
        RecordStep::GoTo(1),
    );
    assert_eq!(said, "Korrektur Sie e2e5, Sie zz zurückgenommen. Zug eins Sie Eva vier, Gegner Cesar fünf");
}

#[test]
fn the_record_is_read_in_iccf_numbers_when_he_chose_them() {
    use station_voices::{MoveReading, VoiceSettings};
    let settings =
        VoiceSettings { language: "de".into(), move_reading: MoveReading::Iccf, ..Default::default() };
    let u = Understanding::new(&settings).unwrap();
    let (moves, pos) = mid_game(49);
    let mut cursor = RecordCursor::new();
    let step = RecordStep::of(&command(&u, &pos, "Zug dreiundzwanzig")).expect("a record step");
    let said = cursor.step(&u, &Chess::default(), &moves, Color::White, step);
    // ICCF Appendix A: file and rank as digits 1–8, from-square then to-square.
    let digit = ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"];
    let iccf = |mv: &Move| {
        let (from, to) = (mv.from().unwrap(), mv.to());
        [from.file() as usize, from.rank() as usize, to.file() as usize, to.rank() as usize]
            .map(|i| digit[i])
            .join(" ")
    };
    let (white, black) = (&moves[44], &moves[45]);
    assert_eq!(said, format!("Zug dreiundzwanzig Sie {}, Gegner {}", iccf(white), iccf(black)));
    // Asking back and the rest of his speech stay in letter names.
    assert!(
        matches!(u.understand(&pos, "Partie", None), Understood::Command(_)),
        "commands are understood as before"
    );
}
