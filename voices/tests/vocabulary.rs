//! Issue 36, item 4: each new language's chess words read back against a
//! small table written from a cited source, not from the phrasebook.
//!
//! Sources (one or two per language; the words below are the sources' own):
//! - es: ajedrezgetafe.com, "Notación" (fichas/notacion-1-015: Rey, Dama,
//!   Torre, Alfil, Caballo, peón); the Spanish Wikipedia text "Notación
//!   algebraica" as copied at puntokritico.blogspot.com (2023/07, "enroque",
//!   "jaque", "jaque mate", "captura").
//! - fr: echecs.meyreuil.free.fr, "L'échiquier et la notation des coups"
//!   (roi, dame, tour, fou, cavalier, pion; échec; "prend"; petit roque, grand
//!   roque); dicojeuechecs.blogspot.com, "la notation algébrique" (mat).
//! - it: gnstucchi.netsons.org, "Scrivere le mosse" (2020/11: re, donna,
//!   torre, alfiere, cavallo, pedone; cattura; arrocco corto, arrocco lungo;
//!   scacco; scacco matto).
//! - nl: lokasoft.nl, "Leer schaken in 30 minuten" (koning, dame, toren,
//!   loper, paard, pion); users.telenet.be/assistonline.bvba1/schaken/regels.htm
//!   (schaak, mat, schaakmat, rokade); dev.gamepoint.net schaken help (slaan);
//!   nl.wikipedia "Rokade" as copied at nl.abcdef.wiki (korte, lange rokade).
//! - pt: the Portuguese Wikipedia "Notação algébrica de xadrez" as copied at
//!   classicistranieri.com (rei, dama, torre, bispo, cavalo, peão);
//!   geocities Ponti Chess Club "A Notação Algébrica" (capturas, roque
//!   pequeno, roque grande); xeque, xeque-mate: same pages.
//! - ru: ru.ruwiki.ru "Шахматная нотация" (король, ферзь, ладья, слон, конь,
//!   пешка); N. Ryabova, "Нестандартные дебюты", ch. "Шахматная нотация"
//!   (kartaslov.ru: короткая рокировка, длинная рокировка, шах, мат); взятие:
//!   ruwiki, same article.
//! - uk: the FIDE Laws' Appendix on algebraic notation in Ukrainian as the
//!   Vasyl Ivanchuk school publishes it (shkolaivanchuka.com.ua: король,
//!   ферзь, тура, слон, кінь, пішак); uk.wikipedia "Алгебраїчна нотація" as
//!   copied at kampuspedia.com (коротка/довга рокіровка, шах, мат, взяття).
//! - cs: zak.chytrak.cz, "Česká šachová notace" (pěšec, jezdec, střelec, věž,
//!   dáma, král; malá rošáda, velká rošáda; braní; šach; mat).
//! - hu: "A sakk szabályai" (Magyar Elektronikus Könyvtár, vmek.oszk.hu
//!   00056/html/141.htm: király, vezér, bástya, huszár, futó, gyalog);
//!   sakkpalota.hu "Sakkszabályok" (sánc, sakk, matt); zoldsakk.hu
//!   "A sakk szabályai" (ütés).
//!
//! Each row lists the source's words for one idea; the phrasebook must
//! announce one of them (`say`). The capture rows only ask that the book
//! understands one (`also`): the sources name the sign "x" ("captura",
//! "prise", "взятие") where players say a verb ("toma", "prend", "бьёт"),
//! and the books announce the verb.

use shakmaty::Role;
use station_voices::Phrasebook;

/// What a row of the table is checked against.
#[derive(Clone, Copy, Debug)]
enum Idea {
    Piece(Role),
    Check,
    Mate,
    ShortCastling,
    LongCastling,
    Capture,
}

/// How strictly: the announced word, or a word the phrasebook understands.
#[derive(Clone, Copy, PartialEq)]
enum Needs {
    Said,
    Heard,
}

use Idea::*;
use Needs::*;

