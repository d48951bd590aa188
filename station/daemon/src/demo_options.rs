//! What `station demo` is asked for, and where it finds the voice packs: shared
//! by the chess demo (`demo`) and the draughts demo (`demo_draughts`), which
//! depend on this module and never on each other.

use crate::config::Config;
use crate::event_sink::EventSink;
use crate::hub::{CommandRequest, Hub};
use crate::journal_file::JournalDir;
use crate::run::{WebOptions, start_web};
use crate::station::Station;
use crate::web::WebServer;
use anyhow::Result;
use crossbeam_channel::Receiver;
use std::path::PathBuf;

/// `station demo` arguments.
pub struct DemoOptions {
    /// Time factor (1 = human pace).
    pub speed: f64,
    /// Noise seed for the simulated hands (no noise when absent).
    pub noise: Option<u64>,
    /// Where the journal goes (a fresh temporary directory by default).
    pub journal_dir: Option<PathBuf>,
    /// `--events PATH|-`.
    pub events: Option<String>,
    /// Announcement language.
    pub lang: String,
    /// Simulate the sighted player's DGT board too.
    pub mirror_dgt: bool,
    /// Console address.
    pub listen: String,
    /// Operator token.
    pub token: Option<String>,
    /// A simulated Braille display (a simulated brltty): its lines are printed.
    pub braille: bool,
    /// A practice game against Stockfish (issue 26).
    pub practice: bool,
}

/// The voice packs the set-up rendered: `$STATION_VOICE_PACKS`, else `.deps/voices`
/// in the working directory or beside the binary's build folder.
pub(crate) fn voice_packs() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("STATION_VOICE_PACKS") {
        return Some(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().ok();
    let beside_exe = exe.as_ref().and_then(|e| Some(e.parent()?.parent()?.parent()?.join(".deps/voices")));
    // The Debian package's packs: /usr/lib/annexd-station/station → /usr/share/annexd/voices
    // (also in a tree unpacked with dpkg-deb -x).
    let packaged =
        exe.as_ref().and_then(|e| Some(e.parent()?.parent()?.parent()?.join("share/annexd/voices")));
    [Some(PathBuf::from(".deps/voices")), beside_exe, packaged].into_iter().flatten().find(|d| d.is_dir())
}

/// A demo's station with voices, its console (on `--listen`, with `--token`)
/// and the console's commands, started alike by every demo; the caller keeps
/// the server until the demo ends.
pub(crate) fn start_station(
    opts: &DemoOptions,
    config: Config,
    journal: JournalDir,
) -> Result<(Station, Receiver<CommandRequest>, Option<WebServer>)> {
    let (hub, commands) = Hub::new();
    let web = WebOptions { listen: Some(opts.listen.clone()), token: opts.token.clone(), doctor: None };
    let server = start_web(&config, &web, hub.clone())?;
    let mut station = Station::start(config, journal, EventSink::open(opts.events.as_deref())?)?;
    station.enable_voices()?;
    station.attach_hub(hub);
    Ok((station, commands, server))
}

/// An alarm the player would hear: his board said to differ from the game
/// (`board_mismatch`, `setup_differs`). A demo is a game without one; its
/// summary line counts them (`, alarms N`) and `scripts/demo` fails on one.
pub(crate) fn is_alarm(e: &station_core::Event) -> bool {
    matches!(e, station_core::Event::BoardMismatch { .. } | station_core::Event::SetupDiffers { .. })
}
