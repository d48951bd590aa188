//! A DGT board emulator on a real pseudo-terminal.
//!
//! The station opens it exactly like hardware, through a device path:
//! [`DgtEmulator`] creates a pty pair, points a symlink
//! ([`EmulatorOptions::link`]) at the slave side and speaks the DGT protocol on
//! the master side from a background thread. It answers the host commands,
//! sends field updates in update mode, plays timed update schedules (e.g. from
//! [`super::DgtHands`]), relays a simulated DGT 3000 clock as `BWTIME`, may
//! stand turned 180°, and can be unplugged and replugged (the link re-pointed).
//!
//! It follows the rules real hardware keeps, so tests prove what the hardware
//! will do: the board powers up in bus mode (the first single-board command
//! only takes it out); its input buffer holds 10 bytes while it is busy with
//! a command (more is lost); a clock's acknowledgements come only in update
//! modes 0x43 and 0x4b; a clock takes SetNRun only in its mode 23 (else it
//! reports "not in mode 23") and switches sides on a lever press only when
//! SetNRun set the lever bit; a DGT XL answers the version query as an XL and
//! does not know the text display; without a clock the board relays readings
//! with the "no clock" bit set.
//!
//! The emulator keeps its own handle on the slave open so the master never
//! sees a hang-up while the station is between two connections.

use std::collections::VecDeque;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use shakmaty::{Board, Square};
use tracing::{debug, trace};

use super::hands::TimedUpdate;
use crate::pty::{
    Handled, PlugControl, Pty, SimBoard, SimLine, SimThread, TICK, after, due, run_board, sane_speed,
    sim_handle_methods,
};
use station_serial::dgt::orientation::Orientation;
use station_serial::dgt::protocol::{
    ACK_NOT_IN_MODE_23, BwTime, ClockAck, ClockCommand, ClockModel, ClockRun, DgtMessage, HostCommand,
    HostCommandReader, SideTime,
};

/// A simulated DGT clock (a DGT 3000 unless told otherwise) attached to the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimClock {
    /// Time left on the left display, in milliseconds.
    pub left_ms: u64,
    /// Time left on the right display, in milliseconds.
    pub right_ms: u64,
    /// Which side counts down.
    pub run: ClockRun,
    /// The lever switches sides (SetNRun's lever bit was set).
    pub lever: bool,
    /// The clock is in mode 23, the only mode in which it takes SetNRun.
    pub mode_23: bool,
    /// DGT 3000 or DGT XL: what it answers to the version query, and whether it shows text.
    pub model: ClockModel,
}

impl SimClock {
    /// A DGT 3000 in mode 23 showing these times, its lever not yet switching sides.
    pub fn new(left_ms: u64, right_ms: u64, run: ClockRun) -> SimClock {
        SimClock { left_ms, right_ms, run, lever: false, mode_23: true, model: ClockModel::Dgt3000 }
    }

    /// The lever is pressed: with the lever bit set, the running side stops and the other runs.
    pub fn press_lever(&mut self) {
        if !self.lever {
            return;
        }
        self.run = match self.run {
            ClockRun::LeftRunning => ClockRun::RightRunning,
            ClockRun::RightRunning => ClockRun::LeftRunning,
            ClockRun::Paused => ClockRun::Paused,
        };
    }

    /// The reading the board relays: seconds rounded up, as a clock shows them.
    pub fn reading(&self) -> BwTime {
        let side = |ms: u64| {
            let mut t = SideTime::from_secs(u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX));
            t.flag_shown = ms == 0;
            t
        };
        BwTime {
            right: side(self.right_ms),
            left: side(self.left_ms),
            running: self.run != ClockRun::Paused,
            lever_right_high: self.run == ClockRun::RightRunning,
            battery_low: false,
            right_to_move: self.run == ClockRun::RightRunning,
            left_to_move: self.run == ClockRun::LeftRunning,
            no_clock: false,
        }
    }

    fn advance(&mut self, elapsed: Duration) {
        let ms = u64::try_from(elapsed.as_millis()).unwrap_or(u64::MAX);
        match self.run {
            ClockRun::LeftRunning => self.left_ms = self.left_ms.saturating_sub(ms),
            ClockRun::RightRunning => self.right_ms = self.right_ms.saturating_sub(ms),
            ClockRun::Paused => {}
        }
    }
}

