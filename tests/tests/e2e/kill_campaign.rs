//! Issue 32 §5–6: `station run` killed (-9) at random moments of real games
//! from `tests/data`, played by simulated hands (with and without their
//! noise) on a simulated peg board over a real pseudo-terminal, and started
//! again: between a hand's steps, just after a move's last peg, at the settle
//! time, the instant a move is reported, while it starts again, and while the
//! arbiter gives the result; a mating game once at the mate's last peg. The hand waits while the station is down (a
//! restart takes a second; a player would be told to wait), then goes on.
//!
//! Afterwards the game is checked for the four figures of the issue:
//! - **moves lost**: plies of the game missing from (or wrong in) the journal's record;
//! - **decided twice**: a ply's move journaled twice without a revision;
//! - **decided but never said**: a ply (or the result) whose words the
//!   speaker never finished: the station speaks text (`voices = ["text"]`), whose
//!   speaker logs each utterance it finished, and every ply's words (as
//!   `station announce` words them) must be found in that log, in order;
//! - **events never delivered**: an event in a journal that the event stream never got.
//!
//! `kill_campaign::a_dozen_kills` runs in `cargo test` (a few minutes);
//! the whole campaign (≥ 100 kills) is a measurement, run by `scripts/bench`:
//! `KILLS=120 cargo bench -p station-tests --bench kill_campaign`
//! (`KILL_SEED` picks other moments and games; `STATION_BIN` another station;
//! `KILL_HAND=hurried` has the hand go on at once after a restart).
//!
//! `each_failure_trips_its_own_figure` spoils a clean game's journal, events and speaker log once
//! per figure, so no figure can stay 0 by construction; a move killed while espeak-ng says it is
//! said again.

use serde_json::Value;
use shakmaty::{Chess, Position};
use station_core::Game;
use station_core::journal::{Contents, Record, decode};
use station_core::pgn::read_games;
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::pegboard::{SimOptions, SimPegBoard};
use station_tests::{
    Kill, Places, console_address, pegboard_config, post_command, shared_pgn, station_bin, station_run,
    wait_for,
};
use std::collections::HashMap;
use std::fs::OpenOptions;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The hands' schedule runs twice as fast as its sim times.
const SPEED: f64 = 2.0;
const SETTLE_MS: u64 = 220;
/// Sim-ms the hand rests between moves (450 ms of real time).
const THINK_MS: u64 = 900;
const TOKEN: &str = "kill-campaign-token-32";

/// A small deterministic generator (SplitMix64): one seed, one campaign.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next() % n }
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
}

/// The moments a kill comes at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moment {
    /// Between two steps of a hand (a peg in the hand, or the pause between moves).
    Step,
    /// Within the settle time after a move's last peg (0–260 ms).
    AfterPeg,
    /// At the settle time after a move's last peg (±10 ms).
    Settle,
    /// The instant the move reaches the event stream.
    Reported,
    /// While the station starts again after a kill (0–800 ms after it was started).
    Restart,
    /// While the arbiter's result is taken (0–40 ms after the command was sent).
    Result,
}

const MOMENTS: [Moment; 6] =
    [Moment::Step, Moment::AfterPeg, Moment::Settle, Moment::Reported, Moment::Restart, Moment::Result];

/// The campaign's figures.
#[derive(Debug, Default)]
struct Figures {
    games: usize,
    plies: usize,
    kills: HashMap<&'static str, usize>,
    moves_lost: usize,
    decided_twice: usize,
    never_said: usize,
    never_delivered: usize,
    /// Not an error (a kill between the delivery and its record): events the stream got twice.
    delivered_twice: usize,
    /// For the record: what the station reported while the games were played.
    mismatches: usize,
    revisions: usize,
    /// A result given before a kill that the restarted station did not show (it refused it again).
    results_not_shown: usize,
}

impl Figures {
    fn kill(&mut self, moment: Moment) {
        *self.kills.entry(name(moment)).or_default() += 1;
    }

    fn total_kills(&self) -> usize {
        self.kills.values().sum()
    }

    fn add(&mut self, other: Figures) {
        self.games += other.games;
        self.plies += other.plies;
        for (k, n) in other.kills {
            *self.kills.entry(k).or_default() += n;
        }
        self.moves_lost += other.moves_lost;
        self.decided_twice += other.decided_twice;
        self.never_said += other.never_said;
        self.never_delivered += other.never_delivered;
        self.delivered_twice += other.delivered_twice;
        self.mismatches += other.mismatches;
        self.revisions += other.revisions;
        self.results_not_shown += other.results_not_shown;
    }

