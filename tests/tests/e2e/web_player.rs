//! Issue 18 §6 through the real `station run` (no sensor boards: the
//! assistant enters the moves, the station presses the clocks):
//!
//! - `/player`, the visually impaired player's own view, in a real headless
//!   Chromium: axe-core finds no serious or critical violation, the board is
//!   drawn from his side (Black's here), a move made on the station shows in
//!   words and SAN, and at 400 % zoom (a 320 px wide viewport, 1280 / 4) the
//!   board fits without horizontal scrolling;
//! - `station export --large-print` of a real game (Fischer's first drawn
//!   game of `games/Fischer.pgn`, with a declined draw offer on the way and
//!   the draw agreed at the end): `pdftotext` gives back its moves in order,
//!   the clock time after each (equal to the `[%clk]` of `export --pgn`), the
//!   draw-offer marks, the players and the result.
//!
//! Needs the Debian packages `chromium`, `chromium-driver` and `poppler-utils`
//! (`scripts/setup`).

use serde_json::{Value, json};
use station_core::pgn::{PgnGame, read_games};
use station_tests::browser::{
    Kill, api_state as state, assert_accessible, assert_reflows, browser, js, screenshot, set_viewport,
    spawn_playing, start_chromedriver, text_of, text_within, within,
};
use station_tests::{export_error, exported, post_command, scratch, shared_pgn, station_run, write_config};
use std::path::Path;
use std::process::Command;
use std::time::Duration;

const TOKEN: &str = "player-test-token-2b7d";
/// An upper bound a loaded machine may need, never an expectation of speed.
const WAIT: Duration = Duration::from_secs(5);

/// `station run` without sensor boards (the blind player speaks, the
/// assistant enters the moves), 90 min + 30 s pressed by the station, the
/// given `[tags]`; returns it and its base URL once a game is on.
async fn station(dir: &Path, blind_color: &str, tags: &str) -> (Kill, String) {
    let config = write_config(
        dir,
        &format!(
            "[boards.blind]\ndriver = \"none\"\n\n[game]\nblind_color = \"{blind_color}\"\n\n[clock]\n\
             time_control = \"5400+30\"\nauto_press = true\n\n[speech]\nenabled = true\nmicrophone = false\n\n\
             [console]\nlisten = \"127.0.0.1:0\"\n\n[tags]\n{tags}"
        ),
    );
    spawn_playing(station_run(&config, &dir.join("journal"), None), TOKEN).await
}

