//! Issue 18 through the real `station run`: a real game played on a
//! simulated peg board to move 25, then the blind player's buttons read the
//! record back (moves 20 to 25) and step through it like a tape, read a rank
//! and a file, and `silence` cuts a long answer short — measured in the audio
//! the station wrote through ALSA's file plugin; "schneller" twice makes the
//! same answer shorter, and stays so after a restart.

use shakmaty::Position;
use station_core::Game;
use station_core::pgn::read_games;
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Places, RunningStation, exported, of_type, peg_and_dgt_boards, pegboard_config, read_events, scratch,
    shared_pgn, station_bin, station_run, wait_board_status, wait_event, wait_for, write_config,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;
/// Plies played: Chandler - Kasparov 1976 up to 25.Rxc3.
const PLIES: usize = 49;
/// The rate the file plugin writes at (see `alsa_file_config`).
const RATE: usize = 22_050;

const TOKEN: &str = "record-test-token-5d1e";

/// `station run` with its private audio written to `raw` through ALSA's file plugin.
fn start_station(dir: &Path, config: &Path, events: &Path, raw: &Path) -> RunningStation {
    let mut cmd = station_run(config, &dir.join("journal"), Some(events));
    cmd.env("ALSA_CONFIG_PATH", alsa_file_config(dir, raw));
    RunningStation::start(cmd, TOKEN)
}

/// The first game of Kasparov.pgn (Chandler - Kasparov, Wattignies 1976).
fn real_game() -> Game {
    let bytes = std::fs::read(shared_pgn("games/Kasparov.pgn")).expect("shared PGN games");
    let game = read_games(&bytes).into_iter().next().expect("a game").game;
    assert!(game.ply() > PLIES);
    game
}

fn schedule(game: &Game, to: usize) -> Vec<TimedScan> {
    let mut hands = Hands::new(None);
    let mut now = 0;
    let at = |ply: usize| game.position_at(ply).unwrap();
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: at(0).board().occupied() }];
    for ply in 0..to {
        hands.think(at(ply).board().occupied(), 900, &mut now, &mut scans);
        hands.play(at(ply), &game.moves()[ply], &mut now, &mut scans);
    }
    hands.think(at(to).board().occupied(), 900, &mut now, &mut scans);
    scans
}

/// An ALSA configuration whose default device writes raw 16-bit mono at 22050 Hz to `raw`.
fn alsa_file_config(dir: &Path, raw: &Path) -> PathBuf {
    let path = raw.with_extension("conf");
    let _ = dir;
    std::fs::write(
        &path,
        format!(
            "pcm.!default {{ type plug; slave {{ pcm \"capture\"; format S16_LE; rate {RATE}; channels 1 }} }}\n\
             pcm.capture {{ type file; slave.pcm {{ type null }}; file \"{}\"; format \"raw\" }}\n",
            raw.display()
        ),
    )
    .unwrap();
    path
}

