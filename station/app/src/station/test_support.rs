//! What the in-process station tests share: a scratch folder, a station
//! started on a config text with its events collected, waiting for those
//! events, and serving a board until the test's script is done.

use super::Station;
use crate::config::Config;
use crate::event_sink::EventSink;
use crate::journal_file::JournalDir;
use crate::run::{BoardLink, serve};
use station_core::Event;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The events a station delivered, as its observer collected them.
pub(crate) type Seen = Arc<Mutex<Vec<Event>>>;

/// An empty folder of this test's own (the process id keeps parallel runs apart).
pub(crate) fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("annexd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A config from its text, which the test knows to be valid.
pub(crate) fn config(text: &str) -> Config {
    Config::parse(text, Path::new("test.toml")).unwrap()
}

/// A station on `config`, its journals in `journal`.
pub(crate) fn started(config: Config, journal: &Path) -> Station {
    Station::start(config, JournalDir::open(journal).unwrap(), EventSink::open(None).unwrap()).unwrap()
}

/// Every event `station` delivers from now on.
pub(crate) fn observed(station: &mut Station) -> Seen {
    let events: Seen = Arc::default();
    let seen = Arc::clone(&events);
    station.observe(move |e| seen.lock().unwrap().push(e.clone()));
    events
}

/// The statuses `device` reported, in order.
pub(crate) fn device_statuses<'a>(events: &'a [Event], device: &str) -> Vec<&'a str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DeviceStatus { device: d, status, .. } if d == device => Some(status.as_str()),
            _ => None,
        })
        .collect()
}

/// How many moves of the game were delivered.
pub(crate) fn game_moves(events: &Mutex<Vec<Event>>) -> usize {
    events.lock().unwrap().iter().filter(|e| matches!(e, Event::GameMove { .. })).count()
}

/// Waits until `f` holds, or gives up after `limit` (the test then fails on its assertions).
pub(crate) fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if f() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Runs the test's `script` on its own thread (with the events seen so far
/// and from now on) while `station` serves its board `link`, for `limit` at
/// most; the station stops once the script is done, and its result is returned.
pub(crate) fn serve_with_script<T: Send + 'static>(
    station: Station,
    link: &BoardLink,
    events: &Seen,
    limit: Duration,
    script: impl FnOnce(Seen) -> T + Send + 'static,
) -> T {
    let finished = Arc::new(AtomicBool::new(false));
    let handle = {
        let (events, finished) = (Arc::clone(events), Arc::clone(&finished));
        std::thread::spawn(move || {
            let found = script(events);
            finished.store(true, Ordering::Relaxed);
            found
        })
    };
    serve_until(station, link, &finished, limit);
    handle.join().unwrap()
}

/// Serves `station` on its board `link` until the script sets `finished`,
/// or for `limit` at most.
pub(crate) fn serve_until(station: Station, link: &BoardLink, finished: &AtomicBool, limit: Duration) {
    let stop = AtomicBool::new(false);
    let give_up = Instant::now() + limit;
    serve(station, std::slice::from_ref(link), None, &stop, || {
        finished.load(Ordering::Relaxed) || Instant::now() > give_up
    })
    .unwrap();
}
