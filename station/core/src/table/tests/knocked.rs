use super::*;
use shakmaty::{Color, Piece, Role};

#[test]
fn d_2_9_a_knocked_over_piece_put_back_is_no_move_and_no_discrepancy() {
    let mut h = Hands::with_dgt(TableConfig::single(TrackerConfig::default()));
    h.play(BoardRole::Blind, "e2", "e4");
    h.dgt_move("e2", "e4", Piece { color: Color::White, role: Role::Pawn });
    h.rest();
    h.take();
    // A black rook is knocked off the sighted player's board and lies there for 5 s …
    let rook = Piece { color: Color::Black, role: Role::Rook };
    h.t += 100;
    h.table.on_field(h.t, Square::A8, None, &mut h.out);
    h.t += 5000;
    h.table.tick(h.t, &mut h.out);
    // … and a peg is knocked out of the blind player's board and put back.
    let occ = h.table.sensed(BoardRole::Blind);
    h.scan(BoardRole::Blind, occ.without(Square::H7));
    h.t += 3000;
    h.table.tick(h.t, &mut h.out);
    h.scan(BoardRole::Blind, occ);
    h.t += 100;
    h.table.on_field(h.t, Square::A8, Some(rook), &mut h.out);
    h.rest();
    let events = h.take();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Move { .. } | Event::GameMove { .. } | Event::Discrepancy { .. })),
        "{events:?}"
    );
    assert!(
        events.iter().any(|e| matches!(e, Event::PieceReturned { square, .. } if square == "a8")),
        "{events:?}"
    );
    assert_eq!(h.agreed(), ["e2e4"]);
    assert!(!h.table.sync().unwrap().has_open_discrepancy());
}
