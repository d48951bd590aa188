//! The peg-board driver: a background thread that owns the serial port,
//! survives unplugging, and reports everything as [`DriverEvent`]s.
//!
//! Dropped lines are counted one by one and reported once per read, so a flood at line rate
//! never holds real lines back.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use tracing::{debug, trace, warn};

use super::protocol::{BoardMessage, DEFAULT_BAUD, DropCounters, LineError, LineReader, StationCommand};
use crate::serial_link::{self, DriverThread, Link, PathWatch, Port, SessionEnd, is_idle, open_8n1};
pub use crate::serial_link::{BACKOFF_MAX, BACKOFF_MIN, READ_TIMEOUT};
use station_stamp::{QUEUE_CAPACITY, ReadMark, Stamped};

/// Silence after which the driver asks for a scan (the board promises one per second).
pub const SILENCE_POKE: Duration = Duration::from_secs(3);

/// Where and how to open the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerialSettings {
    /// Device path, e.g. `/dev/ttyACM0` or a stable udev symlink.
    pub path: PathBuf,
    /// Line speed; 8N1 without flow control is always used.
    pub baud: u32,
}

impl SerialSettings {
    /// Settings for `path` at the default 115200 baud.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        SerialSettings { path: path.into(), baud: DEFAULT_BAUD }
    }
}

/// What the driver reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DriverEvent {
    /// The port was opened and the board was asked for its identity and a scan.
    Connected,
    /// The port was lost (or the driver shut down); reopening is under way unless shut down.
    Disconnected {
        /// Human-readable cause, for logs.
        reason: String,
    },
    /// A valid line from the board.
    Message(BoardMessage),
    /// Lines were dropped: one event for the dropped lines of one read (a
    /// flood never floods the queue); `total` counts all drops since the driver started.
    Dropped {
        /// Why the last of them was dropped.
        error: LineError,
        /// Total drops so far, all reasons.
        total: u64,
    },
}

/// The driver thread is gone, so a command could not be queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the peg-board driver has stopped")]
pub struct DriverStopped;

type Control = serial_link::Control<StationCommand>;

/// Handle to the background thread that owns the peg board's serial port.
///
/// Dropping the handle shuts the thread down (within about one read timeout).
#[derive(Debug)]
pub struct PegBoardDriver {
    /// Declared first, so dropped first: the thread is shut down while the
    /// event queue is still open.
    thread: DriverThread<StationCommand>,
    events: Receiver<Stamped<DriverEvent>>,
    counters: Arc<Mutex<DropCounters>>,
    mark: ReadMark,
}

impl PegBoardDriver {
    /// Starts the driver thread; it keeps trying to open `settings.path` until shut down.
    pub fn spawn(settings: SerialSettings) -> PegBoardDriver {
        let (event_tx, events) = crossbeam_channel::bounded(QUEUE_CAPACITY);
        let (control, control_rx) = crossbeam_channel::unbounded();
        let counters = Arc::new(Mutex::new(DropCounters::default()));
        let mark = ReadMark::default();
        let worker = Worker {
            settings,
            control: control_rx,
            events: event_tx.clone(),
            counters: Arc::clone(&counters),
            mark: mark.clone(),
            reader: LineReader::new(),
            results: Vec::new(),
        };
        let thread = DriverThread::spawn("pegboard-serial", "peg-board", worker, control, |reason| {
            let _ = event_tx.send(Stamped::now(DriverEvent::Disconnected { reason }));
        });
        PegBoardDriver { thread, events, counters, mark }
    }

    /// The event stream, each event stamped with the moment its line was read
    /// (a cheap clone of the receiver; all clones share one queue).
    pub fn events(&self) -> Receiver<Stamped<DriverEvent>> {
        self.events.clone()
    }

    /// How far the driver has handed over what it read (the loop's time horizon).
    pub fn read_mark(&self) -> ReadMark {
        self.mark.clone()
    }

    /// Queues a command for the board. Commands given while disconnected are
    /// discarded: on every (re)connect the driver asks for identity and a scan anyway.
    pub fn send(&self, command: StationCommand) -> Result<(), DriverStopped> {
        self.thread.send(command).map_err(|()| DriverStopped)
    }

