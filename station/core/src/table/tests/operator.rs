use super::*;

#[test]
fn an_entered_move_is_announced_and_the_board_executes_it() {
    let mut h = Hands::started(false);
    h.play(BoardRole::Blind, "e2", "e4");
    h.take();
    h.table.enter_move("e5", h.t, &mut h.out).unwrap();
    assert!(h.take().iter().any(|e| matches!(e, Event::GameMove { ply: 2, san, .. } if san == "e5")));
    h.play(BoardRole::Blind, "e7", "e5");
    let events = h.take();
    assert!(
        !events.iter().any(|e| matches!(e, Event::Discrepancy { .. } | Event::GameMove { .. })),
        "{events:?}"
    );
    assert_eq!(h.agreed(), ["e2e4", "e7e5"]);
    assert!(h.table.enter_move("e5", h.t, &mut h.out).is_err(), "illegal now");
}

#[test]
fn a_take_back_is_followed_by_the_board() {
    let mut h = Hands::started(false);
    h.play(BoardRole::Blind, "e2", "e4");
    h.play(BoardRole::Blind, "e7", "e5");
    h.take();
    h.table.take_back(h.t, &mut h.out).unwrap();
    assert!(h.take().iter().any(|e| matches!(e, Event::TakenBack { ply: 2, .. })));
    assert_eq!(h.agreed(), ["e2e4"]);
    // The pawn goes back to e7; the board's record follows the agreed one.
    h.play(BoardRole::Blind, "e5", "e7");
    assert_eq!(h.table.tracker(BoardRole::Blind).unwrap().game().ply(), 1);
    assert!(!h.table.sync().unwrap().has_open_discrepancy());
    // And a different reply is accepted.
    h.play(BoardRole::Blind, "c7", "c5");
    assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
    let mut empty = Hands::started(false);
    assert_eq!(empty.table.take_back(0, &mut empty.out), Err(TableError::NothingToTakeBack));
}
