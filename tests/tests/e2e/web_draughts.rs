//! Draughts irregularities decided from the console with the keyboard alone
//! (issue 17, 5.4, 5.7, 5.9), in a real headless Chromium against a real
//! `station run` with a simulated 10×10 peg board on a pseudo-terminal.
//!
//! The blind player (White, Polish voice) moves 31-27 while 28x19 is
//! compulsory (5.4.6): the console shows the irregularity with its article,
//! text and steps and two buttons; Alt+Z, Enter corrects it (the station says
//! what to put back, in Polish); the board put back, he does it again and
//! Alt+A, Enter accepts it (5.7): 31-27 becomes the game's third move.
//! axe-core finds no serious violation with the irregularity shown.

use fantoccini::{Client, Locator};
use serde_json::json;
use station_core::draughts::{Position, Variant};
use station_sim::draughts_hands::{DraughtsHands, HandMove};
use station_sim::pegboard::SimPegBoard;
use station_tests::browser::{
    ENTER, active_id, alt, assert_accessible, enter_token, keys, open_console, screenshot, spawn_station,
    start_chromedriver, text_of, within,
};
use station_tests::draughts::{self, step};
use station_tests::{pegboard_config, post_command, read_events, scratch, station_run, wait_event, wait_for};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

const TOKEN: &str = "draughts-console-token-5e1";
const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;
const WAIT: Duration = Duration::from_secs(10);

fn config(dir: &Path, link: &Path) -> PathBuf {
    pegboard_config(
        dir,
        link,
        &format!(
            "baud = 115200\n\n[game]\nrules = \"draughts\"\n\
             settle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[voice]\nlanguage = \"pl\"\n\n[console]\n\
             listen = \"127.0.0.1:0\"\ntoken = \"{TOKEN}\"\n"
        ),
    )
}

/// One move made by the simulated hand; returns the board's occupancy after it.
fn play(sim: &SimPegBoard, hands: &mut DraughtsHands, occ: u64, mv: &HandMove) -> u64 {
    draughts::play(sim, hands, occ, mv).0
}

async fn panel_shown(console: &Client) -> bool {
    !console.find_all(Locator::Css("#irregularity article")).await.unwrap_or_default().is_empty()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_5_4_6_irregularity_is_corrected_and_then_accepted_from_the_keyboard() {
    let dir = scratch("web-draughts");
    let link = dir.join("pegboard");
    let events = dir.join("events.jsonl");
    let initial = Position::initial(Variant::International);
    let sim = draughts::start_board(&link, SPEED);
    let mut command = station_run(&config(&dir, &link), &dir.join("journal"), Some(&events));
    command.env("STATION_LOG", "error").stderr(Stdio::null());
    let (_station, base) = spawn_station(command);
    wait_event(&events, "game started", |e| e["type"] == "game_started");

    let (_driver, driver_url) = start_chromedriver();
    let console = open_console(&driver_url, &dir, &base).await;
    enter_token(&console, TOKEN).await;

    // 1. 32-28 19-23 (the sighted player's entered, executed on the peg board).
    let mut hands = DraughtsHands::new(50, 3, false);
    let mut occ = play(&sim, &mut hands, initial.occupied(), &step(32, 28));
    wait_event(&events, "32-28 agreed", |e| e["type"] == "game_move" && e["pdn"] == "32-28");
    let (status, answer) = post_command(&base, TOKEN, &json!({"cmd": "enter_move", "move": "19-23"}));
    assert_eq!(status, 200, "{answer}");
    occ = play(&sim, &mut hands, occ, &step(19, 23));
    wait_event(&events, "19-23 executed", |e| e["type"] == "move" && e["pdn"] == "19-23");
    assert!(!panel_shown(&console).await, "nothing to decide yet");

    // 5.4.6: 31-27 while 28x19 is compulsory.
    occ = play(&sim, &mut hands, occ, &step(31, 27));
    let named =
        wait_event(&events, "5.4.6 named", |e| e["type"] == "irregularity" && e["article"] == "5.4.6");
    assert_eq!(
        (&named["kind"], &named["moves"], &named["required"]),
        (&json!("capture_omitted"), &json!(["31-27"]), &json!(1)),
        "{named}"
    );
    within(WAIT, "the console shows the irregularity", || panel_shown(&console)).await;
    let shown = text_of(&console, "irregularity").await;
    for needle in [
        "5.4.6",
        "31-27 while a capture of 1 was compulsory",
        "take the piece off 27",
        "Accept (5.7)",
        "Correct",
    ] {
        assert!(shown.contains(needle), "the console lacks {needle:?}: {shown}");
    }
    // The boards are drawn as draughts boards with their square numbers, not chess boards.
    let boards = console.find_all(Locator::Css("#boards svg.board.draughts")).await.unwrap();
    assert!(!boards.is_empty(), "the console draws the draughts board");
    assert!(console.find_all(Locator::Css("#boards svg.board:not(.draughts)")).await.unwrap().is_empty());
    assert_accessible(&console, "the console with a draughts irregularity waiting").await;
    screenshot(&console, "draughts-irregularity-console", Some(1600)).await;
    // Said to the blind player in his language, not in the console's English.
    let said = wait_event(&events, "the irregularity said in Polish", |e| {
        e["type"] == "announcement" && e["about"] == "correction" && e["listener"] == "private"
    });
    assert!(said["text"].as_str().unwrap().contains("mimo obowiązku bicia"), "{said}");

    // Corrected from the keyboard: Alt+Z, Enter.
    keys(&console, &alt('z')).await;
    assert_eq!(active_id(&console).await, "irregularity-correct", "Alt+Z goes to Correct");
    keys(&console, &ENTER.to_string()).await;
    let decided = wait_event(&events, "corrected", |e| e["type"] == "irregularity_decided");
    assert_eq!(decided["decision"], "correct", "{decided}");
    assert_eq!(decided["steps"], json!(["take the piece off 27", "put a white man on 31"]), "{decided}");
    within(WAIT, "the panel gone once decided", || async { !panel_shown(&console).await }).await;
    let told = wait_event(&events, "the correction said in Polish", |e| {
        e["type"] == "announcement"
            && e["text"].as_str().is_some_and(|t| t.starts_with("przeciwnik żąda poprawienia"))
    });
    assert!(
        told["text"].as_str().unwrap().contains("postaw białego pionka na polu trzydzieści jeden"),
        "{told}"
    );
    occ = play(&sim, &mut hands, occ, &step(27, 31));
    wait_event(&events, "the board put back", |e| e["type"] == "board_restored");

    // Again, and this time accepted: Alt+A, Enter (5.7: the position stands).
    let _ = play(&sim, &mut hands, occ, &step(31, 27));
    wait_for(Duration::from_secs(30), "5.4.6 named again", || {
        (read_events(&events)
            .iter()
            .filter(|e| e["type"] == "irregularity" && e["article"] == "5.4.6")
            .count()
            >= 2)
            .then_some(())
    });
    within(WAIT, "the console shows it again", || panel_shown(&console)).await;
    keys(&console, &alt('a')).await;
    assert_eq!(active_id(&console).await, "irregularity-accept", "Alt+A goes to Accept (5.7)");
    keys(&console, &ENTER.to_string()).await;
    wait_event(&events, "accepted", |e| e["type"] == "irregularity_decided" && e["decision"] == "accept");
    let third =
        wait_event(&events, "31-27 the game's third move", |e| e["type"] == "game_move" && e["ply"] == 3);
    assert_eq!(third["pdn"], "31-27", "{third}");
    within(WAIT, "the panel gone once accepted", || async { !panel_shown(&console).await }).await;
}