/// How the station words the game's moves (`station announce`), one a ply.
fn words(game: &Game, to: usize) -> Vec<String> {
    let ucis: Vec<String> = game.moves()[..to].iter().map(|m| game.uci(*m)).collect();
    let out = Command::new(station_bin()).args(["announce", "--lang", "de"]).args(&ucis).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

/// The private answers about `about` so far.
fn said(events: &Path, about: &str) -> Vec<String> {
    of_type(&read_events(events), "announcement")
        .iter()
        .filter(|a| a["listener"] == "private" && a["about"] == about)
        .map(|a| a["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

/// Presses board button `index` and waits for the `n`-th answer about `about`.
fn press(sim: &SimPegBoard, events: &Path, index: u8, about: &str, n: usize) -> String {
    sim.press_button(index);
    wait_for(Duration::from_secs(10), &format!("answer {n} about {about}"), || {
        said(events, about).get(n - 1).cloned()
    })
}

fn raw_len(raw: &Path) -> usize {
    std::fs::metadata(raw).map_or(0, |m| m.len() as usize) / 2
}

/// Waits until the station has said nothing for half a second (the device
/// stream stays open and is written with silence) and returns the samples
/// written so far.
fn wait_quiet(raw: &Path) -> usize {
    let started = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(250));
        let len = raw_len(raw);
        let last = last_loud(raw).unwrap_or(0);
        // Nothing written for a second: the device is not even open yet.
        if len.saturating_sub(last) > RATE / 2 || (len == 0 && started.elapsed() > Duration::from_secs(1)) {
            return len;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "the station never fell silent");
    }
}

fn last_loud(raw: &Path) -> Option<usize> {
    let bytes = std::fs::read(raw).unwrap_or_default();
    let samples: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    samples.iter().rposition(|s| s.unsigned_abs() > 300)
}

#[test]
fn moves_20_to_25_are_read_back_and_navigated_by_buttons_and_silence_cuts_an_answer() {
    let Places { dir, link, events, .. } = Places::new("record-run");
    let raw = dir.join("private.raw");
    let config = pegboard_config(
        &dir,
        &link,
        &format!(
            "\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n\
             [buttons]\nread_record = [\"blind:4\"]\nrecord_back = [\"blind:5\"]\nrecord_forward = [\"blind:6\"]\n\
             silence = [\"blind:7\"]\nread_rank = [\"blind:8\"]\nread_file = [\"blind:9\"]\n\n\
             [voice]\nlanguage = \"de\"\n\n[audio.private]\nvoices = [\"espeak\"]\n"
        ),
    );
    let game = real_game();
    let said_moves = words(&game, PLIES);
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(link.clone()) }).unwrap();
    let station = start_station(&dir, &config, &events, &raw);
    wait_board_status(&events);
    sim.play_scans(schedule(&game, PLIES));
    sim.wait_idle();
    wait_for(Duration::from_secs(30), "25 moves", || {
        (of_type(&read_events(&events), "game_move").len() == PLIES).then_some(())
    });
    wait_quiet(&raw);

    // The last five moves, 21 to 25, with their numbers and every word of each move.
    let record = press(&sim, &events, 4, "record", 1);
    assert!(
        record.starts_with("Zug einundzwanzig Sie ") && record.contains("Zug fünfundzwanzig Sie "),
        "{record}"
    );
    for (ply, words) in said_moves.iter().enumerate().skip(40) {
        assert!(record.contains(words.as_str()), "ply {} {words:?} not in {record:?}", ply + 1);
    }
    // Back like a tape: 20... f5, then 20.Qe4; forward again to 21.Qe1.
    let back = press(&sim, &events, 5, "record", 2);
    assert_eq!(back, format!("Zug zwanzig Gegner {}", said_moves[39]));
    let back = press(&sim, &events, 5, "record", 3);
    assert_eq!(back, format!("Zug zwanzig Sie {}", said_moves[38]));
    let forward = press(&sim, &events, 6, "record", 4);
    assert_eq!(forward, format!("Zug zwanzig Gegner {}", said_moves[39]));
    let forward = press(&sim, &events, 6, "record", 5);
    assert_eq!(forward, format!("Zug einundzwanzig Sie {}", said_moves[40]));
    // A rank and a file by button, from his side: rank one, then file a.
    let rank = press(&sim, &events, 8, "answer", 1);
    assert!(rank.starts_with("eins Anna leer, Bella Turm Sie"), "{rank}");
    let file = press(&sim, &events, 9, "answer", 2);
    assert!(file.starts_with("Anna eins bis zwei leer, drei Bauer Sie"), "{file}");
    wait_quiet(&raw);

    // `silence` while the record is being read: the audio stops at once.
    let before = raw_len(&raw);
    press(&sim, &events, 4, "record", 6);
    wait_for(Duration::from_secs(10), "the record being said", || {
        last_loud(&raw).is_some_and(|l| l > before + RATE).then_some(())
    });
    let pressed = Instant::now();
    let at_press = raw_len(&raw);
    sim.press_button(7);
    wait_for(Duration::from_secs(5), "silence", || {
        of_type(&read_events(&events), "announcement").iter().any(|a| a["about"] == "silence").then_some(())
    });
    wait_quiet(&raw);
    let last = last_loud(&raw).unwrap_or(0);
    let after_ms = last.saturating_sub(at_press) * 1000 / RATE;
    eprintln!(
        "silence: the last audible sample {after_ms} ms after the press in the written audio (wall {:?} to quiet)",
        pressed.elapsed()
    );
    // The whole record takes many seconds to say; cut, at most a second of it is left.
    assert!(after_ms < 1000, "not cut: {after_ms} ms after the press");
    // Reading changes nothing: the game is as played.
    assert_eq!(of_type(&read_events(&events), "game_move").len(), PLIES);

    // The same answer (file a: the file button's count goes on at b, so by
    // words) at the normal rate, then twice faster, then after a restart.
    let normal = answer_audio(&station, &events, &raw, "Linie Anna", 3);
    for _ in 0..2 {
        let reply = station.spoken("schneller").1;
        assert_eq!(reply["result"]["command"], "faster", "{reply}");
    }
    assert_eq!(station.spoken("schneller").1["result"]["rate_percent"], 145);
    assert_eq!(station.spoken("langsamer").1["result"]["rate_percent"], 130);
    let faster = answer_audio(&station, &events, &raw, "Linie Anna", 4);
    drop(station);
    let raw2 = dir.join("private-2.raw");
    let station = start_station(&dir, &config, &events, &raw2);
    wait_event(&events, "game resumed", |e| e["type"] == "game_resumed");
    let restarted = answer_audio(&station, &events, &raw2, "Linie Anna", 5);
    eprintln!("the same answer: {normal} ms at 100 %, {faster} ms at 130 %, {restarted} ms after a restart");
    // 130 % lasts 1/1.3 = 77 % as long; espeak's pauses scale less exactly.
    assert!(faster * 100 < normal * 90, "not faster: {faster} ms against {normal} ms");
    assert!(restarted * 100 < normal * 90, "the rate was not kept: {restarted} ms against {normal} ms");
}

