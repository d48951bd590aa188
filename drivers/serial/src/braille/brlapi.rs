//! The BrlAPI client: connects to brltty's Unix socket, authorizes with the
//! key file, takes the display (tty mode), writes lines and reads keys, on a
//! thread of its own. A missing socket is reported once per outage and tried
//! again every [`RETRY`]; garbled packets are dropped and counted.

use super::protocol::{self, Decoder, Packet, ProtocolError, kind};
use super::{BrailleDisplay, BrailleEvent};
use crossbeam_channel::{Receiver, Sender, TrySendError};
use station_stamp::FlagThread;
use station_stamp::{QUEUE_CAPACITY, Stamped};
use std::io::{Read, Write};
use std::os::unix::net::UnixStream;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long to wait before looking for brltty again.
pub const RETRY: Duration = Duration::from_secs(2);
/// How long brltty may take to answer a step of the handshake.
const HANDSHAKE: Duration = Duration::from_secs(3);
/// How often the thread looks for a line to show while no key comes.
const POLL: Duration = Duration::from_millis(20);
/// Lines waiting to be shown (only the newest matters; the rest are skipped).
const LINES: usize = 16;

/// Where brltty is and how to authorize.
#[derive(Clone, Debug)]
pub struct BrlapiSettings {
    /// brltty's BrlAPI socket (`/var/lib/BrlAPI/0` for host `:0`).
    pub socket: PathBuf,
    /// The key file for key authorization (`/etc/brlapi.key`); none: no key sent.
    pub key_file: Option<PathBuf>,
}

impl BrlapiSettings {
    /// The socket of a BrlAPI host name such as `:0` or `localhost:1`
    /// (only local hosts: the station talks to its own brltty).
    pub fn socket_of_host(host: &str) -> Option<PathBuf> {
        let (name, number) = host.rsplit_once(':').unwrap_or((host, "0"));
        let local = name.is_empty() || name == "localhost" || name == "127.0.0.1";
        let number: u16 = if number.is_empty() { 0 } else { number.parse().ok()? };
        local.then(|| PathBuf::from(format!("/var/lib/BrlAPI/{number}")))
    }
}

/// The driver of a Braille display behind brltty.
pub struct BrlapiDriver {
    /// Declared first, so dropped first: the thread is stopped and joined
    /// while its queues are still open.
    _thread: FlagThread,
    events: Receiver<Stamped<BrailleEvent>>,
    lines: Sender<String>,
    dropped: Arc<AtomicU64>,
}

impl BrlapiDriver {
    /// Starts the driver thread; never fails (brltty missing is an event, retried).
    pub fn spawn(settings: BrlapiSettings) -> BrlapiDriver {
        let (tx, events) = crossbeam_channel::bounded(QUEUE_CAPACITY);
        let (lines, line_rx) = crossbeam_channel::bounded(LINES);
        let dropped = Arc::new(AtomicU64::new(0));
        let counted = Arc::clone(&dropped);
        let thread = FlagThread::spawn("braille", move |stop| {
            Worker { settings, tx, lines: line_rx, stop, dropped: counted, last_line: None }.run()
        });
        BrlapiDriver { _thread: thread, events, lines, dropped }
    }

    /// Packets dropped so far (garbled, unexpected).
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }
}

impl BrailleDisplay for BrlapiDriver {
    fn show(&self, text: &str) {
        // A full queue means the thread is behind: the newest line comes later anyway.
        if let Err(TrySendError::Full(_)) = self.lines.try_send(text.to_owned()) {
            tracing::debug!("braille line skipped: the display is behind");
        }
    }

    fn events(&self) -> Receiver<Stamped<BrailleEvent>> {
        self.events.clone()
    }
}

/// Why a connection ended or never began.
#[derive(Debug, thiserror::Error)]
enum LinkError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Protocol(#[from] ProtocolError),
    #[error("{0}")]
    Other(String),
}

struct Worker {
    settings: BrlapiSettings,
    tx: Sender<Stamped<BrailleEvent>>,
    lines: Receiver<String>,
    stop: Arc<AtomicBool>,
    dropped: Arc<AtomicU64>,
    last_line: Option<String>,
}

