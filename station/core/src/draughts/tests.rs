//! Draughts rules tests, named after the articles of chapter I of the Polish
//! draughts code (chapter I), plus perft and the shared PDN games.

use super::board::{Color, Piece, Position, Square, Variant};
use super::movegen::{GameEnd, capture_paths, game_end, legal_moves};
use super::moves::Move;
use super::pdn::{PdnError, PdnGame, find_move, read_games, write_game};
use super::perft::perft;
use super::sensing::{DraughtsTracker, Irregularity, Sensed, SensorConfig};

const V: Variant = Variant::International;

fn sq(n: u8) -> Square {
    V.square(n).unwrap()
}

fn man(color: Color) -> Piece {
    Piece { color, king: false }
}

fn king(color: Color) -> Piece {
    Piece { color, king: true }
}

fn position(turn: Color, pieces: &[(u8, Piece)]) -> Position {
    let mut p = Position::empty(V, turn);
    for &(n, piece) in pieces {
        p.put(sq(n), piece);
    }
    p
}

fn pdn_of(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = legal_moves(pos).iter().map(|m| m.pdn(pos.variant, true)).collect();
    v.sort();
    v
}

fn shared_pdn() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/draughts/selfplay-international.pdn");
    std::fs::read_to_string(path).expect("the shared draughts games (tests/data/draughts)")
}

/// Published perft of the international draughts initial position, duplicates
/// (captures differing only in path) removed: Aart Bik, "BikDam: international
/// checkers", https://aartbik.blogspot.com/search/label/perft — perft(1..6) =
/// 9, 81, 658, 4265, 27117, 167140.
#[test]
fn perft_international_initial_position_matches_published_figures() {
    let start = Position::initial(V);
    let published = [9u64, 81, 658, 4265, 27117, 167140];
    for (depth, expected) in (1..).zip(published) {
        assert_eq!(perft(&start, depth), expected, "perft({depth})");
    }
}

/// International rules on 8×8 (Brazilian draughts, the same rules as the code's
/// 64-square version): Rein Halbersma, "Perft for all recognized draughts
/// variants", damforum.nl (2010), from the Russian shashki forum: perft(1..5) =
/// 7, 49, 302, 1469, 7473.
#[test]
fn perft_draughts64_initial_position_matches_published_figures() {
    let start = Position::initial(Variant::Draughts64);
    for (depth, expected) in (1..).zip([7u64, 49, 302, 1469, 7473]) {
        assert_eq!(perft(&start, depth), expected, "perft({depth})");
    }
}

#[test]
fn every_shared_game_replays_legally_and_round_trips_through_pdn() {
    let games = read_games(&shared_pdn()).expect("every game legal");
    assert!(games.len() > 1000, "{} games", games.len());
    let plies: usize = games.iter().map(|g| g.moves.len()).sum();
    assert!(plies > 50_000, "{plies} plies");
    let mut decided = 0;
    for g in &games {
        // Written with full paths and read back, the game is the same game.
        let again = read_games(&write_game(g)).expect("own PDN reads back");
        assert_eq!(again.len(), 1);
        assert_eq!(again[0].moves, g.moves);
        // A decisive result means the loser cannot move at the end (7.2.2–7.2.3).
        let last = *g.positions().last().unwrap();
        if (g.result == "2-0" || g.result == "0-2")
            && let Some(end) = game_end(&last)
        {
            decided += 1;
            let winner = match end {
                GameEnd::NoPieces { winner } | GameEnd::Blocked { winner } => winner,
            };
            assert_eq!(winner == Color::White, g.result == "2-0", "{:?}", g.tags);
        }
    }
    assert!(decided > 0);
}

#[test]
fn men_move_forward_only_kings_fly_2_8_and_3_6() {
    let p = position(Color::White, &[(28, man(Color::White)), (3, man(Color::Black))]);
    assert_eq!(pdn_of(&p), ["28-22", "28-23"]);
    let mut k = position(Color::White, &[(28, king(Color::White)), (3, man(Color::Black))]);
    assert_eq!(legal_moves(&k).len(), 4 + 5 + 4 + 4, "{:?}", pdn_of(&k));
    k.turn = Color::Black;
    assert_eq!(pdn_of(&k), ["3-8", "3-9"]);
}

