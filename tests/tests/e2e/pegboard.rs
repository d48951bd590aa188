//! The real `station run` against a simulated peg board on a pseudo-terminal.

use shakmaty::Position;
use station_core::Game;
use station_core::pgn::read_games;
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Kill, Places, export_pgn, of_type, pegboard_config, read_events, record_from_events, scratch, shared_pgn,
    station_run, wait_board_status, wait_event, wait_for,
};
use std::path::Path;
use std::time::Duration;

/// The simulated hands keep every passing state below 250 sim-ms, and these
/// tests let them think 900 sim-ms between moves; at speed 2 that is 125 ms and
/// 450 ms of real time, so the station's settle time sits well between them
/// (room for a loaded machine's scheduling jitter on both sides).
const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;

fn config(dir: &Path, link: &Path) -> std::path::PathBuf {
    pegboard_config(
        dir,
        link,
        &format!(
            "baud = 115200\nflipped = false\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[tags]\nevent = \"e2e\"\nwhite = \"Fischer\"\n\n[console]\nlisten = \"127.0.0.1:0\"\n"
        ),
    )
}

fn start_station(config: &Path, events: &Path, journal: &Path) -> Kill {
    Kill::spawn(&mut station_run(config, journal, Some(events)))
}

/// A real game of at least 60 plies from the shared collection.
fn real_game() -> Game {
    let bytes = std::fs::read(shared_pgn("games/Fischer.pgn")).expect("shared PGN games");
    read_games(&bytes)
        .into_iter()
        .find(|g| g.error.is_none() && (60..=90).contains(&g.moves().len()))
        .expect("a game of 60 to 90 plies")
        .game
}

/// The scans of plies `from..to` (the start position first when `from` is 0),
/// timed from zero. With `lift_next`, the first change of the next move is added:
/// a piece in the hand when the schedule ends.
fn schedule(game: &Game, from: usize, to: usize, lift_next: bool) -> Vec<TimedScan> {
    let mut hands = Hands::new(None);
    let mut now = 0;
    let mut scans = Vec::new();
    let at = |ply: usize| game.position_at(ply).unwrap();
    scans.push(TimedScan { at_ms: 0, occupancy: at(from).board().occupied() });
    for ply in from..to {
        hands.think(at(ply).board().occupied(), 900, &mut now, &mut scans);
        hands.play(at(ply), &game.moves()[ply], &mut now, &mut scans);
    }
    hands.think(at(to).board().occupied(), 900, &mut now, &mut scans);
    if lift_next && to < game.ply() {
        let mut next = Vec::new();
        hands.play(at(to), &game.moves()[to], &mut now, &mut next);
        let first_change = next.iter().find(|s| s.occupancy != at(to).board().occupied()).copied().unwrap();
        scans.push(TimedScan { at_ms: now + 100, ..first_change });
    }
    scans
}

fn moves_in(events: &Path) -> usize {
    of_type(&read_events(events), "move").len()
}

#[test]
fn a_full_real_game_survives_a_kill_9_in_the_middle() {
    let Places { dir, link, events, journal } = Places::new("kill9");
    let game = real_game();
    let n = game.ply();
    let half = n / 2;
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(link.clone()) })
        .expect("simulated peg board");
    let cfg = config(&dir, &link);

    let mut station = start_station(&cfg, &events, &journal);
    wait_board_status(&events);
    sim.play_scans(schedule(&game, 0, half, true));
    sim.wait_idle();
    wait_for(Duration::from_secs(20), "first half decided", || (moves_in(&events) >= half).then_some(()));
    // The next move's piece is in the hand: its touch is journaled before the kill.
    wait_for(Duration::from_secs(5), "touch of the next move", || {
        let ev = read_events(&events);
        let touches = of_type(&ev, "touch");
        let last_move_t = of_type(&ev, "move").last().unwrap()["t_ms"].as_u64().unwrap();
        touches
            .iter()
            .any(|t| t["t_ms"].as_u64().unwrap() >= last_move_t.saturating_sub(SETTLE_MS))
            .then_some(())
    });
    station.kill().unwrap(); // SIGKILL: no clean-up runs
    station.wait().unwrap();

    let mut station = start_station(&cfg, &events, &journal);
    wait_for(Duration::from_secs(10), "game resumed", || {
        let ev = read_events(&events);
        of_type(&ev, "game_resumed").first().map(|r| r["ply"].as_u64().unwrap())
    });
    let resumed = of_type(&read_events(&events), "game_resumed")[0].clone();
    assert_eq!(resumed["ply"].as_u64().unwrap() as usize, half, "resumed at the ply where it was killed");

    // The hand places the lifted piece and the game goes on to the end.
    let mut rest = schedule(&game, half, n, false);
    rest.remove(0); // the board already shows the lifted state; no need to put the piece back
    sim.play_scans(rest);
    sim.wait_idle();
    wait_for(Duration::from_secs(30), "every move decided", || {
        (record_from_events(&read_events(&events)).len() >= n).then_some(())
    });
    station.kill().unwrap();
    station.wait().unwrap();

    let ev = read_events(&events);
    let expected: Vec<String> = game.moves().iter().map(|m| game.uci(*m)).collect();
    assert_eq!(record_from_events(&ev), expected, "the event stream holds every move in order");
    assert!(of_type(&ev, "board_mismatch").is_empty(), "no mismatch: {:?}", of_type(&ev, "board_mismatch"));
    assert_eq!(of_type(&ev, "game_started").len(), 1);

    // The journal exports the whole game as PGN.
    let out = export_pgn(&journal);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pgn = String::from_utf8(out.stdout).unwrap();
    let reread = read_games(pgn.as_bytes());
    assert_eq!(reread.len(), 1, "{pgn}");
    assert_eq!(reread[0].moves(), game.moves(), "{pgn}");
    assert_eq!(reread[0].tags["Event"], "e2e");
    assert_eq!(reread[0].tags["White"], "Fischer");
}