    /// The figures by name, for a bench's `figure` lines.
    #[allow(dead_code, reason = "the measurement's: benches/kill_campaign.rs")]
    fn figures(&self) -> Vec<(&'static str, usize)> {
        vec![
            ("kills", self.total_kills()),
            ("games", self.games),
            ("plies", self.plies),
            ("moves lost", self.moves_lost),
            ("decided twice", self.decided_twice),
            ("decided but never said", self.never_said),
            ("events never delivered", self.never_delivered),
            ("events delivered twice", self.delivered_twice),
            ("board mismatches", self.mismatches),
            ("revisions", self.revisions),
            ("finished games not shown after a restart", self.results_not_shown),
        ]
    }

    fn line(&self) -> String {
        let kills: Vec<String> = MOMENTS
            .iter()
            .map(|m| format!("{} {}", name(*m), self.kills.get(name(*m)).unwrap_or(&0)))
            .collect();
        format!(
            "kill campaign: {} kills ({}) in {} games, {} plies: moves lost {}, decided twice {}, \
             decided but never said {}, events never delivered {} (delivered twice {}, board mismatches {}, revisions {}, \
             finished games not shown after a restart {})",
            self.total_kills(),
            kills.join(", "),
            self.games,
            self.plies,
            self.moves_lost,
            self.decided_twice,
            self.never_said,
            self.never_delivered,
            self.delivered_twice,
            self.mismatches,
            self.revisions,
            self.results_not_shown
        )
    }

    fn clean(&self) -> bool {
        self.moves_lost + self.decided_twice + self.never_said + self.never_delivered == 0
    }
}

fn name(m: Moment) -> &'static str {
    match m {
        Moment::Step => "between steps",
        Moment::AfterPeg => "after the last peg",
        Moment::Settle => "at the settle time",
        Moment::Reported => "as a move is reported",
        Moment::Restart => "while starting again",
        Moment::Result => "as the result is given",
    }
}

/// A game of the campaign: the moves played, the hands' noise, the kills.
struct Planned {
    label: String,
    game: Game,
    plies: usize,
    noise: Option<u64>,
    kills: usize,
}

/// The hands' scans of the game's first `plies` moves, and the index of each
/// move's last scan.
fn schedule(game: &Game, plies: usize, noise: Option<u64>) -> (Vec<TimedScan>, Vec<usize>) {
    let mut hands = Hands::new(noise);
    let at = |ply: usize| game.position_at(ply).expect("a ply of the game");
    let (mut now, mut scans, mut last_peg) = (0, Vec::new(), Vec::new());
    scans.push(TimedScan { at_ms: 0, occupancy: at(0).board().occupied() });
    for ply in 0..plies {
        hands.think(at(ply).board().occupied(), THINK_MS, &mut now, &mut scans);
        hands.play(at(ply), &game.moves()[ply], &mut now, &mut scans);
        last_peg.push(scans.len() - 1);
    }
    hands.think(at(plies).board().occupied(), THINK_MS, &mut now, &mut scans);
    (scans, last_peg)
}

/// The events file read as it grows.
struct Events {
    path: PathBuf,
    read: usize,
    all: Vec<Value>,
}

impl Events {
    fn new(path: &Path) -> Events {
        Events { path: path.to_owned(), read: 0, all: Vec::new() }
    }

    fn refresh(&mut self) -> &[Value] {
        let bytes = std::fs::read(&self.path).unwrap_or_default();
        // Whole lines only: the station may be writing the last one.
        let end = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if end > self.read {
            for line in bytes[self.read..end].split(|&b| b == b'\n') {
                if let Ok(v) = serde_json::from_slice::<Value>(line) {
                    self.all.push(v);
                }
            }
            self.read = end;
        }
        &self.all
    }

    fn count(&mut self, f: impl Fn(&Value) -> bool) -> usize {
        self.refresh().iter().filter(|e| f(e)).count()
    }
}

fn is(kind: &'static str) -> impl Fn(&Value) -> bool {
    move |e| e["type"] == kind
}

fn connected(e: &Value) -> bool {
    e["type"] == "board_status" && e["board"] == "blind" && e["status"] == "connected"
}

