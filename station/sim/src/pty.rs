//! What both simulated boards share: a real pseudo-terminal pair behind a
//! stable symlink (the device path the station opens, like a udev link), which
//! can be pulled (unplugged) and re-pointed (replugged).

use crossbeam_channel::{Receiver, Sender, TryRecvError};
use serialport::{SerialPort, TTYPort};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use tracing::{debug, info, warn};

/// Writes to the master give up quickly: nobody may be reading the slave.
const WRITE_TIMEOUT: Duration = Duration::from_millis(20);

/// `start + delay`, saturating at about a century instead of panicking on huge delays.
pub(crate) fn after(start: Instant, delay: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    start.checked_add(delay.min(CENTURY)).unwrap_or(start)
}

/// One plugged-in pty pair and the link pointing at it.
pub(crate) struct Pty {
    /// The board's end.
    pub(crate) master: TTYPort,
    // Held only so the master never sees a hang-up between station connections.
    _slave: TTYPort,
}

impl Pty {
    /// A new pty pair with `link` pointing at its slave; `what` names the board in logs.
    pub(crate) fn plug(link: &Path, what: &str) -> io::Result<Pty> {
        let (master, slave) = TTYPort::pair()?;
        let slave_path = slave.name().ok_or_else(|| io::Error::other("pty slave has no path"))?;
        point_link(link, Path::new(&slave_path))?;
        info!(link = %link.display(), slave = %slave_path, "{what} plugged in");
        Ok(Pty { master, _slave: slave })
    }
}

/// Replaces `link` atomically so the station never sees it missing during a re-point.
fn point_link(link: &Path, target: &Path) -> io::Result<()> {
    let mut tmp = link.as_os_str().to_owned();
    tmp.push(".sim-new");
    let tmp = PathBuf::from(tmp);
    remove_link(&tmp);
    std::os::unix::fs::symlink(target, &tmp)?;
    std::fs::rename(&tmp, link)
}

/// Removes a link; a missing one is fine.
pub(crate) fn remove_link(link: &Path) {
    match std::fs::remove_file(link) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => warn!(link = %link.display(), error = %e, "could not remove link"),
    }
}

/// When a schedule's entry at `at_ms` simulated milliseconds is due, played
/// `speed` times faster from `origin`.
pub(crate) fn due(origin: Instant, at_ms: u64, speed: f64) -> Instant {
    let secs = at_ms as f64 / 1000.0 / speed;
    after(origin, Duration::try_from_secs_f64(secs).unwrap_or(Duration::MAX))
}

/// A schedule speed-up as given, or real time for one that makes no sense.
pub(crate) fn sane_speed(speed: f64) -> f64 {
    if speed.is_finite() && speed > 0.0 { speed } else { 1.0 }
}

/// The controls every simulated board's handle gives its thread.
pub(crate) enum PlugControl {
    /// Pull the cable; answered once done.
    Unplug(Sender<()>),
    /// Plug back in on a fresh pty; answered with the outcome.
    Replug(Sender<io::Result<()>>),
    /// Answer once the schedule is played.
    WaitIdle(Sender<()>),
    /// End the thread.
    Stop,
}

/// The handle's side of a simulated board's thread: its control queue, its
/// link, the thread; stopped (and the link removed) when the handle goes.
#[derive(Debug)]
pub(crate) struct SimThread<C: From<PlugControl>> {
    control: Sender<C>,
    link: PathBuf,
    thread: Option<JoinHandle<()>>,
    /// "simulated peg board", "emulated DGT board": for logs and errors.
    what: &'static str,
}

impl<C: From<PlugControl>> SimThread<C> {
    /// Starts `body` on a thread called `name`; a thread that cannot start
    /// takes the link `link` away again.
    pub(crate) fn spawn(
        name: &str,
        what: &'static str,
        link: PathBuf,
        control: Sender<C>,
        body: impl FnOnce() + Send + 'static,
    ) -> io::Result<SimThread<C>> {
        match std::thread::Builder::new().name(name.into()).spawn(body) {
            Ok(thread) => Ok(SimThread { control, link, thread: Some(thread), what }),
            Err(e) => {
                remove_link(&link);
                Err(e)
            }
        }
    }