#[test]
fn unplugging_the_board_is_reported_and_replugging_recovers() {
    let dir = scratch("unplug");
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(link.clone()) })
        .expect("simulated peg board");
    let mut station = start_station(&config(&dir, &link), &events, &dir.join("journal"));
    let statuses = || -> Vec<String> {
        of_type(&read_events(&events), "board_status")
            .iter()
            .map(|e| e["status"].as_str().unwrap().to_owned())
            .collect()
    };
    wait_for(Duration::from_secs(10), "connected", || (statuses() == ["connected"]).then_some(()));
    sim.unplug();
    wait_for(Duration::from_secs(10), "disconnected", || {
        (statuses().last().map(String::as_str) == Some("disconnected")).then_some(())
    });
    sim.replug().expect("replug");
    wait_for(Duration::from_secs(10), "connected again", || {
        (statuses() == ["connected", "disconnected", "connected"]).then_some(())
    });
    station.kill().unwrap();
    station.wait().unwrap();
}

/// A station on a simulated board with a game just started: the board, the
/// station process and its events file.
fn game_started(name: &str) -> (SimPegBoard, Kill, std::path::PathBuf) {
    let dir = scratch(name);
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(link.clone()) })
        .expect("simulated peg board");
    let station = start_station(&config(&dir, &link), &events, &dir.join("journal"));
    wait_board_status(&events);
    sim.play_scans(schedule(&Game::default(), 0, 0, false));
    sim.wait_idle();
    wait_event(&events, "game started", |e| e["type"] == "game_started");
    (sim, station, events)
}

#[test]
fn garbage_on_the_line_is_dropped_and_counted_never_a_move() {
    let (sim, mut station, events) = game_started("garbage");
    let game = Game::default();
    // A scan that would be e2e4 but with a wrong checksum, an over-long line, an unknown type.
    let e4 = u64::from(game.position().board().occupied()) & !(1 << 12) | (1 << 28);
    sim.inject_raw(format!("S {e4:016X}*00\n").as_bytes());
    sim.inject_raw([b'S'; 300]);
    sim.inject_raw(b"\nZ nonsense\n\xff\xfe\n");
    // Every dropped line is counted; a flood is summarised (at most one
    // `line_dropped` a second), so the last summary carries the total.
    wait_for(Duration::from_secs(10), "drops counted", || {
        let ev = read_events(&events);
        let dropped = of_type(&ev, "line_dropped");
        dropped.last().and_then(|d| d["total"].as_u64()).filter(|&total| total >= 3)
    });
    std::thread::sleep(Duration::from_millis(2 * SETTLE_MS + 200));
    station.kill().unwrap();
    station.wait().unwrap();
    let ev = read_events(&events);
    assert!(of_type(&ev, "move").is_empty(), "garbage made a move: {ev:?}");
}