impl Worker {
    fn run(mut self) {
        let mut told = false;
        while !self.stopped() {
            match self.connect() {
                Ok((stream, decoder, columns)) => {
                    told = false;
                    if !self.send(BrailleEvent::Connected { columns }) {
                        return;
                    }
                    let reason = match self.serve(stream, decoder, columns) {
                        Ok(()) => return, // stopped
                        Err(e) => e.to_string(),
                    };
                    if !self.send(BrailleEvent::Lost { reason }) {
                        return;
                    }
                }
                Err(e) => {
                    if !told {
                        let reason = format!("{}: {e}", self.settings.socket.display());
                        if !self.send(BrailleEvent::Unavailable { reason }) {
                            return;
                        }
                        told = true;
                    }
                }
            }
            self.sleep(RETRY);
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Queues an event; false when the station is gone.
    fn send(&self, event: BrailleEvent) -> bool {
        self.tx.send(Stamped::now(event)).is_ok()
    }

    fn sleep(&self, d: Duration) {
        let until = Instant::now() + d;
        while !self.stopped() && Instant::now() < until {
            std::thread::sleep(POLL);
        }
    }

    /// Version, authorization, the display's size, tty mode.
    fn connect(&self) -> Result<(UnixStream, Decoder, u32), LinkError> {
        let mut stream = UnixStream::connect(&self.settings.socket)?;
        stream.set_read_timeout(Some(POLL))?;
        let mut decoder = Decoder::default();
        let version = protocol::read_version(&self.expect(&mut stream, &mut decoder)?)?;
        if version != protocol::PROTOCOL_VERSION {
            return Err(LinkError::Other(format!("brltty speaks BrlAPI protocol {version}, not 8")));
        }
        stream.write_all(&protocol::encode(kind::VERSION, &protocol::PROTOCOL_VERSION.to_be_bytes()))?;
        let methods = protocol::read_auth_methods(&self.expect(&mut stream, &mut decoder)?)?;
        if !methods.contains(&protocol::auth::NONE) {
            if !methods.contains(&protocol::auth::KEY) {
                return Err(LinkError::Other("brltty offers no key authorization".into()));
            }
            let path = self.settings.key_file.as_ref().ok_or_else(|| {
                LinkError::Other("brltty asks for a key and no key_file is configured".into())
            })?;
            let key = std::fs::read(path)
                .map_err(|e| LinkError::Other(format!("cannot read {}: {e}", path.display())))?;
            stream.write_all(&protocol::encode(kind::AUTH, &protocol::auth_key(&key)))?;
            protocol::read_ack(&self.expect(&mut stream, &mut decoder)?)?;
        }
        stream.write_all(&protocol::encode(kind::DISPLAY_SIZE, &[]))?;
        let (columns, _rows) = protocol::read_display_size(&self.expect(&mut stream, &mut decoder)?)?;
        stream.write_all(&protocol::encode(kind::ENTER_TTY_MODE, &protocol::enter_tty_mode(&[])))?;
        protocol::read_ack(&self.expect(&mut stream, &mut decoder)?)?;
        Ok((stream, decoder, columns))
    }

    /// The next packet of the handshake, within [`HANDSHAKE`].
    fn expect(&self, stream: &mut UnixStream, decoder: &mut Decoder) -> Result<Packet, LinkError> {
        let deadline = Instant::now() + HANDSHAKE;
        let mut buf = [0u8; 1024];
        loop {
            if let Some(p) = decoder.next_packet()? {
                return Ok(p);
            }
            if self.stopped() || Instant::now() > deadline {
                return Err(LinkError::Other("brltty did not answer".into()));
            }
            match stream.read(&mut buf) {
                Ok(0) => return Err(LinkError::Other("brltty closed the connection".into())),
                Ok(n) => decoder.push(&buf[..n]),
                Err(e) if is_timeout(&e) => {}
                Err(e) => return Err(e.into()),
            }
        }
    }

    /// Shows lines and reads keys until stopped (`Ok`) or the link breaks.
    fn serve(&mut self, mut stream: UnixStream, mut decoder: Decoder, columns: u32) -> Result<(), LinkError> {
        if let Some(line) = &self.last_line {
            stream.write_all(&protocol::encode(kind::WRITE, &protocol::write_text(line, columns)))?;
        }
        let mut buf = [0u8; 1024];
        while !self.stopped() {
            if let Some(line) = self.lines.try_iter().last() {
                stream.write_all(&protocol::encode(kind::WRITE, &protocol::write_text(&line, columns)))?;
                self.last_line = Some(line);
            }
            let n = match stream.read(&mut buf) {
                Ok(0) => return Err(LinkError::Other("brltty closed the connection".into())),
                Ok(n) => n,
                Err(e) if is_timeout(&e) => continue,
                Err(e) => return Err(e.into()),
            };
            // Stamped when the read returned, before any queue.
            let at = Instant::now();
            decoder.push(&buf[..n]);
            loop {
                let packet = match decoder.next_packet() {
                    Ok(Some(p)) => p,
                    Ok(None) => break,
                    Err(e) => {
                        // The stream cannot be resynchronised: count it and reconnect.
                        self.drop_packet(e.to_string());
                        return Err(e.into());
                    }
                };
                match packet.kind {
                    kind::KEY => match protocol::read_key(&packet) {
                        Ok(Some(key)) => {
                            if self.tx.send(Stamped::new(at, BrailleEvent::Key(key))).is_err() {
                                return Ok(());
                            }
                        }
                        Ok(None) => {} // a keyboard's keysym, not the display's
                        Err(e) => self.drop_packet(e.to_string()),
                    },
                    kind::ACK => {} // for a write
                    other => {
                        self.drop_packet(ProtocolError::Unexpected(protocol::kind_char(other)).to_string())
                    }
                }
            }
        }
        let _ = stream.write_all(&protocol::encode(kind::LEAVE_TTY_MODE, &[]));
        Ok(())
    }

    fn drop_packet(&self, reason: String) {
        let total = self.dropped.fetch_add(1, Ordering::Relaxed) + 1;
        tracing::warn!(total, %reason, "braille packet dropped");
        let _ = self.tx.send(Stamped::now(BrailleEvent::Dropped { total, reason }));
    }
}

fn is_timeout(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut | std::io::ErrorKind::Interrupted
    )
}
