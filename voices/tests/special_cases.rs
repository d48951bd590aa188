//! Exact wording of every special case in German, Polish and English.
//!
//! Expected strings follow Annex D.2.1 (German words, Anna … Hector) and
//! Appendix F of the Polish Laws (Polish and English words); the notation
//! order (piece, disambiguation, capture, square, promotion) is Appendix E.

use shakmaty::{Chess, Position, Role, Square};
use station_voices::{VoiceSettings, Wording, position_from_fen};

/// One case: where, which move, and the three expected wordings.
struct Case {
    what: &'static str,
    fen: &'static str,
    san: &'static str,
    de: &'static str,
    pl: &'static str,
    en: &'static str,
}

const START: &str = "startpos";
const AFTER_E4_E5: &str = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const AFTER_E4_D5: &str = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
const RUY_LOPEZ: &str = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";
const CASTLING: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
const CASTLING_BLACK: &str = "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1";
const EN_PASSANT: &str = "4k3/8/8/4Pp2/8/8/8/4K3 w - f6 0 2";
const EN_PASSANT_BLACK: &str = "4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1";
const PROMOTION: &str = "3r4/4P3/8/8/8/k7/8/4K3 w - - 0 1";
const PROMOTION_BLACK: &str = "4k3/8/8/8/8/K7/4p3/8 b - - 0 1";
const LONE_ROOK: &str = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
const ROOKS_TAKE: &str = "3k4/8/8/8/8/8/8/R2n1RK1 w - - 0 1";
const SCHOLAR: &str = "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4";
const FOOLS: &str = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq g3 0 2";
const QUEEN_MATE: &str = "6k1/5ppp/8/8/8/8/5PPP/3Q2K1 w - - 0 1";
const QH5_MATE: &str = "6rk/6p1/8/8/8/8/8/3QK3 w - - 0 1";
const STALEMATE: &str = "7k/8/8/6Q1/8/8/8/6K1 w - - 0 1";
const BY_FILE: &str = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
const BY_RANK: &str = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
const BY_BOTH: &str = "4k3/8/8/8/8/Q7/8/Q1Q1K3 w - - 0 1";
const BY_BOTH_TAKE: &str = "4k3/8/8/8/8/Q7/1n6/Q1Q1K3 w - - 0 1";

