//! The daemon's loop ([`serve`]) and the devices it is fed by: the boards'
//! drivers (real or simulated) and the Braille display. `station run`'s
//! wiring (the web console, the hall) is the `station` binary's.
//!
//! Each turn takes everything waiting on every feed (boards, gamepad, Braille keys, heard speech,
//! operator commands, the engine), sorts it by arrival stamp, hands it to the station, lets time
//! pass up to the moment the feeds were looked at, and closes the turn's batch for the journal
//! writer; the writer's acknowledgements deliver the events. A stalled turn delays decisions, never
//! changes them.

use crate::config::{BoardConfig, BrailleSettings, Config, DriverKind};
use crate::hub::CommandRequest;
pub use crate::signals::stop_flag;
use crate::station::{PipelineStats, Station};
pub use crate::token::new_token;
use anyhow::{Context, Result, bail};
use crossbeam_channel::{Receiver, Select, TryRecvError};
use station_audio::Ended;
use station_core::BoardRole;
use station_engine::EngineEvent;
use station_gamepad::{GamepadDriver, GamepadEvent};
use station_serial::braille::{BrailleDisplay, BrailleEvent, BrlapiDriver, BrlapiSettings};
use station_serial::dgt::{DgtDriver, DgtEvent, DgtSettings};
use station_serial::pegboard::DriverEvent;
use station_serial::pegboard::{PegBoardDriver, SerialSettings};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_stamp::{ReadMark, Stamped};
use std::path::Path;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A board's driver.
pub enum Driver {
    /// A peg board.
    Pegs(PegBoardDriver),
    /// A DGT e-board.
    Dgt(DgtDriver),
}

/// A running board: its driver, and the simulator behind it when simulated.
pub struct RunningBoard {
    /// Which board.
    pub role: BoardRole,
    /// Its driver.
    pub driver: Driver,
    /// The simulated board, kept alive while the driver talks to it.
    pub _sim: Option<SimPegBoard>,
}

