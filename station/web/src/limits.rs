//! How much the web server may hold open, and for how long: derived from the
//! process's open-file limit so the server can never take the descriptors a
//! replugged board needs.

use std::time::Duration;

/// File descriptors kept free for everything else the station opens (boards,
/// journal, audio, the microphone), whatever the process's limit.
const FD_RESERVE: u64 = 32;

/// How much the web server may hold open, and for how long.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// HTTP connections open at once (WebSockets not counted: they have their own caps).
    pub http_connections: usize,
    /// `/ws` streams without the operator token (mirrors, viewers).
    pub viewer_streams: usize,
    /// `/ws` streams with the operator token (consoles): a budget of their own,
    /// so viewers cannot take the operator's place.
    pub operator_streams: usize,
    /// A request's headers must have arrived this long after the connection
    /// opened or the last answer; otherwise the connection is closed.
    pub header_timeout: Duration,
    /// A request body must have arrived within this.
    pub body_timeout: Duration,
    /// How often a `/ws` client is pinged.
    pub ws_ping: Duration,
    /// A `/ws` client that sends nothing (not even a pong) this long is closed.
    pub ws_idle: Duration,
    /// A `/ws` client that does not take a message within this is closed.
    pub ws_send_timeout: Duration,
}

impl Limits {
    /// The limits for a process that may open `open_files` descriptors: a
    /// quarter of them for HTTP connections, an eighth for viewers' streams and
    /// a sixteenth for consoles' (each within a fixed ceiling), so the web
    /// server can never take the descriptors a replugged board needs.
    pub fn for_open_files(open_files: Option<u64>) -> Limits {
        let budget = open_files.unwrap_or(1024).saturating_sub(FD_RESERVE).max(32);
        let share =
            |divisor: u64, floor: u64, ceiling: u64| (budget / divisor).clamp(floor, ceiling) as usize;
        Limits {
            http_connections: share(4, 8, 256),
            viewer_streams: share(8, 2, 64),
            operator_streams: share(16, 2, 8),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            ws_ping: Duration::from_secs(20),
            ws_idle: Duration::from_secs(60),
            ws_send_timeout: Duration::from_secs(10),
        }
    }

    /// The limits for this process's `RLIMIT_NOFILE` (read from `/proc/self/limits`).
    pub fn for_this_process() -> Limits {
        Limits::for_open_files(open_files_limit())
    }
}

/// The soft limit of open files, from `/proc/self/limits` (no unsafe `getrlimit`).
fn open_files_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..].split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_follow_the_open_files_limit() {
        let tight = Limits::for_open_files(Some(64));
        let total = tight.http_connections + tight.viewer_streams + tight.operator_streams;
        assert!(total as u64 + FD_RESERVE <= 64, "{tight:?}");
        assert!(tight.operator_streams >= 2 && tight.viewer_streams >= 2, "{tight:?}");
        let roomy = Limits::for_open_files(Some(65_536));
        assert_eq!((roomy.http_connections, roomy.viewer_streams, roomy.operator_streams), (256, 64, 8));
        assert!(open_files_limit().is_some_and(|n| n > 0), "/proc/self/limits names the open-files limit");
    }
}
