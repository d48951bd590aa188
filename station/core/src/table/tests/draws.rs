//! Article 9 at the table: offers, agreement, claims checked and decided.

use super::*;
use crate::clock::Side;
use crate::input::Input;

fn apply(h: &mut Hands, input: Input) -> Result<Vec<Event>, TableError> {
    h.apply_after(500, &input)
}

fn shuffle(h: &mut Hands, moves: &[(&str, &str)]) {
    for (from, to) in moves {
        h.play(BoardRole::Blind, from, to);
    }
}

const OUT_AND_BACK: [(&str, &str); 4] = [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")];

#[test]
fn art_9_1_a_draw_offer_is_recorded_after_the_move_and_agreement_ends_the_game() {
    let mut h = Hands::pressed_by_station();
    h.play(BoardRole::Blind, "e2", "e4");
    let events = apply(&mut h, Input::DrawOffer { side: Side::White }).unwrap();
    assert!(matches!(events[..], [Event::DrawOffered { side: Side::White, ply: 1, .. }]), "{events:?}");
    assert_eq!(h.table.draw_offers(), [(1, Side::White)]);
    let events = apply(&mut h, Input::AcceptDraw).unwrap();
    assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "agreement".into())));
    assert!(!h.table.clock().unwrap().is_running());
    assert_eq!(apply(&mut h, Input::AcceptDraw), Err(TableError::NoGame));
}

#[test]
fn art_9_2_b_a_correct_claim_after_the_third_occurrence_ends_the_game_once_the_arbiter_confirms() {
    let mut h = Hands::pressed_by_station();
    shuffle(&mut h, &OUT_AND_BACK);
    shuffle(&mut h, &OUT_AND_BACK);
    assert_eq!(h.table.draw_facts().unwrap().repetitions, 3);
    h.take();
    assert_eq!(
        apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: None }),
        Err(TableError::NotToMove),
        "only the player to move claims"
    );
    let events = apply(&mut h, Input::ClaimDraw { side: Side::White, mv: None }).unwrap();
    let claimed = events.iter().find(|e| matches!(e, Event::DrawClaimed { .. })).unwrap();
    let Event::DrawClaimed { correct, ground, repetitions, written, .. } = claimed else { unreachable!() };
    assert!(*correct);
    assert_eq!(ground.as_deref(), Some("threefold_repetition"));
    assert_eq!((*repetitions, *written), (3, None));
    assert!(!h.table.clock().unwrap().is_running(), "9.5: the claim stops the clocks");
    assert!(h.table.is_playing(), "the arbiter decides");
    let events = apply(&mut h, Input::ConfirmClaim).unwrap();
    assert!(matches!(events[0], Event::DrawClaimDecided { correct: true, .. }));
    assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "threefold_repetition".into())));
    assert_eq!(h.table.phase(), Phase::Finished);
}

#[test]
fn art_9_2_a_a_claim_with_the_written_move_that_repeats_the_position_is_correct() {
    let mut h = Hands::pressed_by_station();
    shuffle(&mut h, &OUT_AND_BACK);
    shuffle(&mut h, &OUT_AND_BACK[..3]);
    let events = apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: Some("Ng8".into()) }).unwrap();
    assert!(events.iter().any(|e| matches!(e,
        Event::DrawClaimed { correct: true, written: Some(w), repetitions: 3, .. } if w.to_string() == "Ng8")));
    let events = apply(&mut h, Input::ConfirmClaim).unwrap();
    assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "threefold_repetition".into())));
}

