//! `station replay --pdn`: draughts games from PDN played by simulated hands on
//! the draughts peg-board sensor, one summary line (the chess replay's keys).
//!
//! A ply counts as a mismatch when the sensor did not decide the game's move
//! (nothing decided or a reported board), as a silent error when it decided a
//! different move; either way the sensor is put back on the game and play goes on.

use crate::LoadError;
use crate::draughts_hands::{DraughtsHands, HandMove};
use station_core::draughts::Position;
use station_core::draughts::moves::Move;
use station_core::draughts::pdn::{PdnGame, read_games};
use station_core::draughts::sensing::{DraughtsTracker, Sensed, SensorConfig};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How fast the simulated players are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Pace {
    /// A thinking pause of 0.5–3 s between moves.
    #[default]
    Human,
    /// The next move starts as soon as the board has settled.
    Fast,
}

/// What to replay.
#[derive(Clone, Debug)]
pub struct PdnReplayOptions {
    /// PDN files.
    pub pdn: Vec<PathBuf>,
    /// Noise seed (bounce on the sensor); clean hands when absent.
    pub noise: Option<u64>,
    /// At most this many games.
    pub games: Option<usize>,
    /// The sensor's timing.
    pub sensor: SensorConfig,
    /// Players' pace.
    pub pace: Pace,
}

/// The totals of a replay.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnReplayTotals {
    /// Games replayed.
    pub games: usize,
    /// Plies played.
    pub plies: usize,
    /// Plies the sensor did not decide as played.
    pub mismatches: usize,
    /// Plies the sensor decided wrongly.
    pub silent_errors: usize,
    /// Moves decided with a removal order the code calls irregular (should be 0: the hands follow 4.11/4.16).
    pub irregular: usize,
}

/// Totals and the time spent in hands and sensor (PDN parsing excluded).
#[derive(Clone, Debug)]
pub struct PdnReplayReport {
    /// Totals.
    pub totals: PdnReplayTotals,
    /// Time spent.
    pub elapsed: Duration,
}

impl PdnReplayReport {
    /// The summary line (a contract: the chess replay's keys).
    pub fn summary_line(&self) -> String {
        let t = &self.totals;
        let per_s = t.plies as f64 / self.elapsed.as_secs_f64().max(1e-9);
        format!(
            "games {} plies {} mismatches {} silent_errors {} plies_per_s {per_s:.0}",
            t.games, t.plies, t.mismatches, t.silent_errors
        )
    }
}

/// Loads the games of the PDN files, in order, at most `limit`; an illegal move is an error naming file and move.
pub fn load_pdn(files: &[PathBuf], limit: Option<usize>) -> Result<Vec<PdnGame>, LoadError> {
    let mut games = Vec::new();
    for file in files {
        let text =
            std::fs::read_to_string(file).map_err(|source| LoadError::Read { path: file.clone(), source })?;
        let read =
            read_games(&text).map_err(|e| LoadError::Pdn { path: file.clone(), message: e.to_string() })?;
        games.extend(read);
        if limit.is_some_and(|n| games.len() >= n) {
            break;
        }
    }
    games.truncate(limit.unwrap_or(usize::MAX));
    Ok(games)
}

/// Replays the games and returns the totals.
pub fn replay_pdn(opts: &PdnReplayOptions) -> Result<PdnReplayReport, LoadError> {
    let games = load_pdn(&opts.pdn, opts.games)?;
    let started = Instant::now();
    let mut totals = PdnReplayTotals::default();
    for (i, game) in games.iter().enumerate() {
        let seed = opts.noise.unwrap_or(0).wrapping_add(i as u64);
        play_game(game, opts, seed, &mut totals);
    }
    Ok(PdnReplayReport { totals, elapsed: started.elapsed() })
}

/// `mv` as the hand makes it in `pos`: the squares it passes, the pieces it
/// takes off, and whether a man takes a man (the case a hand may shortcut).
pub fn hand_move(pos: &Position, mv: &Move) -> HandMove {
    let path = if mv.is_capture() { mv.path.iter().map(|s| s.0).collect() } else { vec![mv.to.0] };
    HandMove {
        from: mv.from.0,
        path,
        captured: mv.captured.iter().map(|s| s.0).collect(),
        man_takes_man: mv.captured.len() == 1 && pos.kings & (mv.from.bit() | mv.captured_mask()) == 0,
    }
}

fn play_game(game: &PdnGame, opts: &PdnReplayOptions, seed: u64, totals: &mut PdnReplayTotals) {
    let start = Position::initial(game.variant);
    let mut hands = DraughtsHands::new(game.variant.squares(), seed, opts.noise.is_some());
    let mut tracker = DraughtsTracker::new(opts.sensor, start);
    let mut pos = start;
    let mut t = 0u64;
    totals.games += 1;
    for (i, mv) in game.moves.iter().enumerate() {
        let (scans, end) = hands.play(pos.occupied(), &hand_move(&pos, mv), t);
        let mut sensed = Vec::new();
        for (at, occ) in scans {
            sensed.extend(tracker.scan(at, occ));
        }
        t = end + opts.sensor.settle_ms;
        sensed.extend(tracker.tick(t));
        let decided: Vec<(&Move, bool)> = sensed
            .iter()
            .filter_map(|s| match s {
                Sensed::Moved { mv, irregularity, .. } => Some((mv, irregularity.is_some())),
                _ => None,
            })
            .collect();
        totals.plies += 1;
        let next = mv.apply(&pos);
        match decided.as_slice() {
            [(got, irregular)] if got.same_effect(mv) => totals.irregular += usize::from(*irregular),
            [] => totals.mismatches += 1,
            _ => totals.silent_errors += 1,
        }
        if tracker.ply() != i + 1 || tracker.position() != &next {
            tracker.resync(next, i + 1, next.occupied(), t);
        }
        pos = next;
        if opts.pace == Pace::Human {
            t += 500 + (seed.wrapping_mul(i as u64 + 1) % 2500);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/draughts/selfplay-international.pdn")
    }

    #[test]
    fn clean_hands_give_no_mismatch_and_noise_no_silent_error() {
        let mut opts = PdnReplayOptions {
            pdn: vec![shared()],
            noise: None,
            games: Some(40),
            sensor: SensorConfig::default(),
            pace: Pace::Fast,
        };
        let clean = replay_pdn(&opts).unwrap();
        assert_eq!(clean.totals.games, 40);
        assert!(clean.totals.plies > 1000);
        assert_eq!((clean.totals.mismatches, clean.totals.silent_errors, clean.totals.irregular), (0, 0, 0));
        opts.noise = Some(7);
        let noisy = replay_pdn(&opts).unwrap();
        assert_eq!(noisy.totals.silent_errors, 0);
        assert!(noisy.totals.mismatches * 1000 <= noisy.totals.plies, "{:?}", noisy.totals);
        assert!(noisy.summary_line().starts_with("games 40 plies "));
    }

    #[test]
    fn an_illegal_move_names_the_file_and_the_move() {
        let dir = crate::test_support::TempDir::new("pdn-illegal");
        let file = dir.0.join("bad.pdn");
        std::fs::write(&file, "[GameType \"20\"]\n\n1. 32-28 19-23 2. 28-22 *\n").unwrap();
        let err = load_pdn(&[file], None).unwrap_err();
        let text = format!("{err:#}");
        assert!(text.contains("bad.pdn") && text.contains("28-22"), "{text}");
    }
}
