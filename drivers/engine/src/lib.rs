//! A chess engine as the sighted side (issue 26): any UCI engine as a child
//! process, or an engine in the process (the simulated twin, in `station-sim`).
//!
//! * [`uci`] — the protocol, pure: engine lines read, station lines written,
//!   strength as `setoption` lines.
//! * [`process`] — [`UciProcess`]: the engine as a child process (a reader
//!   thread, time-outs, stopped with the station even after a kill -9).
//! * [`driver`] — [`EngineDriver`]: the thread the station talks to; every
//!   answer checked against the position (never an illegal move), a missing,
//!   crashed, hung or garbage-speaking engine reported and restarted.
//!
//! Strength is set with `UCI_LimitStrength`/`UCI_Elo` in the engine's range, else with `Skill
//! Level`. The station asks the driver's thread with `Search`, `Cancel` and `NewGame`; a fault is
//! reported as `EngineEvent::Fault` while the engine is restarted, and `stop` is sent before a hang
//! is declared. The simulated engine (`station-sim`) is seeded. The fake engines for the fault
//! tests are `tests/engines/*.sh`.

// Child processes, process groups and signals: Unix only, as before the split.
#![cfg(unix)]

pub mod driver;
pub mod process;
pub mod uci;

pub use driver::{
    EngineDriver, EngineEvent, EngineKind, EngineMaker, EngineRequest, FaultKind, SearchPosition,
};
pub use process::{Timeouts, UciProcess};
pub use uci::{Score, SearchLimit, Strength};

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The engine could not be started.
    #[error("engine {path} cannot be started: {detail}")]
    Missing {
        /// The program.
        path: String,
        /// Why.
        detail: String,
    },
    /// The engine's process ended.
    #[error("the engine stopped: {0}")]
    Crashed(String),
    /// The engine did not answer in time.
    #[error("the engine did not answer {0}")]
    Hung(String),
    /// The engine answered something that is no move.
    #[error("the engine answered garbage: {0}")]
    Garbage(String),
    /// The search was called off (the position changed).
    #[error("the search was called off")]
    Cancelled,
}

/// The result of a search, not yet checked against the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The `bestmove` as written.
    pub best: String,
    /// The last score the engine gave, from the side to move.
    pub score: Option<Score>,
}

/// An engine the driver can ask for moves: a UCI process or one in the process (the simulated twin).
pub trait Engine: Send {
    /// Its name (`id name`).
    fn name(&self) -> &str;
    /// Plays at `strength` from the next search on.
    fn set_strength(&mut self, strength: Strength) -> Result<(), EngineError>;
    /// A new game begins.
    fn new_game(&mut self) -> Result<(), EngineError>;
    /// Searches `position` within `limit`; `cancelled` is asked while it thinks.
    fn search(
        &mut self,
        position: &SearchPosition,
        limit: SearchLimit,
        cancelled: &mut dyn FnMut() -> bool,
    ) -> Result<SearchOutcome, EngineError>;
}