/// Says `text` and returns how long its audio lasted (first to last audible
/// sample, ms), once the `n`-th answer was given and the station is quiet.
fn answer_audio(station: &RunningStation, events: &Path, raw: &Path, text: &str, n: usize) -> usize {
    let before = wait_quiet(raw);
    let reply = station.spoken(text).1;
    assert_eq!(reply["result"]["command"], "read_file", "{reply}");
    wait_for(Duration::from_secs(10), "the answer", || said(events, "answer").get(n - 1).cloned());
    wait_for(Duration::from_secs(10), "the answer heard", || {
        last_loud(raw).filter(|&l| l > before).map(|_| ())
    });
    wait_quiet(raw);
    let bytes = std::fs::read(raw).unwrap();
    let samples: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    let loud = |s: &i16| s.unsigned_abs() > 300;
    let first = samples[before..].iter().position(loud).map_or(0, |i| i + before);
    let last = samples.iter().rposition(loud).unwrap_or(first);
    (last - first) * 1000 / RATE
}

// --- Issue 22: one game, one record -------------------------------------

const OPERATOR: &str = "one-record-token-9c2a";

/// What every view of the station's newest game says: the moves (UCI), the
/// players and the result, each read the way an outside tool reads it.
#[derive(Debug, PartialEq)]
struct Seen {
    moves: Vec<String>,
    white: String,
    black: String,
    result: String,
}

fn seen_in_pgn(pgn: &str) -> Seen {
    let games = read_games(pgn.as_bytes());
    let g = games.last().unwrap_or_else(|| panic!("no game in {pgn}"));
    assert!(g.error.is_none(), "{:?} in {pgn}", g.error);
    Seen {
        moves: g.game.moves().iter().map(|m| g.game.uci(*m)).collect(),
        white: g.tags["White"].clone(),
        black: g.tags["Black"].clone(),
        result: g.tags["Result"].clone(),
    }
}

fn seen_in_state(state: &serde_json::Value) -> Seen {
    Seen {
        moves: state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap().to_owned())
            .collect(),
        white: state["tags"]["white"].as_str().unwrap_or_default().to_owned(),
        black: state["tags"]["black"].as_str().unwrap_or_default().to_owned(),
        result: state["result"]["result"].as_str().unwrap_or("*").to_owned(),
    }
}