/// One language's table: (idea, the source's words, how strictly).
type Table = &'static [(Idea, &'static [&'static str], Needs)];

const PIECES_CHECK: usize = 7;

const TABLES: [(&str, Table); 9] = [
    (
        "es",
        &[
            (Piece(Role::King), &["rey"], Said),
            (Piece(Role::Queen), &["dama"], Said),
            (Piece(Role::Rook), &["torre"], Said),
            (Piece(Role::Bishop), &["alfil"], Said),
            (Piece(Role::Knight), &["caballo"], Said),
            (Piece(Role::Pawn), &["peón"], Said),
            (Check, &["jaque"], Said),
            (Mate, &["jaque mate", "mate"], Said),
            (ShortCastling, &["enroque corto"], Said),
            (LongCastling, &["enroque largo"], Said),
            (Capture, &["captura", "toma", "por"], Heard),
        ],
    ),
    (
        "fr",
        &[
            (Piece(Role::King), &["roi"], Said),
            (Piece(Role::Queen), &["dame"], Said),
            (Piece(Role::Rook), &["tour"], Said),
            (Piece(Role::Bishop), &["fou"], Said),
            (Piece(Role::Knight), &["cavalier"], Said),
            (Piece(Role::Pawn), &["pion"], Said),
            (Check, &["échec"], Said),
            (Mate, &["mat", "échec et mat"], Said),
            (ShortCastling, &["petit roque"], Said),
            (LongCastling, &["grand roque"], Said),
            (Capture, &["prend", "prise"], Heard),
        ],
    ),
    (
        "it",
        &[
            (Piece(Role::King), &["re"], Said),
            (Piece(Role::Queen), &["donna"], Said),
            (Piece(Role::Rook), &["torre"], Said),
            (Piece(Role::Bishop), &["alfiere"], Said),
            (Piece(Role::Knight), &["cavallo"], Said),
            (Piece(Role::Pawn), &["pedone"], Said),
            (Check, &["scacco"], Said),
            (Mate, &["scacco matto", "matto"], Said),
            (ShortCastling, &["arrocco corto"], Said),
            (LongCastling, &["arrocco lungo"], Said),
            (Capture, &["cattura", "prende", "mangia"], Heard),
        ],
    ),
    (
        "nl",
        &[
            (Piece(Role::King), &["koning"], Said),
            (Piece(Role::Queen), &["dame"], Said),
            (Piece(Role::Rook), &["toren"], Said),
            (Piece(Role::Bishop), &["loper"], Said),
            (Piece(Role::Knight), &["paard"], Said),
            (Piece(Role::Pawn), &["pion"], Said),
            (Check, &["schaak"], Said),
            (Mate, &["mat", "schaakmat"], Said),
            (ShortCastling, &["korte rokade"], Said),
            (LongCastling, &["lange rokade"], Said),
            (Capture, &["slaat", "slaan"], Heard),
        ],
    ),
    (
        "pt",
        &[
            (Piece(Role::King), &["rei"], Said),
            (Piece(Role::Queen), &["dama"], Said),
            (Piece(Role::Rook), &["torre"], Said),
            (Piece(Role::Bishop), &["bispo"], Said),
            (Piece(Role::Knight), &["cavalo"], Said),
            (Piece(Role::Pawn), &["peão"], Said),
            (Check, &["xeque"], Said),
            (Mate, &["xeque-mate", "xeque mate", "mate"], Said),
            (ShortCastling, &["roque pequeno", "roque menor"], Said),
            (LongCastling, &["roque grande", "roque maior"], Said),
            (Capture, &["captura", "toma", "por"], Heard),
        ],
    ),
    (
        "ru",
        &[
            (Piece(Role::King), &["король"], Said),
            (Piece(Role::Queen), &["ферзь"], Said),
            (Piece(Role::Rook), &["ладья"], Said),
            (Piece(Role::Bishop), &["слон"], Said),
            (Piece(Role::Knight), &["конь"], Said),
            (Piece(Role::Pawn), &["пешка"], Said),
            (Check, &["шах"], Said),
            (Mate, &["мат"], Said),
            (ShortCastling, &["короткая рокировка"], Said),
            (LongCastling, &["длинная рокировка"], Said),
            (Capture, &["взятие", "бьёт", "берёт"], Heard),
        ],
    ),
    (
        "uk",
        &[
            (Piece(Role::King), &["король"], Said),
            (Piece(Role::Queen), &["ферзь"], Said),
            (Piece(Role::Rook), &["тура"], Said),
            (Piece(Role::Bishop), &["слон"], Said),
            (Piece(Role::Knight), &["кінь"], Said),
            (Piece(Role::Pawn), &["пішак"], Said),
            (Check, &["шах"], Said),
            (Mate, &["мат"], Said),
            (ShortCastling, &["коротка рокіровка"], Said),
            (LongCastling, &["довга рокіровка"], Said),
            (Capture, &["взяття", "б'є", "бере"], Heard),
        ],
    ),
    (
        "cs",
        &[
            (Piece(Role::King), &["král"], Said),
            (Piece(Role::Queen), &["dáma"], Said),
            (Piece(Role::Rook), &["věž"], Said),
            (Piece(Role::Bishop), &["střelec"], Said),
            (Piece(Role::Knight), &["jezdec"], Said),
            (Piece(Role::Pawn), &["pěšec"], Said),
            (Check, &["šach"], Said),
            (Mate, &["mat"], Said),
            (ShortCastling, &["malá rošáda"], Said),
            (LongCastling, &["velká rošáda"], Said),
            (Capture, &["braní", "bere"], Heard),
        ],
    ),
    (
        "hu",
        &[
            (Piece(Role::King), &["király"], Said),
            (Piece(Role::Queen), &["vezér"], Said),
            (Piece(Role::Rook), &["bástya"], Said),
            (Piece(Role::Bishop), &["futó"], Said),
            (Piece(Role::Knight), &["huszár"], Said),
            (Piece(Role::Pawn), &["gyalog"], Said),
            (Check, &["sakk"], Said),
            (Mate, &["matt"], Said),
            (ShortCastling, &["rövid sánc", "sánc"], Said),
            (LongCastling, &["hosszú sánc", "sánc"], Said),
            (Capture, &["ütés", "üt", "leüti"], Heard),
        ],
    ),
];

fn entry<'a>(book: &'a Phrasebook, idea: Idea) -> &'a station_voices::Entry {
    let w = book.words();
    match idea {
        Piece(role) => book.piece(role),
        Check => &w.check,
        Mate => &w.mate,
        ShortCastling => &w.short_castling,
        LongCastling => &w.long_castling,
        Capture => &w.capture,
    }
}

