use super::*;
use shakmaty::Position;

fn de() -> Understanding {
    Understanding::language("de").unwrap()
}

fn line(u: &Understanding, fen: &str, text: &str) -> String {
    u.understand(&position_from_fen(fen).unwrap(), text, None).line()
}

#[test]
fn basic_moves_and_commands() {
    let u = de();
    assert_eq!(line(&u, "startpos", "Springer Felix drei"), "move g1f3 Nf3");
    assert_eq!(line(&u, "startpos", "Eva vier"), "move e2e4 e4");
    assert_eq!(line(&u, "startpos", "Bauer Eva vier"), "move e2e4 e4");
    assert_eq!(line(&u, "startpos", "Springer Gustav ein Felix drei"), "move g1f3 Nf3");
    assert_eq!(line(&u, "startpos", "Pferd von Gustav eins nach Felix drei"), "move g1f3 Nf3");
    assert_eq!(line(&u, "startpos", "Zeit"), "command time");
    assert_eq!(line(&u, "startpos", "wo ist meine Dame"), "command where_is mine queen");
    assert_eq!(line(&u, "startpos", "was steht auf Eva vier"), "command what_stands_on e4");
    assert_eq!(line(&u, "startpos", "seine Figuren"), "command read_pieces his");
    assert_eq!(line(&u, "startpos", "Remisangebot"), "command draw_offer");
}

#[test]
fn never_a_wrong_move() {
    let u = de();
    // Words that name no legal move are only ever asked back, nearest first.
    assert_eq!(line(&u, "startpos", "Knight Felix drei"), "ask f2f3 g1f3");
    assert_eq!(line(&u, "startpos", "Springer Eva vier"), "ask e2e4");
    assert!(line(&u, "startpos", "Dame Dame").starts_with("reject not a move"));
    assert!(line(&u, "startpos", "").starts_with("reject nothing"));
    assert!(line(&u, "startpos", "[unk]").starts_with("reject not understood"));
    assert!(line(&u, "startpos", "Felix Felix").starts_with("ask f2f4"));
    // Two knights can reach d2 in this position: ask.
    let fen = "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1";
    assert_eq!(line(&u, fen, "Springer David zwei"), "ask b1d2 f1d2");
    assert_eq!(line(&u, fen, "Springer Bella David zwei"), "move b1d2 Nbd2");
    // No pawn can reach d2 and the piece name was lost: ask, never guess.
    assert_eq!(line(&u, fen, "David zwei"), "ask b1d2 f1d2");
    assert_eq!(line(&u, fen, "Springer schlägt David zwei").split(' ').next(), Some("ask"));
    assert!(line(&u, fen, "Springer Bella David zwei Schach").starts_with("ask b1d2"));
}

#[test]
fn low_confidence_asks() {
    let u = de();
    let pos = Chess::default();
    let heard = u.understand(&pos, "Springer Felix drei", Some(0.3));
    assert!(matches!(heard, Understood::Ask { ref candidates, .. } if candidates.len() == 1), "{heard:?}");
    assert_eq!(u.confirm_question(&pos, &[heard_move(&heard)]), "Springer Felix drei?");
}

fn heard_move(u: &Understood) -> Move {
    match u {
        Understood::Ask { candidates, .. } => candidates[0],
        Understood::Move { mv, .. } => *mv,
        other => panic!("{other:?}"),
    }
}

#[test]
fn builtin_languages_have_no_conflicts() {
    for code in crate::BUILTIN_LANGUAGES {
        let u = Understanding::language(code).unwrap();
        assert!(u.conflicts().is_empty(), "{code}: {:?}", u.conflicts());
    }
}

#[test]
fn grammar_has_moves_commands_and_unk() {
    let u = de();
    let g = u.grammar(&Chess::default());
    for phrase in ["eva vier", "bauer eva vier", "springer gustav eins felix drei", "zeit", "[unk]"] {
        assert!(g.contains(phrase), "{phrase}");
    }
    assert!(g.phrases().iter().all(|p| *p == p.to_lowercase()));
}

fn lang_line(lang: &str, fen: &str, text: &str) -> String {
    let u = Understanding::language(lang).unwrap();
    u.understand(&position_from_fen(fen).unwrap(), text, None).line()
}