/// Every view of the newest game agrees with `want`: `/game.pgn`, `/api/state`,
/// `station export --pgn`, the BRF (which the export itself back-translates with
/// liblouis and refuses unless the moves come back) and the large-print PDF
/// read back by `pdftotext`.
fn every_view_agrees(station: &RunningStation, journal: &Path, dir: &Path, want: &Seen) {
    let (status, pgn) = station.get("/game.pgn");
    assert_eq!(status, 200);
    assert_eq!(&seen_in_pgn(&String::from_utf8_lossy(&pgn)), want, "/game.pgn");
    let (_, state) = station.get("/api/state");
    let state: serde_json::Value = serde_json::from_slice(&state).unwrap();
    assert_eq!(&seen_in_state(&state), want, "/api/state");
    let pgn_text = exported(journal, &["--pgn"]);
    assert_eq!(&seen_in_pgn(&pgn_text), want, "station export --pgn");
    assert!(pgn_text.contains("[Termination \""), "{pgn_text}");
    let brf = dir.join("game.brf");
    exported(journal, &["--braille", "--lang", "de", "-o", brf.to_str().unwrap()]);
    assert!(std::fs::metadata(&brf).unwrap().len() > 0);
    let pdf = dir.join("game.pdf");
    exported(journal, &["--large-print", "--out", pdf.to_str().unwrap()]);
    let text = Command::new("pdftotext").arg(&pdf).arg("-").output().expect("pdftotext (poppler-utils)");
    let text = String::from_utf8_lossy(&text.stdout);
    let game = station_core::pgn::read_games(pgn_text.as_bytes()).pop().unwrap().game;
    for san in game.sans() {
        assert!(text.contains(&san.to_string()), "{san} not in the large print: {text}");
    }
    assert!(text.contains(&want.white) && text.contains(&want.result), "{text}");
}

#[test]
fn one_record_on_a_peg_board_and_a_dgt_board_through_names_a_take_back_kill_9_and_a_result() {
    let dir = scratch("one-record-boards");
    let (peg_link, dgt_link) = (dir.join("pegboard"), dir.join("dgt"));
    let (events, journal) = (dir.join("events.jsonl"), dir.join("journal"));
    let config = write_config(
        &dir,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"dgt\"\nport = \"{}\"\nbaud = 9600\n\n\
             [game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\nblind_color = \"white\"\n\n[tags]\nevent = \"Club\"\n",
            peg_link.display(),
            dgt_link.display()
        ),
    );
    let bytes = std::fs::read(shared_pgn("games/Capablanca.pgn")).unwrap();
    let game =
        read_games(&bytes).into_iter().find(|g| g.error.is_none() && g.moves().len() > 20).unwrap().game;
    let plies = 10;
    let (pegs, dgt) = peg_and_dgt_boards(&dir, SPEED, None);
    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), OPERATOR);
    wait_event(&events, "a game on the start position", |e| e["type"] == "game_started");
    // The arbiter names the players: a new game, started when the command returns.
    let (status, answer) = station.command(&serde_json::json!({
        "cmd": "new_game", "white": "Anna Nowak", "black": "Bert Kowalski", "round": "4", "board": "7"
    }));
    assert_eq!((status, &answer["ok"]), (200, &serde_json::json!(true)), "{answer}");
    let game_id = answer["result"]["game_id"].as_str().unwrap_or_else(|| panic!("{answer}")).to_owned();
    let (scans, updates) = station_sim::games::two_boards(
        game.start(),
        &game.moves()[..plies],
        shakmaty::Color::White,
        900,
        SETTLE_MS,
        SPEED,
        None,
        None,
    );
    pegs.play_scans(scans[1..].to_vec());
    dgt.play_updates(updates);
    let agreed = || {
        let ev = read_events(&events);
        let from = ev.iter().rposition(|e| e["type"] == "game_started").unwrap_or(0);
        ev[from..].iter().filter(|e| e["type"] == "game_move").count()
    };
    wait_for(Duration::from_secs(60), "ten moves agreed", || (agreed() >= plies).then_some(()));
    pegs.wait_idle();
    dgt.wait_idle();

    // The arbiter takes the last move back; both boards are put back.
    let (status, answer) = station.command(&serde_json::json!({"cmd": "take_back"}));
    assert_eq!(status, 200, "{answer}");
    let before = game.position_at(plies - 1).unwrap();
    pegs.set_occupancy(before.board().occupied());
    dgt.set_board(before.board().clone());
    std::thread::sleep(Duration::from_millis(6 * SETTLE_MS));
    let want_moves: Vec<String> = game.moves()[..plies - 1].iter().map(|m| game.uci(*m)).collect();
    let (_, state) = station.get("/api/state");
    let state: serde_json::Value = serde_json::from_slice(&state).unwrap();
    assert_eq!(seen_in_state(&state).moves, want_moves, "the take-back is in the state");

    // kill -9 and a restart: the game resumes without the move taken back.
    drop(station);
    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), OPERATOR);
    let resumed = wait_for(Duration::from_secs(15), "the game resumed", || {
        of_type(&read_events(&events), "game_resumed").last().map(|e| (*e).clone())
    });
    assert_eq!(
        (resumed["game_id"].as_str(), resumed["ply"].as_u64()),
        (Some(game_id.as_str()), Some(plies as u64 - 1))
    );

    let (status, answer) =
        station.command(&serde_json::json!({"cmd": "result", "result": "1-0", "reason": "Black resigned"}));
    assert_eq!(status, 200, "{answer}");
    let want = Seen {
        moves: want_moves,
        white: "Anna Nowak".into(),
        black: "Bert Kowalski".into(),
        result: "1-0".into(),
    };
    every_view_agrees(&station, &journal, &dir, &want);
    let pgn_text = exported(&journal, &["--pgn"]);
    assert!(pgn_text.contains("[Round \"4\"]") && pgn_text.contains("[Board \"7\"]"), "{pgn_text}");
    assert!(pgn_text.contains("{Black resigned} 1-0"), "{pgn_text}");
}

