//! When the clock starts (issue 34 §3): no clock runs before anyone is
//! there. With `auto_start` it starts with the game only when the game's
//! position stands on every sensed board; otherwise when the boards show it,
//! when the arbiter starts it, or when a player presses (as on a DGT clock).
//! And what a take-back proposes for the clock (§6, Art. 7).

use super::*;
use crate::input::ClockCommand;

/// No sensor board at all (the blind player speaks, the assistant enters
/// the moves): 90 minutes + 30 s, the clock set to start with the game; the
/// game on (at once: no board can show its start), at 5 s.
fn no_board(auto_press: bool) -> Hands {
    let mut h = Hands::with(TableConfig {
        blind_unsensed: true,
        clock_auto_press: auto_press,
        ..timed_cfg("5400+30")
    });
    h.t = 5_000;
    h.rest();
    assert_eq!(h.table.phase(), Phase::Playing, "a game at once");
    h
}

fn clock_started(events: &[Event]) -> Option<(Option<Side>, Option<String>)> {
    events.iter().find_map(|e| match e {
        Event::ClockChanged { action, side, who, .. } if action == "started" => Some((*side, who.clone())),
        _ => None,
    })
}

fn remaining(h: &Hands, side: Side) -> Millis {
    h.table.clock().unwrap().remaining(side, h.t)
}

#[test]
fn without_a_sensed_board_no_clock_runs_until_the_arbiter_starts_it() {
    let mut h = no_board(false);
    let clock = h.table.clock().unwrap();
    assert!(!clock.is_started() && !clock.is_running(), "nobody is there yet");
    // Five minutes with nobody at the board: nothing runs down.
    h.apply_after(300_000, &Input::Tick).unwrap();
    assert_eq!(remaining(&h, Side::White), 5_400_000);
    assert!(!h.table.clock().unwrap().is_started());
    // The arbiter starts it: White's time runs from then.
    let events = h.apply_after(1_000, &Input::from_clock_command(&ClockCommand::Start)).unwrap();
    assert_eq!(clock_started(&events), Some((None, None)), "{events:?}");
    h.apply_after(10_000, &Input::Tick).unwrap();
    assert_eq!(remaining(&h, Side::White), 5_390_000);
}

#[test]
fn without_a_sensed_board_the_opponents_press_before_the_first_move_starts_the_clock() {
    let mut h = no_board(false);
    h.apply_after(60_000, &Input::Tick).unwrap();
    // Black presses his side, as a player starts a DGT clock: White's time runs.
    let events = h.apply_after(1_000, &Input::ClockPress { side: Side::Black }).unwrap();
    assert_eq!(clock_started(&events), Some((Some(Side::Black), Some("player".into()))), "{events:?}");
    assert!(!events.iter().any(|e| matches!(e, Event::ClockPremature { .. })), "{events:?}");
    assert!(h.table.clock().unwrap().is_running());
    h.apply_after(7_000, &Input::Tick).unwrap();
    assert_eq!(remaining(&h, Side::White), 5_393_000);
    assert_eq!(remaining(&h, Side::Black), 5_400_000);
    // White's own press before his move is still premature (D.2.4).
    let events = h.apply_after(1_000, &Input::ClockPress { side: Side::White }).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, Event::ClockPremature { side: Side::White, .. })),
        "{events:?}"
    );
}

#[test]
fn without_a_sensed_board_the_first_movers_press_after_his_move_starts_the_clock() {
    let mut h = no_board(true);
    h.apply_after(120_000, &Input::Tick).unwrap();
    // 1. e4 entered; the station presses for White: the clock starts with his
    // press, Black's time runs, White spent nothing and gets his increment.
    let events = h.apply_after(1_000, &Input::EnterMove { mv: "e4".into() }).unwrap();
    assert_eq!(clock_started(&events), Some((Some(Side::White), Some("player".into()))), "{events:?}");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ClockPressed { side: Side::White, remaining_ms: 5_430_000, .. })),
        "{events:?}"
    );
    h.apply_after(4_000, &Input::Tick).unwrap();
    assert_eq!(remaining(&h, Side::Black), 5_396_000);
}

/// The peg board shows the game after 1. e4 e5 (pressed by the station)
/// when the arbiter starts a new game.
fn new_game_on_the_old_board() -> Hands {
    let mut h = Hands::pressed_by_station();
    assert!(h.table.clock().unwrap().is_running(), "the first game's clock started with its set-up");
    h.play(BoardRole::Blind, "e2", "e4");
    h.play(BoardRole::Blind, "e7", "e5");
    let events = h
        .apply_after(
            1_000,
            &Input::NewGame { fen: None, chess960: None, moves: vec![], tags: Default::default() },
        )
        .unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::GameStarted { .. })), "{events:?}");
    h
}

