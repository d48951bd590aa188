//! The browser harness of the web tests: chromedriver and headless Chromium
//! (Debian `chromium` + `chromium-driver`) driven over WebDriver, keyboard
//! helpers, polling with a limit, and screenshots into `target/e2e/screenshots/`.

use crate::workspace;
use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The Chromium binary (Debian package `chromium`).
pub const CHROMIUM: &str = "/usr/bin/chromium";
/// The WebDriver server (Debian package `chromium-driver`).
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// WebDriver key: Alt, held until [`NULL`].
pub const ALT: char = '\u{E00A}';
/// WebDriver key: Enter.
pub const ENTER: char = '\u{E007}';
/// WebDriver key: Tab.
pub const TAB: char = '\u{E004}';
/// WebDriver key: releases every held modifier.
pub const NULL: char = '\u{E000}';
/// WebDriver key: arrow down.
pub const DOWN: char = '\u{E015}';
/// WebDriver key: Shift, held until [`NULL`].
pub const SHIFT: char = '\u{E008}';
/// WebDriver key: space.
pub const SPACE: char = '\u{E00D}';

/// Alt+`letter`, the console's shortcuts.
pub fn alt(letter: char) -> String {
    format!("{ALT}{letter}{NULL}")
}

pub use crate::Kill;

/// Spawns a `station` command (stdout must be piped) and waits for the console
/// address it prints (`console: http://…/console`); returns the base URL.
pub fn spawn_station(mut command: Command) -> (Kill, String) {
    let mut child = Kill::spawn(command.stdout(std::process::Stdio::piped()));
    let base = crate::console_address(&mut child);
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    (child, base)
}

/// Spawns `command` (a `station run` without a sensed board) with the
/// operator `token` and its log at error level, and waits until its game is
/// on (with no board to set up it starts at once); returns it and its base URL.
pub async fn spawn_playing(mut command: Command, token: &str) -> (Kill, String) {
    command.args(["--token", token]).env("STATION_LOG", "error");
    let (station, base) = spawn_station(command);
    let http = reqwest::Client::new();
    within(Duration::from_secs(5), "a game at once (no board)", || async {
        api_state(&http, &base).await["phase"] == "playing"
    })
    .await;
    (station, base)
}

/// How many chromedrivers (each with its one or two Chromiums) run at once in
/// the test binary: the web tests run in parallel threads with everything
/// else, and on two cores a second browser makes the first miss its waits.
const DRIVERS_AT_ONCE: usize = 1;

/// The drivers running now, guarded by [`DRIVER_FREE`].
static DRIVERS: Mutex<usize> = Mutex::new(0);
static DRIVER_FREE: Condvar = Condvar::new();

/// A place among the [`DRIVERS_AT_ONCE`], given back when dropped.
struct DriverSlot;

impl DriverSlot {
    fn take() -> DriverSlot {
        // A test that panicked while holding the lock poisons it; the count is still right.
        let mut running = DRIVERS.lock().unwrap_or_else(PoisonError::into_inner);
        while *running >= DRIVERS_AT_ONCE {
            running = DRIVER_FREE.wait(running).unwrap_or_else(PoisonError::into_inner);
        }
        *running += 1;
        DriverSlot
    }
}

impl Drop for DriverSlot {
    fn drop(&mut self) {
        *DRIVERS.lock().unwrap_or_else(PoisonError::into_inner) -= 1;
        DRIVER_FREE.notify_one();
    }
}

/// chromedriver and the Chromiums it started, all ended when dropped (its
/// process group is killed), and then its place given to the next test.
pub struct Driver {
    // Fields drop in order: the processes end before the place is given back.
    _process: Kill,
    _slot: DriverSlot,
}

/// chromedriver on a free loopback port (waiting while another test has its
/// browser open); returns it and its URL.
pub fn start_chromedriver() -> (Driver, String) {
    for path in [CHROMIUM, CHROMEDRIVER] {
        assert!(
            Path::new(path).exists(),
            "{path} is missing: run scripts/setup (Debian packages chromium and chromium-driver)"
        );
    }
    let slot = DriverSlot::take();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Kill::spawn(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null()),
    );
    let start = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(start.elapsed() < Duration::from_secs(20), "chromedriver did not listen");
        std::thread::sleep(Duration::from_millis(50));
    }
    (Driver { _process: child, _slot: slot }, format!("http://127.0.0.1:{port}"))
}