/// One `station run` of the campaign: text speech (its speaker logs what it
/// finished to `said.log`), the console on a free port.
struct Running {
    process: Kill,
    base: Option<String>,
}

fn spawn(places: &Places, config: &Path) -> Kill {
    let log = OpenOptions::new().create(true).append(true).open(places.dir.join("said.log")).unwrap();
    let mut cmd = station_run(config, &places.journal, Some(&places.events));
    cmd.args(["--listen", "127.0.0.1:0", "--token", TOKEN])
        .stdout(Stdio::piped())
        .stderr(log)
        .env("STATION_LOG", "warn,station_audio::speaker=info")
        .env("NO_COLOR", "1");
    Kill::spawn(&mut cmd)
}

impl Running {
    /// Starts the station and waits until it has opened the board again.
    fn start(places: &Places, config: &Path, events: &mut Events) -> Running {
        let before = events.count(connected);
        let mut process = spawn(places, config);
        let base = console_address(&mut process);
        wait_for(Duration::from_secs(30), "the station connected to its board", || {
            (events.count(connected) > before).then_some(())
        });
        // The board's first scan is read before the hand goes on.
        std::thread::sleep(Duration::from_millis(150));
        Running { process, base: Some(base) }
    }

    fn kill(mut self) {
        self.process.end();
    }

    fn command(&self, body: &Value) -> (u16, Value) {
        post_command(self.base.as_deref().expect("the console"), TOKEN, body)
    }
}

/// Plays `plan` through `station run`, killing it at random moments; the
/// figures of its checks. Its folder is kept for a look when one of the four
/// is not 0, or the station told of a board mismatch.
fn play(plan: &Planned, rng: &mut Rng) -> Figures {
    let (figures, places) = play_kept(plan, rng);
    if figures.clean() && figures.mismatches == 0 {
        let _ = std::fs::remove_dir_all(&places.dir);
    } else {
        eprintln!("kill campaign: {} kept for a look: {:?}", places.dir.display(), figures);
    }
    figures
}

