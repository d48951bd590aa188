//! The DGT board driver: a background thread that owns the serial port,
//! survives unplugging, turns a rotated board the right way round, and reports
//! everything as [`DgtEvent`]s.

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use shakmaty::Board;
use tracing::{debug, info, trace, warn};

use super::clock_link::{ClockLink, ClockReport, ClockStep};
use super::orientation::{Orientation, detect_orientation};
use super::protocol::{
    ClockCommand, DEFAULT_BAUD, DgtError, DgtMessage, DgtReader, DropCounters, HostCommand,
};
use crate::serial_link::{self, DriverThread, Link, PathWatch, Port, SessionEnd, is_idle, open_8n1};
pub use crate::serial_link::{BACKOFF_MAX, BACKOFF_MIN, READ_TIMEOUT};
use station_stamp::{QUEUE_CAPACITY, ReadMark, Stamped};

/// Silence after which the driver asks for a board dump. A board in update
/// mode is quiet while nobody moves; the dump doubles as a consistency check.
pub const SILENCE_POKE: Duration = Duration::from_secs(5);
/// Gap between two commands written to the board. A single board's input
/// buffer holds 10 bytes and the board answers each command before it reads
/// the next, so the greeting after a (re)connect and the clock commands that
/// follow are paced instead of written as one burst (DGT's clients wait 100 ms).
pub const WRITE_PACE: Duration = Duration::from_millis(100);

/// Which update mode the driver puts the board in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum UpdateMode {
    /// 0x43: field updates and clock times every second.
    #[default]
    WithClock,
    /// 0x4b: field updates and clock times when they change.
    Nice,
    /// 0x44: field updates only.
    BoardOnly,
}

impl UpdateMode {
    /// The command byte that selects this mode.
    pub fn command(self) -> HostCommand {
        match self {
            UpdateMode::WithClock => HostCommand::SendUpdates,
            UpdateMode::Nice => HostCommand::SendUpdatesNice,
            UpdateMode::BoardOnly => HostCommand::SendUpdatesBoard,
        }
    }
}

/// How the driver decides which way round the board stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum OrientationSetting {
    /// Start as [`Orientation::Normal`] and follow every start position the board shows.
    #[default]
    Auto,
    /// Always this orientation.
    Fixed(Orientation),
}

/// Where and how to open the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DgtSettings {
    /// Device path, e.g. `/dev/ttyUSB0` or a stable udev symlink.
    pub path: PathBuf,
    /// Line speed; 8N1 without flow control is always used.
    pub baud: u32,
    /// Update mode requested on every (re)connect.
    pub updates: UpdateMode,
    /// Orientation handling.
    pub orientation: OrientationSetting,
}

impl DgtSettings {
    /// Settings for `path` at 9600 baud, updates with clock, automatic orientation.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        DgtSettings {
            path: path.into(),
            baud: DEFAULT_BAUD,
            updates: UpdateMode::default(),
            orientation: OrientationSetting::default(),
        }
    }
}

/// What the driver reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DgtEvent {
    /// The port was opened; the board was asked for version, serial number, a dump and updates.
    Connected,
    /// The port was lost (or the driver shut down); reopening is under way unless shut down.
    Disconnected {
        /// Human-readable cause, for logs.
        reason: String,
    },
    /// A valid message. Board dumps and field updates are already turned to
    /// the real orientation (a1 = the real a1).
    Message(DgtMessage),
    /// The board was found to stand the other way round. A full
    /// [`DgtMessage::BoardDump`] in the new orientation follows at once.
    OrientationChanged(Orientation),
    /// The clock link's news: the clock's model, a command acknowledged, or one
    /// given up with the reason (see [`super::clock_link`]).
    Clock(ClockReport),
    /// Input was dropped; `total` counts all drops since the driver started.
    Dropped {
        /// Why.
        error: DgtError,
        /// Total drops so far, all reasons.
        total: u64,
    },
}

/// The driver thread is gone, so a command could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the DGT board driver has stopped")]
pub struct DgtDriverStopped;

type Control = serial_link::Control<HostCommand>;

#[derive(Debug, Default)]
struct Shared {
    counters: DropCounters,
    orientation: Orientation,
}

/// Queues commands for a DGT board's driver (see [`DgtDriver::commands`]).
#[derive(Debug, Clone)]
pub struct DgtCommands {
    control: Sender<Control>,
}

