//! Simulated hands and games on the rules core and the drivers.
//!
//! Real games (PGN, PDN) are played by the drivers' simulated hands into the
//! core's trackers, in-process and in simulated time, and every decision is
//! checked against the game (`station replay`, `station bench`). The draughts
//! hand's view of a move ([`hand_move`]) lives here once, for the replay, the
//! demo and the end-to-end tests: the drivers may not know the core's moves.
//!
//! Its tests (`tests/dgt_hands_corpus.rs`) play the DGT board's simulated hands over the real games
//! into the core's piece tracker: the core and the drivers meet here and in the app, never in each
//! other's tests. `clap` is a dependency for one value, [`replay::Pace`], which the command line
//! takes as it is.

pub mod replay;
pub mod replay_pdn;

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
