//! `station demo --rules draughts`: a shared international draughts game
//! played by simulated hands on two simulated 10×10 peg boards (two blind
//! players, VIII.1.3): each move made on its player's board and executed on
//! the other (VIII.2.4), through real pseudo-terminals and the real serial
//! driver into the station; moves said by number, the console live.

use crate::config::Config;
use crate::demo_options::{DemoOptions, is_alarm, start_station, voice_packs};
use crate::journal_file::JournalDir;
use crate::run::{Driver, RunningBoard, serve, stop_flag};
use anyhow::{Context, Result, bail};
use station_core::draughts::pdn::{PdnGame, read_games};
use station_core::draughts::{DraughtsPath, Position, Variant};
use station_core::event::Listener;
use station_core::{BoardRole, Event};
use station_serial::pegboard::{PegBoardDriver, SerialSettings};
use station_sim::draughts_hands::DraughtsHands;
use station_sim::hand_move;
use station_sim::pegboard::hands::TimedScan;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use std::cell::RefCell;
use std::rc::Rc;

/// The demo's game, embedded so that the binary plays it anywhere: the
/// shortest game with a king of the repository's self-play collection
/// (`tests/data/draughts/selfplay-international.pdn`, round 91, 48 plies).
const DEMO_GAME: &str = include_str!("demo_draughts.pdn");

/// The embedded demo game, read.
fn demo_game() -> Result<PdnGame> {
    read_games(DEMO_GAME)?.into_iter().next().context("the embedded draughts demo game is empty")
}

/// Both boards' scans: each move on its owner's board (White's on the first),
/// then executed on the other.
fn schedules(game: &PdnGame, seed: u64, noise: bool, pause_ms: u64) -> [Vec<TimedScan>; 2] {
    let positions = game.positions();
    let mut hands = [DraughtsHands::new(50, seed, noise), DraughtsHands::new(50, seed ^ 0x5eed, noise)];
    let mut occ = [positions[0].occupied(); 2];
    let mut out: [Vec<TimedScan>; 2] = Default::default();
    for (b, o) in out.iter_mut().zip(occ) {
        b.push(TimedScan { at_ms: 0, occupancy: shakmaty::Bitboard(o) });
    }
    // The boards show the initial position long enough to start the game first.
    let mut t = 2000 + 2 * pause_ms;
    for (i, mv) in game.moves.iter().enumerate() {
        let hm = hand_move(&positions[i], mv);
        let owner = i % 2;
        for (k, b) in [owner, 1 - owner].into_iter().enumerate() {
            let (scans, end) = hands[b].play(occ[b], &hm, t + if k == 0 { 0 } else { 400 });
            occ[b] = scans.last().map_or(occ[b], |s| s.1);
            out[b].extend(
                scans.iter().map(|&(at_ms, o)| TimedScan { at_ms, occupancy: shakmaty::Bitboard(o) }),
            );
            t = end;
        }
        t += pause_ms;
    }
    out
}

