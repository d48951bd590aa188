//! The real `station run` with a Braille display: a real brltty (Debian's
//! 6.5) with its hardware-free virtual driver, started by the test on private
//! sockets (`BrlttyVirtual`); the game is played by a simulated peg board.
//! A move appears on the display in German piece letters; routing key 3,
//! mapped to `time` in `[buttons]`, says the time and shows the clocks.

use station_sim::braille::BrlttyVirtual;
use station_tests::{Kill, of_type, read_events, scratch, station_run, wait_for, write_config};
use std::time::Duration;

/// SAN with German piece letters, written independently of the station's.
fn german(san: &str) -> String {
    san.replace('Q', "D").replace('R', "T").replace('B', "L").replace('N', "S")
}

#[test]
fn station_run_shows_moves_on_a_real_brltty_and_a_routing_key_is_a_button() {
    let dir = scratch("braille-run");
    // A host number of our own (the other braille tests use 4000.. and 24000..).
    let host = 44_000 + std::process::id() % 20_000;
    let mut brltty =
        BrlttyVirtual::start(&dir, host, 40).expect("brltty with the virtual driver (scripts/setup)");
    let config = write_config(
        &dir,
        &format!(
            "[boards.blind]\ndriver = \"sim\"\nport = \"{}\"\nspeed = 3.0\n\n[game]\nsettle_ms = 200\ndebounce_ms = 15\n\n\
             [clock]\ntime_control = \"5400+30\"\n\n[buttons]\ntime = [\"braille:3\"]\n\n\
             [audio.private]\nvoices = [\"text\"]\n\n[console]\nlisten = \"127.0.0.1:0\"\n\n\
             [braille]\nenabled = true\nsocket = \"{}\"\nkey_file = \"{}\"\n",
            dir.join("pegboard").display(),
            brltty.api_socket().display(),
            brltty.key_file().display()
        ),
    );
    let events = dir.join("events.jsonl");
    let _station = Kill(
        station_run(&config, &dir.join("journal"), Some(&events))
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("station starts"),
    );
    let limit = Duration::from_secs(60);

    // Black's third move, as the event stream has it, on the display.
    let san = wait_for(limit, "six moves", || {
        let all = read_events(&events);
        let moves = of_type(&all, "game_move");
        (moves.len() >= 6).then(|| moves[5]["san"].as_str().unwrap_or_default().to_owned())
    });
    let expected = format!("3... {}", german(&san));
    let shown = brltty.wait_for_line(Duration::from_secs(10), |l| l == expected);
    assert!(shown.is_some(), "`{expected}` not shown: {:?}", brltty.lines());

    // Routing key 3 is the `time` button: said privately and shown.
    let said = |all: &[serde_json::Value]| {
        of_type(all, "announcement")
            .iter()
            .filter(|e| e["about"] == "clock" && e["listener"] == "private")
            .count()
    };
    let before = said(&read_events(&events));
    brltty.key("Route 3").unwrap();
    wait_for(limit, "the time said on routing key 3", || {
        (said(&read_events(&events)) > before).then_some(())
    });
    let clocks = brltty.wait_for_line(Duration::from_secs(10), |l| {
        l.starts_with("W ") && l.contains(" S ") && l.contains(" Zug ")
    });
    assert!(clocks.is_some(), "no clock line: {:?}", brltty.lines());

    let all = read_events(&events);
    let braille: Vec<&str> = of_type(&all, "device_status")
        .into_iter()
        .filter(|e| e["device"] == "braille")
        .filter_map(|e| e["status"].as_str())
        .collect();
    assert_eq!(braille.first(), Some(&"connected"), "{braille:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
