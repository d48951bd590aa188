//! Guidelines I: adjournment to the end, each clause a scenario.

use super::*;
use crate::clock::Side;
use crate::input::Input;

/// 1.e4 played, the clock running (90 min), White's peg board alone; Black to seal.
fn adjournable() -> Hands {
    let mut h = Hands::timed("5400", false);
    h.set_up();
    h.play(BoardRole::Blind, "e2", "e4");
    h.table.clock_press(Side::White, h.t, &mut h.out).unwrap();
    h.take();
    h
}

fn apply(h: &mut Hands, input: Input) -> Result<Vec<Event>, TableError> {
    h.apply_after(1000, &input)
}

fn adjourn(h: &mut Hands, sealed: &str) {
    apply(h, Input::Adjourn { sealed: sealed.into(), session_left_ms: None }).unwrap();
    assert!(h.table.is_adjourned());
    assert_eq!(h.table.sealer(), Some(Side::Black));
}

#[test]
fn i_1_2_adjourning_before_the_session_ends_costs_the_sealer_the_time_left() {
    let mut h = adjournable();
    let t = h.t + 1000;
    let black = h.table.clock().unwrap().remaining(Side::Black, t);
    let white = h.table.clock().unwrap().remaining(Side::White, t);
    let events =
        apply(&mut h, Input::Adjourn { sealed: "c5".into(), session_left_ms: Some(20 * 60_000) }).unwrap();
    assert!(events.iter().any(|e| matches!(e,
        Event::ClockChanged { action, side: Some(Side::Black), who: Some(w), .. } if action == "time_set" && w == "arbiter")));
    let clock = h.table.clock().unwrap();
    assert!(!clock.is_running());
    assert_eq!(clock.remaining(Side::Black, h.t), black - 20 * 60_000);
    assert_eq!(clock.remaining(Side::White, h.t), white, "only the sealer's time");
    assert!(!format!("{events:?}").contains("c5"), "the sealed move stays sealed");
}

#[test]
fn i_6_a_draw_agreed_or_a_resignation_before_resumption_ends_the_game_unopened() {
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    let events = apply(&mut h, Input::AcceptDraw).unwrap();
    assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "agreement".into())));
    assert_eq!(h.agreed(), ["e2e4"], "the envelope was never opened");
    assert!(!h.table.is_adjourned());
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    let events = apply(&mut h, Input::Resign { side: Side::White }).unwrap();
    assert_eq!(game_over(&events), Some(("0-1".into(), "resignation".into())));
    assert_eq!(h.agreed(), ["e2e4"]);
}

#[test]
fn i_8_a_sealed_move_that_is_ambiguous_unreadable_or_illegal_loses_when_opened() {
    // After 1.e4 Black seals a move that is not his, nonsense, a pawn that cannot go there.
    for (sealed, reason) in
        [("Ke2", "sealed_move_illegal"), ("blah", "sealed_move_unreadable"), ("b4", "sealed_move_illegal")]
    {
        let mut h = adjournable();
        adjourn(&mut h, sealed);
        let events = apply(&mut h, Input::ResumeAdjourned).unwrap();
        assert_eq!(game_over(&events), Some(("1-0".into(), reason.into())), "`{sealed}`");
        assert_eq!(h.agreed(), ["e2e4"]);
    }
    // Ambiguous: knights on b1 and f3 could both go to d2.
    let mut h = Hands::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    apply(&mut h, Input::Adjourn { sealed: "Sd2".into(), session_left_ms: None }).unwrap();
    let events = apply(&mut h, Input::ResumeAdjourned).unwrap();
    assert_eq!(game_over(&events), Some(("0-1".into(), "sealed_move_ambiguous".into())));
}

#[test]
fn i_9_1_both_present_the_sealed_move_is_made_and_the_repliers_clock_runs() {
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    let events = apply(&mut h, Input::ResumeAdjourned).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 2, san, .. } if san == "c5")));
    assert_eq!(h.agreed(), ["e2e4", "c7c5"]);
    let clock = h.table.clock().unwrap();
    assert!(clock.is_running());
    assert_eq!(clock.on_move(), Side::White, "the replier's clock");
}

#[test]
fn i_9_2_the_replier_absent_his_clock_runs_and_the_envelope_waits_for_him() {
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    let white = h.table.clock().unwrap().remaining(Side::White, h.t);
    let events = apply(&mut h, Input::ResumeReplierAbsent).unwrap();
    assert!(!format!("{events:?}").contains("c5"), "not revealed");
    assert!(h.table.is_adjourned());
    let clock = h.table.clock().unwrap();
    assert!(clock.is_running());
    assert_eq!(clock.on_move(), Side::White);
    h.t += 600_000; // he comes ten minutes late
    let events = apply(&mut h, Input::OpenEnvelope).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 2, .. })));
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::White);
    assert!(clock.remaining(Side::White, h.t) <= white - 600_000, "his lateness is on his clock");
    assert_eq!(apply(&mut h, Input::OpenEnvelope), Err(TableError::NotAdjourned));
}

#[test]
fn i_9_3_the_sealer_absent_the_reply_is_sealed_in_a_new_envelope_and_his_clock_runs() {
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    apply(&mut h, Input::ResumeAdjourned).unwrap();
    let black = h.table.clock().unwrap().remaining(Side::Black, h.t);
    let events = apply(&mut h, Input::SealReply { sealed: "Nf3".into() }).unwrap();
    assert!(matches!(events[0], Event::Adjourned { ply: 3, .. }), "{events:?}");
    assert!(!format!("{events:?}").contains("Nf3") && !format!("{events:?}").contains("g1f3"));
    assert_eq!(h.table.sealer(), Some(Side::White));
    assert_eq!(h.table.clock().unwrap().on_move(), Side::Black, "the absent sealer's time runs");
    h.t += 300_000;
    let events = apply(&mut h, Input::OpenEnvelope).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 3, san, .. } if san == "Nf3")));
    assert_eq!(h.agreed(), ["e2e4", "c7c5", "g1f3"]);
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::Black);
    assert!(clock.remaining(Side::Black, h.t) <= black - 300_000);
}

#[test]
fn i_12_1_a_lost_envelope_play_goes_on_from_the_adjourned_position_and_times() {
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    let at = h.table.clock().unwrap().clone();
    let events = apply(&mut h, Input::EnvelopeLost).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::AdjournmentResumed { .. })));
    assert!(!h.table.is_adjourned());
    assert_eq!(h.agreed(), ["e2e4"]);
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.on_move(), Side::Black, "the sealer says and makes his move");
    assert_eq!(clock.remaining(Side::White, h.t), at.remaining(Side::White, h.t));
    assert_eq!(clock.remaining(Side::Black, h.t), at.remaining(Side::Black, h.t - 1000));
}

#[test]
fn i_13_the_clock_is_corrected_before_the_repliers_first_move() {
    let mut h = adjournable();
    adjourn(&mut h, "c5");
    apply(&mut h, Input::ResumeAdjourned).unwrap();
    let cmd = crate::input::ClockCommand::SetTime {
        side: Side::White,
        ms: 3_000_000,
        who: "arbiter".into(),
        why: "Guidelines I.13: the time at the adjournment".into(),
    };
    let events = apply(&mut h, Input::from_clock_command(&cmd)).unwrap();
    assert!(events.iter().any(|e| matches!(e, Event::ClockChanged { action, .. } if action == "time_set")));
    assert_eq!(h.table.clock().unwrap().remaining(Side::White, h.t), 3_000_000);
    assert!(h.table.clock().unwrap().is_running());
}