/// Plays `plan` as [`play`] does; the figures, and the folder with what the
/// station left (its journals, events and what its speaker said).
fn play_kept(plan: &Planned, rng: &mut Rng) -> (Figures, Places) {
    let places = Places::new(&format!("kills-{}", plan.label));
    let config = pegboard_config(
        &places.dir,
        &places.link,
        &format!(
            "\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[tags]\nwhite = \"Weiss\"\nblack = \"Schwarz\"\n\n\
             [audio.private]\nvoices = [\"text\"]\n"
        ),
    );
    let (scans, last_peg) = schedule(&plan.game, plan.plies, plan.noise);
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(&places.link) })
        .expect("simulated peg board");
    let mut figures = Figures { games: 1, plies: plan.plies, ..Figures::default() };
    let mut events = Events::new(&places.events);
    let mut station = Running::start(&places, &config, &mut events);
    wait_for(Duration::from_secs(20), "the game started", || {
        (events.count(is("game_started")) > 0).then_some(())
    });

    let captures: Vec<usize> = (0..plan.plies).filter(|&p| plan.game.moves()[p].is_capture()).collect();
    // The kills, by the scan after which they come: the last scan is the game's rest.
    let mut points: Vec<(usize, Moment)> = (0..plan.kills)
        .map(|_| {
            let moment = match rng.below(4) {
                0 => Moment::Step,
                1 => Moment::AfterPeg,
                2 => Moment::Settle,
                _ => Moment::Reported,
            };
            // Half the moves killed are captures: their captured peg may
            // leave under the debounce time, the case of issue 32.
            let ply = match captures.len() {
                n if n > 0 && rng.percent(50) => captures[rng.below(n as u64) as usize],
                _ => rng.below(last_peg.len() as u64) as usize,
            };
            let k = match moment {
                Moment::Step => 1 + rng.below(scans.len() as u64 - 2) as usize,
                _ => last_peg[ply],
            };
            (k, moment)
        })
        .collect();
    // A mate is killed once at its last peg, as the issue found it (the move
    // and the result never said): a random ply seldom is the last.
    let mate = plan.game.position_at(plan.plies).is_some_and(Position::is_checkmate);
    if mate && plan.kills > 0 {
        let moment = [Moment::AfterPeg, Moment::Settle, Moment::Reported][rng.below(3) as usize];
        points.push((last_peg[plan.plies - 1], moment));
    }
    points.sort_by_key(|&(k, _)| k);
    points.dedup_by_key(|p| p.0);
    let mut next = 1;
    for (k, moment) in points {
        let moves_before = events.count(is("move"));
        play_scans(&sim, &scans[next - 1..=k]);
        match moment {
            Moment::Step => {
                let gap = (scans[k + 1].at_ms - scans[k].at_ms) as f64 / SPEED;
                std::thread::sleep(Duration::from_millis(rng.below(gap as u64 + 1)));
            }
            Moment::AfterPeg => std::thread::sleep(Duration::from_millis(rng.below(260))),
            Moment::Settle => std::thread::sleep(Duration::from_millis(SETTLE_MS - 10 + rng.below(20))),
            _ => {
                // The instant the move is out (a move the station does not
                // decide within 5 s is killed all the same: the checks tell).
                let until = Instant::now() + Duration::from_secs(5);
                while events.count(is("move")) == moves_before && Instant::now() < until {
                    std::thread::sleep(Duration::from_millis(1));
                }
                std::thread::sleep(Duration::from_millis(rng.below(5)));
            }
        }
        station.kill();
        figures.kill(moment);
        if rng.percent(25) {
            let mut starting = spawn(&places, &config);
            std::thread::sleep(Duration::from_millis(rng.below(800)));
            starting.end();
            figures.kill(Moment::Restart);
        }
        station = Running::start(&places, &config, &mut events);
        next = k + 1;
    }
    play_scans(&sim, &scans[next - 1..]);
    let plies = plan.plies;
    let decided = |events: &mut Events| {
        let ply = |e: &Value| e["ply"].as_u64().unwrap_or(0) as usize;
        events
            .refresh()
            .iter()
            .filter(|e| e["type"] == "game_move" || e["type"] == "game_resumed")
            .map(ply)
            .max()
            >= Some(plies)
    };
    let until = Instant::now() + Duration::from_secs(30);
    while !decided(&mut events) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    let position: Chess = plan.game.position_at(plies).unwrap().clone();
    if !position.is_checkmate() {
        let kill = plan.kills > 0 && rng.percent(50);
        station = give_result(station, kill, &places, &config, &mut events, rng, &mut figures);
    }
    // The result's words, then the station stops.
    let said_result = |events: &mut Events| {
        let texts = result_texts(events.refresh());
        !texts.is_empty() && said_lines(&places.dir).iter().any(|l| texts.contains(l))
    };
    let until = Instant::now() + Duration::from_secs(20);
    while !said_result(&mut events) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    station.kill();
    drop(sim);
    check(plan, &places, &mut events, &mut figures);
    (figures, places)
}

/// Sends `scans[1..]` and waits until the board has sent them: `scans[0]`
/// is the scan the board shows already, and the hand keeps its own pace from
/// it (a restart never hurries the next step: it comes at least as long after
/// the last as the hand takes).
/// With `KILL_HAND=hurried` the hand goes on at once instead, as a player
/// may while the station starts again (the next step as soon as the
/// station reads the board).
fn play_scans(sim: &SimPegBoard, scans: &[TimedScan]) {
    let Some((shown, rest)) = scans.split_first() else { return };
    let hurried = std::env::var("KILL_HAND").is_ok_and(|h| h == "hurried");
    let from = if hurried { rest.first().map_or(shown.at_ms, |s| s.at_ms) } else { shown.at_ms };
    sim.play_scans(rest.iter().map(|s| TimedScan { at_ms: s.at_ms - from, ..*s }).collect());
    sim.wait_idle();
}

/// The arbiter gives the result at the console; with `kill` the station is
/// killed while it takes it, and the result is given again if it was lost.
fn give_result(
    station: Running,
    kill: bool,
    places: &Places,
    config: &Path,
    events: &mut Events,
    rng: &mut Rng,
    figures: &mut Figures,
) -> Running {
    let body = serde_json::json!({"cmd": "result", "result": "1/2-1/2", "reason": "draw agreed"});
    if !kill {
        let (status, answer) = station.command(&body);
        assert_eq!(status, 200, "{answer}");
        return station;
    }
    let base = station.base.clone().unwrap();
    let sent = std::thread::spawn({
        let body = body.clone();
        move || std::panic::catch_unwind(|| post_command(&base, TOKEN, &body)).ok()
    });
    std::thread::sleep(Duration::from_millis(rng.below(40)));
    station.kill();
    let _ = sent.join();
    figures.kill(Moment::Result);
    let station = Running::start(places, config, events);
    let (_, state) = station_get(&station, "/api/state");
    if state["result"].is_null() {
        // Lost with the kill, or a station that does not show a finished
        // game after a restart (it refuses: no game in progress): the checks tell.
        let (status, answer) = station.command(&body);
        if status != 200 {
            eprintln!("kill campaign: the result given again after the restart: {status} {answer}");
            figures.results_not_shown += 1;
        }
    }
    station
}

