//! A simulated peg board on a real pseudo-terminal.
//!
//! The station opens the simulator exactly like hardware: through a device
//! path. [`SimPegBoard`] creates a pty pair, points a symlink (`SimOptions::link`,
//! think of a udev symlink) at the slave side, and speaks protocol v1 on the
//! master side from a background thread: it answers `?` and `I?`, sends a
//! heartbeat scan, plays timed scan schedules (e.g. from [`super::Hands`]),
//! presses buttons, injects raw garbage, and can be unplugged and replugged.
//!
//! The simulator keeps its own handle on the slave open so the master never
//! sees a hang-up while the station is between two connections.

use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Chess, Position};
use tracing::{debug, trace};

use super::hands::TimedScan;
use crate::pty::{
    Handled, PlugControl, Pty, SimBoard, SimLine, SimThread, after, due, run_board, sane_speed,
    sim_handle_methods,
};
use station_serial::pegboard::protocol::{BoardMessage, StationCommand};

/// How the simulated board behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct SimOptions {
    /// Symlink created (or replaced) to point at the pty slave: the station's device path.
    pub link: PathBuf,
    /// Schedule speed-up: 10.0 plays a schedule ten times faster than its sim times.
    pub speed: f64,
    /// Append `*HH` checksums to every line.
    pub checksums: bool,
    /// Real-time interval of heartbeat scans (any scan sent resets it).
    pub heartbeat: Duration,
    /// Occupancy before any schedule runs.
    pub initial: Bitboard,
    /// Text of the `I` line.
    pub identity: String,
    /// A 10×10 draughts board: scans are sent as 13-digit `S` lines (bit n−1 =
    /// square n), the occupancy's bits 0–49 being the 50 squares.
    pub draughts50: bool,
    /// A schedule's clock starts at the station's first scan request (`?`)
    /// after it was given, not at once: a station slow to open its port (a
    /// loaded machine) then sees the start position before the first move, as
    /// a player starts when the arbiter says go.
    pub wait_for_station: bool,
}

impl SimOptions {
    /// Defaults: real-time speed, checksums on, heartbeat every 500 ms, start position.
    pub fn new(link: impl Into<PathBuf>) -> Self {
        SimOptions {
            link: link.into(),
            speed: 1.0,
            checksums: true,
            heartbeat: Duration::from_millis(500),
            initial: Chess::default().board().occupied(),
            identity: format!(
                "AnnexD-SimPegBoard v1 ({} {})",
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION")
            ),
            draughts50: false,
            wait_for_station: false,
        }
    }
}

/// How long a simulated button stays pressed.
const BUTTON_HOLD: Duration = Duration::from_millis(60);
/// A scan this late was held up by the simulator's own thread (a loaded
/// machine), not by the hand: the rest of the schedule moves on by the delay,
/// so a stall never sends several moves at one instant (a hand keeps its pace).
const STALL: Duration = Duration::from_millis(50);
/// Names the board in logs and errors.
const WHAT: &str = "simulated peg board";

enum SimControl {
    Play(Vec<TimedScan>),
    Presses(Vec<TimedScan>),
    Button(u8),
    ButtonState(u8, bool),
    SetOccupancy(Bitboard),
    Raw(Vec<u8>),
    Flood { lines_per_s: u32, lasts: Duration },
    Plug(PlugControl),
}

impl From<PlugControl> for SimControl {
    fn from(control: PlugControl) -> Self {
        SimControl::Plug(control)
    }
}

/// Counters the test side can read while the simulator runs.
#[derive(Debug, Default)]
struct Shared {
    occupancy: AtomicU64,
    scan_requests: AtomicU64,
    identity_requests: AtomicU64,
}

/// Handle to a running simulated peg board. Dropping it stops the board and removes the link.
#[derive(Debug)]
pub struct SimPegBoard {
    thread: SimThread<SimControl>,
    shared: Arc<Shared>,
}

