//! The Braille display in a running station: a game played on a simulated
//! peg board (real pty), the display a simulated brltty on a Unix socket
//! that the real BrlAPI client talks to (key authorization included).

use super::{move_line, piece_letters};
use crate::config::Config;
use crate::event_sink::EventSink;
use crate::journal_file::JournalDir;
use crate::run::{open_board, open_braille, serve};
use crate::station::Station;
use station_core::{BoardRole, Event};
use station_drivers::braille::SimBrailleServer;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

fn last_game_move(events: &Mutex<Vec<Event>>) -> Option<(usize, String)> {
    events.lock().unwrap().iter().rev().find_map(|e| match e {
        Event::GameMove { ply, san, .. } => Some((*ply, san.clone())),
        _ => None,
    })
}

fn clock_answers(events: &Mutex<Vec<Event>>) -> usize {
    events
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, Event::Announcement { about, listener, .. } if about == "clock" && listener == "private"))
        .count()
}

#[test]
fn moves_appear_on_the_display_and_a_routing_key_is_the_time_button() {
    let dir = std::env::temp_dir().join(format!("annexd-braille-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let key_file = dir.join("brlapi.key");
    std::fs::write(&key_file, b"0123456789abcdef").unwrap();
    let sim = SimBrailleServer::start(&dir.join("BrlAPI-0"), 40, Some(b"0123456789abcdef".to_vec())).unwrap();
    let text = format!(
        "[boards.blind]\ndriver = \"sim\"\nport = \"{}\"\nspeed = 3.0\n\n[game]\nsettle_ms = 200\ndebounce_ms = 15\n\n\
         [clock]\ntime_control = \"5400+30\"\n\n[buttons]\ntime = [\"braille:0\"]\n\n[audio.private]\nvoices = [\"text\"]\n\n\
         [braille]\nenabled = true\nsocket = \"{}\"\nkey_file = \"{}\"\n",
        dir.join("pegboard").display(),
        sim.path().display(),
        key_file.display()
    );
    let config = Config::parse(&text, Path::new("test.toml")).unwrap();
    let board = config.boards.blind.clone().unwrap();
    let link = open_board(BoardRole::Blind, &board, config.game.settle_ms, &dir).unwrap().unwrap();
    let display = open_braille(&config.braille).expect("[braille] enabled opens the display");
    let mut station = Station::start(
        config,
        JournalDir::open(&dir.join("journal")).unwrap(),
        EventSink::open(None).unwrap(),
    )
    .unwrap();
    station.enable_voices().unwrap();
    station.attach_braille(display);
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&events);
    station.observe(move |e| seen.lock().unwrap().push(e.clone()));

    let finished = Arc::new(AtomicBool::new(false));
    let script = {
        let (events, finished) = (Arc::clone(&events), Arc::clone(&finished));
        std::thread::spawn(move || {
            let limit = Duration::from_secs(60);
            let mut failures = Vec::new();
            if !sim.wait_for_connections(1, limit) {
                failures.push("the station never took the display".to_owned());
            }
            // A move of the game appears on the display, with German piece letters.
            let moved = wait_until(limit, || last_game_move(&events).is_some_and(|(ply, _)| ply >= 3));
            let (ply, san) = last_game_move(&events).unwrap_or_default();
            let expected = move_line(ply, &piece_letters(&san, "de"));
            if !moved || sim.wait_for_line(Duration::from_secs(10), |l| l == expected).is_none() {
                failures.push(format!("`{expected}` not shown: {:?}", sim.lines()));
            }
            // A garbled packet is dropped; the display goes on.
            sim.send_raw(&[0, 0, 0, 3, 0, 0, 0, b'k', 1, 2, 3]).unwrap();
            // Routing key 0 is the `time` button: the clock is said and shown.
            let said = clock_answers(&events);
            sim.press_routing(0).unwrap();
            if !wait_until(limit, || clock_answers(&events) > said) {
                failures.push("routing key 0 did not say the time".to_owned());
            }
            let clocks = |l: &str| l.starts_with("W ") && l.contains(" S ") && l.contains("Zug ");
            if sim.wait_for_line(Duration::from_secs(10), clocks).is_none() {
                failures.push(format!("no clock line shown: {:?}", sim.lines()));
            }
            // Another routing key, mapped to no button, only shows the clocks.
            let shown = sim.lines().len();
            let said = clock_answers(&events);
            sim.press_routing(7).unwrap();
            if !wait_until(limit, || sim.lines()[shown..].iter().any(|l| clocks(l))) {
                failures.push("routing key 7 did not show the clocks".to_owned());
            }
            if clock_answers(&events) != said {
                failures.push("an unmapped routing key spoke".to_owned());
            }
            finished.store(true, Ordering::Relaxed);
            // The simulated brltty stays until the station has stopped.
            (failures, sim)
        })
    };
    let stop = AtomicBool::new(false);
    let give_up = Instant::now() + Duration::from_secs(150);
    serve(station, std::slice::from_ref(&link), None, &stop, || {
        finished.load(Ordering::Relaxed) || Instant::now() > give_up
    })
    .unwrap();
    let (failures, sim) = script.join().unwrap();
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(sim.connections(), 1, "a dropped packet does not cost the connection");
    let events = events.lock().unwrap();
    let statuses: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            Event::DeviceStatus { device, status, .. } if device == "braille" => Some(status.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(statuses, ["connected"]);
    let _ = std::fs::remove_dir_all(&dir);
}