impl DgtCommands {
    /// Queues a command, as [`DgtDriver::send`] does.
    pub fn send(&self, command: HostCommand) -> Result<(), DgtDriverStopped> {
        self.control.send(Control::Command(command)).map_err(|_| DgtDriverStopped)
    }
}

/// Handle to the background thread that owns a DGT board's serial port.
///
/// Dropping the handle shuts the thread down (within about one read timeout).
#[derive(Debug)]
pub struct DgtDriver {
    /// Declared first, so dropped first: the thread is shut down while the
    /// event queue is still open.
    thread: DriverThread<HostCommand>,
    events: Receiver<Stamped<DgtEvent>>,
    shared: Arc<Mutex<Shared>>,
    mark: ReadMark,
}

impl DgtDriver {
    /// Starts the driver thread; it keeps trying to open `settings.path` until shut down.
    pub fn spawn(settings: DgtSettings) -> DgtDriver {
        let (event_tx, events) = crossbeam_channel::bounded(QUEUE_CAPACITY);
        let mark = ReadMark::default();
        let (control, control_rx) = crossbeam_channel::unbounded();
        let orientation = match settings.orientation {
            OrientationSetting::Auto => Orientation::Normal,
            OrientationSetting::Fixed(o) => o,
        };
        let shared = Arc::new(Mutex::new(Shared { counters: DropCounters::default(), orientation }));
        let worker = Worker {
            settings,
            control: control_rx,
            events: event_tx.clone(),
            read_at: None,
            mark: mark.clone(),
            shared: Arc::clone(&shared),
            reader: DgtReader::new(),
            results: Vec::new(),
            raw: None,
            orientation,
            clock: ClockLink::new(),
            outbox: VecDeque::new(),
            steps: Vec::new(),
        };
        let thread = DriverThread::spawn("dgt-serial", "DGT", worker, control, |reason| {
            let _ = event_tx.send(Stamped::now(DgtEvent::Disconnected { reason }));
        });
        DgtDriver { thread, events, shared, mark }
    }

    /// How far the driver has handed over what it read (the loop's time horizon).
    pub fn read_mark(&self) -> ReadMark {
        self.mark.clone()
    }

    /// The event stream, each event stamped with the read that brought it (a
    /// cheap clone of the receiver; all clones share one queue).
    pub fn events(&self) -> Receiver<Stamped<DgtEvent>> {
        self.events.clone()
    }

    /// Queues a command for the board. Board commands given while disconnected
    /// are discarded: every (re)connect asks for a full board anyway. Clock
    /// commands go through the clock link: one at a time, each waiting for its
    /// acknowledgement, resent and at last reported ([`DgtEvent::Clock`]).
    pub fn send(&self, command: HostCommand) -> Result<(), DgtDriverStopped> {
        self.thread.send(command).map_err(|()| DgtDriverStopped)
    }

    /// A handle that queues commands from elsewhere (the station setting the
    /// DGT clock when a game starts), valid as long as the driver runs.
    pub fn commands(&self) -> DgtCommands {
        DgtCommands { control: self.thread.control().clone() }
    }

    /// Drop counts by reason since the driver started.
    pub fn drop_counters(&self) -> DropCounters {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner).counters
    }

    /// The orientation currently applied.
    pub fn orientation(&self) -> Orientation {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner).orientation
    }

    /// Stops the thread and closes the port; idempotent, returns within about 100 ms.
    pub fn shutdown(&mut self) {
        self.thread.shutdown();
    }
}

struct Worker {
    settings: DgtSettings,
    control: Receiver<Control>,
    events: Sender<Stamped<DgtEvent>>,
    /// When the bytes being handled were read: the stamp of what they carry.
    read_at: Option<Instant>,
    /// How far what was read is handed over (the loop's time horizon).
    mark: ReadMark,
    shared: Arc<Mutex<Shared>>,
    reader: DgtReader,
    results: Vec<Result<DgtMessage, DgtError>>,
    /// The board as the sensors report it (before orientation), once a dump arrived.
    raw: Option<Board>,
    orientation: Orientation,
    /// Clock commands, one at a time (see [`super::clock_link`]).
    clock: ClockLink,
    /// Board commands waiting for their turn on the line ([`WRITE_PACE`]).
    outbox: VecDeque<HostCommand>,
    steps: Vec<ClockStep>,
}

