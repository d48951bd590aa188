//! Spoken draughts moves through the real `station run` (issue 17 §5):
//! `[game] rules = "draughts"`, the blind player without a sensor board
//! speaks his moves by their squares in Polish (the words `station announce`
//! gives them, start and end only), the sighted player's replies are entered
//! at the console. A shared game is played by voice up to a position where
//! two maximal captures share start and end: named by its squares it is
//! asked back with the choices, and the choice's number makes the move.
//! Heard text is fed through the `spoken` command, the same path the
//! listening thread's transcripts take. With his peg board (a simulated 10×10
//! board on a pty) a slip of the tongue is named with the board's move and
//! his clock waits until the announcement is corrected (VIII.2.3, D.2.8).

use serde_json::json;
use station_core::draughts::movegen::legal_moves;
use station_core::draughts::pdn::{PdnGame, read_games};
use station_core::draughts::{Move, Position, Variant};
use station_sim::draughts_hands::DraughtsHands;
use station_tests::draughts::{self, hand_move};
use station_tests::{
    RunningStation, assert_slip_checked, of_type, read_events, scratch, station_bin, station_run, wait_event,
    wait_for, workspace, write_config,
};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const TOKEN: &str = "draughts-speech-token-5e1a";
const V: Variant = Variant::International;

/// A draughts station without sensor boards (Polish speech); killed when dropped.
fn start_station(dir: &Path, events: &Path) -> RunningStation {
    station_with_config(
        dir,
        events,
        "[boards.blind]\ndriver = \"none\"\n\n[game]\nrules = \"draughts\"\n\n[clock]\ntime_control = \"4800+60\"\nauto_press = true\n\n[voice]\nlanguage = \"pl\"\n\n[speech]\nenabled = true\nmicrophone = false\n",
    )
}

fn station_with_config(dir: &Path, events: &Path, text: &str) -> RunningStation {
    let config = write_config(dir, text);
    RunningStation::start(station_run(&config, &dir.join("journal"), Some(events)), TOKEN)
}

/// How the station words draughts moves (`station announce --rules draughts`), one line each.
fn words(lang: &str, moves: &[String]) -> Vec<String> {
    let out = Command::new(station_bin())
        .args(["announce", "--lang", lang, "--rules", "draughts"])
        .args(moves)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

/// A move named by its start and end only: `28x19`, `32-28`.
fn short(mv: &Move) -> String {
    let sep = if mv.is_capture() { 'x' } else { '-' };
    format!("{}{sep}{}", mv.from.number(), mv.to.number())
}

/// A shared game and the first ply (White's) where two maximal captures
/// share start and end but take different men.
fn game_with_a_pair() -> (PdnGame, usize) {
    let path = workspace().join("tests/data/draughts/selfplay-international.pdn");
    let games = read_games(&std::fs::read_to_string(path).expect("the shared draughts games")).unwrap();
    games
        .into_iter()
        .find_map(|g| {
            let positions = g.positions();
            let at = (0..g.moves.len()).step_by(2).find(|&i| {
                let legal = legal_moves(&positions[i]);
                legal.iter().filter(|m| m.from == g.moves[i].from && m.to == g.moves[i].to).count() > 1
            })?;
            Some((g, at))
        })
        .expect("a shared game where White's move is one of two captures with the same squares")
}

#[test]
fn a_shared_draughts_game_spoken_by_squares_and_a_capture_pair_asked_back() {
    let dir = scratch("draughts-speech");
    let events = dir.join("events.jsonl");
    let (game, at) = game_with_a_pair();
    let expected: Vec<String> = game.moves.iter().map(|m| m.pdn(V, true)).collect();
    let said = words("pl", &game.moves[..=at].iter().map(short).collect::<Vec<_>>());
    let station = start_station(&dir, &events);
    wait_event(&events, "game started", |e| e["type"] == "game_started");
    for ply in 0..at {
        let (status, answer) = if ply % 2 == 0 {
            station.spoken(&said[ply])
        } else {
            station.command(&json!({"cmd": "enter_move", "move": expected[ply]}))
        };
        assert_eq!(status, 200, "ply {} {:?}: {answer}", ply + 1, said[ply]);
        if ply % 2 == 0 {
            assert_eq!(
                answer["result"]["pdn"],
                expected[ply].as_str(),
                "{:?} understood as {answer}",
                said[ply]
            );
        }
    }
    // Out of turn is refused; a chess question is no draughts command; the clock is one.
    let (status, answer) = station.command(&json!({"cmd": "enter_move", "move": expected[at - 1]}));
    assert!(status != 200 && answer.to_string().contains("not a legal"), "{answer}");
    let (_, answer) = station.spoken("materiał");
    assert!(answer["result"]["understood"].as_str().is_some_and(|u| u.starts_with("reject")), "{answer}");
    station.says("czas", "understood", "command time");

    // The pair: named by start and end it is asked back with the choices by number.
    let (status, answer) = station.spoken(&said[at]);
    assert_eq!(status, 200, "{answer}");
    let choices: Vec<String> = answer["result"]["choices"]
        .as_array()
        .expect("asked back")
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect();
    assert!(choices.len() > 1 && choices.contains(&expected[at]), "{answer}");
    let question = answer["result"]["question"].as_str().unwrap();
    assert!(question.starts_with("jeden — ") && question.contains(" czy dwa — "), "{question}");
    let heard = of_type(&read_events(&events), "announcement")
        .iter()
        .any(|a| a["about"] == "question" && a["listener"] == "private" && a["text"] == question);
    assert!(
        heard
            || wait_for(Duration::from_secs(5), "the question said", || {
                of_type(&read_events(&events), "announcement")
                    .iter()
                    .any(|a| a["text"] == question)
                    .then_some(true)
            })
    );
    // "tak" answers no question of several choices: asked again, nothing made.
    station.says("tak", "question", question);
    let number = ["jeden", "dwa", "trzy", "cztery"][choices.iter().position(|c| *c == expected[at]).unwrap()];
    let (status, answer) = station.spoken(number);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["pdn"], expected[at].as_str(), "{answer}");
    let moves = wait_for(Duration::from_secs(5), "every move agreed", || {
        let moves: Vec<String> = of_type(&read_events(&events), "game_move")
            .iter()
            .map(|e| e["pdn"].as_str().unwrap().to_owned())
            .collect();
        (moves.len() == at + 1).then_some(moves)
    });
    assert_eq!(moves, expected[..=at], "the agreed record is the game");
    let ev = read_events(&events);
    let presses = of_type(&ev, "clock_pressed").iter().filter(|e| e["side"] == "white").count();
    assert_eq!(presses, at / 2 + 1, "his clock pressed once per spoken move");
    let refused = of_type(&ev, "input_refused").len();
    assert_eq!(refused, 1, "only the move out of turn was refused: {:?}", of_type(&ev, "input_refused"));
}