fn station_get(station: &Running, path: &str) -> (u16, Value) {
    use std::io::{Read, Write};
    let base = station.base.as_deref().unwrap().trim_start_matches("http://");
    let mut stream = std::net::TcpStream::connect(base).expect("console reachable");
    stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {base}\r\nConnection: close\r\n\r\n").unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = response.split("\r\n\r\n").nth(1).and_then(|b| serde_json::from_str(b).ok());
    (status, body.unwrap_or(Value::Null))
}

/// What the private speaker finished, in order (its log, every run).
fn said_lines(dir: &Path) -> Vec<String> {
    let log = std::fs::read_to_string(dir.join("said.log")).unwrap_or_default();
    let plain = |l: &str| {
        // Colour codes, should the log have them: ESC [ … m.
        let mut out = String::new();
        let mut chars = l.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                chars.by_ref().find(|c| *c == 'm');
            } else {
                out.push(c);
            }
        }
        out
    };
    log.lines()
        .map(plain)
        .filter(|l| l.contains("said as text only"))
        .filter_map(|l| {
            let rest = &l[l.find("text=\"")? + 6..];
            Some(rest[..rest.rfind('"')?].replace("\\\"", "\""))
        })
        .collect()
}

/// The words of the result the station announced to the blind player.
fn result_texts(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "announcement" && e["about"] == "result" && e["listener"] == "private")
        .filter_map(|e| e["text"].as_str().map(str::to_owned))
        .collect()
}

/// How the station words the game's moves (`station announce`), one a ply.
fn words(game: &Game, plies: usize) -> Vec<String> {
    let ucis: Vec<String> = game.moves()[..plies].iter().map(|m| game.uci(*m)).collect();
    let out = Command::new(station_bin()).args(["announce", "--lang", "de"]).args(&ucis).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().map(str::to_owned).collect()
}

/// The journals of the folder.
fn journals(dir: &Path) -> Vec<Contents> {
    let mut found: Vec<Contents> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .filter_map(|p| decode(std::fs::read(p).ok()?).ok())
        .collect();
    found.sort_by_key(|c| c.header.t_ms);
    found
}

fn check(plan: &Planned, places: &Places, events: &mut Events, figures: &mut Figures) {
    let want: Vec<station_core::event::PlayedMove> =
        plan.game.moves()[..plan.plies].iter().map(|m| plan.game.played(*m).into()).collect();
    let journals = journals(&places.journal);
    // The game's journal: the one holding the most of its moves.
    let Some(game) = journals.iter().max_by_key(|c| c.recorded_moves().len()) else {
        figures.moves_lost += want.len();
        return;
    };
    let recorded = game.recorded_moves();
    let agreed = recorded.iter().zip(&want).take_while(|(a, b)| a == b).count();
    figures.moves_lost += want.len() - agreed + recorded.len().saturating_sub(agreed);
    // A ply decided twice: journaled again without a revision.
    let mut decided: HashMap<usize, usize> = HashMap::new();
    for r in &game.records {
        if let Record::Event { event: station_core::Event::GameMove { ply, revised, .. }, .. } = r {
            if *revised {
                figures.revisions += 1;
            } else {
                *decided.entry(*ply).or_default() += 1;
            }
        }
    }
    figures.decided_twice += decided.values().map(|n| n.saturating_sub(1)).sum::<usize>();
    // Every ply's words finished, in order, and the result's after them.
    let said = said_lines(&places.dir);
    // The result is said before the last move's words, should both come at once (it is urgent).
    let (mut from, mut before_last) = (0, 0);
    for text in words(&plan.game, agreed) {
        before_last = from;
        // A revised move is said as its correction ("Korrektur: Kurze Rochade").
        let revision = format!(": {text}");
        match said[from..].iter().position(|s| *s == text || s.ends_with(&revision)) {
            Some(i) => from += i + 1,
            None => figures.never_said += 1,
        }
    }
    let all = events.refresh();
    let results = result_texts(all);
    if results.is_empty() || !said[before_last..].iter().any(|s| results.contains(s)) {
        figures.never_said += 1;
    }
    figures.mismatches += all.iter().filter(|e| e["type"] == "board_mismatch").count();
    // Every journaled event reached the event stream.
    let mut count: HashMap<String, i64> = HashMap::new();
    for e in all {
        *count.entry(e.to_string()).or_default() += 1;
    }
    for c in &journals {
        for r in &c.records {
            if let Record::Event { event, .. } = r {
                let key = serde_json::to_value(event).unwrap().to_string();
                let n = count.entry(key).or_default();
                *n -= 1;
                if *n < 0 {
                    figures.never_delivered += 1;
                }
            }
        }
    }
    let journaled: std::collections::HashSet<String> = journals
        .iter()
        .flat_map(|c| &c.records)
        .filter_map(|r| match r {
            Record::Event { event, .. } => Some(serde_json::to_value(event).unwrap().to_string()),
            _ => None,
        })
        .collect();
    figures.delivered_twice += count
        .iter()
        .filter(|(k, n)| **n > 0 && journaled.contains(*k))
        .map(|(_, n)| *n as usize)
        .sum::<usize>();
}