/// A command the station must accept.
fn command(base: &str, body: Value) {
    let (status, answer) = post_command(base, TOKEN, &body);
    assert_eq!(status, 200, "{body}: {answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_page_shows_his_side_the_last_move_and_the_clocks_and_zooms_to_400_percent() {
    let dir = scratch("web-player");
    let (_station, base) = station(&dir, "black", "white = \"Sighted\"\nblack = \"Blind\"\n").await;
    let http = reqwest::Client::new();
    let (_driver, driver_url) = start_chromedriver();
    let page = browser(&driver_url, &dir.join("profile-player"), 1280, 800).await;
    set_viewport(&page, 1280, 800).await;
    page.goto(&format!("{base}/player")).await.unwrap();
    within(WAIT, "the player's page live with the game", || async {
        !text_of(&page, "game").await.is_empty() && !text_of(&page, "time-white").await.starts_with('–')
    })
    .await;
    // Read-only: nothing to press, nothing to type into.
    let controls =
        js(&page, "return document.querySelectorAll('button, input, select, textarea, form, a').length;")
            .await;
    assert_eq!(controls, json!(0), "the player's page has controls");
    assert_accessible(&page, "the player's page at the start").await;

    // His side at the bottom: Black's pieces below White's, the h-file on the
    // left, rank 1 at the top.
    let geometry = js(
        &page,
        "const mid = (sel) => { const r = [...document.querySelectorAll(sel)].map(e => e.getBoundingClientRect());
             return r.reduce((s, b) => s + b.top + b.height / 2, 0) / r.length; };
         const coord = (t) => [...document.querySelectorAll('#board svg text.coord')].find(e => e.textContent === t)
             .getBoundingClientRect();
         return { black: mid('#board svg text.piece.b'), white: mid('#board svg text.piece.w'),
                  a: coord('a').left, h: coord('h').left, r1: coord('1').top, r8: coord('8').top,
                  side: document.getElementById('board').dataset.side };",
    )
    .await;
    let n = |k: &str| geometry[k].as_f64().unwrap_or(f64::NAN);
    assert_eq!(geometry["side"], "black", "{geometry}");
    assert!(n("black") > n("white"), "Black's pieces at the bottom: {geometry}");
    assert!(n("h") < n("a") && n("r1") < n("r8"), "the board turned to Black's side: {geometry}");
    assert!(!text_of(&page, "you-black").await.is_empty() && text_of(&page, "you-white").await.is_empty());

    // A move made on the station shows within the wait, in words and SAN, and the clocks run.
    for (ply, san) in [(1, "e4"), (2, "c5")] {
        command(&base, json!({"cmd": "enter_move", "move": san}));
        let number = if ply % 2 == 1 { "1." } else { "1…" };
        let took =
            text_within(&page, "last-san", WAIT, &format!("{number} {san} on the player's page"), |t| {
                t.ends_with(&format!(": {san}"))
            })
            .await;
        eprintln!("{number} {san} shown on /player {took:?} after the command's answer");
        let s = state(&http, &base).await;
        let lang = s["languages"]["private"].as_str().unwrap_or("en");
        let words = s["last_move"]["text"][lang].as_str().expect("the move in words").to_owned();
        assert!(!words.is_empty() && words != san, "{words}");
        assert_eq!(text_of(&page, "last-words").await, format!("{number} {words}"));
    }
    within(WAIT, "White on move after 1...c5", || async {
        js(&page, "return document.getElementById('clock-white').classList.contains('on-move');").await
            == json!(true)
    })
    .await;
    for side in ["white", "black"] {
        let time = text_of(&page, &format!("time-{side}")).await;
        assert!(time.starts_with("1:3") || time.starts_with("1:2"), "{side}'s clock: {time}");
    }
    // Nothing moves: no animation or transition anywhere.
    let moving = js(
        &page,
        "return [...document.querySelectorAll('*')].filter(e => { const s = getComputedStyle(e);
             return (s.animationName !== 'none') || (parseFloat(s.transitionDuration) > 0); }).length;",
    )
    .await;
    assert_eq!(moving, json!(0), "animated elements");
    screenshot(&page, "player-1280", None).await;
    assert_accessible(&page, "the player's page after 1. e4 c5").await;

    // 400 %: a 1280 px screen zoomed four times is a 320 px wide viewport.
    page.set_window_size(320, 800).await.unwrap();
    let width = js(&page, "return window.innerWidth;").await.as_u64().unwrap_or(0);
    eprintln!("the player's page in a window 320 wide: innerWidth {width}");
    assert!(width <= 400, "the window could not be made narrow enough: {width}");
    let fits = "const s = document.scrollingElement; const b = document.getElementById('board').getBoundingClientRect();
         return { scroll: s.scrollWidth, client: s.clientWidth, board_left: b.left, board_right: b.right };";
    let report = js(&page, fits).await;
    let m = |k: &str| report[k].as_f64().unwrap_or(f64::NAN);
    assert!(m("scroll") <= m("client"), "horizontal scrolling at 320 px: {report}");
    assert!(m("board_left") >= 0.0 && m("board_right") <= m("client"), "the board sticks out: {report}");
    assert!(m("board_right") - m("board_left") >= m("client") * 0.8, "the board uses the width: {report}");
    assert_reflows(&page, &format!("the player's page {width} CSS pixels wide")).await;
    screenshot(&page, "player-320", None).await;
    assert_accessible(&page, "the player's page 320 pixels wide").await;

    // The same with the page itself zoomed 400 % at 1280 px (CSS zoom).
    set_viewport(&page, 1280, 800).await;
    js(&page, "document.documentElement.style.zoom = '4'; return true;").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let report = js(&page, fits).await;
    let m = |k: &str| report[k].as_f64().unwrap_or(f64::NAN);
    assert!(m("scroll") <= m("client"), "horizontal scrolling at CSS zoom 400 %: {report}");
    page.close().await.unwrap();
}