const CASES: &[Case] = &[
    Case { what: "pawn", fen: START, san: "e4", de: "Eva vier", pl: "Ewa cztery", en: "Eva four" },
    Case {
        what: "knight",
        fen: START,
        san: "Nf3",
        de: "Springer Felix drei",
        pl: "skoczek Feliks trzy",
        en: "Knight Felix three",
    },
    Case {
        what: "bishop",
        fen: AFTER_E4_E5,
        san: "Bc4",
        de: "Läufer Cesar vier",
        pl: "goniec Cesar cztery",
        en: "Bishop Cesar four",
    },
    Case {
        what: "queen",
        fen: AFTER_E4_E5,
        san: "Qh5",
        de: "Dame Hector fünf",
        pl: "hetman Hektor pięć",
        en: "Queen Hector five",
    },
    Case {
        what: "king",
        fen: AFTER_E4_E5,
        san: "Ke2",
        de: "König Eva zwei",
        pl: "król Ewa dwa",
        en: "King Eva two",
    },
    Case {
        what: "rook",
        fen: LONE_ROOK,
        san: "Ra7",
        de: "Turm Anna sieben",
        pl: "wieża Anna siedem",
        en: "Rook Anna seven",
    },
    Case {
        what: "pawn capture",
        fen: AFTER_E4_D5,
        san: "exd5",
        de: "Eva schlägt David fünf",
        pl: "Ewa bije Dawid pięć",
        en: "Eva takes David five",
    },
    Case {
        what: "piece capture",
        fen: RUY_LOPEZ,
        san: "Bxc6",
        de: "Läufer schlägt Cesar sechs",
        pl: "goniec bije Cesar sześć",
        en: "Bishop takes Cesar six",
    },
    Case {
        what: "short castling",
        fen: CASTLING,
        san: "O-O",
        de: "Kurze Rochade",
        pl: "krótka roszada",
        en: "short castling",
    },
    Case {
        what: "long castling",
        fen: CASTLING,
        san: "O-O-O",
        de: "Lange Rochade",
        pl: "długa roszada",
        en: "long castling",
    },
    Case {
        what: "black short castling",
        fen: CASTLING_BLACK,
        san: "O-O",
        de: "Kurze Rochade",
        pl: "krótka roszada",
        en: "short castling",
    },
    Case {
        what: "black long castling",
        fen: CASTLING_BLACK,
        san: "O-O-O",
        de: "Lange Rochade",
        pl: "długa roszada",
        en: "long castling",
    },
    Case {
        what: "en passant",
        fen: EN_PASSANT,
        san: "exf6",
        de: "Eva schlägt Felix sechs en passant",
        pl: "Ewa bije Feliks sześć w przelocie",
        en: "Eva takes Felix six en passant",
    },
    Case {
        what: "black en passant",
        fen: EN_PASSANT_BLACK,
        san: "exd3",
        de: "Eva schlägt David drei en passant",
        pl: "Ewa bije Dawid trzy w przelocie",
        en: "Eva takes David three en passant",
    },
    Case {
        what: "promotion queen",
        fen: PROMOTION,
        san: "e8=Q",
        de: "Eva acht Dame",
        pl: "Ewa osiem hetman",
        en: "Eva eight Queen",
    },
    Case {
        what: "promotion rook",
        fen: PROMOTION,
        san: "e8=R",
        de: "Eva acht Turm",
        pl: "Ewa osiem wieża",
        en: "Eva eight Rook",
    },
    Case {
        what: "promotion bishop",
        fen: PROMOTION,
        san: "e8=B",
        de: "Eva acht Läufer",
        pl: "Ewa osiem goniec",
        en: "Eva eight Bishop",
    },
    Case {
        what: "promotion knight",
        fen: PROMOTION,
        san: "e8=N",
        de: "Eva acht Springer",
        pl: "Ewa osiem skoczek",
        en: "Eva eight Knight",
    },
    Case {
        what: "capture promotion queen",
        fen: PROMOTION,
        san: "exd8=Q",
        de: "Eva schlägt David acht Dame",
        pl: "Ewa bije Dawid osiem hetman",
        en: "Eva takes David eight Queen",
    },
    Case {
        what: "capture promotion rook",
        fen: PROMOTION,
        san: "exd8=R",
        de: "Eva schlägt David acht Turm",
        pl: "Ewa bije Dawid osiem wieża",
        en: "Eva takes David eight Rook",
    },
    Case {
        what: "capture promotion bishop",
        fen: PROMOTION,
        san: "exd8=B",
        de: "Eva schlägt David acht Läufer",
        pl: "Ewa bije Dawid osiem goniec",
        en: "Eva takes David eight Bishop",
    },
    Case {
        what: "capture promotion knight",
        fen: PROMOTION,
        san: "exd8=N",
        de: "Eva schlägt David acht Springer",
        pl: "Ewa bije Dawid osiem skoczek",
        en: "Eva takes David eight Knight",
    },
    Case {
        what: "black promotion on rank one",
        fen: PROMOTION_BLACK,
        san: "e1=Q",
        de: "Eva eins Dame",
        pl: "Ewa jeden hetman",
        en: "Eva one Queen",
    },
    Case {
        what: "check",
        fen: LONE_ROOK,
        san: "Ra8+",
        de: "Turm Anna acht Schach",
        pl: "wieża Anna osiem szach",
        en: "Rook Anna eight check",
    },
    Case {
        what: "file disambiguation, capture, check",
        fen: ROOKS_TAKE,
        san: "Raxd1+",
        de: "Turm Anna schlägt David eins Schach",
        pl: "wieża Anna bije Dawid jeden szach",
        en: "Rook Anna takes David one check",
    },
    Case {
        what: "mate with capture",
        fen: SCHOLAR,
        san: "Qxf7#",
        de: "Dame schlägt Felix sieben Matt",
        pl: "hetman bije Feliks siedem mat",
        en: "Queen takes Felix seven checkmate",
    },
    Case {
        what: "black mate",
        fen: FOOLS,
        san: "Qh4#",
        de: "Dame Hector vier Matt",
        pl: "hetman Hektor cztery mat",
        en: "Queen Hector four checkmate",
    },
    Case {
        what: "back rank mate",
        fen: QUEEN_MATE,
        san: "Qd8#",
        de: "Dame David acht Matt",
        pl: "hetman Dawid osiem mat",
        en: "Queen David eight checkmate",
    },
    Case {
        what: "Qh5 mate",
        fen: QH5_MATE,
        san: "Qh5#",
        de: "Dame Hector fünf Matt",
        pl: "hetman Hektor pięć mat",
        en: "Queen Hector five checkmate",
    },
    Case {
        what: "stalemate",
        fen: STALEMATE,
        san: "Qg6",
        de: "Dame Gustav sechs Patt",
        pl: "hetman Gustaw sześć pat",
        en: "Queen Gustav six stalemate",
    },
    Case {
        what: "disambiguation by file",
        fen: BY_FILE,
        san: "Nbd2",
        de: "Springer Bella David zwei",
        pl: "skoczek Bella Dawid dwa",
        en: "Knight Bella David two",
    },
    Case {
        what: "disambiguation by rank",
        fen: BY_RANK,
        san: "R1a3",
        de: "Turm eins Anna drei",
        pl: "wieża jeden Anna trzy",
        en: "Rook one Anna three",
    },
    Case {
        what: "disambiguation by rank, other rook",
        fen: BY_RANK,
        san: "R5a3",
        de: "Turm fünf Anna drei",
        pl: "wieża pięć Anna trzy",
        en: "Rook five Anna three",
    },
    Case {
        what: "disambiguation by file and rank",
        fen: BY_BOTH,
        san: "Qa1b2",
        de: "Dame Anna eins Bella zwei",
        pl: "hetman Anna jeden Bella dwa",
        en: "Queen Anna one Bella two",
    },
    Case {
        what: "disambiguation by both with capture",
        fen: BY_BOTH_TAKE,
        san: "Qa1xb2",
        de: "Dame Anna eins schlägt Bella zwei",
        pl: "hetman Anna jeden bije Bella dwa",
        en: "Queen Anna one takes Bella two",
    },
];

