//! The DGT 3000 as the master clock, through the real `station run`: the
//! blind player's peg board and the sighted player's DGT board with a clock,
//! each simulated on its own pseudo-terminal. The station sets the clock when
//! the game starts, follows its readings, judges a premature press (D.2.4),
//! and when the clock stops answering the blind player is told once, the game
//! goes on, and the clock's return is told once. The clock switches sides by
//! its lever only because the station's SetNRun set the lever bit; a clock not
//! in mode 23 is reported with that reason, to the console and the blind player.

use shakmaty::{Chess, Color, Position};
use station_serial::dgt::{ClockCommand, ClockRun, SideTime};
use station_sim::dgt::SimClock;
use station_sim::games::two_boards;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Places, board_statuses, of_type, peg_and_dgt_boards, read_events, scratch, start_station, station_run,
    wait_for, write_config,
};
use std::time::{Duration, Instant};

const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;
const SILENT_MS: u64 = 2000;

/// The DGT clock's `device_status` events: status and detail.
fn all_dgt_clock_statuses(events: &std::path::Path) -> Vec<(String, String)> {
    of_type(&read_events(events), "device_status")
        .iter()
        .filter(|e| e["device"] == "dgt_clock")
        .map(|e| (e["status"].as_str().unwrap().to_owned(), e["detail"].as_str().unwrap_or("").to_owned()))
        .collect()
}

/// Whether the clock answers (the watch): not the link's model and setup news.
fn dgt_clock_statuses(events: &std::path::Path) -> Vec<(String, String)> {
    all_dgt_clock_statuses(events)
        .into_iter()
        .filter(|(s, d)| (s == "disconnected" || s == "connected") && !d.starts_with("DGT"))
        .collect()
}

/// The config of the boards [`peg_and_dgt_boards`] puts in `dir`.
fn config_text(dir: &std::path::Path) -> String {
    let (peg_link, dgt_link) = (dir.join("pegboard"), dir.join("dgt"));
    format!(
        "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"dgt\"\nport = \"{}\"\nbaud = 9600\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\nblind_color = \"white\"\n\n[clock]\ntime_control = \"300+2\"\nsource = \"dgt\"\ndgt_white = \"left\"\ndgt_silent_ms = {SILENT_MS}\n\n[audio.private]\nvoices = [\"text\"]\n\n[console]\nlisten = \"127.0.0.1:0\"\n",
        peg_link.display(),
        dgt_link.display()
    )
}