/// A flood of garbage at line rate while a real move is played: every line is
/// counted, the journal gets a summary about once a second (not a record per
/// line), and the move still comes through. Prints how late the move reached
/// the event stream after its last scan.
#[test]
fn a_flood_of_garbage_is_summarised_and_a_real_move_still_comes_through() {
    let (sim, mut station, events) = game_started("flood");
    let game = Game::default();
    // 500 garbage lines a second (about what 115200 baud carries) for 4 s,
    // with 1. e4 played in the middle of it.
    let moved = std::thread::scope(|scope| {
        let flood = scope.spawn(|| {
            for i in 0..2000u32 {
                sim.inject_raw(format!("S {i:016X}*00\n").into_bytes());
                std::thread::sleep(Duration::from_millis(2));
            }
        });
        std::thread::sleep(Duration::from_millis(1500));
        let mut e4 = Game::default();
        e4.push_uci("e2e4").unwrap();
        let played = std::time::Instant::now();
        let mut hands = Hands::new(None);
        let mut now = 0;
        let mut scans = vec![TimedScan { at_ms: 0, occupancy: game.position().board().occupied() }];
        hands.play(game.position(), &e4.moves()[0], &mut now, &mut scans);
        eprintln!("flood: the hands take {now} sim-ms (speed {SPEED})");
        sim.play_scans(scans);
        let moved = wait_for(Duration::from_secs(60), "1. e4 through the flood", || {
            let ev = read_events(&events);
            let decided = of_type(&ev, "game_move").first().and_then(|m| m["t_ms"].as_u64())?;
            let seen =
                std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?.as_millis() as u64;
            Some((played.elapsed(), seen.saturating_sub(decided)))
        });
        flood.join().unwrap();
        moved
    });
    std::thread::sleep(Duration::from_millis(1500));
    station.kill().unwrap();
    station.wait().unwrap();
    let (after_hands, after_decision) = moved;
    eprintln!(
        "flood: 1. e4 reached the event stream {after_hands:?} after its hands started \
         (the simulator queues the flood's lines at line rate ahead of the hands), \
         {after_decision} ms after the station decided it"
    );
    let ev = read_events(&events);
    let dropped = of_type(&ev, "line_dropped");
    let total = dropped.last().and_then(|d| d["total"].as_u64()).unwrap_or(0);
    assert!(total >= 1900, "every garbage line counted: {total}");
    assert!(dropped.len() <= 12, "summarised, not one event per line: {} summaries", dropped.len());
    assert_eq!(record_from_events(&ev), ["e2e4"]);
}

fn wall_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64
}

/// Issue 25: a 30 s flood of garbage at line rate (5,760 two-byte lines a
/// second fill a 115200-baud line), paced by the board itself, with 1. e4 made
/// 15 s into it. Every line is dropped and counted, and the move is decided as
/// if the line were quiet: in the event stream while the flood still runs (it
/// used to wait for the flood's end). Prints how long after its peg landed.
#[test]
fn a_move_made_in_the_middle_of_a_line_rate_flood_is_decided_as_if_the_line_were_quiet() {
    let (sim, mut station, events) = game_started("flood30");
    let flood = Duration::from_secs(30);
    let began = std::time::Instant::now();
    sim.flood(5760, flood);
    std::thread::sleep(Duration::from_secs(15));
    let game = Game::default();
    let mut e4 = Game::default();
    e4.push_uci("e2e4").unwrap();
    let mut hands = Hands::new(None);
    let mut now = 0;
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: game.position().board().occupied() }];
    hands.play(game.position(), &e4.moves()[0], &mut now, &mut scans);
    let placed = wall_ms() + (now as f64 / SPEED) as u64;
    sim.play_scans(scans);
    let (decided, seen) = wait_for(Duration::from_secs(40), "1. e4 through the flood", || {
        let decided = of_type(&read_events(&events), "game_move").first().and_then(|m| m["t_ms"].as_u64())?;
        Some((decided, wall_ms()))
    });
    let during_flood = began.elapsed() < flood;
    eprintln!(
        "flood30: 1. e4 decided {} ms and in the event stream {} ms after its peg landed, {:?} into the flood",
        decided.saturating_sub(placed),
        seen.saturating_sub(placed),
        began.elapsed()
    );
    std::thread::sleep(flood.saturating_sub(began.elapsed()) + Duration::from_secs(2));
    station.kill().unwrap();
    station.wait().unwrap();
    let ev = read_events(&events);
    assert!(during_flood, "the move waited for the flood to end");
    let dropped = of_type(&ev, "line_dropped");
    let total = dropped.last().and_then(|d| d["total"].as_u64()).unwrap_or(0);
    assert!(total >= 100_000, "the flood's lines counted: {total}");
    assert!(dropped.len() <= 40, "summarised, not one event per line: {} summaries", dropped.len());
    assert_eq!(record_from_events(&ev), ["e2e4"]);
}

