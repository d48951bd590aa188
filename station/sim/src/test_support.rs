//! What the simulation's tests share: the positions the simulated hands of
//! every board are tried on, a folder for a simulated board's link, and
//! waiting for a driver's event.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;
use shakmaty::{CastlingMode, Chess, fen::Fen};
use station_stamp::Stamped;

/// The position of `fen`, Chess960 castling rights read as given.
pub(crate) fn position(fen: &str) -> Chess {
    Fen::from_ascii(fen.as_bytes()).unwrap().into_position(CastlingMode::Chess960).unwrap()
}

/// Positions with every kind of move a hand makes differently.
pub(crate) const POSITIONS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1",
    "r3k2r/pppq1ppp/2npbn2/4p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R b KQkq - 0 1",
    "bqnb1rkr/pppp1ppp/6n1/4p3/4P3/1N4N1/PPPP1PPP/BQ1B1RKR w HFhf - 2 3",
    // King and rook swap squares (king f1 -> g1, rook g1 -> f1).
    "4k3/8/8/8/8/8/8/5KR1 w G - 0 1",
    // Queen side swap (king d1 -> c1, rook c1 -> d1).
    "4k3/8/8/8/8/8/8/2RK4 w C - 0 1",
    // King already on g1: only the rook moves.
    "6kr/8/8/8/8/8/8/6KR w Hh - 0 1",
    // Rook already on d1: only the king moves.
    "3rk3/3p4/8/8/8/8/3P4/3RK3 w Dd - 0 1",
    // En passant and promotions with and without capture.
    "r1n4k/1P6/8/3pP3/8/8/6K1/8 w - d6 0 2",
    "8/8/8/8/3Pp3/8/6k1/K7 b - d3 0 1",
    "7k/8/8/8/8/8/1p6/R1N4K b - - 0 1",
    // Queens facing each other on an open board: long slides.
    "3q3k/8/8/8/8/8/8/1Q5K w - - 0 1",
];

/// A fresh folder for a test's links, removed with it.
pub(crate) struct TempDir(pub(crate) PathBuf);

impl TempDir {
    /// A folder named after `tag`, the process and the time.
    pub(crate) fn new(tag: &str) -> TempDir {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("annexd-{tag}-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first of a driver's events (stamps dropped) that is `wanted`,
/// within `timeout`.
pub(crate) fn wait_for<E>(
    events: &Receiver<Stamped<E>>,
    timeout: Duration,
    mut wanted: impl FnMut(&E) -> bool,
) -> Option<E> {
    let deadline = Instant::now() + timeout;
    while let Ok(Stamped { event, .. }) = events.recv_deadline(deadline) {
        if wanted(&event) {
            return Some(event);
        }
    }
    None
}