#[test]
fn a_new_game_on_a_board_that_shows_the_old_game_starts_its_clock_once_the_start_position_stands() {
    let mut h = new_game_on_the_old_board();
    assert!(!h.table.clock().unwrap().is_started(), "the board still shows the old game");
    h.apply_after(60_000, &Input::Tick).unwrap();
    assert_eq!(remaining(&h, Side::White), 5_400_000);
    // The hands put the pawns back: once the start position stands, White's time runs.
    let mut occ = h.table.sensed(BoardRole::Blind);
    for (from, to) in [(Square::E4, Square::E2), (Square::E5, Square::E7)] {
        occ.discard(from);
        let events = h.apply_after(300, &Input::scan(BoardRole::Blind, occ)).unwrap();
        assert_eq!(clock_started(&events), None, "not yet: {events:?}");
        occ.add(to);
        let events = h.apply_after(300, &Input::scan(BoardRole::Blind, occ)).unwrap();
        let set_up = occ == Game::default().occupancy();
        assert_eq!(clock_started(&events).is_some(), set_up, "{events:?}");
        if set_up {
            assert_eq!(clock_started(&events), Some((None, Some("station".into()))));
        }
    }
    let started_at = h.t;
    h.apply_after(5_000, &Input::Tick).unwrap();
    assert_eq!(remaining(&h, Side::White), 5_400_000 - (h.t - started_at));
}

#[test]
fn with_two_sensed_boards_the_clock_waits_for_both_to_show_the_start() {
    let mut h = Hands::with(TableConfig { mirror_sensed: true, ..timed_cfg("5400+30") });
    let start = Game::default().occupancy();
    // His board is set up; the sighted player's is still empty.
    h.scan(BoardRole::Blind, start);
    h.rest();
    assert_eq!(h.table.phase(), Phase::Playing);
    assert!(!h.table.clock().unwrap().is_started(), "the other board is not set up");
    h.t += 120;
    let events = h.table.apply(h.t, &Input::scan(BoardRole::Mirror, start)).unwrap();
    assert_eq!(clock_started(&events), Some((None, Some("station".into()))), "{events:?}");
    // Both set up before the game began: it starts with the game, as before.
    let mut h = Hands::with(TableConfig { mirror_sensed: true, ..timed_cfg("5400+30") });
    h.set_up();
    assert!(h.table.clock().unwrap().is_running());
}

#[test]
fn art_7_a_take_back_proposes_the_clock_without_the_move() {
    let mut h = Hands::pressed_by_station();
    h.t += 10_000;
    h.play(BoardRole::Blind, "e2", "e4");
    h.t += 20_000;
    h.play(BoardRole::Blind, "e7", "e5");
    h.t += 45_000;
    h.play(BoardRole::Blind, "f1", "c4");
    let pressed: Vec<(Side, u64)> = h
        .take()
        .iter()
        .filter_map(|e| match e {
            Event::ClockPressed { side, remaining_ms, .. } => Some((*side, *remaining_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(pressed.len(), 3, "{pressed:?}");
    let (white_after_e4, black_after_e5, white_after_bc4) = (pressed[0].1, pressed[1].1, pressed[2].1);
    // 2. Bc4 cost White about 45 s and brought him 30 s.
    assert!(white_after_bc4 < white_after_e4, "{pressed:?}");
    h.t += 3_000;
    let events = h.table.apply(h.t, &Input::TakeBack).unwrap();
    let proposal = events.iter().find_map(|e| match e {
        Event::TakenBack { ply: 3, clock_proposal, .. } => Some(*clock_proposal),
        _ => None,
    });
    assert_eq!(
        proposal,
        Some(Some(crate::discrepancy::ClockProposal {
            ply: 2,
            white_ms: white_after_e4,
            black_ms: black_after_e5
        })),
        "the clocks as they were when White's clock started for 2. Bc4: {events:?}"
    );
    // The clock itself is the arbiter's to set: nothing is changed but whose turn it is.
    assert!(!events.iter().any(|e| matches!(e, Event::ClockChanged { action, .. } if action == "time_set")));
    assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
}

#[test]
fn a_take_back_of_a_move_whose_clock_was_not_pressed_proposes_nothing() {
    // A lever of his own (no station press): he made 1. e4 and has not pressed.
    let mut h = Hands::timed("5400+30", false);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    let events = h.table.apply(h.t + 1_000, &Input::TakeBack).unwrap();
    assert!(
        events.iter().any(|e| matches!(e, Event::TakenBack { ply: 1, clock_proposal: None, .. })),
        "his clock still runs: nothing to give back: {events:?}"
    );
}
