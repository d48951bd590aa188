//! Issue 32 §4 through the real `station run`: the arbiter gives a game its
//! result at the console, the station is killed (-9) and started again; the
//! console (`/api/state`), `/game.pgn` and `station export --pgn` (no
//! `--game`) show the finished game as it stood, with its result and the
//! players' names, and the restart made no journal of its own.

use shakmaty::Position;
use station_core::pgn::read_games;
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Places, RunningStation, exported, of_type, pegboard_config, read_events, real_opening, scratch,
    shared_pgn, station_run, wait_event, wait_for, write_config,
};
use std::path::Path;
use std::time::Duration;

const TOKEN: &str = "last-game-token-7a21";
const NO_BOARD: &str = "[boards.blind]\ndriver = \"none\"\n\n[boards.mirror]\ndriver = \"none\"\n";

/// What a view shows of the newest game: its moves (UCI), names and result.
#[derive(Debug, PartialEq)]
struct Shown {
    moves: Vec<String>,
    white: String,
    black: String,
    result: String,
}

fn shown_in_state(state: &serde_json::Value) -> Shown {
    let moves = state["moves"].as_array().map(Vec::as_slice).unwrap_or_default();
    Shown {
        moves: moves.iter().map(|m| m["uci"].as_str().unwrap_or_default().to_owned()).collect(),
        white: state["tags"]["white"].as_str().unwrap_or_default().to_owned(),
        black: state["tags"]["black"].as_str().unwrap_or_default().to_owned(),
        result: state["result"]["result"].as_str().unwrap_or("*").to_owned(),
    }
}

fn shown_in_pgn(pgn: &str) -> Shown {
    let games = read_games(pgn.as_bytes());
    assert_eq!(games.len(), 1, "one game: {pgn}");
    let g = &games[0];
    let tag = |k: &str| g.tags.get(k).cloned().unwrap_or_default();
    Shown {
        moves: g.game.moves().iter().map(|m| g.game.uci(*m)).collect(),
        white: tag("White"),
        black: tag("Black"),
        result: tag("Result"),
    }
}

/// The console, `/game.pgn` and `station export --pgn` all show `want`, and
/// the journal folder holds `journals` game journals.
fn every_view_shows(station: &RunningStation, journal: &Path, want: &Shown, journals: usize) {
    let (_, state) = station.get("/api/state");
    let state: serde_json::Value = serde_json::from_slice(&state).expect("/api/state is JSON");
    assert_eq!(&shown_in_state(&state), want, "/api/state: {state}");
    assert_eq!(state["phase"], "finished", "/api/state");
    let (status, pgn) = station.get("/game.pgn");
    assert_eq!(status, 200);
    assert_eq!(&shown_in_pgn(&String::from_utf8_lossy(&pgn)), want, "/game.pgn");
    assert_eq!(&shown_in_pgn(&exported(journal, &["--pgn"])), want, "station export --pgn");
    assert_eq!(journal_files(journal), journals, "no journal of the restart's own");
}

/// The game journals in the folder.
fn journal_files(journal: &Path) -> usize {
    let entries = std::fs::read_dir(journal).unwrap();
    entries.filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "jsonl"))).count()
}

/// Waits until the restarted station has taken up the newest game (its
/// `game_resumed`; or started one of its own, which the checks then find),
/// then a second more: a station that would start a game of its own has
/// done so by then (a station without a board starts one at once).
fn restarted(events: &Path, before: usize) {
    wait_for(Duration::from_secs(20), "the game taken up again", || {
        let ev = read_events(events);
        let starts = of_type(&ev, "game_resumed").len() + of_type(&ev, "game_started").len();
        (starts > before).then_some(())
    });
    std::thread::sleep(Duration::from_secs(1));
}

/// How many games the events so far started or took up.
fn starts(events: &Path) -> usize {
    let ev = read_events(events);
    of_type(&ev, "game_resumed").len() + of_type(&ev, "game_started").len()
}

