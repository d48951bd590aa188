use super::*;
use crate::two_boards::DiscrepancyKind;
use shakmaty::{Color, Piece, Role};

#[test]
fn d_2_9_a_piece_sensing_mirror_board_executes_wrongly_and_is_put_right() {
    let mut h = Hands::with_dgt(TableConfig::single(TrackerConfig::default()));
    h.play(BoardRole::Blind, "e2", "e4");
    let pawn = Piece { color: Color::White, role: Role::Pawn };
    // The sighted player executes 1. e4 as e3 on his DGT board.
    h.dgt_move("e2", "e3", pawn);
    h.rest();
    let events = h.take();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::Discrepancy { kind: DiscrepancyKind::Execution, board: Some(BoardRole::Mirror), .. }
        )),
        "{events:?}"
    );
    h.dgt_move("e3", "e4", pawn);
    h.rest();
    let events = h.take();
    assert!(events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })), "{events:?}");
    // The sighted player answers on his board; it is the agreed move.
    h.dgt_move("g8", "f6", Piece { color: Color::Black, role: Role::Knight });
    h.rest();
    assert_eq!(h.agreed(), ["e2e4", "g8f6"]);
}

/// A two-board game with a 300+2 clock: the blind player's peg board and
/// the sighted player's DGT board; 1. e4 played and pressed.
fn dgt_game_after_e4(auto_press: bool) -> Hands {
    let mut h = Hands::with_dgt(TableConfig { clock_auto_press: auto_press, ..timed_cfg("300+2") });
    h.play(BoardRole::Blind, "e2", "e4");
    if !auto_press {
        h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    }
    h.dgt_move("e2", "e4", Piece { color: Color::White, role: Role::Pawn });
    h.rest();
    assert_eq!(h.agreed(), ["e2e4"]);
    h.take();
    h
}

const BLACK_KNIGHT: Piece = Piece { color: Color::Black, role: Role::Knight };

#[test]
fn d_2_4_the_sighted_players_press_decides_the_move_his_dgt_board_shows() {
    for after_ms in [50, 150, 250] {
        let mut h = dgt_game_after_e4(false);
        h.dgt_move("g8", "f6", BLACK_KNIGHT);
        h.t += after_ms;
        h.table.clock_press(Side::Black, h.t, &mut h.out).unwrap();
        let events = h.take();
        assert_eq!(h.agreed(), ["e2e4", "g8f6"], "pressed {after_ms} ms after placing");
        assert!(
            events.iter().any(|e| matches!(e, Event::ClockPressed { side: Side::Black, .. })),
            "{events:?}"
        );
        assert!(!events.iter().any(|e| matches!(e, Event::ClockPremature { .. })), "{events:?}");
    }
}

#[test]
fn a_dgt_move_decided_on_the_settle_time_is_charged_from_its_placement() {
    let mut h = dgt_game_after_e4(true);
    h.dgt_move("g8", "f6", BLACK_KNIGHT);
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
