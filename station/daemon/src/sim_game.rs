//! A whole game as simulated hands would play it on the peg board.

use shakmaty::Position;
use station_core::Game;
use station_drivers::pegboard::hands::{Hands, TimedScan};

/// The scans of `game` played from its start position: the initial position
/// first (so the station starts a game), then every move after some thought.
/// Times are simulated; played `speed` times faster, every rest between moves
/// still lasts at least twice the station's real `settle_ms`.
pub fn schedule(
    game: &Game,
    noise_seed: Option<u64>,
    think_ms: u64,
    settle_ms: u64,
    speed: f64,
) -> Vec<TimedScan> {
    let think_ms = think_ms.max((2.0 * settle_ms as f64 * speed).ceil() as u64);
    let mut hands = Hands::new(noise_seed);
    let mut now = 0;
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: game.start().board().occupied() }];
    for (i, mv) in game.moves().iter().enumerate() {
        let before = game.position_at(i).expect("every position exists");
        // Thought varies a little so the demo does not tick like a metronome.
        let think = think_ms + (i as u64 * 7919) % (think_ms / 2 + 1);
        hands.think(before.board().occupied(), think, &mut now, &mut scans);
        hands.play(before, mv, &mut now, &mut scans);
    }
    // Rest at the end so the last move settles before the schedule is done.
    hands.think(game.occupancy(), think_ms, &mut now, &mut scans);
    scans
}
