//! `station run`: the daemon.

use crate::config::{BoardConfig, Config, DriverKind};
use crate::event_sink::EventSink;
use crate::journal_file::JournalDir;
use crate::station::Station;
use anyhow::{Context, Result, bail};
use crossbeam_channel::RecvTimeoutError;
use station_drivers::pegboard::sim::{SimOptions, SimPegBoard};
use station_drivers::pegboard::{PegBoardDriver, SerialSettings};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// `station run` arguments.
pub struct RunOptions {
    /// Config file.
    pub config: PathBuf,
    /// `--events PATH|-`.
    pub events: Option<String>,
    /// `--journal-dir DIR`.
    pub journal_dir: Option<PathBuf>,
}

/// Runs until SIGINT or SIGTERM.
pub fn run(opts: RunOptions) -> Result<()> {
    let config = Config::load(&opts.config)?;
    let dir = opts
        .journal_dir
        .clone()
        .or_else(|| config.journal.dir.clone())
        .unwrap_or_else(|| PathBuf::from("journal"));
    let journals = JournalDir::open(&dir)?;
    let sink = EventSink::open(opts.events.as_deref())?;
    let stop = stop_flag()?;
    let board = config.boards.blind.clone();
    let settle_ms = config.game.settle_ms;
    let station = Station::start(config, journals, sink)?;
    match board {
        None => idle(station, &stop),
        Some(b) => match b.driver {
            DriverKind::None => idle(station, &stop),
            DriverKind::Pegboard => {
                let port = b.port.clone().context("boards.blind.port is required")?;
                let driver = PegBoardDriver::spawn(SerialSettings { path: port, baud: b.baud });
                serve(station, &driver, &stop, || false)
            }
            DriverKind::Sim => {
                let (_sim, driver) = start_sim(&b, settle_ms, &dir)?;
                serve(station, &driver, &stop, || false)
            }
        },
    }
}

/// SIGINT and SIGTERM set the flag; the loop ends cleanly at its next turn.
pub fn stop_flag() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop)).context("cannot install signal handler")?;
    }
    Ok(stop)
}

/// Feeds driver events to the station until `stop` or `done()`.
pub fn serve(
    mut station: Station,
    driver: &PegBoardDriver,
    stop: &AtomicBool,
    mut done: impl FnMut() -> bool,
) -> Result<()> {
    while !stop.load(Ordering::Relaxed) && !done() {
        match driver.events().recv_timeout(station.timeout()) {
            Ok(event) => station.handle(event)?,
            Err(RecvTimeoutError::Timeout) => station.tick()?,
            Err(RecvTimeoutError::Disconnected) => bail!("the board driver stopped"),
        }
    }
    station.tick()
}

fn idle(mut station: Station, stop: &AtomicBool) -> Result<()> {
    tracing::warn!("no sensed board configured: waiting for a signal");
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(100));
        station.tick()?;
    }
    Ok(())
}

/// Starts a simulated peg board playing the configured game, and a driver on it.
pub fn start_sim(b: &BoardConfig, settle_ms: u64, work_dir: &Path) -> Result<(SimPegBoard, PegBoardDriver)> {
    let game = match &b.pgn {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let games = station_core::pgn::read_games(&bytes);
            games
                .into_iter()
                .nth(b.game - 1)
                .with_context(|| format!("{} has no game {}", path.display(), b.game))?
                .game
        }
        None => crate::demo::famous_game().game,
    };
    let link = b.port.clone().unwrap_or_else(|| work_dir.join("sim-pegboard"));
    let sim = SimPegBoard::start(SimOptions { speed: b.speed, ..SimOptions::new(link.clone()) })?;
    sim.play_scans(crate::sim_game::schedule(&game, b.noise_seed, 2000, settle_ms, b.speed));
    let driver = PegBoardDriver::spawn(SerialSettings { path: link, baud: b.baud });
    Ok((sim, driver))
}