fn wording(language: &str) -> Wording {
    Wording::new(&VoiceSettings::language(language)).expect("built-in language")
}

fn say(wording: &Wording, fen: &str, san: &str) -> String {
    let pos = position_from_fen(fen).expect("test FEN");
    wording.word_move(&pos, &san_move(&pos, san)).expect("legal test move").to_string()
}

/// A test move from standard SAN (the station's own reading of written
/// moves, every notation, is `station_core::notation`, tested there).
fn san_move(pos: &Chess, san: &str) -> shakmaty::Move {
    let parsed: shakmaty::san::SanPlus = san.parse().expect("test SAN");
    parsed.san.to_move(pos).expect("legal test move")
}

#[test]
fn every_special_case_in_three_languages() {
    let mut failures = Vec::new();
    for language in ["de", "pl", "en"] {
        let wording = wording(language);
        for case in CASES {
            let expected = match language {
                "de" => case.de,
                "pl" => case.pl,
                _ => case.en,
            };
            let got = say(&wording, case.fen, case.san);
            if got != expected {
                failures.push(format!(
                    "{language} {} ({}): expected {expected:?}, got {got:?}",
                    case.what, case.san
                ));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn the_fen_positions_make_the_san_exact() {
    // Guards the table itself: the SAN in each case is what shakmaty writes
    // for that move, so the case tests what its name says.
    for case in CASES {
        let pos = position_from_fen(case.fen).expect("test FEN");
        let mv = san_move(&pos, case.san);
        let written = shakmaty::san::SanPlus::from_move(pos, mv).to_string();
        assert_eq!(written, case.san, "{}", case.what);
    }
}

fn with(settings: VoiceSettings) -> Wording {
    Wording::new(&settings).expect("built-in languages")
}

#[test]
fn pawns_named_on_request() {
    let de = with(VoiceSettings { name_pawns: true, ..VoiceSettings::language("de") });
    assert_eq!(say(&de, START, "e4"), "Bauer Eva vier");
    assert_eq!(say(&de, AFTER_E4_D5, "exd5"), "Bauer Eva schlägt David fünf");
    assert_eq!(say(&de, PROMOTION, "exd8=N"), "Bauer Eva schlägt David acht Springer");
    let pl = with(VoiceSettings { name_pawns: true, ..VoiceSettings::language("pl") });
    assert_eq!(say(&pl, START, "e4"), "pion Ewa cztery");
    let en = with(VoiceSettings { name_pawns: true, ..VoiceSettings::language("en") });
    assert_eq!(say(&en, EN_PASSANT, "exf6"), "Pawn Eva takes Felix six en passant");
}

#[test]
fn long_form_says_both_squares() {
    let de = with(VoiceSettings { long_form: true, ..VoiceSettings::language("de") });
    let cases = [
        (START, "Nf3", "Springer Gustav eins Felix drei"),
        (START, "e4", "Eva zwei Eva vier"),
        (AFTER_E4_D5, "exd5", "Eva vier schlägt David fünf"),
        (RUY_LOPEZ, "Bxc6", "Läufer Bella fünf schlägt Cesar sechs"),
        (RUY_LOPEZ, "O-O", "Kurze Rochade"),
        (EN_PASSANT, "exf6", "Eva fünf schlägt Felix sechs en passant"),
        (PROMOTION, "e8=Q", "Eva sieben Eva acht Dame"),
        (PROMOTION, "exd8=N", "Eva sieben schlägt David acht Springer"),
        (BY_FILE, "Nbd2", "Springer Bella eins David zwei"),
        (BY_RANK, "R1a3", "Turm Anna eins Anna drei"),
        (BY_BOTH, "Qa1b2", "Dame Anna eins Bella zwei"),
        (ROOKS_TAKE, "Raxd1+", "Turm Anna eins schlägt David eins Schach"),
        (SCHOLAR, "Qxf7#", "Dame Hector fünf schlägt Felix sieben Matt"),
    ];
    for (fen, san, expected) in cases {
        assert_eq!(say(&de, fen, san), expected, "{san}");
    }
    let pl = with(VoiceSettings { long_form: true, ..VoiceSettings::language("pl") });
    assert_eq!(say(&pl, START, "Nf3"), "skoczek Gustaw jeden Feliks trzy");
    assert_eq!(say(&pl, AFTER_E4_D5, "exd5"), "Ewa cztery bije Dawid pięć");
    let en = with(VoiceSettings { long_form: true, ..VoiceSettings::language("en") });
    assert_eq!(say(&en, START, "Nf3"), "Knight Gustav one Felix three");
}

#[test]
fn letters_and_ranks_from_other_phrasebooks() {
    // Polish sentences with the Annex D letters and Polish ranks.
    let mixed = with(VoiceSettings {
        letters: Some("de".to_owned()),
        ranks: Some("pl".to_owned()),
        ..VoiceSettings::language("pl")
    });
    assert_eq!(say(&mixed, START, "Nf3"), "skoczek Felix trzy");
    assert_eq!(say(&mixed, AFTER_E4_D5, "exd5"), "Eva bije David pięć");
    // German sentences and letters with English rank words.
    let mixed = with(VoiceSettings { ranks: Some("en".to_owned()), ..VoiceSettings::language("de") });
    assert_eq!(say(&mixed, ROOKS_TAKE, "Raxd1+"), "Turm Anna schlägt David one Schach");
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let de = wording("de");
    let pos = position_from_fen(START).expect("start");
    let illegal = shakmaty::Move::Normal {
        role: Role::Queen,
        from: Square::D1,
        capture: None,
        to: Square::H5,
        promotion: None,
    };
    assert!(de.word_move(&pos, &illegal).is_err());
    assert!(position_from_fen("not a fen").is_err());
    assert!(position_from_fen("8/8/8/8/8/8/8/8 w - - 0 1").is_err());
}

#[test]
fn square_piece_and_correction_words() {
    let de = wording("de");
    let [letter, rank] = de.word_square(Square::E1);
    assert_eq!((letter.text, rank.text), ("Eva", "eins"));
    assert_eq!(de.word_piece(Role::Bishop).text, "Läufer");
    assert_eq!(
        de.word_correction(Role::Knight, Square::E5, Square::F3).to_string(),
        "Springer von Eva fünf zurück nach Felix drei"
    );
    assert_eq!(
        wording("pl").word_correction(Role::Knight, Square::E5, Square::F3).to_string(),
        "skoczek z Ewa pięć z powrotem na Feliks trzy"
    );
    assert_eq!(
        wording("en").word_correction(Role::Knight, Square::E5, Square::F3).to_string(),
        "Knight from Eva five back to Felix three"
    );
}

#[test]
fn tokens_carry_language_free_ids() {
    use station_voices::WordId;
    let de = wording("de");
    let pos = position_from_fen(ROOKS_TAKE).expect("fen");
    let said = de.word_move(&pos, &san_move(&pos, "Raxd1+")).expect("legal");
    let ids: Vec<WordId> = said.tokens().iter().map(|t| t.id).collect();
    assert_eq!(
        ids,
        [
            WordId::Piece(Role::Rook),
            WordId::Letter(shakmaty::File::A),
            WordId::Capture,
            WordId::Letter(shakmaty::File::D),
            WordId::Rank(shakmaty::Rank::First),
            WordId::Check,
        ]
    );
    let words: Vec<&str> = said.words().collect();
    assert_eq!(words, ["Turm", "Anna", "schlägt", "David", "eins", "Schach"]);
    let mut buffer = String::from("» ");
    said.write_to(&mut buffer);
    assert_eq!(buffer, "» Turm Anna schlägt David eins Schach");
}

#[test]
fn word_move_leaves_the_position_alone() {
    let de = wording("de");
    let pos: Chess = position_from_fen(SCHOLAR).expect("fen");
    let before = pos.clone();
    let mv = san_move(&pos, "Qxf7#");
    let _ = de.word_move(&pos, &mv).expect("legal");
    assert_eq!(pos, before);
    assert!(!pos.is_game_over());
}