enum Feed {
    Pegs(BoardRole, Receiver<Stamped<DriverEvent>>),
    Dgt(BoardRole, Receiver<Stamped<DgtEvent>>),
    Gamepad(Receiver<Stamped<GamepadEvent>>),
    Braille(Receiver<Stamped<BrailleEvent>>),
    Heard(Receiver<crate::listening::Heard>),
    Commands(Receiver<CommandRequest>),
    Engine(Receiver<Stamped<EngineEvent>>),
    /// A listener's speaker telling the end of what it said.
    Endings(&'static str, Receiver<Ended>),
}

/// One input of any feed, with its arrival time.
enum Arrival {
    Pegs(BoardRole, DriverEvent),
    Dgt(BoardRole, DgtEvent),
    Gamepad(GamepadEvent),
    Braille(BrailleEvent),
    Heard(crate::listening::Heard),
    Command(CommandRequest),
    Engine(EngineEvent),
    Ended(&'static str, Ended),
}

/// At most this many inputs are taken in one turn of the loop, so the
/// journal's acknowledgements and the timers are never starved by a flood.
const TURN_LIMIT: usize = 512;

impl Feed {
    /// Whatever this feed has waiting now (up to `limit`), stamped. A feed
    /// whose driver stopped reports it.
    fn drain(&self, limit: usize, out: &mut Vec<(Instant, Arrival)>) -> Result<()> {
        // Heard speech and operator commands are stamped as they are taken.
        let now = Instant::now();
        for _ in 0..limit {
            let next = match self {
                Feed::Pegs(role, rx) => match rx.try_recv() {
                    Ok(s) => (s.at, Arrival::Pegs(*role, s.event)),
                    Err(TryRecvError::Empty) => return Ok(()),
                    Err(TryRecvError::Disconnected) => bail!("the {role} board's driver stopped"),
                },
                Feed::Dgt(role, rx) => match rx.try_recv() {
                    Ok(s) => (s.at, Arrival::Dgt(*role, s.event)),
                    Err(TryRecvError::Empty) => return Ok(()),
                    Err(TryRecvError::Disconnected) => bail!("the {role} board's driver stopped"),
                },
                Feed::Gamepad(rx) => match rx.try_recv() {
                    Ok(s) => (s.at, Arrival::Gamepad(s.event)),
                    Err(_) => return Ok(()),
                },
                Feed::Braille(rx) => match rx.try_recv() {
                    Ok(s) => (s.at, Arrival::Braille(s.event)),
                    Err(_) => return Ok(()),
                },
                Feed::Heard(rx) => match rx.try_recv() {
                    Ok(h) => (now, Arrival::Heard(h)),
                    Err(_) => return Ok(()),
                },
                Feed::Commands(rx) => match rx.try_recv() {
                    Ok(c) => (now, Arrival::Command(c)),
                    Err(_) => return Ok(()),
                },
                Feed::Engine(rx) => match rx.try_recv() {
                    Ok(s) => (s.at, Arrival::Engine(s.event)),
                    Err(_) => return Ok(()),
                },
                Feed::Endings(listener, rx) => match rx.try_recv() {
                    Ok(e) => (e.at, Arrival::Ended(listener, e)),
                    Err(_) => return Ok(()),
                },
            };
            out.push(next);
        }
        Ok(())
    }
}

/// Opens the Braille display's driver when `[braille] enabled` (brltty need
/// not be running: the driver reports it and looks for it again).
pub fn open_braille(settings: &BrailleSettings) -> Option<Rc<dyn BrailleDisplay>> {
    if !settings.enabled {
        return None;
    }
    // The config check made sure a socket is known.
    let socket = settings.socket_path()?;
    let key_file = Some(settings.key_file.clone());
    Some(Rc::new(BrlapiDriver::spawn(BrlapiSettings { socket, key_file })))
}

/// Opens a board's driver (and its simulator for `sim`).
pub fn open_board(
    role: BoardRole,
    b: &BoardConfig,
    settle_ms: u64,
    work_dir: &Path,
) -> Result<Option<RunningBoard>> {
    Ok(match b.driver {
        DriverKind::None => None,
        DriverKind::Pegboard => {
            let port = b.port.clone().with_context(|| format!("boards.{role}.port is required"))?;
            let driver = PegBoardDriver::spawn(SerialSettings { path: port, baud: b.baud });
            Some(RunningBoard { role, driver: Driver::Pegs(driver), _sim: None })
        }
        DriverKind::Dgt => {
            let port = b.port.clone().with_context(|| format!("boards.{role}.port is required"))?;
            let mut settings = DgtSettings::new(port);
            settings.baud = b.baud;
            Some(RunningBoard { role, driver: Driver::Dgt(DgtDriver::spawn(settings)), _sim: None })
        }
        DriverKind::Sim => {
            let (sim, driver) = start_sim(role, b, settle_ms, work_dir)?;
            Some(RunningBoard { role, driver: Driver::Pegs(driver), _sim: Some(sim) })
        }
    })
}

/// Feeds every board's driver events to the station until `stop` or `done()`.
///
/// Each turn takes everything waiting on every feed, puts it in the order of
/// arrival (the drivers' stamps) and gives it to the station, lets time pass
/// up to now, and closes the turn's batch for the journal writer; the
/// writer's acknowledgements deliver the events. A stall anywhere in a turn
/// delays decisions but cannot change them: they are taken at the stamps.
pub fn serve(
    mut station: Station,
    links: &[RunningBoard],
    commands: Option<&Receiver<CommandRequest>>,
    stop: &AtomicBool,
    mut done: impl FnMut() -> bool,
) -> Result<PipelineStats> {
    // Gamepads and foot switches are watched only when a button is mapped to one.
    // A simulated pad's feed (tests) stands in for gilrs.
    let sim_pad = station.gamepad_feed();
    let gamepads = (sim_pad.is_none() && station.uses_gamepads()).then(GamepadDriver::spawn);
    let feeds: Vec<Feed> = links
        .iter()
        .map(|l| match &l.driver {
            Driver::Pegs(d) => Feed::Pegs(l.role, d.events()),
            Driver::Dgt(d) => Feed::Dgt(l.role, d.events()),
        })
        .chain(gamepads.iter().map(|g| Feed::Gamepad(g.events())))
        .chain(sim_pad.map(Feed::Gamepad))
        .chain(station.braille_feed().map(Feed::Braille))
        .chain(station.heard_events().map(Feed::Heard))
        .chain(commands.cloned().map(Feed::Commands))
        .chain(station.engine_feed().map(Feed::Engine))
        .chain(station.speech_endings().into_iter().map(|(listener, rx)| Feed::Endings(listener, rx)))
        .collect();
    let durable = station.durable_feed();
    let marks: Vec<ReadMark> = links
        .iter()
        .map(|l| match &l.driver {
            Driver::Pegs(d) => d.read_mark(),
            Driver::Dgt(d) => d.read_mark(),
        })
        .collect();
    let mut arrivals: Vec<(Instant, Arrival)> = Vec::new();
    while !stop.load(Ordering::Relaxed) && !done() {
        {
            let mut select = Select::new();
            for feed in &feeds {
                match feed {
                    Feed::Pegs(_, rx) => select.recv(rx),
                    Feed::Dgt(_, rx) => select.recv(rx),
                    Feed::Gamepad(rx) => select.recv(rx),
                    Feed::Braille(rx) => select.recv(rx),
                    Feed::Heard(rx) => select.recv(rx),
                    Feed::Commands(rx) => select.recv(rx),
                    Feed::Engine(rx) => select.recv(rx),
                    Feed::Endings(_, rx) => select.recv(rx),
                };
            }
            select.recv(&durable);
            // Only readiness is wanted here: the turn below takes what is waiting.
            let _ = select.ready_timeout(station.timeout());
        }
        let turn = Instant::now();
        for ack in durable.try_iter() {
            station.on_durable(ack)?;
        }
        let now = Instant::now();
        for feed in &feeds {
            feed.drain(TURN_LIMIT, &mut arrivals)?;
        }
        // In the order of arrival; the sort is stable, so one feed keeps its own order.
        arrivals.sort_by_key(|(at, _)| *at);
        for (at, arrival) in arrivals.drain(..) {
            match arrival {
                Arrival::Pegs(role, event) => station.handle(role, event, at)?,
                Arrival::Dgt(role, event) => station.handle_dgt(role, event, at)?,
                Arrival::Gamepad(event) => station.handle_gamepad(event, at)?,
                Arrival::Braille(event) => station.handle_braille(event, at)?,
                Arrival::Heard(heard) => station.handle_heard(heard, at)?,
                Arrival::Command(request) => station.command(request, at)?,
                Arrival::Engine(event) => station.handle_engine(event, at)?,
                Arrival::Ended(listener, ended) => station.handle_ended(listener, ended),
            }
        }
        // Time passes only up to the moment the feeds were looked at, and not
        // past a read a driver has not handed over yet: an input read before
        // that is taken in the next turn, before any later time.
        let horizon = marks.iter().filter_map(ReadMark::in_flight).fold(now, Instant::min);
        station.tick_until(horizon)?;
        // Once his move is made, the engine is asked for its reply (practice).
        station.practice_turn();
        station.flush();
        station.turn_took(turn.elapsed());
    }
    station.tick()?;
    station.drain(Duration::from_secs(5))?;
    let stats = station.stats();
    tracing::info!(
        batches = stats.batches,
        longest_sync_ms = stats.longest_sync.as_secs_f64() * 1000.0,
        longest_turn_ms = stats.longest_turn.as_secs_f64() * 1000.0,
        refused = stats.refused,
        "decision pipeline"
    );
    Ok(stats)
}

/// Starts a simulated peg board playing the configured game, and a driver on it.
pub fn start_sim(
    role: BoardRole,
    b: &BoardConfig,
    settle_ms: u64,
    work_dir: &Path,
) -> Result<(SimPegBoard, PegBoardDriver)> {
    let (scans, _) = sim_schedule(b, settle_ms)?;
    let link = b.port.clone().unwrap_or_else(|| work_dir.join(format!("sim-{role}-pegboard")));
    let sim = SimPegBoard::start(SimOptions {
        speed: b.speed,
        wait_for_station: true,
        ..SimOptions::new(link.clone())
    })?;
    sim.play_scans(scans);
    let driver = PegBoardDriver::spawn(SerialSettings { path: link, baud: b.baud });
    Ok((sim, driver))
}

/// How long the simulated hands think between moves, sim ms.
const SIM_THINK_MS: u64 = 2000;

/// What a simulated board's hands do with its game: the scans, and when
/// they press the clock (with the side that moved).
type SimSchedule = (Vec<station_sim::pegboard::TimedScan>, Vec<(u64, shakmaty::Color)>);

/// The schedule of the game a simulated board plays (see [`sim_game`]).
fn sim_schedule(b: &BoardConfig, settle_ms: u64) -> Result<SimSchedule> {
    let game = sim_game(b)?;
    Ok(station_sim::games::schedule_with_lever(
        game.start(),
        game.moves(),
        b.noise_seed,
        SIM_THINK_MS,
        settle_ms,
        b.speed,
    ))
}

/// The game a simulated board plays: its PGN's, or the famous game.
fn sim_game(b: &BoardConfig) -> Result<station_core::Game> {
    Ok(match &b.pgn {
        Some(path) => {
            let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let games = station_core::pgn::read_games(&bytes);
            games
                .into_iter()
                .nth(b.game - 1)
                .with_context(|| format!("{} has no game {}", path.display(), b.game))?
                .game
        }
        None => crate::famous_game::famous_game().game,
    })
}

/// `[boards.*] lever` (sim only): the simulated hand presses the clock
/// (board button 0) after each move of its own player, on the timeline of
/// the board's schedule (the blind board's player is `[game] blind_color`).
pub fn start_sim_lever(link: &RunningBoard, b: &BoardConfig, config: &Config) -> Result<()> {
    let Some(sim) = link._sim.as_ref().filter(|_| b.lever) else { return Ok(()) };
    let player = if link.role == BoardRole::Blind { config.blind_color() } else { !config.blind_color() };
    let (_, presses) = sim_schedule(b, config.game.settle_ms)?;
    sim.play_lever(presses.into_iter().filter(|&(_, side)| side == player).map(|(at, _)| at).collect());
    Ok(())
}
