//! Practice against an engine (issue 26) through the real `station run`: a
//! simulated peg board on a pseudo-terminal whose hands play White (moves a
//! second, weakest-level engine chooses) and execute every reply of the real
//! Stockfish playing Black; a take-back, a hint, a wrongly executed engine
//! move corrected, a kill -9 resumed. And the engine's faults with the fake
//! UCI engines of `tests/engines/`: each named once, never an illegal move,
//! the game going on after the restart.
//!
//! The reply latency at three levels and the memory are measured beside the tests
//! (`engine_reply_latency_and_memory`, run by `benches/e2e_figures.rs`).

use serde_json::{Value, json};
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Chess, Move, Position};
use station_core::Game;
use station_core::pgn::read_games;
use station_engine::{
    EngineDriver, EngineEvent, EngineKind, EngineRequest, SearchLimit, SearchPosition, Strength, Timeouts,
};
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::occupancy_after;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Kill, RunningStation, export_pgn, of_type, pegboard_config, read_events, rss_kib, scratch, station_run,
    wait_board_status, wait_for, workspace,
};
use std::path::{Path, PathBuf};
use std::time::Duration;

const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;
const STOCKFISH: &str = "/usr/games/stockfish";
const TOKEN: &str = "practice-token";

fn config(dir: &Path, link: &Path, engine: &str, extra: &str) -> PathBuf {
    pegboard_config(
        dir,
        link,
        &format!(
            "\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n\
             [tags]\nevent = \"practice e2e\"\nwhite = \"Hands\"\n\n[voice]\nlanguage = \"de\"\n\n\
             [opponent]\nengine = \"{engine}\"\n{extra}\n"
        ),
    )
}

/// The simulated board and the hands on it.
struct Board {
    sim: SimPegBoard,
    hands: Hands,
}

impl Board {
    fn start(link: &Path) -> Board {
        let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(link.to_owned()) })
            .expect("simulated peg board");
        Board { sim, hands: Hands::new(None) }
    }

    fn show(&self, occ: Bitboard) {
        self.sim.play_scans(vec![TimedScan { at_ms: 0, occupancy: occ }]);
        self.sim.wait_idle();
    }

    /// The hands make `mv` in `pos` and rest.
    fn play(&mut self, pos: &Chess, mv: &Move) {
        let mut now = 0;
        let mut scans = Vec::new();
        self.hands.think(pos.board().occupied(), 300, &mut now, &mut scans);
        self.hands.play(pos, mv, &mut now, &mut scans);
        self.hands.think(occupancy_after(pos, mv), 600, &mut now, &mut scans);
        self.sim.play_scans(scans);
        self.sim.wait_idle();
    }

    /// Peg by peg from what the board shows to `target`: the extra pegs out, then the missing ones in.
    fn put_right(&mut self, target: Bitboard) {
        let mut occ = self.sim.occupancy();
        let mut scans = Vec::new();
        let mut at = 0;
        for sq in occ & !target {
            occ ^= Bitboard::from_square(sq);
            at += 150;
            scans.push(TimedScan { at_ms: at, occupancy: occ });
        }
        for sq in target & !occ {
            occ ^= Bitboard::from_square(sq);
            at += 150;
            scans.push(TimedScan { at_ms: at, occupancy: occ });
        }
        scans.push(TimedScan { at_ms: at + 800, occupancy: occ });
        self.sim.play_scans(scans);
        self.sim.wait_idle();
    }
}

/// White's hands choose with the weakest Stockfish (skill level 0).
struct WeakEngine(EngineDriver, u64);

impl WeakEngine {
    fn start() -> WeakEngine {
        let kind = EngineKind::Uci { path: STOCKFISH.into(), timeouts: Timeouts::default() };
        WeakEngine(EngineDriver::spawn(kind), 0)
    }

