//! The simulated twin of brltty with a Braille display: a BrlAPI server on a
//! Unix socket (protocol 8: version, key authorization, display size, tty
//! mode, writes acknowledged, keys sent). It keeps every line written to it
//! and presses routing keys and commands on request; `send_raw` lets a test
//! put garbled bytes on the wire.

use station_serial::braille::protocol::{self, Decoder, KEY_CMD_ROUTE, KEY_TYPE_CMD, kind};
use std::io::{Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Default)]
struct Shared {
    lines: Vec<String>,
    client: Option<UnixStream>,
    connections: usize,
}

/// A simulated brltty with a display of `columns` cells.
pub struct SimBrailleServer {
    path: PathBuf,
    shared: Arc<(Mutex<Shared>, Condvar)>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SimBrailleServer {
    /// Listens on `path` (a stale socket file is replaced). With `key`, clients
    /// must send it (key authorization); without, none is asked.
    pub fn start(path: &Path, columns: u32, key: Option<Vec<u8>>) -> std::io::Result<SimBrailleServer> {
        let _ = std::fs::remove_file(path);
        let listener = UnixListener::bind(path)?;
        listener.set_nonblocking(true)?;
        let shared = Arc::new((Mutex::new(Shared::default()), Condvar::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, f) = (Arc::clone(&shared), Arc::clone(&stop));
        let thread = std::thread::Builder::new()
            .name("sim-brltty".into())
            .spawn(move || accept(&listener, columns, key.as_deref(), &s, &f))?;
        Ok(SimBrailleServer { path: path.to_owned(), shared, stop, thread: Some(thread) })
    }

    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every line written so far (trailing blanks cut).
    pub fn lines(&self) -> Vec<String> {
        self.shared.0.lock().map(|s| s.lines.clone()).unwrap_or_default()
    }

    /// How many clients have taken the display so far.
    pub fn connections(&self) -> usize {
        self.shared.0.lock().map(|s| s.connections).unwrap_or(0)
    }

    /// Waits up to `timeout` for a written line that `want` accepts.
    pub fn wait_for_line(&self, timeout: Duration, want: impl Fn(&str) -> bool) -> Option<String> {
        let deadline = Instant::now() + timeout;
        let (lock, cvar) = &*self.shared;
        let mut s = lock.lock().ok()?;
        loop {
            if let Some(l) = s.lines.iter().rev().find(|l| want(l)) {
                return Some(l.clone());
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            s = cvar.wait_timeout(s, left).ok()?.0;
        }
    }

    /// Waits up to `timeout` for a client to have taken the display `n` times.
    pub fn wait_for_connections(&self, n: usize, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let (lock, cvar) = &*self.shared;
        let Ok(mut s) = lock.lock() else { return false };
        while s.connections < n {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else { return false };
            match cvar.wait_timeout(s, left) {
                Ok(r) => s = r.0,
                Err(_) => return false,
            }
        }
        true
    }

    /// Presses the routing key over cell `cell` (0 = the leftmost).
    pub fn press_routing(&self, cell: u16) -> std::io::Result<()> {
        self.press_command(KEY_CMD_ROUTE as u32 | u32::from(cell))
    }

    /// Presses a key bound to brltty command `code` (block | argument).
    pub fn press_command(&self, code: u32) -> std::io::Result<()> {
        let payload = protocol::key_payload(KEY_TYPE_CMD | u64::from(code));
        self.send_raw(&protocol::encode(kind::KEY, &payload))
    }

    /// Puts `bytes` on the wire to the client as they are.
    pub fn send_raw(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut s = self.shared.0.lock().map_err(|_| std::io::Error::other("poisoned"))?;
        match s.client.as_mut() {
            Some(c) => c.write_all(bytes),
            None => Err(std::io::Error::new(std::io::ErrorKind::NotConnected, "no client has the display")),
        }
    }
}

impl Drop for SimBrailleServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut s) = self.shared.0.lock()
            && let Some(c) = s.client.take()
        {
            let _ = c.shutdown(std::net::Shutdown::Both);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        let _ = std::fs::remove_file(&self.path);
    }
}

fn accept(
    listener: &UnixListener,
    columns: u32,
    key: Option<&[u8]>,
    shared: &(Mutex<Shared>, Condvar),
    stop: &AtomicBool,
) {
    while !stop.load(Ordering::Relaxed) {
        match listener.accept() {
            Ok((stream, _)) => {
                // One client at a time, like a display owned by one application.
                let _ = serve(stream, columns, key, shared, stop);
                if let Ok(mut s) = shared.0.lock() {
                    s.client = None;
                }
            }
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
}

fn serve(
    mut stream: UnixStream,
    columns: u32,
    key: Option<&[u8]>,
    shared: &(Mutex<Shared>, Condvar),
    stop: &AtomicBool,
) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_millis(20)))?;
    stream.write_all(&protocol::encode(kind::VERSION, &protocol::PROTOCOL_VERSION.to_be_bytes()))?;
    let mut decoder = Decoder::default();
    let mut buf = [0u8; 4096];
    let mut authorized = key.is_none();
    let mut sent_auth = false;
    while !stop.load(Ordering::Relaxed) {
        let n = match stream.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => n,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                continue;
            }
            Err(e) => return Err(e),
        };
        decoder.push(&buf[..n]);
        while let Some(p) = decoder.next_packet().map_err(std::io::Error::other)? {
            let reply = match p.kind {
                kind::VERSION if !sent_auth => {
                    sent_auth = true;
                    let method = if key.is_some() { protocol::auth::KEY } else { protocol::auth::NONE };
                    protocol::encode(kind::AUTH, &method.to_be_bytes())
                }
                kind::AUTH => {
                    let given = p.payload.get(4..).unwrap_or_default();
                    if key.is_some_and(|k| k == given) {
                        authorized = true;
                        protocol::encode(kind::ACK, &[])
                    } else {
                        stream.write_all(&protocol::encode(kind::ERROR, &2u32.to_be_bytes()))?;
                        return Ok(());
                    }
                }
                _ if !authorized => return Ok(()),
                kind::DISPLAY_SIZE => {
                    let mut size = columns.to_be_bytes().to_vec();
                    size.extend_from_slice(&1u32.to_be_bytes());
                    protocol::encode(kind::DISPLAY_SIZE, &size)
                }
                kind::ENTER_TTY_MODE => {
                    let (lock, cvar) = shared;
                    if let Ok(mut s) = lock.lock() {
                        s.client = Some(stream.try_clone()?);
                        s.connections += 1;
                    }
                    cvar.notify_all();
                    protocol::encode(kind::ACK, &[])
                }
                kind::WRITE => {
                    let text = protocol::read_write_text(&p).map_err(std::io::Error::other)?;
                    let (lock, cvar) = shared;
                    if let Ok(mut s) = lock.lock() {
                        s.lines.push(text.trim_end().to_owned());
                    }
                    cvar.notify_all();
                    protocol::encode(kind::ACK, &[])
                }
                kind::LEAVE_TTY_MODE => return Ok(()),
                _ => protocol::encode(kind::ERROR, &1u32.to_be_bytes()),
            };
            // Replies go through the shared handle so they never interleave with a key press.
            let mut s = shared.0.lock().map_err(|_| std::io::Error::other("poisoned"))?;
            match s.client.as_mut() {
                Some(c) => c.write_all(&reply)?,
                None => {
                    drop(s);
                    stream.write_all(&reply)?;
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use station_serial::braille::{BrailleDisplay, BrailleEvent, BrlapiDriver, BrlapiSettings, Key};

    fn next(driver: &BrlapiDriver) -> BrailleEvent {
        driver.events().recv_timeout(Duration::from_secs(5)).expect("an event within 5 s").event
    }

    /// A 40-cell server that wants `server_key` and a driver whose key file holds `file_key`.
    fn keyed(dir: &Path, file_key: &[u8], server_key: &[u8]) -> (SimBrailleServer, BrlapiDriver) {
        let key_file = dir.join("brlapi.key");
        std::fs::write(&key_file, file_key).unwrap();
        let sim = SimBrailleServer::start(&dir.join("0"), 40, Some(server_key.to_vec())).unwrap();
        let driver =
            BrlapiDriver::spawn(BrlapiSettings { socket: sim.path().to_owned(), key_file: Some(key_file) });
        (sim, driver)
    }

    #[test]
    fn a_line_is_shown_and_keys_come_back_with_the_key_file() {
        let dir = tempfile::tempdir().unwrap();
        let (sim, driver) = keyed(dir.path(), b"secret-key", b"secret-key");
        assert_eq!(next(&driver), BrailleEvent::Connected { columns: 40 });
        driver.show("23. Sf3");
        assert_eq!(sim.wait_for_line(Duration::from_secs(5), |l| l == "23. Sf3").as_deref(), Some("23. Sf3"));
        sim.press_routing(5).unwrap();
        assert_eq!(next(&driver), BrailleEvent::Key(Key::Routing(5)));
        sim.press_command(0x0001).unwrap();
        assert_eq!(next(&driver), BrailleEvent::Key(Key::Command(1)));
    }

    #[test]
    fn a_wrong_key_is_refused_and_reported_once() {
        let dir = tempfile::tempdir().unwrap();
        let (sim, driver) = keyed(dir.path(), b"wrong", b"right");
        assert!(matches!(next(&driver), BrailleEvent::Unavailable { reason } if reason.contains("refused")));
        // Retried, and not told again.
        assert!(driver.events().recv_timeout(station_serial::braille::brlapi::RETRY * 2).is_err());
        assert_eq!(sim.connections(), 0);
    }

    #[test]
    fn a_missing_brltty_is_told_once_and_found_when_it_comes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("0");
        let driver = BrlapiDriver::spawn(BrlapiSettings { socket: path.clone(), key_file: None });
        assert!(matches!(next(&driver), BrailleEvent::Unavailable { .. }));
        driver.show("1. e4");
        let sim = SimBrailleServer::start(&path, 20, None).unwrap();
        assert_eq!(next(&driver), BrailleEvent::Connected { columns: 20 });
        // The newest line is shown on the display that came.
        assert!(sim.wait_for_line(Duration::from_secs(5), |l| l == "1. e4").is_some());
    }

    #[test]
    fn garbled_packets_are_dropped_and_counted_never_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let sim = SimBrailleServer::start(&dir.path().join("0"), 40, None).unwrap();
        let driver = BrlapiDriver::spawn(BrlapiSettings { socket: sim.path().to_owned(), key_file: None });
        assert_eq!(next(&driver), BrailleEvent::Connected { columns: 40 });
        // A key packet too short, then an unknown packet type: each dropped, the link goes on.
        sim.send_raw(&protocol::encode(kind::KEY, &[1, 2, 3])).unwrap();
        assert!(matches!(next(&driver), BrailleEvent::Dropped { total: 1, .. }));
        sim.send_raw(&protocol::encode(u32::from(b'#'), b"junk")).unwrap();
        assert!(matches!(next(&driver), BrailleEvent::Dropped { total: 2, .. }));
        sim.press_routing(3).unwrap();
        assert_eq!(next(&driver), BrailleEvent::Key(Key::Routing(3)));
        // A header announcing 4 GB: dropped, the connection is made again.
        sim.send_raw(&[0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, b'k']).unwrap();
        assert!(matches!(next(&driver), BrailleEvent::Dropped { total: 3, .. }));
        assert!(matches!(next(&driver), BrailleEvent::Lost { .. }));
        assert_eq!(next(&driver), BrailleEvent::Connected { columns: 40 });
        assert_eq!(driver.dropped(), 3);
    }
}
