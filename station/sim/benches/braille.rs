//! How long a line takes from `show` to the display, and a routing key from
//! the display to the driver's event, through a real brltty (Debian's 6.5,
//! `scripts/setup`) with its hardware-free virtual driver (`-b vr`): median
//! and worst of 50 each; the first line is reported apart (brltty holds the
//! display for its start-up message a few seconds).
//! `cargo bench -p station-sim --bench braille`; each figure is a line
//! `figure<TAB>name<TAB>value<TAB>unit` on stdout.

use station_serial::braille::{BrailleDisplay, BrailleEvent, BrlapiDriver, BrlapiSettings, Key};
use station_sim::braille::BrlttyVirtual;
use std::time::{Duration, Instant};

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

fn next_event(driver: &BrlapiDriver) -> Result<BrailleEvent> {
    Ok(driver.events().recv_timeout(Duration::from_secs(15)).map_err(|_| "no event within 15 s")?.event)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() -> Result<()> {
    let dir = tempfile::tempdir()?;
    // A BrlAPI host of our own, so a system brltty (host 0) is never disturbed.
    let host = 14_000 + std::process::id() % 10_000;
    let mut brltty = BrlttyVirtual::start(dir.path(), host, 40)
        .map_err(|e| format!("brltty with the virtual driver: {e}"))?;
    let driver = BrlapiDriver::spawn(BrlapiSettings {
        socket: brltty.api_socket().to_owned(),
        key_file: Some(brltty.key_file().to_owned()),
    });
    // brltty's API socket may come after the driver's first look: told once, then found.
    let mut first = next_event(&driver)?;
    if matches!(first, BrailleEvent::Unavailable { .. }) {
        first = next_event(&driver)?;
    }
    if first != (BrailleEvent::Connected { columns: 40 }) {
        return Err(format!("not connected: {first:?}").into());
    }
    let mut shown = Vec::new();
    let mut keys = Vec::new();
    for i in 0..50u16 {
        let text = format!("{}. Sf3 {i}", i + 1);
        let start = Instant::now();
        driver.show(&text);
        brltty.wait_for_line(Duration::from_secs(5), |l| l == text).ok_or("a line not shown within 5 s")?;
        shown.push(start.elapsed());
        let start = Instant::now();
        brltty.key(&format!("Route {}", 1 + i % 39))?;
        let event = next_event(&driver)?;
        if event != BrailleEvent::Key(Key::Routing(1 + i % 39)) {
            return Err(format!("routing key {} came as {event:?}", 1 + i % 39).into());
        }
        keys.push(start.elapsed());
    }
    eprintln!("first line → display: {:.1} ms", ms(shown[0]));
    figure("Braille: first line -> display (brltty's start-up message)", ms(shown[0]), "ms");
    shown[0] = shown[1];
    for (what, mut v) in [("show -> display", shown), ("routing key -> event", keys)] {
        v.sort();
        eprintln!("{what}: median {:.1} ms, worst {:.1} ms (50)", ms(v[25]), ms(v[49]));
        figure(&format!("Braille (real brltty): {what} median"), ms(v[25]), "ms");
        figure(&format!("Braille (real brltty): {what} worst of 50"), ms(v[49]), "ms");
    }
    Ok(())
}
