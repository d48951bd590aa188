use super::*;
use shakmaty::{CastlingMode, fen::Fen, uci::UciMove};

/// A hand at work: each step is (ms after the previous step, squares toggled).
struct Hand {
    tracker: BoardTracker,
    t: Millis,
    out: Vec<Observation>,
}

impl Hand {
    fn at(fen: &str) -> Hand {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
        let occ = pos.board().occupied();
        let game = Game::new(pos, CastlingMode::Standard);
        Hand { tracker: BoardTracker::new(TrackerConfig::default(), game, occ, 0), t: 0, out: Vec::new() }
    }

    fn start() -> Hand {
        Hand::at("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    }

    /// The start without early decisions: the settle time and the next lift decide.
    fn settling() -> Hand {
        let mut h = Hand::start();
        h.tracker.set_early_decisions(false);
        h
    }

    /// Lifts (if occupied) or places (if empty) the peg on `sq` after `dt` ms.
    fn toggle(&mut self, dt: Millis, sq: &str) -> &mut Self {
        self.t += dt;
        let sq: Square = sq.parse().unwrap();
        let occ = self.tracker.sensed().toggled(sq);
        self.tracker.on_scan(self.t, occ, &mut self.out);
        self
    }

    fn wait(&mut self, dt: Millis) -> &mut Self {
        self.t += dt;
        self.tracker.tick(self.t, &mut self.out);
        self
    }

    fn moves(&self) -> Vec<String> {
        self.tracker.game().moves().iter().map(|m| self.tracker.game().uci(*m)).collect()
    }

    fn take(&mut self) -> Vec<Observation> {
        std::mem::take(&mut self.out)
    }
}

fn uci(pos: &Chess, s: &str) -> Move {
    UciMove::from_ascii(s.as_bytes()).unwrap().to_move(pos).unwrap()
}

#[test]
fn a_move_is_decided_once_the_board_has_settled() {
    let mut h = Hand::settling();
    h.toggle(0, "e2").toggle(200, "e4").wait(299);
    assert!(h.moves().is_empty(), "decided before the settle time");
    let touches = h.take();
    assert_eq!(touches.len(), 1);
    assert!(matches!(touches[0], Observation::Touch { square: Square::E2, t: 0, .. }));
    h.wait(1);
    assert_eq!(h.moves(), ["e2e4"]);
    assert!(matches!(h.take()[..], [Observation::Moved { ply: 1, t: 500, promotion_assumed: false, .. }]));
    assert_eq!(h.tracker.deadline(), None);
}

#[test]
fn the_deadline_tells_when_to_tick() {
    let mut h = Hand::start();
    h.toggle(1000, "g1");
    assert_eq!(h.tracker.deadline(), Some(1040), "lift confirmation first");
    h.wait(40);
    assert_eq!(h.tracker.deadline(), Some(1300));
}

#[test]
fn occupancy_cannot_tell_bxc6_from_bxa6_but_the_lift_sequence_can() {
    let fen = "r3k3/8/n1p5/1B6/8/8/8/4K3 w - - 0 1";
    // Captured piece removed first, then the bishop lifted and placed.
    for (first, second) in [("c6", "b5"), ("b5", "c6")] {
        let mut h = Hand::at(fen);
        h.toggle(0, first).toggle(150, second).toggle(150, "c6").wait(400);
        assert_eq!(h.moves(), ["b5c6"], "removal order {first} {second}");
    }
    let mut h = Hand::at(fen);
    h.toggle(0, "b5").toggle(100, "a6").toggle(100, "a6").wait(400);
    assert_eq!(h.moves(), ["b5a6"]);
}

#[test]
fn sensor_bounce_is_neither_a_touch_nor_a_lift() {
    let fen = "r3k3/8/n1p5/1B6/8/8/8/4K3 w - - 0 1";
    let mut h = Hand::at(fen);
    // a6 flickers for 10 ms while the bishop takes on c6.
    h.toggle(0, "b5").toggle(50, "a6").toggle(10, "a6").toggle(50, "c6").toggle(100, "c6").wait(400);
    assert_eq!(h.moves(), ["b5c6"]);
    let touched: Vec<Square> = h
        .take()
        .iter()
        .filter_map(|o| match o {
            Observation::Touch { square, .. } => Some(*square),
            _ => None,
        })
        .collect();
    assert_eq!(touched, [Square::B5, Square::C6]);
    assert_eq!(h.tracker.bounces(), 1);
}

#[test]
fn a_knocked_neighbour_makes_a_capture_ambiguous_and_it_is_reported_not_guessed() {
    let fen = "r3k3/8/n1p5/1B6/8/8/8/4K3 w - - 0 1";
    let mut h = Hand::at(fen);
    h.toggle(0, "b5").toggle(100, "c6").toggle(100, "a6").toggle(100, "a6").toggle(100, "c6").wait(400);
    assert!(h.moves().is_empty());
    let obs = h.take();
    let Some(Observation::Mismatch { reason, candidates, .. }) = obs.last() else { panic!("{obs:?}") };
    assert_eq!(*reason, MismatchReason::Ambiguous);
    assert_eq!(candidates.len(), 2);
}

#[test]
fn promotion_assumes_the_configured_piece_and_says_so() {
    let mut h = Hand::at("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    h.toggle(0, "a7").toggle(300 - 1, "a8").wait(400);
    assert_eq!(h.moves(), ["a7a8q"]);
    assert!(h.take().iter().any(|o| matches!(o, Observation::Moved { promotion_assumed: true, .. })));
    // The announcement names the piece: the record follows it.
    assert_eq!(h.tracker.set_promotion(Role::Knight).map(|m| m.promotion()), Some(Some(Role::Knight)));
    assert_eq!(h.moves(), ["a7a8n"]);
    assert_eq!(h.tracker.set_promotion(Role::King), None);
    // Capturing promotion: the rook's hole was emptied.
    let mut h = Hand::at("1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
    h.toggle(0, "b8").toggle(100, "a7").toggle(100, "b8").wait(400);
    assert_eq!(h.moves(), ["a7b8q"]);
}

#[test]
fn castling_king_first_rook_first_or_both_lifted() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    // Art. 4.4.1: the king first (the rook lifted while the king is out) is castling.
    let orders: [&[&str]; 2] = [&["e1", "g1", "h1", "f1"], &["e1", "h1", "g1", "f1"]];
    for order in orders {
        let mut h = Hand::at(fen);
        for sq in order {
            h.toggle(120, sq);
        }
        h.wait(400);
        assert_eq!(h.moves(), ["e1g1"], "{order:?}");
    }
    // Art. 4.4.2: the rook first is the rook's move, and he is told.
    let mut h = Hand::at(fen);
    for sq in ["h1", "f1", "e1", "g1"] {
        h.toggle(120, sq);
    }
    h.wait(400);
    assert_eq!(h.moves(), ["h1f1"]);
    assert_eq!(rook_first_reports(&h.take()), 1);
}

#[test]
fn a_hand_that_rests_on_the_way_revises_the_move() {
    // The rook put on h3, the hand pausing longer than the settle time, then on to h5.
    let mut h = Hand::at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    h.toggle(0, "h1").toggle(100, "h3").wait(600);
    assert_eq!(h.moves(), ["h1h3"]);
    h.take();
    h.toggle(0, "h3").toggle(150, "h5").wait(400);
    assert_eq!(h.moves(), ["h1h5"]);
    let obs = h.take();
    let Some(Observation::Revised { ply: 1, replaces, .. }) = obs.last() else { panic!("{obs:?}") };
    let start: Chess = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
        .parse::<Fen>()
        .unwrap()
        .into_position(CastlingMode::Standard)
        .unwrap();
    assert_eq!(*replaces, uci(&start, "h1h3"));
}

#[test]
fn a_piece_held_in_the_hand_is_pending_not_a_mismatch() {
    let mut h = Hand::start();
    h.toggle(0, "g1").wait(5000);
    assert_eq!(h.tracker.agreement(), Agreement::Pending);
    assert!(h.take().iter().all(|o| matches!(o, Observation::Touch { .. })));
    h.toggle(0, "g1").wait(400);
    assert_eq!(h.tracker.agreement(), Agreement::InStep);
    assert!(h.moves().is_empty(), "touch and return is not a move");
}

#[test]
fn an_unexplained_board_is_reported_once_and_its_repair_noticed() {
    let mut h = Hand::start();
    h.toggle(0, "g1").toggle(100, "g4").wait(400);
    let obs = h.take();
    let Some(Observation::Mismatch { reason: MismatchReason::Unexplained, .. }) = obs.last() else {
        panic!("{obs:?}")
    };
    // Heartbeats of the same board do not repeat the report.
    let occ = h.tracker.sensed();
    for _ in 0..5 {
        h.t += 1000;
        h.tracker.on_scan(h.t, occ, &mut h.out);
    }
    assert!(h.take().is_empty());
    h.toggle(0, "g4").toggle(100, "g1").wait(400);
    assert!(matches!(h.take().last(), Some(Observation::Restored { .. })));
}

#[test]
fn a_takeback_is_recognised_but_not_applied() {
    let mut h = Hand::start();
    h.toggle(0, "e2").toggle(100, "e4").wait(400);
    h.toggle(0, "e7").toggle(100, "e5").wait(400);
    h.toggle(0, "e5").toggle(100, "e7").toggle(100, "e4").toggle(100, "e2").wait(400);
    let obs = h.take();
    let Some(Observation::Mismatch { reason: MismatchReason::Takeback, takeback_to_ply: Some(0), .. }) =
        obs.last()
    else {
        panic!("{obs:?}")
    };
    assert_eq!(h.moves().len(), 2);
}

#[test]
fn en_passant_is_seen_from_its_holes() {
    let mut h = Hand::at("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    h.toggle(0, "e5").toggle(100, "d5").toggle(100, "d6").wait(400);
    assert_eq!(h.moves(), ["e5d6"]);
}

#[test]
fn time_going_backwards_is_clamped() {
    let mut h = Hand::start();
    h.toggle(1000, "e2");
    h.t = 10; // a clock stepped back
    h.toggle(0, "e4").wait(400);
    assert!(h.moves().is_empty(), "time stands still until the clock passes its old value");
    h.t = 1300;
    h.wait(0);
    assert_eq!(h.moves(), ["e2e4"]);
}

#[test]
fn a_piece_held_over_its_only_capture_is_not_yet_a_capture() {
    // The bishop can take only on c6; lifted and held, the holes look like Bxc6 done.
    let mut h = Hand::at("4k3/8/2p5/1B6/8/8/8/4K3 w - - 0 1");
    h.toggle(0, "b5").wait(3000);
    assert!(h.moves().is_empty(), "decided a capture whose captured piece is still on the board");
    assert_eq!(h.tracker.agreement(), Agreement::Pending);
    h.toggle(0, "c6").toggle(100, "c6").wait(400);
    assert_eq!(h.moves(), ["b5c6"]);
}

fn moved_plies(obs: &[Observation]) -> Vec<(usize, Millis)> {
    obs.iter()
        .filter_map(|o| match o {
            Observation::Moved { ply, t, .. } => Some((*ply, *t)),
            _ => None,
        })
        .collect()
}

fn mismatches(obs: &[Observation]) -> Vec<&Observation> {
    obs.iter().filter(|o| matches!(o, Observation::Mismatch { .. })).collect()
}

#[test]
fn d2_3_the_next_lift_of_the_side_to_move_completes_the_move() {
    let mut h = Hand::settling();
    // e4 placed at 200; Black's hand takes the e7 pawn 120 ms later.
    h.toggle(0, "e2").toggle(200, "e4").toggle(120, "e7");
    assert!(h.moves().is_empty(), "a lift is evidence only once it is not a bounce");
    h.wait(39);
    assert!(h.moves().is_empty());
    h.wait(1);
    assert_eq!(h.moves(), ["e2e4"], "decided 40 ms after the lift, long before the settle time");
    assert_eq!(moved_plies(&h.take()), [(1, 360)]);
    // Black's move, then White's next lift decides it the same way.
    h.toggle(60, "e5").toggle(80, "g1").wait(40);
    assert_eq!(h.moves(), ["e2e4", "e7e5"]);
}

#[test]
fn d2_3_a_lift_that_may_continue_the_move_does_not_complete_it() {
    // The king first: Kf1 is legal, but the rook's lift may be castling going on.
    let mut h = Hand::at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    h.toggle(0, "e1").toggle(100, "f1").toggle(100, "h1").wait(60);
    assert!(h.moves().is_empty(), "decided Kf1 while the rook was on its way");
    h.toggle(60, "f1").toggle(60, "g1").toggle(60, "f1").toggle(100, "e8").wait(40);
    assert_eq!(h.moves(), ["e1g1"]);
}

#[test]
fn d2_3_sensor_bounce_is_no_evidence() {
    let mut h = Hand::settling();
    // A 10 ms flicker of a black peg right after the placement decides nothing.
    h.toggle(0, "e2").toggle(200, "e4").toggle(100, "e7").toggle(10, "e7").wait(100);
    assert!(h.moves().is_empty(), "a bounce was taken as the next move");
    assert_eq!(h.tracker.bounces(), 1);
    // Without further evidence the settle time decides, as before.
    h.wait(200);
    assert_eq!(h.moves(), ["e2e4"]);
}

#[test]
fn d2_3_holes_two_moves_explain_stay_undecided_when_the_next_move_begins() {
    // Bxa6 or Bxc6: both captured pegs were out; Black's next lift cannot tell them apart.
    let fen = "r3k3/8/n1p5/1B6/8/8/8/4K3 w - - 0 1";
    let mut h = Hand::at(fen);
    h.toggle(0, "b5").toggle(100, "c6").toggle(100, "a6").toggle(100, "a6").toggle(100, "c6");
    h.toggle(100, "e8").wait(100);
    assert!(h.moves().is_empty(), "guessed between two captures");
    h.toggle(0, "d8").wait(400);
    assert!(h.moves().is_empty());
    let obs = h.take();
    let Some(Observation::Mismatch { reason: MismatchReason::Ambiguous, candidates, .. }) =
        mismatches(&obs).last()
    else {
        panic!("{obs:?}")
    };
    assert_eq!(candidates.len(), 2, "{candidates:?}");
}

#[test]
fn d2_3_catch_up_of_two_plies_in_lift_order() {
    let mut h = Hand::start();
    // Black starts 10 ms after White's placement: too soon for e4 to have stood.
    h.toggle(0, "e2").toggle(150, "e4").toggle(10, "e7").toggle(150, "e5");
    h.toggle(100, "g1").wait(40);
    assert_eq!(h.moves(), ["e2e4", "e7e5"], "both plies accepted on White's next lift");
    let plies: Vec<usize> = moved_plies(&h.take()).into_iter().map(|(p, _)| p).collect();
    assert_eq!(plies, [1, 2], "each ply its own observation, in order");
}

#[test]
fn d2_3_catch_up_of_three_plies_at_the_settle_time() {
    let mut h = Hand::start();
    h.toggle(0, "e2").toggle(150, "e4").toggle(10, "e7").toggle(150, "e5").toggle(10, "g1").toggle(150, "f3");
    h.wait(400);
    assert_eq!(h.moves(), ["e2e4", "e7e5", "g1f3"]);
    let obs = h.take();
    assert_eq!(moved_plies(&obs).into_iter().map(|(p, _)| p).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(mismatches(&obs).is_empty(), "{obs:?}");
}

#[test]
fn d2_3_a_burst_two_sequences_explain_is_reported_not_guessed() {
    // Bxa6 or Bxc6, then ...Kd8 at once: two sequences give the same holes and lift order.
    let fen = "r3k3/8/n1p5/1B6/8/8/8/4K3 w - - 0 1";
    let mut h = Hand::at(fen);
    h.toggle(0, "b5").toggle(100, "c6").toggle(100, "a6").toggle(100, "a6").toggle(100, "c6");
    h.toggle(10, "e8").toggle(100, "d8").wait(400);
    assert!(h.moves().is_empty());
    let obs = h.take();
    let reports = mismatches(&obs);
    assert_eq!(reports.len(), 1, "{obs:?}");
    let Observation::Mismatch { reason: MismatchReason::Ambiguous, candidates, .. } = reports[0] else {
        panic!("{obs:?}")
    };
    assert_eq!(candidates.len(), 2, "the first moves that compete: {candidates:?}");
}

#[test]
fn d2_3_recovery_a_board_goes_on_by_itself_once_it_is_explained_again() {
    let mut h = Hand::start();
    // The pawn lands on e5, which no move reaches: reported once.
    h.toggle(0, "e2").toggle(100, "e5").wait(400);
    let first = h.take();
    assert_eq!(mismatches(&first).len(), 1);
    // Another difference is reported; going back to the first one is not said again.
    h.toggle(0, "d2").wait(400);
    assert_eq!(mismatches(&h.take()).len(), 1, "a new difference");
    h.toggle(0, "d2").wait(400);
    assert!(mismatches(&h.take()).is_empty(), "the same difference twice");
    // The hand puts the pawn on e4 and Black answers at once: the station follows.
    h.toggle(0, "e5").toggle(100, "e4").toggle(100, "e7").toggle(100, "e5").wait(400);
    assert_eq!(h.moves(), ["e2e4", "e7e5"]);
    assert_eq!(h.tracker.agreement(), Agreement::InStep);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn d2_3_recovery_by_a_unique_sequence_after_an_unexplained_board() {
    let mut h = Hand::start();
    // e4, and Black's knight lifted 10 ms later and held past the settle time:
    // e4 stands (its board too short to stand, the knight still out says it
    // is over), the knight is Black's move in the hand.
    h.toggle(0, "e2").toggle(100, "e4").toggle(10, "b8").wait(400);
    assert_eq!(h.moves(), ["e2e4"]);
    assert!(mismatches(&h.take()).is_empty());
    h.toggle(0, "c6").wait(400);
    assert_eq!(h.moves(), ["e2e4", "b8c6"]);
}

#[test]
fn d2_3_a_lift_that_a_flicker_seemed_to_end_goes_on() {
    let mut h = Hand::start();
    // e4 placed; Black's knight out, sensed back for 6 ms after 39, out again:
    // the 6 ms were the flicker, the lift went on.
    h.toggle(0, "e2").toggle(200, "e4").toggle(120, "g8").toggle(39, "g8").toggle(6, "g8");
    h.toggle(150, "f6").toggle(100, "g1").wait(40);
    assert_eq!(h.moves(), ["e2e4", "g8f6"], "both plies decided on White's next lift");
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn d2_3_a_position_repeated_inside_a_burst_is_read_in_lift_order_not_as_one_move() {
    let mut h = Hand::start();
    // Nf3 Nf6 Ng1 Ng8 Nf3 with no rest between them: the holes are those of Nf3
    // alone, but the knights went out and came back. The lift order tells.
    for sq in ["g1", "f3", "g8", "f6", "f3", "g1", "f6", "g8", "g1", "f3"] {
        h.toggle(10, sq);
    }
    h.wait(400);
    assert_eq!(h.moves(), ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn d2_3_recaptures_on_one_square_are_read_from_any_of_its_lifts() {
    // ...Nxc4 Qxc4 Rxa4 with no rest between them, White touching the a4 pawn
    // on the way. The queen's move starts at c2, not at the c4 lift that was the
    // knight's capture; ...Nxa4 Qxa4 Rxa4 (the same holes) would have left the
    // queen in the hand when the rook began.
    let mut h = Hand::at("r3k3/8/1n6/8/P1B5/8/2Q5/4K3 b - - 0 1");
    // Pegs out for 100 ms, the next change 10 ms after a placement (nothing stands).
    for (dt, sq) in [
        (0, "b6"),
        (100, "c4"),
        (100, "c4"),
        (10, "a4"),
        (100, "a4"),
        (10, "c2"),
        (100, "c4"),
        (100, "c4"),
        (10, "a4"),
        (100, "a8"),
        (100, "a4"),
    ] {
        h.toggle(dt, sq);
    }
    h.wait(400);
    assert_eq!(h.moves(), ["b6c4", "c2c4", "a8a4"]);
    assert!(mismatches(&h.take()).is_empty());
}

/// A Chess960 position (its castling rights by the rooks' files).
fn hand_960(fen: &str) -> Hand {
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
    let occ = pos.board().occupied();
    let game = Game::new(pos, CastlingMode::Chess960);
    Hand { tracker: BoardTracker::new(TrackerConfig::default(), game, occ, 0), t: 0, out: Vec::new() }
}

fn castled(h: &Hand) -> bool {
    matches!(h.tracker.game().moves(), [Move::Castle { .. }])
}

#[test]
fn iccf_b3_2_1_king_and_rook_both_move_in_any_order() {
    // King b1, rook a1: O-O-O puts them on c1 and d1, holes no other move explains.
    for order in [["b1", "c1", "a1", "d1"], ["a1", "d1", "b1", "c1"], ["b1", "a1", "c1", "d1"]] {
        let mut h = hand_960("1k6/8/8/8/8/8/8/RK6 w A - 0 1");
        for sq in order {
            h.toggle(120, sq);
        }
        h.wait(400);
        assert!(castled(&h), "{order:?}: {:?}", h.moves());
    }
}

#[test]
fn iccf_b3_2_2_king_and_rook_swap_squares_castling_when_the_king_was_lifted_first() {
    // King f1, rook g1: O-O swaps them; the holes stay as they were.
    let fen = "4k3/8/8/8/8/8/8/5KR1 w G - 0 1";
    let mut h = hand_960(fen);
    h.toggle(0, "f1").toggle(100, "g1").toggle(100, "f1").toggle(100, "g1").wait(400);
    assert!(castled(&h), "{:?}", h.take());
    // At quick pace: Black's answer begun at once decides it too.
    let mut h = hand_960(fen);
    h.toggle(0, "f1").toggle(100, "g1").toggle(100, "g1").toggle(100, "f1");
    h.toggle(100, "e8").toggle(100, "d8").toggle(100, "g1").wait(40);
    assert_eq!(h.tracker.game().ply(), 2, "{:?}", h.take());
    assert!(matches!(h.tracker.game().moves()[0], Move::Castle { .. }));
    // Touched one after the other, each put back: nothing was played, nothing said.
    let mut h = hand_960(fen);
    h.toggle(0, "f1").toggle(100, "f1").toggle(100, "g1").toggle(100, "g1").wait(400);
    assert!(h.moves().is_empty());
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn iccf_b3_2_2_swapped_squares_with_the_rook_lifted_first_are_reported_art_4_4_b() {
    let mut h = hand_960("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    h.toggle(0, "g1").toggle(100, "f1").toggle(100, "g1").toggle(100, "f1").wait(400);
    assert!(h.moves().is_empty(), "guessed castling after the rook was touched first");
    let obs = h.take();
    assert!(
        matches!(mismatches(&obs)[..], [Observation::Mismatch { reason: MismatchReason::Ambiguous, .. }]),
        "{obs:?}"
    );
}

#[test]
fn iccf_b3_2_3_only_the_king_moves() {
    // Rook already on d1: O-O-O takes the king from e1 to c1; the rook is lifted and put back.
    let mut h = hand_960("3rk3/3p4/8/8/8/8/3P4/3RK3 w Dd - 0 1");
    h.toggle(0, "e1").toggle(100, "c1").toggle(100, "d1").toggle(100, "d1").wait(400);
    assert!(castled(&h), "{:?}", h.take());
}

#[test]
fn iccf_b3_2_4_only_the_rook_moves() {
    // King already on g1: O-O takes the rook from h1 to f1 (a rook move cannot pass the king).
    let mut h = hand_960("6kr/8/8/8/8/8/8/6KR w Hh - 0 1");
    h.toggle(0, "g1").toggle(100, "g1").toggle(100, "h1").toggle(100, "f1").wait(400);
    assert!(castled(&h), "{:?}", h.take());
}

#[test]
fn iccf_b3_king_first_is_castling_rook_first_is_reported_king_alone_is_a_king_move() {
    // King e1, rook g1: O-O (king g1, rook f1) has the holes of Kf1, but g1 was emptied.
    let fen = "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1";
    // Art. 4.4(a): the king and then the rook.
    let mut h = hand_960(fen);
    h.toggle(0, "e1").toggle(100, "g1").toggle(100, "f1").toggle(100, "g1").wait(400);
    assert!(castled(&h), "{:?}", h.take());
    // Art. 4.4.2: the rook first; the touched rook moves (Art. 4.3.1), he is told.
    let mut h = hand_960(fen);
    h.toggle(0, "g1").toggle(100, "e1").toggle(100, "f1").toggle(100, "g1").wait(400);
    assert_eq!(h.moves(), ["g1f1"]);
    assert_eq!(rook_first_reports(&h.take()), 1);
    // The king alone: Kf1.
    let mut h = hand_960(fen);
    h.toggle(0, "e1").toggle(100, "f1").wait(400);
    assert_eq!(h.moves(), ["e1f1"]);
    // King f1, rook h1: O-O has the holes of Rg1. The king touched and put back
    // before the rook was lifted is no castling: Rg1.
    let fen = "4k3/8/8/8/8/8/8/5K1R w H - 0 1";
    let mut h = hand_960(fen);
    h.toggle(0, "f1").toggle(100, "f1").toggle(100, "h1").toggle(100, "g1").wait(400);
    assert_eq!(h.moves(), ["h1g1"]);
    let mut h = hand_960(fen);
    h.toggle(0, "f1").toggle(100, "g1").toggle(100, "h1").toggle(100, "f1").wait(400);
    assert!(castled(&h), "{:?}", h.take());
}

// Issue 25: decisions as early as the pegs allow, and the player's own evidence.

#[test]
fn d2_3_a_move_no_hand_can_make_another_is_decided_once_its_peg_stands() {
    let mut h = Hand::start();
    h.toggle(0, "e2").toggle(200, "e4").wait(39);
    assert!(h.moves().is_empty(), "a peg sensed for less than the debounce time may be a flicker");
    h.wait(1);
    assert_eq!(h.moves(), ["e2e4"]);
    assert_eq!(moved_plies(&h.take()), [(1, 240)]);
    assert_eq!(h.tracker.made_at(), 200, "made when the peg landed");
    // A knight's landing, and a capture once the captured peg was out longer than a bounce.
    h.toggle(500, "d7").toggle(150, "d5").wait(40);
    h.toggle(500, "d5").toggle(100, "e4").toggle(100, "d5").wait(40);
    assert_eq!(h.moves(), ["e2e4", "d7d5", "e4d5"]);
}

#[test]
fn d2_3_a_peg_put_back_where_the_mover_could_capture_waits() {
    // The queen lifted, the bishop beside d3 knocked out and put back: the holes
    // are Qxd4's, but the peg in d4 may be the bishop's own. Not decided early;
    // the queen lands on d3 and that is the move.
    let mut h = Hand::at("4k3/8/8/8/2Qb4/8/8/4K3 w - - 0 1");
    h.toggle(0, "c4").toggle(100, "d4").toggle(100, "d4").wait(100);
    assert!(h.moves().is_empty(), "took a knocked peg put back for a capture");
    h.toggle(50, "d3").wait(300);
    assert_eq!(h.moves(), ["c4d3"]);
    assert!(h.take().iter().all(|o| !matches!(o, Observation::Revised { .. })));
}

#[test]
fn d2_3_a_move_a_hand_may_go_on_with_waits_for_the_settle_time() {
    let mut h = Hand::start();
    // e3: the double step passes through it.
    h.toggle(0, "e2").toggle(200, "e3").wait(299);
    assert!(h.moves().is_empty(), "decided a pawn that may go on to e4");
    h.wait(1);
    assert_eq!(h.moves(), ["e2e3"]);
    assert_eq!(h.tracker.made_at(), 200);
    // A rook put down and the king lifted after it: the rook's move (Art.
    // 4.4.2), never revised into a castling.
    let mut h = Hand::at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    h.toggle(0, "h1").toggle(100, "f1").wait(200);
    h.toggle(50, "e1").toggle(100, "g1").wait(400);
    assert_eq!(h.moves(), ["h1f1"]);
    let obs = h.take();
    assert!(obs.iter().all(|o| !matches!(o, Observation::Revised { .. })));
    assert_eq!(rook_first_reports(&obs), 1);
}

#[test]
fn d2_3_a_placement_that_flickers_decides_nothing_early() {
    let mut h = Hand::start();
    // A peg sensed in e4 for 20 ms, the pawn still in the hand.
    h.toggle(0, "e2").toggle(200, "e4").toggle(20, "e4").wait(100);
    assert!(h.moves().is_empty());
    h.toggle(100, "e4").wait(40);
    assert_eq!(h.moves(), ["e2e4"]);
}

#[test]
fn d2_4_his_press_decides_the_move_his_board_shows() {
    let mut h = Hand::start();
    h.toggle(0, "e2").toggle(200, "e3").wait(50);
    assert!(h.moves().is_empty());
    let t = h.t;
    assert!(h.tracker.decide_now(None, t, &mut h.out));
    assert_eq!(h.moves(), ["e2e3"]);
    assert_eq!(moved_plies(&h.take()), [(1, 250)]);
    // Nothing in hand explains nothing: a press with a piece in the air decides nothing.
    h.toggle(500, "g8").wait(50);
    let t = h.t;
    assert!(!h.tracker.decide_now(None, t, &mut h.out));
    assert_eq!(h.moves(), ["e2e3"]);
}

#[test]
fn d2_3_3_his_announcement_decides_the_move_only_when_it_names_it() {
    let mut h = Hand::start();
    h.toggle(0, "e2").toggle(200, "e3").wait(50);
    let pos = Chess::default();
    let t = h.t;
    assert!(!h.tracker.decide_now(Some(uci(&pos, "d2d3")), t, &mut h.out));
    assert!(h.moves().is_empty());
    assert!(h.tracker.decide_now(Some(uci(&pos, "e2e3")), t, &mut h.out));
    assert_eq!(h.moves(), ["e2e3"]);
}

#[test]
fn a_peg_in_an_empty_hole_that_no_piece_can_be_is_no_evidence_capture_and_recapture_caught_up() {
    // Capablanca's 8...Bxc3 9.Bxc3 Nxe4 10.Qxe4 at a quick pace, as a loaded
    // line delivered it: a peg sensed in empty b7 for 56 ms (longer than a
    // bounce, while every piece stood: more pegs than pieces), a neighbour
    // touched, the last capture's three changes read at one instant.
    let mut h = Hand::at("r1bq1rk1/p1pp1ppp/2p2n2/8/1b2P3/2NQ4/PPPB1PPP/R3KB1R b KQ - 3 8");
    h.wait(49);
    h.toggle(0, "b7").toggle(56, "b7").toggle(20, "b4").toggle(74, "c3").toggle(117, "c3");
    h.toggle(36, "d3").toggle(122, "d3").toggle(107, "c3").toggle(124, "d2").toggle(92, "c3");
    h.toggle(27, "f7").toggle(9, "f7");
    h.toggle(379, "e4").toggle(0, "f6").toggle(0, "e4");
    h.toggle(74, "d3").toggle(76, "e4").toggle(118, "e4").wait(400);
    assert_eq!(h.moves(), ["b4c3", "d2c3", "f6e4", "d3e4"]);
    assert!(mismatches(&h.take()).is_empty());
}

/// The board of `fen` fed the scans of a replay's trace (`STATION_REPLAY_TRACE`:
/// lines `t MS +[squares] -[squares] …`), then left to settle.
fn traced(fen: &str, trace: &str) -> Hand {
    let mut h = Hand::at(fen);
    let mut first = None;
    for line in trace.lines().map(str::trim).filter(|l| l.starts_with("t ")) {
        let mut words = line.split_whitespace().skip(1);
        let at: Millis = words.next().and_then(|w| w.parse().ok()).expect("a time");
        let start = *first.get_or_insert(at.saturating_sub(100));
        let mut occ = h.tracker.sensed();
        for word in words.take(2) {
            let (placed, list) = (word.starts_with('+'), &word[2..word.len() - 1]);
            for sq in list.split(',').filter(|s| !s.is_empty()) {
                let sq: Square = sq.parse().unwrap();
                if placed { occ.add(sq) } else { occ.discard(sq) }
            }
        }
        h.t = at - start;
        h.tracker.on_scan(h.t, occ, &mut h.out);
    }
    h.wait(400);
    h
}

#[test]
fn a_neighbour_touched_while_the_knight_is_in_the_hand_is_no_capture_made() {
    // Capablanca, a game of the collection, 20.Nd6 Re7 21.c4 at a quick pace with
    // a jittered line: the knight lifted from c4, Black's e5 pawn lifted and put
    // back while the knight is in the hand, the knight put on d6. The board
    // stood a moment as after Nxe5 (c4 empty, e5 full): what came after (a peg
    // on d6, where no piece of Nxe5 goes) says it was no move.
    let mut h = traced(
        "3rr3/3n1p1p/ppk3p1/3np3/P1N5/R1P1B3/1P1RKPPP/8 w - - 1 20",
        "t 11693 +[] -[b2]
         t 11699 +[b2] -[]
         t 11724 +[] -[c3]
         t 11835 +[c3] -[]
         t 11996 +[] -[c4]
         t 12093 +[] -[e5]
         t 12186 +[e5] -[]
         t 12247 +[d6] -[]
         t 12269 +[] -[e8]
         t 12350 +[] -[]
         t 12444 +[e7] -[]
         t 12665 +[] -[c3]
         t 12692 +[f3] -[]
         t 12702 +[] -[f3]
         t 12746 +[c4] -[]",
    );
    assert_eq!(h.moves(), ["c4d6", "e8e7", "c3c4"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn a_king_put_on_its_castling_square_waits_for_its_rook_however_long_the_hand_takes() {
    // Art. 4.4(a): the king first, then the rook; a hand slower than the
    // settle time between them is a castling half made, no difference.
    let mut h = Hand::at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    h.toggle(0, "e1").toggle(200, "g1").wait(600);
    assert!(h.moves().is_empty());
    assert!(mismatches(&h.take()).is_empty(), "a castling half made is no difference");
    h.toggle(0, "h1").toggle(150, "f1").wait(400);
    assert_eq!(h.moves(), ["e1g1"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn a_move_read_with_the_next_lift_at_one_instant_stands_once_the_board_rests_with_that_peg_out() {
    // 1.Nf3 with Black's f-pawn lifted in the same reading of a loaded line
    // (the knight's board never stood), then the pawn held longer than the
    // settle time: Nf3 stands, the pawn is Black's move in the hand.
    let mut h = Hand::start();
    h.toggle(0, "g1").toggle(150, "f3").toggle(0, "f7").wait(400);
    assert_eq!(h.moves(), ["g1f3"]);
    assert!(mismatches(&h.take()).is_empty());
    h.toggle(0, "f5").wait(400);
    assert_eq!(h.moves(), ["g1f3", "f7f5"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn a_capture_landing_and_taken_again_at_once_is_read_as_both_captures() {
    // Fischer, a game of the collection, 8...dxc4 9.Bxc4 O-O 10.O-O Qe7 11.Qc2
    // on a jittered line: c4 out 39 ms (the d-pawn's capture), its landing
    // sensed for 27 ms, c4 out again (the bishop's): a flicker or a capture
    // and its recapture; the catch-up reads the second.
    let mut h = traced(
        "r1b1k2r/ppp2pp1/2n1pq1p/3p4/1bPP4/1QN1PN2/PP3PPP/R3KB1R b KQkq - 0 8",
        "  t 4359 +[] -[d5]
  t 4463 +[] -[c4]
  t 4502 +[c4] -[]
  t 4529 +[] -[c4]
  t 4749 +[] -[f1]
  t 4749 +[c4] -[]
  t 4882 +[] -[e8]
  t 4995 +[] -[h8]
  t 5007 +[] -[]
  t 5057 +[g8] -[]
  t 5278 +[f8] -[]
  t 5347 +[] -[e1]
  t 5369 +[] -[]
  t 5443 +[g1] -[]
  t 5586 +[] -[h1]
  t 5791 +[] -[]
  t 5797 +[f1] -[]
  t 5976 +[] -[f6]
  t 6036 +[e7] -[]
  t 6061 +[] -[b3]
  t 6094 +[c2] -[]",
    );
    assert_eq!(h.moves(), ["d5c4", "f1c4", "e8g8", "e1g1", "f6e7", "b3c2"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn a_capture_read_at_one_instant_and_a_touch_of_another_target_are_asked_never_guessed() {
    // Fischer, a game of the collection, 44.Qxf3 Qb2 on a jittered line: the
    // queen lifted, f3's pawn out and the queen in read at one instant (how
    // long it was out, the line did not tell), then Black's e7 pawn touched
    // and put back. Qxf3 and Qxe7 leave the same holes: asked, never guessed.
    let mut h = traced(
        "3k4/3np3/3p1p2/3P4/3q1P2/5pP1/P3Q1BK/8 w - - 0 44",
        "  t 28080 +[] -[e2]
  t 28170 +[h8] -[]
  t 28192 +[] -[h8]
  t 28426 +[] -[f3]
  t 28426 +[f3] -[]
  t 28482 +[] -[e7]
  t 28609 +[e7] -[]
  t 28768 +[] -[]
  t 28813 +[] -[d4]
  t 29010 +[b2] -[]",
    );
    jittered::decided_or_asked(&mut h, &["e2f3", "d4b2"]);
}

#[test]
fn a_capture_whose_hole_was_filled_again_before_the_mover_left_is_no_capture() {
    // Judit Polgar, a game of the collection, 35.Qxd4 Rxe1 on a jittered line:
    // the bishop on f6 touched (17 ms), then the queen lifted and held past
    // the settle time. Qxf6 has those holes, but f6 was filled again before
    // the queen left f4: the queen is in the hand.
    let mut h = traced(
        "r5k1/pp3p1p/3P1bp1/1R2r3/2bq1QP1/3B3P/2PK4/4R3 w - - 0 35",
        "  t 23493 +[] -[f6]
  t 23510 +[f6] -[]
  t 23510 +[] -[]
  t 23546 +[] -[f4]
  t 23900 +[] -[d4]
  t 23900 +[d4] -[]
  t 23991 +[] -[e1]
  t 24100 +[] -[e5]
  t 24194 +[e1] -[]",
    );
    assert_eq!(h.moves(), ["f4d4", "e5e1"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn a_capture_on_a_bounce_and_one_on_a_touch_wait_for_the_plies_after() {
    // Judit Polgar, a game of the collection, 32...Bxe5 33.Rxe5 Nc5 on a
    // jittered line: the knight on e5 out for 23 ms (a bounce's time), then
    // White's h4 pawn touched. Bxe5 and Bxh4 leave the same holes; Rxe5 after
    // tells them apart.
    let mut h = traced(
        "2r3k1/1p1q1p1p/p3nbpB/4N3/P6P/1QP5/5PP1/4R1K1 b - - 3 32",
        "  t 18562 +[] -[f6]
  t 18674 +[] -[e5]
  t 18697 +[e5] -[]
  t 18759 +[] -[h4]
  t 18873 +[h4] -[]
  t 19084 +[] -[e1]
  t 19195 +[] -[e5]
  t 19209 +[] -[]
  t 19231 +[e5] -[]
  t 19418 +[] -[e6]
  t 19450 +[c5] -[]",
    );
    let moves = h.moves();
    let played = ["f6e5", "e1e5", "e6c5"];
    assert_eq!(moves[..], played[..moves.len()], "a move guessed");
    assert_eq!(moves.len(), played.len(), "{:?}", h.take());
}

#[test]
fn of_two_captures_with_the_same_holes_the_one_a_hand_made_first_is_the_move() {
    // Capablanca, 10.Qxe4 Re8 played in real time through `station run` (the
    // soak, hand seed 0x320002): the queen lifted, the knight on e4 taken and
    // the queen put there; d7 flickered meanwhile (15 ms) and Black touched
    // his d7 pawn before Re8. Qxd7 has the same holes, but only the flicker
    // took its pawn out before the board showed Qxe4 made (D.2.3).
    let mut h = traced(
        "r1bq1rk1/p1pp1ppp/2p5/8/4n3/2BQ4/PPP2PPP/R3KB1R w KQ - 0 10",
        "t 8485 +[] -[d3]
         t 8579 +[] -[e4]
         t 8661 +[] -[d7]
         t 8676 +[d7] -[]
         t 8722 +[e4] -[]
         t 8872 +[] -[d7]
         t 8950 +[d7] -[]
         t 9146 +[] -[f8]
         t 9285 +[e8] -[]",
    );
    assert_eq!(h.moves(), ["d3e4", "f8e8"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn a_peg_put_down_before_any_lift_says_the_board_before_was_no_move() {
    // A game of the collection, 11...Rh3 12.Be3 Rxe3 13.fxe3 at a quick pace on
    // a jittered line: the rook lifted from h8, White's h2 pawn lifted by the
    // hand and put back 178 ms later, then the rook put on h3. The board stood
    // a moment as after Rxh2 (h8 empty, h2 full); the peg put on h3 next, with
    // no lift before it, says the hand was still placing: no capture was made.
    let mut h = traced(
        "r1b1kb1r/pp3pp1/1q1ppn2/4n1B1/4P3/1NN5/PPPQBP1P/R3K2R b KQkq - 6 11",
        "t 7249 +[] -[e6]
         t 7256 +[e6] -[]
         t 7261 +[] -[h8]
         t 7348 +[] -[h2]
         t 7348 +[] -[d2]
         t 7363 +[d2] -[]
         t 7526 +[h2] -[]
         t 7713 +[h3] -[]
         t 7741 +[] -[g5]
         t 7825 +[] -[]
         t 7950 +[e3] -[]
         t 8029 +[] -[e3]
         t 8286 +[] -[h3]
         t 8286 +[e3] -[]
         t 8464 +[] -[e3]
         t 8556 +[] -[f2]
         t 8613 +[e3] -[]",
    );
    assert_eq!(h.moves(), ["h8h3", "g5e3", "h3e3", "f2e3"]);
    assert!(mismatches(&h.take()).is_empty());
}

#[test]
fn two_captures_the_board_cannot_tell_apart_are_asked_while_the_hands_go_on_and_his_answer_decides() {
    // A game of the collection, 20.Nxc7 Qf4 21.Nf5 at a quick pace: the knight
    // lifted from b5, the c7 pawn taken, the d6 pawn lifted and put back, the
    // knight put on c7. Nxd6 (d6 taken, the knight landing there, c7 put back)
    // leaves the same holes. The board never rests: the station asks, and the
    // player's announcement (D.2.3) decides, with the plies after it.
    let fen = "5rk1/pppbnqb1/3p3p/1N1Pp1p1/1PP1P1p1/4N3/P1QB1rPP/2R2RK1 w - - 0 20";
    let mut h = traced(
        fen,
        "t 13795 +[] -[b5]
         t 13832 +[] -[b7]
         t 13833 +[b7] -[]
         t 13877 +[] -[c7]
         t 13919 +[] -[a2]
         t 13941 +[a2] -[]
         t 13992 +[] -[d6]
         t 14145 +[d6] -[]
         t 14336 +[c7] -[]
         t 14484 +[] -[f7]
         t 14566 +[f4] -[]
         t 14688 +[] -[e3]
         t 14785 +[f5] -[]",
    );
    let asked = h.take();
    let asked = mismatches(&asked);
    let [Observation::Mismatch { reason: MismatchReason::Ambiguous, candidates, .. }] = asked.as_slice()
    else {
        panic!("one question, not {asked:?}");
    };
    let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
    let nxc7 = uci(&pos, "b5c7");
    assert!(candidates.contains(&nxc7) && candidates.contains(&uci(&pos, "b5d6")));
    assert!(h.moves().is_empty(), "nothing guessed");
    let t = h.t;
    assert!(h.tracker.decide_now(Some(nxc7), t, &mut h.out));
    assert_eq!(h.moves(), ["b5c7", "f7f4", "e3f5"]);
    assert!(mismatches(&h.take()).is_empty());
}

/// The rook-first castling's reports (Art. 4.4.2) among `obs`.
fn rook_first_reports(obs: &[Observation]) -> usize {
    obs.iter()
        .filter(|o| matches!(o, Observation::Mismatch { reason: MismatchReason::RookFirst, .. }))
        .count()
}

#[test]
fn a_castling_with_the_rook_first_is_the_rook_move_whatever_the_hands_timing() {
    // Art. 4.4.2 with D.2.2: the rook taken and put on f1 first, then the king
    // to g1. Slow (the king lands after the settle time), quick (within it)
    // and at once (the king lifted before the rook's board stood): always
    // Rf1, he is told, and the king put back ends the difference.
    for (rest, king_after) in [(600, 200), (0, 120), (0, 10)] {
        let mut h = Hand::at("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
        h.toggle(0, "h1").toggle(150, "f1").wait(rest);
        h.toggle(king_after, "e1").toggle(150, "g1").wait(600);
        assert_eq!(h.moves(), ["h1f1"], "rest {rest} king after {king_after}");
        let obs = h.take();
        assert_eq!(rook_first_reports(&obs), 1, "told once: {obs:?}");
        h.toggle(0, "g1").toggle(150, "e1").wait(600);
        assert_eq!(h.moves(), ["h1f1"]);
        let obs = h.take();
        assert!(mismatches(&obs).is_empty(), "{obs:?}");
        assert!(obs.iter().any(|o| matches!(o, Observation::Restored { .. })), "{obs:?}");
    }
}

#[test]
fn a_peg_in_an_empty_hole_a_loaded_machine_held_past_a_bounce_is_no_piece() {
    // Capablanca, a game of the collection, 12...fxe5 13.Bd3 Qg5 14.Kb1 in real
    // time through `station run` on a loaded machine: the bishop on e5 taken,
    // a sensor flicker on g3 read for 32 ms (longer than a bounce), then the
    // f-pawn to e5. The g3 peg is no piece: the station went on deciding.
    let mut h = traced(
        "r1bqr1k1/p1pp2pp/2p2p2/4B3/4Q3/8/PPP2PPP/2KR1B1R b - - 1 12",
        "t 10557 +[] -[e5]
         t 10621 +[g3] -[]
         t 10653 +[] -[g3]
         t 10754 +[] -[f6]
         t 10875 +[e5] -[]
         t 11025 +[] -[c2]
         t 11151 +[c2] -[]
         t 11315 +[] -[f1]
         t 11375 +[d3] -[]
         t 11525 +[] -[d8]
         t 11595 +[g5] -[]
         t 11745 +[] -[c1]
         t 11924 +[b1] -[]",
    );
    assert_eq!(h.moves(), ["f6e5", "f1d3", "d8g5", "c1b1"]);
    assert!(mismatches(&h.take()).is_empty());
}

mod jittered;
