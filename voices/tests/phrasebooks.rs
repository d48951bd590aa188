//! Phrasebook data: the built-in books, loading new languages, settings.

use station_voices::{
    Message, Phrasebook, Phrasebooks, VoiceError, VoiceSettings, Wording, check_builtins, position_from_fen,
};

#[test]
fn builtin_phrasebooks_are_valid() {
    check_builtins().expect("built-in phrasebooks parse and validate");
    for code in station_voices::BUILTIN_LANGUAGES {
        let book = Phrasebook::builtin(code).expect("built in");
        assert_eq!(book.code(), code);
        for message in Message::ALL {
            assert!(!book.message(message).say().is_empty(), "{code} {message:?}");
        }
    }
    assert!(Phrasebook::builtin("xx").is_none());
}

#[test]
fn rule_texts_words() {
    // Annex D.2.1 (2018) and Appendix F, copied from the rule files.
    let de = Phrasebook::builtin("de").expect("de");
    let letters: Vec<&str> = shakmaty::File::ALL.iter().map(|f| de.letter(*f).say()).collect();
    assert_eq!(letters, ["Anna", "Bella", "Cesar", "David", "Eva", "Felix", "Gustav", "Hector"]);
    let ranks: Vec<&str> = shakmaty::Rank::ALL.iter().map(|r| de.rank(*r).say()).collect();
    assert_eq!(ranks, ["eins", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht"]);
    let pl = Phrasebook::builtin("pl").expect("pl");
    let letters: Vec<&str> = shakmaty::File::ALL.iter().map(|f| pl.letter(*f).say()).collect();
    assert_eq!(letters, ["Anna", "Bella", "Cesar", "Dawid", "Ewa", "Feliks", "Gustaw", "Hektor"]);
    let ranks: Vec<&str> = shakmaty::Rank::ALL.iter().map(|r| pl.rank(*r).say()).collect();
    assert_eq!(ranks, ["jeden", "dwa", "trzy", "cztery", "pięć", "sześć", "siedem", "osiem"]);
    let en = Phrasebook::builtin("en").expect("en");
    let ranks: Vec<&str> = shakmaty::Rank::ALL.iter().map(|r| en.rank(*r).say()).collect();
    assert_eq!(ranks, ["one", "two", "three", "four", "five", "six", "seven", "eight"]);
    use shakmaty::Role::*;
    let roles = [King, Queen, Rook, Bishop, Knight, Pawn];
    let names = |book: &Phrasebook| roles.iter().map(|r| book.piece(*r).say().to_owned()).collect::<Vec<_>>();
    assert_eq!(names(de), ["König", "Dame", "Turm", "Läufer", "Springer", "Bauer"]);
    assert_eq!(names(pl), ["król", "hetman", "wieża", "goniec", "skoczek", "pion"]);
    assert_eq!(names(en), ["King", "Queen", "Rook", "Bishop", "Knight", "Pawn"]);
}

#[test]
fn alternatives_are_accepted_when_listening() {
    let de = Phrasebook::builtin("de").expect("de");
    let one = de.rank(shakmaty::Rank::First);
    assert_eq!(one.say(), "eins");
    assert!(one.matches("ein"));
    assert!(one.matches(" Eins "));
    assert!(!one.matches("zwei"));
    assert_eq!(one.accepted().collect::<Vec<_>>(), ["eins", "ein"]);
    let pl = Phrasebook::builtin("pl").expect("pl");
    assert!(pl.piece(shakmaty::Role::Pawn).matches("pionek"));
    assert!(pl.words().en_passant.matches("w przelocie"));
}

const ESPERANTO: &str = r#"
code = "eo"
name = "Esperanto"

[letters]
a = "Anna"
b = "Bella"
c = "Cesar"
d = "David"
e = "Eva"
f = "Felix"
g = "Gustav"
h = "Hector"

[ranks]
1 = "unu"
2 = "du"
3 = "tri"
4 = "kvar"
5 = "kvin"
6 = "ses"
7 = "sep"
8 = "ok"

[pieces]
king = "reĝo"
queen = "damo"
rook = "turo"
bishop = "kuriero"
knight = "ĉevalo"
pawn = "peono"

[words]
capture = "prenas"
check = "ŝako"
mate = "mato"
stalemate = "pato"
en_passant = "preterpase"
short_castling = "mallonga aroko"
long_castling = "longa aroko"
from = "de"
to = "al"
back = "reen"
draw_offer = "remisa propono"
white_wins = "unu nul"
black_wins = "nul unu"
draw = "remiso"

[clock]
own = "Vi"
opponent = "Kontraŭulo"
hour = { gender = "neuter", one = "horo", other = "horoj" }
minute = { gender = "neuter", one = "minuto", other = "minutoj" }
second = { gender = "neuter", one = "sekundo", other = "sekundoj" }
moves = { gender = "neuter", one = "movo", other = "movoj" }

[numbers]
plural = "one-other"
small = ["nul", "unu", "du", "tri", "kvar", "kvin", "ses", "sep", "ok", "naŭ",
  "dek", "dek unu", "dek du", "dek tri", "dek kvar", "dek kvin", "dek ses", "dek sep", "dek ok", "dek naŭ"]
tens = ["dudek", "tridek", "kvardek", "kvindek", "sesdek", "sepdek", "okdek", "naŭdek"]
hundreds = ["cent", "ducent", "tricent", "kvarcent", "kvincent", "sescent", "sepcent", "okcent", "naŭcent"]
hundred_join = " "
compound = "{ten} {unit}"

[messages]
station_ready = "stacio preta"
board_connected = "tabulo konektita"
board_disconnected = "tabulo malkonektita"
board_mismatch = "la tabuloj malsamas"
piece_lifted = "figuro levita"
move_announced = "movo anoncita"
waiting_for_move = "atendas movon"
your_move = "via movo"
illegal_move = "nelaŭregula movo"
correct_position = "korektu la pozicion"
rook_first = "aroko komencita per la turo ne estas permesata: la turmovo validas; remetu la reĝon"
which_move = "kiu movo ĝi estis"
position_restored = "pozicio restarigita"
call_arbiter = "voku la arbitracianton"
game_over = "ludo finita"
clock_not_answering = "la horloĝo ne respondas"
clock_answering = "la horloĝo respondas denove"
gamepad_disconnected = "ludregilo malkonektita"
gamepad_connected = "ludregilo rekonektita"
speech_unavailable = "parolado ne aŭdata"
speech_available = "parolado denove aŭdata"
clock_not_in_mode_23 = "la horloĝo ne estas en reĝimo 23"
board_differs = "via tabulo diferencas de la ludo"
square_missing = "{square}: {piece} mankas"
square_extra = "{square}: kroma stifto"
journal_damaged = "la protokolo estis difektita"
position_first_time = "ĉi tiu pozicio unuafoje"
position_second_time = "ĉi tiu pozicio duafoje"
position_third_time = "ĉi tiu pozicio triafoje"
position_times = "ĉi tiu pozicio jam {n} fojojn"
moves_without_pawn_or_capture = "{moves} sen peona movo aŭ preno"
"#;

#[test]
fn a_new_language_is_just_a_file() {
    let dir = std::env::temp_dir().join(format!("station-voices-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("eo.toml");
    std::fs::write(&path, ESPERANTO).expect("write");
    let mut books = Phrasebooks::builtin();
    assert_eq!(books.load(&path).expect("valid phrasebook"), "eo");
    let _ = std::fs::remove_dir_all(&dir);

    let wording = Wording::with_phrasebooks(&VoiceSettings::language("eo"), &books).expect("eo");
    let pos = position_from_fen("startpos").expect("start");
    assert_eq!(wording.word_move(&pos, &nf3()).expect("legal").to_string(), "ĉevalo Felix tri");
    // Written before the record's changes were told (issue 22): those come in English.
    assert_eq!(wording.message(station_voices::Message::TakenBack), "taken back: {moves}");
    assert_eq!(
        wording.clock_report(3_600_000 + 61_000 * 21, 1_000, 42),
        "Vi: unu horo dudek unu minutoj. Kontraŭulo: unu sekundo. Kvardek du movoj."
    );
    // Mixing a loaded sentence language with built-in ranks.
    let mixed = VoiceSettings { ranks: Some("de".to_owned()), ..VoiceSettings::language("eo") };
    let wording = Wording::with_phrasebooks(&mixed, &books).expect("eo+de");
    assert_eq!(wording.word_move(&pos, &nf3()).expect("legal").to_string(), "ĉevalo Felix drei");
}

#[test]
fn broken_phrasebooks_are_reported() {
    let missing_rank = ESPERANTO.replace("8 = \"ok\"\n", "");
    let err = Phrasebook::from_toml_str(&missing_rank, "test").expect_err("rank 8 missing");
    assert!(matches!(err, VoiceError::PhrasebookInvalid { .. }), "{err}");
    assert!(err.to_string().contains("\"8\""), "{err}");

    let typo = ESPERANTO.replace("capture = ", "captrue = ");
    let err = Phrasebook::from_toml_str(&typo, "test").expect_err("typo");
    assert!(err.to_string().contains("capture"), "{err}");

    let no_message = ESPERANTO.replace("game_over = \"ludo finita\"\n", "");
    assert!(Phrasebook::from_toml_str(&no_message, "test").is_err());

    let short_list = ESPERANTO.replace("\"okdek\", ", "");
    assert!(Phrasebook::from_toml_str(&short_list, "test").is_err());

    let bad_template = ESPERANTO.replace("{ten} {unit}", "{ten}");
    assert!(Phrasebook::from_toml_str(&bad_template, "test").is_err());

    assert!(matches!(
        Phrasebook::from_toml_str("not = [toml", "test"),
        Err(VoiceError::PhrasebookSyntax { .. })
    ));
    assert!(matches!(
        Phrasebook::load(std::path::Path::new("/nonexistent/xx.toml")),
        Err(VoiceError::Io { .. })
    ));
}

#[test]
fn settings_from_the_station_config() {
    #[derive(serde::Deserialize)]
    struct Config {
        voice: VoiceSettings,
    }
    let config: Config = toml::from_str(
        r#"
        [voice]
        language = "pl"
        letters = "de"
        long_form = true
        clock_reading = "used"
        "#,
    )
    .expect("voice table");
    assert_eq!(
        config.voice,
        VoiceSettings {
            language: "pl".to_owned(),
            letters: Some("de".to_owned()),
            ranks: None,
            name_pawns: false,
            long_form: true,
            move_reading: station_voices::MoveReading::Letters,
            clock_reading: station_voices::ClockTimeRead::Used,
        }
    );
    assert_eq!(VoiceSettings::default().clock_reading, station_voices::ClockTimeRead::Remaining);
    assert!(toml::from_str::<Config>("[voice]\nclock_reading = \"elapsed\"").is_err());
    let empty: Config = toml::from_str("[voice]").expect("defaults");
    assert_eq!(empty.voice, VoiceSettings::default());
    assert_eq!(empty.voice.language, "de");
    assert!(toml::from_str::<Config>("[voice]\nlangauge = \"pl\"").is_err());

    let unknown = VoiceSettings { ranks: Some("xx".to_owned()), ..VoiceSettings::default() };
    assert!(matches!(Wording::new(&unknown), Err(VoiceError::UnknownLanguage(code)) if code == "xx"));
}

#[test]
fn station_messages() {
    let de = Wording::new(&VoiceSettings::language("de")).expect("de");
    assert_eq!(de.message(Message::BoardConnected), "Brett verbunden");
    let pl = Wording::new(&VoiceSettings::language("pl")).expect("pl");
    assert_eq!(pl.message(Message::BoardDisconnected), "szachownica odłączona");
    let en = Wording::new(&VoiceSettings::language("en")).expect("en");
    assert_eq!(en.message(Message::BoardMismatch), "the boards differ");
}

#[test]
fn results_and_draw_offer() {
    use shakmaty::{Color, KnownOutcome};
    let white = KnownOutcome::Decisive { winner: Color::White };
    let black = KnownOutcome::Decisive { winner: Color::Black };
    let expected = [
        ("de", ["eins zu null", "null zu eins", "Remis", "Remisangebot"]),
        ("pl", ["jeden do zera", "zero do jednego", "remis", "propozycja remisu"]),
        ("en", ["one-zero", "zero-one", "draw", "draw offer"]),
    ];
    for (code, [w, b, d, offer]) in expected {
        let wording = Wording::new(&VoiceSettings::language(code)).expect("built in");
        assert_eq!(wording.word_result(white), w);
        assert_eq!(wording.word_result(black), b);
        assert_eq!(wording.word_result(KnownOutcome::Draw), d);
        assert_eq!(wording.word_draw_offer(), offer);
    }
}

/// 1. Nf3 from the start.
fn nf3() -> shakmaty::Move {
    shakmaty::Move::Normal {
        role: shakmaty::Role::Knight,
        from: shakmaty::Square::G1,
        capture: None,
        to: shakmaty::Square::F3,
        promotion: None,
    }
}

/// The dotted keys of a TOML table, recursively (`words.check`, `clock.minute.one`).
fn keys_of(table: &toml::Table, prefix: &str, out: &mut std::collections::BTreeSet<String>) {
    for (key, value) in table {
        let path = if prefix.is_empty() { key.clone() } else { format!("{prefix}.{key}") };
        match value {
            // `{ say, also }` is one word however it is written.
            toml::Value::Table(t) if !t.contains_key("say") => keys_of(t, &path, out),
            _ => {
                out.insert(path);
            }
        }
    }
}

#[test]
fn every_phrasebook_has_every_key_of_the_english_one() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("phrasebooks");
    let read = |code: &str| -> toml::Table {
        let text = std::fs::read_to_string(dir.join(format!("{code}.toml"))).expect("phrasebook file");
        toml::from_str(&text).expect("phrasebook TOML")
    };
    let mut english = std::collections::BTreeSet::new();
    keys_of(&read("en"), "", &mut english);
    // The language's own: its number grammar (genders, `compound_unit`),
    // the letter styles its players spell with (Annex D names, a national
    // spelling alphabet, NATO) and the sounds of its own listening words.
    let own = ["numbers.", "listening.letters.", "listening.phonemes"];
    english.retain(|key| !own.iter().any(|prefix| key.starts_with(prefix)));
    assert!(english.len() > 100, "{english:?}");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("phrasebooks folder")
        .filter_map(|e| e.ok()?.path().file_stem()?.to_str().map(str::to_owned))
        .filter(|stem| dir.join(format!("{stem}.toml")).exists())
        .collect();
    files.sort();
    // Every file is built in, and nothing else is.
    let mut builtin: Vec<&str> = station_voices::BUILTIN_LANGUAGES.to_vec();
    builtin.sort_unstable();
    assert_eq!(files, builtin);
    assert!(files.len() >= 12, "{files:?}");
    let mut lacking = Vec::new();
    for code in &files {
        let mut keys = std::collections::BTreeSet::new();
        keys_of(&read(code), "", &mut keys);
        let missing: Vec<&String> = english.difference(&keys).collect();
        if !missing.is_empty() {
            lacking.push(format!("{code}.toml lacks {missing:?}"));
        }
    }
    assert!(lacking.is_empty(), "{lacking:#?}");
}
