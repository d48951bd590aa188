use super::*;

#[test]
fn a_sealed_move_is_never_an_event_until_the_game_resumes() {
    let mut h = Hands::timed("5400", false);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    h.take();
    h.table.adjourn("c5", h.t, &mut h.out).unwrap();
    let events = h.take();
    assert!(matches!(events[..], [Event::Adjourned { ply: 2, .. }]), "{events:?}");
    assert!(!format!("{events:?}").contains("c5"), "the sealed move stays sealed");
    assert!(!h.table.clock().unwrap().is_running());
    assert_eq!(h.table.resume_adjourned(h.t + 1, &mut Vec::new()).map(|_| ()), Ok(()));
    assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
    assert!(h.table.clock().unwrap().is_running());
    assert_eq!(h.table.resume_adjourned(h.t + 2, &mut h.out), Err(TableError::NotAdjourned));
    assert!(h.table.adjourn("Ke2", h.t, &mut h.out).is_ok(), "legal for White now");
}

#[test]
fn a_new_game_from_a_chess960_position_starts_at_once_and_the_board_is_told_what_differs() {
    let mut h = Hands::started(false);
    h.play(BoardRole::Blind, "e2", "e4");
    // A peg off the board too: no move from the new start explains it.
    let lifted = h.table.sensed(BoardRole::Blind).without(Square::A1);
    h.scan(BoardRole::Blind, lifted);
    h.take();
    let occ = Game::chess960(0).unwrap().occupancy();
    let tags = crate::pgn::TagOverrides { white: Some("Anna".into()), ..Default::default() };
    let new_game = crate::input::Input::NewGame { fen: None, chess960: Some(0), moves: Vec::new(), tags };
    let events = h.table.apply(h.t, &new_game).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::GameOver { result, .. } if result == "*")));
    assert!(events.iter().any(|e| matches!(e, Event::GameStarted { .. })), "{events:?}");
    // The game starts when the command returns: the next input plays into it.
    assert_eq!(h.table.phase(), Phase::Playing);
    // His board still shows 1.e4: once still, it is told what differs, never silence.
    h.rest();
    let told = h.take();
    assert!(told.iter().any(|e| matches!(e, Event::BoardMismatch { .. })), "{told:?}");
    // Chess960 starts have the same holes as the standard one: the board is set up.
    h.play(BoardRole::Blind, "e4", "e2");
    let back = h.table.sensed(BoardRole::Blind).with(Square::A1);
    h.scan(BoardRole::Blind, back);
    h.rest();
    assert_eq!(h.table.sensed(BoardRole::Blind), occ);
    let right = h.take();
    assert!(right.iter().any(|e| matches!(e, Event::BoardRestored { .. })), "{right:?}");
    assert_eq!(h.table.record().unwrap().tags.white, "Anna");
    assert!(h.table.agreed().unwrap().start_fen().starts_with("bbqnnrkr/"));
}

#[test]
fn a_game_set_up_after_an_adjourned_one_ended_has_no_envelope_of_its_own() {
    // I.6: a draw agreed before resumption ends the game with the envelope unopened.
    let mut h = Hands::timed("5400", false);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    h.table.adjourn("c5", h.t, &mut h.out).unwrap();
    h.table.accept_draw(h.t + 1, &mut h.out).unwrap();
    assert!(!h.table.is_adjourned());
    // The pegs set up again start the next game: the old envelope is not its.
    h.play(BoardRole::Blind, "e4", "e2");
    assert_eq!(h.table.phase(), Phase::Playing);
    assert!(!h.table.is_adjourned());
    assert_eq!(h.table.sealer(), None);
    assert_eq!(h.table.resume_adjourned(h.t + 1, &mut h.out), Err(TableError::NotAdjourned));
    assert!(h.table.adjourn("e4", h.t + 2, &mut h.out).is_ok(), "the new game may be adjourned");
}