    fn choose(&mut self, game: &Game) -> Move {
        self.1 += 1;
        let moves = game.moves().iter().map(|m| game.uci(*m)).collect();
        self.0.send(EngineRequest::Search {
            id: self.1,
            position: SearchPosition { fen: None, moves, chess960: false },
            limit: SearchLimit::MoveTime(20),
            strength: Strength { elo: Some(100) },
        });
        let events = self.0.events();
        loop {
            match events.recv_timeout(Duration::from_secs(30)).expect("the weak engine answers").event {
                EngineEvent::BestMove { id, uci, .. } if id == self.1 => {
                    return UciMove::from_ascii(uci.as_bytes()).unwrap().to_move(game.position()).unwrap();
                }
                _ => {}
            }
        }
    }
}

/// What he says for an under-promotion ("g sieben nimmt f acht wird Turm"):
/// the piece a peg board cannot see. `None` for any other move.
fn under_promotion_words(mv: &Move) -> Option<String> {
    let role = mv.promotion().filter(|r| *r != shakmaty::Role::Queen)?;
    let piece = match role {
        shakmaty::Role::Rook => "Turm",
        shakmaty::Role::Bishop => "Läufer",
        _ => "Springer",
    };
    let rank = |sq: shakmaty::Square| if sq.rank() == shakmaty::Rank::Eighth { "acht" } else { "sieben" };
    let (from, to) = (mv.from()?, mv.to());
    let how = if mv.is_capture() { "nimmt" } else { "" };
    Some(format!(
        "{} {} {how} {} {} wird {piece}",
        from.file().char(),
        rank(from),
        to.file().char(),
        rank(to)
    ))
}

/// Events of `kind` after the first `from` events.
fn new_of(events: &Path, from: usize, kind: &str) -> Vec<Value> {
    read_events(events).into_iter().skip(from).filter(|e| e["type"] == kind).collect()
}

/// Waits until his board made (or executed) the move of `ply`, after the first `from` events.
fn board_move(events: &Path, from: usize, ply: usize) {
    wait_for(Duration::from_secs(30), &format!("his board's move of ply {ply}"), || {
        new_of(events, from, "move").iter().any(|e| e["ply"].as_u64() == Some(ply as u64)).then_some(())
    });
}

/// Waits for the `game_move` of `ply` after the first `from` events: its UCI.
fn game_move(events: &Path, from: usize, ply: usize) -> String {
    wait_for(Duration::from_secs(60), &format!("game_move of ply {ply}"), || {
        new_of(events, from, "game_move")
            .iter()
            .find(|e| e["ply"].as_u64() == Some(ply as u64))
            .map(|e| e["uci"].as_str().unwrap().to_owned())
    })
}

/// The agreed record the events imply: `game_move`s, take-backs and resumptions.
fn agreed_record(events: &[Value]) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for e in events {
        match e["type"].as_str().unwrap_or("") {
            "game_resumed" => {
                moves =
                    e["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect();
            }
            "game_started" => moves.clear(),
            "game_move" => {
                let ply = e["ply"].as_u64().unwrap() as usize;
                assert!(ply >= 1 && ply <= moves.len() + 1, "ply {ply} after {} moves: a gap", moves.len());
                moves.truncate(ply - 1);
                moves.push(e["uci"].as_str().unwrap().to_owned());
            }
            "taken_back" => moves.truncate(e["ply"].as_u64().unwrap() as usize - 1),
            _ => {}
        }
    }
    moves
}

fn count(events: &Path) -> usize {
    read_events(events).len()
}

fn start_station(cfg: &Path, journal: &Path, events: &Path) -> RunningStation {
    RunningStation::start(station_run(cfg, journal, Some(events)), TOKEN)
}

/// Once the station has its board, the start position set up on it; then the game started.
fn set_up(board: &Board, events: &Path) {
    wait_board_status(events);
    board.show(Chess::default().board().occupied());
    wait_started(events, 0);
}

fn wait_started(events: &Path, from: usize) {
    wait_for(Duration::from_secs(20), "game started", || {
        (!new_of(events, from, "game_started").is_empty()).then_some(())
    });
}