/// Quick hands on a busy machine (D.2.3): each next move starts 100 ms after
/// the last piece was placed — a player in time trouble executing his
/// opponent's reply and playing his own at once — while another process
/// writes and fsyncs a file in a loop. Every move once, in order, nothing else.
#[test]
fn quick_hands_on_a_busy_disk_every_move_once_in_order() {
    let dir = scratch("quick");
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let hog = station_tests::DiskHog::start(&dir);
    // Real time (speed 1), the station's default settle time: 100 ms is well below it.
    let sim = SimPegBoard::start(SimOptions::new(link.clone())).expect("simulated peg board");
    let cfg = pegboard_config(&dir, &link, "\n[console]\nlisten = \"127.0.0.1:0\"\n");
    let mut station = start_station(&cfg, &events, &dir.join("journal"));
    wait_board_status(&events);
    let game = real_game();
    let plies = game.ply().min(40);
    let mut hands = Hands::new(None);
    let mut now = 0;
    let start = game.position_at(0).unwrap().board().occupied();
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: start }];
    hands.think(start, 1500, &mut now, &mut scans);
    for ply in 0..plies {
        hands.play(game.position_at(ply).unwrap(), &game.moves()[ply], &mut now, &mut scans);
        let placed = game.position_at(ply + 1).unwrap().board().occupied();
        hands.think(placed, 100, &mut now, &mut scans);
    }
    hands.think(game.position_at(plies).unwrap().board().occupied(), 1500, &mut now, &mut scans);
    sim.play_scans(scans);
    sim.wait_idle();
    let expected: Vec<String> = game.moves()[..plies].iter().map(|m| game.uci(*m)).collect();
    let got = wait_for(Duration::from_secs(30), "every move", || {
        let record = record_from_events(&read_events(&events));
        (record.len() >= plies).then_some(record)
    });
    drop(hog);
    let _ = station.0.kill();
    let _ = station.0.wait();
    let ev = read_events(&events);
    let trouble: Vec<_> = ev
        .iter()
        .filter(|e| matches!(e["type"].as_str(), Some("board_mismatch" | "move_revised" | "input_refused")))
        .collect();
    assert_eq!(got, expected, "every move once, in order; trouble: {trouble:?}");
    assert!(trouble.is_empty(), "nothing else: {trouble:?}");
}

/// A `station run` (its words to him as text, `more` config added) with
/// `sans` played on his board, both sides' moves: the board, the events'
/// file, the station and the game.
fn opening_on_his_board(
    name: &str,
    token: &str,
    more: &str,
    sans: &[&str],
) -> (SimPegBoard, std::path::PathBuf, station_tests::RunningStation, Game) {
    let dir = scratch(name);
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(link.clone()) })
        .expect("simulated peg board");
    let conf = pegboard_config(
        &dir,
        &link,
        &format!(
            "baud = 115200\nflipped = false\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n{more}[audio.private]\nvoices = [\"text\"]\n"
        ),
    );
    let station =
        station_tests::RunningStation::start(station_run(&conf, &dir.join("journal"), Some(&events)), token);
    wait_board_status(&events);
    let mut game = Game::default();
    for san in sans {
        game.push(station_core::notation::read(game.position(), san).unwrap());
    }
    sim.play_scans(schedule(&game, 0, game.ply(), false));
    sim.wait_idle();
    (sim, events, station, game)
}

