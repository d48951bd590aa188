use super::*;
use crate::clock::{Missing, Side};

fn timed(auto_press: bool) -> Hands {
    Hands::timed("5400+30", auto_press)
}

#[test]
fn d_2_4_a_press_before_the_move_is_made_is_premature_and_does_not_switch() {
    let mut h = timed(false);
    h.set_up();
    h.take();
    h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    let events = h.take_unwarned();
    assert!(
        matches!(&events[..], [Event::ClockPremature { side: Side::White, missing, .. }] if missing.contains(&Missing::Placement)),
        "{events:?}"
    );
    assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
    h.play(BoardRole::Blind, "e2", "e4");
    h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    assert!(h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, moves: 1, .. })));
    assert_eq!(h.table.clock().unwrap().on_move(), Side::Black);
    // A second press for the same move is premature again: no move was made since.
    h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    assert!(matches!(h.take_unwarned()[..], [Event::ClockPremature { .. }]));
}

#[test]
fn without_a_lever_the_clock_switches_once_the_move_is_made_and_announced() {
    let mut h = timed(true);
    h.set_up();
    let start = h.t;
    h.play(BoardRole::Blind, "e2", "e4");
    let events = h.take();
    let game_move = events.iter().position(|e| matches!(e, Event::GameMove { .. })).unwrap();
    let pressed = events.iter().position(|e| matches!(e, Event::ClockPressed { .. })).unwrap();
    assert!(pressed > game_move, "the clock starts only after the announcement");
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::Black);
    // White used the time from the start to the settled move, and got 30 s back.
    let used = h.t - 1000 - start;
    assert!(clock.remaining(Side::White, h.t) <= 5_400_000 + 30_000 - used + 1000);
}

/// Without speech input the station's own announcement is the
/// announcement: the move pressed his clock already, and a matching
/// announcement entered afterwards is checked without a second press.
#[test]
fn d_2_4_an_announcement_after_an_auto_pressed_move_does_not_press_again() {
    let mut h = timed(true);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    assert!(h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: Side::White, .. })));
    h.table.announce_uci("e4", h.t, &mut h.out).unwrap();
    let events = h.take_unwarned();
    assert!(
        matches!(&events[..], [Event::AnnouncementChecked { matches: true, .. }]),
        "checked, neither pressed nor premature: {events:?}"
    );
    assert_eq!(h.table.clock().unwrap().on_move(), Side::Black);
}

/// Both boards sensed and a lever for each side: the D.2.9 set-up.
fn timed_two_boards() -> Hands {
    let cfg = TableConfig { mirror_sensed: true, ..timed_cfg("5400+30") };
    Hands::with(cfg)
}

fn press(h: &mut Hands, side: Side) {
    h.table.clock_press(side, h.t, &mut h.out).unwrap();
    assert!(
        h.take().iter().any(|e| matches!(e, Event::ClockPressed { side: s, .. } if *s == side)),
        "{side:?}'s press after a made move counts"
    );
}

#[test]
fn d_2_9_after_going_back_the_clock_runs_for_the_side_to_move_and_counts_the_record() {
    let mut h = timed_two_boards();
    h.set_up();
    let moves = [
        ("e2", "e4", Side::White),
        ("e7", "e5", Side::Black),
        ("g1", "f3", Side::White),
        ("b8", "c6", Side::Black),
    ];
    for (from, to, side) in moves {
        h.play(BoardRole::Blind, from, to);
        h.play(BoardRole::Mirror, from, to);
        press(&mut h, side);
    }
    assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
    // The sighted player's scoresheet says 1... c5: back to the position after 1. e4.
    h.table.scoresheet(&["e4".into(), "c5".into()], h.t, &mut h.out).unwrap();
    for role in [BoardRole::Blind, BoardRole::Mirror] {
        h.play(role, "c6", "b8");
        h.play(role, "f3", "g1");
        h.play(role, "e5", "e7");
    }
    let events = h.take();
    assert!(events.iter().any(|e| matches!(e, Event::DiscrepancyResolved { .. })), "{events:?}");
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ClockChanged { action, side: Some(Side::Black), .. } if action == "on_move_set"
    )));
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::Black, "Black is to move after 1. e4");
    assert_eq!((clock.moves_made(Side::White), clock.moves_made(Side::Black)), (1, 0));
    let who = clock.corrections().iter().map(|c| c.who.as_str()).collect::<Vec<_>>();
    assert!(who.iter().all(|w| *w == "station"), "logged: {who:?}");
    // Play goes on with the presses judged against the right side.
    h.play(BoardRole::Mirror, "c7", "c5");
    h.play(BoardRole::Blind, "c7", "c5");
    press(&mut h, Side::Black);
    assert_eq!(h.table.clock().unwrap().on_move(), Side::White);
    assert_eq!(h.table.clock().unwrap().moves_made(Side::Black), 1);
}

#[test]
fn a_take_back_after_the_press_gives_the_clock_back_to_the_mover() {
    let mut h = timed(false);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    press(&mut h, Side::White);
    let black_before = h.table.clock().unwrap().remaining(Side::Black, h.t);
    h.t += 5_000;
    h.table.take_back(h.t, &mut h.out).unwrap();
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::White);
    assert_eq!(clock.moves_made(Side::White), 0);
    // Black's clock ran for those 5 s and keeps them spent.
    assert_eq!(clock.remaining(Side::Black, h.t), black_before - 5_000);
    h.play(BoardRole::Blind, "e4", "e2");
    h.play(BoardRole::Blind, "d2", "d4");
    press(&mut h, Side::White);
    // A take-back before the press changes nothing on the clock.
    h.play(BoardRole::Blind, "d7", "d5");
    h.take();
    h.table.take_back(h.t, &mut h.out).unwrap();
    assert!(!h.take().iter().any(|e| matches!(e, Event::ClockChanged { .. })));
    assert_eq!(h.table.clock().unwrap().on_move(), Side::Black);
}

#[test]
fn arbiter_corrections_are_events_with_who_and_why() {
    let mut h = timed(false);
    h.set_up();
    h.take();
    let cmd =
        ClockCommand::SetTime { side: Side::Black, ms: 60_000, who: "arbiter".into(), why: "6.14".into() };
    h.table.clock_command(cmd, h.t, &mut h.out).unwrap();
    let events = h.take_unwarned();
    assert!(matches!(&events[..], [Event::ClockChanged { who: Some(w), .. }] if w == "arbiter"));
    assert_eq!(h.table.clock().unwrap().remaining(Side::Black, h.t), 60_000);
    let untimed = &mut Hands::started(false);
    assert_eq!(
        untimed.table.clock_command(ClockCommand::Start, 0, &mut untimed.out),
        Err(TableError::NoClock)
    );
}

#[test]
fn a_flag_falls_at_its_exact_time_and_warnings_come_in_order() {
    let cfg = timed_cfg("60");
    let mut h = Hands::with(cfg);
    h.set_up();
    let started = h.t - 1000 + 300 - 300; // the game started when the initial position settled
    let _ = started;
    let deadline = h.table.deadline().unwrap();
    h.table.tick(deadline, &mut h.out);
    let events = h.take();
    assert!(
        events.iter().any(|e| matches!(e, Event::FlagFell { side: Side::White, t_ms } if *t_ms == deadline)),
        "{events:?}"
    );
    let warnings: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::ClockWarning {
                warning: crate::clock::Warning::Remaining { threshold_ms, side: Side::White, .. },
                ..
            } => Some(*threshold_ms),
            _ => None,
        })
        .collect();
    assert!(warnings.windows(2).all(|w| w[0] > w[1]), "{warnings:?}");
}