impl std::fmt::Debug for SimControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SimControl::Play(_) => "Play",
            SimControl::Presses(_) => "Presses",
            SimControl::Button(_) => "Button",
            SimControl::ButtonState(..) => "ButtonState",
            SimControl::SetOccupancy(_) => "SetOccupancy",
            SimControl::Raw(_) => "Raw",
            SimControl::Flood { .. } => "Flood",
            SimControl::Plug(_) => "Plug",
        })
    }
}

impl SimPegBoard {
    // `link`, `inject_raw`, `unplug`, `replug`, `wait_idle`, `stop`.
    sim_handle_methods!(SimControl);

    /// Creates the pty and the symlink, then starts the board thread.
    pub fn start(opts: SimOptions) -> io::Result<SimPegBoard> {
        let pty = Pty::plug(&opts.link, WHAT)?;
        let shared = Arc::new(Shared::default());
        shared.occupancy.store(opts.initial.0, Ordering::Relaxed);
        let (control, rx) = crossbeam_channel::unbounded();
        let link = opts.link.clone();
        let heartbeat = opts.heartbeat;
        let board = Board {
            occupancy: opts.initial,
            speed: sane_speed(opts.speed),
            line: SimLine::new(link.clone(), WHAT, pty),
            opts,
            shared: Arc::clone(&shared),
            schedule: VecDeque::new(),
            presses: VecDeque::new(),
            origin: Instant::now(),
            origin_pending: false,
            next_heartbeat: after(Instant::now(), heartbeat),
            releases: VecDeque::new(),
            command: Vec::new(),
            flood: None,
        };
        let thread = SimThread::spawn("sim-pegboard", WHAT, link, control, move || run_board(board, rx))?;
        Ok(SimPegBoard { thread, shared })
    }

    /// Plays a schedule: scan `i` goes out at `at_ms / speed` real milliseconds after
    /// the schedule starts (now, or — if a schedule is still running — that
    /// schedule's start, so consecutive calls continue one timeline).
    pub fn play_scans(&self, scans: Vec<TimedScan>) {
        self.send(SimControl::Play(scans));
    }

    /// Presses the clock lever (button 0) at each of `at_ms`, on the timeline
    /// of the schedule given with [`SimPegBoard::play_scans`] just before:
    /// the simulated hand that presses the clock after each move.
    pub fn play_lever(&self, at_ms: Vec<u64>) {
        let presses =
            at_ms.into_iter().map(|at_ms| TimedScan { at_ms, occupancy: Bitboard::EMPTY }).collect();
        self.send(SimControl::Presses(presses));
    }

    /// Presses button `index` (sends `K n 1`, then `K n 0` after 60 ms).
    pub fn press_button(&self, index: u8) {
        self.send(SimControl::Button(index));
    }

    /// Holds button `index` down (`K n 1`) or lets it go (`K n 0`): a
    /// push-to-talk button is held for as long as the player speaks.
    pub fn hold_button(&self, index: u8, pressed: bool) {
        self.send(SimControl::ButtonState(index, pressed));
    }

    /// Changes the occupancy at once and reports it, like a hand would.
    pub fn set_occupancy(&self, occupancy: Bitboard) {
        self.send(SimControl::SetOccupancy(occupancy));
    }

    /// Floods the line with garbage (two-byte lines of an unknown type,
    /// `lines_per_s` of them a second, for `lasts`), paced by the board itself
    /// and interleaved with its scans as a device writing at line rate does:
    /// 5,760 lines a second fill a 115200-baud line.
    pub fn flood(&self, lines_per_s: u32, lasts: Duration) {
        self.send(SimControl::Flood { lines_per_s, lasts });
    }

    /// The board's current occupancy (the last scan sent or due).
    pub fn occupancy(&self) -> Bitboard {
        Bitboard(self.shared.occupancy.load(Ordering::Relaxed))
    }

    /// How many `?` commands the board has received.
    pub fn scan_requests(&self) -> u64 {
        self.shared.scan_requests.load(Ordering::Relaxed)
    }