#[test]
fn what_english_players_say() {
    let start = "startpos";
    for (text, want) in [
        ("e four", "move e2e4 e4"),
        ("echo four", "move e2e4 e4"),
        ("pawn e four", "move e2e4 e4"),
        ("knight f three", "move g1f3 Nf3"),
        ("g one f three", "move g1f3 Nf3"),
        ("golf one foxtrot three", "move g1f3 Nf3"),
        ("from g one to f three", "move g1f3 Nf3"),
        ("uh knight the f three", "move g1f3 Nf3"),
        ("Horse Felix three", "move g1f3 Nf3"),
    ] {
        assert_eq!(lang_line("en", start, text), want, "{text}");
    }
    // After 1. e4 d5: the pawn takes.
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    for text in
        ["e takes d five", "e x d five", "e four takes d five", "e four d five", "pawn captures d five"]
    {
        assert_eq!(lang_line("en", fen, text), "move e4d5 exd5", "{text}");
    }
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for text in ["castle short", "castles kingside", "kingside castling", "zero zero", "O-O", "e one g one"] {
        assert_eq!(lang_line("en", castle, text), "move e1g1 O-O", "{text}");
    }
    for text in ["castle long", "queenside castle", "zero zero zero", "O-O-O", "king e one c one"] {
        assert_eq!(lang_line("en", castle, text), "move e1c1 O-O-O", "{text}");
    }
    let promote = "8/4P3/8/8/8/k7/8/4K3 w - - 0 1";
    for text in [
        "e eight queen",
        "e eight promote to queen",
        "e seven e eight promotes to queen",
        "e eight equals queen",
    ] {
        assert_eq!(lang_line("en", promote, text), "move e7e8q e8=Q", "{text}");
    }
    assert_eq!(lang_line("en", promote, "e eight promote to knight"), "move e7e8n e8=N");
    // From-to of a promotion without the piece: four moves fit, asked.
    assert!(lang_line("en", promote, "e seven e eight").starts_with("ask e7e8q"));
}

#[test]
fn what_german_and_polish_players_say() {
    let start = "startpos";
    for (text, want) in [
        ("E vier", "move e2e4 e4"),
        ("Emil vier", "move e2e4 e4"),
        ("äh Springer f drei", "move g1f3 Nf3"),
        ("g eins f drei", "move g1f3 Nf3"),
        ("Gustav eins Friedrich drei", "move g1f3 Nf3"),
    ] {
        assert_eq!(lang_line("de", start, text), want, "{text}");
    }
    for (text, want) in [
        ("e cztery", "move e2e4 e4"),
        ("yyy skoczek f trzy", "move g1f3 Nf3"),
        ("g jeden f trzy", "move g1f3 Nf3"),
        ("z g jeden na f trzy", "move g1f3 Nf3"),
        ("Grażyna jeden Franciszek trzy", "move g1f3 Nf3"),
    ] {
        assert_eq!(lang_line("pl", start, text), want, "{text}");
    }
    let fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    assert_eq!(lang_line("de", fen, "e nimmt d fünf"), "move e4d5 exd5");
    assert_eq!(lang_line("pl", fen, "e zbija d pięć"), "move e4d5 exd5");
    let castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(lang_line("de", castle, "null null"), "move e1g1 O-O");
    assert_eq!(lang_line("de", castle, "große Rochade"), "move e1c1 O-O-O");
    assert_eq!(lang_line("pl", castle, "zero zero zero"), "move e1c1 O-O-O");
    let promote = "8/4P3/8/8/8/k7/8/4K3 w - - 0 1";
    assert_eq!(lang_line("de", promote, "e acht =Dame"), "move e7e8q e8=Q");
    assert_eq!(lang_line("de", promote, "e acht wird Dame"), "move e7e8q e8=Q");
    assert_eq!(lang_line("de", promote, "e sieben e acht wird Turm"), "move e7e8r e8=R");
    let take_promote = "5r2/6P1/8/8/8/k7/8/4K3 w - - 0 1";
    assert_eq!(lang_line("de", take_promote, "g sieben nimmt f acht wird Turm"), "move g7f8r gxf8=R");
    assert_eq!(lang_line("de", take_promote, "g nimmt f acht wird Springer"), "move g7f8n gxf8=N");
    assert_eq!(lang_line("pl", promote, "e osiem na hetmana"), "move e7e8q e8=Q");
    assert_eq!(lang_line("pl", promote, "e siedem na e osiem na skoczka"), "move e7e8n e8=N");
}

