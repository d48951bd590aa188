//! The arbiter's rules from the console, with the keyboard alone, in a real
//! headless Chromium against a real `station run` (no sensor boards: the
//! blind player speaks his moves, the assistant enters them): a draw claim
//! that is not correct (Art. 9.5: three minutes to the opponent and the
//! claimant's time reduced, visible on the console's clock, and the written
//! move played), then one that is (Art. 9.2(a): the written move repeats the
//! position for the third time) and ends the game as a draw; an illegal move
//! found three plies late (Art. 7.4); an adjourned game resumed with the
//! sealing player absent (Guidelines I.9.3: the reply sealed in a new
//! envelope, opened when he comes).
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`scripts/setup`).

use fantoccini::Client;
use station_tests::browser::{
    DOWN, Driver, ENTER, Kill, TAB, active_id, api_state as state, assert_accessible, enter_token, js, keys,
    no_token_yet, open_console, shortcut, spawn_station, start_chromedriver, tab_to, text_of, text_within,
    within,
};
use station_tests::{scratch, station_run, write_config};
use std::time::Duration;

const TOKEN: &str = "arbiter-test-token-93e1";
/// An upper bound a loaded machine may need, never an expectation of speed.
const WAIT: Duration = Duration::from_secs(5);

/// `h:mm:ss` or `m:ss` as seconds.
fn seconds(display: &str) -> u64 {
    display
        .split(':')
        .fold(0, |acc, part| acc * 60 + part.trim().parse::<u64>().unwrap_or_else(|_| panic!("{display}")))
}

async fn enter_move(console: &Client, http: &reqwest::Client, base: &str, san: &str, ply: usize) {
    shortcut(console, 'm', "move").await;
    keys(console, &format!("{san}{ENTER}")).await;
    within(WAIT, &format!("ply {ply} {san} in the record"), || async {
        state(http, base).await["moves"].as_array().map_or(0, Vec::len) == ply
    })
    .await;
}

/// Alt+D, the claimant chosen with the arrow keys, Tab, the written move, Enter.
async fn claim(console: &Client, side: &str, written: &str) {
    shortcut(console, 'd', "claim-side").await;
    if side == "black" {
        keys(console, &DOWN.to_string()).await;
    }
    let chosen = js(console, "return document.getElementById('claim-side').value;").await;
    assert_eq!(chosen, side);
    keys(console, &format!("{TAB}{written}{ENTER}")).await;
    text_within(console, "claim-verdict", WAIT, "the station's verdict", |t| t.starts_with("Claim")).await;
}

/// From the written move's field: Tab to the submit button, Tab to "Confirm", Enter.
async fn confirm(console: &Client) {
    keys(console, &format!("{TAB}{TAB}")).await;
    assert_eq!(active_id(console).await, "confirm-claim", "two Tabs reach the confirmation");
    keys(console, &ENTER.to_string()).await;
    text_within(console, "claim-verdict", WAIT, "the verdict confirmed", |t| t == "Verdict confirmed.").await;
}