#[test]
fn men_capture_backward_4_1() {
    let p =
        position(Color::White, &[(28, man(Color::White)), (33, man(Color::Black)), (1, man(Color::Black))]);
    assert_eq!(pdn_of(&p), ["28x39"]);
}

#[test]
fn flying_king_captures_at_a_distance_and_lands_anywhere_beyond_4_3() {
    let p = position(Color::White, &[(46, king(Color::White)), (23, man(Color::Black))]);
    assert_eq!(pdn_of(&p), ["46x10", "46x14", "46x19", "46x5"]);
}

#[test]
fn maximum_capture_is_compulsory_and_a_king_counts_as_one_4_13() {
    // 32 can take one king (on 27) or two men (28 then 19).
    let p = position(
        Color::White,
        &[
            (32, man(Color::White)),
            (27, king(Color::Black)),
            (28, man(Color::Black)),
            (19, man(Color::Black)),
        ],
    );
    assert_eq!(pdn_of(&p), ["32x23x14"]);
    // With one man only, king or man is the player's choice (4.14).
    let q =
        position(Color::White, &[(32, man(Color::White)), (27, king(Color::Black)), (28, man(Color::Black))]);
    assert_eq!(pdn_of(&q), ["32x21", "32x23"]);
}

#[test]
fn a_capture_is_compulsory_over_a_quiet_move_4_2() {
    let p =
        position(Color::White, &[(32, man(Color::White)), (45, man(Color::White)), (28, man(Color::Black))]);
    assert_eq!(pdn_of(&p), ["32x23"]);
}

#[test]
fn man_passing_the_last_row_during_a_capture_stays_a_man_4_15() {
    // 17x8x19: over 12 to 8 (Black's back row... White's last row is 1-5), so use 12 → 3? Build:
    // White man on 14 takes 9 (lands on 3, last row) and 8 (lands on 13): ends on 13, a man.
    let p =
        position(Color::White, &[(14, man(Color::White)), (9, man(Color::Black)), (8, man(Color::Black))]);
    let moves = legal_moves(&p);
    assert_eq!(pdn_of(&p), ["14x3x12"]);
    assert!(!moves[0].promotes);
    let after = moves[0].apply(&p);
    assert_eq!(after.piece_at(sq(12)), Some(man(Color::White)));
    // Ending on the last row makes a king (3.7).
    let q = position(Color::White, &[(14, man(Color::White)), (9, man(Color::Black))]);
    let m = &legal_moves(&q)[0];
    assert!(m.promotes);
    assert_eq!(m.apply(&q).piece_at(sq(3)), Some(king(Color::White)));
}

#[test]
fn captured_pieces_stay_until_the_move_is_over_and_cannot_be_jumped_twice_4_8_and_4_11() {
    // A man on 43 around four men (38, 28, 29, 39): it may pass its own start
    // square (4.8) and comes back to it, each man jumped once, both ways round.
    let p = position(
        Color::White,
        &[
            (43, man(Color::White)),
            (38, man(Color::Black)),
            (28, man(Color::Black)),
            (29, man(Color::Black)),
            (39, man(Color::Black)),
        ],
    );
    let paths = capture_paths(&p);
    assert_eq!(paths.len(), 2, "clockwise and counter-clockwise");
    for m in &paths {
        let mut seen = m.captured.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 4, "{}", m.pdn(V, true));
        assert_eq!(m.from, m.to);
    }
    // One move for the board: same start, end and captured set; the holes it empties are the four men.
    let moves = legal_moves(&p);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].fills(), 0);
    assert_eq!(moves[0].occupancy_after(p.occupied()), sq(43).bit());
}

