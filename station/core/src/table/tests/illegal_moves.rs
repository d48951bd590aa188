//! Article 7.4: an illegal move found later.

use super::*;
use crate::clock::Side;
use crate::input::Input;

fn apply(h: &mut Hands, input: Input) -> Result<Vec<Event>, TableError> {
    h.apply_after(500, &input)
}

#[test]
fn art_7_4_a_the_position_before_the_illegal_move_is_reinstated_on_the_board_and_the_clocks() {
    let mut h = Hands::pressed_by_station();
    for (from, to) in [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4")] {
        h.play(BoardRole::Blind, from, to);
    }
    let at_ply_2 = h.table.sync().unwrap().clock_at(2).unwrap();
    h.take();
    let events = apply(&mut h, Input::IllegalMove { ply: 3 }).unwrap();
    let taken = taken_back_plies(&events);
    assert_eq!(taken, [5, 4, 3], "three plies back");
    assert!(events.iter().any(|e| matches!(e,
        Event::IllegalMoveFound { ply: 3, side: Side::White, count: 1, uci, .. } if uci == "g1f3")));
    assert_eq!(h.agreed(), ["e2e4", "e7e5"]);
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::White, "White replays his move");
    assert_eq!(clock.remaining(Side::White, h.t), at_ply_2.white_ms, "6.14: White's time as at ply 2");
    assert_eq!(
        clock.remaining(Side::Black, h.t),
        at_ply_2.black_ms + ILLEGAL_MOVE_BONUS_MS,
        "7.4(b): Black's time as at ply 2 and two minutes"
    );
    assert_eq!(h.table.illegal_moves(Side::White), 1);
    // The board shows ply 5: it is told how to go back, and once it does the game goes on.
    h.rest();
    for (from, to) in [("c4", "f1"), ("c6", "b8"), ("f3", "g1")] {
        h.play(BoardRole::Blind, from, to);
    }
    h.play(BoardRole::Blind, "d2", "d4");
    assert_eq!(h.agreed(), ["e2e4", "e7e5", "d2d4"]);
}

#[test]
fn art_7_4_b_two_minutes_for_the_first_and_second_illegal_move_the_third_loses() {
    let mut h = Hands::pressed_by_station();
    h.play(BoardRole::Blind, "e2", "e4");
    h.play(BoardRole::Blind, "e7", "e5");
    for n in 1..=2 {
        h.play(BoardRole::Blind, "g1", "f3");
        let black = h.table.clock().unwrap().remaining(Side::Black, h.t + 500);
        let events = apply(&mut h, Input::IllegalMove { ply: 3 }).unwrap();
        assert!(events.iter().any(|e| matches!(e, Event::IllegalMoveFound { count, .. } if *count == n)));
        assert!(events.iter().any(|e| matches!(e,
            Event::ClockChanged { action, side: Some(Side::Black), .. } if action == "time_added")));
        assert!(h.table.clock().unwrap().remaining(Side::Black, h.t) >= black + ILLEGAL_MOVE_BONUS_MS - 1000);
        h.play(BoardRole::Blind, "f3", "g1");
        assert_eq!(h.agreed(), ["e2e4", "e7e5"]);
    }
    h.play(BoardRole::Blind, "g1", "f3");
    let events = apply(&mut h, Input::IllegalMove { ply: 3 }).unwrap();
    assert!(events.iter().any(|e| matches!(e,
        Event::GameOver { result, reason, .. } if result == "0-1" && reason == "illegal_moves")));
    assert_eq!(h.table.phase(), Phase::Finished);
    assert_eq!(apply(&mut h, Input::IllegalMove { ply: 1 }), Err(TableError::NoGame));
}

#[test]
fn art_7_4_a_ply_outside_the_record_is_refused_and_changes_nothing() {
    let mut h = Hands::pressed_by_station();
    h.play(BoardRole::Blind, "e2", "e4");
    assert!(matches!(apply(&mut h, Input::IllegalMove { ply: 2 }), Err(TableError::Invalid(_))));
    assert!(matches!(apply(&mut h, Input::IllegalMove { ply: 0 }), Err(TableError::Invalid(_))));
    assert_eq!(h.agreed(), ["e2e4"]);
    assert_eq!(h.table.illegal_moves(Side::White), 0);
}
