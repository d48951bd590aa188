//! The operator console driven with the keyboard alone (focus and key presses,
//! no clicks) in a real headless Chromium, against a real `station run` with the
//! blind player's peg board simulated on a pseudo-terminal: a move entered,
//! taken back, a draw offer, the clock started, paused and corrected, an
//! adjournment with a sealed move that nobody sees (Guidelines I.2) and its
//! resumption, new games (standard, Chess960, FEN). Each result is checked on
//! the console and, where the sighted player needs it, on the mirror within 1 s.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`scripts/setup`).

use fantoccini::Client;
use futures_util::StreamExt;
use serde_json::Value;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::browser::{
    DOWN, ENTER, TAB, active_id, alt, api_state as state, assert_accessible, browser, enter_token, js, keys,
    no_token_yet, page_content, screenshot, shortcut, spawn_station, start_chromedriver, tab_to, text_of,
    text_within, value_of, within,
};
use station_tests::{Kill, pegboard_config, scratch, station_run};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const TOKEN: &str = "keyboard-test-token-51c2";
const SETTLE_MS: u64 = 200;
/// An upper bound a loaded machine may need, never an expectation of speed
/// (the delays are measured and printed where they matter).
const WAIT: Duration = Duration::from_secs(5);
/// WebDriver's arrow up.
const UP: char = '\u{E013}';

/// The mirror shows `number san` as the last move (its words in its language, the SAN beneath).
async fn mirror_shows(mirror: &Client, number: &str, san: &str) -> bool {
    let text = text_of(mirror, "last-text").await;
    let small = text_of(mirror, "last-san").await;
    text.starts_with(&format!("{number} ")) && (small == san || text == format!("{number} {san}"))
}

/// Alt+N, the start kind chosen with the arrow keys (`standard`, `fen` or
/// `chess960`), its field typed, Enter, and "Yes" in the page's own
/// confirmation (Enter again).
async fn new_game_by_keyboard(console: &Client, kind: &str, field: Option<(&str, &str)>) {
    keys(console, &alt('n')).await;
    let focused = || async {
        js(console, "return document.activeElement.name + ':' + document.activeElement.value;").await
    };
    assert!(
        focused().await.as_str().is_some_and(|f| f.starts_with("start:")),
        "Alt+N goes to the start kind"
    );
    for _ in 0..3 {
        if focused().await == format!("start:{kind}") {
            break;
        }
        keys(console, &DOWN.to_string()).await;
    }
    assert_eq!(focused().await, format!("start:{kind}"), "the arrow keys choose {kind}");
    match field {
        Some((id, text)) => {
            tab_to(console, id, 10).await;
            keys(console, &format!("{text}{ENTER}")).await;
        }
        None => {
            // Past the players, event, site, round and board (the config's tags when empty).
            tab_to(console, "new-submit", 10).await;
            let label = js(console, "return document.activeElement.textContent;").await;
            assert_eq!(label, "Start a new game", "Tab reaches the submit button");
            keys(console, &ENTER.to_string()).await;
        }
    }
    within(WAIT, "the confirmation in the page", || async { active_id(console).await == "new-confirm-yes" })
        .await;
    assert!(text_of(console, "new-confirm-text").await.starts_with("Start a new game from"));
    assert_accessible(console, &format!("the console asking to confirm a new {kind} game")).await;
    keys(console, &ENTER.to_string()).await;
}

