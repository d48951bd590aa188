//! `station demo --practice` (issue 26): a practice game on a simulated peg
//! board. The simulated hands play White with the moves a second engine at
//! its weakest level chooses; Stockfish answers as Black through the station
//! (its move entered once his move is made, said to him); the hands execute
//! each answer on the peg board, which the station checks.

use crate::config::{Config, DEFAULT_ENGINE, OpponentSettings};
use crate::demo_options::{DemoOptions, start_station, voice_packs};
use crate::journal_file::JournalDir;
use crate::opponent::{Opponent, position_of};
use crate::run::{Driver, RunningBoard, serve, stop_flag};
use anyhow::{Context, Result, bail};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};
use station_core::event::PlayedMove;
use station_core::{BoardRole, Event, Game};
use station_engine::{EngineDriver, EngineEvent, EngineKind, EngineRequest, SearchLimit, Strength, Timeouts};
use station_serial::pegboard::{PegBoardDriver, SerialSettings};
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::occupancy_after;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The demo's length: the game ends sooner by mate or stalemate.
const PLIES: usize = 40;

/// Plays the practice demo and prints it.
pub fn demo_practice(opts: DemoOptions) -> Result<()> {
    if !std::path::Path::new(DEFAULT_ENGINE).is_file() {
        bail!("{DEFAULT_ENGINE} is missing: scripts/setup installs Debian's stockfish");
    }
    let work = std::env::temp_dir().join(format!("annexd-practice-{}", std::process::id()));
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let journal_dir = opts.journal_dir.clone().unwrap_or_else(|| work.join("journal"));
    let link = work.join("pegboard");
    println!(
        "Annex D station practice demo: simulated hands (White, a weakest-level engine) against Stockfish (Black)"
    );
    println!("simulated peg board on {} (a real pseudo-terminal), speed ×{}", link.display(), opts.speed);
    // The hands start when the station first asks (a loaded machine may open the port late).
    // They move as hands do (speed 1): `--speed` shortens only their thinking,
    // since a captured peg swapped for the capturing one in a fifth of the
    // time no hand takes reads as a flicker of the sensor, not a move.
    let sim = SimPegBoard::start(SimOptions {
        speed: 1.0,
        wait_for_station: true,
        ..SimOptions::new(link.clone())
    })?;
    let driver = PegBoardDriver::spawn(SerialSettings { path: link.clone(), baud: 115_200 });
    let links = vec![RunningBoard { role: BoardRole::Blind, driver: Driver::Pegs(driver), _sim: None }];
    let mut config = Config::default();
    config.voice.language = opts.lang.clone();
    config.audio.private.language = opts.lang.clone();
    config.console.mirror_language = opts.lang.clone();
    config.audio.packs_dir = voice_packs();
    // His board is the simulated one (a config without it would be a game without a board).
    config.boards.blind = Some(crate::config::BoardConfig::pegboard(link.clone()));
    config.tags.white = Some("Simulated hands".into());
    let opponent = OpponentSettings {
        elo: Some(1350),
        move_time_ms: Some(300),
        ..OpponentSettings::new(DEFAULT_ENGINE)
    };
    config.opponent = Some(opponent.clone());
    // The engine first, so that the game's tag names it (the game starts once the hands set up).
    let (engine, first) = Opponent::start(&opponent);
    engine.name_its_side(first.as_ref(), &mut config);
    let (mut station, commands, server) = start_station(&opts, config, JournalDir::open(&journal_dir)?)?;
    station.attach_opponent((engine, first))?;

    let (moves_tx, moves_rx) = unbounded();
    station.observe(move |e| {
        if let Some(line) = crate::demo::describe(e) {
            println!("{line}");
        }
        if let Event::GameMove { ply, uci, .. } = e {
            let _ = moves_tx.send((*ply, uci.clone()));
        }
    });
    let done = Arc::new(AtomicBool::new(false));
    let finished = Arc::clone(&done);
    let hands = std::thread::Builder::new().name("demo-hands".into()).spawn(move || {
        let result = play_white(&sim, &moves_rx, opts.speed);
        finished.store(true, Ordering::Relaxed);
        result
    })?;
    let stop = stop_flag()?;
    let seen = Arc::clone(&done);
    serve(station, &links, Some(&commands), &stop, move || seen.load(Ordering::Relaxed))?;
    drop(server);
    let played = hands.join().map_err(|_| anyhow::anyhow!("the simulated hands stopped"))??;
    println!("journal: {}", journal_dir.display());
    println!("{} plies played; every answer of the engine executed on the peg board", played.ply());
    Ok(())
}

