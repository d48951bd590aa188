//! The console's "Pre-round check" panel (issue 24), keyboard only, in a real
//! headless Chromium against a real `station run`: the station's own peg
//! board port and journal folder are "held by this station" (ok), never "in
//! use"; a board whose port is not there fails and comes first, the clock
//! without a lever is a warning; every level is a word; the summary line is
//! a polite live region; axe-core finds nothing serious on the results.
//!
//! Needs the Debian packages `chromium` and `chromium-driver` (`scripts/setup`).

use serde_json::Value;
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::browser::{
    ENTER, active_id, alt, assert_accessible, enter_token, js, keys, open_console, screenshot, spawn_station,
    start_chromedriver, text_of, within,
};
use station_tests::{scratch, station_run};
use std::time::Duration;

const TOKEN: &str = "preround-test-token-5c2a";
/// An upper bound a loaded machine may need, never an expectation of speed.
const WAIT: Duration = Duration::from_secs(20);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pre_round_check_on_the_console_says_what_this_station_holds_and_what_fails_first() {
    let dir = scratch("e2e-preround");
    // The blind player's peg board (simulated, on a real pty the station opens
    // exclusively as it would a USB board); the mirror's port is not there.
    let peg_link = dir.join("pegboard");
    let _pegs = SimPegBoard::start(SimOptions::new(&peg_link)).expect("simulated peg board");
    let missing = dir.join("no-such-port");
    let journal = dir.join("journal");
    let config = dir.join("station.toml");
    std::fs::write(
        &config,
        format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"pegboard\"\n\
             port = \"{}\"\n\n[buttons]\nclock = []\n\n[clock]\ntime_control = \"5400+30\"\n\n\
             [console]\nlisten = \"127.0.0.1:0\"\n",
            peg_link.display(),
            missing.display()
        ),
    )
    .unwrap();
    let mut command = station_run(&config, &journal, None);
    command.args(["--token", TOKEN]);
    let (_station, base) = spawn_station(command);
    let http = reqwest::Client::new();
    // The station has its board's port open before the check is asked for.
    within(WAIT, "the blind player's board connected", || async {
        let state: Value = http.get(format!("{base}/api/state")).send().await.unwrap().json().await.unwrap();
        state["boards"].as_array().is_some_and(|boards| {
            boards.iter().any(|b| b["role"] == "blind" && b["connected"] == Value::Bool(true))
        })
    })
    .await;

    let (_driver, driver_url) = start_chromedriver();
    let console = open_console(&driver_url, &dir, &base).await;
    within(WAIT, "the console's token status", || async {
        text_of(&console, "token-status").await.contains("No token")
    })
    .await;
    enter_token(&console, TOKEN).await;

    // Alt+0 goes to the button (every letter is taken), Enter runs the check.
    keys(&console, &alt('0')).await;
    assert_eq!(active_id(&console).await, "doctor-run", "Alt+0 goes to the pre-round check");
    let label = text_of(&console, "doctor-run").await;
    assert_eq!(label, "Run pre-round check");
    keys(&console, &ENTER.to_string()).await;
    within(WAIT, "the pre-round check's summary", || async {
        summary_counts(&text_of(&console, "doctor-summary").await).is_some()
    })
    .await;
    assert_eq!(active_id(&console).await, "doctor-run", "the focus stays on the button");

    // The lines as the arbiter reads them: level word, item, found, what to do.
    let lines = js(
        &console,
        "return [...document.querySelectorAll('#doctor-list > li')].map(li => ({
             level: li.querySelector('.doctor-level').textContent,
             item: li.querySelector('.doctor-item').textContent,
             text: li.textContent }));",
    )
    .await;
    let lines = lines.as_array().expect("the check's lines").clone();
    assert!(lines.len() >= 5, "one line per item: {lines:?}");
    let rank = |level: &str| match level {
        "fail" => 0,
        "warn" => 1,
        "ok" => 2,
        other => panic!("a level that is not a word of ok/warn/fail: {other}"),
    };
    let ranks: Vec<i32> = lines.iter().map(|l| rank(l["level"].as_str().unwrap())).collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "failures first, then warnings: {lines:?}");
    for line in &lines {
        let text = line["text"].as_str().unwrap();
        assert!(
            text.starts_with(line["level"].as_str().unwrap()),
            "the level is said first, as a word: {text}"
        );
    }
    let line = |item: &str| {
        lines
            .iter()
            .find(|l| l["item"] == item || l["item"].as_str().unwrap().starts_with(item))
            .unwrap_or_else(|| panic!("no line for {item}: {lines:?}"))
            .clone()
    };
    let blind = line("board blind");
    assert_eq!(blind["level"], "ok", "{blind}");
    let blind_text = blind["text"].as_str().unwrap();
    assert!(blind_text.contains("held by this station"), "{blind}");
    assert!(blind_text.contains(&peg_link.display().to_string()), "{blind}");
    assert!(!blind_text.contains("in use"), "its own port is not `in use`: {blind}");
    let journal_line = line("journal");
    assert_eq!(journal_line["level"], "ok", "{journal_line}");
    assert!(journal_line["text"].as_str().unwrap().contains("held by this station"), "{journal_line}");
    let mirror = line("board mirror");
    assert_eq!(mirror["level"], "fail", "{mirror}");
    assert!(mirror["text"].as_str().unwrap().contains("not there"), "{mirror}");
    assert!(mirror["text"].as_str().unwrap().contains("What to do:"), "{mirror}");
    assert_eq!(lines[0]["level"], "fail", "the failure heads the list");
    let clock = line("clock");
    assert_eq!(clock["level"], "warn", "a clock nothing can press: {clock}");

    // The summary counts the lines shown, and is what the API says.
    let summary = text_of(&console, "doctor-summary").await;
    let (ok, warn, fail) = summary_counts(&summary).unwrap();
    let count = |level: i32| ranks.iter().filter(|&&r| r == level).count();
    assert_eq!((fail, warn, ok), (count(0), count(1), count(2)), "{summary}");
    let live = js(
        &console,
        "const s = document.getElementById('doctor-summary');
         return [s.getAttribute('aria-live'), s.getAttribute('role')];",
    )
    .await;
    assert_eq!(live, serde_json::json!(["polite", "status"]));
    let api: Value =
        http.get(format!("{base}/api/doctor")).bearer_auth(TOKEN).send().await.unwrap().json().await.unwrap();
    assert_eq!(api["counts"], serde_json::json!({ "ok": ok, "warn": warn, "fail": fail }), "{api}");
    let refused = http.get(format!("{base}/api/doctor")).send().await.unwrap().status();
    assert_eq!(refused.as_u16(), 401, "the check needs the operator token");

    // The keyboard list names the shortcut.
    let keys_text = text_of(&console, "sec-keys").await;
    assert!(keys_text.contains("Alt+0Pre-round check"), "the shortcut is listed: {keys_text}");
    js(&console, "document.getElementById('sec-doctor').scrollIntoView(); return true;").await;
    screenshot(&console, "preround-console", None).await;
    assert_accessible(&console, "the console's pre-round check with a failure, a warning and held items")
        .await;
    let _ = console.close().await;
}

/// "N ok, N warn, N fail …" → (ok, warn, fail).
fn summary_counts(text: &str) -> Option<(usize, usize, usize)> {
    let mut words = text.split([' ', ',']).filter(|w| !w.is_empty());
    let mut next = |name: &str| -> Option<usize> {
        let n = words.next()?.parse().ok()?;
        (words.next()? == name).then_some(n)
    };
    Some((next("ok")?, next("warn")?, next("fail")?))
}
