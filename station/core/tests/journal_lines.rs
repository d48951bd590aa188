//! Typed inside, text at the edge (issue 37): every line of a journal the
//! station wrote reads back to its record and writes out byte for byte the
//! same, with every kind of event; the moves inside are values, not text.

use station_core::Event;
use station_core::event::PlayedMove;
use station_core::journal::{Record, decode, restore};
use std::collections::BTreeSet;

/// A journal kept in `tests/data/journals`: `demo-chess.jsonl` is the start of
/// a `station demo --mirror dgt --noise 7` game (a discrepancy on the mirror
/// board, a move revised) and `demo-draughts.jsonl` a whole `station demo
/// --rules draughts` game, both written before events held typed values;
/// `event-kinds.jsonl` holds every other kind of event and record, with the
/// text the station writes for them.
fn journal(name: &str) -> String {
    let path = format!("{}/../../tests/data/journals/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const JOURNALS: [&str; 3] = ["demo-chess.jsonl", "demo-draughts.jsonl", "event-kinds.jsonl"];

/// Every `type` of [`Event`].
const EVENT_KINDS: [&str; 37] = [
    "game_started",
    "game_resumed",
    "move",
    "move_revised",
    "touch",
    "piece_returned",
    "board_mismatch",
    "board_restored",
    "setup_differs",
    "board_status",
    "button",
    "board_identity",
    "board_fault",
    "line_dropped",
    "game_move",
    "adjourned",
    "adjournment_resumed",
    "announcement_checked",
    "taken_back",
    "discrepancy",
    "discrepancy_resolved",
    "clock_pressed",
    "clock_premature",
    "clock_changed",
    "clock_warning",
    "flag_fell",
    "announcement",
    "input_refused",
    "device_status",
    "heard",
    "draw_offered",
    "draw_claimed",
    "draw_claim_decided",
    "illegal_move_found",
    "irregularity",
    "irregularity_decided",
    "game_over",
];

#[test]
fn every_line_writes_back_the_bytes_it_was_read_from() {
    let mut kinds = BTreeSet::new();
    for name in JOURNALS {
        for (i, line) in journal(name).lines().enumerate() {
            let record: Record =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}:{}: {e}\n{line}", i + 1));
            assert_eq!(record.encode(), line, "{name}:{}", i + 1);
            if let Record::Event { event, .. } = &record {
                // The event stream's line is the journal's event object.
                assert!(line.contains(&format!(r#""event":{}}}"#, event.to_json())), "{name}:{}", i + 1);
                let v: serde_json::Value = serde_json::from_str(&event.to_json()).unwrap();
                kinds.insert(v["type"].as_str().unwrap().to_owned());
            }
        }
    }
    let all: BTreeSet<String> = EVENT_KINDS.iter().map(|k| k.to_string()).collect();
    assert_eq!(kinds, all, "every kind of event is in the journals");
}

#[test]
fn moves_read_back_as_values() {
    let events: Vec<Event> = journal("event-kinds.jsonl")
        .lines()
        .filter_map(|l| match serde_json::from_str(l).unwrap() {
            Record::Event { event, .. } => Some(event),
            _ => None,
        })
        .collect();
    let pos = shakmaty::Chess::default();
    for event in &events {
        match event {
            Event::GameStarted { moves, .. } => {
                assert!(matches!(&moves[0], PlayedMove::Chess(_)));
                assert_eq!(moves[0].to_move(&pos).map(|m| m.to().to_string()).as_deref(), Some("e4"));
            }
            Event::GameMove { uci, pdn: Some(pdn), .. } => {
                assert_eq!(uci, &PlayedMove::Draughts(pdn.clone()), "a draughts move stays its PDN");
            }
            Event::GameMove { uci, .. } => assert!(uci.uci().is_some(), "{uci}"),
            Event::DrawClaimed { written: Some(san), .. } => assert!(!san.to_string().is_empty()),
            _ => {}
        }
    }
}

#[test]
fn a_draughts_journal_written_before_typed_events_restores() {
    let contents = decode(journal("demo-draughts.jsonl")).unwrap();
    assert!(contents.finished());
    let restored = restore(&contents).unwrap();
    assert!(restored.reproduced, "{:?}", restored.damage);
    assert_eq!(contents.recorded_moves().len(), 48);
}

#[test]
fn a_journal_written_before_typed_events_restores() {
    let contents = decode(journal("demo-chess.jsonl")).unwrap();
    let restored = restore(&contents).unwrap();
    assert!(restored.reproduced, "{:?}", restored.damage);
    let recorded = contents.recorded_moves();
    assert!(recorded.len() >= 19, "{recorded:?}");
    assert_eq!(restored.table.record().map(|r| r.played_moves()), Some(recorded));
}
