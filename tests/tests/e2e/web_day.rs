//! Issue 34 §1–4 and §7, the arbiter's and the player's day, through the real
//! `station run` in a real headless Chromium, keyboard only (focus and key
//! presses, no clicks), axe-core in every state reached:
//!
//! - with neither board sensed (`driver = "none"` for both) no board is
//!   reported as sensed, no clock runs until the arbiter starts it, and no
//!   alarm banner comes (§2, §3);
//! - a new game on a peg board that still shows the old game runs no clock
//!   until the start position stands on it (§3);
//! - Enter in the clock correction changes no clock: a confirmation names the
//!   side and the new time first, Escape keeps the clock; adding time has its
//!   own field (§1);
//! - a take-back proposes the clocks without the move (Art. 7) and the
//!   arbiter's Enter sets them (§6);
//! - after `new_game` with names, both names are on the console, `/mirror` and
//!   `/player`; the Polish mirror and the German player's page write a
//!   knight's move with S (10… Sbd7: Springer, skoczek); an
//!   English reason is not read inside the German sentence; at 1280×800 the
//!   boards and the record are on the console's first screen (§4, §7).
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`scripts/setup`).

use fantoccini::Client;
use futures_util::FutureExt;
use serde_json::Value;
use shakmaty::Square;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::browser::{
    DOWN, ENTER, TAB, active_id, alt, api_state as state, assert_accessible, browser, enter_token, js, keys,
    screenshot, set_viewport, shortcut, spawn_playing, spawn_station, start_chromedriver, tab_to, text_of,
    text_within, within,
};
use station_tests::{Kill, pegboard_config, scratch, station_run, write_config};
use std::path::Path;
use std::time::{Duration, Instant};

const TOKEN: &str = "day-test-token-6e1f";
/// An upper bound a loaded machine may need, never an expectation of speed.
const WAIT: Duration = Duration::from_secs(5);
/// WebDriver's Escape and arrow up.
const ESCAPE: char = '\u{E00C}';
const UP: char = '\u{E013}';
/// Ninety minutes, the time control's first period.
const FULL: u64 = 5_400_000;

/// `station run` with neither board sensed (both `driver = "none"`): the
/// blind player speaks, the assistant enters the moves; 90 min + 30 s, the
/// clock set to start with the game (the default) and pressed by the
/// station; the blind player hears German, the mirror is Polish.
async fn no_board_station(dir: &Path) -> (Kill, String) {
    let config = write_config(
        dir,
        "[boards.blind]\ndriver = \"none\"\n\n[boards.mirror]\ndriver = \"none\"\n\n[game]\nblind_color = \"white\"\n\n\
         [clock]\ntime_control = \"5400+30\"\nauto_press = true\n\n[speech]\nenabled = true\nmicrophone = false\n\n\
         [voice]\nlanguage = \"de\"\n\n[audio.private]\nlanguage = \"de\"\n\n\
         [console]\nlisten = \"127.0.0.1:0\"\nmirror_language = \"pl\"\n",
    );
    spawn_playing(station_run(&config, &dir.join("journal"), None), TOKEN).await
}

/// Runs `body` with a console (1280×800, its token given with the keyboard)
/// and ends the browser, pass or fail.
async fn with_console<F, Fut>(dir: &Path, base: &str, body: F)
where
    F: FnOnce(Client) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let (_driver, driver_url) = start_chromedriver();
    let console = browser(&driver_url, &dir.join("profile-console"), 1280, 800).await;
    set_viewport(&console, 1280, 800).await;
    console.goto(&format!("{base}/console")).await.unwrap();
    enter_token(&console, TOKEN).await;
    let outcome = std::panic::AssertUnwindSafe(body(console.clone())).catch_unwind().await;
    let _ = console.close().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

/// A station with neither board sensed ([`no_board_station`]) in
/// `scratch(name)` and its console: `body` gets the console, the base URL and
/// an HTTP client.
async fn with_console_without_boards<F, Fut>(name: &str, body: F)
where
    F: FnOnce(Client, String, reqwest::Client) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let dir = scratch(name);
    let (_station, base) = no_board_station(&dir).await;
    let http = reqwest::Client::new();
    with_console(&dir, &base.clone(), |console| body(console, base, http)).await;
}

