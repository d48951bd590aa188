//! A real brltty (Debian's 6.5) with its hardware-free virtual driver
//! (`-b vr`), started on private sockets, and the virtual display it drives:
//! this side sends `cells N` and keys (`Route N`, `LnDn` …) and reads the
//! `Visual "…"` text lines brltty shows. brltty's BrlAPI socket is
//! `/var/lib/BrlAPI/<host>` with a host number of the caller's choosing and
//! key authorization with a key file of its own, so a system brltty (host 0)
//! is never disturbed. For tests; every wait is bounded.

use crossbeam_channel::Receiver;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// brltty and its virtual display; brltty is killed (by its own pid) on drop.
pub struct BrlttyVirtual {
    child: Child,
    api_socket: PathBuf,
    key_file: PathBuf,
    display: UnixStream,
    visual: Receiver<String>,
    shown: Vec<String>,
}

impl BrlttyVirtual {
    /// Starts brltty in `dir` (its virtual-driver socket, key file, pid file
    /// and log `brltty.log` go there) on BrlAPI host `:host`, and connects a
    /// virtual display of `columns` cells to it.
    pub fn start(dir: &Path, host: u32, columns: u32) -> std::io::Result<BrlttyVirtual> {
        let vr = dir.join("vr.sock");
        let key_file = dir.join("brlapi.key");
        std::fs::write(&key_file, format!("annexd-{host}-{}", std::process::id()))?;
        let api_socket = PathBuf::from(format!("/var/lib/BrlAPI/{host}"));
        let child = Command::new("brltty")
            .args(["-n", "-e", "-l", "info", "-b", "vr", "-x", "no", "-s", "no", "-f", "/dev/null"])
            .arg("-d")
            .arg(format!("server:{}", vr.display()))
            .arg("-P")
            .arg(dir.join("brltty.pid"))
            .arg("-W")
            .arg(dir)
            .arg("-A")
            .arg(format!("auth=keyfile:{},host=:{host}", key_file.display()))
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("brltty.log"))?)
            .spawn()
            .map_err(|e| {
                std::io::Error::new(e.kind(), format!("cannot start brltty ({e}): scripts/setup installs it"))
            })?;
        let mut guard = Starting(Some(child));
        let deadline = Instant::now() + Duration::from_secs(10);
        let display = loop {
            match UnixStream::connect(&vr) {
                Ok(s) => break s,
                Err(e) if Instant::now() > deadline => {
                    return Err(std::io::Error::new(e.kind(), format!("brltty's virtual driver: {e}")));
                }
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        };
        (&display).write_all(format!("cells {columns}\n").as_bytes())?;
        let visual = read_visual(display.try_clone()?);
        let child = guard.0.take().ok_or_else(|| std::io::Error::other("brltty lost"))?;
        Ok(BrlttyVirtual { child, api_socket, key_file, display, visual, shown: Vec::new() })
    }

    /// brltty's BrlAPI socket.
    pub fn api_socket(&self) -> &Path {
        &self.api_socket
    }

    /// The key file brltty authorizes clients with.
    pub fn key_file(&self) -> &Path {
        &self.key_file
    }

    /// Sends a virtual-display command line, e.g. `Route 3` or `LnDn`. brltty
    /// 6.5's virtual driver passes `Route N` on as routing key N (BrlAPI's
    /// 0 = leftmost) but ignores `Route 0`, so the leftmost key cannot be pressed.
    pub fn key(&self, command: &str) -> std::io::Result<()> {
        (&self.display).write_all(format!("{command}\n").as_bytes())
    }

    /// Every text line shown so far (trailing blanks cut), after taking what came.
    pub fn lines(&mut self) -> Vec<String> {
        self.shown.extend(self.visual.try_iter());
        self.shown.clone()
    }

    /// Waits up to `timeout` for a shown line that `want` accepts (earlier ones count).
    pub fn wait_for_line(&mut self, timeout: Duration, want: impl Fn(&str) -> bool) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            self.shown.extend(self.visual.try_iter());
            if let Some(l) = self.shown.iter().rev().find(|l| want(l)) {
                return Some(l.clone());
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            if let Ok(l) = self.visual.recv_timeout(left.min(Duration::from_millis(100))) {
                self.shown.push(l);
            }
        }
    }
}

impl Drop for BrlttyVirtual {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Killed, brltty leaves its socket and its lock file (`.N`) behind.
        let _ = std::fs::remove_file(&self.api_socket);
        if let (Some(dir), Some(name)) = (self.api_socket.parent(), self.api_socket.file_name()) {
            let _ = std::fs::remove_file(dir.join(format!(".{}", name.to_string_lossy())));
        }
    }
}

/// Kills a brltty that started but whose display could not connect.
struct Starting(Option<Child>);

impl Drop for Starting {
    fn drop(&mut self) {
        if let Some(mut c) = self.0.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The virtual display's text lines (`Visual "…"`), read on a thread.
fn read_visual(stream: UnixStream) -> Receiver<String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    let _ = std::thread::Builder::new().name("brltty-vr".into()).spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            if let Some(text) = line.strip_prefix("Visual \"").and_then(|l| l.strip_suffix('"'))
                && tx.send(text.trim_end().to_owned()).is_err()
            {
                return;
            }
        }
    });
    rx
}
