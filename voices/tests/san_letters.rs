//! The piece letters of each phrasebook (`[san]`), checked against a table
//! written from published sources rather than from the phrasebooks, and every
//! move of real games written with them and read back as the same SAN.

mod common;

use shakmaty::Role;
use station_voices::{Phrasebook, SanLetters};

/// King, queen, rook, bishop and knight as each language's chess literature
/// prints them. Written from:
/// - hu.wikipedia "A sakkjátszmák lejegyzése", the table "A figurák
///   rövidítése különböző idegen nyelveken" (rows Cseh, Francia, Holland,
///   Lengyel, Magyar, Német, Olasz, Orosz, Portugál, Spanyol);
/// - the FIDE Laws of Chess, Appendix C.2 in English (K Q R B N);
/// - the Ukrainian text of the FIDE Laws, appendix "Алгебраїчна нотація", E.2
///   ("Кр = король, Ф = ферзь, Т = тура, С = слон, К = кінь").
const PUBLISHED: [(&str, [&str; 5]); 12] = [
    ("cs", ["K", "D", "V", "S", "J"]),
    ("de", ["K", "D", "T", "L", "S"]),
    ("en", ["K", "Q", "R", "B", "N"]),
    ("es", ["R", "D", "T", "A", "C"]),
    ("fr", ["R", "D", "T", "F", "C"]),
    ("hu", ["K", "V", "B", "F", "H"]),
    ("it", ["R", "D", "T", "A", "C"]),
    ("nl", ["K", "D", "T", "L", "P"]),
    ("pl", ["K", "H", "W", "G", "S"]),
    ("pt", ["R", "D", "T", "B", "C"]),
    ("ru", ["Кр", "Ф", "Л", "С", "К"]),
    ("uk", ["Кр", "Ф", "Т", "С", "К"]),
];

const ROLES: [Role; 5] = [Role::King, Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

fn book(lang: &str) -> &'static Phrasebook {
    Phrasebook::builtin(lang).unwrap_or_else(|| panic!("no built-in phrasebook {lang}"))
}

/// SAN rewritten with the published letters, one SAN letter at a time.
fn published_spelling(letters: &[&str; 5], san: &str) -> String {
    san.chars()
        .map(|c| match "KQRBN".find(c) {
            Some(i) => letters[i].to_owned(),
            None => c.to_string(),
        })
        .collect()
}

#[test]
fn every_phrasebook_has_the_published_letters() {
    let mut wrong = Vec::new();
    for lang in station_voices::BUILTIN_LANGUAGES {
        let Some((_, want)) = PUBLISHED.iter().find(|(code, _)| *code == lang) else {
            wrong.push(format!("{lang}: no published letters in this test's table"));
            continue;
        };
        let letters = book(lang).san_letters();
        let got = ROLES.map(|role| letters.letter(role).unwrap_or("-"));
        if got != *want {
            wrong.push(format!("{lang}: {got:?}, published {want:?}"));
        }
        assert_eq!(letters.letter(Role::Pawn), None, "{lang}: a pawn has no letter");
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_move_of_real_games_reads_back_in_every_language() {
    let path = common::shared_games_dir().join("Fischer.pgn");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let games = common::read_games(&text);
    let sans: Vec<&str> = games.iter().flat_map(|g| g.sans.iter().map(String::as_str)).collect();
    assert!(sans.len() > 50_000, "{} moves", sans.len());
    for (lang, published) in PUBLISHED {
        let letters = book(lang).san_letters();
        for san in &sans {
            let written = letters.write(san);
            assert_eq!(written, published_spelling(&published, san), "{lang}: {san}");
            assert_eq!(letters.read(&written), *san, "{lang}: {written} read back");
        }
    }
    // Moves of each piece, as the published letters give them.
    let hu = book("hu").san_letters();
    assert_eq!(
        ["Nf3", "Bxf4", "Rxf4", "Qe2", "Kh7", "exd8=Q+", "O-O-O"].map(|s| hu.write(s)),
        ["Hf3", "Fxf4", "Bxf4", "Ve2", "Kh7", "exd8=V+", "O-O-O"]
    );
    let ru = book("ru").san_letters();
    assert_eq!(["Kh1", "Nxf4", "Bg7"].map(|s| ru.write(s)), ["Крh1", "Кxf4", "Сg7"]);
    assert_eq!(["Крh1", "Кxf4", "Сg7"].map(|s| ru.read(s)), ["Kh1", "Nxf4", "Bg7"]);
}

/// A loaded phrasebook: its `[san]` letters and `[clock.line]` words when it
/// has them, SAN's and English's when it has not (written before them), and
/// a clear error when its letters could not be read back.
#[test]
fn a_loaded_phrasebook_writes_its_letters_or_sans_and_refuses_unreadable_ones() {
    let english = include_str!("../phrasebooks/en.toml");
    let san = "[san]\nking = \"K\"\nqueen = \"Q\"\nrook = \"R\"\nbishop = \"B\"\nknight = \"N\"\n";
    let line = "[clock.line]\nwhite = \"W\"\nblack = \"B\"\nmove = \"move\"\nused = \"used\"\n";
    assert!(english.contains(san) && english.contains(line));
    // A book written before the letters: SAN's, and English's clock line.
    let before = english.replace(san, "").replace(line, "");
    let book = Phrasebook::from_toml_str(&before, "test").unwrap();
    assert_eq!(book.san_letters(), &SanLetters::english());
    assert_eq!(book.san_letters().write("Nf3"), "Nf3");
    assert_eq!(book.clock().line.moves, "move");
    // A book of its own: its letters, two of them of two characters.
    let with = english
        .replace(san, "[san]\nking = \"Kö\"\nqueen = \"Dm\"\nrook = \"T\"\nbishop = \"L\"\nknight = \"S\"\n")
        .replace(line, "[clock.line]\nwhite = \"Wh\"\nblack = \"Bl\"\nmove = \"mv\"\nused = \"u\"\n");
    let book = Phrasebook::from_toml_str(&with, "test").unwrap();
    assert_eq!(book.san_letters().write("Kxe2"), "Köxe2");
    assert_eq!(book.san_letters().read("Dmxf7#"), "Qxf7#");
    assert_eq!(book.clock().line.black, "Bl");
    for (from, to) in [
        ("knight = \"S\"", "knight = \"T\""),
        ("knight = \"S\"", "knight = \"e\""),
        ("knight = \"S\"", "horse = \"S\""),
    ] {
        let err = Phrasebook::from_toml_str(&with.replace(from, to), "test").unwrap_err().to_string();
        assert!(err.contains("[san]"), "{to}: {err}");
    }
    let err = Phrasebook::from_toml_str(&with.replace("move = \"mv\"", "move = \" \""), "test")
        .unwrap_err()
        .to_string();
    assert!(err.contains("[clock.line]"), "{err}");
}
