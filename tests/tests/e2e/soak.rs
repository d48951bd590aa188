//! Issue 32 item 6, the soak in real time: real games of `tests/data/pgn/games`
//! played through the real `station run` on a simulated peg board over a real
//! pseudo-terminal, at real time and fast pace (150 ms from one move's last peg
//! to the next move's first lift, the station's default settle time) with the
//! hand's noise (a neighbour touched and put back, a piece touched and put
//! back, sensor bounces), each game several times with hands of their own
//! seed: every move decided once, in order, nothing left undecided, and no
//! `board_mismatch` (the hands never leave a peg where a move does not go).

use shakmaty::Position;
use station_core::Game;
use station_core::pgn::read_games;
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{Kill, of_type, pegboard_config, read_events, scratch, shared_pgn, station_run};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// From one move's last peg to the next move's first lift (the fast pace).
const GAP_MS: u64 = 150;
/// Hands per game, each with its own seed.
const SEEDS: [u64; 3] = [0x32_0001, 0x32_0002, 0x32_0003];

/// The first game of `file` between 40 and 64 plies that castles: a real
/// game short enough for a soak of a few minutes, with the move the hands
/// once played rook first.
fn game(file: &str) -> Game {
    let bytes = std::fs::read(shared_pgn(&format!("games/{file}"))).expect("the repository's games");
    read_games(&bytes)
        .into_iter()
        .map(|g| g.game)
        .find(|g| (40..=64).contains(&g.ply()) && g.moves().iter().any(|m| m.is_castle()))
        .expect("a game of 40 to 64 plies that castles")
}

/// The hands' scans for the whole game in real time: the start position
/// settles, then every move 150 ms after the one before, then the last
/// position rests.
fn schedule(game: &Game, seed: u64) -> Vec<TimedScan> {
    let mut hands = Hands::new(Some(seed));
    let at = |ply: usize| game.position_at(ply).expect("every position of the game");
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: at(0).board().occupied() }];
    let mut now = 0;
    hands.think(at(0).board().occupied(), 1_500, &mut now, &mut scans);
    for (ply, mv) in game.moves().iter().enumerate() {
        let reaction = if ply == 0 { hands.pause(100, 300) } else { GAP_MS };
        hands.play_after(at(ply), mv, reaction, &mut now, &mut scans);
    }
    hands.think(at(game.ply()).board().occupied(), 3_000, &mut now, &mut scans);
    scans
}

/// One game played by one hand through a station of its own; what went wrong, if anything.
fn soak_one(name: &str, game: &Game, seed: u64) -> Option<String> {
    let dir = scratch(&format!("soak-{name}-{seed:x}"));
    let link = dir.join("pegboard");
    let (events, journal) = (dir.join("events.jsonl"), dir.join("journal"));
    let config = pegboard_config(&dir, &link, "");
    let scans = schedule(game, seed);
    let lasts = Duration::from_millis(scans.last().map_or(0, |s| s.at_ms));
    let sim = SimPegBoard::start(SimOptions { wait_for_station: true, ..SimOptions::new(&link) })
        .expect("a simulated peg board");
    sim.play_scans(scans);
    // Its console on a port of its own: three stations run at once.
    let mut station = Kill::spawn(
        station_run(&config, &journal, Some(&events))
            .args(["--listen", "127.0.0.1:0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
    );
    let want: Vec<String> = game.moves().iter().map(|m| game.uci(*m)).collect();
    // The hands need `lasts`; a loaded machine gets a generous margin on top,
    // but a stall never ends: the moves stop coming.
    let limit = lasts + Duration::from_secs(30);
    let started = Instant::now();
    let decided = |events: &[serde_json::Value]| of_type(events, "game_move").len();
    while decided(&read_events(&events)) < want.len() && started.elapsed() < limit {
        std::thread::sleep(Duration::from_millis(200));
    }
    // Anything the last position still brings (a late mismatch) comes within a settle time.
    std::thread::sleep(Duration::from_millis(1_000));
    station.end();
    drop(sim);
    let all = read_events(&events);
    let moves: Vec<(u64, String)> = of_type(&all, "game_move")
        .iter()
        .map(|e| (e["ply"].as_u64().unwrap_or(0), e["uci"].as_str().unwrap_or("?").to_owned()))
        .collect();
    let got: Vec<String> = moves.iter().map(|(_, uci)| uci.clone()).collect();
    let plies_in_order = moves.iter().enumerate().all(|(i, (ply, _))| *ply == i as u64 + 1);
    let mismatches = of_type(&all, "board_mismatch");
    let whose = format!("{name} ({} plies), hand seed {seed:#x}", want.len());
    if got.len() < want.len() && got[..] == want[..got.len()] && plies_in_order {
        return Some(format!(
            "{whose}: stalled: ply {} ({}) never decided; {} mismatch(es), the first: {}",
            got.len() + 1,
            want[got.len()],
            mismatches.len(),
            mismatches.first().map_or("none".to_owned(), |m| m.to_string())
        ));
    }
    if got != want || !plies_in_order {
        let first = got.iter().zip(&want).position(|(g, w)| g != w).unwrap_or(got.len().min(want.len()));
        return Some(format!(
            "{whose}: record differs from ply {}: decided {:?}, played {:?}",
            first + 1,
            got.get(first),
            want.get(first)
        ));
    }
    if !mismatches.is_empty() {
        return Some(format!(
            "{whose}: {} board mismatch(es), the first: {}",
            mismatches.len(),
            mismatches[0]
        ));
    }
    if of_type(&all, "game_move").iter().any(|e| e["revised"] == true) {
        return Some(format!("{whose}: a move was revised"));
    }
    None
}

#[test]
fn real_games_in_real_time_at_fast_pace_with_noisy_hands_every_move_once_in_order() {
    let files = ["Capablanca.pgn", "Fischer.pgn", "PolgarJ.pgn"];
    // One thread a game (three stations at once, as on a loaded machine); each
    // game's hands one after the other.
    let failures: Vec<String> = std::thread::scope(|scope| {
        let runs: Vec<_> = files
            .iter()
            .map(|file| {
                scope.spawn(move || {
                    let game = game(file);
                    let name = file.trim_end_matches(".pgn");
                    SEEDS.iter().filter_map(|&seed| soak_one(name, &game, seed)).collect::<Vec<_>>()
                })
            })
            .collect();
        runs.into_iter().flat_map(|r| r.join().expect("a soak thread")).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {} runs failed:\n{}",
        failures.len(),
        files.len() * SEEDS.len(),
        failures.join("\n")
    );
}
