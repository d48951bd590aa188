//! `station run`: the daemon.

use crate::config::{BoardConfig, Config, DriverKind};
use crate::event_sink::EventSink;
use crate::journal_file::JournalDir;
use crate::station::Station;
use anyhow::{Context, Result, bail};
use crossbeam_channel::{Receiver, Select};
use station_core::BoardRole;
use station_drivers::pegboard::DriverEvent;
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

/// A running board: its driver, and the simulator behind it when simulated.
pub struct BoardLink {
    /// Which board.
    pub role: BoardRole,
    /// Its driver.
    pub driver: PegBoardDriver,
    /// The simulated board, kept alive while the driver talks to it.
    pub _sim: Option<SimPegBoard>,
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
    let mut links = Vec::new();
    for (role, board) in
        [(BoardRole::Blind, &config.boards.blind), (BoardRole::Mirror, &config.boards.mirror)]
    {
        if let Some(b) = board {
            if let Some(link) = open_board(role, b, config.game.settle_ms, &dir)? {
                links.push(link);
            }
        }
    }
    if links.is_empty() {
        tracing::warn!("no sensed board configured: the station waits for a signal");
    }
    let station = Station::start(config, journals, sink)?;
    serve(station, &links, &stop, || false)
}

/// Opens a board's driver (and its simulator for `sim`).
pub fn open_board(
    role: BoardRole,
    b: &BoardConfig,
    settle_ms: u64,
    work_dir: &Path,
) -> Result<Option<BoardLink>> {
    Ok(match b.driver {
        DriverKind::None => None,
        DriverKind::Pegboard => {
            let port = b.port.clone().with_context(|| format!("boards.{role}.port is required"))?;
            let driver = PegBoardDriver::spawn(SerialSettings { path: port, baud: b.baud });
            Some(BoardLink { role, driver, _sim: None })
        }
        DriverKind::Sim => {
            let (sim, driver) = start_sim(role, b, settle_ms, work_dir)?;
            Some(BoardLink { role, driver, _sim: Some(sim) })
        }
    })
}

/// SIGINT and SIGTERM set the flag; the loop ends cleanly at its next turn.
pub fn stop_flag() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(sig, Arc::clone(&stop)).context("cannot install signal handler")?;
    }
    Ok(stop)
}

/// Feeds every board's driver events to the station until `stop` or `done()`.
pub fn serve(
    mut station: Station,
    links: &[BoardLink],
    stop: &AtomicBool,
    mut done: impl FnMut() -> bool,
) -> Result<()> {
    let receivers: Vec<(BoardRole, Receiver<DriverEvent>)> =
        links.iter().map(|l| (l.role, l.driver.events())).collect();
    while !stop.load(Ordering::Relaxed) && !done() {
        let mut select = Select::new();
        for (_, rx) in &receivers {
            select.recv(rx);
        }
        match select.select_timeout(station.timeout()) {
            Ok(op) => {
                let i = op.index();
                let (role, rx) = &receivers[i];
                match op.recv(rx) {
                    Ok(event) => station.handle(*role, event)?,
                    Err(_) => bail!("the {role} board's driver stopped"),
                }
            }
            Err(_) => station.tick()?,
        }
    }
    station.tick()
}

/// Starts a simulated peg board playing the configured game, and a driver on it.
pub fn start_sim(
    role: BoardRole,
    b: &BoardConfig,
    settle_ms: u64,
    work_dir: &Path,
) -> Result<(SimPegBoard, PegBoardDriver)> {
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
    let link = b.port.clone().unwrap_or_else(|| work_dir.join(format!("sim-{role}-pegboard")));
    let sim = SimPegBoard::start(SimOptions { speed: b.speed, ..SimOptions::new(link.clone()) })?;
    sim.play_scans(crate::sim_game::schedule(&game, b.noise_seed, 2000, settle_ms, b.speed));
    let driver = PegBoardDriver::spawn(SerialSettings { path: link, baud: b.baud });
    Ok((sim, driver))
}