#[test]
fn moves_as_holes_emptied_filled_and_intermediate_squares_4_9() {
    let p =
        position(Color::White, &[(14, man(Color::White)), (9, man(Color::Black)), (8, man(Color::Black))]);
    let m = &legal_moves(&p)[0];
    assert_eq!(m.empties(), sq(14).bit() | sq(9).bit() | sq(8).bit());
    assert_eq!(m.fills(), sq(12).bit());
    assert_eq!(m.intermediate(), &[sq(3)]);
    assert_eq!(m.occupancy_after(p.occupied()), sq(12).bit());
}

#[test]
fn game_ends_when_the_side_to_move_has_no_pieces_7_2_3() {
    let p = position(Color::Black, &[(28, man(Color::White))]);
    assert_eq!(game_end(&p), Some(GameEnd::NoPieces { winner: Color::White }));
}

#[test]
fn game_ends_when_the_side_to_move_is_blocked_7_2_2() {
    // Black man on 36 (moves down): 41 and 46... 36's forward squares are 41 and 46? use 45 blocked by 50.
    let p = position(Color::Black, &[(45, man(Color::Black)), (50, man(Color::White))]);
    assert_eq!(game_end(&p), Some(GameEnd::Blocked { winner: Color::White }));
    assert_eq!(game_end(&Position::initial(V)), None);
}

#[test]
fn pdn_names_an_illegal_move_and_an_ambiguous_one() {
    let err = read_games("[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *\n").unwrap_err();
    assert_eq!(err, PdnError::Illegal { game: 1, number: 3, text: "28-22".into() });
    assert!(err.to_string().contains("28-22"));
    assert!(matches!(read_games("[GameType \"21\"]\n1. 32-28 *"), Err(PdnError::GameType { .. })));
    // The same-squares pair: by start and end only it is ambiguous, the path names one.
    let p = same_squares_pair();
    assert_eq!(find_move(&p, "28x19"), Err(2));
    let named = find_move(&p, "28x11x2x19").unwrap().unwrap();
    assert_eq!(named.captured, [sq(22), sq(7), sq(13)]);
}

/// A white king on 28 and black men on 7, 12, 13 and 22: 28x11x2x19 takes 22, 7
/// and 13; 28x17x8x19 takes 22, 12 and 13. Same start, same end, three pieces
/// each (4.13): only the removals tell them apart.
fn same_squares_pair() -> Position {
    position(
        Color::White,
        &[
            (28, king(Color::White)),
            (7, man(Color::Black)),
            (12, man(Color::Black)),
            (13, man(Color::Black)),
            (22, man(Color::Black)),
        ],
    )
}

#[test]
fn draughts64_plays_with_algebraic_names() {
    let games = read_games("[GameType \"26\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n").unwrap();
    assert_eq!(games[0].variant, Variant::Draughts64);
    assert_eq!(games[0].moves.len(), 4);
    assert!(write_game(&games[0]).contains("d4xf6"));
}

// ----- the sensor -----

fn tracker(pos: Position) -> DraughtsTracker {
    DraughtsTracker::new(SensorConfig::default(), pos)
}

/// Feeds occupancy changes 100 ms apart (toggling the given squares one at a time), then settles.
fn play(t: &mut DraughtsTracker, at: &mut u64, toggles: &[u8]) -> Vec<Sensed> {
    let mut out = Vec::new();
    let mut occ = t.sensed();
    for &n in toggles {
        *at += 100;
        occ ^= sq(n).bit();
        out.extend(t.scan(*at, occ));
    }
    *at += 1000;
    out.extend(t.tick(*at));
    out
}

fn moved(out: &[Sensed]) -> Vec<(String, Option<Irregularity>)> {
    out.iter()
        .filter_map(|s| match s {
            Sensed::Moved { mv, irregularity, .. } => Some((mv.pdn(V, true), *irregularity)),
            _ => None,
        })
        .collect()
}

fn mismatches(out: &[Sensed]) -> usize {
    out.iter().filter(|s| matches!(s, Sensed::Mismatch { .. })).count()
}