/// Waits until the station plays a game other than `previous`; returns its id and state.
async fn next_game(http: &reqwest::Client, base: &str, previous: &str) -> (String, Value) {
    let start = std::time::Instant::now();
    loop {
        let s = state(http, base).await;
        let id = s["game_id"].as_str().unwrap_or_default().to_owned();
        if s["phase"] == "playing" && !id.is_empty() && id != previous {
            return (id, s);
        }
        assert!(start.elapsed() < Duration::from_secs(5), "no new game after {previous}: {s}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// `station run` with its token on a simulated peg board (he has White, the
/// clock 90 min + 30 s started by the operator), `console` appended to its
/// `[console]` section, its log in `station.log` at `log_level` (else the
/// default): the board, the station and its base URL.
fn pegboard_station(dir: &Path, console: &str, log_level: Option<&str>) -> (SimPegBoard, Kill, String) {
    let peg_link = dir.join("pegboard");
    let config = pegboard_config(
        dir,
        &peg_link,
        &format!(
            "\n[game]\nsettle_ms = {SETTLE_MS}\n\
             debounce_ms = 15\nblind_color = \"white\"\ngrace_ms = 600000\n\n[clock]\n\
             time_control = \"5400+30\"\nauto_start = false\n\n[console]\nlisten = \"127.0.0.1:0\"\n{console}"
        ),
    );
    let pegs = SimPegBoard::start(SimOptions::new(&peg_link)).unwrap();
    let mut command = station_run(&config, &dir.join("journal"), None);
    command.args(["--token", TOKEN]).stderr(std::fs::File::create(dir.join("station.log")).unwrap());
    if let Some(level) = log_level {
        command.env("STATION_LOG", level);
    }
    let (station, base) = spawn_station(command);
    (pegs, station, base)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_is_operated_with_the_keyboard_alone() {
    let dir = scratch("web-keyboard");
    // The log at info level, as journald gets it from the systemd unit: it must
    // never hold the sealed move.
    let (pegs, _station, base) = pegboard_station(
        &dir,
        "mirror_language = \"en\"\n\n[buttons]\nread_difference = [\"blind:5\"]\n",
        Some("info"),
    );
    let log = dir.join("station.log");
    let http = reqwest::Client::new();
    let (first_game, _) = next_game(&http, &base, "").await;

    let (_driver, driver_url) = start_chromedriver();
    let console = browser(&driver_url, &dir.join("profile-console"), 1400, 1100).await;
    let mirror = browser(&driver_url, &dir.join("profile-mirror"), 1280, 800).await;
    mirror.goto(&format!("{base}/mirror")).await.unwrap();
    console.goto(&format!("{base}/console")).await.unwrap();
    no_token_yet(&console).await;
    enter_token(&console, TOKEN).await;
    assert_accessible(&console, "the console with its token, before the clock starts").await;
    assert_accessible(&mirror, "the mirror before the clock starts").await;

    // The clock: Alt+S, Enter starts it; both pages see it run.
    let mirror_white = text_of(&mirror, "time-white").await;
    assert_eq!(mirror_white, "1:30:00", "the mirror shows the time control before the start");
    shortcut(&console, 's', "clock-start").await;
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "clock-line", WAIT, "the clock running on the console", |t| {
        t.starts_with("running")
    })
    .await;
    within(WAIT, "White's clock running on the mirror", || async {
        text_of(&mirror, "time-white").await != "1:30:00"
    })
    .await;

    // A move entered: Alt+M, the move, Enter; in any notation of ICCF Appendix
    // A (here ICCF numeric and long algebraic), shown in SAN.
    for (typed, san, number) in [("5254", "e4", "1."), ("e7-e5", "e5", "1…")] {
        shortcut(&console, 'm', "move").await;
        keys(&console, &format!("{typed}{ENTER}")).await;
        text_within(&console, "last-move", WAIT, &format!("{number} {san} on the console"), |t| {
            t.starts_with(&format!("{number} {san}"))
        })
        .await;
        within(WAIT, &format!("{number} {san} on the mirror"), || mirror_shows(&mirror, number, san)).await;
        assert_eq!(value_of(&console, "move").await, "", "the field is emptied for the next move");
    }

    // Take back: Alt+T, Enter.
    shortcut(&console, 't', "take-back").await;
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "last-move", WAIT, "1. e4 the last move again on the console", |t| {
        t.starts_with("1. e4")
    })
    .await;
    within(WAIT, "1. e4 the last move again on the mirror", || mirror_shows(&mirror, "1.", "e4")).await;
    assert_eq!(state(&http, &base).await["moves"].as_array().unwrap().len(), 1);

    // The record in another notation (ICCF Appendix A): Alt+Y, the arrow keys
    // choose ICCF numeric; the records show 1. e4 as 5254, and the choice
    // outlives a reload of the page (localStorage). Back to SAN with the arrows.
    shortcut(&console, 'y', "notation").await;
    for _ in 0..2 {
        keys(&console, &DOWN.to_string()).await;
    }
    assert_eq!(value_of(&console, "notation").await, "iccf", "two arrows down choose ICCF");
    within(WAIT, "1. e4 as 5254 in the records", || async {
        let records = text_of(&console, "records").await;
        records.contains("5254") && !records.contains("e4")
    })
    .await;
    assert_eq!(
        state(&http, &base).await["moves"][0]["notations"],
        serde_json::json!({"san": "e4", "pl": "e4", "iccf": "5254", "lan": "e2-e4", "fan": "e4"}),
        "the station gives every move in each notation"
    );
    console.refresh().await.unwrap();
    within(Duration::from_secs(5), "ICCF kept across a reload", || async {
        value_of(&console, "notation").await == "iccf" && text_of(&console, "records").await.contains("5254")
    })
    .await;
    assert_accessible(&console, "the console with the records in ICCF numeric notation").await;
    shortcut(&console, 'y', "notation").await;
    keys(&console, &format!("{UP}{UP}")).await;
    within(WAIT, "1. e4 in SAN again", || async {
        value_of(&console, "notation").await == "san" && text_of(&console, "records").await.contains("e4")
    })
    .await;

    // A draw offer by White (after his move): Alt+O, Tab, Enter. It shows on the mirror
    // (the sighted player may be deaf) until the next move.
    shortcut(&console, 'o', "draw-side").await;
    keys(&console, &format!("{TAB}{ENTER}")).await;
    text_within(&console, "log", WAIT, "the draw offer in the console's log", |t| {
        t.contains("White offers a draw (=) after 1. e4")
    })
    .await;
    text_within(&mirror, "warnings", WAIT, "the draw offer on the mirror", |t| {
        t.contains("Draw offer by White")
    })
    .await;

    // Pause: Alt+P, Enter; then a time correction: Alt+C, side, time, who, why, Enter.
    shortcut(&console, 'p', "clock-pause").await;
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "clock-line", WAIT, "the clock stopped on the console", |t| {
        t.starts_with("stopped")
    })
    .await;
    shortcut(&console, 'c', "set-time-side").await;
    keys(&console, &format!("{TAB}1:23:45{TAB}{TAB}Arbiter Keys{TAB}keyboard test{ENTER}")).await;
    // Asked first (issue 34): Enter on "Yes" sets it.
    within(WAIT, "the correction asked", || async { active_id(&console).await == "clock-confirm-yes" }).await;
    assert!(text_of(&console, "clock-confirm-text").await.starts_with("Set White's clock to 1:23:45?"));
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "time-white", WAIT, "White's corrected time on the console", |t| t == "1:23:45")
        .await;
    text_within(&mirror, "time-white", WAIT, "White's corrected time on the mirror", |t| t == "1:23:45")
        .await;
    within(WAIT, "the correction logged with who and why", || async {
        let log = text_of(&console, "log").await;
        log.contains("by Arbiter Keys") && log.contains("keyboard test")
    })
    .await;
    shortcut(&console, 'p', "clock-resume").await;
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "clock-line", WAIT, "the clock running again", |t| t.starts_with("running")).await;

    // Adjourn: Black seals 1… Nc6. Nobody may see it: not the console, not the mirror,
    // not /api/state, /game.pgn or the event stream; only the journal keeps it.
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let (mut ws, _) =
        tokio_tungstenite::connect_async(format!("{}/ws?state=1", base.replace("http://", "ws://")))
            .await
            .expect("ws");
    let collector = {
        let seen = seen.clone();
        tokio::spawn(async move {
            while let Some(Ok(msg)) = ws.next().await {
                if let Ok(text) = msg.into_text() {
                    seen.lock().unwrap().push(text.to_string());
                }
            }
        })
    };
    shortcut(&console, 'j', "adj-white").await;
    keys(&console, &format!("Anna Blind{TAB}Bert Sighted")).await;
    tab_to(&console, "adj-sealed", 40).await;
    keys(&console, "Nc6").await;
    let typed = js(&console, "return document.getElementById('adj-sealed').type;").await;
    assert_eq!(typed, "password", "the sealed move is hidden as it is typed");
    keys(&console, &ENTER.to_string()).await;
    within(WAIT, "the envelope on the console", || async { active_id(&console).await == "h-envelope" }).await;
    let envelope = text_of(&console, "envelope").await;
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    for needle in [
        "White (I.2.1):               Anna Blind",
        "Black (I.2.1):               Bert Sighted",
        after_e4,
        "Sealed by (I.2.4):           Black — Bert Sighted",
        "Number of the sealed move (I.2.5): 1",
        "Draw offer before adjournment (I.2.6): none",
        "Time on the clocks (I.2.3):  White 1:23:",
    ] {
        assert!(envelope.contains(needle), "the envelope lacks {needle:?}:\n{envelope}");
    }
    text_within(&mirror, "warnings", WAIT, "the adjournment on the mirror", |t| t.contains("Game adjourned"))
        .await;
    text_within(&console, "game-line", WAIT, "the adjournment on the console", |t| t.contains("adjourned"))
        .await;
    text_within(&console, "clock-line", WAIT, "the clock stopped by the adjournment", |t| {
        t.starts_with("stopped")
    })
    .await;
    screenshot(&console, "keyboard-console-adjourned", Some(2400)).await;
    screenshot(&mirror, "keyboard-mirror-adjourned", None).await;
    let st = http.get(format!("{base}/api/state")).send().await.unwrap().text().await.unwrap();
    let pgn = http.get(format!("{base}/game.pgn")).send().await.unwrap().text().await.unwrap();
    assert!(pgn.contains("1. e4"), "{pgn}");
    let console_page = page_content(&console).await;
    let mirror_page = page_content(&mirror).await;
    let stream = seen.lock().unwrap().join("\n");
    assert!(stream.contains("\"adjourned\""), "the stream carried the adjournment: {stream}");
    for (place, text) in [
        ("console", &console_page),
        ("mirror", &mirror_page),
        ("/api/state", &st),
        ("/game.pgn", &pgn),
        ("ws", &stream),
    ] {
        for secret in ["Nc6", "b8c6"] {
            assert!(!text.contains(secret), "the sealed move {secret} shows in {place}");
        }
    }
    collector.abort();
    let journal: String = std::fs::read_dir(dir.join("journal"))
        .unwrap()
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect();
    assert!(journal.contains("Nc6"), "the journal keeps the sealed move");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("operator command") && logged.contains("(sealed)"),
        "the adjournment is logged: {logged}"
    );
    for secret in ["Nc6", "b8c6"] {
        assert!(!logged.contains(secret), "the sealed move {secret} is in the log");
    }
    assert_accessible(&console, "the console of an adjourned game").await;
    assert_accessible(&mirror, "the mirror of an adjourned game").await;

    // Resume: Alt+U, Enter; the sealed move is made and shown.
    shortcut(&console, 'u', "resume-adjourned").await;
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "last-move", WAIT, "1… Nc6 on the console", |t| t.starts_with("1… Nc6")).await;
    within(WAIT, "1… Nc6 on the mirror", || mirror_shows(&mirror, "1…", "Nc6")).await;
    within(WAIT, "the adjournment gone from the mirror", || async {
        !text_of(&mirror, "warnings").await.contains("adjourned")
    })
    .await;
    assert!(text_of(&console, "clock-line").await.starts_with("running"), "the clock runs again");

    // New game, standard: the boards already show it, so it starts at once.
    new_game_by_keyboard(&console, "standard", None).await;
    let (second_game, s) = next_game(&http, &base, &first_game).await;
    assert_eq!(s["moves"], serde_json::json!([]));
    within(WAIT, "the new game on the mirror", || async {
        text_of(&mirror, "phase").await == second_game && text_of(&mirror, "last-text").await == "—"
    })
    .await;
    within(WAIT, "the new game on the console", || async {
        text_of(&console, "game-id").await.ends_with(&second_game)
            && text_of(&console, "last-move").await == "—"
    })
    .await;

    // New game, Chess960 number 0 (BBQNNRKR): the same pegs. It starts when
    // the command returns (issue 22); his board lacks the peg on b1: once it
    // is still, he hears what differs, never silence; the peg put in, his
    // board is right.
    let full = pegs.occupancy();
    pegs.set_occupancy(full ^ shakmaty::Bitboard::from(shakmaty::Square::B1));
    new_game_by_keyboard(&console, "chess960", Some(("new-960", "0"))).await;
    let (third_game, s) = next_game(&http, &base, &second_game).await;
    within(Duration::from_secs(5), "his board's difference said", || async {
        state(&http, &base).await["log"].as_array().unwrap().iter().any(|e| {
            e["type"] == "announcement"
                && e["text"].as_str().is_some_and(|t| t.contains("Bella eins: Läufer fehlt"))
        })
    })
    .await;
    pegs.set_occupancy(full);
    let fen960 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR";
    assert!(s["start_fen"].as_str().unwrap().starts_with(fen960), "{}", s["start_fen"]);
    within(WAIT, "the Chess960 position on the console", || async {
        value_of(&console, "adj-fen").await.starts_with(fen960)
    })
    .await;
    text_within(&mirror, "phase", WAIT, "the Chess960 game on the mirror", |t| t == third_game).await;
    // The start named by its number, its first rank shown; the blind player
    // hears it piece by piece (ICCF Appendix B) to set up his board.
    within(WAIT, "the Chess960 start on the console", || async {
        text_of(&console, "start-line").await.starts_with(
            "Start position: Chess960 number 0. White's first rank: a1 bishop, b1 bishop, c1 queen, d1 knight",
        )
    })
    .await;
    let heard = state(&http, &base).await["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "announcement" && e["about"] == "setup")
        .map(|e| e["text"].as_str().unwrap_or_default().to_owned())
        .filter(|text| text.starts_with("Chess960"))
        .collect::<Vec<_>>();
    assert_eq!(
        heard,
        ["Chess960 Nummer null, weiße Grundreihe. Anna Läufer, Bella Läufer, Cesar Dame, David Springer, \
          Eva Springer, Felix Turm, Gustav König, Hector Turm"],
        "the set-up read to the blind player"
    );

    // New game from a FEN: it starts when the command returns (issue 22).
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    new_game_by_keyboard(&console, "fen", Some(("new-fen", fen))).await;
    let (fourth_game, s) = next_game(&http, &base, &third_game).await;
    assert_eq!(s["start_fen"], fen);
    let start: Chess =
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).expect("a legal position");
    // His set-up checked square by square on his read_difference button:
    // the pawn forgotten on e2, a peg on d4 instead.
    let wrong = start.board().occupied() ^ shakmaty::Bitboard::from(shakmaty::Square::E2)
        | shakmaty::Bitboard::from(shakmaty::Square::D4);
    pegs.set_occupancy(wrong);
    tokio::time::sleep(Duration::from_millis(3 * SETTLE_MS)).await;
    pegs.press_button(5);
    within(Duration::from_secs(3), "his set-up checked and said", || async {
        state(&http, &base).await["log"].as_array().unwrap().iter().any(|e| {
            e["type"] == "announcement"
                && e["text"].as_str().is_some_and(|t| {
                    t.contains("Eva zwei: Bauer fehlt") && t.contains("David vier: Stift zu viel")
                })
        })
    })
    .await;
    pegs.set_occupancy(start.board().occupied());
    within(WAIT, "the FEN game on the console", || async {
        value_of(&console, "adj-fen").await == fen
            && text_of(&console, "game-id").await.ends_with(&fourth_game)
    })
    .await;
    within(WAIT, "the FEN game on the mirror", || async {
        text_of(&mirror, "phase").await == fourth_game
            && !text_of(&mirror, "warnings").await.contains("Waiting")
    })
    .await;
    screenshot(&console, "keyboard-console-fen-game", Some(2400)).await;
    assert_accessible(&console, "the console of a game from a FEN").await;
    assert_accessible(&mirror, "the mirror of a game from a FEN").await;

    console.close().await.unwrap();
    mirror.close().await.unwrap();
}