/// The real games of `tests/data` that start from the standard position,
/// `plies` long at least; the shortest mating game among them first, if any.
fn real_games(min_plies: usize) -> (Vec<Game>, Option<Game>) {
    let mut games = Vec::new();
    let mut mates: Vec<Game> = Vec::new();
    for file in ["games/Capablanca.pgn", "games/Fischer.pgn", "games/Kasparov.pgn", "games/PolgarJ.pgn"] {
        let bytes = std::fs::read(shared_pgn(file)).expect("the games of tests/data");
        for g in read_games(&bytes) {
            let standard = g.game.start().board().occupied() == Chess::default().board().occupied()
                && g.game.start().turn() == shakmaty::Color::White;
            if g.error.is_some() || !standard || g.moves().len() < min_plies {
                continue;
            }
            if g.game.position().is_checkmate() {
                mates.push(g.game.clone());
            }
            games.push(g.game);
        }
    }
    mates.sort_by_key(Game::ply);
    (games, mates.into_iter().next())
}

fn seed() -> u64 {
    std::env::var("KILL_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(32)
}

/// The `cargo test` share of the campaign: a mating game played whole with
/// noisy hands, and the opening of another with quiet hands and the
/// arbiter's result, a dozen kills between them.
#[test]
fn a_dozen_kills() {
    let _alone = station_tests::alone();
    let mut rng = Rng(seed());
    let (games, mate) = real_games(30);
    let other = games[rng.below(games.len() as u64) as usize].clone();
    let mut plans = vec![Planned { label: "quiet".into(), plies: 24, game: other, noise: None, kills: 6 }];
    if let Some(mate) = mate.filter(|g| g.ply() <= 60) {
        let plies = mate.ply();
        plans.push(Planned { label: "mate".into(), plies, game: mate, noise: Some(seed()), kills: 6 });
    }
    let mut total = Figures::default();
    for plan in &plans {
        total.add(play(plan, &mut rng));
    }
    eprintln!("{} [{}]", total.line(), station_bin().display());
    assert!(total.clean(), "{}", total.line());
}

/// The whole campaign: real games, whole, half with noisy hands, about eight
/// kills a game until `KILLS` (100 unless said) kills were made; prints its
/// figures as `figure` lines, then fails when one of the four is not 0.
/// A measurement, run by `cargo bench -p station-tests --bench kill_campaign`.
#[allow(dead_code, reason = "a measurement: benches/kill_campaign.rs runs it")]
pub(crate) fn full() {
    let _alone = station_tests::alone();
    let kills: usize = std::env::var("KILLS").ok().and_then(|s| s.parse().ok()).unwrap_or(100);
    let mut rng = Rng(seed());
    let (games, mate) = real_games(40);
    let mut total = Figures::default();
    let mut n = 0u64;
    while total.total_kills() < kills {
        let game = match (n, &mate) {
            (0, Some(mate)) => mate.clone(),
            _ => games[rng.below(games.len() as u64) as usize].clone(),
        };
        let plies = game.ply().min(100);
        let noise = n.is_multiple_of(2).then(|| seed() * 1000 + n);
        let plan = Planned { label: format!("game{n}"), plies, game, noise, kills: 8 };
        let figures = play(&plan, &mut rng);
        eprintln!("game {n} ({plies} plies, noise {noise:?}): {}", figures.line());
        total.add(figures);
        n += 1;
    }
    eprintln!("{} [{}]", total.line(), station_bin().display());
    for (name, value) in total.figures() {
        println!("figure\tkill campaign: {name}\t{value}\tcount");
    }
    assert!(total.clean(), "{}", total.line());
}

/// A move counts as said when the speaker finished it: killed while its
/// words are being said (espeak-ng, on ALSA's null device at real time), the
/// station says the move again after the restart; and the journal records
/// when the words were heard to the end.
#[test]
fn a_move_killed_while_it_is_said_is_said_again_after_the_restart() {
    let places = Places::new("kills-while-said");
    let config = pegboard_config(
        &places.dir,
        &places.link,
        &format!(
            "\n[game]\nsettle_ms = {SETTLE_MS}\ndebounce_ms = 15\n\n[audio.private]\nvoices = [\"espeak\"]\n"
        ),
    );
    let (games, _) = real_games(30);
    let game = games[seed() as usize % games.len()].clone();
    let plies = 6;
    let (scans, _) = schedule(&game, plies, None);
    let last = words(&game, plies).pop().expect("the last move's words");
    let sim = SimPegBoard::start(SimOptions { speed: SPEED, ..SimOptions::new(&places.link) }).unwrap();
    let mut events = Events::new(&places.events);
    let station = Running::start(&places, &config, &mut events);
    let said_last = |e: &Value| {
        e["type"] == "announcement"
            && e["listener"] == "private"
            && e["about"] == "move"
            && e["text"] == *last
    };
    sim.play_scans(scans[1..].to_vec());
    wait_for(Duration::from_secs(60), "the last move's words begun", || {
        (events.count(said_last) > 0).then_some(())
    });
    station.kill();
    // espeak-ng says a move in about a second: the kill came while it was said.
    let journal = journals(&places.journal).pop().expect("the game's journal");
    let finished = journal.records.iter().any(
        |r| matches!(r, Record::Said { ply: Some(p), outcome, .. } if *p == plies && outcome == "finished"),
    );
    assert!(!finished, "the words were finished before the kill: the test did not kill while they were said");

    let before = events.count(said_last);
    let station = Running::start(&places, &config, &mut events);
    wait_for(Duration::from_secs(20), "the last move said again", || {
        (events.count(said_last) > before).then_some(())
    });
    if journal.header.said_and_delivered {
        wait_for(Duration::from_secs(20), "its words heard to the end, journaled", || {
            let journal = journals(&places.journal).pop()?;
            journal
                .records
                .iter()
                .any(|r| {
                    matches!(r, Record::Said { ply: Some(p), outcome, listener, .. }
                    if *p == plies && outcome == "finished" && listener == "private")
                })
                .then_some(())
        });
    }
    station.kill();
    let _ = std::fs::remove_dir_all(&places.dir);
}

/// The campaign can fail: a short real game played without a kill checks
/// clean, and each of the four failures, made in a copy of what the station
/// left, trips its own figure and no other: a move missing from the journal,
/// a move journaled (and delivered) twice, a move's words or the result's
/// never finished by the speaker, an event the stream never got.
#[test]
fn each_failure_trips_its_own_figure() {
    let mut rng = Rng(seed());
    let (games, _) = real_games(30);
    let game = games[rng.below(games.len() as u64) as usize].clone();
    let plies = 8;
    let plan = Planned { label: "checked".into(), plies, game, noise: None, kills: 0 };
    let (played, places) = play_kept(&plan, &mut rng);
    assert!(played.clean(), "the game played without a kill: {}", played.line());
    let journal = game_journal(&places.journal);
    let said = words(&plan.game, plies);
    let result = result_texts(&station_tests::read_events(&places.events));
    assert!(!result.is_empty(), "the result was announced");

    let lost = checked_copy(&plan, &places, "lost", |copy| {
        edit_lines(&copy.journal.join(&journal), |lines| {
            lines.remove(game_move_line(lines, plies));
        });
    });
    assert_eq!(figures_of(&lost), [1, 0, 0, 0], "a move lost: {}", lost.line());

    let twice = checked_copy(&plan, &places, "twice", |copy| {
        let mut again = String::new();
        edit_lines(&copy.journal.join(&journal), |lines| {
            let i = game_move_line(lines, 3);
            again = serde_json::from_str::<Value>(&lines[i]).unwrap()["event"].to_string();
            lines.insert(i + 1, lines[i].clone());
        });
        // Delivered as often as it was journaled: only the decision is wrong.
        edit_lines(&copy.events, |lines| lines.push(again));
    });
    assert_eq!(figures_of(&twice), [0, 1, 0, 0], "a move decided twice: {}", twice.line());

    let unsaid = checked_copy(&plan, &places, "unsaid", |copy| {
        edit_lines(&copy.dir.join("said.log"), |lines| {
            let i = said_line(lines, &said[4]).expect("the fifth move's words in the speaker's log");
            lines.remove(i);
        });
    });
    assert!(unsaid.never_said >= 1, "a move never said: {}", unsaid.line());
    assert_eq!(figures_of(&unsaid)[..2], [0, 0], "{}", unsaid.line());
    assert_eq!(unsaid.never_delivered, 0, "{}", unsaid.line());

    let no_result = checked_copy(&plan, &places, "no-result", |copy| {
        edit_lines(&copy.dir.join("said.log"), |lines| {
            lines.retain(|l| !result.iter().any(|r| said_line(std::slice::from_ref(l), r).is_some()));
        });
    });
    assert_eq!(figures_of(&no_result), [0, 0, 1, 0], "a result never said: {}", no_result.line());

    let undelivered = checked_copy(&plan, &places, "undelivered", |copy| {
        let mut event = Value::Null;
        edit_lines(&copy.journal.join(&journal), |lines| {
            event = serde_json::from_str::<Value>(&lines[game_move_line(lines, 2)]).unwrap()["event"].clone();
        });
        edit_lines(&copy.events, |lines| {
            let i = lines.iter().position(|l| serde_json::from_str::<Value>(l).ok() == Some(event.clone()));
            lines.remove(i.expect("the second move in the event stream"));
        });
    });
    assert_eq!(figures_of(&undelivered), [0, 0, 0, 1], "an event never delivered: {}", undelivered.line());
    let _ = std::fs::remove_dir_all(&places.dir);
}

/// The four figures that must be 0: moves lost, decided twice, decided but
/// never said, events never delivered.
fn figures_of(f: &Figures) -> [usize; 4] {
    [f.moves_lost, f.decided_twice, f.never_said, f.never_delivered]
}

/// The figures of `plan`'s checks on a copy of what the station left in
/// `places`, changed by `spoil` first.
fn checked_copy(plan: &Planned, places: &Places, name: &str, spoil: impl FnOnce(&Places)) -> Figures {
    let copy = Places::new(&format!("kills-checked-{name}"));
    std::fs::create_dir_all(&copy.journal).unwrap();
    for (from, to) in [(&places.dir, &copy.dir), (&places.journal, &copy.journal)] {
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            if entry.file_type().is_ok_and(|t| t.is_file()) {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    }
    spoil(&copy);
    let mut figures = Figures::default();
    check(plan, &copy, &mut Events::new(&copy.events), &mut figures);
    let _ = std::fs::remove_dir_all(&copy.dir);
    figures
}

/// The file name of the journal holding the game's moves.
fn game_journal(dir: &Path) -> std::ffi::OsString {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "jsonl"))
        .max_by_key(|e| decode(std::fs::read(e.path()).unwrap()).map_or(0, |c| c.recorded_moves().len()))
        .expect("the game's journal")
        .file_name()
}

/// Rewrites the file `path` line by line.
fn edit_lines(path: &Path, edit: impl FnOnce(&mut Vec<String>)) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    edit(&mut lines);
    std::fs::write(path, lines.join("\n") + "\n").unwrap();
}

/// The journal line of ply `ply`'s move.
fn game_move_line(lines: &[String], ply: usize) -> usize {
    lines
        .iter()
        .position(|l| {
            let r: Value = serde_json::from_str(l).unwrap_or_default();
            r["rec"] == "event" && r["event"]["type"] == "game_move" && r["event"]["ply"] == ply
        })
        .unwrap_or_else(|| panic!("ply {ply}'s move in the journal"))
}

/// The first line of a speaker's log that says `text` was said.
fn said_line(lines: &[String], text: &str) -> Option<usize> {
    let quoted = format!("text=\"{}\"", text.replace('"', "\\\""));
    lines.iter().position(|l| l.contains("said as text only") && l.contains(&quoted))
}