impl Worker {
    /// The next command to write: board commands first, then the clock link's
    /// (whose reports are forwarded on the way).
    fn next_command(&mut self) -> Option<HostCommand> {
        if let Some(cmd) = self.outbox.pop_front() {
            return Some(cmd);
        }
        let mut steps = std::mem::take(&mut self.steps);
        self.clock.poll(Instant::now(), &mut steps);
        let send = self.clock_steps(&mut steps);
        self.steps = steps;
        send.map(HostCommand::Clock)
    }

    /// Forwards the clock link's reports; returns the command it wants sent, if any.
    fn clock_steps(&mut self, steps: &mut Vec<ClockStep>) -> Option<ClockCommand> {
        let mut send = None;
        for step in steps.drain(..) {
            match step {
                ClockStep::Send(cmd) => send = Some(cmd),
                ClockStep::Report(report) => {
                    match &report {
                        // A board without a clock never answers the version query: no warning.
                        ClockReport::Failed { command: ClockCommand::Version, .. } => {
                            info!("no DGT clock answered the version query");
                        }
                        ClockReport::Failed { command, failure, tries } => {
                            warn!(?command, tries, "DGT clock: {}", failure.describe());
                        }
                        other => debug!(?other, "DGT clock"),
                    }
                    self.emit(DgtEvent::Clock(report));
                }
            }
        }
        send
    }

    fn forward_results(&mut self) {
        let mut results = std::mem::take(&mut self.results);
        for result in results.drain(..) {
            match result {
                Ok(message) => {
                    trace!(?message, "from board");
                    self.on_message(message);
                }
                Err(error) => {
                    let total = {
                        let mut shared = self.shared.lock().unwrap_or_else(PoisonError::into_inner);
                        shared.counters.record(&error);
                        shared.counters.total()
                    };
                    debug!(%error, total, "dropped input from the DGT board");
                    self.emit(DgtEvent::Dropped { error, total });
                }
            }
        }
        self.results = results;
    }

    /// Keeps the raw board, follows the orientation and forwards the message the right way round.
    fn on_message(&mut self, message: DgtMessage) {
        match message {
            DgtMessage::BoardDump(raw) => {
                self.raw = Some(raw.clone());
                self.follow_orientation();
                self.emit(DgtEvent::Message(DgtMessage::BoardDump(self.orientation.board(&raw))));
            }
            DgtMessage::FieldUpdate { square, piece } => {
                if let Some(raw) = self.raw.as_mut() {
                    match piece {
                        Some(p) => raw.set_piece_at(square, p),
                        None => raw.discard_piece_at(square),
                    }
                }
                if self.follow_orientation() {
                    // The picture the consumer has is in the old orientation: replace it whole.
                    if let Some(raw) = &self.raw {
                        let board = self.orientation.board(raw);
                        self.emit(DgtEvent::Message(DgtMessage::BoardDump(board)));
                    }
                } else {
                    let square = self.orientation.square(square);
                    self.emit(DgtEvent::Message(DgtMessage::FieldUpdate { square, piece }));
                }
            }
            DgtMessage::ClockTime(time) if time.is_empty() => {
                // All seven bytes zero: no reading (DGT's clients skip these too).
                trace!("empty clock reading ignored");
            }
            DgtMessage::ClockAck(ack) => {
                let mut steps = std::mem::take(&mut self.steps);
                self.clock.on_ack(&ack, Instant::now(), &mut steps);
                // Reports only: the next command waits for the pacing in `pump`.
                let _ = self.clock_steps(&mut steps);
                self.steps = steps;
                self.emit(DgtEvent::Message(DgtMessage::ClockAck(ack)));
            }
            other => self.emit(DgtEvent::Message(other)),
        }
    }

    /// With automatic orientation, switches when the raw board shows a start
    /// position the other way round; `true` if it switched.
    fn follow_orientation(&mut self) -> bool {
        if self.settings.orientation != OrientationSetting::Auto {
            return false;
        }
        let Some(detected) = self.raw.as_ref().and_then(detect_orientation) else { return false };
        if detected == self.orientation {
            return false;
        }
        info!(?detected, "DGT board orientation changed");
        self.orientation = detected;
        self.shared.lock().unwrap_or_else(PoisonError::into_inner).orientation = detected;
        self.emit(DgtEvent::OrientationChanged(detected));
        true
    }