/// Issue 22 §6 through `station run`: a move revised on his board (castling
/// rook first, the hand resting longer than the settle time), time added by
/// the arbiter and a take-back are each told to the blind player privately,
/// in his words (German, the default).
#[test]
fn a_revised_move_time_added_and_a_take_back_are_told_to_him() {
    const TOKEN: &str = "told-token-6c1f";
    let (sim, events, station, game) = opening_on_his_board(
        "told",
        TOKEN,
        "[clock]\ntime_control = \"5400+30\"\n\n",
        &["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"],
    );
    let game_moves =
        |uci: &str| of_type(&read_events(&events), "game_move").iter().any(|e| e["uci"] == uci).then_some(());
    wait_for(Duration::from_secs(20), "3...Bc5 agreed", || game_moves("f8c5"));
    // The knight put on h4 and left there well past the settle time: Nh4 …
    let mut occ = game.position().board().occupied();
    occ.discard(shakmaty::Square::F3);
    sim.set_occupancy(occ);
    std::thread::sleep(Duration::from_millis(60));
    occ.add(shakmaty::Square::H4);
    sim.set_occupancy(occ);
    wait_for(Duration::from_secs(10), "Nh4 decided", || game_moves("f3h4"));
    // … then the hand goes on with it to g5: the move was Ng5.
    occ.discard(shakmaty::Square::H4);
    sim.set_occupancy(occ);
    std::thread::sleep(Duration::from_millis(60));
    occ.add(shakmaty::Square::G5);
    sim.set_occupancy(occ);
    let private = |about: &str| -> Vec<String> {
        of_type(&read_events(&events), "announcement")
            .iter()
            .filter(|e| e["listener"] == "private" && e["about"] == about)
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .collect()
    };
    let revised = wait_for(Duration::from_secs(10), "the revision told", || {
        private("move").into_iter().find(|t| t.starts_with("Korrektur"))
    });
    assert_eq!(revised, "Korrektur: Springer Gustav fünf");
    assert!(
        of_type(&read_events(&events), "game_move")
            .iter()
            .any(|e| e["revised"] == true && e["uci"] == "f3g5"),
        "the record was revised"
    );

    let (status, answer) = station.command(
        &serde_json::json!({"cmd": "add_time", "side": "black", "ms": 120000, "who": "arbiter", "why": "Art. 7.5.5"}),
    );
    assert_eq!(status, 200, "{answer}");
    let added = wait_for(Duration::from_secs(10), "the time added told", || private("clock").pop());
    assert!(added.starts_with("Gegner: zwei Minuten dazu, jetzt "), "{added}");

    let (status, answer) = station.command(&serde_json::json!({"cmd": "take_back"}));
    assert_eq!(status, 200, "{answer}");
    let taken = wait_for(Duration::from_secs(10), "the take-back told", || private("take_back").pop());
    assert!(taken.starts_with("Zurückgenommen: Springer Gustav fünf. "), "{taken}");
    assert!(taken.contains("Gustav fünf") && taken.contains("Felix drei"), "the knight goes back: {taken}");
    assert!(taken.ends_with("Sie sind am Zug"), "{taken}");
    // The mirror's line is the take-back, in the page's language.
    let (_, state) = station.get("/api/state");
    let state: serde_json::Value = serde_json::from_slice(&state).unwrap();
    let line = state["change"]["text"]["pl"].as_str().unwrap_or_default();
    assert!(line.starts_with("cofnięto: skoczek"), "{state}");
}

/// Issue 32 §2 through `station run`: a board that fits two captures (the
/// bishop on b5 gone, a6 and c6 each lifted by a hand and a peg put back in
/// both) is asked about in his words, naming both moves, never guessed.
#[test]
fn a_board_that_fits_two_captures_is_asked_naming_both() {
    const TOKEN: &str = "asked-token-2b7d";
    // 1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 (the Ruy Lopez).
    let (sim, events, _station, game) =
        opening_on_his_board("asked", TOKEN, "", &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
    let game_moves = || -> Vec<serde_json::Value> {
        of_type(&read_events(&events), "game_move").into_iter().cloned().collect()
    };
    wait_for(Duration::from_secs(20), "3...a6 agreed", || {
        game_moves().iter().any(|e| e["uci"] == "a7a6").then_some(())
    });
    // The bishop lifted; a6's pawn and c6's knight each out for a hand's time and back.
    let mut occ = game.position().board().occupied();
    for (square, back) in
        [(shakmaty::Square::B5, false), (shakmaty::Square::A6, true), (shakmaty::Square::C6, true)]
    {
        occ.discard(square);
        sim.set_occupancy(occ);
        std::thread::sleep(Duration::from_millis(80));
        if back {
            occ.add(square);
            sim.set_occupancy(occ);
            std::thread::sleep(Duration::from_millis(40));
        }
    }
    let asked = wait_for(Duration::from_secs(10), "the question told", || {
        of_type(&read_events(&events), "announcement")
            .iter()
            .filter(|e| e["listener"] == "private" && e["about"] == "difference")
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .next()
    });
    assert!(asked.starts_with("Welcher Zug war es: "), "{asked}");
    assert!(asked.contains(" oder "), "both moves named: {asked}");
    assert!(asked.contains("Anna sechs") && asked.contains("Cesar sechs"), "{asked}");
    assert!(!game_moves().iter().any(|e| e["ply"] == 7), "no move guessed");
}