/// Fischer's first drawn game in the shared data, at least 60 half-moves long.
fn drawn_game() -> PgnGame {
    let bytes = std::fs::read(shared_pgn("games/Fischer.pgn")).expect("shared PGN games");
    read_games(&bytes)
        .into_iter()
        .find(|g| {
            g.tags.get("Result").is_some_and(|r| r == "1/2-1/2")
                && g.error.is_none()
                && !g.tags.contains_key("FEN")
                && g.game.ply() >= 60
        })
        .expect("a drawn game of 60 half-moves or more")
}

/// `station export --large-print` of a journal into `pdf`, which must succeed: what it printed.
fn large_print(journal: &Path, pdf: &Path) -> String {
    exported(journal, &["--large-print", "--out", pdf.to_str().unwrap()])
}

/// `pdftotext MODE FILE -` (poppler-utils).
fn pdftotext(mode: &str, pdf: &Path) -> String {
    let out = Command::new("pdftotext")
        .args([mode, "-enc", "UTF-8"])
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs: install poppler-utils (scripts/setup)");
    assert!(out.status.success(), "pdftotext: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The move lines of a scoresheet's text: for each half-move its SAN, its
/// clock and whether it carries the draw-offer mark.
fn moves_of(text: &str) -> Vec<(String, Option<String>, bool)> {
    let mut moves = Vec::new();
    let mut expected_number = 1;
    for line in text.lines() {
        let mut words = line.split_whitespace().peekable();
        let Some(first) = words.peek() else { continue };
        let Some(number) = first.strip_suffix('.').and_then(|n| n.parse::<u32>().ok()) else { continue };
        assert_eq!(number, expected_number, "move numbers in order: {line}");
        expected_number += 1;
        words.next();
        for word in words {
            let is_clock = word.split(':').count() == 3 && word.split(':').all(|p| p.parse::<u32>().is_ok());
            match (word, moves.last_mut()) {
                ("(=)", Some((_, _, offer))) => *offer = true,
                (w, Some((_, clock @ None, _))) if is_clock => *clock = Some(w.to_owned()),
                (w, _) if is_clock => panic!("a clock without its move: {w} in {line}"),
                (w, _) => moves.push((w.to_owned(), None, false)),
            }
        }
    }
    moves
}

#[test]
fn a_large_print_scoresheet_reads_back_as_the_record_of_a_real_game() {
    let dir = scratch("large-print");
    let pgn = drawn_game();
    let tag = |k: &str| pgn.tags.get(k).cloned().unwrap_or_else(|| "?".into()).replace('"', "'");
    let tags = format!(
        "event = \"{}\"\nsite = \"{}\"\nround = \"{}\"\nwhite = \"{}\"\nblack = \"{}\"\n",
        tag("Event"),
        tag("Site"),
        tag("Round"),
        tag("White"),
        tag("Black")
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (station, base) = runtime.block_on(station(&dir, "white", &tags));
    let sans: Vec<String> = pgn.game.sans().iter().map(ToString::to_string).collect();
    // White offers a draw with his 10th move; Black plays on (declined).
    let offer_ply = 19;
    for (i, san) in sans.iter().enumerate() {
        command(&base, json!({"cmd": "enter_move", "move": san}));
        if i + 1 == offer_ply {
            command(&base, json!({"cmd": "draw_offer", "side": "white"}));
        }
    }
    // The last mover offers a draw; it is accepted.
    let last_side = if sans.len() % 2 == 1 { "white" } else { "black" };
    command(&base, json!({"cmd": "draw_offer", "side": last_side}));
    command(&base, json!({"cmd": "accept_draw"}));
    let http = reqwest::Client::new();
    runtime.block_on(within(WAIT, "the game drawn", || async {
        state(&http, &base).await["phase"] == "finished"
    }));
    drop(station);

    let pdf = dir.join("scoresheet.pdf");
    let summary = large_print(&dir.join("journal"), &pdf);
    assert!(summary.starts_with(&format!("large print: {}", pdf.display())), "{summary}");
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(bytes.starts_with(b"%PDF-1.") && bytes.ends_with(b"%%EOF\n"));

    // The record the station keeps, with its clocks: `export --pgn`.
    let exported = station_tests::export_pgn(&dir.join("journal"));
    assert!(exported.status.success());
    let record = read_games(&exported.stdout).into_iter().next().expect("the exported game");
    let record_sans: Vec<String> = record.game.sans().iter().map(ToString::to_string).collect();
    assert_eq!(record_sans, sans, "the station's record is the game played");
    let clk = |seconds: u32| format!("{}:{:02}:{:02}", seconds / 3600, seconds / 60 % 60, seconds % 60);

    // Laid out as on paper, and in the order the text was written: the same moves.
    let layout = pdftotext("-layout", &pdf);
    let raw = pdftotext("-raw", &pdf);
    for (mode, text) in [("-layout", &layout), ("-raw", &raw)] {
        let moves = moves_of(text);
        let got: Vec<&str> = moves.iter().map(|(san, _, _)| san.as_str()).collect();
        assert_eq!(got, sans, "pdftotext {mode}: the moves of the record\n{text}");
        for (i, (san, clock, offer)) in moves.iter().enumerate() {
            let ply = i + 1;
            let expected = record.clocks[i].map(clk);
            assert!(expected.is_some(), "the PGN has a clock after every move");
            assert_eq!(clock, &expected, "pdftotext {mode}: the clock after {ply}. {san}");
            assert_eq!(
                *offer,
                ply == offer_ply || ply == sans.len(),
                "pdftotext {mode}: the (=) of ply {ply}"
            );
        }
        assert!(text.contains(&format!("White: {}", tag("White"))), "{mode}: {text}");
        assert!(text.contains(&format!("Black: {}", tag("Black"))), "{mode}: {text}");
        assert!(text.contains("Result: 1/2-1/2"), "{mode}: {text}");
    }
    let pages = layout.matches("Page ").count();
    assert!(pages >= 2, "a game of {} moves on several pages: {pages}", sans.len().div_ceil(2));
    for page in 1..=pages {
        assert!(layout.contains(&format!("Page {page} of {pages}")), "page {page} numbered");
    }
    eprintln!("{} half-moves on {pages} pages: moves, clocks and marks read back", sans.len());

    // An unknown game is a clear error, and nothing is written.
    let none = dir.join("none.pdf");
    let args = ["--large-print", "--game", "no-such-game", "--out", none.to_str().unwrap()];
    let err = export_error(&dir.join("journal"), &args);
    assert!(err.contains("no game `no-such-game` in") && err.contains("the games there:"), "{err}");
    assert!(!none.exists());
}

#[test]
fn the_large_print_keeps_polish_and_german_letters_in_its_text_layer() {
    let dir = scratch("large-print-letters");
    let tags = "event = \"Mistrzostwa Łodzi\"\nsite = \"Łódź POL\"\nwhite = \"Wróbel, Łukasz\"\n\
                black = \"Müller, Jürgen\"\n";
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (station, base) = runtime.block_on(station(&dir, "white", tags));
    for san in ["d4", "Nf6", "c4"] {
        command(&base, json!({"cmd": "enter_move", "move": san}));
    }
    drop(station);
    let pdf = dir.join("letters.pdf");
    large_print(&dir.join("journal"), &pdf);
    let text = pdftotext("-layout", &pdf);
    for words in
        ["White: Wróbel, Łukasz", "Black: Müller, Jürgen", "Mistrzostwa Łodzi, Łódź POL", "Result: *"]
    {
        assert!(text.contains(words), "{words} in\n{text}");
    }
    let moves: Vec<String> = moves_of(&text).into_iter().map(|(san, _, _)| san).collect();
    assert_eq!(moves, ["d4", "Nf6", "c4"]);
}
