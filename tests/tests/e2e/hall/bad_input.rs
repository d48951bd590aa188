//! Bad input reaching the hall view through a real Mosquitto: an oversized
//! payload (larger than anything the client took before), malformed
//! payloads, a station claiming another board, a retained state from an
//! older game. Each is dropped with its reason in the hall's log and counted
//! in `/api/hall`, and the view keeps its one connection: a good message
//! sent afterwards arrives and the log never says the broker went away.

use super::support::{api, free_port, hall_view, header_message, mosquitto, publish, publish_file, read_log};
use serde_json::Value;
use station_tests::{Kill, scratch, wait_for};
use std::path::PathBuf;
use std::time::Duration;

/// A broker (no size limit of its own) and a hall view named `bad` on it.
struct Rig {
    _view: Kill,
    _broker: Kill,
    base: String,
    port: u16,
    dir: PathBuf,
    log: PathBuf,
}

fn rig(name: &str) -> Rig {
    let dir = scratch(name);
    let port = free_port();
    let broker = mosquitto(&dir, port, "");
    let log = dir.join("hall.log");
    let (view, base) =
        hall_view(&format!("mqtt://127.0.0.1:{port}"), "bad", &["--token", "arbiter"], Some(&log));
    // Subscribed once the view asked the stations for a replay.
    wait_for(Duration::from_secs(30), "the hall view connected", || {
        read_log(&log).contains("hall: connected to the broker").then_some(())
    });
    Rig { _view: view, _broker: broker, base, port, dir, log }
}

impl Rig {
    /// Waits until `reason` has been counted `n` times; the hall's JSON then.
    fn dropped(&self, reason: &str, n: u64) -> Value {
        wait_for(Duration::from_secs(20), &format!("{n} dropped as {reason}"), || {
            let h = api(&self.base);
            (h["dropped"][reason] == n).then_some(h)
        })
    }

