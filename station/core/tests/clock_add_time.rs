//! The arbiter adds time to a side (Art. 7.5.5: two minutes after an illegal
//! move): a clock command of its own, journaled with who and why, and the
//! clock shows the time added on top of what was left.

use station_core::clock::Side;
use station_core::event::Event;
use station_core::inference::TrackerConfig;
use station_core::journal::Input;
use station_core::table::{ClockCommand, Table, TableConfig, TableError};
use station_core::{BoardRole, Game};

fn started_table() -> (Table, u64) {
    let cfg = TableConfig {
        time_control: Some("300+2".parse().unwrap()),
        ..TableConfig::single(TrackerConfig::default())
    };
    let mut table = Table::new(cfg);
    let mut out = Vec::new();
    let start = Game::default().occupancy();
    table.on_scan(BoardRole::Mirror, 0, start, &mut out);
    table.on_scan(BoardRole::Blind, 0, start, &mut out);
    table.tick(1_000, &mut out);
    assert!(out.iter().any(|e| matches!(e, Event::GameStarted { .. })), "{out:?}");
    (table, 1_000)
}

#[test]
fn two_minutes_added_to_black_are_on_his_clock_and_journaled_with_who_and_why() {
    let (mut table, t0) = started_table();
    let mut out = Vec::new();
    let t = t0 + 10_000;
    let before = table.clock().unwrap().remaining(Side::Black, t);
    let white = table.clock().unwrap().remaining(Side::White, t);
    let cmd = ClockCommand::AddTime {
        side: Side::Black,
        ms: 120_000,
        who: "arbiter".into(),
        why: "Art. 7.5.5: White's illegal move".into(),
    };
    table.clock_command(cmd.clone(), t, &mut out).unwrap();
    assert_eq!(table.clock().unwrap().remaining(Side::Black, t), before + 120_000);
    assert!(
        out.iter().any(|e| matches!(e, Event::ClockChanged { action, side: Some(Side::Black), who: Some(w), why: Some(y), .. }
            if action == "time_added" && w == "arbiter" && y.contains("7.5.5"))),
        "{out:?}"
    );
    // White's running clock is untouched.
    assert_eq!(table.clock().unwrap().remaining(Side::White, t), white);

    // The journal keeps it and gives the same command back.
    let input = Input::from_clock_command(&cmd);
    let json = serde_json::to_string(&input).unwrap();
    assert!(json.contains("add_time") && json.contains("arbiter"), "{json}");
    let back: Input = serde_json::from_str(&json).unwrap();
    assert_eq!(back.clock_command(), Some(cmd));
}

#[test]
fn adding_time_without_a_clock_is_refused() {
    let mut table = Table::new(TableConfig::single(TrackerConfig::default()));
    let cmd = ClockCommand::AddTime { side: Side::White, ms: 60_000, who: "a".into(), why: "b".into() };
    assert_eq!(table.clock_command(cmd, 0, &mut Vec::new()), Err(TableError::NoClock));
}
