//! The engine's thread: the station asks for a move in a position and gets a
//! legal move back, or faults named one by one while the engine is restarted.
//!
//! Every `bestmove` is checked against the position before it leaves this
//! thread: an engine never makes a move that is not legal. A missing engine is
//! looked for again, a crashed, hung or garbage-speaking one restarted, with a
//! growing pause after the second failure in a row, for as long as the
//! question stands.

use super::process::{Timeouts, UciProcess};
use super::uci::{Score, SearchLimit, Strength};
use super::{Engine, EngineError};
use crossbeam_channel::{Receiver, Sender, TryRecvError, bounded, unbounded};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use station_stamp::{QUEUE_CAPACITY, Stamped};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// A position to search: the game's start and the moves since, in UCI.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SearchPosition {
    /// The start position (`None`: the standard start).
    pub fen: Option<String>,
    /// The moves played since, in UCI (`e2e4`, `e1g1`).
    pub moves: Vec<String>,
    /// A Chess960 game (castling written king-takes-rook).
    pub chess960: bool,
}

impl SearchPosition {
    /// The position after the moves; an error names what does not fit.
    pub fn to_position(&self) -> Result<Chess, String> {
        let mode = if self.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let mut pos: Chess = match &self.fen {
            Some(fen) => Fen::from_ascii(fen.as_bytes())
                .map_err(|e| format!("{fen}: {e}"))?
                .into_position(mode)
                .map_err(|e| format!("{fen}: {e}"))?,
            None => Chess::default(),
        };
        for m in &self.moves {
            let mv = UciMove::from_ascii(m.as_bytes())
                .ok()
                .and_then(|u| u.to_move(&pos).ok())
                .ok_or_else(|| format!("{m} is not legal here"))?;
            pos.play_unchecked(mv);
        }
        Ok(pos)
    }

    /// True when White is to move (counted from the start's side to move).
    pub fn white_to_move(&self) -> bool {
        let white_starts = self.fen.as_deref().is_none_or(|f| f.split_whitespace().nth(1) != Some("b"));
        white_starts == self.moves.len().is_multiple_of(2)
    }
}

/// What the station asks of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineRequest {
    /// A move for this position; answered with `BestMove` and the same `id`.
    Search {
        /// Chosen by the station, echoed in the answer.
        id: u64,
        /// Where.
        position: SearchPosition,
        /// How long.
        limit: SearchLimit,
        /// At what strength.
        strength: Strength,
    },
    /// The last search no longer matters (a take-back, a move entered by hand).
    Cancel,
    /// A new game begins (`ucinewgame`).
    NewGame,
}

/// The kind of an engine fault (the `engine_status` event's `status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// It could not be started.
    Missing,
    /// Its process ended.
    Crashed,
    /// It did not answer in time.
    Hung,
    /// It answered something that is no move.
    Garbage,
    /// It answered a move that is not legal in the position.
    Illegal,
}

impl FaultKind {
    /// The word for logs and events.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Missing => "missing",
            FaultKind::Crashed => "crashed",
            FaultKind::Hung => "hung",
            FaultKind::Garbage => "garbage",
            FaultKind::Illegal => "illegal_move",
        }
    }
}

/// What the engine's thread reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineEvent {
    /// The engine runs (at start and after every restart).
    Ready {
        /// Its name.
        name: String,
    },
    /// A legal move for the search `id`.
    BestMove {
        /// The search's id.
        id: u64,
        /// The move in UCI, legal in the searched position.
        uci: String,
        /// The engine's score from the side to move, if it gave one.
        score: Option<Score>,
    },
    /// The position has no legal move (mate or stalemate): nothing to play.
    NoMove {
        /// The search's id.
        id: u64,
    },
    /// Something went wrong; the engine is restarted.
    Fault {
        /// What.
        kind: FaultKind,
        /// In words, for the log and the console.
        detail: String,
    },
}

/// Which engine the driver runs.
#[derive(Clone, Debug)]
pub enum EngineKind {
    /// A UCI engine program.
    Uci {
        /// The program.
        path: PathBuf,
        /// Its time-outs.
        timeouts: Timeouts,
    },
    /// An engine in the process, made anew at every start and restart (the
    /// simulated engine: `station_sim::engine::SimEngine::kind`).
    InProcess(EngineMaker),
}

/// Makes an engine that runs in the process.
#[derive(Clone)]
pub struct EngineMaker(Arc<dyn Fn() -> Box<dyn Engine> + Send + Sync>);

impl EngineMaker {
    /// A maker calling `make` at every start of the engine.
    pub fn new(make: impl Fn() -> Box<dyn Engine> + Send + Sync + 'static) -> EngineMaker {
        EngineMaker(Arc::new(make))
    }
}

impl std::fmt::Debug for EngineMaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EngineMaker")
    }
}

/// The engine's thread and its two channels.
pub struct EngineDriver {
    requests: Sender<EngineRequest>,
    events: Receiver<Stamped<EngineEvent>>,
    thread: Option<JoinHandle<()>>,
}

impl EngineDriver {
    /// Starts the thread; the engine itself is started at once (a missing one is reported).
    pub fn spawn(kind: EngineKind) -> Self {
        let (requests, rx) = unbounded();
        let (tx, events) = bounded(QUEUE_CAPACITY);
        let thread = std::thread::Builder::new()
            .name("engine".into())
            .spawn(move || Worker { kind, engine: None, strength: None, rx, tx, pending: None }.run())
            .ok();
        if thread.is_none() {
            tracing::error!("the engine thread could not be started");
        }
        EngineDriver { requests, events, thread }
    }

    /// Sends a request (lost only when the thread is gone, which its events say).
    pub fn send(&self, request: EngineRequest) {
        let _ = self.requests.send(request);
    }

