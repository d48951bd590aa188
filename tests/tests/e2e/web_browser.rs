//! The console and the mirror in a real headless Chromium, driven over WebDriver
//! (chromedriver), against the real `station demo` binary: a simulated peg board and a
//! simulated DGT board play a famous game through real pseudo-terminals.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`scripts/setup`).
//! Screenshots go to `target/e2e/screenshots/`.

use fantoccini::Locator;
use futures_util::StreamExt;
use serde_json::Value;
use station_tests::browser::{
    ENTER, TAB, active_id, alt, assert_accessible, assert_focus_stops_visible, assert_reflows, assert_whole,
    browser, js, keys, no_token_yet, press, screenshot, set_viewport, spawn_station, start_chromedriver,
    text_of, text_within, within,
};
use station_tests::{scratch, station_bin};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TOKEN: &str = "browser-test-token-7f3a";
/// An upper bound a loaded machine may need, never an expectation of speed.
const WAIT: Duration = Duration::from_secs(5);

/// `station demo` on a loopback port chosen by the system; returns it and its base URL.
fn start_station(dir: &std::path::Path) -> (station_tests::browser::Kill, String) {
    let mut command = Command::new(station_bin());
    command
        .args(["demo", "--speed", "4", "--mirror", "dgt", "--lang", "de", "--listen", "127.0.0.1:0"])
        .args(["--token", TOKEN, "--journal-dir"])
        .arg(dir.join("journal"))
        .env("STATION_LOG", "error")
        .stderr(Stdio::null());
    spawn_station(command)
}