    /// The device path the station should open.
    pub(crate) fn link(&self) -> &Path {
        &self.link
    }

    /// Hands the thread a control. After stop the thread is gone; requests
    /// then quietly do nothing.
    pub(crate) fn send(&self, control: impl Into<C>) {
        let _ = self.control.send(control.into());
    }

    /// Pulls the cable: removes the link, closes both pty ends. Returns once done.
    pub(crate) fn unplug(&self) {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(PlugControl::Unplug(tx));
        let _ = rx.recv();
    }

    /// Plugs back in on a fresh pty, re-pointing the link. Returns once done.
    pub(crate) fn replug(&self) -> io::Result<()> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(PlugControl::Replug(tx));
        rx.recv().unwrap_or_else(|_| Err(io::Error::other(format!("{} stopped", self.what))))
    }

    /// Blocks until the schedule is played (or the board stopped).
    pub(crate) fn wait_idle(&self) {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.send(PlugControl::WaitIdle(tx));
        let _ = rx.recv();
    }

    /// Stops the board thread, closes the pty and removes the link; idempotent.
    pub(crate) fn stop(&mut self) {
        self.send(PlugControl::Stop);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            warn!("{} thread panicked", self.what);
        }
    }
}

/// Longest a board thread blocks before looking at its controls again.
pub(crate) const TICK: Duration = Duration::from_millis(5);

/// A simulated board's thread, as the loop both boards share ([`run_board`]) sees it.
pub(crate) trait SimBoard {
    /// The board's own controls (which carry the common [`PlugControl`]s).
    type Control;
    /// Carries out one control; `false` once the board is to stop.
    fn apply(&mut self, control: Self::Control) -> bool;
    /// Sends what is due at `now`; returns when something is due next, and
    /// whether the whole schedule is played.
    fn send_due(&mut self, now: Instant) -> (Instant, bool);
    /// Answers what the station wrote.
    fn heard(&mut self, bytes: &[u8]);
    /// The board's end of the line.
    fn line(&mut self) -> &mut SimLine;
}

/// A board thread's life: controls, what is due, then listening to the
/// station until the next due moment (at most a [`TICK`], so controls are
/// never kept waiting), until stopped; the link goes with the thread.
pub(crate) fn run_board<B: SimBoard>(mut board: B, controls: Receiver<B::Control>) {
    let mut buf = [0u8; 64];
    while apply_queued_controls(&mut board, &controls) {
        let (next, played) = board.send_due(Instant::now());
        if played {
            board.line().idle();
        }
        let timeout = next.saturating_duration_since(Instant::now()).min(TICK);
        let n = board.line().read(&mut buf, timeout);
        board.heard(&buf[..n]);
    }
    let line = board.line();
    line.close();
    debug!("{} stopped", line.what);
}

/// Applies the controls queued when it is called (never more: raw bytes
/// injected as fast as they come must not keep the due output waiting);
/// `false` on stop.
fn apply_queued_controls<B: SimBoard>(board: &mut B, controls: &Receiver<B::Control>) -> bool {
    for _ in 0..controls.len().max(1) {
        match controls.try_recv() {
            Ok(control) => {
                if !board.apply(control) {
                    return false;
                }
            }
            Err(TryRecvError::Empty) => return true,
            Err(TryRecvError::Disconnected) => return false,
        }
    }
    true
}

/// The handle methods both simulated boards share, written once: each handle
/// keeps its [`SimThread`] in a field `thread`, and `$control` is its control
/// enum, which has a `Raw(Vec<u8>)` variant. Expanded inside the handle's `impl`.
macro_rules! sim_handle_methods {
    ($control:ident) => {
        /// The device path the station should open.
        pub fn link(&self) -> &std::path::Path {
            self.thread.link()
        }

        /// Writes raw bytes to the line as they are (for garbage and fault tests).
        pub fn inject_raw(&self, bytes: impl Into<Vec<u8>>) {
            self.send($control::Raw(bytes.into()));
        }

        /// Pulls the cable: removes the link, closes both pty ends. Returns once done.
        pub fn unplug(&self) {
            self.thread.unplug();
        }

        /// Plugs back in on a fresh pty, re-pointing the link. Returns once done.
        pub fn replug(&self) -> std::io::Result<()> {
            self.thread.replug()
        }

        /// Blocks until every scheduled update has been sent (or the board stopped).
        pub fn wait_idle(&self) {
            self.thread.wait_idle();
        }

        /// Stops the board thread, closes the pty and removes the link; idempotent.
        pub fn stop(&mut self) {
            self.thread.stop();
        }

        fn send(&self, control: $control) {
            self.thread.send(control);
        }
    };
}
pub(crate) use sim_handle_methods;

