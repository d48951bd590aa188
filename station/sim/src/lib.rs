//! Everything simulated: the devices' twins, the hands that play on them, and
//! whole games replayed through them on the rules core.
//!
//! The twins stand in for hardware behind the same device paths and sockets
//! the drivers (`station-serial`, `station-gamepad`, `station-engine`) open,
//! so a test or the demo runs the real drivers against them:
//!
//! * [`pegboard`] — the simulated peg board on a pseudo-terminal and the hands
//!   that turn a chess move into scans; [`draughts_hands`] for a draughts move.
//! * [`dgt`] — the DGT board emulator (with its clock) and its hands.
//! * [`braille`] — a simulated BrlAPI server, and a real brltty's virtual display.
//! * [`gamepad`] — a simulated gamepad or foot switch.
//! * [`engine`] — the simulated chess engine.
//! * [`jitter`] — the hands' deterministic randomness and the line's jitter.
//! * [`games`] — whole games as the hands play them, on one board or two.
//!
//! Real games (PGN, PDN) are played by the simulated hands into the core's
//! trackers, in-process and in simulated time, and every decision is checked
//! against the game (`station replay`, `station bench`). The draughts hand's
//! view of a move ([`hand_move`]) lives here once, for the replay, the demo
//! and the end-to-end tests: the drivers may not know the core's moves.
//!
//! Its tests (`tests/dgt_hands_corpus.rs`) play the DGT board's simulated hands over the real games
//! into the core's piece tracker: the core and the drivers meet here and in the app, never in each
//! other's tests.

#[cfg(unix)]
pub mod braille;
pub mod dgt;
pub mod draughts_hands;
#[cfg(unix)]
pub mod engine;
pub mod gamepad;
pub mod games;
pub mod jitter;
pub mod pegboard;
#[cfg(unix)]
mod pty;
pub mod replay;
pub mod replay_pdn;
#[cfg(test)]
mod test_support;

pub use replay_pdn::hand_move;

use std::path::PathBuf;

/// Games that could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file could not be read.
    #[error("cannot read {}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A PDN file holds a game that cannot be read (an illegal move, named).
    #[error("{}: {message}", path.display())]
    Pdn {
        /// The file.
        path: PathBuf,
        /// What is wrong, and where.
        message: String,
    },
}
