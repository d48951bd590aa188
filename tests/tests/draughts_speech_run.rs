//! Spoken draughts moves through the real `station run` (issue 17 §5):
//! `[game] rules = "draughts"`, the blind player without a sensor board
//! speaks his moves by their squares in Polish (the words `station announce`
//! gives them, start and end only), the sighted player's replies are entered
//! at the console. A shared game is played by voice up to a position where
//! two maximal captures share start and end: named by its squares it is
//! asked back with the choices, and the choice's number makes the move.
//! Heard text is fed through the `spoken` command, the same path the
//! listening thread's transcripts take.

use serde_json::{Value, json};
use station_core::draughts::movegen::legal_moves;
use station_core::draughts::pdn::{PdnGame, read_games};
use station_core::draughts::{Move, Variant};
use station_tests::{
    console_address, of_type, post_command, read_events, scratch, station_bin, station_run, wait_for,
    workspace,
};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const TOKEN: &str = "draughts-speech-token-5e1a";
const V: Variant = Variant::International;

struct Station {
    child: Child,
    base: String,
}

impl Drop for Station {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Station {
    fn start(dir: &Path, events: &Path) -> Station {
        let config = dir.join("station.toml");
        std::fs::write(
            &config,
            "[boards.blind]\ndriver = \"none\"\n\n[game]\nrules = \"draughts\"\n\n[clock]\ntime_control = \"4800+60\"\nauto_press = true\n\n[voice]\nlanguage = \"pl\"\n\n[speech]\nenabled = true\nmicrophone = false\n",
        )
        .unwrap();
        let mut cmd = station_run(&config, &dir.join("journal"), Some(events));
        cmd.args(["--listen", "127.0.0.1:0", "--token", TOKEN]).stdout(Stdio::piped()).stderr(Stdio::null());
        let alsa = workspace().join(".deps/alsa/null.conf");
        if alsa.exists() {
            cmd.env("ALSA_CONFIG_PATH", alsa);
        }
        let mut child = cmd.spawn().expect("station starts");
        let base = console_address(&mut child).trim_start_matches("http://").to_owned();
        Station { child, base }
    }

    fn command(&self, body: &Value) -> (u16, Value) {
        post_command(&self.base, TOKEN, body)
    }

    fn spoken(&self, text: &str) -> (u16, Value) {
        self.command(&json!({"cmd": "spoken", "text": text}))
    }
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
    let path = workspace().join("../shared/data/draughts/selfplay-international.pdn");
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
    let station = Station::start(&dir, &events);
    wait_for(Duration::from_secs(10), "game started", || {
        (!of_type(&read_events(&events), "game_started").is_empty()).then_some(())
    });
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
    assert!(status != 200 && answer.to_string().contains("not legal"), "{answer}");
    let (_, answer) = station.spoken("materiał");
    assert!(answer["result"]["understood"].as_str().is_some_and(|u| u.starts_with("reject")), "{answer}");
    let (_, answer) = station.spoken("czas");
    assert_eq!(answer["result"]["understood"], "command time", "{answer}");

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
    let (_, answer) = station.spoken("tak");
    assert_eq!(answer["result"]["question"], question, "{answer}");
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
