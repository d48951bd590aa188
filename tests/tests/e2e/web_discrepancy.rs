//! Discrepancies (Annex D.2.9) end to end, resolved from the console with the
//! keyboard alone, in a real headless Chromium against a real `station run`:
//! the blind player's peg board simulated on one pseudo-terminal, the sighted
//! player's DGT board emulated on another, both driven step by step.
//!
//! - Execution: the sighted player executes the blind player's move wrongly on
//!   his DGT board; both pages show the discrepancy with the correction steps;
//!   the board is put right; both pages clear.
//! - Records: the operator types the sighted player's scoresheet, which differs;
//!   the console walks through the fix (back to the last position where the
//!   records agree, the clock proposal) and the operator accepts the proposal;
//!   both boards are set back; both pages clear and the game goes on.
//!
//! Screenshots of both pages during and after each go to `target/e2e/screenshots/`.

use fantoccini::{Client, Locator};
use serde_json::{Value, json};
use shakmaty::{Chess, Color, Move, Position, san::San};
use station_sim::dgt::{DgtEmulator, board_after};
use station_sim::games::two_boards;
use station_sim::pegboard::SimPegBoard;
use station_tests::browser::{
    ENTER, TAB, active_id, alt, assert_accessible, browser, enter_token, keys, screenshot, spawn_station,
    start_chromedriver, text_of, text_within, within,
};
use station_tests::{of_type, peg_and_dgt_boards, read_events, scratch, station_run, write_config};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

const TOKEN: &str = "discrepancy-test-token-9d07";
const SETTLE_MS: u64 = 220;
const SPEED: f64 = 4.0;
/// An upper bound a loaded machine may need, never an expectation of speed
/// (the delays are measured and printed where they matter).
const WAIT: Duration = Duration::from_secs(5);

struct Game {
    pegs: SimPegBoard,
    dgt: DgtEmulator,
    http: reqwest::Client,
    base: String,
    events: std::path::PathBuf,
    positions: Vec<Chess>,
}

impl Game {
    async fn state(&self) -> Value {
        self.http.get(format!("{}/api/state", self.base)).send().await.unwrap().json().await.unwrap()
    }

    async fn command(&self, body: Value) -> Value {
        let res = self
            .http
            .post(format!("{}/api/command", self.base))
            .bearer_auth(TOKEN)
            .json(&body)
            .send()
            .await
            .unwrap();
        assert!(res.status().is_success(), "{body}: {}", res.status());
        res.json().await.unwrap()
    }

    fn position(&self) -> &Chess {
        self.positions.last().unwrap()
    }

    fn mv(&self, san: &str) -> Move {
        san.parse::<San>().unwrap().to_move(self.position()).unwrap()
    }