#[test]
fn a_game_given_its_result_without_a_board_is_shown_as_it_stood_after_a_kill_9() {
    let Places { dir, events, journal, .. } = Places::new("last-game-no-board");
    // A station with no board at all: one that would start a game at once.
    let config = write_config(&dir, NO_BOARD);
    let start = || RunningStation::start(station_run(&config, &journal, Some(&events)), TOKEN);
    let station = start();
    let (status, answer) = station.command(&serde_json::json!({
        "cmd": "new_game", "white": "Ewa Nowak", "black": "Jan Kowalski", "event": "Club"
    }));
    assert_eq!(status, 200, "{answer}");
    let moves = real_opening("games/Fischer.pgn", 9);
    for uci in &moves {
        let (status, answer) = station.command(&serde_json::json!({"cmd": "enter_move", "move": uci}));
        assert_eq!(status, 200, "{uci}: {answer}");
    }
    let (status, answer) =
        station.command(&serde_json::json!({"cmd": "result", "result": "1-0", "reason": "Black resigned"}));
    assert_eq!(status, 200, "{answer}");
    let want = Shown { moves, white: "Ewa Nowak".into(), black: "Jan Kowalski".into(), result: "1-0".into() };
    // The result is on disk and delivered once the command is answered.
    let games = journal_files(&journal);
    let before = starts(&events);
    drop(station); // SIGKILL to its process group: nothing cleans up

    let station = start();
    restarted(&events, before);
    every_view_shows(&station, &journal, &want, games);
    // A second restart shows it still.
    let before = starts(&events);
    drop(station);
    let station = start();
    restarted(&events, before);
    every_view_shows(&station, &journal, &want, games);
    // Until a new game starts: then that one is the newest.
    let (status, answer) =
        station.command(&serde_json::json!({"cmd": "new_game", "white": "A", "black": "B"}));
    assert_eq!(status, 200, "{answer}");
    let pgn = exported(&journal, &["--pgn"]);
    assert!(pgn.contains("[White \"A\"]") && pgn.contains("\n*"), "{pgn}");
}

#[test]
fn a_game_on_a_peg_board_given_its_result_is_shown_as_it_stood_after_a_kill_9() {
    let dir = scratch("last-game-pegboard");
    let link = dir.join("pegboard");
    let (events, journal) = (dir.join("events.jsonl"), dir.join("journal"));
    let config = pegboard_config(
        &dir,
        &link,
        "\n[game]\nsettle_ms = 220\ndebounce_ms = 15\n\n[tags]\nwhite = \"Anna Weiss\"\nblack = \"Bruno Schwarz\"\n",
    );
    let bytes = std::fs::read(shared_pgn("games/Capablanca.pgn")).unwrap();
    let game =
        read_games(&bytes).into_iter().find(|g| g.error.is_none() && g.moves().len() > 20).unwrap().game;
    let plies = 12;
    let mut hands = Hands::new(Some(32));
    let (mut now, mut scans) = (0, Vec::new());
    let at = |ply: usize| game.position_at(ply).unwrap();
    scans.push(TimedScan { at_ms: 0, occupancy: at(0).board().occupied() });
    for ply in 0..plies {
        hands.think(at(ply).board().occupied(), 900, &mut now, &mut scans);
        hands.play(at(ply), &game.moves()[ply], &mut now, &mut scans);
    }
    hands.think(at(plies).board().occupied(), 900, &mut now, &mut scans);
    let sim = SimPegBoard::start(SimOptions { speed: 2.0, wait_for_station: true, ..SimOptions::new(&link) })
        .expect("simulated peg board");
    sim.play_scans(scans);
    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), TOKEN);
    wait_for(Duration::from_secs(60), "every move decided", || {
        (of_type(&read_events(&events), "game_move").len() >= plies).then_some(())
    });
    sim.wait_idle();
    let (status, answer) = station.command(&serde_json::json!({
        "cmd": "result", "result": "1/2-1/2", "reason": "draw agreed"
    }));
    assert_eq!(status, 200, "{answer}");
    wait_event(&events, "the game over", |e| e["type"] == "game_over");
    let moves: Vec<String> = game.moves()[..plies].iter().map(|m| game.uci(*m)).collect();
    let want =
        Shown { moves, white: "Anna Weiss".into(), black: "Bruno Schwarz".into(), result: "1/2-1/2".into() };
    let before = starts(&events);
    drop(station);

    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), TOKEN);
    restarted(&events, before);
    every_view_shows(&station, &journal, &want, 1);
}
