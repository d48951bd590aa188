//! The clock's move counter equals the moves made (D.2.6.1: the talking clock
//! tells the blind player how many moves were made), through the real
//! `station run` with the blind player's peg board and the sighted player's
//! DGT board simulated on pseudo-terminals: with the DGT 3000 as the master
//! clock (the players press its lever), and with the station's own clock
//! pressing for both players (`auto_press`, as `station demo --mirror dgt`);
//! and with one board, and with no board at all.

use shakmaty::{Chess, Color, Move, Position};
use station_serial::dgt::ClockRun;
use station_sim::dgt::{DgtEmulator, SimClock};
use station_sim::games::two_boards;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Kill, of_type, peg_and_dgt_boards, read_events, scratch, start_station, station_run, wait_event,
    wait_for, write_config,
};
use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;

fn config(peg: &Path, dgt: &Path, clock: &str) -> String {
    format!(
        "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"dgt\"\nport = \"{}\"\nbaud = 9600\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\nblind_color = \"white\"\n\n[clock]\ntime_control = \"300+2\"\n{clock}\n\n[console]\nlisten = \"127.0.0.1:0\"\n",
        peg.display(),
        dgt.display()
    )
}

fn moves() -> Vec<Move> {
    let mut pos = Chess::default();
    ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]
        .iter()
        .map(|u| {
            let mv = u.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            pos = pos.clone().play(mv).unwrap();
            mv
        })
        .collect()
}

/// `(side, moves)` of every counted press.
fn presses(events: &Path) -> Vec<(String, u64)> {
    of_type(&read_events(events), "clock_pressed")
        .iter()
        .map(|e| (e["side"].as_str().unwrap().to_owned(), e["moves"].as_u64().unwrap()))
        .collect()
}

fn expected(plies: usize) -> Vec<(String, u64)> {
    (0..plies).map(|i| (if i % 2 == 0 { "white" } else { "black" }.to_owned(), (i / 2 + 1) as u64)).collect()
}

/// Plays `moves` ply by ply on both boards; `after_ply` runs once each ply is agreed.
fn play_game(
    pegs: &SimPegBoard,
    dgt: &DgtEmulator,
    events: &Path,
    moves: &[Move],
    mut after_ply: impl FnMut(usize),
) {
    let mut pos = Chess::default();
    for (i, mv) in moves.iter().enumerate() {
        let (scans, updates) =
            two_boards(&pos, std::slice::from_ref(mv), Color::White, 900, SETTLE_MS, SPEED, None, None);
        pegs.play_scans(scans);
        dgt.play_updates(updates);
        pegs.wait_idle();
        dgt.wait_idle();
        wait_for(Duration::from_secs(15), "the move agreed", || {
            (of_type(&read_events(events), "game_move").len() > i).then_some(())
        });
        after_ply(i);
        pos = pos.play(*mv).unwrap();
    }
}

/// Plays [`moves`] on both boards with `clock` in the config's `[clock]` and
/// `dgt_clock` on the DGT board, once `ready` (given the DGT board and the
/// events file) returns; after each move the player who moved presses the
/// DGT lever if `press_lever`. Every press is then counted, in order.
fn every_move_is_counted(
    name: &str,
    clock: &str,
    dgt_clock: Option<SimClock>,
    ready: impl FnOnce(&DgtEmulator, &Path),
    press_lever: bool,
) {
    let dir = scratch(name);
    let (peg_link, dgt_link) = (dir.join("pegboard"), dir.join("dgt"));
    let events = dir.join("events.jsonl");
    let conf = write_config(&dir, &config(&peg_link, &dgt_link, clock));
    let (pegs, dgt) = peg_and_dgt_boards(&dir, SPEED, dgt_clock);
    let station = start_station(&conf, &dir.join("journal"), &events);
    ready(&dgt, &events);
    let moves = moves();
    play_game(&pegs, &dgt, &events, &moves, |i| {
        if press_lever {
            // The station reads the switch.
            dgt.press_lever();
        }
        wait_for(Duration::from_secs(10), "the press counted", || (presses(&events).len() > i).then_some(()));
    });
    drop(station);
    assert_eq!(presses(&events), expected(moves.len()));
}

#[test]
fn with_the_dgt_master_clock_every_lever_press_after_a_move_is_counted() {
    let set_and_running = |dgt: &DgtEmulator, _: &Path| {
        wait_for(Duration::from_secs(15), "the clock set and running", || {
            (dgt.clock().is_some_and(|c| c.lever && c.run == ClockRun::LeftRunning)).then_some(())
        });
    };
    let paused = SimClock::new(300_000, 300_000, ClockRun::Paused);
    let clock = "source = \"dgt\"\ndgt_white = \"left\"";
    every_move_is_counted("counter-dgt", clock, Some(paused), set_and_running, true);
}

#[test]
fn with_the_station_pressing_for_both_players_every_move_is_counted() {
    let started = |_: &DgtEmulator, events: &Path| {
        wait_event(events, "the game started", |e| e["type"] == "game_started");
    };
    every_move_is_counted("counter-auto", "auto_press = true", None, started, false);
}

#[test]
fn with_one_peg_board_and_the_station_pressing_every_move_is_counted() {
    let dir = scratch("counter-one");
    let peg_link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let text = format!(
        "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[clock]\ntime_control = \"300+2\"\nauto_press = true\n\n[console]\nlisten = \"127.0.0.1:0\"\n",
        peg_link.display()
    );
    let conf = write_config(&dir, &text);
    let pegs = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(&peg_link) }).unwrap();
    let station = start_station(&conf, &dir.join("journal"), &events);
    let moves = moves();
    let mut pos = Chess::default();
    for (i, mv) in moves.iter().enumerate() {
        // The blind player executes both players' moves on his board (D.2.4 with one board).
        let (scans, _) =
            two_boards(&pos, std::slice::from_ref(mv), Color::White, 900, SETTLE_MS, SPEED, None, None);
        pegs.play_scans(scans);
        pegs.wait_idle();
        wait_for(Duration::from_secs(15), "the press counted", || (presses(&events).len() > i).then_some(()));
        pos = pos.play(*mv).unwrap();
    }
    drop(station);
    assert_eq!(presses(&events), expected(moves.len()));
}

#[test]
fn with_no_board_and_the_moves_entered_every_move_is_counted() {
    const TOKEN: &str = "counter-no-board-token";
    let dir = scratch("counter-none");
    let events = dir.join("events.jsonl");
    let text = "[boards.blind]\ndriver = \"none\"\n\n[clock]\ntime_control = \"300+2\"\nauto_press = true\n\n[speech]\nenabled = true\nmicrophone = false\n\n[console]\nlisten = \"127.0.0.1:0\"\n";
    let conf = write_config(&dir, text);
    let mut child = station_run(&conf, &dir.join("journal"), Some(&events))
        .args(["--token", TOKEN])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let base = station_tests::console_address(&mut child);
    let station = Kill(child);
    wait_event(&events, "the game started", |e| e["type"] == "game_started");
    let moves = ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"];
    for (i, mv) in moves.iter().enumerate() {
        let (status, answer) =
            station_tests::post_command(&base, TOKEN, &serde_json::json!({"cmd": "enter_move", "move": mv}));
        assert_eq!(status, 200, "{answer}");
        wait_for(Duration::from_secs(10), "the press counted", || (presses(&events).len() > i).then_some(()));
    }
    drop(station);
    assert_eq!(presses(&events), expected(moves.len()));
}
