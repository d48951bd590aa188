//! `station run`: the daemon's wiring (`crate::run` in this crate). The loop,
//! the boards and the pipeline are station-app's ([`serve`]); here the web
//! console and the hall's publisher are started around them.

use crate::config::Config;
use crate::event_sink::EventSink;
use crate::hub::Hub;
use crate::journal_file::JournalDir;
use crate::station::Station;
use crate::web::{WebConfig, WebServer};
use anyhow::{Context, Result};
use station_core::BoardRole;
use std::path::PathBuf;

// The loop and the devices, under the paths the commands name them by.
pub use station_app::run::{
    Driver, RunningBoard, new_token, open_board, open_braille, serve, start_sim_lever, stop_flag,
};

/// `station run` arguments.
pub struct RunOptions {
    /// Config file.
    pub config: PathBuf,
    /// `--events PATH|-`.
    pub events: Option<String>,
    /// `--journal-dir DIR`.
    pub journal_dir: Option<PathBuf>,
    /// `--listen ADDR:PORT` (overrides `[console] listen`).
    pub listen: Option<String>,
    /// `--token TOKEN` (overrides `[console] token`).
    pub token: Option<String>,
}

/// Runs until SIGINT or SIGTERM.
pub fn run(opts: RunOptions) -> Result<()> {
    let config = Config::load(&opts.config)?;
    run_config(config, opts)
}

/// [`run`] with a config already read (`station practice` builds one).
pub fn run_config(mut config: Config, opts: RunOptions) -> Result<()> {
    let dir = opts
        .journal_dir
        .clone()
        .or_else(|| config.journal.dir.clone())
        .unwrap_or_else(|| PathBuf::from(crate::config::DEFAULT_JOURNAL_DIR));
    let journals = JournalDir::take(&dir)?;
    let sink = EventSink::open(opts.events.as_deref())?;
    let stop = stop_flag()?;
    let mut links = Vec::new();
    for (role, board) in
        [(BoardRole::Blind, &config.boards.blind), (BoardRole::Mirror, &config.boards.mirror)]
    {
        if let Some(b) = board
            && let Some(link) = open_board(role, b, config.game.settle_ms, &dir)?
        {
            links.push(link);
        }
    }
    // Once every board runs: two simulated boards start their games together.
    for link in &links {
        let board = if link.role == BoardRole::Blind { &config.boards.blind } else { &config.boards.mirror };
        if let Some(b) = board {
            start_sim_lever(link, b, &config)?;
        }
    }
    if links.is_empty() {
        tracing::warn!("no sensed board configured: the station waits for a signal");
    }
    // The console's pre-round check runs on the file this station runs.
    let doctor = opts.config.is_file().then(|| crate::web::DoctorSource {
        config: opts.config.clone(),
        journal_dir: opts.journal_dir.clone(),
    });
    let web = WebOptions { listen: opts.listen.clone(), token: opts.token.clone(), doctor };
    let (hub, commands) = Hub::new();
    let server = start_web(&config, &web, hub.clone())?;
    let station_hall = config.hall.clone();
    let braille = config.braille.clone();
    // The engine starts first: a game that begins at once names it on its side.
    let opponent = config.opponent.as_ref().map(crate::opponent::Opponent::start);
    if let Some((engine, first)) = &opponent {
        engine.name_its_side(first.as_ref(), &mut config);
    }
    let mut station = Station::start(config, journals, sink)?;
    if let Some(started) = opponent {
        station.attach_opponent(started)?;
    }
    for link in &links {
        if let Driver::Dgt(d) = &link.driver {
            station.attach_dgt_clock(d.commands());
        }
    }
    station.enable_voices()?;
    station.enable_listening()?;
    station.attach_hub(hub);
    if let Some(display) = open_braille(&braille) {
        station.attach_braille(display);
    }
    if let Some(settings) = &station_hall {
        let console = server.as_ref().map(|s| format!("http://{}/console", s.addr()));
        station.subscribe(Box::new(crate::hall::publish::HallPublisher::start(settings, &dir, console)?));
    }
    let result = serve(station, &links, Some(&commands), &stop, || false);
    drop(server);
    result.map(|_| ())
}

/// `--listen` and `--token` of `run` and `demo`.
pub struct WebOptions {
    /// Address and port.
    pub listen: Option<String>,
    /// Operator token.
    pub token: Option<String>,
    /// The config the console's pre-round check runs on (`None`: a demo,
    /// whose config no file holds).
    pub doctor: Option<crate::web::DoctorSource>,
}

/// Starts the console, mirror and player pages' server and prints where each
/// is (and the token).
/// A port that is taken does not stop the station: the game is followed and
/// journaled all the same, and the console is reported missing.
pub fn start_web(config: &Config, opts: &WebOptions, hub: Hub) -> Result<Option<WebServer>> {
    let listen: std::net::SocketAddr = match &opts.listen {
        Some(listen) => listen.parse().with_context(|| format!("`{listen}` is not ADDRESS:PORT"))?,
        None => config.console.listen,
    };
    // A config's blank token is refused when it is read; a flag's here, in words.
    if opts.token.as_deref().is_some_and(|t| t.trim().is_empty()) {
        anyhow::bail!(
            "--token: the operator token is empty or only spaces: give one (letters and digits), or leave \
             the flag out and the station makes one"
        );
    }
    let token = opts.token.clone().or_else(|| config.console.token.clone()).unwrap_or_else(new_token);
    let server = match crate::web::start_with_doctor(
        WebConfig { listen, token: token.clone(), allow_remote: config.console.allow_remote },
        crate::web::Limits::for_this_process(),
        hub,
        opts.doctor.clone(),
    ) {
        Ok(server) => server,
        Err(e @ crate::web::WebError::Bind { .. }) => {
            tracing::error!(error = %e, "the console and mirror are not available; the game goes on");
            eprintln!("station: {e}; the console and mirror are not available, the game goes on");
            return Ok(None);
        }
        Err(e) => return Err(e.into()),
    };
    let addr = server.addr();
    println!("console: http://{addr}/console  (operator token: {token})");
    println!("mirror:  http://{addr}/mirror");
    println!("player:  http://{addr}/player");
    Ok(Some(server))
}