/// The hands: White's moves from the weakest engine, Black's from the station; returns the game.
fn play_white(sim: &SimPegBoard, moves: &Receiver<(usize, PlayedMove)>, speed: f64) -> Result<Game> {
    let mut hands = Hands::new(None);
    let show = |occ| sim.play_scans(vec![TimedScan { at_ms: 0, occupancy: occ }]);
    show(Chess::default().board().occupied());
    let weak =
        EngineDriver::spawn(EngineKind::Uci { path: DEFAULT_ENGINE.into(), timeouts: Timeouts::default() });
    let mut game = Game::default();
    let wait_ms = (60_000.0 / speed.max(0.1)) as u64;
    while game.ply() < PLIES && !game.position().is_game_over() {
        let mv = if game.position().turn() == shakmaty::Color::White {
            let mv = choose(&weak, &game)?;
            play(sim, &mut hands, game.position(), &mv, speed);
            mv
        } else {
            // The station's answer, executed by the hands as said.
            let said = next_move(moves, game.ply() + 1, wait_ms)?;
            let mv = said.to_move(game.position()).with_context(|| format!("`{said}` is no move here"))?;
            play(sim, &mut hands, game.position(), &mv, speed);
            mv
        };
        game.push(mv);
        // White's move is taken once the station decided it.
        if game.position().turn() == shakmaty::Color::Black {
            next_move(moves, game.ply(), wait_ms)?;
        }
    }
    // The last move settles before the station stops.
    std::thread::sleep(Duration::from_millis(1500));
    Ok(game)
}

/// `mv` made by the hands after a thought of 800 ms and followed by a rest of
/// 400 ms, both shortened `speed` times (at ×5 the next move begins about a
/// quarter of a second after this one's placement: quick hands, which the
/// station must read without waiting for them).
fn play(sim: &SimPegBoard, hands: &mut Hands, pos: &Chess, mv: &Move, speed: f64) {
    let scaled = |ms: f64| (ms / speed.max(0.1)) as u64;
    let mut now = 0;
    let mut scans = Vec::new();
    hands.think(pos.board().occupied(), scaled(800.0), &mut now, &mut scans);
    hands.play(pos, mv, &mut now, &mut scans);
    hands.think(occupancy_after(pos, mv), scaled(400.0), &mut now, &mut scans);
    sim.play_scans(scans);
    sim.wait_idle();
}

/// The station's move of `ply` (the last one said for it).
fn next_move(moves: &Receiver<(usize, PlayedMove)>, ply: usize, wait_ms: u64) -> Result<PlayedMove> {
    loop {
        match moves.recv_timeout(Duration::from_millis(wait_ms)) {
            Ok((p, uci)) if p == ply => return Ok(uci),
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => bail!("no move {ply} from the station"),
            Err(RecvTimeoutError::Disconnected) => bail!("the station stopped"),
        }
    }
}

/// White's move, from the engine at its weakest.
fn choose(weak: &EngineDriver, game: &Game) -> Result<Move> {
    let id = game.ply() as u64;
    weak.send(EngineRequest::Search {
        id,
        position: position_of(game),
        limit: SearchLimit::MoveTime(50),
        strength: Strength { elo: Some(100) },
    });
    loop {
        match weak.events().recv_timeout(Duration::from_secs(30))?.event {
            EngineEvent::BestMove { id: i, uci, .. } if i == id => {
                return Ok(UciMove::from_ascii(uci.as_bytes())?.to_move(game.position())?);
            }
            _ => {}
        }
    }
}
