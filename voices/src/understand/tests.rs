use super::*;

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
    assert!(line(&u, "startpos", "Knight Felix drei").starts_with("reject unknown word"));
    assert!(line(&u, "startpos", "Springer Eva vier").starts_with("reject no knight"));
    assert!(line(&u, "startpos", "").starts_with("reject nothing"));
    assert!(line(&u, "startpos", "[unk]").starts_with("reject not understood"));
    assert!(line(&u, "startpos", "Felix Felix").starts_with("reject not a move"));
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