    /// The view is still up on its first connection: a good message sent now
    /// arrives, and the log never said the broker was away.
    fn still_up(&self) {
        assert!(publish(self.port, "annexd/bad/99/status", r#"{"board":"99","online":true}"#, false));
        wait_for(Duration::from_secs(20), "board 99 online after the bad input", || {
            let h = api(&self.base);
            let boards = h["boards"].as_array().cloned().unwrap_or_default();
            boards.iter().any(|b| b["board"] == "99" && b["online"] == true).then_some(())
        });
        let log = read_log(&self.log);
        assert!(!log.contains("the broker is away"), "the view lost its connection:\n{log}");
        assert_eq!(log.matches("hall: connected to the broker").count(), 1, "one connection:\n{log}");
    }

    /// The hall's log lines that dropped a message.
    fn drop_lines(&self) -> Vec<String> {
        read_log(&self.log)
            .lines()
            .filter(|l| l.contains("hall: message dropped"))
            .map(str::to_owned)
            .collect()
    }
}

#[test]
fn an_oversized_payload_is_dropped_and_counted_and_the_view_stays_connected() {
    let rig = rig("hall-bad-oversized");
    // 2 MiB: twice what ended the view's connection before.
    let big = rig.dir.join("big.json");
    std::fs::write(&big, vec![b'x'; 2 * 1024 * 1024]).unwrap();
    assert!(publish_file(rig.port, "annexd/bad/4/event", &big, false));
    // Just over the hall's own limit (256 KiB).
    let over = rig.dir.join("over.json");
    std::fs::write(&over, vec![b' '; 256 * 1024 + 1]).unwrap();
    assert!(publish_file(rig.port, "annexd/bad/4/state", &over, false));
    let h = rig.dropped("oversized", 2);
    assert!(h["boards"].as_array().unwrap().is_empty(), "nothing taken from them: {h}");
    let lines = rig.drop_lines();
    assert!(lines.iter().any(|l| l.contains("oversized: 2097152 bytes on annexd/bad/4/event")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("oversized: 262145 bytes on annexd/bad/4/state")), "{lines:?}");
    rig.still_up();
}

#[test]
fn malformed_payloads_are_dropped_with_the_parser_s_reason() {
    let rig = rig("hall-bad-malformed");
    let garbage = rig.dir.join("garbage.bin");
    std::fs::write(&garbage, [0xff, 0xfe, 0x00, 0x7b, 0x80]).unwrap();
    assert!(publish_file(rig.port, "annexd/bad/5/event", &garbage, false));
    assert!(publish(
        rig.port,
        "annexd/bad/5/event",
        r#"{"hall":"bad","board":"5","game_id":"g","seq":"#,
        false
    ));
    assert!(publish(rig.port, "annexd/bad/5/state", r#"{"board":"5","moves":"e4"}"#, true));
    assert!(publish(rig.port, "annexd/bad/5/status", "online", false));
    let h = rig.dropped("malformed", 4);
    assert!(h["boards"].as_array().unwrap().is_empty(), "nothing taken from them: {h}");
    let lines = rig.drop_lines();
    assert_eq!(lines.iter().filter(|l| l.contains("malformed: annexd/bad/5/")).count(), 4, "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("EOF while parsing")), "the parser's reason: {lines:?}");
    rig.still_up();
}

#[test]
fn a_station_claiming_another_board_is_dropped_as_forged() {
    let rig = rig("hall-bad-forged");
    // Board 6's login (its own topic) speaking for board 7, and for another hall.
    assert!(publish(rig.port, "annexd/bad/6/event", &header_message("bad", "7", "g", 1), false));
    assert!(publish(rig.port, "annexd/bad/6/event", &header_message("other", "6", "g", 1), false));
    assert!(publish(rig.port, "annexd/bad/6/state", r#"{"board":"7","game_id":"g","seq":3}"#, true));
    assert!(publish(rig.port, "annexd/bad/6/status", r#"{"board":"7","online":false}"#, false));
    let h = rig.dropped("forged", 4);
    let boards: Vec<&str> =
        h["boards"].as_array().unwrap().iter().filter_map(|b| b["board"].as_str()).collect();
    assert!(boards.is_empty(), "neither board 6 nor board 7 took anything: {boards:?}");
    assert!(h["alerts"].as_array().unwrap().is_empty(), "no station-gone alert from a forgery: {h}");
    let lines = rig.drop_lines();
    assert!(
        lines.iter().any(|l| l.contains("forged: board `7` of hall `bad` on annexd/bad/6/event")),
        "{lines:?}"
    );
    rig.still_up();
}

#[test]
fn a_retained_state_from_an_older_game_is_dropped_and_the_current_game_stays() {
    let rig = rig("hall-bad-older");
    assert!(publish(rig.port, "annexd/bad/3/event", &header_message("bad", "3", "new", 2_000), false));
    wait_for(Duration::from_secs(20), "board 3's current game", || {
        let h = api(&rig.base);
        (h["boards"][0]["game_id"] == "new").then_some(())
    });
    // A retained state of the board's previous game (started earlier), left on the broker.
    let old = r#"{"board":"3","game_id":"old","header":{"fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","started_ms":1000,"tags":{}},"seq":9,"moves":["e4","e5","Nf3"]}"#;
    assert!(publish(rig.port, "annexd/bad/3/state", old, true));
    // And an event of that older game's header arriving late.
    assert!(publish(rig.port, "annexd/bad/3/event", &header_message("bad", "3", "old", 1_000), false));
    let h = rig.dropped("older game", 2);
    assert_eq!(h["boards"][0]["game_id"], "new", "{h}");
    assert_eq!(h["boards"][0]["moves"], Value::Array(vec![]), "nothing of the older game: {h}");
    let lines = rig.drop_lines();
    assert!(
        lines.iter().any(|l| l.contains("older game: retained state of old (before new) on board 3")),
        "{lines:?}"
    );
    rig.still_up();
}
