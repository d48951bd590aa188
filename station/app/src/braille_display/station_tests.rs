//! The Braille display in a running station: a game played on a simulated
//! peg board (real pty); the display is a real brltty with its virtual driver
//! (`BrlttyVirtual`), or the simulated brltty on a Unix socket (which can also
//! put garbled packets on the wire); the real BrlAPI client talks to either,
//! key authorization included.

use super::{move_line, piece_letters};
use crate::run::{open_board, open_braille};
use crate::station::test_support::{
    config, device_statuses, observed, scratch, serve_with_script, started, wait_until,
};
use station_core::{BoardRole, Event};
use station_sim::braille::{BrlttyVirtual, SimBrailleServer};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

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

/// The display side of the test: what was shown, the keys pressed.
enum Display {
    Sim(SimBrailleServer, std::path::PathBuf),
    Brltty(BrlttyVirtual),
}

impl Display {
    fn socket(&self) -> &Path {
        match self {
            Display::Sim(s, _) => s.path(),
            Display::Brltty(b) => b.api_socket(),
        }
    }

    fn key_file(&self) -> &Path {
        match self {
            Display::Sim(_, k) => k,
            Display::Brltty(b) => b.key_file(),
        }
    }

    fn connected(&self) -> bool {
        match self {
            Display::Sim(s, _) => s.wait_for_connections(1, Duration::from_secs(60)),
            Display::Brltty(_) => true, // a line shown proves it
        }
    }

    fn lines(&mut self) -> Vec<String> {
        match self {
            Display::Sim(s, _) => s.lines(),
            Display::Brltty(b) => b.lines(),
        }
    }

    fn wait_for_line(&mut self, want: impl Fn(&str) -> bool) -> Option<String> {
        let limit = Duration::from_secs(10);
        match self {
            Display::Sim(s, _) => s.wait_for_line(limit, want),
            Display::Brltty(b) => b.wait_for_line(limit, want),
        }
    }

    fn press_routing(&self, cell: u16) {
        match self {
            Display::Sim(s, _) => s.press_routing(cell).unwrap(),
            Display::Brltty(b) => b.key(&format!("Route {cell}")).unwrap(),
        }
    }

    /// Garbled bytes on the wire (only the simulated brltty can).
    fn garble(&self) {
        if let Display::Sim(s, _) = self {
            s.send_raw(&[0, 0, 0, 3, 0, 0, 0, b'k', 1, 2, 3]).unwrap();
        }
    }
}

#[test]
fn moves_appear_on_the_display_and_a_routing_key_is_the_time_button() {
    let dir = scratch("braille-sim");
    let key_file = dir.join("brlapi.key");
    std::fs::write(&key_file, b"0123456789abcdef").unwrap();
    let sim = SimBrailleServer::start(&dir.join("BrlAPI-0"), 40, Some(b"0123456789abcdef".to_vec())).unwrap();
    play_with_display(&dir, Display::Sim(sim, key_file));
}

#[test]
fn with_a_real_brltty_moves_appear_and_a_routing_key_is_the_time_button() {
    let dir = scratch("braille-brltty");
    // A host number of our own, apart from the drivers' test's and a system brltty's.
    let host = 24_000 + std::process::id() % 20_000;
    let brltty =
        BrlttyVirtual::start(&dir, host, 40).expect("brltty with the virtual driver (scripts/setup)");
    play_with_display(&dir, Display::Brltty(brltty));
}

fn play_with_display(dir: &Path, mut sim: Display) {
    let text = format!(
        "[boards.blind]\ndriver = \"sim\"\nport = \"{}\"\nspeed = 3.0\n\n[game]\nsettle_ms = 200\ndebounce_ms = 15\n\n\
         [clock]\ntime_control = \"5400+30\"\n\n[buttons]\ntime = [\"braille:3\"]\n\n[audio.private]\nvoices = [\"text\"]\n\n\
         [braille]\nenabled = true\nsocket = \"{}\"\nkey_file = \"{}\"\n",
        dir.join("pegboard").display(),
        sim.socket().display(),
        sim.key_file().display()
    );
    let config = config(&text);
    let board = config.boards.blind.clone().unwrap();
    let link = open_board(BoardRole::Blind, &board, config.game.settle_ms, dir).unwrap().unwrap();
    let display = open_braille(&config.braille).expect("[braille] enabled opens the display");
    let mut station = started(config, &dir.join("journal"));
    station.enable_voices().unwrap();
    station.attach_braille(display);
    let events = observed(&mut station);

    let (failures, sim) =
        serve_with_script(station, &link, &events, Duration::from_secs(150), move |events| {
            let limit = Duration::from_secs(60);
            let mut failures = Vec::new();
            if !sim.connected() {
                failures.push("the station never took the display".to_owned());
            }
            // A move of the game appears on the display, with German piece letters.
            let moved = wait_until(limit, || last_game_move(&events).is_some_and(|(ply, _)| ply >= 3));
            let (ply, san) = last_game_move(&events).unwrap_or_default();
            let expected = move_line(ply, &piece_letters(&san, "de"));
            if !moved || sim.wait_for_line(|l| l == expected).is_none() {
                failures.push(format!("`{expected}` not shown: {:?}", sim.lines()));
            }
            // A garbled packet is dropped; the display goes on.
            sim.garble();
            // Routing key 3 is the `time` button: the clock is said and shown.
            let said = clock_answers(&events);
            sim.press_routing(3);
            if !wait_until(limit, || clock_answers(&events) > said) {
                failures.push("routing key 3 did not say the time".to_owned());
            }
            let clocks = |l: &str| l.starts_with("W ") && l.contains(" S ") && l.contains("Zug ");
            if sim.wait_for_line(clocks).is_none() {
                failures.push(format!("no clock line shown: {:?}", sim.lines()));
            }
            // Another routing key, mapped to no button, only shows the clocks
            // (pressed once the next move has replaced them: brltty sends only changes).
            let after_clocks = sim.lines().len();
            if !wait_until(limit, || sim.lines()[after_clocks..].iter().any(|l| !clocks(l))) {
                failures.push("no move shown after the clocks".to_owned());
            }
            let shown = sim.lines().len();
            let said = clock_answers(&events);
            sim.press_routing(7);
            if !wait_until(limit, || sim.lines()[shown..].iter().any(|l| clocks(l))) {
                failures.push("routing key 7 did not show the clocks".to_owned());
            }
            if clock_answers(&events) != said {
                failures.push("an unmapped routing key spoke".to_owned());
            }
            // The simulated brltty stays until the station has stopped.
            (failures, sim)
        });
    assert!(failures.is_empty(), "{failures:#?}");
    if let Display::Sim(sim, _) = &sim {
        assert_eq!(sim.connections(), 1, "a dropped packet does not cost the connection");
    }
    let events = events.lock().unwrap();
    let statuses = device_statuses(&events, "braille");
    // A real brltty on a loaded machine may answer after the station's first
    // try; once connected, the connection is never lost.
    let since_connected: Vec<&str> = statuses.iter().copied().skip_while(|s| *s != "connected").collect();
    assert_eq!(since_connected, ["connected"], "{statuses:?}");
    drop(sim);
    let _ = std::fs::remove_dir_all(dir);
}