/// Issue 22 §3 and §7: the console reads what is written. After 1.e4 d5,
/// `d5` is refused next to the move field in the arbiter's words (never made
/// as exd5), once; `nc3` is said back as "2. Nc3?" and counts once confirmed
/// from the keyboard; the game's state, both clocks and the boards are on the
/// first screen at 1280×800. Axe-core clean in each new state; the browser is
/// ended pass or fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_reads_what_is_written_and_says_it_next_to_the_field() {
    use futures_util::FutureExt;
    let dir = scratch("web-keyboard-reading");
    let (_pegs, _station, base) = pegboard_station(&dir, "", None);
    let http = reqwest::Client::new();
    next_game(&http, &base, "").await;
    let (_driver, driver_url) = start_chromedriver();
    let console = browser(&driver_url, &dir.join("profile-console"), 1280, 800).await;
    let outcome = std::panic::AssertUnwindSafe(reading(&console, &http, &base)).catch_unwind().await;
    let _ = console.close().await;
    if let Err(panic) = outcome {
        std::panic::resume_unwind(panic);
    }
}

async fn reading(console: &Client, http: &reqwest::Client, base: &str) {
    station_tests::browser::set_viewport(console, 1280, 800).await;
    console.goto(&format!("{base}/console")).await.unwrap();
    enter_token(console, TOKEN).await;

    // The first screen at 1280×800: the game's state, both clocks and every
    // board lie whole in the window without scrolling.
    within(WAIT, "the boards drawn", || async {
        js(console, "return document.querySelectorAll('#boards figure svg').length;").await.as_u64()
            >= Some(1)
    })
    .await;
    let layout = js(
        console,
        "window.scrollTo(0, 0);
         const r = (e) => { const b = e.getBoundingClientRect(); return [Math.round(b.top), Math.round(b.bottom), Math.round(b.left), Math.round(b.right)]; };
         const out = { view: [window.innerWidth, window.innerHeight] };
         for (const id of ['game-line', 'clock-white', 'clock-black']) out[id] = r(document.getElementById(id));
         out.boards = [...document.querySelectorAll('#boards figure')].map((f) => [f.id, r(f.querySelector('svg'))]);
         return out;",
    )
    .await;
    eprintln!("the console's first screen at 1280×800: {layout}");
    let inside = |rect: &Value| {
        let n = |i: usize| rect[i].as_i64().unwrap_or(-1);
        n(0) >= 0 && n(1) <= 800 && n(1) > n(0) && n(2) >= 0 && n(3) <= 1280
    };
    for id in ["game-line", "clock-white", "clock-black"] {
        assert!(inside(&layout[id]), "#{id} on the first screen at 1280×800: {layout}");
    }
    let boards = layout["boards"].as_array().cloned().unwrap_or_default();
    assert!(!boards.is_empty(), "{layout}");
    for board in &boards {
        assert!(inside(&board[1]), "{} on the first screen at 1280×800: {layout}", board[0]);
    }
    assert!(!text_of(console, "game-line").await.is_empty(), "the game's state in the header");

    // 1. e4 d5 entered in exact notation: they count at once.
    for (typed, number) in [("e4", "1. e4"), ("d5", "1… d5")] {
        shortcut(console, 'm', "move").await;
        keys(console, &format!("{typed}{ENTER}")).await;
        text_within(console, "last-move", WAIT, &format!("{number} on the console"), |t| {
            t.starts_with(number)
        })
        .await;
    }
    // `d5` again: refused next to the field, in the arbiter's words, once.
    shortcut(console, 'm', "move").await;
    keys(console, &format!("d5{ENTER}")).await;
    text_within(console, "form-move-refusal", WAIT, "the refusal next to the move field", |t| {
        t.contains("2. d5: no pawn can go to d5")
    })
    .await;
    let refusal = text_of(console, "form-move-refusal").await;
    assert!(!refusal.contains("ply"), "no ply count: {refusal}");
    let place = js(
        console,
        "const f = document.getElementById('move').getBoundingClientRect();
         const r = document.getElementById('form-move-refusal').getBoundingClientRect();
         return [document.getElementById('form-move-refusal').closest('form').id, Math.round(r.top - f.bottom)];",
    )
    .await;
    assert_eq!(place[0], "form-move", "the refusal is in the move's form: {place}");
    assert!(place[1].as_i64().is_some_and(|gap| (-60..=80).contains(&gap)), "right under the field: {place}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let said = js(
        console,
        "return [...document.querySelectorAll('body *')].filter((e) => [...e.childNodes]
             .some((n) => n.nodeType === 3 && n.textContent.includes('no pawn can go to d5'))).map((e) => e.id || e.tagName);",
    )
    .await;
    assert_eq!(said, serde_json::json!(["form-move-refusal"]), "the refusal appears once, next to the field");
    assert_eq!(
        js(console, "return document.getElementById('move').getAttribute('aria-invalid');").await,
        "true"
    );
    assert_eq!(state(http, base).await["moves"].as_array().map(Vec::len), Some(2), "nothing was made of d5");
    assert_accessible(console, "the console with a move refused next to its field").await;

    // `nc3` (a lower-case piece letter): said back first, then confirmed with Enter.
    shortcut(console, 'm', "move").await;
    keys(console, &format!("{}nc3{ENTER}", "\u{E009}a\u{E000}\u{E017}")).await;
    within(WAIT, "the move said back", || async { active_id(console).await == "move-echo-yes" }).await;
    let echo = text_of(console, "move-echo-text").await;
    assert!(echo.starts_with("2. Nc3?") && echo.contains("lower case"), "{echo}");
    assert_eq!(text_of(console, "form-move-refusal").await, "", "the earlier refusal is gone");
    assert_eq!(
        state(http, base).await["moves"].as_array().map(Vec::len),
        Some(2),
        "not counted before the yes"
    );
    assert_accessible(console, "the console saying a move back for confirmation").await;
    keys(console, &ENTER.to_string()).await;
    text_within(console, "last-move", WAIT, "2. Nc3 made once confirmed", |t| t.starts_with("2. Nc3")).await;
    assert_eq!(active_id(console).await, "move", "back in the move field for the next move");
    assert_eq!(value_of(console, "move").await, "");

    // The Result control is on the keyboard too.
    shortcut(console, 'f', "result-value").await;

    // The mirror says which clock is the sighted player's (Black: the blind
    // player has White) and words its text board in its own language.
    for (lang, yours, words) in [
        ("de", "Ihre Uhr", "Weiß: König e1; Dame d1; Turm a1, h1"),
        ("pl", "Twój zegar", "Białe: król e1; hetman d1; wieża a1, h1"),
        ("en", "your clock", "White: king e1, queen d1, rooks a1 and h1"),
    ] {
        console.goto(&format!("{base}/mirror?lang={lang}")).await.unwrap();
        within(WAIT, &format!("the mirror in {lang}"), || async {
            text_of(console, "name-black").await.contains(yours)
                && js(console, "const e = document.querySelector('#board .visually-hidden'); return e ? e.textContent : '';")
                    .await
                    .as_str()
                    .is_some_and(|t| t.contains(words))
        })
        .await;
        assert!(!text_of(console, "name-white").await.contains(yours), "only his own clock is marked");
        assert_accessible(console, &format!("the mirror in {lang} with his clock marked")).await;
    }
}