#[test]
fn the_dgt_clock_is_the_master_and_a_silent_clock_is_told_once_and_recovers() {
    let dir = scratch("clock-devices");
    let events = dir.join("events.jsonl");
    let config = write_config(&dir, &config_text(&dir));
    // The clock still shows an old game, stopped.
    let old = SimClock::new(12_000, 34_000, ClockRun::Paused);
    let (pegs, dgt) = peg_and_dgt_boards(&dir, SPEED, Some(old));
    let station = start_station(&config, &dir.join("journal"), &events);
    let ev = || read_events(&events);

    // The game starts: the station sets the clock (SetNRun), White's side running.
    wait_for(Duration::from_secs(15), "the game started", || {
        (!of_type(&ev(), "game_started").is_empty()).then_some(())
    });
    let five_minutes = SideTime::from_secs(300);
    let set = ClockCommand::SetAndRun {
        left: five_minutes,
        right: five_minutes,
        run: ClockRun::LeftRunning,
        lever: true,
    };
    wait_for(Duration::from_secs(10), "SetNRun and end display received by the clock", || {
        dgt.clock_commands().contains(&ClockCommand::EndDisplay).then_some(())
    });
    // The version query on connect, then the clock set once (acknowledged, not resent), end display.
    assert_eq!(dgt.clock_commands(), [ClockCommand::Version, set, ClockCommand::EndDisplay]);
    // The console is told what SetNRun cannot set.
    wait_for(Duration::from_secs(5), "the increment stated", || {
        all_dgt_clock_statuses(&events)
            .iter()
            .any(|(s, d)| s == "setup" && d == "set the increment on the clock: +2 s")
            .then_some(())
    });
    assert!(
        all_dgt_clock_statuses(&events).iter().any(|(s, d)| s == "connected" && d.starts_with("DGT 3000")),
        "the model is reported: {:?}",
        all_dgt_clock_statuses(&events)
    );
    wait_for(Duration::from_secs(10), "the station follows the running clock", || {
        of_type(&ev(), "clock_changed")
            .iter()
            .any(|e| e["action"] == "started" && e["who"] == "dgt_clock")
            .then_some(())
    });

    // D.2.4: White presses the lever before making his move: recorded, and he is
    // told privately. The lever switches the clock only because SetNRun set its bit.
    dgt.press_lever();
    wait_for(Duration::from_secs(10), "the premature press", || {
        of_type(&ev(), "clock_premature").iter().any(|e| e["side"] == "white").then_some(())
    });
    assert_eq!(dgt.clock().unwrap().run, ClockRun::RightRunning);
    // Black gives White his time back.
    dgt.press_lever();

    let play = |start: &Chess, part: &[shakmaty::Move]| {
        let (scans, updates) = two_boards(start, part, Color::White, 900, SETTLE_MS, SPEED, None, None);
        pegs.play_scans(scans);
        dgt.play_updates(updates);
        pegs.wait_idle();
        dgt.wait_idle();
    };
    let agreed = || of_type(&ev(), "game_move").len();
    let mut pos = Chess::default();
    let moves: Vec<shakmaty::Move> = ["e2e4", "e7e5", "g1f3", "b8c6"]
        .iter()
        .map(|u| {
            let mv = u.parse::<shakmaty::uci::UciMove>().unwrap().to_move(&pos).unwrap();
            pos = pos.clone().play(mv).unwrap();
            mv
        })
        .collect();

    // White moves, then presses: the press is his, with the clock's own time.
    play(&Chess::default(), &moves[..1]);
    wait_for(Duration::from_secs(15), "1. e4 agreed", || (agreed() >= 1).then_some(()));
    let before_press = dgt.clock().unwrap();
    dgt.press_lever();
    let press = wait_for(Duration::from_secs(10), "White's press", || {
        of_type(&ev(), "clock_pressed").iter().find(|e| e["side"] == "white").map(|e| (*e).clone())
    });
    let shown = press["remaining_ms"].as_u64().unwrap();
    assert!(
        shown.abs_diff(before_press.left_ms) <= 2000,
        "the station shows the clock's time ({shown} ms, the clock {} ms)",
        before_press.left_ms
    );
    // The emulated clock adds no increment: after White's first move the console is told.
    wait_for(Duration::from_secs(5), "the increment checked", || {
        all_dgt_clock_statuses(&events)
            .iter()
            .any(|(s, d)| s == "setup" && d.contains("no increment after White's first move"))
            .then_some(())
    });

    // The clock stops answering.
    let last_clock = dgt.clock().unwrap();
    let silenced = Instant::now();
    dgt.set_clock(None);
    let detail = wait_for(Duration::from_secs(10), "the silent clock reported", || {
        dgt_clock_statuses(&events).first().filter(|(s, _)| s == "disconnected").map(|(_, d)| d.clone())
    });
    let noticed = silenced.elapsed();
    eprintln!("clock silenced → told after {noticed:?} (station: {detail})");
    assert!(noticed >= Duration::from_millis(SILENT_MS - 1000), "not before the silence ({noticed:?})");

    // The game goes on without the clock.
    play(&pos_after(&moves[..1]), &moves[1..3]);
    wait_for(Duration::from_secs(20), "moves recorded while the clock is silent", || {
        (agreed() >= 3).then_some(())
    });

    // The clock answers again.
    dgt.set_clock(Some(last_clock));
    wait_for(Duration::from_secs(10), "the clock answering again", || {
        (dgt_clock_statuses(&events).len() >= 2).then_some(())
    });
    play(&pos_after(&moves[..3]), &moves[3..]);
    wait_for(Duration::from_secs(20), "every move agreed", || (agreed() >= moves.len()).then_some(()));
    std::thread::sleep(Duration::from_millis(SILENT_MS + 1000));
    drop(station);

    let all = ev();
    let statuses: Vec<String> = dgt_clock_statuses(&events).into_iter().map(|(s, _)| s).collect();
    assert_eq!(statuses, ["disconnected", "connected"], "told once, recovered once");
    let told: Vec<&str> = of_type(&all, "announcement")
        .iter()
        .filter(|e| e["about"] == "device")
        .map(|e| {
            assert_eq!(e["listener"], "private");
            e["text"].as_str().unwrap()
        })
        .collect();
    assert_eq!(told.len(), 2, "the blind player was told once each way: {told:?}");
    let record: Vec<&str> = of_type(&all, "game_move").iter().map(|e| e["uci"].as_str().unwrap()).collect();
    assert_eq!(record, ["e2e4", "e7e5", "g1f3", "b8c6"]);
    assert_eq!(board_statuses(&events, "mirror"), ["connected"], "the DGT board itself never went away");
    assert!(of_type(&all, "flag_fell").is_empty());
}