/// `form` names `word`: the same words, or `word` among them ("enroque corto"
/// in "enroque corto", "sánc" in "rövid sánc").
fn names(form: &str, word: &str) -> bool {
    let form = form.to_lowercase();
    form == word
        || form
            .split([' ', '-'])
            .collect::<Vec<_>>()
            .windows(word.split(' ').count())
            .any(|w| w.join(" ") == word)
}

#[test]
fn each_new_language_says_the_chess_words_of_a_cited_source() {
    let mut disagree = Vec::new();
    for (code, table) in TABLES {
        let book = Phrasebook::builtin(code).unwrap_or_else(|| panic!("{code} is built in"));
        assert!(table.len() > PIECES_CHECK, "{code}: a short table");
        for (idea, words, needs) in table {
            let e = entry(book, *idea);
            let said = words.iter().any(|w| names(e.say(), w));
            let heard = words.iter().any(|w| e.accepted().any(|form| names(form, w)));
            let ok = match needs {
                Said => said,
                Heard => heard,
            };
            if !ok {
                disagree.push(format!("{code} {idea:?}: source {words:?}, phrasebook says {:?}", e.say()));
            }
        }
    }
    assert!(disagree.is_empty(), "the phrasebooks disagree with the sources:\n{}", disagree.join("\n"));
}

/// The table is the sources', not the phrasebooks': a book that announced
/// another word would fail it.
#[test]
fn a_wrong_word_fails_the_table() {
    let text = include_str!("../phrasebooks/es.toml");
    let queen = text.lines().find(|l| l.starts_with("queen = ")).expect("the queen's line");
    let wrong = text.replacen(queen, "queen = { say = \"reina\", also = [\"dama\"] }", 1);
    let book = Phrasebook::from_toml_str(&wrong, "test").expect("the altered Spanish book parses");
    let (_, words, _) =
        TABLES[0].1.iter().find(|(idea, _, _)| matches!(idea, Piece(Role::Queen))).expect("a queen row");
    assert!(!words.iter().any(|w| names(book.piece(Role::Queen).say(), w)));
    assert!(words.iter().any(|w| book.piece(Role::Queen).accepted().any(|f| names(f, w))));
}
