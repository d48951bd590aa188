use super::*;

fn game(ucis: &str) -> Game {
    let mut g = Game::default();
    for uci in ucis.split_whitespace() {
        g.push_uci(uci).unwrap_or_else(|| panic!("{uci} is legal"));
    }
    g
}

/// Knights out and back twice: the start position occurs for the third time at ply 8.
const KNIGHTS_TWICE: &str = "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8";

#[test]
fn art_9_2_the_start_position_for_the_third_time_after_the_knights_went_out_and_back_twice() {
    let g = game(KNIGHTS_TWICE);
    let all = facts_all(&g);
    let counts: Vec<u32> = all.iter().map(|f| f.repetitions).collect();
    assert_eq!(counts, [1, 1, 1, 1, 2, 2, 2, 2, 3]);
    assert_eq!(facts(&g), all[8]);
    assert!(facts(&g).threefold());
    assert_eq!(check_claim(&g, None).ground, Some(ClaimGround::Repetition), "9.2(b)");
}

#[test]
fn art_9_2_a_the_written_move_that_repeats_the_position_makes_the_claim_correct() {
    let g = game("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1");
    let written = shakmaty::uci::UciMove::from_ascii(b"f6g8").unwrap().to_move(g.position()).unwrap();
    assert!(!check_claim(&g, None).correct(), "only twice so far");
    let check = check_claim(&g, Some(written));
    assert_eq!(check.ground, Some(ClaimGround::Repetition));
    assert_eq!(check.facts.repetitions, 3);
    assert_eq!(check.facts.ply, 8);
}

#[test]
fn art_9_2_the_same_squares_with_the_castling_right_lost_is_not_the_same_position() {
    // The king steps out and back: the pieces stand as at the start, but White
    // may no longer castle, so the start position is not repeated.
    let g = game("e2e4 e7e5 e1e2 e8e7 e2e1 e7e8 e1e2 e8e7 e2e1 e7e8");
    let all = facts_all(&g);
    assert_eq!(all[2].repetitions, 1);
    assert_eq!(all[6].repetitions, 1, "the same squares as ply 2 without castling rights");
    assert_eq!(all[10].repetitions, 2, "ply 6 and ply 10");
    assert!(!check_claim(&g, None).correct());
}

#[test]
fn art_9_2_a_possible_en_passant_capture_makes_the_first_occurrence_different() {
    // 1.e4 Nf6 2.e5 d5: exd6 is possible once; after the knights go out and
    // back the same squares recur without it.
    let g = game("e2e4 g8f6 e4e5 d7d5 g1f3 b8c6 f3g1 c6b8 g1f3 b8c6 f3g1 c6b8");
    let all = facts_all(&g);
    assert_eq!(all[4].repetitions, 1, "en passant possible");
    assert_eq!(all[8].repetitions, 1, "the same squares, no en passant: a new position");
    assert_eq!(all[12].repetitions, 2);
}

#[test]
fn art_9_3_fifty_moves_without_a_pawn_move_or_capture_counts_from_the_last_one() {
    // Knights shuffle from a position whose half-move clock is 90.
    let mut g = Game::from_fen("4k2n/8/8/8/8/8/8/1N2K3 w - - 90 60").unwrap();
    for uci in ["b1c3", "h8g6", "c3b1", "g6h8"] {
        g.push_uci(uci).unwrap();
    }
    let f = facts(&g);
    assert_eq!(f.halfmove_clock, 94);
    assert_eq!(f.moves_without_pawn_or_capture(), 47);
    assert!(!f.fifty_moves());
    for uci in ["b1a3", "h8f7", "a3c4", "f7d6", "c4e5"] {
        g.push_uci(uci).unwrap();
    }
    assert_eq!(facts(&g).halfmove_clock, 99);
    assert!(!check_claim(&g, None).correct(), "49 and a half moves");
    let written = shakmaty::uci::UciMove::from_ascii(b"d6f5").unwrap().to_move(g.position()).unwrap();
    assert_eq!(check_claim(&g, Some(written)).ground, Some(ClaimGround::FiftyMoves), "9.3(a)");
    g.push(written);
    assert_eq!(check_claim(&g, None).ground, Some(ClaimGround::FiftyMoves), "9.3(b)");
    // A capture starts the count again.
    let mut g = Game::from_fen("4k3/8/8/8/8/2n5/8/1N2K3 w - - 99 60").unwrap();
    g.push_uci("e1f2").unwrap();
    assert_eq!(facts(&g).halfmove_clock, 100);
    let mut h = Game::from_fen("4k3/8/8/8/8/2n5/8/1N2K3 w - - 99 60").unwrap();
    h.push_uci("b1c3").unwrap();
    assert_eq!(facts(&h).halfmove_clock, 0, "the capture");
}

#[test]
fn art_9_5_the_incorrect_claimant_keeps_half_at_most_three_minutes_less_or_one_minute() {
    const MIN: Millis = 60_000;
    assert_eq!(claimant_time_after_incorrect_claim(10 * MIN), 7 * MIN, "half is 5, at most 3");
    assert_eq!(claimant_time_after_incorrect_claim(4 * MIN), 2 * MIN, "half");
    assert_eq!(claimant_time_after_incorrect_claim(2 * MIN + 2_000), MIN + 1_000, "half of just over two");
    assert_eq!(claimant_time_after_incorrect_claim(90_000), MIN, "between one and two: one is left");
    assert_eq!(claimant_time_after_incorrect_claim(2 * MIN), MIN, "two is not more than two");
    assert_eq!(claimant_time_after_incorrect_claim(45_000), 45_000, "under a minute: unchanged");
    assert_eq!(INCORRECT_CLAIM_BONUS_MS, 3 * MIN);
}