/// Plays the draughts demo game and prints it.
pub fn demo_draughts(opts: DemoOptions) -> Result<()> {
    if opts.braille {
        anyhow::bail!("--braille shows the chess demo only (not --rules draughts)");
    }
    let game = demo_game()?;
    let work = std::env::temp_dir().join(format!("annexd-draughts-demo-{}", std::process::id()));
    std::fs::create_dir_all(&work).with_context(|| format!("cannot create {}", work.display()))?;
    let journal_dir = opts.journal_dir.clone().unwrap_or_else(|| work.join("journal"));
    println!(
        "Annex D station draughts demo: {} plies of a self-play game on two peg boards",
        game.moves.len()
    );
    // Between two moves on one board the hand rests well beyond the settle time (sim time).
    let settle = Config::default().game.settle_ms;
    let pause = 1200 + (settle as f64 * opts.speed * 2.0) as u64;
    let [blind_scans, mirror_scans] = schedules(&game, opts.noise.unwrap_or(7), opts.noise.is_some(), pause);
    let initial = shakmaty::Bitboard(Position::initial(Variant::International).occupied());
    let mut sims = Vec::new();
    let mut links = Vec::new();
    let mut config = Config::default();
    for (role, scans) in [(BoardRole::Blind, blind_scans), (BoardRole::Mirror, mirror_scans)] {
        let link = work.join(format!("pegboard-{role}"));
        let sim = SimPegBoard::start(SimOptions {
            speed: opts.speed,
            initial,
            draughts50: true,
            ..SimOptions::new(link.clone())
        })?;
        println!("simulated 10×10 peg board ({role}) on {}", link.display());
        let board = crate::config::BoardConfig::pegboard(link.clone());
        match role {
            BoardRole::Blind => config.boards.blind = Some(board),
            BoardRole::Mirror => config.boards.mirror = Some(board),
        }
        let driver = PegBoardDriver::spawn(SerialSettings { path: link, baud: 115_200 });
        links.push(RunningBoard { role, driver: Driver::Pegs(driver), _sim: None });
        sims.push((sim, scans));
    }
    config.game.rules = crate::config::GameRules::Draughts;
    config.voice.language = opts.lang.clone();
    config.audio.private.language = opts.lang.clone();
    config.console.mirror_language = opts.lang.clone();
    // FMJD II.6.1.5: 80 minutes plus one minute a move.
    config.clock.time_control =
        Some(station_core::draughts::time_controls::FmjdTimeControl::Basic.time_control());
    config.clock.auto_press = true;
    config.audio.packs_dir = voice_packs();
    let (mut station, commands, server) = start_station(&opts, config, JournalDir::take(&journal_dir)?)?;
    for (sim, scans) in &sims {
        sim.play_scans(scans.clone());
    }
    let played = Rc::new(RefCell::new(Vec::<DraughtsPath>::new()));
    let over = Rc::new(RefCell::new(false));
    let (seen, ended) = (Rc::clone(&played), Rc::clone(&over));
    let alarms = Rc::new(std::cell::Cell::new(0usize));
    let heard = Rc::clone(&alarms);
    station.observe(move |e| {
        heard.set(heard.get() + usize::from(is_alarm(e)));
        print_event(e, &seen, &ended);
    });
    let stop = stop_flag()?;
    let total = game.moves.len();
    let counted = Rc::clone(&played);
    let finished = Rc::clone(&over);
    serve(station, &links, Some(&commands), &stop, move || {
        counted.borrow().len() >= total || *finished.borrow()
    })?;
    drop(sims);
    drop(server);
    let expected: Vec<DraughtsPath> =
        game.moves.iter().map(|m| DraughtsPath::of_move(m, Variant::International)).collect();
    let got = played.borrow().clone();
    println!("journal: {}", journal_dir.display());
    if got != expected[..got.len().min(expected.len())] || got.is_empty() {
        bail!("the station's record differs from the game: {} of {} moves", got.len(), expected.len());
    }
    println!(
        "{} moves sensed on two boards and recorded; `station export --pdn --journal-dir {}`, alarms {}",
        got.len(),
        journal_dir.display(),
        alarms.get()
    );
    Ok(())
}

/// Prints one event of the draughts demo; keeps the moves played and whether the game ended.
fn print_event(e: &Event, seen: &RefCell<Vec<DraughtsPath>>, ended: &RefCell<bool>) {
    match e {
        Event::GameStarted { .. } => println!("game started: both boards show the initial position"),
        Event::GameMove { ply, pdn: Some(pdn), .. } => {
            let dots = if ply % 2 == 1 { "." } else { "..." };
            println!("{}{dots} {pdn}", ply.div_ceil(2));
            let mut moves = seen.borrow_mut();
            moves.truncate(ply - 1);
            moves.push(pdn.clone());
        }
        Event::Announcement { listener, text, .. } if *listener == Listener::Private => {
            println!("    » {text}")
        }
        Event::Irregularity { board, article, text, .. } => println!("  {board} board ({article}): {text}"),
        Event::GameOver { result, reason, .. } => {
            println!("game over: {result} ({reason})");
            *ended.borrow_mut() = true;
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_game_reads_and_makes_a_king() {
        let game = demo_game().unwrap();
        assert_eq!(game.moves.len(), 48);
        assert!(game.moves.iter().any(|m| m.promotes), "the demo shows a new king");
    }
}
