//! What every serial-board driver does alike: open the port 8N1 without flow
//! control, and when it is lost, say so and keep reopening it with back-off.
//! The protocols (what to send on connect, how to read) stay in each driver.
//!
//! Both serial drivers share the driver thread's handle and its shutdown, the control channel,
//! the vanished-device check, the session loop and the port's release; ports are opened
//! exclusively, and a busy port's holders are named by `port_holder`.

use std::fmt::Debug;
use std::io;
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use serialport::{ClearBuffer, DataBits, FlowControl, Parity, SerialPort, StopBits};
use tracing::{debug, info, trace, warn};

/// How long one blocking read may wait; bounds the latency of commands and shutdown.
pub const READ_TIMEOUT: Duration = Duration::from_millis(50);
/// First delay before reopening a lost port; doubles on each failed attempt.
pub const BACKOFF_MIN: Duration = Duration::from_millis(100);
/// Longest delay between reopening attempts.
pub const BACKOFF_MAX: Duration = Duration::from_secs(2);

/// How often the device path is checked for existence while connected.
const PATH_CHECK: Duration = Duration::from_millis(500);

/// The native serial port type.
#[cfg(unix)]
pub type Port = serialport::TTYPort;
/// The native serial port type.
#[cfg(windows)]
pub type Port = serialport::COMPort;

/// Why a connected session ended.
pub(crate) enum SessionEnd {
    /// The driver was asked to stop.
    Shutdown,
    /// The port failed or vanished.
    Lost(String),
}

/// Opens `path` 8N1 without flow control, dropping bytes queued before we
/// opened (they are stale; the caller's greeting asks for fresh ones).
///
/// The port is opened exclusively (TIOCEXCL and an advisory `flock`, issue
/// 22 §5): a port another process holds fails with
/// [`io::ErrorKind::ResourceBusy`] naming that process.
pub fn open_8n1(path: &Path, baud: u32) -> io::Result<Port> {
    let port = serialport::new(path.to_string_lossy(), baud)
        .data_bits(DataBits::Eight)
        .parity(Parity::None)
        .stop_bits(StopBits::One)
        .flow_control(FlowControl::None)
        .timeout(READ_TIMEOUT)
        .open_native()
        .map_err(|e| {
            #[cfg(unix)]
            if path.exists() && crate::port_holder::is_busy(&e) {
                return crate::port_holder::busy_error(path, &e);
            }
            io::Error::from(e)
        })?;
    if let Err(e) = port.clear(ClearBuffer::Input) {
        debug!(error = %e, "could not clear input buffer");
    }
    Ok(port)
}

/// What a driver's handle asks of its worker thread.
#[derive(Debug)]
pub(crate) enum Control<C> {
    /// Something to send to the board.
    Command(C),
    /// Stop the thread.
    Shutdown,
}

/// Sleeps for `delay` while still honouring shutdown; `Err` means shut down.
/// Commands given while no board is connected are discarded: a command meant
/// for a board that is gone would be stale by the time one comes back.
pub(crate) fn wait<C: Debug>(control: &Receiver<Control<C>>, delay: Duration) -> Result<(), ()> {
    let deadline = Instant::now() + delay;
    loop {
        match control.recv_deadline(deadline) {
            Ok(Control::Command(cmd)) => debug!(?cmd, "not connected, command discarded"),
            Ok(Control::Shutdown) | Err(RecvTimeoutError::Disconnected) => return Err(()),
            Err(RecvTimeoutError::Timeout) => return Ok(()),
        }
    }
}

/// Drops exclusivity before closing: on a pseudo-terminal whose other side
/// stays open, a leftover TIOCEXCL would lock out the next (non-root) opener.
pub(crate) fn release(port: &mut Port) {
    #[cfg(unix)]
    if let Err(e) = port.set_exclusive(false) {
        trace!(error = %e, "could not drop exclusivity (port probably gone)");
    }
    #[cfg(not(unix))]
    let _ = port;
}

/// A read that only timed out or was interrupted.
pub(crate) fn is_idle(e: &io::Error) -> bool {
    matches!(e.kind(), io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted)
}

/// Notices a device path that disappeared while connected: some USB
/// adapters go quiet instead of failing when unplugged.
pub(crate) struct PathWatch {
    last_check: Instant,
}

impl PathWatch {
    /// A watch whose first look is [`PATH_CHECK`] from now.
    pub(crate) fn new() -> PathWatch {
        PathWatch { last_check: Instant::now() }
    }

    /// Whether `path` is gone, looked at no more often than every [`PATH_CHECK`].
    pub(crate) fn gone(&mut self, path: &Path) -> bool {
        if cfg!(unix) && self.last_check.elapsed() >= PATH_CHECK {
            if !path.exists() {
                return true;
            }
            self.last_check = Instant::now();
        }
        false
    }
}