/// How the emulated board behaves.
#[derive(Debug, Clone, PartialEq)]
pub struct EmulatorOptions {
    /// Symlink created (or replaced) to point at the pty slave: the station's device path.
    pub link: PathBuf,
    /// Schedule speed-up: 10.0 plays a schedule ten times faster than its sim times.
    pub speed: f64,
    /// The board stands turned 180°: squares go out point-reflected.
    pub rotated: bool,
    /// The real board before any schedule runs.
    pub initial: Board,
    /// Firmware version reported.
    pub version: (u8, u8),
    /// Serial number reported (five characters).
    pub serial: String,
    /// Trademark text reported.
    pub trademark: String,
    /// The attached clock, if any.
    pub clock: Option<SimClock>,
}

impl EmulatorOptions {
    /// Defaults: real-time speed, normal orientation, start position, no clock.
    pub fn new(link: impl Into<PathBuf>) -> Self {
        EmulatorOptions {
            link: link.into(),
            speed: 1.0,
            rotated: false,
            initial: Board::new(),
            version: (1, 8),
            serial: "12345".into(),
            trademark: format!(
                "AnnexD DGT emulator ({} {})",
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION")
            ),
            clock: None,
        }
    }
}

/// The board's reporting mode, as set by the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BoardMode {
    /// Power-up: listens for bus commands; the first single-board command
    /// switches it to single-board mode ([`BoardMode::Idle`]) and is not processed.
    #[default]
    Bus,
    /// Answers requests only (after leaving bus mode, or 0x40).
    Idle,
    /// 0x43: updates and clock every second.
    UpdatesWithClock,
    /// 0x4b: updates and clock on change.
    UpdatesNice,
    /// 0x44: updates only.
    UpdatesBoardOnly,
}

/// Names the board in logs and errors.
const WHAT: &str = "emulated DGT board";
/// Clock relay interval in 0x43 mode.
const CLOCK_EVERY: Duration = Duration::from_secs(1);
/// A single board's input buffer: bytes that arrive while it is busy with a
/// command wait here; what does not fit is lost.
pub const INPUT_BUFFER: usize = 10;
/// How long the board is busy with one command (answering, relaying to the clock).
const BUSY: Duration = Duration::from_millis(20);

enum EmuControl {
    PressLever,
    Play(Vec<TimedUpdate>),
    SetBoard(Board),
    SetClock(Option<SimClock>),
    Raw(Vec<u8>),
    Plug(PlugControl),
}

impl From<PlugControl> for EmuControl {
    fn from(control: PlugControl) -> Self {
        EmuControl::Plug(control)
    }
}

impl std::fmt::Debug for EmuControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            EmuControl::PressLever => "PressLever",
            EmuControl::Play(_) => "Play",
            EmuControl::SetBoard(_) => "SetBoard",
            EmuControl::SetClock(_) => "SetClock",
            EmuControl::Raw(_) => "Raw",
            EmuControl::Plug(_) => "Plug",
        })
    }
}

/// What the test side can read while the emulator runs.
#[derive(Debug, Clone, Default)]
struct Shared {
    board: Board,
    mode: BoardMode,
    board_requests: u64,
    clock: Option<SimClock>,
    clock_commands: Vec<ClockCommand>,
    acks_sent: Vec<ClockAck>,
    bytes_lost: u64,
}

/// Handle to a running emulated DGT board. Dropping it stops the board and removes the link.
#[derive(Debug)]
pub struct DgtEmulator {
    thread: SimThread<EmuControl>,
    shared: Arc<Mutex<Shared>>,
}

impl DgtEmulator {
    // `link`, `inject_raw`, `unplug`, `replug` (the board comes back in idle
    // mode), `wait_idle`, `stop`.
    sim_handle_methods!(EmuControl);