/// A station without sensor boards (the blind player speaks, the assistant
/// enters the moves), its clock 90 min + 30 s, pressed by the station; the
/// console open with its token.
async fn console_on_station(name: &str) -> (Kill, Driver, String, reqwest::Client, Client) {
    let dir = scratch(name);
    let config = write_config(
        &dir,
        "[boards.blind]\ndriver = \"none\"\n\n[game]\nblind_color = \"white\"\n\n[clock]\n\
         time_control = \"5400+30\"\nauto_press = true\n\n[speech]\nenabled = true\nmicrophone = false\n\n\
         [console]\nlisten = \"127.0.0.1:0\"\n",
    );
    let mut command = station_run(&config, &dir.join("journal"), None);
    command.args(["--token", TOKEN]);
    let (station, base) = spawn_station(command);
    let http = reqwest::Client::new();
    within(Duration::from_secs(5), "a game at once (no board)", || async {
        state(&http, &base).await["phase"] == "playing"
    })
    .await;
    let (driver, driver_url) = start_chromedriver();
    let console = open_console(&driver_url, &dir, &base).await;
    no_token_yet(&console).await;
    enter_token(&console, TOKEN).await;
    (station, driver, base, http, console)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn art_9_2_and_9_5_draw_claims_are_checked_and_decided_from_the_console_with_the_keyboard() {
    let (_station, _driver, base, http, console) = console_on_station("web-arbiter-claims").await;

    // The knights go out and back, and out again: the position after 1...Nf6 stands for the second time.
    for (ply, san) in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6"].iter().enumerate() {
        enter_move(&console, &http, &base, san, ply + 1).await;
    }

    // White claims with the written Ng1: the start position would stand only a second time.
    claim(&console, "white", "Ng1").await;
    let verdict = text_of(&console, "claim-verdict").await;
    assert!(verdict.starts_with("Claim with Ng1 incorrect: the position 2 times"), "{verdict}");
    text_within(&console, "clock-line", WAIT, "the clock stopped by the claim", |t| t.starts_with("stopped"))
        .await;
    // Read once the claim has stopped the clock: by then the console shows the
    // increment of 1...Nf6 too (read earlier, a loaded machine may not have drawn it yet).
    let black_before = seconds(&text_of(&console, "time-black").await);
    let white_before = seconds(&text_of(&console, "time-white").await);
    assert_accessible(&console, "the console with a claim waiting for the arbiter").await;
    confirm(&console).await;
    within(WAIT, "Black's 3 minutes on the console's clock", || async {
        seconds(&text_of(&console, "time-black").await) == black_before + 180
    })
    .await;
    let white_after = seconds(&text_of(&console, "time-white").await);
    // His written move is then made and his clock pressed for him (auto_press):
    // the increment of 30 s comes back with it.
    assert!(
        white_after + 150 <= white_before && white_after + 152 >= white_before,
        "White lost three minutes (half of his time is more), then got the increment of his written move: {white_before} s → {white_after} s"
    );
    within(WAIT, "the written move played", || async {
        state(&http, &base).await["moves"].as_array().map_or(0, Vec::len) == 7
    })
    .await;

    // Black claims with the written Ng8: the start position for the third time (9.2(a)).
    claim(&console, "black", "Ng8").await;
    let verdict = text_of(&console, "claim-verdict").await;
    assert!(
        verdict.starts_with("Claim with Ng8 correct (threefold repetition): the position 3 times"),
        "{verdict}"
    );
    confirm(&console).await;
    within(WAIT, "the game drawn", || async {
        let s = state(&http, &base).await;
        s["phase"] == "finished"
    })
    .await;
    assert_accessible(&console, "the console after a drawn game").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn art_7_4_an_illegal_move_found_three_plies_late_is_marked_from_the_console_with_the_keyboard() {
    let (_station, _driver, base, http, console) = console_on_station("web-arbiter-illegal").await;
    // Every entered move presses its mover's clock (auto_press, increment 30 s):
    // Black's time is read where the record will go back to, after 1...e5.
    let mut black_before = 0;
    for (ply, san) in ["e4", "e5", "Nf3", "Nc6", "Bc4"].iter().enumerate() {
        enter_move(&console, &http, &base, san, ply + 1).await;
        if ply == 1 {
            black_before = seconds(&text_of(&console, "time-black").await);
        }
    }
    // White's 2. Nf3 was illegal, found three plies later: Alt+I, its number as
    // on the scoresheet ("2."), Enter.
    shortcut(&console, 'i', "illegal-move").await;
    keys(&console, &format!("2.{ENTER}")).await;
    within(WAIT, "the record back at 1...e5", || async {
        let s = state(&http, &base).await;
        s["moves"].as_array().map_or(0, Vec::len) == 2 && s["turn"] == "white"
    })
    .await;
    within(WAIT, "Black's two minutes on the console's clock", || async {
        seconds(&text_of(&console, "time-black").await) + 1 >= black_before + 120
    })
    .await;
    text_within(&console, "log", WAIT, "the illegal move in the console's log", |t| t.contains("illegal"))
        .await;
    assert_accessible(&console, "the console after an illegal move was taken back").await;
    // White plays another move and the game goes on.
    enter_move(&console, &http, &base, "d4", 3).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guidelines_i_9_3_an_adjourned_game_resumed_with_the_sealing_player_absent_by_keyboard() {
    let (_station, _driver, base, http, console) = console_on_station("web-arbiter-adjourned").await;
    enter_move(&console, &http, &base, "e4", 1).await;
    // Black seals 1...c5: Alt+J, Tab to the sealed move, Enter.
    shortcut(&console, 'j', "adj-white").await;
    tab_to(&console, "adj-sealed", 40).await;
    keys(&console, &format!("c5{ENTER}")).await;
    within(WAIT, "the game adjourned", || async { state(&http, &base).await["adjourned"] == true }).await;
    // Resumption: Black, who sealed, is absent; the envelope is opened for White (Alt+U, Enter).
    shortcut(&console, 'u', "resume-adjourned").await;
    keys(&console, &ENTER.to_string()).await;
    within(WAIT, "1...c5 made and White's clock running", || async {
        let s = state(&http, &base).await;
        s["moves"].as_array().map_or(0, Vec::len) == 2
            && s["clock"]["on_move"] == "white"
            && s["clock"]["running"] == true
    })
    .await;
    // White seals his reply 2.Nf3 in a new envelope and switches the clock: Alt+E, Tab to the reply.
    shortcut(&console, 'e', "resume-replier-absent").await;
    tab_to(&console, "reply-sealed", 4).await;
    keys(&console, &format!("Nf3{ENTER}")).await;
    within(WAIT, "the reply sealed, Black's clock running", || async {
        let s = state(&http, &base).await;
        s["adjourned"] == true && s["clock"]["on_move"] == "black" && s["clock"]["running"] == true
    })
    .await;
    let s = state(&http, &base).await;
    assert_eq!(s["moves"].as_array().map_or(0, Vec::len), 2, "the reply is not shown: {s}");
    assert!(!s.to_string().contains("Nf3") && !s.to_string().contains("g1f3"), "the reply stays sealed");
    assert_accessible(&console, "the console with the reply sealed").await;
    // Black comes: the envelope is opened in his presence (Alt+E, Tab, Enter).
    shortcut(&console, 'e', "resume-replier-absent").await;
    keys(&console, &TAB.to_string()).await;
    assert_eq!(active_id(&console).await, "open-envelope");
    keys(&console, &ENTER.to_string()).await;
    within(WAIT, "2.Nf3 made, Black to move", || async {
        let s = state(&http, &base).await;
        s["moves"].as_array().map_or(0, Vec::len) == 3
            && s["adjourned"] == false
            && s["clock"]["on_move"] == "black"
    })
    .await;
    assert_eq!(state(&http, &base).await["moves"][2]["san"], "Nf3");
}
