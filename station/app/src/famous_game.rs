//! The game the demo plays and `station run` starts from when no game is
//! given: Kasparov – Topalov, Wijk aan Zee 1999, embedded in the binary. Its
//! own module so that the demo depends on the run loop and never the reverse.

use station_core::pgn::{PgnGame, read_games};

/// Kasparov – Topalov, Wijk aan Zee 1999. The file stays in the binary's
/// folder: the end-to-end tests read it there (tests/tests/e2e/pipeline.rs).
const FAMOUS_GAME: &str = include_str!("../../daemon/assets/kasparov-topalov-1999.pgn");

/// The embedded famous game.
pub fn famous_game() -> PgnGame {
    read_games(FAMOUS_GAME.as_bytes()).into_iter().next().expect("the embedded game parses")
}