fn clock_of(s: &Value) -> (bool, bool, u64, u64) {
    let c = &s["clock"];
    (
        c["started"] == true,
        c["running"] == true,
        c["white_ms"].as_u64().unwrap_or(0),
        c["black_ms"].as_u64().unwrap_or(0),
    )
}

/// Watches the console's alert banner for `span`, every 250 ms: it must stay empty.
async fn no_banner_for(console: &Client, span: Duration) {
    let start = Instant::now();
    while start.elapsed() < span {
        let banner = text_of(console, "alerts").await;
        assert!(banner.is_empty(), "an alarm after {:?}: {banner}", start.elapsed());
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_neither_board_sensed_no_clock_runs_no_board_is_sensed_and_no_alarm_is_raised() {
    let dir = scratch("web-day-no-board");
    let (_station, base) = no_board_station(&dir).await;
    let http = reqwest::Client::new();
    let s = state(&http, &base).await;
    let boards = s["boards"].as_array().cloned().unwrap_or_default();
    assert_eq!(boards.len(), 2, "{s}");
    for board in &boards {
        assert_eq!(board["sensed"], false, "a board that is not there is not sensed: {board}");
    }
    assert_eq!(clock_of(&s), (false, false, FULL, FULL), "no clock runs before anyone is there: {s}");
    with_console(&dir, &base.clone(), |console| async move {
        // The banner's causes: a board reported sensed and not connected (raised
        // after 3 s, and again whenever the page learns of it anew), a
        // `board_status` event. With no board sensed neither can come; the
        // page is watched for 40 s, beyond the grace and the ~30 s at which
        // the alarm came back before.
        no_banner_for(&console, Duration::from_secs(40)).await;
        let log = text_of(&console, "log").await;
        assert!(!log.contains("not connected"), "{log}");
        // Nobody started the clock: it shows the full time, and says why it stands.
        let s = state(&http, &base).await;
        assert_eq!(clock_of(&s), (false, false, FULL, FULL), "after 40 s nobody started it: {s}");
        assert_eq!(text_of(&console, "time-white").await, "1:30:00");
        assert!(text_of(&console, "clock-line").await.contains("not started"));
        let captions = text_of(&console, "boards").await;
        assert!(!captions.contains("NOT CONNECTED"), "{captions}");
        assert_accessible(&console, "the console of a station with no board sensed").await;
        // The arbiter starts it: Alt+S, Enter.
        shortcut(&console, 's', "clock-start").await;
        keys(&console, &ENTER.to_string()).await;
        let start = Instant::now();
        loop {
            // The state is published with each batch of events: "running" is what
            // it says; the console shows the time running down.
            let (started, running, _, _) = clock_of(&state(&http, &base).await);
            if started && running && text_of(&console, "time-white").await != "1:30:00" {
                break;
            }
            let said = js(&console, "return [document.getElementById('result-line').textContent,
                (document.getElementById('clock-start-refusal') || {}).textContent, document.getElementById('alerts').textContent];").await;
            assert!(start.elapsed() < WAIT, "White's clock not running after Alt+S, Enter: {said}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        text_within(&console, "clock-line", WAIT, "the clock running on the console", |t| {
            t.starts_with("running")
        })
        .await;
        no_banner_for(&console, Duration::from_secs(2)).await;
    })
    .await;
}

/// Alt+N, White's and Black's names typed, Tab to "Start a new game", Enter,
/// and "Yes" in the page's confirmation (Enter).
async fn new_game_with_names(console: &Client, white: &str, black: &str) {
    keys(console, &alt('n')).await;
    tab_to(console, "new-white", 6).await;
    keys(console, &format!("{white}{TAB}{black}")).await;
    tab_to(console, "new-submit", 12).await;
    keys(console, &ENTER.to_string()).await;
    within(WAIT, "the new game confirmed in the page", || async {
        active_id(console).await == "new-confirm-yes"
    })
    .await;
    keys(console, &ENTER.to_string()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_game_on_a_board_still_showing_the_old_game_runs_no_clock_until_the_start_stands() {
    let dir = scratch("web-day-new-game");
    let link = dir.join("pegboard");
    let config = pegboard_config(
        &dir,
        &link,
        "\n[game]\nsettle_ms = 200\ndebounce_ms = 15\nblind_color = \"white\"\n\n[clock]\n\
         time_control = \"5400+30\"\n\n[console]\nlisten = \"127.0.0.1:0\"\n",
    );
    let pegs = SimPegBoard::start(SimOptions::new(&link)).unwrap();
    let mut command = station_run(&config, &dir.join("journal"), None);
    command.args(["--token", TOKEN]).env("STATION_LOG", "error");
    let (_station, base) = spawn_station(command);
    let http = reqwest::Client::new();
    // His board shows the start position: the game and its clock start with it.
    within(WAIT, "the first game on with its clock running", || async {
        let s = state(&http, &base).await;
        s["phase"] == "playing" && clock_of(&s).1
    })
    .await;
    let first = state(&http, &base).await["game_id"].clone();
    // 1. e4 e5 on his board (two moves: a board one move from the start
    // would be read as the new game's first move).
    let start = pegs.occupancy();
    let mut occ = start;
    for (ply, (from, to)) in [(Square::E2, Square::E4), (Square::E7, Square::E5)].into_iter().enumerate() {
        occ.discard(from);
        pegs.set_occupancy(occ);
        tokio::time::sleep(Duration::from_millis(100)).await;
        occ.add(to);
        pegs.set_occupancy(occ);
        within(WAIT, "the move on the record", || async {
            state(&http, &base).await["moves"].as_array().is_some_and(|m| m.len() == ply + 1)
        })
        .await;
    }
    with_console(&dir, &base.clone(), |console| async move {
        new_game_with_names(&console, "Anna Blindowa", "Bert Sichtmann").await;
        within(WAIT, "the new game", || async { state(&http, &base).await["game_id"] != first }).await;
        // The board still shows 1. e4 e5: nobody sat down to the new game yet.
        tokio::time::sleep(Duration::from_secs(2)).await;
        let s = state(&http, &base).await;
        assert_eq!(
            clock_of(&s),
            (false, false, FULL, FULL),
            "no clock before the start position stands: {s}"
        );
        text_within(&console, "clock-line", WAIT, "the console says the clock waits", |t| {
            t.contains("not started")
        })
        .await;
        assert_accessible(&console, "the console of a new game on a board still showing the old one").await;
        // The pawns go back: the start position stands, White's clock runs.
        pegs.set_occupancy(start);
        within(WAIT, "White's clock running once the board is set up", || async {
            let (started, running, _, _) = clock_of(&state(&http, &base).await);
            started && running
        })
        .await;
        shows(&console, "log", "Clock started: the game's position stands on the boards").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enter_in_the_clock_correction_changes_no_clock_without_a_confirmation_naming_side_and_time() {
    with_console_without_boards("web-day-correction", |console, base, http| async move {
        // The clock started and stopped by the arbiter (Alt+S, Enter; Alt+P, Enter).
        shortcut(&console, 's', "clock-start").await;
        keys(&console, &ENTER.to_string()).await;
        within(WAIT, "the clock running", || async { clock_of(&state(&http, &base).await).1 }).await;
        shortcut(&console, 'p', "clock-pause").await;
        keys(&console, &ENTER.to_string()).await;
        within(WAIT, "the clock stopped", || async {
            let (started, running, _, _) = clock_of(&state(&http, &base).await);
            started && !running
        })
        .await;
        let (_, _, white, black) = clock_of(&state(&http, &base).await);
        assert_eq!(black, FULL);

        // Alt+C, Black, "2:00" as the remaining time, Enter: asked, not done.
        let question = correction(&console, DOWN, "set-time-value", "2:00").await;
        assert!(question.starts_with("Set Black's clock to 2:00?"), "{question}");
        assert!(question.contains("1:30:00"), "the time it shows now: {question}");
        assert_eq!(text_of(&console, "clock-confirm-yes").await, "Yes, set Black's clock to 2:00");
        assert_eq!(clock_of(&state(&http, &base).await).3, FULL, "Enter changed Black's clock");
        assert_accessible(&console, "the console asking to confirm a clock correction").await;
        // Escape keeps the clock and goes back to the field.
        keys(&console, &ESCAPE.to_string()).await;
        within(WAIT, "back in the field", || async { active_id(&console).await == "set-time-value" }).await;
        assert!(!js_visible(&console, "clock-confirm").await, "the question is gone");
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(clock_of(&state(&http, &base).await).3, FULL, "Escape changed Black's clock");
        // Enter again, then Enter on "Yes": set.
        keys(&console, &ENTER.to_string()).await;
        asked(&console).await;
        keys(&console, &ENTER.to_string()).await;
        within(WAIT, "Black's clock set to 2:00", || async {
            clock_of(&state(&http, &base).await).3 == 120_000
        })
        .await;
        text_within(&console, "time-black", WAIT, "2:00 on the console", |t| t == "2:00").await;

        // Adding time has its own field: White, "2:00" to add, who and why, Enter.
        let question =
            correction(&console, UP, "add-time-value", &format!("2:00{TAB}Arbiter Keys{TAB}Art. 7.5.5 test"))
                .await;
        assert!(question.starts_with("Add 2:00 to White's clock to 1:3"), "{question}");
        assert!(question.contains("Arbiter Keys"), "{question}");
        assert_eq!(clock_of(&state(&http, &base).await).2, white, "Enter changed White's clock");
        keys(&console, &ENTER.to_string()).await;
        within(WAIT, "two minutes added to White's clock", || async {
            clock_of(&state(&http, &base).await).2 == white + 120_000
        })
        .await;
        shows(&console, "log", "Time added to White's clock by Arbiter Keys — Art. 7.5.5 test").await;
        assert_accessible(&console, "the console after two clock corrections").await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_back_proposes_the_clocks_without_the_move_and_the_arbiter_decides() {
    with_console_without_boards("web-day-take-back", |console, base, http| async move {
        // 1. e4 e5 2. Bc4, each pressed by the station (the first press starts the clock).
        for (i, typed) in ["e4", "e5", "Bc4"].iter().enumerate() {
            if i == 2 {
                // White thinks a while over 2. Bc4.
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            shortcut(&console, 'm', "move").await;
            keys(&console, &format!("{typed}{ENTER}")).await;
            within(WAIT, typed, || async {
                state(&http, &base).await["moves"].as_array().is_some_and(|m| m.len() == i + 1)
            })
            .await;
        }
        let pressed: Vec<(String, u64)> = state(&http, &base).await["log"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter(|e| e["type"] == "clock_pressed")
            .map(|e| {
                (e["side"].as_str().unwrap_or_default().to_owned(), e["remaining_ms"].as_u64().unwrap_or(0))
            })
            .collect();
        assert_eq!(pressed.len(), 3, "{pressed:?}");
        let (white_before, black_before) = (pressed[0].1, pressed[1].1);
        // Alt+T, Enter: taken back; the clocks without it are proposed, not set.
        shortcut(&console, 't', "take-back").await;
        keys(&console, &ENTER.to_string()).await;
        within(WAIT, "the clocks proposed", || async { active_id(&console).await == "take-back-clocks-yes" })
            .await;
        let text = text_of(&console, "take-back-clocks-text").await;
        let fmt = |ms: u64| format!("{}:{:02}:{:02}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60);
        assert!(text.starts_with("2. Bc4 taken back."), "{text}");
        assert!(
            text.contains(&format!("White {} and Black {}", fmt(white_before), fmt(black_before))),
            "the readings from before 2. Bc4 ({white_before}, {black_before}): {text}"
        );
        let (_, _, white_now, _) = clock_of(&state(&http, &base).await);
        assert!(white_now > white_before, "his increment still on the clock until the arbiter decides");
        assert_accessible(&console, "the console proposing the clocks after a take-back").await;
        keys(&console, &ENTER.to_string()).await;
        within(WAIT, "the clocks set as proposed", || async {
            let (_, _, white, black) = clock_of(&state(&http, &base).await);
            // White's clock runs again from the proposed reading.
            white <= white_before && white + 2_000 > white_before && black == black_before
        })
        .await;
        within(WAIT, "the proposal closed", || async { !js_visible(&console, "take-back-clocks").await })
            .await;
        shows(&console, "log", "White's clock set by arbiter — take-back of 2. Bc4 (Art. 7)").await;
    })
    .await;
}

/// Alt+C, the side chosen with `arrow`, Tab to `field`, `typed` and Enter:
/// the question the console asks, its "Yes" focused.
async fn correction(console: &Client, arrow: char, field: &str, typed: &str) -> String {
    shortcut(console, 'c', "set-time-side").await;
    keys(console, &arrow.to_string()).await;
    tab_to(console, field, 3).await;
    keys(console, &format!("{typed}{ENTER}")).await;
    asked(console).await
}

/// Waits for the clock correction's question, its "Yes" focused; returns the question.
async fn asked(console: &Client) -> String {
    within(WAIT, "the correction asked first", || async { active_id(console).await == "clock-confirm-yes" })
        .await;
    text_of(console, "clock-confirm-text").await
}

/// Waits until the text of the element `id` holds `needle`; fails with the text it has.
async fn shows(client: &Client, id: &str, needle: &str) {
    let start = Instant::now();
    loop {
        let text = text_of(client, id).await;
        if text.contains(needle) {
            return;
        }
        assert!(start.elapsed() < WAIT, "#{id} does not say {needle:?} after {WAIT:?}: {text}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Whether the element `id` is shown.
async fn js_visible(client: &Client, id: &str) -> bool {
    js(
        client,
        &format!(
            "const e = document.getElementById('{id}'); return Boolean(e && !e.hidden && e.offsetParent);"
        ),
    )
    .await
        == Value::Bool(true)
}

/// The rectangle of the first element `selector` matches: left, top, right, bottom.
async fn rect(client: &Client, selector: &str) -> [f64; 4] {
    let r = js(
        client,
        &format!(
            "const e = document.querySelector({selector:?}); if (!e) return null;
             const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom];"
        ),
    )
    .await;
    let n = |i: usize| r[i].as_f64().unwrap_or(f64::NAN);
    [n(0), n(1), n(2), n(3)]
}

fn on_first_screen(r: [f64; 4]) -> bool {
    r[0] >= 0.0 && r[1] >= 0.0 && r[2] <= 1280.5 && r[3] <= 800.5 && r[3] > r[1]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_letters_and_the_record_on_the_first_screen_of_every_page() {
    let dir = scratch("web-day-names");
    let (_station, base) = no_board_station(&dir).await;
    let http = reqwest::Client::new();
    let mirror_base = base.clone();
    with_console(&dir, &base.clone(), |console| async move {
        screenshot(&console, "day-console-1280-start", None).await;
        new_game_with_names(&console, "Anna Blindowa", "Bert Sichtmann").await;
        within(WAIT, "the names on the record", || async {
            state(&http, &base).await["tags"]["white"] == "Anna Blindowa"
        })
        .await;
        for (typed, number) in [("e4", "1. e4"), ("e5", "1… e5"), ("Nf3", "2. Nf3")] {
            shortcut(&console, 'm', "move").await;
            keys(&console, &format!("{typed}{ENTER}")).await;
            text_within(&console, "last-move", WAIT, number, |t| t.starts_with(number)).await;
        }
        // White offers a draw with his move: the log says so in the console's words.
        shortcut(&console, 'o', "draw-side").await;
        keys(&console, &format!("{TAB}{ENTER}")).await;
        shows(&console, "log", "White offers a draw (=) after 2. Nf3").await;
        // The Breyer: twenty half-moves, the last a knight's.
        let more = [
            "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3",
            "Nb8", "d4", "Nbd7",
        ];
        for (i, typed) in more.iter().enumerate() {
            shortcut(&console, 'm', "move").await;
            keys(&console, &format!("{typed}{ENTER}")).await;
            within(WAIT, typed, || async {
                state(&http, &base).await["moves"].as_array().is_some_and(|m| m.len() == i + 4)
            })
            .await;
        }
        text_within(&console, "last-move", WAIT, "10… Nbd7", |t| t.starts_with("10… Nbd7")).await;

        // The console's header names the players, not the journal's file.
        let players = text_of(&console, "players").await;
        assert!(players.contains("Anna Blindowa") && players.contains("Bert Sichtmann"), "{players}");
        let id = state(&http, &base).await["game_id"].as_str().unwrap_or_default().to_owned();
        let header = js(&console, "return document.querySelector('header.top').innerText;").await;
        assert!(!header.as_str().unwrap_or_default().contains(&id), "the game id in the header: {header}");
        // The first screen at 1280×800: the players, both clocks, the board and
        // the record down to its last move, without scrolling.
        js(&console, "window.scrollTo(0, 0); return true;").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        for selector in
            ["#players", "#clock-white", "#clock-black", "#boards figure svg", "#records tbody tr:last-child"]
        {
            let r = rect(&console, selector).await;
            assert!(on_first_screen(r), "{selector} on the first screen at 1280×800: {r:?}");
        }
        let board = rect(&console, "#boards figure svg").await;
        eprintln!("the board on the console's first screen: {:.0} px wide, {board:?}", board[2] - board[0]);
        assert!(board[2] - board[0] >= 400.0, "the board is large: {board:?}");
        let last_row =
            js(&console, "return document.querySelector('#records tbody tr:last-child').innerText;").await;
        assert!(
            last_row.as_str().is_some_and(|r| r.contains("d4") && r.contains("Nbd7")),
            "the last move in sight: {last_row}"
        );
        screenshot(&console, "day-console-1280", None).await;
        assert_accessible(&console, "the console with the players named and three moves").await;

        // The log speaks the console's words: no ply counts, no listener codes.
        let log = text_of(&console, "log").await;
        for code in ["ply", "Said (", "(log)", " 1 moves", "made on the blind board"] {
            assert!(!log.contains(code), "{code:?} in the log: {log}");
        }

        // The result with the arbiter's English words: the German sentence says
        // it in German, without them.
        let results_said = || async {
            state(&http, &base).await["log"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .filter(|e| {
                    e["type"] == "announcement" && e["listener"] == "private" && e["about"] == "result"
                })
                .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
                .collect::<Vec<String>>()
        };
        let before = results_said().await.len();
        shortcut(&console, 'f', "result-value").await;
        keys(&console, &format!("{TAB}Black resigned{ENTER}")).await;
        within(WAIT, "the game over", || async { state(&http, &base).await["phase"] == "finished" }).await;
        // Its words follow the result (on a loaded machine, a moment after the phase).
        within(WAIT, "the result said to him", || async { results_said().await.len() > before }).await;
        let said = results_said().await;
        // The newest: an earlier one closed the game before this one.
        let text = said.last().expect("the result said to him");
        assert!(!text.contains("resigned") && text.contains("Schwarz hat aufgegeben"), "{text}");
        let log = text_of(&console, "log").await;
        assert!(!log.contains("Game over: * "), "{log}");
    })
    .await;

    // The mirror (Polish) and the player's page (German): the names, and the
    // knight's move with their letter: 10… Sbd7, not Nbd7.
    let (_driver, driver_url) = start_chromedriver();
    let page = browser(&driver_url, &dir.join("profile-pages"), 1280, 800).await;
    let outcome = std::panic::AssertUnwindSafe(async {
        set_viewport(&page, 1280, 800).await;
        for (path, what) in [("/mirror", "the Polish mirror"), ("/player", "the German player's page")] {
            page.goto(&format!("{mirror_base}{path}")).await.unwrap();
            within(WAIT, &format!("the names on {what}"), || async {
                text_of(&page, "player-white").await == "Anna Blindowa"
                    && text_of(&page, "player-black").await == "Bert Sichtmann"
            })
            .await;
            text_within(&page, "last-san", WAIT, &format!("Sbd7 on {what}"), |t| t.ends_with("Sbd7")).await;
            let text = js(&page, "return document.body.innerText;").await;
            assert!(!text.as_str().unwrap_or_default().contains("Nbd7"), "{what}: {text}");
            screenshot(&page, &format!("day{}", path.replace('/', "-")), None).await;
            assert_accessible(&page, &format!("{what} with the names and Sbd7")).await;
        }
    })
    .catch_unwind()
    .await;
    let _ = page.close().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}
