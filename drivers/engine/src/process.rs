//! A UCI engine as a child process.
//!
//! The child gets its own process group (a Ctrl-C at the terminal reaches the
//! station, which stops the engine in order) and, through util-linux's
//! `setpriv --pdeathsig KILL`, dies with the thread that started it: a kill -9
//! of the station leaves no engine behind. A reader thread turns its output
//! into lines; every wait has a time-out.

use super::uci::{self, EngineLine, EngineOption, SearchLimit, Strength};
use super::{Engine, EngineError, SearchOutcome, SearchPosition};
use crossbeam_channel::{Receiver, RecvTimeoutError, unbounded};
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How long an engine may take to answer the station.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `uci` → `uciok` and `isready` → `readyok`.
    pub handshake: Duration,
    /// After `stop`, until `bestmove`.
    pub after_stop: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { handshake: Duration::from_secs(10), after_stop: Duration::from_secs(2) }
    }
}

/// What the reader thread saw.
enum Output {
    Line(String),
    End,
}

/// `setpriv` ties the child's life to ours (PR_SET_PDEATHSIG) without unsafe code.
const SETPRIV: &str = "/usr/bin/setpriv";

/// Non-UCI lines tolerated in one search before the engine counts as speaking garbage.
const MAX_OTHER_LINES: usize = 10_000;

/// A running UCI engine.
pub struct UciProcess {
    path: PathBuf,
    name: String,
    options: Vec<EngineOption>,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Output>,
    timeouts: Timeouts,
    strength: Option<Strength>,
}

impl UciProcess {
    /// Starts `path` and shakes hands (`uci`, `isready`).
    pub fn start(path: &Path, timeouts: Timeouts) -> Result<Self, EngineError> {
        let missing = |detail: String| EngineError::Missing { path: path.display().to_string(), detail };
        if !path.is_file() {
            return Err(missing("no such file".into()));
        }
        let mut command = if Path::new(SETPRIV).is_file() {
            let mut c = Command::new(SETPRIV);
            c.arg("--pdeathsig").arg("KILL").arg("--").arg(path);
            c
        } else {
            tracing::warn!("no {SETPRIV}: an engine may outlive a killed station");
            Command::new(path)
        };
        command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).process_group(0);
        let mut child = command.spawn().map_err(|e| missing(e.to_string()))?;
        let stdin = child.stdin.take().ok_or_else(|| missing("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| missing("no stdout".into()))?;
        let (tx, lines) = unbounded();
        std::thread::Builder::new()
            .name("engine-reader".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    // Bounded: an endless line is cut, not kept.
                    match (&mut reader).take(uci::MAX_LINE as u64).read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                            if tx.send(Output::Line(line)).is_err() {
                                return;
                            }
                        }
                    }
                }
                let _ = tx.send(Output::End);
            })
            .map_err(|e| missing(e.to_string()))?;
        let mut engine = UciProcess {
            path: path.to_path_buf(),
            name: path.file_name().map_or_else(|| "engine".into(), |n| n.to_string_lossy().into_owned()),
            options: Vec::new(),
            child,
            stdin,
            lines,
            timeouts,
            strength: None,
        };
        engine.send("uci")?;
        let deadline = Instant::now() + timeouts.handshake;
        loop {
            match engine.next_line(deadline, "uci")? {
                EngineLine::Name(n) if !n.is_empty() => engine.name = n,
                EngineLine::Option(o) => engine.options.push(o),
                EngineLine::UciOk => break,
                _ => {}
            }
        }
        engine.ready()?;
        tracing::info!(engine = %engine.name, path = %engine.path.display(), "engine started");
        Ok(engine)
    }

    /// The options the engine offers.
    pub fn options(&self) -> &[EngineOption] {
        &self.options
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        tracing::debug!(target: "engine", engine = %self.name, "> {line}");
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| EngineError::Crashed(format!("writing to it failed: {e}")))
    }

    /// The next line before `deadline`; its end is a crash, silence a hang.
    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<EngineLine, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Output::Line(l)) => {
                tracing::trace!(target: "engine", "< {l}");
                Ok(uci::parse_line(&l))
            }
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => Err(self.crashed()),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Hung(format!("to `{waiting_for}`"))),
        }
    }

    fn crashed(&mut self) -> EngineError {
        // The output ended: the process is gone or going.
        let status = (0..20)
            .find_map(|_| match self.child.try_wait() {
                Ok(Some(s)) => Some(s.to_string()),
                _ => {
                    std::thread::sleep(Duration::from_millis(10));
                    None
                }
            })
            .unwrap_or_else(|| "its output ended".into());
        EngineError::Crashed(status)
    }

    fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + self.timeouts.handshake;
        while self.next_line(deadline, "isready")? != EngineLine::ReadyOk {}
        Ok(())
    }
}

impl Engine for UciProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError> {
        if self.strength == Some(strength) {
            return Ok(());
        }
        for line in uci::strength_commands(&self.options, strength) {
            self.send(&line)?;
        }
        self.strength = Some(strength);
        self.ready()
    }

    fn new_game(&mut self) -> Result<(), EngineError> {
        self.send("ucinewgame")?;
        self.ready()
    }

    fn search(
        &mut self,
        position: &SearchPosition,
        limit: SearchLimit,
        cancelled: &mut dyn FnMut() -> bool,
    ) -> Result<SearchOutcome, EngineError> {
        if let Some(o) = self.options.iter().find(|o| o.name == "UCI_Chess960") {
            let line = format!("setoption name {} value {}", o.name, position.chess960);
            self.send(&line)?;
        }
        let fen = position.fen.as_deref();
        self.send(&uci::position_command(fen, &position.moves))?;
        self.send(&limit.go_command())?;
        let white = position.white_to_move();
        let started = Instant::now();
        let patience = Duration::from_millis(limit.patience_ms(white));
        let mut stopped: Option<(Instant, bool)> = None;
        let mut score = None;
        let mut other = 0usize;
        loop {
            let now = Instant::now();
            if stopped.is_none() {
                if cancelled() {
                    self.send("stop")?;
                    stopped = Some((now + self.timeouts.after_stop, true));
                } else if now >= started + patience {
                    // Alive but slow answers `stop` with its best move so far.
                    tracing::warn!(engine = %self.name, "the engine thinks too long: stop");
                    self.send("stop")?;
                    stopped = Some((now + self.timeouts.after_stop, false));
                }
            }
            let poll = now + Duration::from_millis(50);
            let deadline = stopped.map_or(poll, |(d, _)| d.min(poll));
            match self.next_line(deadline, "go") {
                Ok(EngineLine::BestMove(best)) => {
                    if stopped.is_some_and(|(_, by_us)| by_us) {
                        return Err(EngineError::Cancelled);
                    }
                    return Ok(SearchOutcome { best, score });
                }
                Ok(EngineLine::Info { score: Some(s) }) => score = Some(s),
                Ok(EngineLine::Other) => {
                    other += 1;
                    if other > MAX_OTHER_LINES {
                        return Err(EngineError::Garbage(format!("{other} lines that are not UCI")));
                    }
                }
                Ok(_) => {}
                Err(EngineError::Hung(_)) => {
                    if let Some((d, by_us)) = stopped
                        && Instant::now() >= d
                    {
                        return Err(if by_us {
                            EngineError::Hung("to `stop`".into())
                        } else {
                            EngineError::Hung(format!("within {} ms", patience.as_millis()))
                        });
                    }
                }
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for UciProcess {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let end = Instant::now() + Duration::from_millis(300);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