#[test]
fn sensor_multiple_capture_with_intermediate_squares_removed_in_order_or_reverse_4_9_and_4_11() {
    let p =
        position(Color::White, &[(14, man(Color::White)), (9, man(Color::Black)), (8, man(Color::Black))]);
    for removals in [[9u8, 8], [8, 9]] {
        let mut t = tracker(p);
        let mut at = 0;
        // Lift 14, touch 3 (4.9), lift it, set into 12, remove the captured men.
        let out = play(&mut t, &mut at, &[14, 3, 3, 12, removals[0], removals[1]]);
        assert_eq!(moved(&out), [("14x3x12".to_string(), None)], "{removals:?}");
        assert_eq!(mismatches(&out), 0);
    }
}

#[test]
fn sensor_removal_in_another_order_is_the_move_but_named_4_11() {
    let p = position(
        Color::White,
        &[(14, man(Color::White)), (9, man(Color::Black)), (8, man(Color::Black)), (17, man(Color::Black))],
    );
    assert_eq!(pdn_of(&p), ["14x3x12x21"]);
    let mut t = tracker(p);
    let mut at = 0;
    let out = play(&mut t, &mut at, &[14, 3, 3, 12, 12, 21, 8, 9, 17]);
    assert_eq!(moved(&out), [("14x3x12x21".to_string(), Some(Irregularity::RemovalOrder))]);
    // Removed before the piece reached its last square: named too (5.4.10).
    let mut t = tracker(p);
    let out = play(&mut t, &mut at, &[14, 9, 8, 17, 21]);
    assert_eq!(moved(&out), [("14x3x12x21".to_string(), Some(Irregularity::RemovalOrder))]);
}

#[test]
fn sensor_man_taking_one_man_may_remove_it_first_4_16() {
    let p =
        position(Color::White, &[(32, man(Color::White)), (28, man(Color::Black)), (1, man(Color::Black))]);
    let mut t = tracker(p);
    let mut at = 0;
    let out = play(&mut t, &mut at, &[28, 32, 23]);
    assert_eq!(moved(&out), [("32x23".to_string(), None)]);
    assert_eq!(mismatches(&out), 0);
}

#[test]
fn sensor_same_start_and_end_different_captures_decided_by_the_removals_4_13() {
    let p = same_squares_pair();
    let moves = legal_moves(&p);
    let pairs: Vec<_> = moves
        .iter()
        .filter(|m| {
            moves.iter().any(|o| o.from == m.from && o.to == m.to && o.captured_mask() != m.captured_mask())
        })
        .collect();
    assert!(pairs.len() >= 2, "{:?}", pdn_of(&p));
    for m in pairs {
        let mut t = tracker(p);
        let mut at = 0;
        let mut toggles = vec![m.from.number()];
        for l in m.intermediate() {
            toggles.extend([l.number(), l.number()]);
        }
        if m.from != m.to {
            toggles.push(m.to.number());
        } else {
            toggles.push(m.from.number());
        }
        toggles.extend(m.captured.iter().map(|s| s.number()));
        let out = play(&mut t, &mut at, &toggles);
        let got = moved(&out);
        assert_eq!(got.len(), 1, "{out:?}");
        assert_eq!(got[0].0, m.pdn(V, true));
    }
}

#[test]
fn sensor_a_new_king_is_a_king_without_its_crown_3_7() {
    let p = position(Color::White, &[(7, man(Color::White)), (30, man(Color::Black))]);
    let mut t = tracker(p);
    let mut at = 0;
    let out = play(&mut t, &mut at, &[7, 1]);
    assert_eq!(moved(&out).len(), 1);
    assert_eq!(t.position().piece_at(sq(1)), Some(king(Color::White)));
    // Black's reply, then the new king flies: 1-45 is a move only a king has.
    play(&mut t, &mut at, &[30, 35]);
    let out = play(&mut t, &mut at, &[1, 45]);
    assert_eq!(moved(&out), [("1-45".to_string(), None)]);
}