/// Resizes the window so that the page's viewport is `width`×`height` CSS pixels.
pub async fn set_viewport(client: &Client, width: u32, height: u32) {
    client.set_window_size(width, height).await.expect("window size");
    let inner = js(client, "return [window.innerWidth, window.innerHeight];").await;
    let (w, h) = (inner[0].as_u64().unwrap_or(0) as u32, inner[1].as_u64().unwrap_or(0) as u32);
    let (dw, dh) = (width.saturating_sub(w), height.saturating_sub(h));
    if dw > 0 || dh > 0 {
        client.set_window_size(width + dw, height + dh).await.expect("window size");
    }
    let inner = js(client, "return [window.innerWidth, window.innerHeight];").await;
    assert_eq!(inner, json!([width, height]), "the viewport");
}

/// A headless Chromium session of the given window size with its own profile.
pub async fn browser(driver: &str, profile: &Path, width: u32, height: u32) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--no-first-run", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1",
                format!("--user-data-dir={}", profile.display()),
                format!("--window-size={width},{height}"),
            ]
        }),
    );
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(driver)
        .await
        .expect("a Chromium session");
    client.set_window_size(width, height).await.expect("window size");
    client
}

/// The console's `GET /api/state` at `base` (`http://127.0.0.1:PORT`) as JSON.
pub async fn api_state(http: &reqwest::Client, base: &str) -> Value {
    http.get(format!("{base}/api/state")).send().await.unwrap().json().await.unwrap()
}

/// Presses Alt+`letter` (a console shortcut) and checks that the focus went to `#expect_id`.
pub async fn shortcut(console: &Client, letter: char, expect_id: &str) {
    keys(console, &alt(letter)).await;
    assert_eq!(active_id(console).await, expect_id, "Alt+{letter} goes to #{expect_id}");
}

/// Runs `script` (a function body returning a value) in the page.
pub async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or(Value::Null)
}

/// The text content of the element `id` ("" when there is none).
pub async fn text_of(client: &Client, id: &str) -> String {
    property_of(client, id, "textContent").await
}

/// The value of the form control `id` ("" when there is none).
pub async fn value_of(client: &Client, id: &str) -> String {
    property_of(client, id, "value").await
}

