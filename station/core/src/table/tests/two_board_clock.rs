use super::*;
use crate::clock::TimeControl;
use shakmaty::{Color, Piece, Role};

/// D.2.4 and D.2.6.1 in a two-board game without levers: every agreed move
/// presses for its mover, whichever board made it, so the clock runs for
/// the side to move and counts the moves made.
#[test]
fn d_2_6_1_in_a_two_board_game_the_clock_follows_both_players_and_counts_their_moves() {
    let mut h = Hands::with_dgt(TableConfig {
        time_control: Some("5400+30".parse::<TimeControl>().unwrap()),
        clock_auto_press: true,
        ..TableConfig::single(TrackerConfig::default())
    });
    let white = |role| Piece { color: Color::White, role };
    let black = |role| Piece { color: Color::Black, role };
    // Each move on the blind player's board, then executed on the DGT board.
    let moves = [
        ("e2", "e4", white(Role::Pawn)),
        ("e7", "e5", black(Role::Pawn)),
        ("g1", "f3", white(Role::Knight)),
        ("b8", "c6", black(Role::Knight)),
    ];
    for (i, (from, to, piece)) in moves.into_iter().enumerate() {
        let blind_moves = i % 2 == 0;
        if blind_moves {
            h.play(BoardRole::Blind, from, to);
        }
        h.dgt_move(from, to, piece);
        h.rest();
        if !blind_moves {
            h.play(BoardRole::Blind, from, to);
        }
        let clock = h.table.clock().unwrap();
        let to_move = if i % 2 == 0 { Side::Black } else { Side::White };
        assert_eq!(clock.on_move(), to_move, "after ply {}", i + 1);
    }
    assert_eq!(h.agreed(), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    let clock = h.table.clock().unwrap();
    assert_eq!((clock.moves_made(Side::White), clock.moves_made(Side::Black)), (2, 2));
}