    /// Creates the pty and the symlink, then starts the board thread.
    pub fn start(opts: EmulatorOptions) -> io::Result<DgtEmulator> {
        let pty = Pty::plug(&opts.link, WHAT)?;
        let shared = Arc::new(Mutex::new(Shared {
            board: opts.initial.clone(),
            clock: opts.clock,
            ..Shared::default()
        }));
        let (control, rx) = crossbeam_channel::unbounded();
        let link = opts.link.clone();
        let now = Instant::now();
        let emu = Emu {
            speed: sane_speed(opts.speed),
            orientation: if opts.rotated { Orientation::Rotated } else { Orientation::Normal },
            board: opts.initial.clone(),
            clock_feed: ClockFeed {
                clock: opts.clock,
                last_clock_tick: now,
                next_clock_send: now,
                last_clock_sent: None,
            },
            line: SimLine::new(link.clone(), WHAT, pty),
            opts,
            shared: Arc::clone(&shared),
            mode: BoardMode::Bus,
            host: HostInput {
                busy_until: now,
                input: VecDeque::with_capacity(INPUT_BUFFER),
                commands: HostCommandReader::new(),
                parsed: Vec::new(),
            },
            playback: Playback { schedule: VecDeque::new(), origin: now },
        };
        let thread = SimThread::spawn("dgt-emulator", WHAT, link, control, move || run_board(emu, rx))?;
        Ok(DgtEmulator { thread, shared })
    }

    /// Plays a schedule of field updates (real squares): update `i` happens
    /// `at_ms / speed` real milliseconds after the schedule starts (now, or —
    /// if a schedule is still running — that schedule's start).
    pub fn play_updates(&self, updates: Vec<TimedUpdate>) {
        self.send(EmuControl::Play(updates));
    }

    /// Changes the board at once, reporting every changed square like a hand would.
    pub fn set_board(&self, board: Board) {
        self.send(EmuControl::SetBoard(board));
    }

    /// Attaches, replaces or removes the clock.
    pub fn set_clock(&self, clock: Option<SimClock>) {
        self.send(EmuControl::SetClock(clock));
    }

    /// A player presses the clock's lever ([`SimClock::press_lever`]).
    pub fn press_lever(&self) {
        self.send(EmuControl::PressLever);
    }

    /// The real board now.
    pub fn board(&self) -> Board {
        self.lock().board.clone()
    }

    /// The reporting mode the host has set.
    pub fn mode(&self) -> BoardMode {
        self.lock().mode
    }

    /// How many board dumps the host has asked for.
    pub fn board_requests(&self) -> u64 {
        self.lock().board_requests
    }

    /// The clock now.
    pub fn clock(&self) -> Option<SimClock> {
        self.lock().clock
    }

    /// Clock commands received so far (in bus mode or garbled ones not included).
    pub fn clock_commands(&self) -> Vec<ClockCommand> {
        self.lock().clock_commands.clone()
    }

    /// Clock acknowledgements sent so far.
    pub fn acks_sent(&self) -> Vec<ClockAck> {
        self.lock().acks_sent.clone()
    }