fn pos_after(moves: &[shakmaty::Move]) -> Chess {
    moves.iter().fold(Chess::default(), |p, m| p.play(*m).unwrap())
}

#[test]
fn a_clock_not_in_mode_23_is_reported_to_the_console_and_the_blind_player() {
    let dir = scratch("clock-mode23");
    let events = dir.join("events.jsonl");
    let config = write_config(&dir, &config_text(&dir));
    let not_23 = SimClock { mode_23: false, ..SimClock::new(12_000, 34_000, ClockRun::Paused) };
    let (_pegs, dgt) = peg_and_dgt_boards(&dir, SPEED, Some(not_23));
    let station = start_station(&config, &dir.join("journal"), &events);
    let detail = wait_for(Duration::from_secs(30), "the refusal reported", || {
        all_dgt_clock_statuses(&events).into_iter().find(|(s, _)| s == "not_in_mode_23").map(|(_, d)| d)
    });
    // What he is told follows the status (a loaded machine may take a moment).
    let told_about_device = || {
        of_type(&read_events(&events), "announcement")
            .iter()
            .filter(|e| e["about"] == "device")
            .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
            .collect::<Vec<String>>()
    };
    let _ = wait_for(Duration::from_secs(10), "the blind player told", || {
        Some(told_about_device()).filter(|t| !t.is_empty())
    });
    drop(station);
    assert!(detail.contains("SetNRun") && detail.contains("3 tries"), "{detail}");
    let set_n_runs =
        dgt.clock_commands().iter().filter(|c| matches!(c, ClockCommand::SetAndRun { .. })).count();
    assert_eq!(set_n_runs, 3, "tried three times");
    assert_eq!(dgt.clock().unwrap().left_ms, 12_000, "the clock was never set");
    let told = told_about_device();
    assert!(told.iter().any(|t| t.contains("23")), "the blind player is told: {told:?}");
}

/// Issue 25: the white moves of a short game with non-terminal moves among
/// them (e3, Be2, d3 may still go on; Nf3, Nc3 may not), and the delay after
/// each placement at which the blind player presses his clock.
const PRESSES: [(&str, &str, u64); 5] = [
    ("e2e3", "e7e6", 50),
    ("f1e2", "f8e7", 150),
    ("g1f3", "g8f6", 250),
    ("b1c3", "b8c6", 400),
    ("d2d3", "d7d6", 600),
];

fn uci_move(pos: &Chess, uci: &str) -> shakmaty::Move {
    uci.parse::<shakmaty::uci::UciMove>().unwrap().to_move(pos).unwrap()
}

/// When the last of `scans` that shows `after` first does (ms from the schedule's start).
fn placed_at(scans: &[station_sim::pegboard::hands::TimedScan], after: shakmaty::Bitboard) -> u64 {
    scans.iter().find(|s| s.occupancy == after).map(|s| s.at_ms).expect("the move's board")
}

/// Presses counted and premature, the blind player's (White's).
fn white_presses(events: &std::path::Path) -> (usize, usize) {
    let all = read_events(events);
    let count = |kind| of_type(&all, kind).iter().filter(|e| e["side"] == "white").count();
    (count("clock_pressed"), count("clock_premature"))
}