/// The hand's steps take at most 250 sim-ms: at speed 2 within the settle time.
const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;

/// VIII.2.3 with D.2.8 on his peg board: he makes 32-28 and says 33-28. The
/// board's move is the game's; the slip is said back to him with the board's
/// move and his clock waits; the corrected announcement matches and presses it.
#[test]
fn a_slip_of_the_tongue_on_the_draughts_peg_board_holds_his_clock_until_corrected() {
    let dir = scratch("draughts-speech-slip");
    let events = dir.join("events.jsonl");
    let link = dir.join("pegboard");
    let start = Position::initial(V);
    let sim = draughts::start_board(&link, SPEED);
    let station = station_with_config(
        &dir,
        &events,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\nbaud = 115200\n\n[game]\nrules = \"draughts\"\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[clock]\ntime_control = \"4800+60\"\nauto_press = true\n\n[voice]\nlanguage = \"de\"\n\n[speech]\nenabled = true\nmicrophone = false\n",
            link.display()
        ),
    );
    wait_event(&events, "game started", |e| e["type"] == "game_started");
    let made = station_core::draughts::pdn::find_move(&start, "32-28").unwrap().unwrap();
    let mut hands = DraughtsHands::new(50, 7, false);
    let (occ, _) = draughts::play(&sim, &mut hands, start.occupied(), &hand_move(&start, &made));
    wait_for(Duration::from_secs(10), "32-28 agreed", || {
        of_type(&read_events(&events), "game_move").iter().any(|e| e["pdn"] == "32-28").then_some(())
    });
    let white_presses =
        || of_type(&read_events(&events), "clock_pressed").iter().filter(|e| e["side"] == "white").count();
    assert_eq!(white_presses(), 0, "not pressed before he announced it");

    let (status, answer) = station.spoken("dreiunddreißig achtundzwanzig");
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["pdn"], "33-28", "{answer}");
    assert_slip_checked(&events, "33-28", "32-28");
    let told = wait_for(Duration::from_secs(5), "the slip said to him", || {
        of_type(&read_events(&events), "announcement")
            .iter()
            .find(|a| a["about"] == "correction" && a["listener"] == "private")
            .map(|a| a["text"].as_str().unwrap().to_owned())
    });
    assert!(
        told.starts_with("dreiunddreißig — achtundzwanzig")
            && told.ends_with("zweiunddreißig — achtundzwanzig"),
        "{told}"
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(white_presses(), 0, "a slip never presses his clock");

    let (status, answer) = station.spoken("zweiunddreißig achtundzwanzig");
    assert_eq!(status, 200, "{answer}");
    wait_for(Duration::from_secs(5), "his clock pressed", || (white_presses() == 1).then_some(()));
    // The reply entered and executed on his board: Black's clock pressed, the record is the board's.
    let after = made.apply(&start);
    let reply = station_core::draughts::pdn::find_move(&after, "19-23").unwrap().unwrap();
    let (status, answer) = station.command(&json!({"cmd": "enter_move", "move": "19-23"}));
    assert_eq!(status, 200, "{answer}");
    draughts::play(&sim, &mut hands, occ, &hand_move(&after, &reply));
    let ev = wait_for(Duration::from_secs(10), "the reply executed", || {
        let ev = read_events(&events);
        of_type(&ev, "move").iter().any(|e| e["pdn"] == "19-23").then_some(ev)
    });
    let moves: Vec<&str> = of_type(&ev, "game_move").iter().map(|e| e["pdn"].as_str().unwrap()).collect();
    assert_eq!(moves, ["32-28", "19-23"]);
    assert!(of_type(&ev, "clock_pressed").iter().any(|e| e["side"] == "black"));
    assert!(of_type(&ev, "clock_premature").is_empty(), "{:?}", of_type(&ev, "clock_premature"));
}