fn practice_said(events: &Path, from: usize) -> Vec<String> {
    new_of(events, from, "announcement")
        .iter()
        .filter(|e| e["about"] == "practice")
        .map(|e| e["text"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn forty_plies_against_stockfish_with_take_back_hint_wrong_execution_and_kill_9() {
    assert!(Path::new(STOCKFISH).is_file(), "scripts/setup installs Debian's stockfish");
    let dir = scratch("practice");
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let journal = dir.join("journal");
    let cfg = config(&dir, &link, STOCKFISH, "elo = 1350\nmove_time_ms = 100\n");
    let mut board = Board::start(&link);
    let mut station = start_station(&cfg, &journal, &events);
    set_up(&board, &events);
    let mut weak = WeakEngine::start();
    let mut game = Game::default();
    let mut engine_moves = 0;
    let mut his_moves = 0;
    let (mut took_back, mut hinted, mut corrected, mut killed) = (false, false, false, false);
    while game.ply() < 40 {
        if game.position().is_game_over() {
            break;
        }
        // His move.
        if his_moves == 6 && !hinted {
            let from = count(&events);
            let (status, answer) = station.spoken("Tipp");
            assert_eq!(status, 200, "{answer}");
            let hint = wait_for(Duration::from_secs(20), "the hint", || {
                practice_said(&events, from).into_iter().find(|t| t.starts_with("Tipp: "))
            });
            assert!(hint.len() > "Tipp: ".len(), "{hint}");
            hinted = true;
        }
        let from = count(&events);
        let mv = weak.choose(&game);
        if let Some(words) = under_promotion_words(&mv) {
            // The pegs cannot show the piece: he says it as he promotes.
            let (status, answer) = station.spoken(&words);
            assert_eq!(status, 200, "{words}: {answer}");
        }
        board.play(game.position(), &mv);
        let uci = game_move(&events, from, game.ply() + 1);
        assert_eq!(uci, game.uci(mv), "his move as made");
        game.push(mv);
        his_moves += 1;
        if his_moves == 12 && !killed {
            // kill -9 right after his move: the engine's reply comes after the restart.
            drop(station);
            let from = count(&events);
            station = start_station(&cfg, &journal, &events);
            let resumed = wait_for(Duration::from_secs(20), "game resumed", || {
                new_of(&events, from, "game_resumed").first().cloned()
            });
            assert!(resumed["ply"].as_u64().unwrap() as usize >= game.ply() - 1, "{resumed}");
            killed = true;
        }
        if game.position().is_game_over() {
            break;
        }
        // The engine's reply, entered once his move was made.
        let reply = game_move(&events, from, game.ply() + 1);
        let reply = UciMove::from_ascii(reply.as_bytes()).unwrap().to_move(game.position()).expect("legal");
        engine_moves += 1;
        let before = game.position().clone();
        if engine_moves == 8 && !corrected {
            // A wrong execution: another move of the engine's side; named square by square, put right.
            let wrong = before
                .legal_moves()
                .into_iter()
                .find(|m| *m != reply && !m.is_capture() && !m.is_castle() && m.promotion().is_none())
                .unwrap();
            let from = count(&events);
            board.play(&before, &wrong);
            let d = wait_for(Duration::from_secs(20), "the wrong execution named", || {
                new_of(&events, from, "discrepancy").first().cloned()
            });
            assert_eq!(d["board"], "blind", "{d}");
            board.put_right(before.board().occupied());
            board.play(&before, &reply);
            wait_for(Duration::from_secs(20), "the execution corrected", || {
                (!new_of(&events, from, "discrepancy_resolved").is_empty()).then_some(())
            });
            corrected = true;
        } else {
            let from = count(&events);
            board.play(&before, &reply);
            board_move(&events, from, game.ply() + 1);
        }
        game.push(reply);
        if his_moves == 9 && !took_back {
            // "zurücknehmen": his move and the engine's reply.
            let from = count(&events);
            let (status, answer) = station.spoken("zurücknehmen");
            assert_eq!(status, 200, "{answer}");
            assert_eq!(answer["result"]["taken_back"], 2, "{answer}");
            wait_for(Duration::from_secs(20), "two plies taken back", || {
                (new_of(&events, from, "taken_back").len() == 2).then_some(())
            });
            game.pop();
            game.pop();
            // His board back at the position before: the table takes it over
            // (his next move, below, is decided from there).
            board.put_right(game.position().board().occupied());
            assert!(new_of(&events, from, "discrepancy").is_empty());
            his_moves -= 1;
            took_back = true;
        }
    }
    assert!(took_back && hinted && corrected && killed);
    assert!(game.ply() >= 40 || game.position().is_game_over(), "{}", game.ply());
    // "Analyse": the moves where his evaluation dropped most, in his words.
    let from = count(&events);
    let (status, answer) = station.spoken("Analyse");
    assert_eq!(status, 200, "{answer}");
    let review = wait_for(Duration::from_secs(120), "the review", || {
        practice_said(&events, from).into_iter().find(|t| t.starts_with("Zug ") || t == "Keine groben Fehler")
    });
    assert!(review == "Keine groben Fehler" || review.contains(", besser war "), "{review}");
    drop(station);

    let ev = read_events(&events);
    // Every move of the record is legal, Black's came from the engine, each said once.
    let record = agreed_record(&ev);
    let played: Vec<String> = game.moves().iter().map(|m| game.uci(*m)).collect();
    assert_eq!(record, played);
    let entered: Vec<&Value> =
        of_type(&ev, "game_move").into_iter().filter(|e| e["by"] == "mirror").collect();
    assert!(entered.len() >= 20, "{} engine moves", entered.len());
    // Each engine move said once: one private move announcement before the
    // next move. His move and the engine's reply can reach the voices in one
    // batch (the reply decided before his move's batch was on disk): then
    // both are said after the reply, his first. After the kill the last move
    // at most is said again (when he had not heard it to the end), or the
    // last two when his move and the reply were said in that one batch, never
    // the game before it: after `game_resumed`, or after the first move the
    // restart decided when that came first.
    let private_move_words =
        |x: &Value| x["type"] == "announcement" && x["about"] == "move" && x["listener"] == "private";
    let window = |i: usize| {
        ev[i + 1..]
            .iter()
            .take_while(|x| x["type"] != "game_move" && x["type"] != "game_resumed")
            .filter(|x| private_move_words(x))
            .count()
    };
    let resumed = ev.iter().position(|e| e["type"] == "game_resumed").expect("resumed");
    let said_again = window(resumed);
    // The moves said in the last batch before the stop: those after its last move.
    let last_batch = ev[..resumed]
        .iter()
        .rev()
        .take_while(|x| x["type"] != "game_move")
        .filter(|x| private_move_words(x))
        .count();
    assert!(said_again <= last_batch.max(1), "{said_again} moves said again after the restart");
    let first_after_restart =
        ev[resumed..].iter().position(|e| e["type"] == "game_move").map(|p| p + resumed);
    let mut unsaid_before = 0;
    for (i, e) in ev.iter().enumerate().filter(|(_, e)| e["type"] == "game_move") {
        let said = window(i);
        let late_again = usize::from(Some(i) == first_after_restart && said_again == 0);
        if Some(i) == first_after_restart {
            // A move the stop left unsaid is the restart's to say again (above).
            unsaid_before = 0;
        }
        if e["by"] == "mirror" {
            let expected = 1 + unsaid_before;
            assert!(said == expected || said == expected + late_again, "engine move {e} said {said} times");
        }
        unsaid_before = if said == 0 { unsaid_before + 1 } else { 0 };
    }
    assert!(
        of_type(&ev, "device_status").iter().all(|e| e["device"] != "engine" || e["status"] == "connected")
    );

    // The game as PGN: the engine's name and level on its side.
    let out = export_pgn(&journal);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pgn = String::from_utf8(out.stdout).unwrap();
    let games = read_games(pgn.as_bytes());
    let last = games.last().unwrap();
    assert_eq!(last.moves(), game.moves(), "{pgn}");
    assert!(last.tags["Black"].starts_with("Stockfish") && last.tags["Black"].contains("Elo 1350"), "{pgn}");
    assert_eq!(last.tags["White"], "Hands");
}

/// A station on a fake engine: his e2e4, the fault, the restart, e7e5.
fn fault_goes_by(fault: &str, status: &str) {
    let dir = scratch(&format!("practice-{fault}"));
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let journal = dir.join("journal");
    let engine = workspace().join(format!("tests/engines/{fault}.sh"));
    let cfg = config(&dir, &link, &engine.to_string_lossy(), "elo = 1500\nmove_time_ms = 100\n");
    let mut board = Board::start(&link);
    let state = dir.join("engine-state");
    std::fs::create_dir_all(&state).unwrap();
    let log = std::fs::File::create(dir.join("station.log")).unwrap();
    let mut cmd = station_run(&cfg, &journal, Some(&events));
    cmd.env("FAKE_ENGINE_STATE", &state)
        .env("FAKE_ENGINE_MOVES", "e7e5 b8c6")
        .env("STATION_LOG", "warn,engine=debug")
        .args(["--listen", "127.0.0.1:0", "--token", TOKEN])
        .stdout(std::process::Stdio::piped())
        .stderr(log);
    let mut child = Kill::spawn(&mut cmd);
    let _base = station_tests::console_address(&mut child);
    set_up(&board, &events);
    let game = Game::default();
    let e4 = UciMove::from_ascii(b"e2e4").unwrap().to_move(game.position()).unwrap();
    board.play(game.position(), &e4);
    let reply = game_move(&events, 0, 2);
    child.end();
    assert_eq!(reply, "e7e5", "the move after the restart");
    let ev = read_events(&events);
    let faults: Vec<&Value> = of_type(&ev, "device_status")
        .into_iter()
        .filter(|e| e["device"] == "engine" && e["status"] != "connected")
        .collect();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0]["status"], status);
    let said = practice_said(&events, 0);
    assert_eq!(said.len(), 1, "named once: {said:?}");
    assert!(said[0].contains("Computergegner"), "{said:?}");
    // Never a move that is not legal: the record is e4 e5 and nothing else.
    assert_eq!(agreed_record(&ev), ["e2e4", "e7e5"]);
    // The strength settings reached the engine (its setoption lines at debug level).
    let log = std::fs::read_to_string(dir.join("station.log")).unwrap();
    assert!(log.contains("setoption name UCI_LimitStrength value true"), "{log}");
    assert!(log.contains("setoption name UCI_Elo value 1500"), "{log}");
}

#[test]
fn a_crashing_engine_is_named_once_and_restarted() {
    fault_goes_by("crash", "crashed");
}

#[test]
fn a_hanging_engine_is_named_once_and_restarted() {
    fault_goes_by("hang", "hung");
}

#[test]
fn an_engine_answering_garbage_is_named_once_and_restarted() {
    fault_goes_by("garbage", "garbage");
}

#[test]
fn an_illegal_engine_move_is_never_made() {
    fault_goes_by("illegal", "illegal_move");
}

#[test]
fn a_missing_engine_is_named_once_and_the_station_runs_on() {
    let dir = scratch("practice-missing");
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let cfg = config(&dir, &link, "/nonexistent/engine", "move_time_ms = 100\n");
    let mut board = Board::start(&link);
    let station = start_station(&cfg, &dir.join("journal"), &events);
    set_up(&board, &events);
    let game = Game::default();
    let e4 = UciMove::from_ascii(b"e2e4").unwrap().to_move(game.position()).unwrap();
    board.play(game.position(), &e4);
    game_move(&events, 0, 1);
    // Looked for again meanwhile (at once, at once, then after 0.5 s, 1 s, …): told once.
    std::thread::sleep(Duration::from_secs(3));
    let (status, answer) = station.command(&json!({"cmd": "practice", "action": "stronger"}));
    assert_eq!(status, 200, "{answer}");
    drop(station);
    let ev = read_events(&events);
    let missing = of_type(&ev, "device_status").into_iter().filter(|e| e["status"] == "missing").count();
    assert!(missing >= 3, "looked for again: {missing}");
    let said = practice_said(&events, 0);
    assert_eq!(said.iter().filter(|t| t.contains("nicht zu finden")).count(), 1, "{said:?}");
    assert_eq!(agreed_record(&ev), ["e2e4"], "no move without an engine");
}

/// The engine's reply latency (his `game_move` to the engine's, station
/// time) at three levels, and the memory of the station and its engine: a
/// measurement, run by `cargo bench -p station-tests --bench e2e_figures`.
#[allow(dead_code, reason = "a measurement: benches/e2e_figures.rs runs it")]
pub(crate) fn engine_reply_latency_and_memory() {
    let _alone = station_tests::alone();
    for (level, extra) in [("Elo 1350", "elo = 1350\n"), ("Elo 2000", "elo = 2000\n"), ("full strength", "")]
    {
        let dir = scratch("practice-latency");
        let link = dir.join("pegboard");
        let events = dir.join("events.jsonl");
        let cfg = config(&dir, &link, STOCKFISH, &format!("{extra}move_time_ms = 500\n"));
        let mut board = Board::start(&link);
        let mut child = Kill::spawn(
            station_run(&cfg, &dir.join("journal"), Some(&events))
                .args(["--listen", "127.0.0.1:0", "--token", TOKEN])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::null()),
        );
        let _ = station_tests::console_address(&mut child);
        set_up(&board, &events);
        let mut weak = WeakEngine::start();
        let mut game = Game::default();
        let mut latencies = Vec::new();
        while game.ply() < 20 && !game.position().is_game_over() {
            let from = count(&events);
            let mv = weak.choose(&game);
            board.play(game.position(), &mv);
            game_move(&events, from, game.ply() + 1);
            game.push(mv);
            if game.position().is_game_over() {
                break;
            }
            let reply = game_move(&events, from, game.ply() + 1);
            let ev = new_of(&events, from, "game_move");
            let t = |ply: usize| ev.iter().find(|e| e["ply"] == ply).unwrap()["t_ms"].as_u64().unwrap();
            latencies.push(t(game.ply() + 1) - t(game.ply()));
            let reply = UciMove::from_ascii(reply.as_bytes()).unwrap().to_move(game.position()).unwrap();
            let before = game.position().clone();
            let from = count(&events);
            board.play(&before, &reply);
            game.push(reply);
            if !game.position().is_game_over() {
                board_move(&events, from, game.ply());
            }
        }
        let station_kb = rss_kib(child.id());
        let engine_kb: u64 = std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .ok()
                    .and_then(|s| s.rsplit(')').next()?.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(child.id())
            })
            .map(rss_kib)
            .sum();
        child.end();
        latencies.sort_unstable();
        let median = latencies[latencies.len() / 2];
        eprintln!(
            "{level}: {} replies at move_time_ms 500, latency median {median} ms, max {} ms; \
             station RSS {station_kb} kB, engine RSS {engine_kb} kB",
            latencies.len(),
            latencies.last().unwrap()
        );
        let name = format!("practice, Stockfish at {level} (move_time_ms 500, {} replies)", latencies.len());
        station_tests::figure(&format!("{name}: reply latency median"), median as f64, "ms");
        station_tests::figure(&format!("{name}: reply latency max"), *latencies.last().unwrap() as f64, "ms");
        station_tests::figure(&format!("{name}: station RSS"), station_kb as f64, "kB");
        station_tests::figure(&format!("{name}: engine RSS"), engine_kb as f64, "kB");
    }
}
