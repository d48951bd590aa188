//! The BrlAPI client against a real brltty (Debian's 6.5, `scripts/setup`)
//! with its hardware-free virtual driver (`-b vr`), on private sockets with
//! key authorization. Every wait is bounded.

#![cfg(unix)]

use station_drivers::braille::{
    BrailleDisplay, BrailleEvent, BrlapiDriver, BrlapiSettings, BrlttyVirtual, Key,
};
use std::path::Path;
use std::time::Duration;

fn next_event(driver: &BrlapiDriver) -> BrailleEvent {
    driver.events().recv_timeout(Duration::from_secs(15)).expect("an event within 15 s").event
}

/// A 40-cell virtual brltty on BrlAPI `host` (a number of our own, so a
/// system brltty, host 0, is never disturbed) and a driver connected to it.
fn connected(dir: &Path, host: u32) -> (BrlttyVirtual, BrlapiDriver) {
    let brltty = BrlttyVirtual::start(dir, host, 40).expect("brltty with the virtual driver");
    let driver = BrlapiDriver::spawn(BrlapiSettings {
        socket: brltty.api_socket().to_owned(),
        key_file: Some(brltty.key_file().to_owned()),
    });
    // brltty's API socket may come after the driver's first look: told once, then found.
    let mut first = next_event(&driver);
    if matches!(first, BrailleEvent::Unavailable { .. }) {
        first = next_event(&driver);
    }
    assert_eq!(first, BrailleEvent::Connected { columns: 40 });
    (brltty, driver)
}

#[test]
fn a_real_brltty_shows_our_line_and_sends_its_routing_keys() {
    let dir = tempfile::tempdir().unwrap();
    let (mut brltty, driver) = connected(dir.path(), 4000 + std::process::id() % 20000);

    driver.show("23. Sf3");
    let shown = brltty.wait_for_line(Duration::from_secs(10), |l| l == "23. Sf3");
    assert!(shown.is_some(), "not shown: {:?}", brltty.lines());

    // brltty passes the virtual display's cell number on as it is ("ROUTE:
    // bring screen cursor to character #4" in its log), BrlAPI counts from 0.
    brltty.key("Route 3").unwrap();
    assert_eq!(next_event(&driver), BrailleEvent::Key(Key::Routing(3)));
    brltty.key("LnDn").unwrap();
    assert!(matches!(next_event(&driver), BrailleEvent::Key(Key::Command(_))));
    assert_eq!(driver.dropped(), 0);
}

/// Figures, not a pass/fail: how long a line takes from `show` to the virtual
/// display, and a routing key from the display to the driver's event, through
/// a real brltty (median and worst of 50 each; the first line is reported
/// apart: brltty holds the display for its start-up message a few seconds).
/// `cargo test -p station-drivers --test brltty_virtual -- --ignored --nocapture`
#[test]
#[ignore = "measurement; run with --ignored --nocapture"]
fn latency_through_a_real_brltty() {
    use std::time::Instant;
    let dir = tempfile::tempdir().unwrap();
    let (mut brltty, driver) = connected(dir.path(), 14_000 + std::process::id() % 10_000);
    let mut shown = Vec::new();
    let mut keys = Vec::new();
    for i in 0..50u16 {
        let text = format!("{}. Sf3 {i}", i + 1);
        let start = Instant::now();
        driver.show(&text);
        assert!(brltty.wait_for_line(Duration::from_secs(5), |l| l == text).is_some());
        shown.push(start.elapsed());
        let start = Instant::now();
        brltty.key(&format!("Route {}", 1 + i % 39)).unwrap();
        assert_eq!(next_event(&driver), BrailleEvent::Key(Key::Routing(1 + i % 39)));
        keys.push(start.elapsed());
    }
    println!("first line → display: {:.1} ms", ms(shown[0]));
    shown[0] = shown[1];
    for (what, mut v) in [("show → display", shown), ("routing key → event", keys)] {
        v.sort();
        println!("{what}: median {:.1} ms, worst {:.1} ms (50)", ms(v[25]), ms(v[49]));
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
