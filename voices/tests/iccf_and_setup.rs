//! `[voice] move_reading = "iccf"` (ICCF Appendix A read aloud, digit by
//! digit) and the start position read to him for his set-up (Appendix B,
//! Chess960), in German, Polish and English.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Role, Square};
use station_voices::{MoveReading, SquareDifference, VoiceSettings, Wording, position_from_fen};

fn iccf(language: &str) -> Wording {
    Wording::new(&VoiceSettings { move_reading: MoveReading::Iccf, ..VoiceSettings::language(language) })
        .expect("built-in language")
}

fn letters(language: &str) -> Wording {
    Wording::new(&VoiceSettings::language(language)).expect("built-in language")
}

fn san_move(pos: &Chess, san: &str) -> Move {
    let parsed: shakmaty::san::SanPlus = san.parse().expect("test SAN");
    parsed.san.to_move(pos).expect("legal test move")
}

fn say(wording: &Wording, pos: &Chess, san: &str) -> String {
    wording.word_move(pos, &san_move(pos, san)).expect("legal").to_string()
}

#[test]
fn iccf_appendix_a_e2_e4_is_read_digit_by_digit_in_three_languages() {
    let start = position_from_fen("startpos").expect("start");
    assert_eq!(say(&iccf("de"), &start, "e4"), "fünf zwei fünf vier");
    assert_eq!(say(&iccf("pl"), &start, "e4"), "pięć dwa pięć cztery");
    assert_eq!(say(&iccf("en"), &start, "e4"), "five two five four");
    assert_eq!(say(&iccf("de"), &start, "Nf3"), "sieben eins sechs drei");
    // The default stays the letter names of Annex D.
    assert_eq!(say(&letters("de"), &start, "e4"), "Eva vier");
}

#[test]
fn iccf_a_19_and_a_20_promotion_digit_and_castling_as_the_kings_move() {
    let promo = position_from_fen("1k6/5P2/8/8/8/8/8/R3K2R w KQ - 0 1").expect("fen");
    assert_eq!(say(&iccf("de"), &promo, "f8=R+"), "sechs sieben sechs acht zwei Schach");
    assert_eq!(say(&iccf("pl"), &promo, "f8=N"), "sześć siedem sześć osiem cztery");
    assert_eq!(say(&iccf("en"), &promo, "f8=Q+"), "six seven six eight one check");
    assert_eq!(say(&iccf("de"), &promo, "O-O"), "fünf eins sieben eins");
    assert_eq!(say(&iccf("pl"), &promo, "O-O-O"), "pięć jeden trzy jeden");
    assert_eq!(say(&iccf("en"), &promo, "O-O-O"), "five one three one");
    // Chess960 (king b1, rooks a1 and h1): the king's move to g1 or c1, not the rook's square.
    let fen: Fen = "rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah - 0 1".parse().expect("fen");
    let pos: Chess = fen.into_position(CastlingMode::Chess960).expect("position");
    let castles: Vec<String> = shakmaty::Position::legal_moves(&pos)
        .iter()
        .filter(|m| m.is_castle())
        .map(|m| iccf("en").word_move(&pos, m).expect("legal").to_string())
        .collect();
    assert_eq!(castles.len(), 2, "{castles:?}");
    assert!(castles.contains(&"two one seven one".to_owned()), "{castles:?}");
    assert!(castles.contains(&"two one three one".to_owned()), "{castles:?}");
}

/// Position 0 of Appendix B's numbering: B B Q N N R K R.
const RANK_0: [Option<Role>; 8] = [
    Some(Role::Bishop),
    Some(Role::Bishop),
    Some(Role::Queen),
    Some(Role::Knight),
    Some(Role::Knight),
    Some(Role::Rook),
    Some(Role::King),
    Some(Role::Rook),
];

#[test]
fn iccf_appendix_b_the_first_rank_is_read_piece_by_piece_in_three_languages() {
    assert_eq!(
        letters("de").word_setup(0, &RANK_0),
        "Chess960 Nummer null, weiße Grundreihe. Anna Läufer, Bella Läufer, Cesar Dame, David Springer, \
         Eva Springer, Felix Turm, Gustav König, Hector Turm"
    );
    assert_eq!(
        letters("pl").word_setup(0, &RANK_0),
        "Szachy960 numer zero, pierwsza linia białych. Anna goniec, Bella goniec, Cesar hetman, \
         Dawid skoczek, Ewa skoczek, Feliks wieża, Gustaw król, Hektor wieża"
    );
    assert_eq!(
        letters("en").word_setup(
            518,
            &[
                Some(Role::Rook),
                Some(Role::Knight),
                Some(Role::Bishop),
                Some(Role::Queen),
                Some(Role::King),
                Some(Role::Bishop),
                Some(Role::Knight),
                Some(Role::Rook),
            ]
        ),
        "Chess960 number five hundred eighteen, White's first rank. Anna Rook, Bella Knight, Cesar Bishop, \
         David Queen, Eva King, Felix Bishop, Gustav Knight, Hector Rook"
    );
}

#[test]
fn iccf_appendix_b_his_set_up_is_checked_with_the_difference_words_in_three_languages() {
    let diff = [
        SquareDifference { square: Square::B1, expected: Some(Role::Bishop), peg: false },
        SquareDifference { square: Square::E4, expected: None, peg: true },
    ];
    assert_eq!(
        letters("de").word_setup_check(&diff),
        "Ihr Brett weicht von der Partie ab. Bella eins: Läufer fehlt. Eva vier: Stift zu viel"
    );
    assert_eq!(
        letters("pl").word_setup_check(&diff),
        "Twoja szachownica różni się od partii. Bella jeden: puste pole, w partii stoi tu goniec. \
         Ewa cztery: zbędny kołek"
    );
    assert_eq!(
        letters("en").word_setup_check(&diff),
        "Your board differs from the game. Bella one: Bishop missing. Eva four: extra peg"
    );
    assert_eq!(letters("de").word_setup_check(&[]), "Ihr Brett zeigt die Ausgangsstellung");
    assert_eq!(letters("pl").word_setup_check(&[]), "Twoja szachownica pokazuje pozycję początkową");
    assert_eq!(letters("en").word_setup_check(&[]), "Your board shows the start position");
    // More than six squares: the arbiter is called.
    let many: Vec<SquareDifference> = shakmaty::File::ALL
        .into_iter()
        .map(|f| SquareDifference {
            square: Square::from_coords(f, shakmaty::Rank::Fourth),
            expected: None,
            peg: true,
        })
        .collect();
    assert!(letters("de").word_setup_check(&many).ends_with("Bitte den Schiedsrichter rufen"));
}
