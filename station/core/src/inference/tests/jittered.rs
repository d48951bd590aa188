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

#[test]
fn a_pawn_put_down_and_taken_at_one_instant_is_no_flicker_beside_a_touched_pawn() {
    // A game of the collection, 18.d5 exd5 19.Bxd5 on a jittered line:
    // White's d-pawn lifted, Black's c5 pawn touched and put back, the pawn
    // put on d5 and taken by exd5 in the same reading. dxc5 has the holes of
    // the board before e6 was lifted, but a pawn was sensed on d5 where the
    // d-pawn may go: the plies after tell.
    let mut h = traced(
        "2rr1k2/pb2qppp/1p2pn2/2p5/P1BPP3/1QP1RN1P/5PP1/4R1K1 w - - 0 18",
        "  t 11283 +[] -[d4]
  t 11410 +[] -[]
  t 11459 +[] -[c5]
  t 11603 +[c5] -[]
  t 11820 +[d5] -[]
  t 11820 +[] -[d5]
  t 12002 +[] -[e6]
  t 12165 +[d5] -[]
  t 12341 +[] -[d5]
  t 12485 +[] -[c4]
  t 12579 +[d5] -[]",
    );
    decided_or_asked(&mut h, &["d4d5", "e6d5", "c4d5"]);
}

#[test]
fn a_move_shown_only_by_a_flicker_of_its_peg_was_not_made_first() {
    // A game of the collection, 21...Bc4 22.Bc2 Nb3: the bishop lifted from
    // b3, a peg sensed 9 ms on c2, the bishop put on c4; then White's bishop
    // goes from d3 to c2. Bc2 and Bc4 after it leave the same holes, and
    // the flicker showed Bc2's board first: a moment is no move made.
    let mut h = traced(
        "2r1r1k1/p2q1pp1/1p3n2/n7/3PP2p/Pb1B3P/3Q1RP1/2B1RNK1 b - - 2 21",
        "  t 13560 +[] -[b3]
  t 13634 +[c2] -[]
  t 13643 +[] -[c2]
  t 13698 +[c4] -[]
  t 13754 +[c3] -[]
  t 13762 +[] -[c3]
  t 13826 +[] -[d3]
  t 13904 +[] -[d2]
  t 13971 +[d2] -[]
  t 14182 +[c2] -[]
  t 14360 +[] -[a5]
  t 14471 +[b8] -[]
  t 14476 +[] -[b8]
  t 14531 +[b3] -[]",
    );
    decided_or_asked(&mut h, &["b3c4", "d3c2", "a5b3"]);
}
