//! The clock engine against real games' `[%clk]` comments, and PGN export of
//! clock comments read back.

use station_core::Game;
use station_core::clock::{ChessClock, Side, TimeControl};
use station_core::clock_replay::{ClockReplayReport, replay_clock};
use station_core::pgn::{PgnGame, SevenTags, read_games, write_pgn_with_clocks};

const LICHESS: &[u8] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/pgn/clock/lichess_db_100k.pgn"));
const WORLD_CHAMPIONSHIP: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/pgn/clock/nepomniachtchi-liren-game1.pgn"
));

#[derive(Debug, Default)]
struct Totals {
    games: usize,
    replayed: usize,
    plies: usize,
    mismatches: usize,
    skipped: Vec<String>,
}

/// Every game of `games` replayed; the totals are printed under `label`.
fn replay_all(label: &str, games: &[PgnGame]) -> (Totals, Vec<ClockReplayReport>) {
    let mut totals = Totals::default();
    let reports: Vec<_> = games.iter().map(replay_clock).collect();
    for (game, report) in games.iter().zip(&reports) {
        totals.games += 1;
        match &report.skipped_reason {
            Some(reason) => {
                totals.skipped.push(format!("{} vs {}: {reason}", game.tags["White"], game.tags["Black"]))
            }
            None => totals.replayed += 1,
        }
        totals.plies += report.plies;
        totals.mismatches += report.mismatches;
    }
    eprintln!("{label}: {totals:?}");
    (totals, reports)
}

#[test]
fn every_lichess_game_matches_its_clock_comments_to_the_second() {
    let games = read_games(LICHESS);
    let (totals, reports) = replay_all("lichess", &games);
    assert_eq!(totals.games, 47);
    assert!(totals.skipped.is_empty(), "{:?}", totals.skipped);
    let plies: usize = games.iter().map(|g| g.moves().len()).sum();
    assert_eq!(totals.plies, plies, "every ply of every game is compared");
    let bad: Vec<_> = reports.iter().filter_map(|r| r.first_mismatch).collect();
    assert_eq!(totals.mismatches, 0, "first mismatches: {bad:?}");
}

#[test]
fn the_world_championship_game_has_no_clock_comments_and_is_skipped_with_the_reason() {
    let games = read_games(WORLD_CHAMPIONSHIP);
    let (totals, _) = replay_all("world championship", &games);
    assert_eq!(totals.games, 1);
    assert_eq!(totals.skipped, ["Nepomniachtchi, Ian vs Liren, Ding: no [%clk] comments"]);
    // Its time control is the one the multi-period replay below exercises.
    assert_eq!(
        games[0].tags["TimeControl"].parse::<TimeControl>().unwrap().to_string(),
        "40/7200:20/3600:900+30"
    );
}

#[test]
fn a_wrong_time_control_or_a_tampered_clock_is_caught() {
    let games = read_games(LICHESS);
    let mut game =
        games.iter().find(|g| g.tags["TimeControl"] == "300+3" && g.moves().len() > 20).unwrap().clone();
    assert_eq!(replay_clock(&game).mismatches, 0);

    // A clock that rises by a few seconds more than the increment cannot be
    // explained: the engine ran faster than the record. The replay
    // resynchronises after it, so it counts once.
    let mut faster = game.clone();
    faster.clocks[10] = faster.clocks[8].map(|s| s + 3 + 4);
    let report = replay_clock(&faster);
    assert_eq!((report.mismatches, report.adjustments), (1, 0), "{report:?}");
    assert_eq!(report.first_mismatch.unwrap().ply, 11);

    // With a smaller start time than the real one, the first moves look like
    // time was given: the engine cannot follow.
    game.tags.insert("TimeControl".into(), "200+3".into());
    assert!(replay_clock(&game).mismatches >= 1);

    game.tags.insert("TimeControl".into(), "-".into());
    assert_eq!(
        replay_clock(&game).skipped_reason.as_deref(),
        Some("TimeControl \"-\": played without a clock")
    );
    game.tags.insert("TimeControl".into(), "?".into());
    assert_eq!(replay_clock(&game).skipped_reason.as_deref(), Some("TimeControl \"?\": unknown"));
    game.tags.insert("TimeControl".into(), "40/x".into());
    assert!(replay_clock(&game).skipped_reason.unwrap().contains("\"40/x\""));
    game.tags.remove("TimeControl");
    assert_eq!(replay_clock(&game).skipped_reason.as_deref(), Some("no TimeControl tag"));
}

