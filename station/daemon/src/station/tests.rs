//! The station with its devices: a simulated gamepad (the lever) pulled out in
//! the middle of a game played on a simulated peg board on a real pty.

use super::*;
use crate::event_sink::EventSink;
use crate::journal_file::JournalDir;
use crate::run::{open_board, serve};
use station_drivers::dgt::SideTime;
use station_drivers::gamepad::SimGamepad;
use station_voices::{Message, Wording};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("annexd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn game_moves(events: &Mutex<Vec<Event>>) -> usize {
    events.lock().unwrap().iter().filter(|e| matches!(e, Event::GameMove { .. })).count()
}

/// Waits until `f` holds, or gives up after `limit` (the test then fails on its assertions).
fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

#[test]
fn a_gamepad_unplugged_mid_game_is_told_once_the_game_goes_on_and_its_return_is_told_once() {
    let dir = scratch("gamepad");
    let text = format!(
        "[boards.blind]\ndriver = \"sim\"\nport = \"{}\"\nspeed = 3.0\n\n[game]\nsettle_ms = 200\ndebounce_ms = 15\n\n[clock]\ntime_control = \"5400+30\"\n\n[buttons]\nclock = [\"gamepad:South\"]\n\n[audio.private]\nvoices = [\"text\"]\n",
        dir.join("pegboard").display()
    );
    let config = Config::parse(&text, Path::new("test.toml")).unwrap();
    let wording = Wording::new(&config.voice).unwrap();
    let (told_gone, told_back) = (
        wording.message(Message::GamepadDisconnected).to_owned(),
        wording.message(Message::GamepadConnected).to_owned(),
    );
    let board = config.boards.blind.clone().unwrap();
    let link = open_board(BoardRole::Blind, &board, config.game.settle_ms, &dir).unwrap().unwrap();
    let mut station = Station::start(
        config,
        JournalDir::open(&dir.join("journal")).unwrap(),
        EventSink::open(None).unwrap(),
    )
    .unwrap();
    station.enable_voices().unwrap();
    let pad = SimGamepad::new("Foot switch");
    station.use_gamepad_feed(pad.events());
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    station.observe(move |e| seen.lock().unwrap().push(e.clone()));

    let finished = Arc::new(AtomicBool::new(false));
    let script = {
        let (events, finished) = (Arc::clone(&events), Arc::clone(&finished));
        std::thread::spawn(move || {
            let limit = Duration::from_secs(60);
            pad.plug();
            let ok = wait_until(limit, || game_moves(&events) >= 4);
            pad.press("South");
            pad.unplug();
            let unplugged_at = game_moves(&events);
            // The game goes on without the pad: moves are still recorded.
            let ok = ok && wait_until(limit, || game_moves(&events) >= unplugged_at + 4);
            pad.plug();
            std::thread::sleep(Duration::from_millis(300));
            finished.store(true, Ordering::Relaxed);
            (ok, unplugged_at)
        })
    };
    let stop = AtomicBool::new(false);
    let give_up = Instant::now() + Duration::from_secs(150);
    serve(station, std::slice::from_ref(&link), None, &stop, || {
        finished.load(Ordering::Relaxed) || Instant::now() > give_up
    })
    .unwrap();
    let (ok, unplugged_at) = script.join().unwrap();
    let events = events.lock().unwrap();
    let trouble: Vec<&Event> =
        events.iter().filter(|e| matches!(e, Event::BoardMismatch { .. } | Event::GameOver { .. })).collect();
    assert!(ok, "the game went on after the pad was pulled out (moves before: {unplugged_at}; {trouble:?})");

    let statuses: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::DeviceStatus { device, status, .. } if device == "gamepad" => Some(status.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, ["connected", "disconnected", "connected"]);
    let told: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::Announcement { listener, text, about, .. } if about == "device" => {
                assert_eq!(listener, "private", "only the blind player is told");
                Some(text.as_str())
            }
            _ => None,
        })
        .collect();
    assert_eq!(told, [told_gone.as_str(), told_back.as_str()], "told once each way");
    let moves = events.iter().filter(|e| matches!(e, Event::GameMove { .. })).count();
    assert!(moves >= unplugged_at + 4, "moves were recorded while the pad was out");
    // The lever worked before it was pulled out: its press reached the clock.
    assert!(
        events.iter().any(|e| matches!(e, Event::ClockPressed { .. } | Event::ClockPremature { .. })),
        "the pad's lever press reached the clock"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dgt_clock_readings_map_to_white_and_black() {
    let side = |secs| SideTime::from_secs(secs);
    let time = BwTime {
        left: side(100),
        right: side(200),
        running: true,
        left_to_move: false,
        right_to_move: true,
        lever_right_high: true,
        ..BwTime::default()
    };
    let r = reading_of(&time, DgtDisplay::Left);
    assert_eq!((r.white_ms, r.black_ms, r.running), (100_000, 200_000, Some(Side::Black)));
    let r = reading_of(&time, DgtDisplay::Right);
    assert_eq!((r.white_ms, r.black_ms, r.running), (200_000, 100_000, Some(Side::White)));
    let stopped = BwTime { running: false, right: SideTime { flag_shown: true, ..side(0) }, ..time };
    let r = reading_of(&stopped, DgtDisplay::Left);
    assert_eq!(r.running, None);
    assert!(r.black_flag && !r.white_flag);
}