    /// Bytes lost because they arrived while the input buffer was full.
    pub fn bytes_lost(&self) -> u64 {
        self.lock().bytes_lost
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

struct Emu {
    opts: EmulatorOptions,
    speed: f64,
    orientation: Orientation,
    shared: Arc<Mutex<Shared>>,
    line: SimLine,
    mode: BoardMode,
    board: Board,
    host: HostInput,
    clock_feed: ClockFeed,
    playback: Playback,
}

/// The host's side of the line: bytes waiting while a command is busy, and
/// the reader that turns them into commands. One thing because every byte
/// from the host passes through all of it in turn.
struct HostInput {
    /// Busy with a command until then; bytes arriving meanwhile wait in `input`.
    busy_until: Instant,
    input: VecDeque<u8>,
    commands: HostCommandReader,
    /// Reused buffer for the commands one byte completes (no allocation per byte).
    parsed: Vec<Option<HostCommand>>,
}

/// The emulated clock and when its times were last advanced and sent: the
/// clock's state and its reporting schedule change together on every tick.
struct ClockFeed {
    clock: Option<SimClock>,
    last_clock_tick: Instant,
    next_clock_send: Instant,
    last_clock_sent: Option<BwTime>,
}

/// The scripted field updates still to play and the instant their timestamps
/// count from: a schedule's times mean nothing without its origin.
struct Playback {
    schedule: VecDeque<TimedUpdate>,
    origin: Instant,
}

impl SimBoard for Emu {
    type Control = EmuControl;

    fn apply(&mut self, control: EmuControl) -> bool {
        match control {
            EmuControl::PressLever => {
                if let Some(clock) = self.clock_feed.clock.as_mut() {
                    clock.press_lever();
                }
                self.publish();
            }
            EmuControl::Play(updates) => {
                if self.playback.schedule.is_empty() {
                    self.playback.origin = Instant::now();
                }
                self.playback.schedule.extend(updates);
            }
            EmuControl::SetBoard(board) => {
                for square in Square::ALL {
                    let piece = board.piece_at(square);
                    if self.board.piece_at(square) != piece {
                        self.change(TimedUpdate { at_ms: 0, square, piece });
                    }
                }
            }
            EmuControl::SetClock(clock) => {
                self.clock_feed.clock = clock;
                self.clock_feed.last_clock_sent = None;
                self.publish();
            }
            EmuControl::Raw(bytes) => self.write(&bytes),
            EmuControl::Plug(control) => match self.line.handle(control) {
                Handled::Done => {}
                Handled::Replugged => {
                    // A board that lost power comes back in bus mode.
                    self.mode = BoardMode::Bus;
                    self.host.commands = HostCommandReader::new();
                    self.host.input.clear();
                    self.publish();
                }
                Handled::Stop => return false,
            },
        }
        true
    }

    fn send_due(&mut self, now: Instant) -> (Instant, bool) {
        self.apply_due_updates(now);
        self.tick_clock(now);
        self.drain_input(now);
        let next = self.playback.schedule.front().map_or(now + TICK, |u| self.due(u));
        (next, self.playback.schedule.is_empty())
    }

    fn heard(&mut self, bytes: &[u8]) {
        let now = Instant::now();
        for &b in bytes {
            if now < self.host.busy_until || !self.host.input.is_empty() {
                if self.host.input.len() < INPUT_BUFFER {
                    self.host.input.push_back(b);
                } else {
                    self.lock().bytes_lost += 1;
                }
            } else {
                self.take_byte(b, now);
            }
        }
    }

    fn line(&mut self) -> &mut SimLine {
        &mut self.line
    }
}

impl Emu {
    fn apply_due_updates(&mut self, now: Instant) {
        while let Some(update) = self.playback.schedule.front().copied() {
            if self.due(&update) > now {
                break;
            }
            self.playback.schedule.pop_front();
            self.change(update);
        }
    }

    fn due(&self, update: &TimedUpdate) -> Instant {
        due(self.playback.origin, update.at_ms, self.speed)
    }

    /// One square changes on the real board; reported in update mode.
    fn change(&mut self, update: TimedUpdate) {
        if self.board.piece_at(update.square) == update.piece {
            return; // a real board reports changes only
        }
        match update.piece {
            Some(p) => self.board.set_piece_at(update.square, p),
            None => self.board.discard_piece_at(update.square),
        }
        self.publish();
        if !matches!(self.mode, BoardMode::Idle | BoardMode::Bus) {
            let square = self.orientation.square(update.square);
            self.send(&DgtMessage::FieldUpdate { square, piece: update.piece });
        }
    }

    fn tick_clock(&mut self, now: Instant) {
        if let Some(clock) = self.clock_feed.clock.as_mut() {
            clock.advance(now.saturating_duration_since(self.clock_feed.last_clock_tick));
        }
        self.clock_feed.last_clock_tick = now;
        // Without a clock the board still relays, with the "no clock" bit.
        let reading =
            self.clock_feed.clock.map_or(BwTime { no_clock: true, ..BwTime::default() }, |c| c.reading());
        let send = match self.mode {
            BoardMode::UpdatesWithClock => now >= self.clock_feed.next_clock_send,
            BoardMode::UpdatesNice => self.clock_feed.last_clock_sent != Some(reading),
            BoardMode::Bus | BoardMode::Idle | BoardMode::UpdatesBoardOnly => false,
        };
        if send {
            self.send(&DgtMessage::ClockTime(reading));
            self.clock_feed.last_clock_sent = Some(reading);
            self.clock_feed.next_clock_send = after(now, CLOCK_EVERY);
            self.publish();
        }
    }

    /// Once the board is no longer busy, it reads on from its input buffer.
    fn drain_input(&mut self, now: Instant) {
        while now >= self.host.busy_until {
            let Some(b) = self.host.input.pop_front() else { return };
            self.take_byte(b, now);
        }
    }

    /// One byte into the command reader; a completed command is carried out
    /// and keeps the board busy for a moment.
    fn take_byte(&mut self, b: u8, now: Instant) {
        let mut parsed = std::mem::take(&mut self.host.parsed);
        self.host.commands.push(&[b], &mut parsed);
        for command in parsed.drain(..) {
            self.host.busy_until = now + BUSY;
            self.answer(command);
        }
        self.host.parsed = parsed;
    }

    fn answer(&mut self, command: Option<HostCommand>) {
        let Some(command) = command else {
            debug!("emulated board ignores an unknown command");
            return;
        };
        trace!(?command, "emulated board received");
        if self.mode == BoardMode::Bus {
            // Bus mode: a single-board command only switches to single-board
            // mode; a clock message is not for a board in bus mode.
            if !matches!(command, HostCommand::Clock(_)) {
                debug!(?command, "emulated board leaves bus mode");
                self.mode = BoardMode::Idle;
                self.publish();
            }
            return;
        }
        match command {
            HostCommand::Reset => self.mode = BoardMode::Idle,
            HostCommand::SendBoard => {
                self.lock().board_requests += 1;
                let raw = self.orientation.board(&self.board);
                self.send(&DgtMessage::BoardDump(raw));
            }
            HostCommand::SendUpdates => self.set_mode(BoardMode::UpdatesWithClock),
            HostCommand::SendUpdatesNice => self.set_mode(BoardMode::UpdatesNice),
            HostCommand::SendUpdatesBoard => self.set_mode(BoardMode::UpdatesBoardOnly),
            HostCommand::SendSerialNumber => self.send(&DgtMessage::SerialNumber(self.opts.serial.clone())),
            HostCommand::SendTrademark => self.send(&DgtMessage::Trademark(self.opts.trademark.clone())),
            HostCommand::SendVersion => {
                let (major, minor) = self.opts.version;
                self.send(&DgtMessage::Version { major, minor });
            }
            HostCommand::Clock(clock_command) => self.clock_command(clock_command),
        }
        self.publish();
    }

    fn set_mode(&mut self, mode: BoardMode) {
        self.mode = mode;
        // The first reading goes out at once in either clock mode.
        self.clock_feed.next_clock_send = Instant::now();
        self.clock_feed.last_clock_sent = None;
    }

    fn clock_command(&mut self, command: ClockCommand) {
        self.lock().clock_commands.push(command.clone());
        let Some(clock) = self.clock_feed.clock.as_mut() else {
            return; // no clock attached: nobody acknowledges
        };
        let ack = match command {
            ClockCommand::SetAndRun { .. } if !clock.mode_23 => {
                Some(ClockAck { ack0: 0x10, ack1: ACK_NOT_IN_MODE_23, ack2: 0, ack3: 0 })
            }
            ClockCommand::SetAndRun { left, right, run, lever } => {
                clock.left_ms = u64::from(left.total_secs()) * 1000;
                clock.right_ms = u64::from(right.total_secs()) * 1000;
                clock.run = run;
                clock.lever = lever;
                Some(ClockAck::ok(command.id()))
            }
            ClockCommand::Version => {
                // Main version in the high nibble (1 XL, 2 DGT 3000), sub version 4.
                let ack2 = (clock.model.main() << 4) | 0x04;
                Some(ClockAck { ack0: 0x10, ack1: command.id(), ack2, ack3: 0 })
            }
            // An XL has no text display and does not know the command.
            ClockCommand::Display { .. } if !clock.model.shows_text() => None,
            ClockCommand::Display { .. } | ClockCommand::Beep { .. } | ClockCommand::EndDisplay => {
                Some(ClockAck::ok(command.id()))
            }
        };
        // The board relays the clock's answers only in the update modes with clock times.
        let relayed = matches!(self.mode, BoardMode::UpdatesWithClock | BoardMode::UpdatesNice);
        if let Some(ack) = ack.filter(|_| relayed) {
            self.lock().acks_sent.push(ack);
            self.send(&DgtMessage::ClockAck(ack));
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn publish(&self) {
        let mut shared = self.lock();
        shared.board = self.board.clone();
        shared.mode = self.mode;
        shared.clock = self.clock_feed.clock;
    }

    fn send(&mut self, message: &DgtMessage) {
        trace!(?message, "emulated board sends");
        let bytes = message.encode();
        self.write(&bytes);
    }

    fn write(&mut self, bytes: &[u8]) {
        self.line.write(bytes);
    }
}

#[cfg(test)]
mod tests;
