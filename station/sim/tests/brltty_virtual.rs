//! The BrlAPI client against a real brltty (Debian's 6.5, `scripts/setup`)
//! with its hardware-free virtual driver (`-b vr`), on private sockets with
//! key authorization. Every wait is bounded.

#![cfg(unix)]

use station_serial::braille::{BrailleDisplay, BrailleEvent, BrlapiDriver, BrlapiSettings, Key};
use station_sim::braille::BrlttyVirtual;
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
