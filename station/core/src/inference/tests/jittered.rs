//! Captures on a jittered line: a captured peg out for a bounce's time, or
//! read at one instant, may be a hand's; the order of the boards then proves
//! nothing, and the station asks.

use super::*;

/// The moves decided are the game's first ones, and what is left undecided
/// was asked about, never guessed.
fn decided_or_asked(h: &mut Hand, played: &[&str]) {
    let moves = h.moves();
    assert!(moves.len() <= played.len() && moves[..] == played[..moves.len()], "a move guessed: {moves:?}");
    if moves.len() < played.len() {
        let asked = h.take().into_iter().any(|o| {
            matches!(o, Observation::Mismatch { reason: MismatchReason::Ambiguous, ref candidates, .. }
                if candidates.len() >= 2)
        });
        assert!(asked, "undecided and not asked: {moves:?}");
    }
}

#[test]
fn a_capture_out_for_a_bounce_and_a_touch_of_another_target_are_asked() {
    // A game of the collection, 22...Qxe5 23.Qa1 Rb2 at a quick pace on a
    // jittered line: the queen lifted from b2, e5's knight out for 18 ms and
    // the queen in, then White's bishop on e2 touched and put back. Qxe2 has
    // the same holes and a hand seen out on e2, but the board showed Qxe5
    // first: which was the capture, the line did not tell.
    let mut h = traced(
        "1r4k1/p2bpp2/7p/3PN1p1/4P3/7P/1q2BPP1/2Q2RK1 b - - 0 22",
        "  t 16101 +[] -[b2]
  t 16166 +[] -[e5]
  t 16184 +[e5] -[]
  t 16216 +[g4] -[]
  t 16224 +[] -[g4]
  t 16237 +[] -[e2]
  t 16376 +[e2] -[]
  t 16487 +[] -[c1]
  t 16567 +[a1] -[]
  t 16750 +[] -[]
  t 16795 +[] -[b8]
  t 16990 +[b2] -[]",
    );
    decided_or_asked(&mut h, &["b2e5", "c1a1", "b8b2"]);
}

#[test]
fn a_touch_read_at_one_instant_before_the_capture_a_hand_made_is_asked() {
    // A game of the collection, 20.Bxc7 Rc8 21.Rb1 on a jittered line: the
    // bishop lifted from e5, Black's g7 pawn out and back in one reading (the
    // line did not tell for how long), then c7's pawn out 104 ms and the
    // bishop in. Bxg7 has the same holes and the board showed it sooner.
    let mut h = traced(
        "r5k1/p1p2ppp/2p5/4B2n/b3P3/2P2P2/P4KPP/2R5 w - - 2 20",
        "  t 12562 +[] -[]
  t 12653 +[] -[e5]
  t 12692 +[] -[g7]
  t 12692 +[g7] -[]
  t 12803 +[] -[c7]
  t 12907 +[c7] -[]
  t 12997 +[] -[a8]
  t 13040 +[c8] -[]
  t 13153 +[] -[]
  t 13153 +[] -[g2]
  t 13352 +[g2] -[]
  t 13560 +[] -[c1]
  t 13760 +[b1] -[]",
    );
    decided_or_asked(&mut h, &["e5c7", "a8c8", "c1b1"]);
}