/// A 65-move game under the World Championship control, clocks written by the
/// engine to PGN, read back and replayed: the period additions after moves 40
/// and 60 and the increment from move 61 must all be found again.
#[test]
fn a_multi_period_game_written_with_clocks_replays_exactly() {
    let control: TimeControl = "40/7200:20/3600:900+30".parse().unwrap();
    let mut game = Game::default();
    let mut clock = ChessClock::new(control.clone());
    let mut clocks = Vec::new();
    let mut t = 1_000_000;
    clock.start(t).unwrap();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    for ply in 0..130 {
        let side = if ply % 2 == 0 { Side::White } else { Side::Black };
        game.push_uci(shuffle[ply % 4]).unwrap();
        // Whole seconds, as the PGN keeps them; some long thinks, some quick ones.
        t += 1_000 * (7 + (ply as u64 * 37) % 151);
        let pressed = clock.press(side, t).unwrap();
        clocks.push(Some(pressed.remaining_ms));
    }
    let pgn = write_pgn_with_clocks(&game, &SevenTags::default(), "*", &clocks, Some(&control));
    let read = read_games(pgn.as_bytes());
    assert_eq!(read.len(), 1);
    let report = replay_clock(&read[0]);
    assert_eq!(report, ClockReplayReport { plies: 130, ..Default::default() });

    // White's 40th move is ply 79: its clock jumps by the second period's hour.
    let white = |ply: usize| read[0].clocks[ply - 1].unwrap();
    assert!(white(79) > white(77) + 3_000, "{} then {}", white(77), white(79));

    // The same clocks under a control with a shorter second period disagree from move 40 on.
    let mut wrong = read[0].clone();
    wrong.tags.insert("TimeControl".into(), "40/7200:20/1800:900+30".into());
    let report = replay_clock(&wrong);
    assert_eq!(report.first_mismatch.map(|m| m.ply), Some(79), "{report:?}");
}

#[test]
fn time_given_to_a_side_is_an_adjustment_written_as_a_correction_not_a_mismatch() {
    let games = read_games(LICHESS);
    let game = games.iter().find(|g| g.tags["TimeControl"] == "300+3" && g.moves().len() > 20).unwrap();
    assert_eq!((replay_clock(game).mismatches, replay_clock(game).adjustments), (0, 0));

    // The arbiter gives the side that made ply 11 two minutes (Art. 7.5.5):
    // from ply 11 on, that side's [%clk] is two minutes higher.
    let mut gift = game.clone();
    for ply in (10..gift.clocks.len()).step_by(2) {
        gift.clocks[ply] = gift.clocks[ply].map(|s| s + 120);
    }
    let report = replay_clock(&gift);
    assert_eq!((report.mismatches, report.adjustments), (0, 1), "{report:?}");
    let [correction] = report.corrections.as_slice() else { panic!("one correction: {report:?}") };
    assert_eq!(correction.who, "replay");
    assert!(correction.why.contains("time added"), "{}", correction.why);
    let station_core::clock::CorrectionChange::Remaining { side, from_ms, to_ms } = correction.change else {
        panic!("a time correction: {correction:?}");
    };
    assert_eq!(side, Side::White, "ply 11 is White's sixth move");
    // The two minutes given, less the thinking time of the move they show after.
    assert!((10_000..=120_000).contains(&(to_ms - from_ms)), "{correction:?}");

    // The same rise at a side's very first move is the time control's initial
    // time being wrong, not a gift: a mismatch.
    let mut first = game.clone();
    first.clocks[0] = first.clocks[0].map(|s| s + 120);
    let report = replay_clock(&first);
    assert_eq!((report.mismatches, report.adjustments), (1, 0), "{report:?}");
}
