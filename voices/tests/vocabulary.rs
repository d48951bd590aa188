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
use station_voices::{Entry, Phrasebook};

/// The sources' words: one row per idea, one column per language, `|`
/// between alternatives. Capture only needs to be understood (see above).
const TABLE: &str = "
idea           ; es                ; fr               ; it                   ; nl             ; pt                          ; ru                         ; uk                 ; cs           ; hu
king           ; rey               ; roi              ; re                   ; koning         ; rei                         ; король                     ; король             ; král         ; király
queen          ; dama              ; dame             ; donna                ; dame           ; dama                        ; ферзь                      ; ферзь              ; dáma         ; vezér
rook           ; torre             ; tour             ; torre                ; toren          ; torre                       ; ладья                      ; тура               ; věž          ; bástya
bishop         ; alfil             ; fou              ; alfiere              ; loper          ; bispo                       ; слон                       ; слон               ; střelec      ; futó
knight         ; caballo           ; cavalier         ; cavallo              ; paard          ; cavalo                      ; конь                       ; кінь               ; jezdec       ; huszár
pawn           ; peón              ; pion             ; pedone               ; pion           ; peão                        ; пешка                      ; пішак              ; pěšec        ; gyalog
check          ; jaque             ; échec            ; scacco               ; schaak         ; xeque                       ; шах                        ; шах                ; šach         ; sakk
mate           ; jaque mate|mate   ; mat|échec et mat ; scacco matto|matto   ; mat|schaakmat  ; xeque-mate|xeque mate|mate  ; мат                        ; мат                ; mat          ; matt
short castling ; enroque corto     ; petit roque      ; arrocco corto        ; korte rokade   ; roque pequeno|roque menor   ; короткая рокировка         ; коротка рокіровка  ; malá rošáda  ; rövid sánc|sánc
long castling  ; enroque largo     ; grand roque      ; arrocco lungo        ; lange rokade   ; roque grande|roque maior    ; длинная рокировка          ; довга рокіровка    ; velká rošáda ; hosszú sánc|sánc
capture        ; captura|toma|por  ; prend|prise      ; cattura|prende|mangia; slaat|slaan    ; captura|toma|por            ; взятие|бьёт|берёт          ; взяття|б'є|бере    ; braní|bere   ; ütés|üt|leüti
";

/// The table's cells, trimmed, row by row.
fn table() -> Vec<Vec<&'static str>> {
    TABLE.lines().filter(|l| !l.trim().is_empty()).map(|l| l.split(';').map(str::trim).collect()).collect()
}

/// The phrasebook's entry for an idea of the table.
fn entry<'a>(book: &'a Phrasebook, idea: &str) -> &'a Entry {
    let w = book.words();
    match idea {
        "king" => book.piece(Role::King),
        "queen" => book.piece(Role::Queen),
        "rook" => book.piece(Role::Rook),
        "bishop" => book.piece(Role::Bishop),
        "knight" => book.piece(Role::Knight),
        "pawn" => book.piece(Role::Pawn),
        "check" => &w.check,
        "mate" => &w.mate,
        "short castling" => &w.short_castling,
        "long castling" => &w.long_castling,
        "capture" => &w.capture,
        other => panic!("no idea {other:?} in the table"),
    }
}

/// `form` names `word`: the same words, or `word` among them ("enroque corto"
/// in "enroque corto", "sánc" in "rövid sánc").
fn names(form: &str, word: &str) -> bool {
    let form = form.to_lowercase();
    let parts: Vec<&str> = form.split([' ', '-']).collect();
    form == word || parts.windows(word.split(' ').count()).any(|w| w.join(" ") == word)
}

#[test]
fn each_new_language_says_the_chess_words_of_a_cited_source() {
    let rows = table();
    assert_eq!(rows.len(), 12, "a header and eleven ideas");
    let mut disagree = Vec::new();
    for (column, code) in rows[0].iter().enumerate().skip(1) {
        let book = Phrasebook::builtin(code).unwrap_or_else(|| panic!("{code} is built in"));
        for row in &rows[1..] {
            let (e, words): (_, Vec<&str>) = (entry(book, row[0]), row[column].split('|').collect());
            let ok = if row[0] == "capture" {
                words.iter().any(|w| e.accepted().any(|form| names(form, w)))
            } else {
                words.iter().any(|w| names(e.say(), w))
            };
            if !ok {
                disagree.push(format!("{code} {}: source {words:?}, phrasebook says {:?}", row[0], e.say()));
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
    let rows = table();
    assert_eq!((rows[2][0], rows[0][1]), ("queen", "es"));
    assert!(!names(book.piece(Role::Queen).say(), rows[2][1]));
    assert!(book.piece(Role::Queen).accepted().any(|f| names(f, rows[2][1])));
}