#[test]
fn sensor_bounce_and_a_piece_in_the_hand_decide_nothing_and_a_wrong_square_is_reported() {
    let p = Position::initial(V);
    let mut t = tracker(p);
    let mut at = 0;
    // A bounce (10 ms) and a lift-and-return.
    at += 100;
    assert_eq!(t.deadline(), None);
    assert!(t.scan(at, p.occupied() & !sq(32).bit()).is_empty());
    assert_eq!(t.deadline(), Some(at + 300));
    assert!(t.scan(at + 10, p.occupied()).is_empty());
    let out = play(&mut t, &mut at, &[33, 33]);
    assert!(out.is_empty(), "{out:?}");
    // A man set back on a square no move reaches.
    let out = play(&mut t, &mut at, &[33, 24]);
    assert_eq!(mismatches(&out), 1, "{out:?}");
    // Two moves in a row are named (5.4.1) for the opponent to decide on.
    let mut two = tracker(p);
    let out = play(&mut two, &mut at, &[32, 28, 33, 29]);
    let named: Vec<&str> = out
        .iter()
        .filter_map(|s| match s {
            Sensed::Mismatch { irregular: Some(i), .. } => Some(i.article()),
            _ => None,
        })
        .collect();
    assert_eq!(named, ["5.4.1"], "{out:?}");
    let out = play(&mut t, &mut at, &[24, 33]);
    assert!(matches!(out.as_slice(), [Sensed::Restored { .. }]), "{out:?}");
    let out = play(&mut t, &mut at, &[32, 28]);
    assert_eq!(moved(&out), [("32-28".to_string(), None)]);
}

#[test]
fn sensor_plays_shared_games_move_by_move() {
    let games = read_games(&shared_pdn()).unwrap();
    for g in games.iter().take(50) {
        replay_through_sensor(g);
    }
}

fn replay_through_sensor(g: &PdnGame) {
    let mut t = tracker(Position::initial(g.variant));
    let mut at = 0;
    for (i, m) in g.moves.iter().enumerate() {
        let mut toggles = vec![m.from.number()];
        for l in m.intermediate() {
            if l.bit() & t.sensed() == 0 {
                toggles.extend([l.number(), l.number()]);
            }
        }
        toggles.push(m.to.number());
        if m.from == m.to {
            toggles.pop();
            toggles.push(m.from.number());
        }
        let reverse = i % 2 == 1;
        let mut caps: Vec<u8> = m.captured.iter().map(|s| s.number()).collect();
        if reverse {
            caps.reverse();
        }
        toggles.extend(caps);
        let out = play(&mut t, &mut at, &toggles);
        let got: Vec<&Move> = out
            .iter()
            .filter_map(|s| match s {
                Sensed::Moved { mv, irregularity: None, .. } => Some(mv),
                _ => None,
            })
            .collect();
        // The path too: the hand touched the landing squares of the path the PDN names (4.9).
        assert!(got.len() == 1 && got[0] == m, "game {:?} ply {}: {out:?}", g.tags, i + 1);
    }
}

mod hostile {
    use super::super::pdn::read_games;
    use super::super::sensing::{DraughtsTracker, SensorConfig};
    use super::super::{Position, Variant};
    use proptest::prelude::*;

    proptest! {
        /// Any text gives games or a named error, never a panic.
        #[test]
        fn pdn_reader_never_panics(text in "(\\[[A-Za-z]{0,8} \"[0-9a-z ]{0,6}\"\\]\n|[0-9]{1,3}[-xX.]{0,2}|[ {}()*!?\n]|é){0,40}") {
            let _ = read_games(&text);
        }

        /// Any scans (bits beyond the board included) never panic the sensor, and a
        /// board that returns to the game position is in step again.
        #[test]
        fn sensor_survives_any_scans(scans in proptest::collection::vec((1u64..500, any::<u64>()), 0..40)) {
            let start = Position::initial(Variant::International);
            let mut t = DraughtsTracker::new(SensorConfig::default(), start);
            let mut at = 0;
            for (dt, occ) in scans {
                at += dt;
                let _ = t.scan(at, occ);
            }
            let pos = *t.position();
            let _ = t.scan(at + 1, pos.occupied());
            let _ = t.tick(at + 10_000);
            prop_assert_eq!(t.sensed(), pos.occupied());
        }
    }
}