    /// Waits until the agreed record has `plies` moves and both boards show it.
    async fn in_step(&self, plies: usize) {
        let start = Instant::now();
        loop {
            let s = self.state().await;
            let n = s["moves"].as_array().map_or(0, Vec::len);
            let boards = s["boards"].as_array().cloned().unwrap_or_default();
            if n == plies && boards.iter().all(|b| b["agreement"] == "in_step") && boards.len() == 2 {
                return;
            }
            assert!(start.elapsed() < Duration::from_secs(15), "not in step at ply {plies}: {s}");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    /// One move made on its owner's board and executed on the other, then the
    /// mover's clock pressed (the blind player's lever; the assistant for the
    /// sighted player, who has no lever of his own).
    async fn play(&mut self, san: &str) {
        let mover = self.position().turn();
        self.play_unpressed(san).await;
        self.press(mover).await;
    }

    /// One move made on its owner's board and executed on the other.
    async fn play_unpressed(&mut self, san: &str) {
        let mv = self.mv(san);
        let (scans, updates) =
            two_boards(self.position(), &[mv], Color::White, 400, SETTLE_MS, SPEED, None, None);
        self.pegs.play_scans(scans);
        self.dgt.play_updates(updates);
        self.pegs.wait_idle();
        self.dgt.wait_idle();
        let mut next = self.position().clone();
        next.play_unchecked(mv);
        self.positions.push(next);
        self.in_step(self.positions.len() - 1).await;
    }

    async fn press(&self, side: Color) {
        let before = of_type(&read_events(&self.events), "clock_pressed").len();
        if side == Color::White {
            self.pegs.press_button(0);
        } else {
            self.command(json!({"cmd": "clock_press", "side": "black"})).await;
        }
        let start = Instant::now();
        while of_type(&read_events(&self.events), "clock_pressed").len() == before {
            assert!(start.elapsed() < Duration::from_secs(5), "the {side} clock press was not taken");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }
}

fn config(dir: &Path, peg: &Path, dgt: &Path) -> std::path::PathBuf {
    write_config(
        dir,
        &format!(
            "[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n\n[boards.mirror]\ndriver = \"dgt\"\n\
             port = \"{}\"\nbaud = 9600\n\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\
             blind_color = \"white\"\ngrace_ms = 600000\n\n[clock]\ntime_control = \"5400+30\"\n\n\
             [console]\nlisten = \"127.0.0.1:0\"\nmirror_language = \"en\"\n",
            peg.display(),
            dgt.display()
        ),
    )
}

async fn console_has_discrepancy(console: &Client) -> bool {
    !console.find_all(Locator::Css("#discrepancies article.disc")).await.unwrap_or_default().is_empty()
}

/// Both pages clear: no discrepancy on the console, no warning or steps on the mirror.
async fn both_clear(console: &Client, mirror: &Client, what: &str) {
    within(WAIT, &format!("{what}: the console clear"), || async {
        !console_has_discrepancy(console).await && text_of(console, "discrepancies").await.starts_with("None")
    })
    .await;
    within(WAIT, &format!("{what}: the mirror clear"), || async {
        !text_of(mirror, "warnings").await.contains("disagree")
            && mirror
                .execute("return document.getElementById('fix').hidden;", vec![])
                .await
                .is_ok_and(|v| v == json!(true))
    })
    .await;
}

/// Alt+X, Tab to the walk-through button, Enter `n` times; returns what it read out last.
async fn walk_steps(console: &Client, id: u64, n: usize) -> String {
    keys(console, &alt('x')).await;
    assert_eq!(active_id(console).await, format!("disc-h-{id}"), "Alt+X goes to the discrepancy");
    keys(console, &TAB.to_string()).await;
    assert_eq!(active_id(console).await, format!("disc-next-{id}"), "Tab goes to the walk-through");
    let mut last = String::new();
    for i in 1..=n {
        keys(console, &ENTER.to_string()).await;
        let prefix = format!("Step {i} of {n} — ");
        within(WAIT, &format!("step {i} read out"), || async {
            text_of(console, &format!("disc-step-{id}")).await.starts_with(&prefix)
                && text_of(console, "announce").await.starts_with(&prefix)
        })
        .await;
        last = text_of(console, &format!("disc-step-{id}")).await;
        // The focus stays on the button: the next Enter reads the next step.
        assert_eq!(active_id(console).await, format!("disc-next-{id}"));
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn d_2_9_discrepancies_are_resolved_from_the_console_with_the_keyboard_alone() {
    let dir = scratch("web-discrepancy");
    let (peg_link, dgt_link) = (dir.join("pegboard"), dir.join("dgt"));
    let events = dir.join("events.jsonl");
    let config = config(&dir, &peg_link, &dgt_link);
    let (pegs, dgt) = peg_and_dgt_boards(&dir, SPEED, None);
    let mut command = station_run(&config, &dir.join("journal"), Some(&events));
    command.args(["--token", TOKEN]).env("STATION_LOG", "error").stderr(Stdio::null());
    let (_station, base) = spawn_station(command);
    let mut game = Game {
        pegs,
        dgt,
        http: reqwest::Client::new(),
        base: base.clone(),
        events,
        positions: vec![Chess::default()],
    };
    game.in_step(0).await;

    let (_driver, driver_url) = start_chromedriver();
    let console = browser(&driver_url, &dir.join("profile-console"), 1400, 1100).await;
    let mirror = browser(&driver_url, &dir.join("profile-mirror"), 1280, 800).await;
    mirror.goto(&format!("{base}/mirror")).await.unwrap();
    console.goto(&format!("{base}/console")).await.unwrap();
    enter_token(&console, TOKEN).await;

    for san in ["e4", "e5", "Nf3", "Nc6"] {
        game.play(san).await;
    }

    // ---- Execution: 3. Bb5 on the peg board, executed as Bc4 on the DGT board.
    let bb5 = game.mv("Bb5");
    let bc4 = game.mv("Bc4");
    let (scans, _) = two_boards(game.position(), &[bb5], Color::White, 400, SETTLE_MS, SPEED, None, None);
    game.pegs.play_scans(scans);
    game.pegs.wait_idle();
    game.dgt.set_board(board_after(game.position(), &bc4));
    within(Duration::from_secs(5), "the execution discrepancy on the console", || {
        console_has_discrepancy(&console)
    })
    .await;
    let shown = within(WAIT, "the execution discrepancy on the mirror", || async {
        // One instruction at a time (issue 22 §7): his own board's steps, no "wait".
        !text_of(&mirror, "warnings").await.contains("The boards disagree")
            && text_of(&mirror, "fix-steps").await.contains("c4 → b5")
    })
    .await;
    eprintln!("the execution discrepancy reached the mirror {shown:?} after the console");
    // The last move stays in sight beside the one instruction (1280×800).
    for id in ["last-text", "fix-steps", "time-white", "time-black"] {
        station_tests::browser::assert_whole(&mirror, id, "the mirror during an execution discrepancy").await;
    }
    let s = game.state().await;
    let disc = &s["discrepancies"][0];
    assert_eq!((disc["kind"].as_str(), disc["board"].as_str()), (Some("execution"), Some("mirror")), "{s}");
    let id = disc["id"].as_u64().unwrap();
    let text = text_of(&console, "discrepancies").await;
    assert!(text.contains("a board does not show the game"), "{text}");
    assert!(text.contains("Sighted player's board: not yet"), "{text}");
    assert!(text.contains("move the white bishop from c4 to b5"), "{text}");
    // The board to be corrected is not "in step", whatever its own record says.
    let caption = text_of(&console, "board-mirror").await;
    assert!(caption.contains(&format!("to be corrected (discrepancy {id}")), "{caption}");
    assert!(!caption.contains("in step"), "{caption}");
    assert_accessible(&console, "the console during an execution discrepancy").await;
    assert_accessible(&mirror, "the mirror during an execution discrepancy").await;
    let step = walk_steps(&console, id, 1).await;
    assert!(step.contains("Sighted player's board: move the white bishop from c4 to b5"), "{step}");
    assert!(step.contains("That was the last step"), "{step}");
    screenshot(&console, "discrepancy-execution-console", Some(2400)).await;
    screenshot(&mirror, "discrepancy-execution-mirror", None).await;

    game.dgt.set_board(board_after(game.position(), &bb5));
    let mut next = game.position().clone();
    next.play_unchecked(bb5);
    game.positions.push(next);
    both_clear(&console, &mirror, "the DGT board put right").await;
    text_within(&console, "announce", WAIT, "the resolution read out", |t| {
        t.contains(&format!("Discrepancy {id} resolved"))
    })
    .await;
    game.in_step(5).await;
    text_within(&console, "board-mirror", WAIT, "the sighted board in step again on the console", |t| {
        t.contains("in step with the game")
    })
    .await;
    assert_accessible(&console, "the console after the execution discrepancy").await;
    screenshot(&console, "discrepancy-execution-resolved-console", Some(2400)).await;
    screenshot(&mirror, "discrepancy-execution-resolved-mirror", None).await;
    game.press(Color::White).await;
    game.play("a6").await;

    // ---- Records: the sighted player's scoresheet says 2… d6 (the boards show 2… Nc6).
    keys(&console, &alt('w')).await;
    assert_eq!(active_id(&console).await, "scoresheet", "Alt+W goes to the scoresheet");
    keys(&console, &format!("1. e4 e5 2. Nf3 d6{TAB}{ENTER}")).await;
    text_within(
        &console,
        "discrepancies",
        Duration::from_secs(3),
        "the records discrepancy on the console",
        |t| t.contains("the records differ"),
    )
    .await;
    within(WAIT, "the records discrepancy on the mirror", || async {
        !text_of(&mirror, "warnings").await.contains("The boards disagree")
            && text_of(&mirror, "fix-steps").await.contains("b8")
    })
    .await;
    let s = game.state().await;
    let disc =
        s["discrepancies"].as_array().unwrap().iter().find(|d| d["kind"] == "records").unwrap().clone();
    let id = disc["id"].as_u64().unwrap();
    assert_eq!(disc["agreed_ply"], 3, "back to the position after 2. Nf3: {disc}");
    let proposal = disc["clock_proposal"].clone();
    assert_eq!(proposal["ply"], 3, "the readings after 2. Nf3: {disc}");
    let text = text_of(&console, "discrepancies").await;
    assert!(
        text.contains("go back to the last position where they agree, the position after 2. Nf3"),
        "{text}"
    );
    assert!(text.contains("Clock proposal — the readings after 2. Nf3"), "{text}");
    assert!(text.contains("Blind player's board (peg board): not yet"), "{text}");
    assert!(text.contains("Sighted player's board: not yet"), "{text}");
    let steps: usize =
        disc["fix"].as_array().unwrap().iter().map(|f| f["steps"].as_array().unwrap().len()).sum();
    assert!(steps >= 6, "three moves back on each board: {disc}");
    let last = walk_steps(&console, id, steps).await;
    assert!(last.contains("That was the last step"), "{last}");
    for board in ["board-blind", "board-mirror"] {
        let caption = text_of(&console, board).await;
        assert!(caption.contains("to be corrected") && !caption.contains("in step"), "{board}: {caption}");
    }
    assert_accessible(&console, "the console during a records discrepancy").await;
    assert_accessible(&mirror, "the mirror during a records discrepancy").await;
    let summary = text_of(&console, "records-summary").await;
    assert!(summary.contains("agree") || summary.contains("disagreement"), "{summary}");
    screenshot(&console, "discrepancy-records-console", Some(2400)).await;
    screenshot(&mirror, "discrepancy-records-mirror", None).await;

    // The arbiter accepts the clock proposal: Alt+A, Enter.
    keys(&console, &alt('a')).await;
    assert_eq!(active_id(&console).await, format!("accept-{id}"), "Alt+A goes to the accept button");
    keys(&console, &ENTER.to_string()).await;
    text_within(&console, "result-line", Duration::from_secs(2), "the clock proposal accepted", |t| {
        t.contains(&format!("clock proposal of discrepancy {id}: done"))
    })
    .await;
    let ev = read_events(&game.events);
    let set: Vec<&Value> =
        of_type(&ev, "clock_changed").into_iter().filter(|e| e["who"] == "arbiter").collect();
    assert_eq!(set.len(), 2, "both clocks set by the arbiter: {set:?}");
    let s = game.state().await;
    for side in ["white", "black"] {
        let now = s["clock"][format!("{side}_ms")].as_u64().unwrap();
        let proposed = proposal[format!("{side}_ms")].as_u64().unwrap();
        // The side on move has run since; at most the few seconds of this test.
        assert!(now <= proposed && proposed - now < 5000, "{side}: {now} vs proposed {proposed}");
    }

    // The boards go back to the position after 2. Nf3.
    let back = game.positions[3].clone();
    game.pegs.set_occupancy(back.board().occupied());
    game.dgt.set_board(back.board().clone());
    both_clear(&console, &mirror, "both boards back").await;
    game.positions.truncate(4);
    game.in_step(3).await;
    text_within(&console, "last-move", WAIT, "2. Nf3 the last move on the console", |t| {
        t.starts_with("2. Nf3")
    })
    .await;
    within(WAIT, "2. Nf3 the last move on the mirror", || async {
        text_of(&mirror, "last-san").await == "Nf3" || text_of(&mirror, "last-text").await.ends_with("Nf3")
    })
    .await;
    let resolved: Vec<u64> = of_type(&read_events(&game.events), "discrepancy_resolved")
        .iter()
        .filter_map(|e| e["id"].as_u64())
        .collect();
    assert!(resolved.contains(&id), "discrepancy_resolved {id}: {resolved:?}");
    screenshot(&console, "discrepancy-records-resolved-console", Some(2400)).await;
    screenshot(&mirror, "discrepancy-records-resolved-mirror", None).await;

    // The game goes on from there: 2… d6 on the DGT board shows on both pages, and
    // Black's press counts (the clock followed the record back to Black on move).
    game.play("d6").await;
    text_within(&console, "last-move", WAIT, "2… d6 on the console", |t| t.starts_with("2… d6")).await;
    within(WAIT, "2… d6 on the mirror", || async { text_of(&mirror, "last-san").await == "d6" }).await;
    assert_accessible(&console, "the console after both discrepancies").await;
    assert_accessible(&mirror, "the mirror after both discrepancies").await;

    console.close().await.unwrap();
    mirror.close().await.unwrap();
}
