//! `station demo`: the main job on simulated hardware. A famous game is played
//! by simulated hands on a simulated peg board, through a real pseudo-terminal
//! and the real serial driver, into the station; every move is printed.

use crate::config::Config;
use crate::demo_options::{DemoOptions, is_alarm, start_station, voice_packs};
use crate::famous_game::famous_game;
use crate::journal_file::JournalDir;
use crate::run::{Driver, RunningBoard, serve, stop_flag};
use crate::station::Station;
use anyhow::{Context, Result, bail};
use station_core::BoardRole;
use station_core::Event;
use station_core::event::{Listener, PlayedMove};
use station_serial::dgt::{DgtDriver, DgtSettings};
use station_serial::pegboard::{PegBoardDriver, SerialSettings};
use station_sim::braille::SimBrailleServer;
use station_sim::dgt::{DgtEmulator, EmulatorOptions};
use station_sim::games::Fault;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use std::cell::RefCell;
use std::rc::Rc;

/// Plays the demo game and prints it.
pub fn demo(opts: DemoOptions) -> Result<()> {
    let famous = famous_game();
    let work = std::env::temp_dir().join(format!("annexd-demo-{}", std::process::id()));
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let journal_dir = opts.journal_dir.clone().unwrap_or_else(|| work.join("journal"));
    let link = work.join("pegboard");
    let tag = |k: &str| famous.tags.get(k).cloned().unwrap_or_default();
    println!("Annex D station demo: {} – {}, {} {}", tag("White"), tag("Black"), tag("Site"), tag("Date"));
    println!("simulated peg board on {} (a real pseudo-terminal), speed ×{}", link.display(), opts.speed);

    let settle = Config::default().game.settle_ms;
    // His own board plays the game as a careful hand does (issue 32: a demo
    // raises no alarm); the two-board demo shows the sighted player's slip
    // on his DGT board and how it is put right.
    let fault = opts.mirror_dgt.then_some(Fault::WrongExecution(19));
    let (scans, updates) = station_sim::games::two_boards(
        famous.game.start(),
        famous.game.moves(),
        shakmaty::Color::White,
        1500,
        settle,
        opts.speed,
        fault,
        opts.noise,
    );
    // One board: the hand starts when the station first asks, so a loaded
    // machine that opens the port late still sees the start position. With the
    // DGT board both schedules share one timeline and start together.
    let sim = SimPegBoard::start(SimOptions {
        speed: opts.speed,
        wait_for_station: !opts.mirror_dgt,
        ..SimOptions::new(link.clone())
    })?;
    let driver = PegBoardDriver::spawn(SerialSettings { path: link, baud: 115_200 });
    let mut links = vec![RunningBoard { role: BoardRole::Blind, driver: Driver::Pegs(driver), _sim: None }];
    let emulator = if opts.mirror_dgt {
        let dgt_link = work.join("dgt");
        let emulator = DgtEmulator::start(EmulatorOptions {
            speed: opts.speed,
            ..EmulatorOptions::new(dgt_link.clone())
        })?;
        println!("simulated DGT board on {} (the sighted player's)", dgt_link.display());
        links.push(RunningBoard {
            role: BoardRole::Mirror,
            driver: Driver::Dgt(DgtDriver::spawn(DgtSettings::new(dgt_link))),
            _sim: None,
        });
        Some(emulator)
    } else {
        None
    };
    let mut config = Config::default();
    config.voice.language = opts.lang.clone();
    config.audio.private.language = opts.lang.clone();
    config.console.mirror_language = opts.lang.clone();
    // His board is the simulated one (a config without it would be a game without a board).
    config.boards.blind = Some(crate::config::BoardConfig::pegboard(work.join("pegboard")));
    config.clock.time_control = Some("5400+30".parse()?);
    config.clock.auto_press = true;
    config.audio.packs_dir = voice_packs();
    if opts.mirror_dgt {
        config.boards.mirror = Some(crate::config::BoardConfig {
            driver: crate::config::DriverKind::Dgt,
            baud: 9600,
            ..crate::config::BoardConfig::pegboard(work.join("dgt"))
        });
    }
    let (mut station, commands, server) = start_station(&opts, config, JournalDir::take(&journal_dir)?)?;
    let braille = if opts.braille { Some(SimDisplay::start(&work, &mut station)?) } else { None };
    // Both boards start their hands together, once the station listens.
    sim.play_scans(scans);
    if let Some(e) = &emulator {
        e.play_updates(updates);
    }

    let played = Rc::new(RefCell::new(Vec::<PlayedMove>::new()));
    let seen = Rc::clone(&played);
    let alarms = Rc::new(std::cell::Cell::new(0usize));
    let heard = Rc::clone(&alarms);
    station.observe(move |e| {
        if let Some(line) = describe(e) {
            println!("{line}");
        }
        heard.set(heard.get() + usize::from(is_alarm(e)));
        if let Event::GameMove { ply, uci, .. } = e {
            let mut moves = seen.borrow_mut();
            moves.truncate(ply - 1);
            moves.push(uci.clone());
        }
    });
    let stop = stop_flag()?;
    let total = famous.moves().len();
    let counted = Rc::clone(&played);
    serve(station, &links, Some(&commands), &stop, move || counted.borrow().len() >= total)?;
    drop(sim);
    drop(emulator);
    drop(server);
    drop(braille);

    let expected: Vec<PlayedMove> = famous.moves().iter().map(|m| famous.game.played(*m).into()).collect();
    let got = played.borrow().clone();
    println!("journal: {}", journal_dir.display());
    if got != expected {
        bail!("the station's record differs from the game: {} of {} moves", got.len(), expected.len());
    }
    println!(
        "all {} moves sensed and recorded; result of the game: {}, alarms {}",
        total,
        tag("Result"),
        alarms.get()
    );
    Ok(())
}

