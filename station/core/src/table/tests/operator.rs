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

/// Two plies taken back, and the pegs put back one at a time as a hand puts
/// them right: the pegs gone first, then the pegs back, each standing `step`.
fn two_plies_taken_back_and_put_right(
    opening: &[(&str, &str)],
    moves: [Move; 2],
    step: Millis,
) -> Vec<Event> {
    let mut h = Hands::started(false);
    for (from, to) in opening {
        h.play(BoardRole::Blind, from, to);
    }
    let before = h.table.sensed(BoardRole::Blind);
    for mv in moves {
        let (from, to) = (mv.from().unwrap().to_string(), mv.to().to_string());
        h.play(BoardRole::Blind, &from, &to);
    }
    assert_eq!(h.agreed().len(), opening.len() + 2, "{moves:?}");
    h.take();
    h.table.take_back(h.t, &mut h.out).unwrap();
    h.table.take_back(h.t, &mut h.out).unwrap();
    let mut occ = h.table.sensed(BoardRole::Blind);
    let steps: Vec<Square> = (occ & !before).into_iter().chain(before & !occ).collect();
    for sq in steps {
        occ.toggle(sq);
        h.t += step;
        h.table.on_scan(BoardRole::Blind, h.t, occ, &mut h.out);
    }
    h.rest();
    h.rest();
    let events = h.take();
    assert_eq!(
        h.table.tracker(BoardRole::Blind).unwrap().game().ply(),
        opening.len(),
        "{moves:?} {events:?}"
    );
    assert_eq!(h.agreed().len(), opening.len());
    events
}

#[test]
fn pegs_put_back_one_by_one_after_a_take_back_are_no_moves() {
    // Put back in square order, a white piece may go home before a black
    // one: the two would be legal moves of the position taken back.
    let opening =
        [("e2", "e4"), ("e7", "e5"), ("g1", "f3"), ("b8", "c6"), ("f1", "c4"), ("g8", "f6"), ("d2", "d4")];
    let mut pos = shakmaty::Chess::default();
    for (from, to) in opening {
        let uci: shakmaty::uci::UciMove = format!("{from}{to}").parse().unwrap();
        pos.play_unchecked(uci.to_move(&pos).unwrap());
    }
    let plain = |m: &Move| !m.is_castle() && !m.is_en_passant() && m.promotion().is_none();
    let mut failures = Vec::new();
    for first in pos.legal_moves().into_iter().filter(plain) {
        let mut after = pos.clone();
        after.play_unchecked(first);
        for second in after.legal_moves().into_iter().filter(plain) {
            for step in [150, 400] {
                let events = two_plies_taken_back_and_put_right(&opening, [first, second], step);
                if events.iter().any(|e| matches!(e, Event::Discrepancy { .. } | Event::GameMove { .. })) {
                    failures.push(format!("{first} {second} {step} ms"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} failures: {failures:?}", failures.len());
}
