//! A draughts game's move numbers as the views say them, through the
//! daemon's own paths (operator commands as the console sends them, speech
//! as the listening thread hands it over): the talking clock's moves made and
//! the console log's "draw offer … after ply N" count the draughts record.

use super::test_support::{self, Seen, config, observed, started};
use super::*;
use crate::hub::{CommandRequest, OperatorCommand};
use station_core::draughts::pdn::read_games;

/// A draughts station without boards, a clock, the blind player hearing
/// German as text; the first `plies` moves of the first shared game entered.
fn after_plies(name: &str, plies: usize) -> (Station, Seen, Value) {
    let dir = test_support::scratch(name);
    let text = "[boards.blind]\ndriver = \"none\"\n\n[game]\nrules = \"draughts\"\n\n\
                [clock]\ntime_control = \"4800+60\"\nauto_press = true\n\n[voice]\nlanguage = \"de\"\n\n\
                [speech]\nenabled = true\nmicrophone = false\n\n[audio.private]\nvoices = [\"text\"]\n";
    let mut station = started(config(text), &dir.join("journal"));
    station.enable_voices().unwrap();
    let seen = observed(&mut station);
    station.tick().unwrap();
    station.drain(Duration::from_secs(5)).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/draughts/selfplay-international.pdn");
    let games = read_games(&std::fs::read_to_string(path).expect("the shared draughts games")).unwrap();
    let game = &games[0];
    let mut last = Value::Null;
    for mv in game.moves.iter().take(plies) {
        let mv = mv.pdn(game.variant, false);
        last = operator(&mut station, &json!({"cmd": "enter_move", "move": mv}).to_string());
    }
    assert_eq!(station.table.turn().map(|(ply, _)| ply), Some(plies), "{last}");
    (station, seen, last)
}

fn operator(station: &mut Station, json: &str) -> Value {
    let command = OperatorCommand::from_json(json.as_bytes()).unwrap();
    let (reply, answer) = crossbeam_channel::bounded(1);
    station.command(CommandRequest { command, reply }, Instant::now()).unwrap();
    station.drain(Duration::from_secs(5)).unwrap();
    answer.recv_timeout(Duration::from_secs(5)).unwrap().unwrap()
}

/// The last thing said to `listener` about `about`.
fn said(seen: &Seen, listener: &str, about: &str) -> String {
    seen.lock()
        .unwrap()
        .iter()
        .rev()
        .find_map(|e| match e {
            Event::Announcement { listener: l, about: a, text, .. } if l == listener && a == about => {
                Some(text.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("nothing said to {listener} about {about}"))
}

/// "Zeit" after seven plies: four moves made, as in a chess game.
#[test]
fn the_draughts_talking_clock_says_the_moves_made() {
    let (mut station, seen, _) = after_plies("draughts-talking-clock", 7);
    test_support::say(&mut station, "zeit");
    let clock = said(&seen, "private", "clock");
    assert!(clock.starts_with("Sie: ") && clock.ends_with("Vier Züge."), "{clock}");
}

/// The console's draw offer after six plies is logged and answered as after ply 6.
#[test]
fn the_console_logs_a_draughts_draw_offer_after_its_ply() {
    let (mut station, seen, _) = after_plies("draughts-draw-offer-log", 6);
    let answer = operator(&mut station, r#"{"cmd": "draw_offer", "side": "white"}"#);
    assert_eq!(answer["ply"], 6, "{answer}");
    assert_eq!(said(&seen, "log", "draw_offer"), "draw offer by white after ply 6");
    // The offer the record marks (Appendix E's "(=)") is after the same ply.
    let offered = seen.lock().unwrap().iter().rev().find_map(|e| match e {
        Event::DrawOffered { ply, .. } => Some(*ply),
        _ => None,
    });
    assert_eq!(offered, Some(6));
}
