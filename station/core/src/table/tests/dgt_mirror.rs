use super::*;
use crate::two_boards::DiscrepancyKind;
use shakmaty::{Board, Color, Piece, Role};

#[test]
fn d_2_9_a_piece_sensing_mirror_board_executes_wrongly_and_is_put_right() {
    let cfg = TableConfig {
        mirror_sensed: true,
        mirror_pieces: true,
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
    h.t += 100;
    h.table.on_pieces(h.t, &Board::default(), &mut h.out);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    let pawn = Piece { color: Color::White, role: Role::Pawn };
    // The sighted player executes 1. e4 as e3 on his DGT board.
    h.t += 100;
    h.table.on_field(h.t, Square::E2, None, &mut h.out);
    h.t += 100;
    h.table.on_field(h.t, Square::E3, Some(pawn), &mut h.out);
    h.rest();
    let events = h.take();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::Discrepancy { kind: DiscrepancyKind::Execution, board: Some(BoardRole::Mirror), .. }
        )),
        "{events:?}"
    );
    h.t += 100;
    h.table.on_field(h.t, Square::E3, None, &mut h.out);
    h.t += 100;
    h.table.on_field(h.t, Square::E4, Some(pawn), &mut h.out);
    h.rest();
    let events = h.take();
    assert!(events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })), "{events:?}");
    // The sighted player answers on his board; it is the agreed move.
    let knight = Piece { color: Color::Black, role: Role::Knight };
    h.t += 100;
    h.table.on_field(h.t, Square::G8, None, &mut h.out);
    h.t += 100;
    h.table.on_field(h.t, Square::F6, Some(knight), &mut h.out);
    h.rest();
    assert_eq!(h.agreed(), ["e2e4", "g8f6"]);
}
