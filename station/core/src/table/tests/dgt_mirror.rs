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

/// A two-board game with a 300+2 clock: the blind player's peg board and
/// the sighted player's DGT board; 1. e4 played and pressed.
fn dgt_game_after_e4(auto_press: bool) -> Hands {
    let cfg = TableConfig {
        mirror_sensed: true,
        mirror_pieces: true,
        time_control: Some("300+2".parse().unwrap()),
        clock_auto_press: auto_press,
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut h = Hands { table: Table::new(cfg), t: 0, out: Vec::new() };
    h.t += 100;
    h.table.on_pieces(h.t, &Board::default(), &mut h.out);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    if !auto_press {
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    }
    let pawn = Piece { color: Color::White, role: Role::Pawn };
    h.t += 100;
    h.table.on_field(h.t, Square::E2, None, &mut h.out);
    h.t += 100;
    h.table.on_field(h.t, Square::E4, Some(pawn), &mut h.out);
    h.rest();
    assert_eq!(h.agreed(), ["e2e4"]);
    h.take();
    h
}

#[test]
fn d_2_4_the_sighted_players_press_decides_the_move_his_dgt_board_shows() {
    for after_ms in [50, 150, 250] {
        let mut h = dgt_game_after_e4(false);
        let knight = Piece { color: Color::Black, role: Role::Knight };
        h.t += 100;
        h.table.on_field(h.t, Square::G8, None, &mut h.out);
        h.t += 100;
        h.table.on_field(h.t, Square::F6, Some(knight), &mut h.out);
        h.t += after_ms;
        h.table.clock_press(Side::Black, h.t, &mut h.out).unwrap();
        let events = h.take();
        assert_eq!(h.agreed(), ["e2e4", "g8f6"], "pressed {after_ms} ms after placing");
        assert!(events.iter().any(|e| matches!(e, Event::ClockPressed { side: Side::Black, .. })), "{events:?}");
        assert!(!events.iter().any(|e| matches!(e, Event::ClockPremature { .. })), "{events:?}");
    }
}

#[test]
fn a_dgt_move_decided_on_the_settle_time_is_charged_from_its_placement() {
    let mut h = dgt_game_after_e4(true);
    let knight = Piece { color: Color::Black, role: Role::Knight };
    h.t += 100;
    h.table.on_field(h.t, Square::G8, None, &mut h.out);
    h.t += 100;
    h.table.on_field(h.t, Square::F6, Some(knight), &mut h.out);
    let placed = h.t;
    h.rest();
    let events = h.take();
    assert_eq!(h.agreed(), ["e2e4", "g8f6"]);
    assert!(
        events.iter().any(
            |e| matches!(e, Event::ClockPressed { side: Side::Black, made_ms: Some(m), .. } if *m == placed)
        ),
        "{events:?}"
    );
}