// ----- irregularities (5.4) -----

mod irregularities {
    use super::super::irregular::{Irregular, classify};
    use super::*;

    fn after(p: &Position, empties: &[u8], fills: &[u8]) -> u64 {
        let mut occ = p.occupied();
        for &n in empties {
            occ &= !sq(n).bit();
        }
        for &n in fills {
            occ |= sq(n).bit();
        }
        occ
    }

    #[test]
    fn a_legal_move_is_no_irregularity_5_4() {
        let p = Position::initial(V);
        assert_eq!(classify(&p, after(&p, &[32], &[28])), None);
    }

    #[test]
    fn two_moves_in_a_row_5_4_1() {
        let p = Position::initial(V);
        let got = classify(&p, after(&p, &[32, 33], &[28, 29])).unwrap();
        assert_eq!(got.article(), "5.4.1");
        assert!(matches!(got, Irregular::TwoMovesInARow { .. }));
    }

    #[test]
    fn a_man_stepping_backward_5_4_2() {
        let p = position(Color::White, &[(28, man(Color::White)), (3, man(Color::Black))]);
        let got = classify(&p, after(&p, &[28], &[33])).unwrap();
        assert_eq!(got.article(), "5.4.2");
    }

    #[test]
    fn the_opponents_piece_moved_5_4_5() {
        let p = Position::initial(V);
        assert_eq!(classify(&p, after(&p, &[19], &[23])).unwrap().article(), "5.4.5");
    }

    #[test]
    fn a_quiet_move_while_a_capture_was_compulsory_5_4_6() {
        let p = position(
            Color::White,
            &[(32, man(Color::White)), (45, man(Color::White)), (28, man(Color::Black))],
        );
        let got = classify(&p, after(&p, &[45], &[40])).unwrap();
        assert_eq!(got, Irregular::CaptureOmitted { mv: legal_step(&p, 45, 40), required: 1 });
    }

    fn legal_step(p: &Position, from: u8, to: u8) -> Move {
        super::super::movegen::quiet_moves(p)
            .into_iter()
            .find(|m| m.from == sq(from) && m.to == sq(to))
            .unwrap()
    }

    #[test]
    fn fewer_pieces_than_the_maximum_5_4_8() {
        // 32x23x14 is required (two men); 32x23 took one.
        let p = position(
            Color::White,
            &[(32, man(Color::White)), (28, man(Color::Black)), (19, man(Color::Black))],
        );
        let got = classify(&p, after(&p, &[32, 28], &[23])).unwrap();
        assert_eq!(got.article(), "5.4.8");
        assert!(matches!(got, Irregular::FewerThanMaximum { required: 2, .. }));
    }

    #[test]
    fn captured_pieces_not_all_removed_5_4_11() {
        let p = position(
            Color::White,
            &[(32, man(Color::White)), (28, man(Color::Black)), (19, man(Color::Black))],
        );
        let got = classify(&p, after(&p, &[32, 28], &[14])).unwrap();
        assert_eq!(got, Irregular::NotAllRemoved { mv: legal_moves(&p)[0].clone(), left: sq(19).bit() });
    }

    #[test]
    fn a_piece_removed_that_was_not_jumped_5_4_12_or_his_own_5_4_14() {
        let p = position(
            Color::White,
            &[
                (32, man(Color::White)),
                (47, man(Color::White)),
                (28, man(Color::Black)),
                (1, man(Color::Black)),
            ],
        );
        assert_eq!(classify(&p, after(&p, &[32, 28, 1], &[23])).unwrap().article(), "5.4.12");
        assert_eq!(classify(&p, after(&p, &[32, 28, 47], &[23])).unwrap().article(), "5.4.14");
    }
}
