//! Captures on a jittered line: a captured peg out for a bounce's time, or
//! read at one instant, may be a hand's; the order of the boards then proves
//! nothing, and the station asks.

use super::*;

/// The moves decided are the game's first ones, and what is left undecided
/// was asked about, never guessed.
pub(super) fn decided_or_asked(h: &mut Hand, played: &[&str]) {
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

#[test]
fn a_piece_taken_just_after_it_landed_is_captured_once_the_record_has_it_there() {
    // A game of the collection, 19.Bg4 Bxg4 20.Qxg4 hxg3+ at a quick pace on
    // a jittered line: Black's bishop lands on g4 and is taken out 37 ms
    // later (before the station has decided 19.Bg4, so g4 was empty in its
    // record then), the queen lifted from d1 and put on g4; then Black's d6
    // pawn touched and put back. Qxd6 leaves the same holes, but g4 was out
    // by a hand before the queen left d1: the queen took on g4.
    let mut h = traced(
        "rn3rk1/p3q1b1/2ppbp2/N3p1p1/1PP1P2p/2N3B1/P3BPPK/R2Q1R2 w - - 0 19",
        "  t 11111 +[] -[e2]
  t 11277 +[g4] -[]
  t 11470 +[] -[g4]
  t 11525 +[] -[e6]
  t 11571 +[g4] -[]
  t 11608 +[] -[g4]
  t 11835 +[] -[d1]
  t 12018 +[g4] -[]
  t 12087 +[] -[d6]
  t 12136 +[d6] -[]
  t 12330 +[] -[h4]
  t 12361 +[] -[]
  t 12419 +[] -[g3]
  t 12504 +[] -[a1]
  t 12506 +[a1] -[]
  t 12613 +[] -[f2]
  t 12688 +[f2] -[]
  t 12801 +[h8] -[]
  t 12810 +[] -[h8]
  t 12811 +[g3] -[]",
    );
    decided_or_asked(&mut h, &["e2g4", "e6g4", "d1g4", "h4g3"]);
}

#[test]
fn a_move_decided_early_is_not_revised_into_a_hole_a_touch_filled_before() {
    // A game of the collection, 31...Nfg4 32.Bxg4 Nxg4 at a quick pace: the
    // knight put on g4 (decided early), White's e4 pawn touched and put back,
    // then the knight on g4 taken by White's bishop. Nxe4 has the holes of
    // the board with g4 out, but e4 was filled before the knight left g4:
    // the hand did not go on with it.
    let mut h = traced(
        "2r3k1/3b1pbp/1q1p1np1/1p2n3/3NP3/1PBN1B2/2P2QPP/4R2K w - - 4 31",
        "  t 19372 +[] -[c3]
  t 19553 +[] -[b3]
  t 19579 +[] -[]
  t 19630 +[b3] -[]
  t 19731 +[b2] -[]
  t 19839 +[] -[f6]
  t 19906 +[] -[f3]
  t 20085 +[f3] -[]
  t 20136 +[] -[e4]
  t 20156 +[e4] -[]
  t 20247 +[g4] -[]
  t 20304 +[] -[e4]
  t 20468 +[e4] -[]
  t 20485 +[] -[]
  t 20537 +[] -[g4]
  t 20610 +[] -[f3]
  t 20773 +[g4] -[]
  t 20866 +[] -[e5]
  t 20955 +[] -[g4]
  t 21172 +[g4] -[]",
    );
    decided_or_asked(&mut h, &["c3b2", "f6g4", "f3g4", "e5g4"]);
}

#[test]
fn a_move_the_opponent_answered_is_not_revised_into_the_plies_after() {
    // A game of the collection, 42.Qf8+ Kh7 43.Qf7+ Kh6, the game's end, at a
    // quick pace on a jittered line: the king's h7 landing read 2 ms before
    // the queen left f8. At rest the holes differ from the record by the
    // queen's f8 to f7 only, as if Qf8 had been Qf7; but Black's king was
    // lifted since Qf8: it was over, and the plies since explain the board.
    let mut h = traced(
        "8/pp2Q3/6rk/3P4/2nq1pP1/2R2P2/P5K1/1N6 w - - 8 42",
        "  t 25359 +[] -[e7]
  t 25583 +[f8] -[]
  t 25597 +[] -[]
  t 25693 +[] -[h6]
  t 25903 +[h7] -[]
  t 25903 +[] -[]
  t 25905 +[] -[f8]
  t 25945 +[] -[]
  t 25978 +[f7] -[]
  t 26097 +[] -[f4]
  t 26167 +[f4] -[]
  t 26237 +[h1] -[]
  t 26239 +[] -[h1]
  t 26290 +[] -[h7]
  t 26397 +[h6] -[]",
    );
    decided_or_asked(&mut h, &["e7f8", "h6h7", "f8f7", "h7h6"]);
}

#[test]
fn a_touch_inside_a_capture_that_then_lands_is_no_capture_of_its_own() {
    // A game of the collection, 26...Qxd4 27.Rd1 at a quick pace with hand
    // noise (no jitter): the queen lifted from c4, d4's rook out, White's
    // knight on c3 touched and put back, the queen in on d4, lifted again and
    // put back. Qxc3 has the same holes, but its captured peg went back
    // before the queen landed, and d4 was emptied first.
    let mut h = traced(
        "1r4k1/2p2p1p/2pp2p1/6Q1/PrqRP3/2N2P2/1PP3PP/1R5K b - - 0 26",
        "  t 16706 +[] -[b4]
  t 16854 +[b4] -[]
  t 16927 +[] -[c4]
  t 17034 +[] -[d4]
  t 17084 +[] -[c3]
  t 17156 +[c3] -[]
  t 17199 +[d4] -[]
  t 17222 +[] -[d4]
  t 17280 +[d4] -[]
  t 17367 +[] -[b1]
  t 17480 +[d1] -[]",
    );
    decided_or_asked(&mut h, &["c4d4", "b1d1"]);
}

#[test]
fn a_flicker_on_an_empty_hole_makes_no_five_plies_of_two() {
    // A game of the collection, 29.Rxe7 Rxe7 30.Rxe7 at a quick pace with
    // hand noise (no jitter): d8's queen touched for a moment, a peg sensed
    // on the empty a5 for 21 ms, then Black's rook takes on e7 and White
    // lifts b2. Five plies (Qa5, Rxb7, Qd8, Re7 around it) have the same
    // holes, on the strength of that flicker alone.
    let mut h = traced(
        "2bqnr1k/1r2p2p/p2p3P/2pP1pQ1/2P5/2N2BP1/1P2RP2/4R1K1 w - - 3 29",
        "  t 19352 +[] -[e2]
  t 19558 +[] -[e7]
  t 19756 +[e7] -[]
  t 19787 +[] -[d8]
  t 19794 +[d8] -[]
  t 19895 +[] -[e7]
  t 19969 +[a5] -[]
  t 19990 +[] -[a5]
  t 20092 +[] -[b7]
  t 20210 +[e7] -[]
  t 20255 +[] -[]
  t 20391 +[] -[b2]
  t 20505 +[] -[f8]
  t 20517 +[f8] -[]
  t 20601 +[b2] -[]
  t 20737 +[] -[e1]
  t 20803 +[] -[]
  t 20814 +[] -[e7]
  t 20999 +[e7] -[]",
    );
    decided_or_asked(&mut h, &["e2e7", "b7e7", "e1e7"]);
}

#[test]
fn a_chain_of_captures_on_one_square_is_decided_capture_by_capture() {
    // A game of the collection, 38...hxg5 39.hxg5 fxg5 40.Nxg5 Bxg5 41.Bxg5
    // Nxg5 42.Rxg5 Ra1 on a jittered line: the first capture's two pegs read
    // in one reading, and every landing peg taken by the next capture before
    // the board could rest. Eight plies on one square are more than the
    // catch-up reads at once: each capture and its recapture is decided as
    // the recapture lands.
    let h = traced(
        "3bb1k1/1q3np1/3p1p1p/1p1PpPP1/1P2P2P/r1PQBN2/r2N2R1/6RK b - - 0 38",
        "  t 23044 +[] -[h6]
  t 23206 +[] -[g5]
  t 23206 +[g5] -[]
  t 23390 +[] -[g5]
  t 23609 +[] -[h4]
  t 23639 +[g5] -[]
  t 23838 +[] -[g5] rec 75
  t 23868 +[] -[f6] rec 75
  t 24074 +[g5] -[] rec 75
  t 24170 +[h6] -[] rec 75
  t 24181 +[] -[h6] rec 75
  t 24215 +[] -[g5] rec 75
  t 24348 +[] -[f3] rec 75
  t 24406 +[c4] -[] rec 75
  t 24409 +[] -[c4] rec 75
  t 24447 +[g5] -[] rec 75
  t 24492 +[] -[g5] rec 75
  t 24549 +[f6] -[] rec 75
  t 24560 +[] -[f6] rec 75
  t 24581 +[] -[d8] rec 75
  t 24708 +[g5] -[] rec 75
  t 24821 +[] -[g5] rec 75
  t 24973 +[] -[e3] rec 75
  t 25195 +[g5] -[] rec 75
  t 25383 +[] -[g5] rec 75
  t 25490 +[] -[f7] rec 75
  t 25547 +[g5] -[] rec 75
  t 25636 +[] -[g5] rec 75
  t 25777 +[] -[g2] rec 75
  t 25924 +[c5] -[] rec 75
  t 25928 +[] -[c5] rec 75
  t 25928 +[] -[] rec 75
  t 25963 +[g5] -[] rec 75
  t 26026 +[] -[a2]
  t 26094 +[] -[]
  t 26133 +[a1] -[]",
    );
    let played = ["h6g5", "h4g5", "f6g5", "f3g5", "d8g5", "e3g5", "f7g5", "g2g5", "a2a1"];
    assert_eq!(h.moves(), played);
}

#[test]
fn a_capture_whose_square_flickers_as_the_next_pawn_goes_by_is_no_recapture() {
    // A game of the collection, 17...bxc6 18.d6 on a jittered line: c6's
    // pawn taken, the b7 pawn in, then White's d5 pawn lifted and c6 out and
    // back in one reading as the hand passed. Read as a capture and its
    // recapture (18.dxc6), the board would be the same; the pawn lands on d6.
    let mut h = traced(
        "r1r3k1/pp1b2bp/2P1p1p1/3PPp2/2P2B2/8/3K1PPP/2R3NR b - - 0 17",
        "  t 10474 +[] -[]
  t 10481 +[] -[c6]
  t 10618 +[] -[b7]
  t 10654 +[] -[d5]
  t 10713 +[d5] -[]
  t 10757 +[h8] -[]
  t 10764 +[] -[h8]
  t 10811 +[c6] -[]
  t 10817 +[] -[d5]
  t 11028 +[] -[c6]
  t 11028 +[c6] -[]
  t 11126 +[d6] -[]",
    );
    decided_or_asked(&mut h, &["b7c6", "d5d6"]);
}

#[test]
fn a_neighbour_touched_twice_is_no_capture_and_recapture() {
    // A game of the collection, 38...Rd3 39.Qxf7+ Kh6 on a jittered line: the
    // queen touched, then lifted from f6, f7's pawn taken, g6's pawn lifted and put back, the
    // queen in on f7; then the king lifted and g6 touched again. Qxg6 Kxg6
    // has the same holes: the king's lift came before g6's, so no recapture.
    let mut h = traced(
        "8/1p3p1k/p4Qp1/P7/2P1q1B1/1P2rp1P/8/3R1K2 b - - 3 38",
        "  t 23287 +[] -[e3]
  t 23425 +[d3] -[]
  t 23582 +[] -[f6]
  t 23655 +[f6] -[]
  t 23749 +[] -[f6]
  t 23898 +[] -[f7]
  t 24020 +[] -[g6]
  t 24084 +[h1] -[]
  t 24108 +[] -[h1]
  t 24192 +[g6] -[]
  t 24261 +[f7] -[]
  t 24310 +[] -[h7]
  t 24372 +[h2] -[]
  t 24381 +[] -[h2]
  t 24454 +[] -[g6]
  t 24536 +[g6] -[]
  t 24583 +[] -[]
  t 24682 +[h6] -[]",
    );
    decided_or_asked(&mut h, &["e3d3", "f6f7", "h7h6"]);
}

#[test]
fn a_recapture_needs_the_hole_emptied_twice() {
    // A game of the collection, 26.Rxd8 Rfxd8 at a quick pace with hand noise:
    // the rook lifted from d7, the bishop taken from d8, Black's c8 rook
    // touched and put back, the rook in on d8; then the c8 rook touched again
    // and d8 out for 7 ms while it is in the hand. Rcxd8 has the same holes,
    // but d8 was emptied only once, for White's capture: the recapture's own
    // captured peg was never taken, and the rook from f8 comes after.
    let mut h = traced(
        "2rb1rk1/ppNR1ppp/2p1p3/4n2P/4b1P1/4B3/Pn1NBP2/5RK1 w - - 0 26",
        "  t 16256 +[] -[]
  t 16274 +[] -[d7]
  t 16437 +[] -[d8]
  t 16573 +[] -[c8]
  t 16629 +[c8] -[]
  t 16841 +[d8] -[]
  t 16879 +[d6] -[]
  t 16895 +[] -[d6]
  t 16932 +[] -[c8]
  t 17014 +[] -[d8]
  t 17021 +[d8] -[]
  t 17082 +[c8] -[]
  t 17206 +[] -[f8]
  t 17422 +[] -[d8]
  t 17630 +[d8] -[]",
    );
    decided_or_asked(&mut h, &["d7d8", "f8d8"]);
}

#[test]
fn a_queen_taken_as_it_lands_is_no_capture_on_a_bounced_hole() {
    // A game of the collection, 33.Qd7 Qxd7 34.Bxd7 Rb8 at a quick pace on a
    // jittered line: the queen put on d7, Black's queen taking it (c3's
    // knight out for 8 ms, e6's pawn touched and put back on the way), then
    // White's bishop taking the queen 11 ms after it landed. Qxc3 Qxe6 Bd7
    // leaves the same holes, but c3 was out only as long as a bounce.
    let mut h = traced(
        "5rk1/4q2p/2QpP1p1/1B6/1P1p4/2n4P/5PP1/R5K1 w - - 0 33",
        "  t 22059 +[] -[c6]
  t 22119 +[d7] -[]
  t 22251 +[] -[d7]
  t 22293 +[] -[c3]
  t 22301 +[c3] -[]
  t 22359 +[] -[e7]
  t 22452 +[] -[]
  t 22563 +[] -[e6]
  t 22758 +[e6] -[]
  t 22870 +[d7] -[]
  t 22881 +[] -[d7]
  t 23024 +[] -[b5]
  t 23119 +[d7] -[]
  t 23246 +[] -[f8]
  t 23324 +[b8] -[]
  t 23416 +[] -[]",
    );
    decided_or_asked(&mut h, &["c6d7", "e7d7", "b5d7", "f8b8"]);
}