/// D.2.3–D.2.4 with the lever on the peg board (`[buttons] clock =
/// ["blind:0"]`, a 300+2 clock, the default settle time): his press 50 to 600
/// ms after the piece landed counts every time, decided by the press where the
/// board alone would still wait (the move made is the evidence). The clock
/// switches at the press.
#[test]
fn his_lever_pressed_50_to_600_ms_after_the_placement_always_counts() {
    let (Places { link, events, journal, .. }, config) = Places::with_pegboard_config(
        "press-lever",
        "\n[clock]\ntime_control = \"300+2\"\n\n[buttons]\nclock = [\"blind:0\"]\n\n[audio.private]\nvoices = [\"text\"]\n\n[console]\nlisten = \"127.0.0.1:0\"\n",
    );
    let pegs = SimPegBoard::start(SimOptions::new(&link)).unwrap();
    let station =
        station_tests::RunningStation::start(station_run(&config, &journal, Some(&events)), "press");
    let ev = || read_events(&events);
    pegs.set_occupancy(Chess::default().board().occupied());
    wait_for(Duration::from_secs(15), "the game started", || {
        (!of_type(&ev(), "game_started").is_empty()).then_some(())
    });
    let mut pos = Chess::default();
    let mut hands = station_sim::pegboard::hands::Hands::new(None);
    for (n, (white, black, delay)) in PRESSES.iter().enumerate() {
        let mv = uci_move(&pos, white);
        let mut now = 0;
        let mut scans = Vec::new();
        hands.play(&pos, &mv, &mut now, &mut scans);
        pos = pos.play(mv).unwrap();
        let landed = placed_at(&scans, pos.board().occupied());
        let started = Instant::now();
        pegs.play_scans(scans);
        std::thread::sleep(
            (started + Duration::from_millis(landed + delay)).saturating_duration_since(Instant::now()),
        );
        pegs.press_button(0);
        wait_for(Duration::from_secs(10), "his press counted", || {
            (white_presses(&events).0 > n).then_some(())
        });
        // The opponent's reply, executed on his board; the opponent presses at the console.
        let reply = uci_move(&pos, black);
        let mut now = 0;
        let mut scans = Vec::new();
        hands.play(&pos, &reply, &mut now, &mut scans);
        pos = pos.play(reply).unwrap();
        pegs.play_scans(scans);
        wait_for(Duration::from_secs(10), "the reply", || {
            (of_type(&ev(), "game_move").len() > 2 * n + 1).then_some(())
        });
        let (status, answer) = station.command(&serde_json::json!({"cmd": "clock_press", "side": "black"}));
        assert_eq!(status, 200, "{answer}");
    }
    drop(station);
    let (pressed, premature) = white_presses(&events);
    eprintln!("lever: {pressed} presses counted, {premature} premature");
    assert_eq!((pressed, premature), (PRESSES.len(), 0), "every press 50–600 ms after the placement counts");
    let record: Vec<String> =
        of_type(&ev(), "game_move").iter().map(|e| e["uci"].as_str().unwrap().to_owned()).collect();
    let expected: Vec<&str> = PRESSES.iter().flat_map(|(w, b, _)| [*w, *b]).collect();
    assert_eq!(record, expected);
}

/// The same with the DGT 3000 on the sighted player's DGT board as the clock:
/// the blind player's lever press 50 to 600 ms after his peg landed is a
/// press that counts (`clock_pressed`, never `clock_premature`).
#[test]
fn his_dgt_clock_pressed_50_to_600_ms_after_the_placement_always_counts() {
    let dir = scratch("press-dgt");
    let events = dir.join("events.jsonl");
    let text = config_text(&dir).replace(&format!("settle_ms = {SETTLE_MS}\ndebounce_ms = 15\n"), "");
    let config = write_config(&dir, &text);
    let (pegs, dgt) = peg_and_dgt_boards(&dir, 1.0, Some(SimClock::new(12_000, 34_000, ClockRun::Paused)));
    let station = start_station(&config, &dir.join("journal"), &events);
    let ev = || read_events(&events);
    wait_for(Duration::from_secs(15), "the clock followed", || {
        of_type(&ev(), "clock_changed").iter().any(|e| e["action"] == "started").then_some(())
    });
    let mut pos = Chess::default();
    for (n, (white, black, delay)) in PRESSES.iter().enumerate() {
        let mv = uci_move(&pos, white);
        let (scans, updates) = two_boards(&pos, &[mv], Color::White, 300, 300, 1.0, None, None);
        pos = pos.play(mv).unwrap();
        let landed = placed_at(&scans, pos.board().occupied());
        let started = Instant::now();
        pegs.play_scans(scans);
        dgt.play_updates(updates);
        std::thread::sleep(
            (started + Duration::from_millis(landed + delay)).saturating_duration_since(Instant::now()),
        );
        dgt.press_lever();
        wait_for(Duration::from_secs(10), "his press judged", || {
            let (pressed, premature) = white_presses(&events);
            (pressed + premature > n).then_some(())
        });
        dgt.wait_idle();
        let reply = uci_move(&pos, black);
        let (scans, updates) = two_boards(&pos, &[reply], Color::White, 300, 300, 1.0, None, None);
        pos = pos.play(reply).unwrap();
        pegs.play_scans(scans);
        dgt.play_updates(updates);
        pegs.wait_idle();
        dgt.wait_idle();
        wait_for(Duration::from_secs(10), "the reply agreed", || {
            (of_type(&ev(), "game_move").len() > 2 * n + 1).then_some(())
        });
        dgt.press_lever();
    }
    drop(station);
    let (pressed, premature) = white_presses(&events);
    eprintln!("dgt clock: {pressed} presses counted, {premature} premature");
    assert_eq!((pressed, premature), (PRESSES.len(), 0), "every press 50–600 ms after the placement counts");
}