    /// How many `I?` commands the board has received.
    pub fn identity_requests(&self) -> u64 {
        self.shared.identity_requests.load(Ordering::Relaxed)
    }
}

struct Board {
    opts: SimOptions,
    speed: f64,
    shared: Arc<Shared>,
    line: SimLine,
    occupancy: Bitboard,
    schedule: VecDeque<TimedScan>,
    /// Lever presses on the schedule's timeline (only `at_ms` is used).
    presses: VecDeque<TimedScan>,
    origin: Instant,
    /// The schedule waits for the station's first scan request (`wait_for_station`).
    origin_pending: bool,
    next_heartbeat: Instant,
    releases: VecDeque<(Instant, u8)>,
    command: Vec<u8>,
    /// A garbage flood under way: lines a second, when it began, until when, lines sent.
    flood: Option<(u32, Instant, Instant, u64)>,
}

impl SimBoard for Board {
    type Control = SimControl;

    fn apply(&mut self, control: SimControl) -> bool {
        match control {
            SimControl::Play(scans) => {
                if self.schedule.is_empty() {
                    self.origin = Instant::now();
                    // A station that has asked already is there: go at once.
                    self.origin_pending =
                        self.opts.wait_for_station && self.shared.scan_requests.load(Ordering::Relaxed) == 0;
                }
                self.schedule.extend(scans);
            }
            SimControl::Presses(presses) => self.presses.extend(presses),
            SimControl::Button(index) => {
                self.send(&BoardMessage::Button { index, pressed: true });
                self.releases.push_back((Instant::now() + BUTTON_HOLD, index));
            }
            SimControl::ButtonState(index, pressed) => {
                self.send(&BoardMessage::Button { index, pressed });
            }
            SimControl::SetOccupancy(occupancy) => {
                self.set_occupancy(occupancy);
                self.send_scan();
            }
            SimControl::Raw(bytes) => self.write(&bytes),
            SimControl::Flood { lines_per_s, lasts } => {
                let now = Instant::now();
                self.flood = Some((lines_per_s, now, after(now, lasts), 0));
            }
            SimControl::Plug(control) => match self.line.handle(control) {
                Handled::Done => {}
                Handled::Replugged => self.command.clear(),
                Handled::Stop => return false,
            },
        }
        true
    }

    fn send_due(&mut self, now: Instant) -> (Instant, bool) {
        self.send_flood(now);
        self.send_due_scans(now);
        self.release_buttons(now);
        if now >= self.next_heartbeat {
            self.send_scan();
        }
        (self.next_deadline(), self.schedule.is_empty())
    }

    fn heard(&mut self, bytes: &[u8]) {
        self.take_command_bytes(bytes);
    }

    fn line(&mut self) -> &mut SimLine {
        &mut self.line
    }
}

impl Board {
    fn due(&self, scan: &TimedScan) -> Instant {
        due(self.origin, scan.at_ms, self.speed)
    }

    fn send_due_scans(&mut self, now: Instant) {
        if self.origin_pending {
            return;
        }
        while let Some(scan) = self.schedule.front().copied() {
            let due = self.due(&scan);
            if due > now {
                break;
            }
            let late = now.saturating_duration_since(due);
            if late > STALL {
                self.origin += late;
            }
            self.schedule.pop_front();
            self.set_occupancy(scan.occupancy);
            self.send_scan();
        }
        while let Some(press) = self.presses.front().copied() {
            if self.due(&press) > now {
                break;
            }
            self.presses.pop_front();
            self.send(&BoardMessage::Button { index: 0, pressed: true });
            self.releases.push_back((now + BUTTON_HOLD, 0));
        }
    }

    /// The garbage lines of a flood due by `now`, in one write.
    fn send_flood(&mut self, now: Instant) {
        let Some((rate, began, until, sent)) = self.flood else { return };
        let upto = now.min(until);
        let due = (upto.saturating_duration_since(began).as_secs_f64() * f64::from(rate)) as u64;
        if due > sent {
            let lines = (due - sent).min(1 << 16) as usize;
            self.write(&b"Z\n".repeat(lines));
        }
        self.flood = (now < until).then_some((rate, began, until, due));
    }