#[test]
fn art_9_5_an_incorrect_claim_gives_three_minutes_to_the_opponent_halves_the_claimant_and_the_written_move_is_played()
 {
    let mut h = Hands::pressed_by_station();
    shuffle(&mut h, &OUT_AND_BACK);
    shuffle(&mut h, &OUT_AND_BACK[..2]);
    // White claims with Ng1, which brings the position only a second time.
    let before = h.table.clock().unwrap().clone();
    let events = apply(&mut h, Input::ClaimDraw { side: Side::White, mv: Some("f3g1".into()) }).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::DrawClaimed { correct: false, ground: None, repetitions: 2, .. }))
    );
    assert_eq!(apply(&mut h, Input::EnterMove { mv: "Ng1".into() }), Err(TableError::ClaimPending));
    let at = h.t + 500;
    let white = h.table.clock().unwrap().remaining(Side::White, at);
    let black = h.table.clock().unwrap().remaining(Side::Black, at);
    assert_eq!(black, before.remaining(Side::Black, at), "Black's time stood still");
    let events = apply(&mut h, Input::ConfirmClaim).unwrap();
    assert!(matches!(events[0], Event::DrawClaimDecided { correct: false, side: Side::White, .. }));
    assert!(game_over(&events).is_none());
    let clock = h.table.clock().unwrap();
    assert_eq!(clock.remaining(Side::White, h.t), white - 3 * 60_000, "half of ~90 min is more than 3");
    let corrections: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            Event::ClockChanged { action, side, who, .. } => Some((action.as_str(), *side, who.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(corrections[0], ("time_added", Some(Side::Black), Some("arbiter".into())));
    assert_eq!(corrections[1], ("time_set", Some(Side::White), Some("arbiter".into())));
    assert!(events.iter().any(|e| matches!(e, Event::GameMove { ply: 7, san, .. } if san == "Ng1")));
    // The written move is the record's; once his board shows it the clock goes on to
    // Black, with his 3 minutes.
    h.play(BoardRole::Blind, "f3", "g1");
    apply(&mut h, Input::ClockPress { side: Side::White }).unwrap();
    let clock = h.table.clock().unwrap();
    assert!(clock.is_running());
    assert_eq!(clock.on_move(), Side::Black);
    assert!(clock.remaining(Side::Black, h.t) >= black + 3 * 60_000);
    assert_eq!(apply(&mut h, Input::ConfirmClaim), Err(TableError::NoClaim));
}

#[test]
fn art_9_3_a_fifty_move_claim_counts_the_moves_without_a_pawn_move_or_capture() {
    let mut h = Hands::from_fen("4k2n/8/8/8/8/8/8/1N2K3 w - - 98 60");
    assert!(h.table.is_playing());
    h.play(BoardRole::Blind, "b1", "c3");
    let events = apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: None }).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::DrawClaimed { correct: false, moves_without_pawn_or_capture: 49, .. }
        ))
    );
    // No clock: the incorrect claim is only refused.
    apply(&mut h, Input::ConfirmClaim).unwrap();
    let events = apply(&mut h, Input::ClaimDraw { side: Side::Black, mv: Some("h8g6".into()) }).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::DrawClaimed { correct: true, moves_without_pawn_or_capture: 50, .. }
        )),
        "9.3(a)"
    );
    let events = apply(&mut h, Input::ConfirmClaim).unwrap();
    assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "fifty_moves".into())));
}

#[test]
fn art_9_6_a_dead_position_ends_the_game_at_once() {
    let mut h = Hands::from_fen("4k3/8/8/8/8/8/3n4/4K3 w - - 0 60");
    h.play(BoardRole::Blind, "e1", "d2");
    let events = h.take();
    assert_eq!(game_over(&events), Some(("1/2-1/2".into(), "insufficient_material".into())), "{events:?}");
}

#[test]
fn a_restored_journal_gives_the_same_claim_decisions() {
    let mut h = Hands::pressed_by_station();
    shuffle(&mut h, &OUT_AND_BACK);
    shuffle(&mut h, &OUT_AND_BACK[..2]);
    let claim = Input::ClaimDraw { side: Side::White, mv: Some("Ng1".into()) };
    let a = apply(&mut h, claim.clone()).unwrap();
    let json = serde_json::to_string(&claim).unwrap();
    assert_eq!(json, r#"{"kind":"claim_draw","side":"white","move":"Ng1"}"#);
    assert_eq!(serde_json::from_str::<Input>(&json).unwrap(), claim);
    assert!(a.iter().any(|e| matches!(e, Event::DrawClaimed { correct: false, .. })));
}
