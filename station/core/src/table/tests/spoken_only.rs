//! No sensor board for the blind player: his spoken moves are his moves.

use super::*;
use crate::journal::{self, Header, Input, Record};

fn config(mirror_sensed: bool) -> TableConfig {
    TableConfig { mirror_sensed, announcement_required: true, blind_unsensed: true, ..timed_cfg("5400") }
}

fn moves(out: &[Event]) -> Vec<(String, BoardRole)> {
    out.iter()
        .filter_map(|e| match e {
            Event::GameMove { uci, by, .. } => Some((uci.to_string(), *by)),
            _ => None,
        })
        .collect()
}

#[test]
fn without_any_board_the_game_starts_at_once_and_is_played_by_voice_and_operator() {
    let mut h = Hands::with(config(false));
    h.t = 5_000;
    h.rest();
    assert_eq!(h.table.phase(), Phase::Playing);
    assert!(matches!(h.take()[0], Event::GameStarted { .. }));
    assert!(h.table.tracker(BoardRole::Blind).is_none());
    h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
    assert_eq!(moves(&h.take()), [("e2e4".into(), BoardRole::Blind)]);
    // His clock press counts: the spoken move is made and announced.
    h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    assert!(h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, .. })));
    // Not his turn: refused, nothing changes.
    let err = h.table.announce_uci("e7e5", h.t, &mut h.out).unwrap_err();
    assert!(matches!(err, TableError::NotYourTurn { .. } | TableError::IllegalMove { .. }), "{err}");
    h.table.enter_move("e5", h.t, &mut h.out).unwrap();
    // An illegal spoken move is refused.
    assert!(h.table.announce_uci("e4e5", h.t, &mut h.out).is_err());
    h.table.announce_uci("Nf3", h.t, &mut h.out).unwrap();
    assert_eq!(h.agreed(), ["e2e4", "e7e5", "g1f3"]);
    // The operator enters a move for him; what is spoken next is about the position now.
    h.table.enter_move("Nc6", h.t, &mut h.out).unwrap();
    h.table.enter_move("Bb5", h.t, &mut h.out).unwrap();
    assert_eq!(h.table.announce_position().unwrap(), *h.table.agreed().unwrap().position());
    h.table.announce_uci("a6", h.t, &mut h.out).unwrap_err();
    h.table.enter_move("a6", h.t, &mut h.out).unwrap();
    h.table.announce_uci("Ba4", h.t, &mut h.out).unwrap();
    // Nothing waits for a board that does not exist.
    h.t += 120_000;
    h.rest();
    assert!(!h.take().iter().any(|e| matches!(e, Event::Discrepancy { .. })));
}

#[test]
fn a_resignation_ends_the_game_and_stops_the_clock() {
    let mut h = Hands::with(config(false));
    h.t = 5_000;
    h.rest();
    h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
    h.take();
    h.table.resign(Side::Black, h.t, &mut h.out).unwrap();
    let out = h.take();
    assert!(
        matches!(&out[..], [Event::GameOver { result, reason, .. }] if result == "1-0" && reason == "resignation"),
        "{out:?}"
    );
    assert_eq!(h.table.phase(), Phase::Finished);
    assert!(!h.table.clock().unwrap().is_running());
    assert_eq!(h.table.resign(Side::White, h.t, &mut h.out), Err(TableError::NoGame));
}

#[test]
fn with_a_sensed_mirror_the_game_starts_on_its_initial_position() {
    let mut h = Hands::with(config(true));
    h.rest();
    assert_eq!(h.table.phase(), Phase::Waiting);
    h.scan(BoardRole::Mirror, Game::default().occupancy());
    h.rest();
    assert_eq!(h.table.phase(), Phase::Playing);
    h.table.announce_uci("d4", h.t, &mut h.out).unwrap();
    // The sighted player executes it on his board, then plays his own move.
    h.play(BoardRole::Mirror, "d2", "d4");
    h.play(BoardRole::Mirror, "d7", "d5");
    let out = h.take();
    assert_eq!(
        moves(&out),
        [("d2d4".into(), BoardRole::Blind), ("d7d5".into(), BoardRole::Mirror)],
        "{out:?}"
    );
    assert!(!out.iter().any(|e| matches!(e, Event::Discrepancy { .. })), "{out:?}");
}

#[test]
fn a_journal_of_spoken_moves_restores_the_game() {
    let mut table = Table::new(config(false));
    let mut out = Vec::new();
    table.tick(2_000, &mut out);
    table.announce_uci("c4", 3_000, &mut out).unwrap();
    table.enter_move("e5", 4_000, &mut out).unwrap();
    table.announce_uci("Nc3", 5_000, &mut out).unwrap();
    let id = table.game_id().unwrap();
    let header = Header::of_table(&table, id, &Game::default().fen(), 2_000, Default::default());
    // No sensor board: the blind player's holes were never sensed.
    assert!(header.config.blind_unsensed && header.occupancy == journal::occ_hex(Bitboard::EMPTY));
    let mut text = Record::Header(Box::new(header)).encode() + "\n";
    let inputs = [
        (3_000, Input::Announce { mv: "c2c4".into() }),
        (4_000, Input::EnterMove { mv: "e5".into() }),
        (5_000, Input::Announce { mv: "b1c3".into() }),
    ];
    for (seq, (t_ms, input)) in (1..).zip(inputs) {
        text += &(Record::Input { seq, t_ms, input }.encode() + "\n");
    }
    for (seq, event) in (10..).zip(out.iter().filter(|e| matches!(e, Event::GameMove { .. }))) {
        text += &(Record::Event { seq, event: event.clone() }.encode() + "\n");
    }
    let restored = journal::restore(&journal::decode(&text).unwrap()).unwrap();
    assert!(restored.reproduced);
    let g = restored.table.agreed().unwrap();
    assert_eq!(g.moves().iter().map(|m| g.uci(*m)).collect::<Vec<_>>(), ["c2c4", "e7e5", "b1c3"]);
}
