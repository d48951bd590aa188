//! What both simulated boards share: a real pseudo-terminal pair behind a
//! stable symlink (the device path the station opens, like a udev link), which
//! can be pulled (unplugged) and re-pointed (replugged).

use serialport::{SerialPort, TTYPort};
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tracing::{info, warn};

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