    /// Sends an event stamped with the read that brought it (or now, for
    /// what the driver says itself); a full queue waits, the stamp is taken.
    fn emit(&self, event: DgtEvent) {
        let from_read = matches!(event, DgtEvent::Message(_) | DgtEvent::Dropped { .. });
        let at = self.read_at.filter(|_| from_read).unwrap_or_else(Instant::now);
        let _ = self.events.send(Stamped::new(at, event));
    }
}

impl Link for Worker {
    const NAME: &'static str = "DGT board";
    type Command = HostCommand;

    fn path(&self) -> &std::path::Path {
        &self.settings.path
    }

    fn control(&self) -> &Receiver<Control> {
        &self.control
    }

    /// Opens 8N1 without flow control and greets the board.
    fn open(&mut self) -> io::Result<Port> {
        let port = open_8n1(&self.settings.path, self.settings.baud)?;
        // A board powers up in bus mode, where the first single-board command
        // only switches it to single-board mode: a reset goes first, whose loss
        // costs nothing. Then updates (so nothing moved after the dump is
        // missed, and the clock's answers are relayed), identity, and the full
        // board: it may have changed while we were away, so the dump is always
        // asked for, last. Written paced, not as one burst.
        self.outbox.clear();
        self.outbox.extend([
            HostCommand::Reset,
            self.settings.updates.command(),
            HostCommand::SendVersion,
            HostCommand::SendSerialNumber,
            HostCommand::SendBoard,
        ]);
        // Which clock is attached (a DGT 3000 shows text, a DGT XL does not).
        self.clock.reconnected();
        if self.settings.updates != UpdateMode::BoardOnly {
            self.clock.queue(ClockCommand::Version);
        }
        self.reader.reset();
        self.raw = None;
        Ok(port)
    }

    fn pump(&mut self, port: &mut Port) -> SessionEnd {
        let mut buf = [0u8; 512];
        let mut last_message = Instant::now();
        let mut last_poke = Instant::now();
        let mut path = PathWatch::new();
        let mut next_write = Instant::now();
        loop {
            loop {
                match self.control.try_recv() {
                    Ok(Control::Command(HostCommand::Clock(cmd))) => self.clock.queue(cmd),
                    Ok(Control::Command(cmd)) => self.outbox.push_back(cmd),
                    Ok(Control::Shutdown) | Err(TryRecvError::Disconnected) => return SessionEnd::Shutdown,
                    Err(TryRecvError::Empty) => break,
                }
            }
            if Instant::now() >= next_write {
                match self.next_command() {
                    Some(cmd) => {
                        trace!(?cmd, "to board");
                        if let Err(e) = port.write_all(&cmd.encode()) {
                            return SessionEnd::Lost(format!("write failed: {e}"));
                        }
                        next_write = Instant::now() + WRITE_PACE;
                    }
                    None => next_write = Instant::now(),
                }
            }
            match port.read(&mut buf) {
                Ok(0) => return SessionEnd::Lost("port closed (end of file)".into()),
                Ok(n) => {
                    self.read_at = Some(self.mark.reading());
                    self.reader.push(&buf[..n], &mut self.results);
                    if self.results.iter().any(Result::is_ok) {
                        last_message = Instant::now();
                    }
                    self.forward_results();
                    self.mark.delivered();
                }
                Err(e) if is_idle(&e) => {}
                Err(e) => return SessionEnd::Lost(format!("read failed: {e}")),
            }
            if last_message.elapsed() >= SILENCE_POKE && last_poke.elapsed() >= SILENCE_POKE {
                // The update mode goes with it: a board that lost power for a
                // moment is back in bus mode and idle, and only a clock in an
                // update mode (0x43, 0x4b) acknowledges commands.
                debug!("DGT board quiet for 5 s, asking for the board and updates");
                self.outbox.extend([HostCommand::SendBoard, self.settings.updates.command()]);
                last_poke = Instant::now();
            }
            if path.gone(&self.settings.path) {
                return SessionEnd::Lost("device path disappeared".into());
            }
        }
    }

    fn connected(&self) {
        self.emit(DgtEvent::Connected);
    }

    fn disconnected(&self, reason: String) {
        self.emit(DgtEvent::Disconnected { reason });
    }
}