/// The demo's simulated Braille display: a simulated brltty on a Unix socket
/// that the real BrlAPI client talks to; each new line it shows is printed.
struct SimDisplay {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    printer: Option<std::thread::JoinHandle<()>>,
}

impl SimDisplay {
    fn start(work: &std::path::Path, station: &mut Station) -> Result<SimDisplay> {
        use std::sync::atomic::{AtomicBool, Ordering};
        let socket = work.join("brlapi.sock");
        let server = SimBrailleServer::start(&socket, 40, None)
            .with_context(|| format!("cannot start the simulated brltty on {}", socket.display()))?;
        println!("simulated Braille display (40 cells) behind a simulated brltty on {}", socket.display());
        let settings =
            crate::config::BrailleSettings { enabled: true, socket: Some(socket), ..Default::default() };
        if let Some(display) = crate::run::open_braille(&settings) {
            station.attach_braille(display);
        }
        let stop = std::sync::Arc::new(AtomicBool::new(false));
        let flag = std::sync::Arc::clone(&stop);
        let printer = std::thread::Builder::new().name("demo-braille".into()).spawn(move || {
            let mut printed = 0;
            loop {
                let done = flag.load(Ordering::Relaxed);
                let lines = server.lines();
                for line in lines.iter().skip(printed) {
                    println!("    ⠿ {line}");
                }
                printed = lines.len();
                if done {
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        })?;
        Ok(SimDisplay { stop, printer: Some(printer) })
    }
}

impl Drop for SimDisplay {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(p) = self.printer.take() {
            let _ = p.join();
        }
    }
}

/// A line of text for an event, as the demo prints it.
pub(crate) fn describe(e: &Event) -> Option<String> {
    Some(match e {
        Event::GameStarted { .. } => "game started: the initial position is on the board".into(),
        Event::GameMove { ply, san, revised, .. } => {
            let number = ply.div_ceil(2);
            let dots = if ply % 2 == 1 { "." } else { "..." };
            let note = if *revised { " (revised)" } else { "" };
            format!("{number}{dots} {san}{note}")
        }
        Event::Move { board: BoardRole::Mirror, san, .. } => format!("  sighted player's board: {san}"),
        Event::Move { promotion_assumed: true, san, .. } => format!("  {san}: promotion piece assumed"),
        Event::MoveRevised { board, ply, san, replaces, .. } => {
            format!("  {board} board: move {ply} corrected to {san} (was {replaces})")
        }
        Event::BoardMismatch { reason, diff, .. } => {
            let squares: Vec<&str> = diff.iter().map(|d| d.text.as_str()).collect();
            format!("  board mismatch ({reason:?}): {}", squares.join("; "))
        }
        Event::BoardRestored { .. } => "  board agrees with the game again".into(),
        Event::BoardStatus { status, .. } => format!("  board {status:?}").to_lowercase(),
        Event::Announcement { listener, text, .. } if *listener == Listener::Private => {
            format!("    » {text}")
        }
        Event::Discrepancy { kind, board, fix, .. } => {
            let steps: Vec<String> = fix
                .iter()
                .flat_map(|f| {
                    f.steps.iter().map(move |s| {
                        format!(
                            "{} {} {}→{}",
                            f.board,
                            s.piece,
                            s.from.as_deref().unwrap_or("·"),
                            s.to.as_deref().unwrap_or("·")
                        )
                    })
                })
                .collect();
            let on = board.map_or("both boards".to_owned(), |b| format!("the {b} board"));
            format!("  discrepancy ({kind:?}) on {on}: {}", steps.join(", "))
        }
        Event::DiscrepancyResolved { .. } => "  discrepancy resolved: both boards show the game".into(),
        Event::GameOver { result, reason, .. } => format!("game over: {result} ({reason})"),
        _ => return None,
    })
}