/// SAN with the German piece letters (D, T, L, S for Q, R, B, N): how the
/// German mirror writes a move.
fn german_letters(san: &str) -> String {
    san.chars()
        .map(|c| match c {
            'Q' => 'D',
            'R' => 'T',
            'B' => 'L',
            'N' => 'S',
            other => other,
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn console_and_mirror_follow_the_real_station_in_chromium() {
    let dir = scratch("web-browser");
    let (_station, base) = start_station(&dir);
    let (_driver, driver_url) = start_chromedriver();
    let mirror = browser(&driver_url, &dir.join("profile-mirror"), 1280, 800).await;
    let console = browser(&driver_url, &dir.join("profile-console"), 1400, 1100).await;

    // The mirror: no controls at all.
    mirror.goto(&format!("{base}/mirror")).await.unwrap();
    let controls = mirror.find_all(Locator::Css("button, input, select, textarea, form, a")).await.unwrap();
    assert!(controls.is_empty(), "the mirror has {} controls", controls.len());
    within(Duration::from_secs(5), "the mirror's first state", || async {
        !text_of(&mirror, "phase").await.is_empty()
    })
    .await;
    assert_accessible(&mirror, "the mirror at the start").await;

    // The console without a token: commands are refused; a wrong token is refused too.
    console.goto(&format!("{base}/console")).await.unwrap();
    no_token_yet(&console).await;
    assert_accessible(&console, "the console without a token").await;
    keys(&console, &alt('s')).await;
    assert_eq!(active_id(&console).await, "clock-start", "Alt+S goes to Start clock");
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "alerts", Duration::from_secs(3), "an alert asking for the token", |t| {
        t.contains("operator token first")
    })
    .await;
    keys(&console, &alt('k')).await;
    assert_eq!(active_id(&console).await, "token");
    keys(&console, &format!("wrong-token{ENTER}")).await;
    text_within(&console, "token-status", Duration::from_secs(3), "the wrong token refused", |t| {
        t.contains("refused")
    })
    .await;
    let http = reqwest::Client::new();
    let res = http.post(format!("{base}/api/command")).body(r#"{"cmd":"clock_pause"}"#).send().await.unwrap();
    assert_eq!(res.status(), 401, "the real station enforces the token");
    let res = http
        .post(format!("{base}/api/command"))
        .bearer_auth("wrong-token")
        .body(r#"{"cmd":"clock_pause"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 401);

    // `?token=` once: kept in the session, removed from the address bar.
    console.goto(&format!("{base}/console?token={TOKEN}")).await.unwrap();
    text_within(&console, "token-status", Duration::from_secs(5), "the token accepted", |t| {
        t.contains("accepted")
    })
    .await;
    let url = console.current_url().await.unwrap();
    assert!(!url.as_str().contains(TOKEN), "the token stays in the address bar: {url}");
    mirror.refresh().await.unwrap();

    // A move made on the simulated board shows on both pages (the delays printed: the goal is 1 s).
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("{}/ws", base.replace("http://", "ws://")))
        .await
        .expect("ws");
    let mut delays = Vec::new();
    while delays.len() < 3 {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .expect("the demo keeps moving")
            .expect("stream open")
            .expect("a message");
        let Ok(text) = msg.into_text() else { continue };
        let Ok(event) = serde_json::from_str::<Value>(&text) else { continue };
        if event["type"] != "game_move" {
            continue;
        }
        let san = event["san"].as_str().unwrap().to_owned();
        let ply = event["ply"].as_u64().unwrap();
        let seen = Instant::now();
        let number = if ply % 2 == 1 { format!("{}.", ply.div_ceil(2)) } else { format!("{}…", ply / 2) };
        // Upper bounds a loaded machine may need; the delays themselves are printed and summarised.
        // The German mirror writes the move with German piece letters (Sf3).
        let written = german_letters(&san);
        let on_mirror = within(WAIT, &format!("{number} {written} on the mirror"), || async {
            text_of(&mirror, "last-text").await.starts_with(&format!("{number} "))
                && text_of(&mirror, "last-san").await == written
        })
        .await;
        let on_console =
            text_within(&console, "last-move", WAIT, &format!("{number} {san} on the console"), |t| {
                t.starts_with(&format!("{number} {san}"))
            })
            .await;
        let total = seen.elapsed();
        eprintln!("{number} {san}: mirror {on_mirror:?}, console {on_console:?} after the event");
        delays.push(total);
    }
    eprintln!("event → both pages, slowest of {}: {:?}", delays.len(), delays.iter().max());
    // The records table and the boards are drawn.
    assert!(console.find(Locator::Css("#records table.records tbody tr")).await.is_ok());
    assert_eq!(console.find_all(Locator::Css("#boards svg.board")).await.unwrap().len(), 2);
    assert_eq!(mirror.find_all(Locator::Css("#board svg.board")).await.unwrap().len(), 1);
    screenshot(&console, "console", Some(2400)).await;
    screenshot(&mirror, "mirror", None).await;
    assert_accessible(&console, "the console during the game").await;
    assert_accessible(&mirror, "the mirror during the game").await;
    // What the blind player hears is German: the English console marks it so.
    let marked =
        js(&console, "return [...document.querySelectorAll('#log li [lang]')].map(e => e.lang);").await;
    assert!(
        marked.as_array().is_some_and(|m| m.iter().any(|l| l == "de")),
        "German words in the log: {marked}"
    );
    // The boards in words: each side's pieces and a rank table.
    let board_text = text_of(&console, "board-blind").await;
    assert!(board_text.contains("White: king"), "{board_text}");
    assert!(board_text.contains("rank by rank"), "{board_text}");
    // Opened with the keyboard, the text stays open and keeps the focus while moves come.
    js(&console, "document.getElementById('board-blind-text-summary').focus(); return true;").await;
    press(&console, &[ENTER]).await;
    let move_before = text_of(&console, "last-move").await;
    within(Duration::from_secs(30), "the next move on the console", || async {
        text_of(&console, "last-move").await != move_before
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(active_id(&console).await, "board-blind-text-summary", "the focus stays on the board's text");
    let open = js(&console, "return document.getElementById('board-blind-text').open;").await;
    assert_eq!(open, serde_json::json!(true), "the board's text stays open after a move");
    let ranks = text_of(&console, "board-blind-ranks").await;
    assert!(ranks.contains("white king"), "{ranks}");
    assert_accessible(&console, "the console with a board open as text").await;

    // A discrepancy, raised from the console with the keyboard alone: a scoresheet
    // whose second move differs from the game (D.2.9, records).
    keys(&console, &alt('w')).await;
    assert_eq!(active_id(&console).await, "scoresheet", "Alt+W goes to the scoresheet");
    keys(&console, &format!("1. e4 d5{TAB}")).await;
    keys(&console, &ENTER.to_string()).await;
    within(Duration::from_secs(3), "the discrepancy on the console", || async {
        !console.find_all(Locator::Css("#discrepancies article.disc")).await.unwrap_or_default().is_empty()
    })
    .await;
    // One instruction at a time: "wait for the arbiter", or the steps for his own board.
    within(Duration::from_secs(3), "the discrepancy on the mirror", || async {
        let shown = text_of(&mirror, "warnings").await + &text_of(&mirror, "fix").await;
        shown.contains("Bretter stimmen nicht überein")
    })
    .await;
    let disc = text_of(&console, "discrepancies").await;
    assert!(disc.contains("the records differ"), "{disc}");
    assert!(disc.contains("the position after 1. e4"), "{disc}");
    let summary = text_of(&console, "records-summary").await;
    assert!(summary.is_empty() || summary.contains("agree") || summary.contains("disagreement"), "{summary}");
    screenshot(&console, "console-discrepancy", Some(2400)).await;
    screenshot(&mirror, "mirror-discrepancy", None).await;
    assert_accessible(&console, "the console during a discrepancy").await;
    assert_accessible(&mirror, "the mirror during a discrepancy").await;

    // Walking through it with the keyboard: Alt+X reads the steps, Alt+A goes to the
    // clock proposal, Enter accepts it; the station sets both clocks (arbiter).
    keys(&console, &alt('x')).await;
    assert!(active_id(&console).await.starts_with("disc-h-"), "Alt+X goes to the discrepancy");
    let state: Value = http.get(format!("{base}/api/state")).send().await.unwrap().json().await.unwrap();
    let proposal = state["discrepancies"][0]["clock_proposal"].clone();
    keys(&console, &alt('a')).await;
    if proposal.is_null() {
        // This discrepancy carries no clock proposal: Alt+A says so and stays in the section.
        assert!(!disc.contains("Clock proposal"), "{disc}");
        assert_eq!(active_id(&console).await, "h-disc");
        text_within(&console, "announce", Duration::from_secs(2), "the no-proposal announcement", |t| {
            t.contains("no clock proposal")
        })
        .await;
    } else {
        assert!(disc.contains("Clock proposal"), "{disc}");
        assert!(active_id(&console).await.starts_with("accept-"), "Alt+A goes to the accept button");
        keys(&console, &ENTER.to_string()).await;
        within(Duration::from_secs(3), "the clock proposal accepted", || async {
            let line = text_of(&console, "result-line").await;
            line.contains("clock proposal of discrepancy") && line.contains("done")
        })
        .await;
        text_within(
            &console,
            "log",
            Duration::from_secs(3),
            "the arbiter's clock correction in the log",
            |t| t.contains("by arbiter"),
        )
        .await;
    }

    // The page still answers the keyboard everywhere: every control takes the focus.
    let unreachable = js(
        &console,
        "return [...document.querySelectorAll('button, input, select, textarea, a[href], summary')]
            .filter(e => !e.closest('[hidden]') && !e.closest('details:not([open])') && e.tabIndex < 0)
            .map(e => e.id || e.outerHTML.slice(0, 60));",
    )
    .await;
    assert_eq!(unreachable, serde_json::json!([]), "controls out of the Tab order");
    assert_accessible(&console, "the console after the clock proposal").await;
    // With alerts showing, every focus stop is in sight and ringed at 3:1 or more.
    assert!(!text_of(&console, "alerts").await.is_empty(), "the alerts show");
    let stops = assert_focus_stops_visible(&console, "the console with alerts", 120).await;
    assert!(stops >= 40, "{stops} focus stops");

    // Reflow (WCAG 1.4.10): at 320 CSS pixels the console needs no sideways scrolling.
    console.set_window_size(320, 900).await.unwrap();
    let width = js(&console, "return window.innerWidth;").await;
    eprintln!("the console at a window 320 wide: innerWidth {width}");
    assert_reflows(&console, &format!("the console {width} CSS pixels wide")).await;
    screenshot(&console, "console-320", None).await;
    assert_accessible(&console, "the console 320 pixels wide").await;

    // The mirror at 1280×800 in each built-in language: both clocks whole, an
    // h1, and a title of its own (a language without page words would show
    // the English one).
    set_viewport(&mirror, 1280, 800).await;
    let mut titles = std::collections::BTreeMap::new();
    for lang in station_voices::BUILTIN_LANGUAGES {
        mirror.goto(&format!("{base}/mirror?lang={lang}")).await.unwrap();
        within(Duration::from_secs(5), &format!("the mirror in {lang}"), || async {
            js(&mirror, "return document.documentElement.lang;").await == serde_json::json!(lang)
                && !text_of(&mirror, "time-black").await.starts_with('–')
        })
        .await;
        let h1 = js(&mirror, "return [...document.querySelectorAll('h1')].map(h => h.textContent);").await;
        assert_eq!(h1.as_array().map(Vec::len), Some(1), "one h1 in {lang}: {h1}");
        for id in ["clock-white", "clock-black", "time-white", "time-black", "name-white", "name-black"] {
            assert_whole(&mirror, id, &format!("the mirror at 1280×800 in {lang}")).await;
        }
        screenshot(&mirror, &format!("mirror-{lang}"), None).await;
        assert_accessible(&mirror, &format!("the mirror in {lang}")).await;
        let title = text_of(&mirror, "title").await;
        if let Some(other) = titles.insert(title.clone(), lang) {
            panic!("the mirror in {lang} has the title of {other}: {title:?}");
        }
    }

    console.close().await.unwrap();
    mirror.close().await.unwrap();
}
