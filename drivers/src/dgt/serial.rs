//! The DGT board driver: a background thread that owns the serial port,
//! survives unplugging, turns a rotated board the right way round, and reports
//! everything as [`DgtEvent`]s.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use shakmaty::Board;
use tracing::{debug, info, trace, warn};

use super::orientation::{Orientation, detect_orientation};
use super::protocol::{DEFAULT_BAUD, DgtError, DgtMessage, DgtReader, DropCounters, HostCommand};
use crate::serial_link::{self, Link, Port, SessionEnd, is_idle, open_8n1};
pub use crate::serial_link::{BACKOFF_MAX, BACKOFF_MIN, READ_TIMEOUT};

/// Silence after which the driver asks for a board dump. A board in update
/// mode is quiet while nobody moves; the dump doubles as a consistency check.
pub const SILENCE_POKE: Duration = Duration::from_secs(5);
/// How often the device path is checked for existence while connected.
const PATH_CHECK: Duration = Duration::from_millis(500);

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
    fn command(self) -> HostCommand {
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
    events: Receiver<DgtEvent>,
    control: Sender<Control>,
    shared: Arc<Mutex<Shared>>,
    thread: Option<JoinHandle<()>>,
}

impl DgtDriver {
    /// Starts the driver thread; it keeps trying to open `settings.path` until shut down.
    pub fn spawn(settings: DgtSettings) -> DgtDriver {
        let (event_tx, events) = crossbeam_channel::unbounded();
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
            shared: Arc::clone(&shared),
            reader: DgtReader::new(),
            results: Vec::new(),
            raw: None,
            orientation,
        };
        let thread =
            std::thread::Builder::new().name("dgt-serial".into()).spawn(move || serial_link::run(worker));
        let thread = match thread {
            Ok(handle) => Some(handle),
            Err(e) => {
                warn!(error = %e, "could not start the DGT driver thread");
                let _ = event_tx
                    .send(DgtEvent::Disconnected { reason: format!("could not start driver thread: {e}") });
                None
            }
        };
        DgtDriver { events, control, shared, thread }
    }

    /// The event stream (a cheap clone of the receiver; all clones share one queue).
    pub fn events(&self) -> Receiver<DgtEvent> {
        self.events.clone()
    }

    /// Queues a command for the board (e.g. a clock command). Commands given
    /// while disconnected are discarded: every (re)connect asks for a full board anyway.
    pub fn send(&self, command: HostCommand) -> Result<(), DgtDriverStopped> {
        self.control.send(Control::Command(command)).map_err(|_| DgtDriverStopped)
    }

    /// A handle that queues commands from elsewhere (the station setting the
    /// DGT clock when a game starts), valid as long as the driver runs.
    pub fn commands(&self) -> DgtCommands {
        DgtCommands { control: self.control.clone() }
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
        let _ = self.control.send(Control::Shutdown);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            warn!("DGT driver thread panicked");
        }
    }
}

impl Drop for DgtDriver {
    fn drop(&mut self) {
        self.shutdown();
    }
}

struct Worker {
    settings: DgtSettings,
    control: Receiver<Control>,
    events: Sender<DgtEvent>,
    shared: Arc<Mutex<Shared>>,
    reader: DgtReader,
    results: Vec<Result<DgtMessage, DgtError>>,
    /// The board as the sensors report it (before orientation), once a dump arrived.
    raw: Option<Board>,
    orientation: Orientation,
}

impl Worker {
    /// Opens 8N1 without flow control and greets the board.
    fn open(&mut self) -> io::Result<Port> {
        let mut port = open_8n1(&self.settings.path, self.settings.baud)?;
        // No reset (it would only cancel update mode): identity, then the full
        // board, then updates, the order DGT software has long used. The board
        // may have changed while we were away, so the dump is always asked for.
        let greeting: Vec<u8> = [
            HostCommand::SendVersion,
            HostCommand::SendSerialNumber,
            HostCommand::SendBoard,
            self.settings.updates.command(),
        ]
        .iter()
        .flat_map(HostCommand::encode)
        .collect();
        port.write_all(&greeting)?;
        self.reader.reset();
        self.raw = None;
        Ok(port)
    }

    fn session(&mut self, mut port: Port) -> SessionEnd {
        let end = self.pump(&mut port);
        serial_link::release(&mut port);
        end
    }

    fn pump(&mut self, port: &mut Port) -> SessionEnd {
        let mut buf = [0u8; 512];
        let mut last_message = Instant::now();
        let mut last_poke = Instant::now();
        let mut last_path_check = Instant::now();
        loop {
            loop {
                match self.control.try_recv() {
                    Ok(Control::Command(cmd)) => {
                        trace!(?cmd, "to board");
                        if let Err(e) = port.write_all(&cmd.encode()) {
                            return SessionEnd::Lost(format!("write failed: {e}"));
                        }
                    }
                    Ok(Control::Shutdown) | Err(TryRecvError::Disconnected) => return SessionEnd::Shutdown,
                    Err(TryRecvError::Empty) => break,
                }
            }
            match port.read(&mut buf) {
                Ok(0) => return SessionEnd::Lost("port closed (end of file)".into()),
                Ok(n) => {
                    self.reader.push(&buf[..n], &mut self.results);
                    if self.results.iter().any(Result::is_ok) {
                        last_message = Instant::now();
                    }
                    self.forward_results();
                }
                Err(e) if is_idle(&e) => {}
                Err(e) => return SessionEnd::Lost(format!("read failed: {e}")),
            }
            if last_message.elapsed() >= SILENCE_POKE && last_poke.elapsed() >= SILENCE_POKE {
                debug!("DGT board quiet for 5 s, asking for the board");
                if let Err(e) = port.write_all(&HostCommand::SendBoard.encode()) {
                    return SessionEnd::Lost(format!("write failed: {e}"));
                }
                last_poke = Instant::now();
            }
            if cfg!(unix) && last_path_check.elapsed() >= PATH_CHECK {
                // Some USB adapters go quiet instead of failing when unplugged.
                if !self.settings.path.exists() {
                    return SessionEnd::Lost("device path disappeared".into());
                }
                last_path_check = Instant::now();
            }
        }
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

    fn emit(&self, event: DgtEvent) {
        let _ = self.events.send(event);
    }
}

impl Link for Worker {
    const NAME: &'static str = "DGT board";

    fn path(&self) -> &std::path::Path {
        &self.settings.path
    }

    fn open(&mut self) -> io::Result<Port> {
        Worker::open(self)
    }

    fn session(&mut self, port: Port) -> SessionEnd {
        Worker::session(self, port)
    }

    fn wait(&self, delay: Duration) -> Result<(), ()> {
        serial_link::wait(&self.control, delay)
    }

    fn connected(&self) {
        self.emit(DgtEvent::Connected);
    }

    fn disconnected(&self, reason: String) {
        self.emit(DgtEvent::Disconnected { reason });
    }
}