impl<C: From<PlugControl>> Drop for SimThread<C> {
    fn drop(&mut self) {
        self.stop();
    }
}

/// What became of a [`PlugControl`] on the board's side.
pub(crate) enum Handled {
    /// Done; the board goes on.
    Done,
    /// Plugged back in on a fresh pty: the board starts its line afresh.
    Replugged,
    /// The board is to stop.
    Stop,
}

/// The board thread's end of the line: the pty behind the link while
/// plugged in, and who waits for the schedule to be played.
pub(crate) struct SimLine {
    link: PathBuf,
    what: &'static str,
    pty: Option<Pty>,
    idle_waiters: Vec<Sender<()>>,
}

impl SimLine {
    /// A line plugged in on `pty` behind `link`.
    pub(crate) fn new(link: PathBuf, what: &'static str, pty: Pty) -> SimLine {
        SimLine { link, what, pty: Some(pty), idle_waiters: Vec::new() }
    }

    /// Carries out a common control.
    pub(crate) fn handle(&mut self, control: PlugControl) -> Handled {
        match control {
            PlugControl::Unplug(done) => {
                if self.pty.is_some() {
                    // Link first, so a station reconnecting at once finds nothing.
                    remove_link(&self.link);
                    self.pty = None;
                    info!("{} unplugged", self.what);
                }
                let _ = done.send(());
                Handled::Done
            }
            PlugControl::Replug(done) => {
                let (result, handled) = match self.pty {
                    Some(_) => (Ok(()), Handled::Done),
                    None => match Pty::plug(&self.link, self.what) {
                        Ok(pty) => {
                            self.pty = Some(pty);
                            (Ok(()), Handled::Replugged)
                        }
                        Err(e) => (Err(e), Handled::Done),
                    },
                };
                let _ = done.send(result);
                handled
            }
            PlugControl::WaitIdle(waiter) => {
                self.idle_waiters.push(waiter);
                Handled::Done
            }
            PlugControl::Stop => Handled::Stop,
        }
    }

    /// Tells the waiters that the schedule is played.
    pub(crate) fn idle(&mut self) {
        self.idle_waiters.drain(..).for_each(|w| {
            let _ = w.send(());
        });
    }

    /// Pulls the cable for good at the end of the thread; waiters must not
    /// block forever on a board that is gone.
    pub(crate) fn close(&mut self) {
        self.pty = None;
        remove_link(&self.link);
        self.idle_waiters.clear();
    }

    /// Reads what the station wrote, waiting up to `timeout`; an unplugged
    /// board just waits.
    pub(crate) fn read(&mut self, buf: &mut [u8], timeout: Duration) -> usize {
        let Some(pty) = self.pty.as_mut() else {
            std::thread::sleep(timeout);
            return 0;
        };
        let _ = pty.master.set_timeout(timeout.max(Duration::from_millis(1)));
        match pty.master.read(buf) {
            Ok(n) => n,
            Err(e) if matches!(e.kind(), io::ErrorKind::TimedOut | io::ErrorKind::Interrupted) => 0,
            Err(e) => {
                // Should not happen while we hold the slave; avoid a busy loop if it does.
                debug!(error = %e, "reading the pty master failed");
                std::thread::sleep(timeout);
                0
            }
        }
    }

    /// Writes if plugged in; an unplugged board just talks to nobody.
    pub(crate) fn write(&mut self, bytes: &[u8]) {
        let Some(pty) = self.pty.as_mut() else {
            return;
        };
        let _ = pty.master.set_timeout(WRITE_TIMEOUT);
        if let Err(e) = pty.master.write_all(bytes) {
            // A station that is not reading lets the pty buffer fill up; drop, don't stall.
            debug!(error = %e, "{} could not write", self.what);
        }
    }
}