#[test]
fn the_draw_offer_and_the_draw_question_differ_by_their_words() {
    for (lang, offer, status, difference) in [
        ("de", "Remis", "Remis Stand", "Unterschied"),
        ("pl", "remis", "stan remisu", "różnica"),
        ("en", "draw", "draw status", "difference"),
    ] {
        let u = Understanding::language(lang).unwrap();
        let pos = Chess::default();
        assert_eq!(u.understand(&pos, offer, None).line(), "command draw_offer", "{lang}");
        assert_eq!(u.understand(&pos, status, None).line(), "command draw_status", "{lang}");
        assert_eq!(u.understand(&pos, difference, None).line(), "command read_difference", "{lang}");
        let grammar = u.grammar(&pos);
        for phrase in [offer, status, difference] {
            assert!(grammar.contains(phrase), "[{lang}] {phrase} not in the grammar");
        }
    }
}

#[test]
fn misheard_phrases_are_asked_back_never_made() {
    let start = "startpos";
    for (lang, text, want) in [
        ("en", "no f three", "ask g1f3 f2f3"),
        ("en", "king f three", "ask f2f3"),
        ("en", "eight three", "ask h2h3 a2a3"),
        ("de", "Springer Felix zwei", "ask g1f3"),
        ("de", "Dame Hektor fünf", "reject"),
        ("pl", "skoczek f siedem", "ask g1f3"),
        ("de", "Dame Dame Dame", "reject"),
    ] {
        let got = lang_line(lang, start, text);
        assert!(got.starts_with(want), "[{lang}] {text}: {got}");
    }
    // "takes" for "six": after 1. e4 e5 2. Nf3 Nc6 3. Bb5 a6, the bishop to a6.
    let fen = "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4";
    assert_eq!(lang_line("en", fen, "bishop takes a takes"), "ask b5a6");
    // No pawn on the b-file to move: "b four" sounds nearest to "d four".
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/P1PPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(lang_line("en", fen, "b four"), "ask d2d4");
}

#[test]
fn a_move_with_something_unheard_in_it_is_asked() {
    assert_eq!(lang_line("de", "startpos", "[unk] Springer Felix drei"), "ask g1f3");
    assert!(lang_line("de", "startpos", "[unk]").starts_with("reject not understood"));
    assert!(lang_line("de", "startpos", "[unk] Zeit").starts_with("reject not understood"));
}

#[test]
fn a_sure_move_with_an_alike_twin_is_asked_unless_the_recogniser_is_sure() {
    let u = Understanding::language("en").unwrap();
    let pos = Chess::default();
    // "a three" /eɪ/ sounds like "h three" /eɪtʃ/, also legal.
    assert_eq!(u.understand(&pos, "a three", None).line(), "move a2a3 a3");
    assert_eq!(u.understand(&pos, "a three", Some(1.0)).line(), "move a2a3 a3");
    assert_eq!(u.understand(&pos, "a three", Some(0.95)).line(), "ask a2a3 h2h3");
    // Unsure anyway: the alike-sounding moves are named with it.
    assert_eq!(u.understand(&pos, "a three", Some(0.5)).line(), "ask a2a3 h2h3");
    // "Anna three" has no twin: made above the ordinary threshold, asked alone below it.
    assert_eq!(u.understand(&pos, "Anna three", Some(0.95)).line(), "move a2a3 a3");
    assert_eq!(u.understand(&pos, "Anna three", Some(0.5)).line(), "ask a2a3");
}

#[test]
fn grammar_sizes() {
    // A position with 50+ legal moves keeps its grammar small enough to rebuild per move.
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P1B2/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 8";
    let pos = position_from_fen(fen).unwrap();
    assert!(pos.legal_moves().len() >= 35);
    for lang in crate::BUILTIN_LANGUAGES {
        let u = Understanding::language(lang).unwrap();
        let n = u.grammar(&pos).len();
        eprintln!("[{lang}] {} legal moves, {n} phrases", pos.legal_moves().len());
        assert!(n < 40_000, "[{lang}] {n} phrases");
    }
}

