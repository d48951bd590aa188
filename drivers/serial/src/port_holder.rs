//! Who holds a serial port (issue 22 §5): ports are opened exclusively
//! (TIOCEXCL and an advisory `flock`, as `serialport` does), and when an open
//! fails because the port is busy the holder is found through `/proc/*/fd`,
//! so the arbiter reads "in use by process 4711 (minicom)" instead of a bare
//! "device busy".

use std::os::unix::fs::MetadataExt;
use std::path::Path;

/// A process that has the port open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortHolder {
    /// Its pid.
    pub pid: u32,
    /// Its command name (`/proc/PID/comm`), when readable.
    pub name: Option<String>,
}

impl std::fmt::Display for PortHolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(name) => write!(f, "process {} ({name})", self.pid),
            None => write!(f, "process {}", self.pid),
        }
    }
}

/// Every other process with `path` (after symlinks) open, found by comparing
/// the device numbers of each `/proc/PID/fd` entry. Processes whose fds cannot
/// be read (another user's, without privileges) are not seen.
pub fn port_holders(path: &Path) -> Vec<PortHolder> {
    let Ok(target) = std::fs::metadata(path) else { return Vec::new() };
    let same = |m: &std::fs::Metadata| {
        if target.rdev() != 0 {
            m.rdev() == target.rdev()
        } else {
            m.dev() == target.dev() && m.ino() == target.ino()
        }
    };
    let me = std::process::id();
    let Ok(procs) = std::fs::read_dir("/proc") else { return Vec::new() };
    let mut holders = Vec::new();
    for entry in procs.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        if pid == me {
            continue;
        }
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else { continue };
        let holds = fds.flatten().any(|fd| std::fs::metadata(fd.path()).is_ok_and(|m| same(&m)));
        if holds {
            let name = std::fs::read_to_string(entry.path().join("comm")).ok().map(|s| s.trim().to_owned());
            holders.push(PortHolder { pid, name });
        }
    }
    holders
}

/// Whether an open error means the port is taken (TIOCEXCL's EBUSY or the
/// other opener's `flock`): `serialport` reports both as "no device", which
/// a vanished device is too, so the description decides.
pub fn is_busy(e: &serialport::Error) -> bool {
    e.kind() == serialport::ErrorKind::NoDevice
        && (e.description.contains("busy") || e.description.contains("lock on serial port"))
}

/// The error for a port that is busy, naming its holders when they are found.
pub fn busy_error(path: &Path, e: &serialport::Error) -> std::io::Error {
    let holders = port_holders(path);
    let by = if holders.is_empty() {
        "another process".to_owned()
    } else {
        holders.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
    };
    std::io::Error::new(
        std::io::ErrorKind::ResourceBusy,
        format!("{} is in use by {by} ({}): close it there first", path.display(), e.description),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serialport::SerialPort;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    #[test]
    fn a_pty_held_by_another_process_is_named_busy_with_its_pid() {
        let (_master, slave) = serialport::TTYPort::pair().unwrap();
        let slave_path = slave.name().unwrap();
        // util-linux's flock: another process holding the port with an exclusive lock.
        let mut holder = Command::new("flock")
            .args(["--no-fork", "-x", &slave_path, "sleep", "30"])
            .stdin(Stdio::null())
            .spawn()
            .expect("flock(1) from util-linux");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !port_holders(Path::new(&slave_path)).iter().any(|h| h.pid == holder.id()) {
            assert!(Instant::now() < deadline, "the holder never showed in /proc");
            std::thread::sleep(Duration::from_millis(20));
        }
        // The lock is taken just before flock(1) becomes `sleep` (--no-fork).
        let deadline = Instant::now() + Duration::from_secs(10);
        let err = loop {
            match crate::serial_link::open_8n1(Path::new(&slave_path), 115_200) {
                Err(e) => break e,
                Ok(_) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
                Ok(_) => panic!("the port opened while another process held it"),
            }
        };
        let _ = holder.kill();
        let _ = holder.wait();
        let text = err.to_string();
        assert_eq!(err.kind(), std::io::ErrorKind::ResourceBusy, "{text}");
        assert!(text.contains(&format!("in use by process {}", holder.id())), "{text}");
        assert!(text.contains(&slave_path), "{text}");
        // Free again: it opens.
        crate::serial_link::open_8n1(Path::new(&slave_path), 115_200).expect("free port opens");
    }

    #[test]
    fn a_missing_port_has_no_holders() {
        assert!(port_holders(Path::new("/dev/nonexistent-annexd-port")).is_empty());
    }
}