#[test]
fn with_no_board_at_all_the_assistant_enters_every_move_and_ends_the_game() {
    let dir = scratch("one-record-no-board");
    let (events, journal) = (dir.join("events.jsonl"), dir.join("journal"));
    let config =
        write_config(&dir, "[boards.blind]\ndriver = \"none\"\n\n[boards.mirror]\ndriver = \"none\"\n");
    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), OPERATOR);
    let (status, answer) = station
        .command(&serde_json::json!({"cmd": "new_game", "white": "Ewa", "black": "Jan", "event": "Home"}));
    assert_eq!(status, 200, "{answer}");
    // The game starts when the command returns: the next command plays into it.
    for san in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        let (status, answer) = station.command(&serde_json::json!({"cmd": "enter_move", "move": san}));
        assert_eq!(status, 200, "{san}: {answer}");
    }
    let (status, _) = station.command(&serde_json::json!({"cmd": "take_back"}));
    assert_eq!(status, 200);
    drop(station);
    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), OPERATOR);
    wait_event(&events, "the game resumed", |e| e["type"] == "game_resumed");
    let (status, answer) =
        station.command(&serde_json::json!({"cmd": "result", "result": "1/2-1/2", "reason": "draw agreed"}));
    assert_eq!(status, 200, "{answer}");
    let want = Seen {
        moves: ["e2e4", "e7e5", "g1f3", "b8c6"].map(String::from).to_vec(),
        white: "Ewa".into(),
        black: "Jan".into(),
        result: "1/2-1/2".into(),
    };
    every_view_agrees(&station, &journal, &dir, &want);
}