    /// Drop counts by reason since the driver started.
    pub fn drop_counters(&self) -> DropCounters {
        *self.counters.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Stops the thread and closes the port; idempotent, returns within about 100 ms.
    pub fn shutdown(&mut self) {
        self.thread.shutdown();
    }
}

struct Worker {
    settings: SerialSettings,
    control: Receiver<Control>,
    events: Sender<Stamped<DriverEvent>>,
    counters: Arc<Mutex<DropCounters>>,
    mark: ReadMark,
    reader: LineReader,
    results: Vec<Result<BoardMessage, LineError>>,
}

impl Worker {
    /// Hands the lines of one read on. Dropped lines are counted one by one
    /// but reported once per read (the last reason, the total so far), after
    /// the good lines beside them: a flood of garbage at line rate then costs
    /// the loop a few events a read, never a queue that holds real lines back.
    fn forward_results(&mut self, at: Instant) {
        let mut results = std::mem::take(&mut self.results);
        let mut dropped = None;
        for result in results.drain(..) {
            match result {
                Ok(message) => {
                    trace!(?message, "from board");
                    if let BoardMessage::Fault(text) = &message {
                        warn!(fault = %text, "peg board reports a fault");
                    }
                    self.emit_at(at, DriverEvent::Message(message));
                }
                Err(error) => {
                    let mut counters = self.counters.lock().unwrap_or_else(PoisonError::into_inner);
                    counters.record(&error);
                    let total = counters.total();
                    debug!(%error, total, "dropped a line from the peg board");
                    dropped = Some(DriverEvent::Dropped { error, total });
                }
            }
        }
        if let Some(event) = dropped {
            self.emit_at(at, event);
        }
        // Hand the allocation back so steady state does not allocate.
        self.results = results;
    }

    fn emit_at(&self, at: Instant, event: DriverEvent) {
        // Nobody listening is not an error for a driver. A full queue waits:
        // the stamp is already taken, so waiting changes no decision.
        let _ = self.events.send(Stamped::new(at, event));
    }

    fn emit(&self, event: DriverEvent) {
        self.emit_at(Instant::now(), event);
    }
}

impl Link for Worker {
    const NAME: &'static str = "peg board";
    type Command = StationCommand;

    fn path(&self) -> &std::path::Path {
        &self.settings.path
    }

    fn control(&self) -> &Receiver<Control> {
        &self.control
    }

    /// Opens 8N1 without flow control and greets the board; a port that
    /// cannot even take the greeting counts as not opened.
    fn open(&mut self) -> io::Result<Port> {
        let mut port = open_8n1(&self.settings.path, self.settings.baud)?;
        let greeting =
            [StationCommand::RequestIdentity.to_line(), StationCommand::RequestScan.to_line()].concat();
        port.write_all(greeting.as_bytes())?;
        self.reader.reset();
        Ok(port)
    }

    fn pump(&mut self, port: &mut Port) -> SessionEnd {
        let mut buf = [0u8; 512];
        let mut last_line = Instant::now();
        let mut last_poke = Instant::now();
        let mut path = PathWatch::new();
        loop {
            loop {
                match self.control.try_recv() {
                    Ok(Control::Command(cmd)) => {
                        trace!(?cmd, "to board");
                        if let Err(e) = port.write_all(cmd.to_line().as_bytes()) {
                            return SessionEnd::Lost(format!("write failed: {e}"));
                        }
                    }
                    Ok(Control::Shutdown) | Err(TryRecvError::Disconnected) => {
                        return SessionEnd::Shutdown;
                    }
                    Err(TryRecvError::Empty) => break,
                }
            }
            match port.read(&mut buf) {
                Ok(0) => return SessionEnd::Lost("port closed (end of file)".into()),
                Ok(n) => {
                    // The arrival time of every line completed by these bytes.
                    let at = self.mark.reading();
                    self.reader.push(&buf[..n], &mut self.results);
                    if !self.results.is_empty() {
                        last_line = at;
                    }
                    self.forward_results(at);
                    self.mark.delivered();
                }
                Err(e) if is_idle(&e) => {}
                Err(e) => return SessionEnd::Lost(format!("read failed: {e}")),
            }
            if last_line.elapsed() >= SILENCE_POKE && last_poke.elapsed() >= SILENCE_POKE {
                warn!("no line from the peg board for 3 s, asking for a scan");
                if let Err(e) = port.write_all(StationCommand::RequestScan.to_line().as_bytes()) {
                    return SessionEnd::Lost(format!("write failed: {e}"));
                }
                last_poke = Instant::now();
            }
            if path.gone(&self.settings.path) {
                return SessionEnd::Lost("device path disappeared".into());
            }
        }
    }

    fn connected(&self) {
        self.emit(DriverEvent::Connected);
    }

    fn disconnected(&self, reason: String) {
        self.emit(DriverEvent::Disconnected { reason });
    }
}