/// The string property `property` of the element `id` ("" when there is none).
async fn property_of(client: &Client, id: &str, property: &str) -> String {
    js(client, &format!("const e = document.getElementById('{id}'); return e ? e.{property} : '';"))
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Everything the page shows and holds: its text, its markup and the values of its fields.
pub async fn page_content(client: &Client) -> String {
    js(
        client,
        "return document.body.innerText + '\\n' + document.documentElement.outerHTML + '\\n' +
            [...document.querySelectorAll('input, textarea, select')].map(e => e.value).join('\\n');",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_owned()
}

/// Polls `check` every 25 ms until it holds or `limit` passes (then panics with
/// `what`); returns how long it took.
pub async fn within<F, Fut>(limit: Duration, what: &str, mut check: F) -> Duration
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    loop {
        if check().await {
            return start.elapsed();
        }
        assert!(start.elapsed() < limit, "timed out after {limit:?}: {what}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Polls the text of the element `id` until `ok` accepts it, or panics after `limit` with `what`.
pub async fn text_within(client: &Client, id: &str, limit: Duration, what: &str, ok: impl Fn(&str) -> bool) {
    within(limit, what, || async { ok(&text_of(client, id).await) }).await;
}

/// Types into whatever has the focus (keyboard only: no clicks).
pub async fn keys(client: &Client, text: &str) {
    // The pages redraw as the game goes on: an element can be replaced (and the
    // focus moved to its successor) between finding it and typing; then once more.
    for attempt in 0..3 {
        let sent = client.active_element().await.expect("a focused element").send_keys(text).await;
        match sent {
            Ok(()) => return,
            Err(e) if attempt < 2 => {
                eprintln!("keys: {e}; once more");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("keys: {e}"),
        }
    }
}

/// The id of the focused element.
pub async fn active_id(client: &Client) -> String {
    js(client, "return document.activeElement ? document.activeElement.id : '';")
        .await
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// Presses `chord` on the keyboard of the page (WebDriver actions: no element
/// is targeted, so a redraw of the focused element cannot get in the way):
/// every key down in order, then up in reverse.
pub async fn press(client: &Client, chord: &[char]) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let mut actions = KeyActions::new("keyboard".into());
    for &value in chord {
        actions = actions.then(KeyAction::Down { value });
    }
    for &value in chord.iter().rev() {
        actions = actions.then(KeyAction::Up { value });
    }
    client.perform_actions(actions).await.expect("keys pressed");
}

/// Presses Tab until the element `id` has the focus (at most `max` times).
pub async fn tab_to(client: &Client, id: &str, max: usize) {
    for _ in 0..max {
        if active_id(client).await == id {
            return;
        }
        keys(client, &TAB.to_string()).await;
    }
    assert_eq!(active_id(client).await, id, "Tab did not reach #{id} in {max} presses");
}

/// Saves a PNG of the page as `target/e2e/screenshots/<name>.png`; `full_height`
/// enlarges the window first to take the whole page.
pub async fn screenshot(client: &Client, name: &str, full_height: Option<u32>) -> PathBuf {
    let before = client.get_window_size().await.ok();
    if let Some(height) = full_height {
        let _ = client.set_window_size(before.map_or(1400, |(w, _)| w as u32), height).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let dir = workspace().join("target/e2e/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = client.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, png).unwrap();
    eprintln!("screenshot: {}", path.display());
    if let (Some(_), Some((w, h))) = (full_height, before) {
        let _ = client.set_window_size(w as u32, h as u32).await;
    }
    path
}

/// A headless Chromium showing the console of the station at `base`, in the
/// console tests' 1400×1100 window with its profile in `dir/profile-console`.
pub async fn open_console(driver: &str, dir: &Path, base: &str) -> Client {
    let console = browser(driver, &dir.join("profile-console"), 1400, 1100).await;
    console.goto(&format!("{base}/console")).await.unwrap();
    console
}

/// Waits (up to 5 s) for the console to say that it has no operator token yet.
pub async fn no_token_yet(console: &Client) {
    text_within(console, "token-status", Duration::from_secs(5), "the console's token status", |t| {
        t.contains("No token")
    })
    .await;
}

/// Gives the console the operator token with the keyboard: Alt+K, the token, Enter.
pub async fn enter_token(console: &Client, token: &str) {
    keys(console, &alt('k')).await;
    assert_eq!(active_id(console).await, "token", "Alt+K goes to the token field");
    keys(console, &format!("{token}{ENTER}")).await;
    within(Duration::from_secs(5), "the token accepted", || async {
        text_of(console, "token-status").await.contains("accepted")
    })
    .await;
}

/// The pinned axe-core that `scripts/setup` installs from npm
/// (`.deps/axe/node_modules/axe-core/axe.min.js`; `STATION_AXE` names another file).
pub fn axe_source() -> String {
    let path = std::env::var_os("STATION_AXE")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join(".deps/axe/node_modules/axe-core/axe.min.js"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{}: {e}: run scripts/setup (it installs axe-core from npm)", path.display())
    })
}

/// Runs axe-core on the page as it is now (WCAG 2.0–2.2 A and AA rules and
/// best practices) and fails on any serious or critical violation, naming the
/// rule, the elements and `state` (what the page showed).
pub async fn assert_accessible(client: &Client, state: &str) {
    let loaded = js(client, "return typeof window.axe === 'object';").await;
    if loaded != Value::Bool(true) {
        // Injected over WebDriver: the pages' CSP allows no script from elsewhere.
        let source = axe_source();
        client.execute(&format!("{source}\nreturn true;"), vec![]).await.expect("axe-core injected");
    }
    let result = client
        .execute(
            "return window.axe.run(document, {
                 runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
                 resultTypes: ['violations'],
             }).then(r => r.violations
                 .filter(v => v.impact === 'serious' || v.impact === 'critical')
                 .map(v => ({ id: v.id, impact: v.impact, help: v.help,
                              nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary) })));",
            vec![],
        )
        .await
        .expect("axe-core ran");
    let checked = js(client, "return window.axe.version;").await;
    assert_eq!(checked, json!("4.14.1"), "the pinned axe-core");
    assert_eq!(result, json!([]), "axe-core: serious or critical violations on {state}");
    eprintln!("axe-core {checked}: no serious or critical violation on {state}");
}

/// Fails unless the element `id` and every line of its text lie whole inside
/// the viewport and inside the element's own box (measured with
/// `getBoundingClientRect` on the element and on a range over its text).
pub async fn assert_whole(client: &Client, id: &str, what: &str) {
    let layout = js(
        client,
        &format!(
            "const e = document.getElementById('{id}');
             if (!e) return {{ error: 'no element' }};
             const b = e.getBoundingClientRect();
             const range = document.createRange();
             range.selectNodeContents(e);
             const t = range.getBoundingClientRect();
             return {{ box: [b.left, b.top, b.right, b.bottom], text: [t.left, t.top, t.right, t.bottom],
                       view: [window.innerWidth, window.innerHeight], clipped: e.scrollWidth > e.clientWidth + 1,
                       words: e.textContent }};"
        ),
    )
    .await;
    let n = |k: &str, i: usize| layout[k][i].as_f64().unwrap_or(f64::NAN);
    let (vw, vh) = (n("view", 0), n("view", 1));
    let inside = |k: &str, l: f64, t: f64, r: f64, b: f64| {
        n(k, 0) >= l - 0.5 && n(k, 1) >= t - 0.5 && n(k, 2) <= r + 0.5 && n(k, 3) <= b + 0.5
    };
    assert!(layout["error"].is_null(), "#{id} on {what}: {layout}");
    assert!(n("text", 2) > n("text", 0), "#{id} on {what} shows no text: {layout}");
    assert!(inside("box", 0.0, 0.0, vw, vh), "#{id} on {what} is not inside the window: {layout}");
    // Sideways exactly (that is where a long name pushes a clock out); up and
    // down the glyphs' line box may overhang a tight line-height a little.
    let slack = (n("text", 3) - n("text", 1)) * 0.1;
    assert!(
        inside("text", n("box", 0), n("box", 1) - slack, n("box", 2), n("box", 3) + slack),
        "the text of #{id} on {what} spills out of its box: {layout}"
    );
    assert_eq!(layout["clipped"], json!(false), "#{id} on {what} is clipped: {layout}");
}

/// Fails when the page needs horizontal scrolling at its current width
/// (WCAG 1.4.10 reflow): the document is no wider than the window, and no
/// element reaches past it except inside a scroll box of its own.
pub async fn assert_reflows(client: &Client, what: &str) {
    let report = js(
        client,
        "const w = document.documentElement.clientWidth;
         const scrolls = (e) => { for (let p = e.parentElement; p; p = p.parentElement) {
             const o = getComputedStyle(p).overflowX; if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
         const wide = [...document.body.querySelectorAll('*')]
             .filter(e => e.getClientRects().length && !e.closest('.visually-hidden, [hidden]'))
             .filter(e => { const r = e.getBoundingClientRect(); return r.right > w + 1 && !scrolls(e); })
             .slice(0, 8).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + (e.className ? '.' + e.className : '')
                 + ' right=' + Math.round(e.getBoundingClientRect().right));
         return { width: w, scroll: document.documentElement.scrollWidth, wide };",
    )
    .await;
    assert!(
        report["scroll"].as_f64() <= report["width"].as_f64().map(|w| w + 1.0) && report["wide"] == json!([]),
        "{what} does not reflow: {report}"
    );
}

/// Tabs through every focus stop of the page (from the top down, then with
/// Shift+Tab from the bottom up, at most `max` each way) and fails when one is
/// hidden under something else (a sticky box: WCAG 2.4.11) or its focus ring
/// has less than 3:1 contrast against what is around it (the ring's outer
/// colour against the background, or a two-tone ring's inner colour against
/// the outer one). Returns how many stops it checked going down.
pub async fn assert_focus_stops_visible(client: &Client, what: &str, max: usize) -> usize {
    let down = focus_pass(client, what, max, false).await;
    let up = focus_pass(client, what, max, true).await;
    eprintln!("{what}: {down} focus stops down, {up} up, each visible with a ring of at least 3:1");
    assert!(up + 2 >= down, "Shift+Tab reached {up} of {down} stops on {what}");
    down
}

async fn focus_pass(client: &Client, what: &str, max: usize, backward: bool) -> usize {
    let start = if backward {
        // From an anchor at the very end: Shift+Tab goes to the last stop.
        "const end = document.createElement('span'); end.id = '__focus_end'; end.tabIndex = -1;
         document.body.append(end); end.focus(); window.scrollTo(0, document.documentElement.scrollHeight);"
    } else {
        "document.body.tabIndex = -1; document.body.focus(); document.body.removeAttribute('tabindex');
         window.scrollTo(0, 0);"
    };
    js(
        client,
        &format!("window.__focusStops = new WeakSet(); window.__focusIds = new Set(); window.__lastStop = null; {start} return true;"),
    )
    .await;
    let chord: &[char] = if backward { &[SHIFT, TAB] } else { &[TAB] };
    let mut seen = Vec::new();
    for _ in 0..max {
        press(client, chord).await;
        let stop = js(
            client,
            "const e = document.activeElement;
             if (!e || e === document.body || e.id === '__focus_end') return null;
             // A control with parts of its own (a date and time field) takes several Tabs.
             // By id where there is one: a page that redraws keeps the focus on a new
             // element of the same id, which is the same stop.
             const key = e.id || e;
             if (key === window.__lastStop) return { same: true };
             if (e.id ? window.__focusIds.has(e.id) : window.__focusStops.has(e)) return { again: true };
             if (e.id) window.__focusIds.add(e.id); else window.__focusStops.add(e);
             window.__lastStop = key;
             const luminance = (c) => {
                 const m = /rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)(?:, ([\\d.]+))?/.exec(c || '');
                 if (!m || (m[4] !== undefined && Number(m[4]) === 0)) return null;
                 const ch = [m[1], m[2], m[3]].map(Number).map(v => v / 255)
                     .map(v => v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
                 return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2];
             };
             const contrast = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
             let bg = null;
             for (let p = e.parentElement; p && bg === null; p = p.parentElement) bg = luminance(getComputedStyle(p).backgroundColor);
             if (bg === null) bg = 1;
             const style = getComputedStyle(e);
             const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 ? luminance(style.outlineColor) : null;
             const halo = luminance((/rgba?\\([^)]*\\)/.exec(style.boxShadow) || [''])[0]);
             const ringContrast = ring === null ? 0 : Math.max(contrast(ring, bg), halo === null ? 0 : Math.min(contrast(ring, halo), contrast(halo, bg)));
             const r = e.getClientRects()[0] || e.getBoundingClientRect();
             const x = Math.min(Math.max(r.left + r.width / 2, 0), window.innerWidth - 1);
             const y = Math.min(Math.max(r.top + Math.min(r.height, 20) / 2, 0), window.innerHeight - 1);
             const hit = document.elementFromPoint(x, y);
             const label = e.labels && e.labels[0];
             const visible = Boolean(hit && (e.contains(hit) || hit.contains(e) || (label && label.contains(hit))));
             return { id: e.id || (e.tagName.toLowerCase() + ':' + (e.textContent || '').trim().slice(0, 30)),
                      visible, covered_by: visible || !hit ? null : (hit.id || hit.className || hit.tagName),
                      ring_contrast: Math.round(ringContrast * 100) / 100,
                      ring: [style.outlineStyle, style.outlineWidth, style.outlineColor, style.boxShadow].join(' ') };",
        )
        .await;
        if stop["same"] == json!(true) {
            continue;
        }
        if stop.is_null() || stop["again"] == json!(true) {
            break;
        }
        let id = stop["id"].as_str().unwrap_or_default().to_owned();
        assert_eq!(
            stop["visible"],
            json!(true),
            "focus stop {} ({}) on {what} is hidden: {stop}",
            seen.len() + 1,
            if backward { "up" } else { "down" }
        );
        let ring = stop["ring_contrast"].as_f64().unwrap_or(0.0);
        assert!(ring >= 3.0, "the focus ring of {id} on {what} has {ring}:1 contrast: {stop}");
        seen.push(id);
    }
    js(client, "const end = document.getElementById('__focus_end'); if (end) end.remove(); return true;")
        .await;
    seen.len()
}