#[test]
fn the_first_move_made_50_ms_after_the_stations_first_scan_is_decided() {
    let dir = scratch("one-record-quick-start");
    let link = dir.join("pegboard");
    let (events, journal) = (dir.join("events.jsonl"), dir.join("journal"));
    let config = pegboard_config(&dir, &link, "\n[game]\nsettle_ms = 300\ndebounce_ms = 15\n");
    let game = real_game();
    let plies = 6;
    // The hands start 50 ms after the station first asks for a scan: the
    // station was started (or the board plugged in) as the game begins.
    let mut hands = Hands::new(None);
    let at = |ply: usize| game.position_at(ply).unwrap();
    let start = at(0).board().occupied();
    let first = game.moves()[0];
    let (from, to) = (first.from().unwrap(), first.to());
    let mut scans = vec![
        TimedScan { at_ms: 0, occupancy: start },
        TimedScan { at_ms: 50, occupancy: start.without(from) },
        TimedScan { at_ms: 150, occupancy: start.without(from).with(to) },
    ];
    let mut now = 150;
    for ply in 1..plies {
        hands.think(at(ply).board().occupied(), 700, &mut now, &mut scans);
        hands.play(at(ply), &game.moves()[ply], &mut now, &mut scans);
    }
    hands.think(at(plies).board().occupied(), 900, &mut now, &mut scans);
    let first_lift = scans.iter().find(|s| s.occupancy != at(0).board().occupied()).unwrap().at_ms;
    assert!(first_lift <= 60, "the first peg is lifted {first_lift} ms after the first scan");
    let sim = SimPegBoard::start(SimOptions { wait_for_station: true, ..SimOptions::new(&link) }).unwrap();
    sim.play_scans(scans);
    let _station = RunningStation::start(station_run(&config, &journal, Some(&events)), OPERATOR);
    let moves = wait_for(Duration::from_secs(30), "every move decided", || {
        let moves = of_type(&read_events(&events), "game_move").len();
        (moves >= plies).then_some(moves)
    });
    assert_eq!(moves, plies);
    let said: Vec<String> = of_type(&read_events(&events), "game_move")
        .iter()
        .map(|e| e["uci"].as_str().unwrap().to_owned())
        .collect();
    let want: Vec<String> = game.moves()[..plies].iter().map(|m| game.uci(*m)).collect();
    assert_eq!(said, want);
}

/// How long from a command to every view showing it: the command's answer
/// (sent once what it decided is on disk and delivered), `/api/state`,
/// `/game.pgn` and `station export --pgn` (the journal on disk), measured from
/// the moment the command was sent: a measurement, run by
/// `cargo bench -p station-tests --bench e2e_figures`.
#[allow(dead_code, reason = "a measurement: benches/e2e_figures.rs runs it")]
pub(crate) fn measure_from_a_command_to_every_view() {
    let _alone = station_tests::alone();
    let dir = scratch("one-record-measure");
    let (events, journal) = (dir.join("events.jsonl"), dir.join("journal"));
    let config =
        write_config(&dir, "[boards.blind]\ndriver = \"none\"\n\n[boards.mirror]\ndriver = \"none\"\n");
    let station = RunningStation::start(station_run(&config, &journal, Some(&events)), OPERATOR);
    station.command(&serde_json::json!({"cmd": "new_game", "white": "A", "black": "B"}));
    let game = real_game();
    let mut lat: [Vec<u128>; 4] = Default::default();
    for (i, mv) in game.moves().iter().take(60).enumerate() {
        // SAN as written on a scoresheet, with its check sign: read exactly, never echoed back.
        let san = shakmaty::san::SanPlus::from_move(game.position_at(i).unwrap().clone(), *mv).to_string();
        let sent = Instant::now();
        let (status, answer) = station.command(&serde_json::json!({"cmd": "enter_move", "move": san}));
        assert_eq!((status, &answer["ok"]), (200, &serde_json::json!(true)), "{san}: {answer}");
        lat[0].push(sent.elapsed().as_micros());
        let shows = |n: usize, body: &[u8]| -> bool {
            let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
            v["moves"].as_array().is_some_and(|m| m.len() == n)
        };
        while !shows(i + 1, &station.get("/api/state").1) {}
        lat[1].push(sent.elapsed().as_micros());
        while read_games(&station.get("/game.pgn").1).first().map_or(0, |g| g.game.ply()) != i + 1 {}
        lat[2].push(sent.elapsed().as_micros());
        while read_games(exported(&journal, &["--pgn"]).as_bytes()).first().map_or(0, |g| g.game.ply())
            != i + 1
        {}
        lat[3].push(sent.elapsed().as_micros());
    }
    for (name, mut l) in ["answer", "/api/state", "/game.pgn", "export --pgn"].into_iter().zip(lat) {
        l.sort_unstable();
        let p = |q: f64| l[((l.len() - 1) as f64 * q) as usize] as f64 / 1000.0;
        eprintln!("command -> {name}: p50 {:.1} ms, p99 {:.1} ms (n = {})", p(0.5), p(0.99), l.len());
        station_tests::figure(&format!("enter_move command -> {name} p50 ({} moves)", l.len()), p(0.5), "ms");
        station_tests::figure(
            &format!("enter_move command -> {name} p99 ({} moves)", l.len()),
            p(0.99),
            "ms",
        );
    }
}