    fn release_buttons(&mut self, now: Instant) {
        while let Some(&(at, index)) = self.releases.front() {
            if at > now {
                break;
            }
            self.releases.pop_front();
            self.send(&BoardMessage::Button { index, pressed: false });
        }
    }

    fn next_deadline(&self) -> Instant {
        let mut next = self.next_heartbeat;
        if let Some(scan) = self.schedule.front().filter(|_| !self.origin_pending) {
            next = next.min(self.due(scan));
        }
        if let Some(press) = self.presses.front().filter(|_| !self.origin_pending) {
            next = next.min(self.due(press));
        }
        if let Some(&(at, _)) = self.releases.front() {
            next = next.min(at);
        }
        next
    }

    fn take_command_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if b != b'\n' {
                // Commands are tiny; anything longer is noise and is cut short.
                if self.command.len() < 16 {
                    self.command.push(b);
                }
                continue;
            }
            let line = std::mem::take(&mut self.command);
            match StationCommand::parse_line(&line) {
                Some(StationCommand::RequestScan) => {
                    self.shared.scan_requests.fetch_add(1, Ordering::Relaxed);
                    if std::mem::take(&mut self.origin_pending) {
                        self.origin = Instant::now();
                    }
                    self.send_scan();
                }
                Some(StationCommand::RequestIdentity) => {
                    self.shared.identity_requests.fetch_add(1, Ordering::Relaxed);
                    self.send(&BoardMessage::Identity(self.opts.identity.clone()));
                }
                None => debug!(?line, "simulated board ignores unknown command"),
            }
        }
    }

    fn set_occupancy(&mut self, occupancy: Bitboard) {
        self.occupancy = occupancy;
        self.shared.occupancy.store(occupancy.0, Ordering::Relaxed);
    }

    fn send_scan(&mut self) {
        let message = if self.opts.draughts50 {
            BoardMessage::Scan50(self.occupancy.0 & ((1 << 50) - 1))
        } else {
            BoardMessage::Scan(self.occupancy)
        };
        self.send(&message);
        self.next_heartbeat = after(Instant::now(), self.opts.heartbeat);
    }

    fn send(&mut self, message: &BoardMessage) {
        trace!(?message, "simulated board sends");
        let line = message.to_line(self.opts.checksums);
        self.write(line.as_bytes());
    }

    fn write(&mut self, bytes: &[u8]) {
        self.line.write(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pegboard::hands::Hands;
    use crate::test_support::{TempDir, wait_for};
    use shakmaty::{Chess, Move, Position, san::San};
    use station_serial::pegboard::protocol::LineError;
    use station_serial::pegboard::serial::{DriverEvent, PegBoardDriver, SerialSettings};
    use station_stamp::Stamped;

    fn scripted_game() -> (Vec<TimedScan>, Bitboard) {
        let mut hands = Hands::new(Some(11));
        let mut pos = Chess::default();
        let mut now = 0;
        let mut scans = Vec::new();
        for san in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Bxc6", "dxc6", "O-O"] {
            let mv: Move = san.parse::<San>().unwrap().to_move(&pos).unwrap();
            hands.play(&pos, &mv, &mut now, &mut scans);
            pos.play_unchecked(mv);
            hands.think(pos.board().occupied(), 800, &mut now, &mut scans);
        }
        (scans, pos.board().occupied())
    }

    fn dedup(states: impl IntoIterator<Item = Bitboard>) -> Vec<Bitboard> {
        let mut out: Vec<Bitboard> = Vec::new();
        for s in states {
            if out.last() != Some(&s) {
                out.push(s);
            }
        }
        out
    }

    #[test]
    fn a_schedule_waiting_for_the_station_starts_at_its_first_scan_request() {
        let dir = TempDir::new("sim-wait");
        let link = dir.0.join("pegboard");
        let opts = SimOptions { speed: 10.0, wait_for_station: true, ..SimOptions::new(&link) };
        let initial = opts.initial;
        let sim = SimPegBoard::start(opts).unwrap();
        let (scans, final_occupancy) = scripted_game();
        sim.play_scans(scans);
        // Nobody has asked: the hand waits (the game would be over by now at speed 10).
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(sim.occupancy(), initial, "no move before the station is there");
        let mut driver = PegBoardDriver::spawn(SerialSettings::new(&link));
        let events = driver.events();
        let second = Duration::from_secs(1);
        // The station's first scan is the start position, then every move follows.
        assert_eq!(
            wait_for(&events, 10 * second, |e| matches!(e, DriverEvent::Message(BoardMessage::Scan(_)))),
            Some(DriverEvent::Message(BoardMessage::Scan(initial)))
        );
        sim.wait_idle();
        assert_eq!(sim.occupancy(), final_occupancy);
        driver.shutdown();
    }

    #[test]
    fn pty_round_trip_with_driver() {
        let dir = TempDir::new("sim");
        let link = dir.0.join("pegboard");
        let mut opts = SimOptions::new(&link);
        opts.speed = 10.0;
        let initial = opts.initial;
        let sim = SimPegBoard::start(opts).unwrap();
        assert!(link.exists());

        let mut driver = PegBoardDriver::spawn(SerialSettings::new(&link));
        let events = driver.events();
        let second = Duration::from_secs(1);
        assert_eq!(
            wait_for(&events, 3 * second, |e| *e == DriverEvent::Connected),
            Some(DriverEvent::Connected)
        );
        let identity =
            wait_for(&events, 2 * second, |e| matches!(e, DriverEvent::Message(BoardMessage::Identity(_))));
        assert!(
            matches!(identity, Some(DriverEvent::Message(BoardMessage::Identity(ref t))) if t.starts_with("AnnexD-SimPegBoard v1"))
        );
        assert!(
            wait_for(&events, 2 * second, |e| *e == DriverEvent::Message(BoardMessage::Scan(initial)))
                .is_some()
        );

        // A scripted game arrives in order, every intermediate state included.
        let (scans, final_occupancy) = scripted_game();
        let expected = dedup(std::iter::once(initial).chain(scans.iter().map(|s| s.occupancy)));
        sim.play_scans(scans);
        sim.wait_idle();
        sim.press_button(3);
        let mut received = vec![initial];
        let mut buttons = Vec::new();
        let deadline = Instant::now() + 3 * second;
        while buttons.len() < 2 {
            match events.recv_deadline(deadline).map(Stamped::into_event) {
                Ok(DriverEvent::Message(BoardMessage::Scan(bb))) => received.push(bb),
                Ok(DriverEvent::Message(BoardMessage::Button { index, pressed })) => {
                    buttons.push((index, pressed));
                }
                Ok(other) => panic!("unexpected {other:?}"),
                Err(_) => panic!("timed out; buttons so far {buttons:?}"),
            }
        }
        assert_eq!(dedup(received), expected);
        assert_eq!(buttons, vec![(3, true), (3, false)]);
        assert_eq!(sim.occupancy(), final_occupancy);

        // Garbage is dropped and counted; the line after it still gets through.
        sim.inject_raw(&b"S 0000000000000000*00\n"[..]);
        sim.inject_raw(vec![b'x'; 300]);
        sim.inject_raw(&b"\nI caf\xc3\xa9\nZ 1\nK 1\n"[..]);
        sim.press_button(7);
        let mut dropped = Vec::new();
        let mut button = false;
        let deadline = Instant::now() + 3 * second;
        // One read may hold the garbage and the button both: its drops are
        // reported with the read, before or after the button's message.
        while !button || dropped.last().is_none_or(|d: &(LineError, u64)| d.1 < 5) {
            match events.recv_deadline(deadline).map(Stamped::into_event) {
                Ok(DriverEvent::Dropped { error, total }) => dropped.push((error, total)),
                Ok(DriverEvent::Message(BoardMessage::Button { index: 7, .. })) => button = true,
                Ok(_) => {}
                Err(_) => panic!("timed out; dropped so far {dropped:?}, button {button}"),
            }
        }
        // Reported once per read (the last reason, the running total), counted one by one.
        assert_eq!(dropped.last(), Some(&(LineError::Malformed, 5)), "{dropped:?}");
        assert!(dropped.windows(2).all(|w| w[0].1 < w[1].1), "{dropped:?}");
        let counters = driver.drop_counters();
        for reason in [
            LineError::BadChecksum,
            LineError::TooLong,
            LineError::NotAscii,
            LineError::UnknownType,
            LineError::Malformed,
        ] {
            assert_eq!(counters.count(reason), 1, "{reason:?}");
        }
        assert_eq!(counters.total(), 5);

        // Unplug: the station notices; replug: it reconnects and gets a fresh scan.
        sim.unplug();
        assert!(!link.exists());
        assert!(wait_for(&events, 3 * second, |e| matches!(e, DriverEvent::Disconnected { .. })).is_some());
        std::thread::sleep(Duration::from_millis(700));
        let moved = final_occupancy.without(shakmaty::Square::A2);
        sim.set_occupancy(moved);
        sim.replug().unwrap();
        assert!(link.exists());
        assert_eq!(
            wait_for(&events, 5 * second, |e| matches!(
                e,
                DriverEvent::Connected | DriverEvent::Disconnected { .. }
            )),
            Some(DriverEvent::Connected)
        );
        assert!(
            wait_for(&events, 2 * second, |e| *e == DriverEvent::Message(BoardMessage::Scan(moved)))
                .is_some()
        );
        assert!(sim.identity_requests() >= 2);

        driver.shutdown();
        assert!(wait_for(&events, second, |e| matches!(e, DriverEvent::Disconnected { .. })).is_some());
        drop(sim);
        assert!(!link.exists(), "stop removes the link");
    }

    #[test]
    fn silent_board_is_asked_for_a_scan() {
        let dir = TempDir::new("silent");
        let link = dir.0.join("pegboard");
        let mut opts = SimOptions::new(&link);
        opts.heartbeat = Duration::from_secs(3600);
        opts.checksums = false;
        let sim = SimPegBoard::start(opts).unwrap();
        let driver = PegBoardDriver::spawn(SerialSettings::new(&link));
        let events = driver.events();
        let is_scan = |e: &DriverEvent| matches!(e, DriverEvent::Message(BoardMessage::Scan(_)));
        assert!(wait_for(&events, Duration::from_secs(3), is_scan).is_some());
        // Let the greeting's answers settle before timing the silence.
        while events.recv_timeout(Duration::from_millis(300)).is_ok() {}
        let greeted = sim.scan_requests();
        let started = Instant::now();
        assert!(wait_for(&events, Duration::from_secs(5), is_scan).is_some());
        assert!(started.elapsed() >= Duration::from_millis(2_500));
        assert_eq!(sim.scan_requests(), greeted + 1);
    }

    #[test]
    fn port_is_exclusive_and_released_on_shutdown() {
        let dir = TempDir::new("excl");
        let link = dir.0.join("pegboard");
        let _sim = SimPegBoard::start(SimOptions::new(&link)).unwrap();
        let second = Duration::from_secs(1);
        let mut first = PegBoardDriver::spawn(SerialSettings::new(&link));
        let first_events = first.events();
        assert!(wait_for(&first_events, 3 * second, |e| *e == DriverEvent::Connected).is_some());

        let other = PegBoardDriver::spawn(SerialSettings::new(&link));
        let other_events = other.events();
        assert!(
            wait_for(&other_events, second, |e| *e == DriverEvent::Connected).is_none(),
            "a second station must not share the port"
        );
        first.shutdown();
        assert!(
            wait_for(&other_events, 4 * second, |e| *e == DriverEvent::Connected).is_some(),
            "the port is free again once the first station let go"
        );
    }

    #[test]
    fn driver_keeps_retrying_until_the_board_appears_and_shuts_down_promptly() {
        let dir = TempDir::new("late");
        let link = dir.0.join("pegboard");
        let mut driver = PegBoardDriver::spawn(SerialSettings::new(&link));
        let events = driver.events();
        std::thread::sleep(Duration::from_millis(400));
        // A port missing at start is reported once (the console and the player hear it).
        let first = events.try_recv().map(Stamped::into_event);
        assert!(
            matches!(&first, Ok(DriverEvent::Disconnected { reason }) if reason.contains("cannot open")),
            "{first:?}"
        );
        assert!(events.try_recv().is_err(), "reported once, not at every retry");
        let _sim = SimPegBoard::start(SimOptions::new(&link)).unwrap();
        assert_eq!(
            wait_for(&events, Duration::from_secs(3), |e| *e == DriverEvent::Connected),
            Some(DriverEvent::Connected)
        );
        let started = Instant::now();
        driver.shutdown();
        assert!(started.elapsed() < Duration::from_secs(1));
        driver.shutdown();
        assert!(matches!(
            driver.send(StationCommand::RequestScan),
            Err(station_serial::pegboard::serial::DriverStopped)
        ));
    }

    #[test]
    fn a_draughts_board_sends_13_digit_scans_over_the_pty() {
        use crate::draughts_hands::{DraughtsHands, HandMove};
        let dir = TempDir::new("sim-draughts");
        let link = dir.0.join("pegboard");
        // Squares 1–20 (Black) and 31–50 (White): bits 0–19 and 30–49.
        let initial = ((1u64 << 20) - 1) | (((1u64 << 20) - 1) << 30);
        let opts = SimOptions {
            speed: 10.0,
            initial: Bitboard(initial),
            draughts50: true,
            ..SimOptions::new(&link)
        };
        let sim = SimPegBoard::start(opts).unwrap();
        let driver = PegBoardDriver::spawn(SerialSettings::new(&link));
        let events = driver.events();
        let second = Duration::from_secs(1);
        assert!(
            wait_for(&events, 3 * second, |e| *e == DriverEvent::Message(BoardMessage::Scan50(initial)))
                .is_some()
        );

        // 32-28 then 19-23 made by a hand (squares as indices: number − 1).
        let mut hands = DraughtsHands::new(50, 3, false);
        let mut occ = initial;
        let mut scans = Vec::new();
        let mut t = 0;
        for (from, to) in [(31u8, 27u8), (18, 22)] {
            let mv = HandMove { from, path: vec![to], captured: Vec::new(), man_takes_man: false };
            let (played, end) = hands.play(occ, &mv, t);
            scans.extend(played.iter().map(|&(at_ms, o)| TimedScan { at_ms, occupancy: Bitboard(o) }));
            occ = played.last().unwrap().1;
            t = end + 400;
        }
        let expected = scans.iter().map(|s| s.occupancy.0).collect::<Vec<_>>();
        sim.play_scans(scans);
        sim.wait_idle();
        let mut received = Vec::new();
        while received.last() != Some(&occ) {
            match wait_for(&events, 3 * second, |e| {
                matches!(e, DriverEvent::Message(BoardMessage::Scan50(_)))
            }) {
                Some(DriverEvent::Message(BoardMessage::Scan50(bits))) if received.last() != Some(&bits) => {
                    received.push(bits)
                }
                Some(_) => {}
                None => panic!("timed out; received {received:?}"),
            }
        }
        assert_eq!(received, expected);

        // A scan naming a square beyond 50 is dropped and counted as malformed.
        sim.inject_raw(&b"S 4000000000000\n"[..]);
        let dropped = wait_for(&events, 3 * second, |e| matches!(e, DriverEvent::Dropped { .. }));
        assert_eq!(dropped, Some(DriverEvent::Dropped { error: LineError::BeyondSquare50, total: 1 }));
    }
}