/// One driver's side of the reconnect loop.
pub(crate) trait Link {
    /// "peg board", "DGT board": for logs.
    const NAME: &'static str;
    /// What the driver's handle sends to the board.
    type Command: Debug;
    /// The device path.
    fn path(&self) -> &Path;
    /// The queue the driver's handle sends its commands and shutdown on.
    fn control(&self) -> &Receiver<Control<Self::Command>>;
    /// Opens the port and greets the board; a port that cannot take the greeting counts as not opened.
    fn open(&mut self) -> io::Result<Port>;
    /// Reads and writes until the port fails or a shutdown is requested.
    fn pump(&mut self, port: &mut Port) -> SessionEnd;
    /// Reports a connection.
    fn connected(&self);
    /// Reports a lost connection.
    fn disconnected(&self, reason: String);

    /// Runs until the port fails or a shutdown is requested, then lets the port go.
    fn session(&mut self, mut port: Port) -> SessionEnd {
        let end = self.pump(&mut port);
        release(&mut port);
        end
    }

    /// Sleeps for `delay` while still honouring shutdown; `Err` means shut down.
    fn wait(&self, delay: Duration) -> Result<(), ()> {
        wait(self.control(), delay)
    }
}

/// A driver handle's side of its worker thread: the control queue and the
/// thread, shut down when the handle goes.
#[derive(Debug)]
pub(crate) struct DriverThread<C> {
    control: Sender<Control<C>>,
    thread: Option<JoinHandle<()>>,
    /// "peg-board", "DGT": for logs.
    what: &'static str,
}

impl<C> DriverThread<C> {
    /// Starts `link`'s reconnect loop on a thread called `name`, commanded
    /// through `control`. A thread the system cannot start is logged and
    /// handed to `failed` as the reason of a disconnection.
    pub(crate) fn spawn<L>(
        name: &str,
        what: &'static str,
        link: L,
        control: Sender<Control<C>>,
        failed: impl FnOnce(String),
    ) -> DriverThread<C>
    where
        L: Link<Command = C> + Send + 'static,
    {
        let thread = match std::thread::Builder::new().name(name.into()).spawn(move || run(link)) {
            Ok(handle) => Some(handle),
            Err(e) => {
                warn!(error = %e, "could not start the {what} driver thread");
                failed(format!("could not start driver thread: {e}"));
                None
            }
        };
        DriverThread { control, thread, what }
    }

    /// Queues a command; `Err` when the thread is gone.
    pub(crate) fn send(&self, command: C) -> Result<(), ()> {
        self.control.send(Control::Command(command)).map_err(|_| ())
    }

    /// The control queue, for handles that queue commands from elsewhere.
    pub(crate) fn control(&self) -> &Sender<Control<C>> {
        &self.control
    }

    /// Stops the thread and closes the port; idempotent, returns within about 100 ms.
    pub(crate) fn shutdown(&mut self) {
        let _ = self.control.send(Control::Shutdown);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            warn!("{} driver thread panicked", self.what);
        }
    }
}

impl<C> Drop for DriverThread<C> {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// Opens, serves, and reopens with exponential back-off until shut down.
pub(crate) fn run<L: Link>(mut link: L) {
    let mut delay = BACKOFF_MIN;
    let mut failures: u32 = 0;
    let mut ever_connected = false;
    loop {
        match link.open() {
            Ok(port) => {
                delay = BACKOFF_MIN;
                failures = 0;
                ever_connected = true;
                info!(path = %link.path().display(), "{} connected", L::NAME);
                link.connected();
                let (reason, shut_down) = match link.session(port) {
                    SessionEnd::Shutdown => ("driver shut down".to_owned(), true),
                    SessionEnd::Lost(reason) => (reason, false),
                };
                info!(%reason, "{} disconnected", L::NAME);
                link.disconnected(reason);
                if shut_down {
                    return;
                }
            }
            Err(e) => {
                // The first failure is news; the retries every 2 s are not.
                if failures == 0 && !ever_connected {
                    // A missing or wrong port at start: said at the default log
                    // level and reported, so the console and the player hear it.
                    warn!(path = %link.path().display(), error = %e, "cannot open {}, retrying", L::NAME);
                    link.disconnected(format!("cannot open {}: {e}", link.path().display()));
                } else if failures == 0 {
                    info!(path = %link.path().display(), error = %e, "cannot open {}, retrying", L::NAME);
                } else {
                    debug!(error = %e, ?delay, "{} still not there", L::NAME);
                }
                failures = failures.saturating_add(1);
            }
        }
        if link.wait(delay).is_err() {
            return;
        }
        if failures > 0 {
            delay = (delay * 2).min(BACKOFF_MAX);
        }
    }
}