fn expecting(lang: &str, fen: &str, text: &str, confidence: Option<f32>, board: &str) -> String {
    let u = Understanding::language(lang).unwrap();
    let pos = position_from_fen(fen).unwrap();
    let board = legal_move(&pos, board).unwrap();
    u.understand_expecting(&pos, text, confidence, Some(board)).line()
}

#[test]
fn with_the_boards_move_known_a_misheard_announcement_is_that_move() {
    // The board shows e4; the recogniser wrote "Eber" for "Eva", lost the
    // rank to "[unk]", or lost a word.
    assert_eq!(expecting("de", "startpos", "Eber vier", Some(0.82), "e2e4"), "move e2e4 e4");
    assert_eq!(expecting("de", "startpos", "Eva [unk]", Some(0.82), "e2e4"), "move e2e4 e4");
    assert_eq!(expecting("de", "startpos", "Eva vier", Some(0.3), "e2e4"), "move e2e4 e4");
    // Words that fit two knights equally: the board's is the one.
    let fen = "4k3/8/8/8/8/8/8/1N3N1K w - - 0 1";
    assert_eq!(expecting("de", fen, "Springer David zwei", None, "f1d2"), "move f1d2 Nfd2");
    // "Springer [unk] drei" fits Nf3 and Nh3 alike: the board shows Nh3.
    assert_eq!(expecting("de", "startpos", "Springer [unk] drei", Some(0.9), "g1h3"), "move g1h3 Nh3");
    // A command stays a command; nothing but "[unk]" is nothing.
    assert_eq!(expecting("de", "startpos", "Zeit", None, "e2e4"), "command time");
    assert!(expecting("de", "startpos", "[unk]", Some(0.5), "e2e4").starts_with("reject"));
    assert!(expecting("de", "startpos", "[unk] Zeit", Some(0.5), "e2e4").starts_with("reject"));
}

#[test]
fn with_the_boards_move_known_clear_words_of_another_move_are_a_slip() {
    // The station's own words of another legal move, typed or heard sure.
    assert_eq!(expecting("de", "startpos", "Springer Felix drei", None, "e2e4"), "slip g1f3 Nf3");
    assert_eq!(expecting("de", "startpos", "Anna drei", Some(1.0), "e2e3"), "slip a2a3 a3");
    assert_eq!(expecting("pl", "startpos", "skoczek Feliks trzy", None, "e2e4"), "slip g1f3 Nf3");
    assert_eq!(expecting("en", "startpos", "Knight Felix three", None, "e2e4"), "slip g1f3 Nf3");
    // Heard unsure, words one sound away from the board's move are the
    // board's; far from it, another move's own words are still a slip.
    assert_eq!(expecting("de", "startpos", "Anna drei", Some(0.82), "e2e3"), "move e2e3 e3");
    assert_eq!(expecting("de", "startpos", "Springer Felix drei", Some(0.82), "e2e4"), "slip g1f3 Nf3");
}

#[test]
fn the_recognisers_other_readings_bring_the_boards_move_or_more_choices() {
    let u = de();
    let pos = Chess::default();
    let e4 = legal_move(&pos, "e2e4").unwrap();
    let readings =
        |texts: &[(&str, f32)]| texts.iter().map(|(t, s)| ((*t).to_owned(), *s)).collect::<Vec<_>>();
    // The best reading names Bella vier; another likely one is the board's move.
    let heard = readings(&[("Bella vier", 0.6), ("Eva vier", 0.4)]);
    assert_eq!(u.understand_readings(&pos, &heard, Some(0.6), Some(e4)).line(), "move e2e4 e4");
    // Too unlikely a reading is not listened to.
    let heard = readings(&[("Bella vier", 0.95), ("Eva vier", 0.05)]);
    assert_eq!(u.understand_readings(&pos, &heard, Some(1.0), Some(e4)).line(), "slip b2b4 b4");
    // Without a board the other reading's move is asked with the best's, never made.
    let heard = readings(&[("Springer Felix zwei", 0.7), ("Eva vier", 0.3)]);
    assert_eq!(u.understand_readings(&pos, &heard, Some(0.7), None).line(), "ask g1f3 e2e4");
    // A best reading that names a move is the move, as always.
    let heard = readings(&[("Eva vier", 0.7), ("Eva drei", 0.3)]);
    assert_eq!(u.understand_readings(&pos, &heard, Some(1.0), None).line(), "move e2e4 e4");
}