    /// The thread's reports.
    pub fn events(&self) -> Receiver<Stamped<EngineEvent>> {
        self.events.clone()
    }
}

impl Drop for EngineDriver {
    fn drop(&mut self) {
        // A closed request channel ends the thread, which stops the engine.
        let (closed, _) = unbounded();
        self.requests = closed;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The pause before the n-th restart in a row (the first two are at once).
fn backoff(failures: u32) -> Duration {
    match failures {
        0..=2 => Duration::ZERO,
        n => Duration::from_millis(500u64 << (n - 3).min(6)),
    }
}

struct Worker {
    kind: EngineKind,
    engine: Option<Box<dyn Engine>>,
    strength: Option<Strength>,
    rx: Receiver<EngineRequest>,
    tx: Sender<Stamped<EngineEvent>>,
    /// A request that arrived while a search ran.
    pending: Option<EngineRequest>,
}

impl Worker {
    fn report(&self, event: EngineEvent) {
        let _ = self.tx.send(Stamped::now(event));
    }

    fn fault(&self, kind: FaultKind, detail: String) {
        tracing::warn!(kind = kind.name(), %detail, "engine fault");
        self.report(EngineEvent::Fault { kind, detail });
    }

    fn start(&mut self) -> Result<(), EngineError> {
        if self.engine.is_some() {
            return Ok(());
        }
        let engine: Box<dyn Engine> = match &self.kind {
            EngineKind::Uci { path, timeouts } => Box::new(UciProcess::start(path, *timeouts)?),
            EngineKind::InProcess(make) => (make.0)(),
        };
        self.strength = None;
        self.report(EngineEvent::Ready { name: engine.name().to_string() });
        self.engine = Some(engine);
        Ok(())
    }

    fn kind_of(e: &EngineError) -> FaultKind {
        match e {
            EngineError::Missing { .. } => FaultKind::Missing,
            EngineError::Crashed(_) | EngineError::Cancelled => FaultKind::Crashed,
            EngineError::Hung(_) => FaultKind::Hung,
            EngineError::Garbage(_) => FaultKind::Garbage,
        }
    }

    fn run(mut self) {
        if let Err(e) = self.start() {
            self.fault(Self::kind_of(&e), e.to_string());
        }
        loop {
            let request = match self.pending.take() {
                Some(r) => r,
                None => match self.rx.recv() {
                    Ok(r) => r,
                    Err(_) => break,
                },
            };
            match request {
                EngineRequest::Search { id, position, limit, strength } => {
                    self.search(id, &position, limit, strength);
                }
                EngineRequest::Cancel => {}
                EngineRequest::NewGame => {
                    if let Some(e) = self.engine.as_mut()
                        && let Err(err) = e.new_game()
                    {
                        self.fault(Self::kind_of(&err), err.to_string());
                        self.engine = None;
                    }
                }
            }
        }
        // The station stops: the engine goes with it (`quit`, then kill).
        self.engine = None;
    }

    /// Waits `pause`, unless a request comes first (it is kept); true if one came
    /// or the station stopped.
    fn interrupted_within(&mut self, pause: Duration) -> bool {
        if pause.is_zero() {
            return false;
        }
        match self.rx.recv_timeout(pause) {
            Ok(r) => {
                self.pending = Some(r);
                true
            }
            Err(crossbeam_channel::RecvTimeoutError::Timeout) => false,
            Err(crossbeam_channel::RecvTimeoutError::Disconnected) => true,
        }
    }

    fn search(&mut self, id: u64, position: &SearchPosition, limit: SearchLimit, strength: Strength) {
        let pos = match position.to_position() {
            Ok(p) => p,
            Err(e) => {
                // The station's own question is wrong: nothing to ask the engine.
                tracing::error!(error = %e, "engine search refused: the position does not stand");
                return;
            }
        };
        if pos.legal_moves().is_empty() {
            self.report(EngineEvent::NoMove { id });
            return;
        }
        let mode = if position.chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
        let mut failures = 0u32;
        loop {
            if self.interrupted_within(backoff(failures)) {
                return;
            }
            let result = self.start().and_then(|()| {
                let engine = self.engine.as_mut().ok_or(EngineError::Cancelled)?;
                if self.strength != Some(strength) {
                    engine.set_strength(strength)?;
                    self.strength = Some(strength);
                }
                let rx = &self.rx;
                let pending = &mut self.pending;
                let mut cancelled = || {
                    if pending.is_some() {
                        return true;
                    }
                    match rx.try_recv() {
                        Ok(r) => {
                            *pending = Some(r);
                            true
                        }
                        Err(TryRecvError::Empty) => false,
                        Err(TryRecvError::Disconnected) => true,
                    }
                };
                engine.search(position, limit, &mut cancelled)
            });
            let (kind, detail) = match result {
                Ok(outcome) => {
                    let parsed = UciMove::from_ascii(outcome.best.as_bytes());
                    match parsed.as_ref().map(|u| u.to_move(&pos)) {
                        Ok(Ok(mv)) => {
                            let uci = UciMove::from_move(mv, mode).to_string();
                            self.report(EngineEvent::BestMove { id, uci, score: outcome.score });
                            return;
                        }
                        Ok(Err(_)) => (FaultKind::Illegal, format!("`{}` is not legal here", outcome.best)),
                        Err(_) => (FaultKind::Garbage, format!("`{}` is no move", clip(&outcome.best))),
                    }
                }
                Err(EngineError::Cancelled) => return,
                Err(e) => (Self::kind_of(&e), e.to_string()),
            };
            self.fault(kind, detail);
            // Whatever it was, the engine starts afresh.
            self.engine = None;
            failures += 1;
        }
    }
}

fn clip(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).take(40).collect()
}

#[cfg(test)]
mod tests;
