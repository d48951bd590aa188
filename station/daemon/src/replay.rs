//! `station replay`: real games played by simulated hands into the inference
//! engine, in-process and in simulated time, and checked move by move.

use anyhow::{Context, Result};
use shakmaty::{Move, Position};
use station_core::inference::{BoardTracker, Observation, TrackerConfig};
use station_core::pgn::{PgnGame, read_games};
use station_core::{Game, Millis};
use station_drivers::pegboard::hands::{Hands, TimedScan};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to replay.
pub struct ReplayOptions {
    /// PGN files.
    pub pgn: Vec<PathBuf>,
    /// Noise seed; no noise when absent.
    pub noise: Option<u64>,
    /// Replay at most this many games (over all files).
    pub games: Option<usize>,
    /// Inference settings.
    pub tracker: TrackerConfig,
}

/// What happened, in total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReplayTotals {
    /// Games replayed.
    pub games: usize,
    /// Plies replayed.
    pub plies: usize,
    /// Plies where no move was decided (a mismatch or ambiguity was reported, or nothing was).
    pub mismatches: usize,
    /// Plies where a wrong move was accepted as right.
    pub silent_errors: usize,
    /// Promotions whose piece was assumed and then set by the (simulated) announcement.
    pub promotions_announced: usize,
    /// Mismatch reports raised during the replay (a ply can raise several).
    pub reports: usize,
    /// Games whose PGN stopped early (illegal move in the file).
    pub pgn_errors: usize,
}

/// A replay's result and how long the simulation and inference took.
pub struct ReplayReport {
    /// Totals.
    pub totals: ReplayTotals,
    /// Time spent in hands and inference (PGN parsing excluded).
    pub elapsed: Duration,
}

impl ReplayReport {
    /// Plies per second.
    pub fn plies_per_s(&self) -> f64 {
        self.totals.plies as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// The summary line (a contract for outside tools).
    pub fn summary_line(&self) -> String {
        let t = &self.totals;
        format!(
            "games {} plies {} mismatches {} silent_errors {} plies_per_s {:.0}",
            t.games,
            t.plies,
            t.mismatches,
            t.silent_errors,
            self.plies_per_s()
        )
    }
}

/// Loads the games of the given PGN files, in order, at most `limit`.
pub fn load_games(files: &[PathBuf], limit: Option<usize>) -> Result<Vec<PgnGame>> {
    let mut games = Vec::new();
    for file in files {
        let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        games.extend(read_games(&bytes));
        if limit.is_some_and(|n| games.len() >= n) {
            break;
        }
    }
    if let Some(n) = limit {
        games.truncate(n);
    }
    Ok(games)
}

/// Replays the games.
pub fn replay(opts: &ReplayOptions) -> Result<ReplayReport> {
    let games = load_games(&opts.pgn, opts.games)?;
    Ok(replay_games(&games, opts.noise, opts.tracker))
}

/// Replays already loaded games.
pub fn replay_games(games: &[PgnGame], noise: Option<u64>, cfg: TrackerConfig) -> ReplayReport {
    let mut totals = ReplayTotals::default();
    let started = Instant::now();
    let mut scans = Vec::with_capacity(64);
    let mut obs = Vec::with_capacity(16);
    for (index, pgn) in games.iter().enumerate() {
        totals.games += 1;
        totals.pgn_errors += usize::from(pgn.error.is_some());
        let seed = noise.map(|s| s ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        replay_one(pgn.game.clone(), seed, cfg, &mut totals, &mut scans, &mut obs);
    }
    ReplayReport { totals, elapsed: started.elapsed() }
}

/// Thinking time between moves in simulated ms (varied, always longer than the settle time).
fn think_ms(ply: usize, settle: Millis) -> Millis {
    settle + 200 + (ply as u64 * 7919) % 3000
}

fn replay_one(
    reference: Game,
    seed: Option<u64>,
    cfg: TrackerConfig,
    totals: &mut ReplayTotals,
    scans: &mut Vec<TimedScan>,
    obs: &mut Vec<Observation>,
) {
    let start = Game::new(reference.start().clone(), reference.castling_mode());
    let mut now: Millis = 0;
    let mut tracker = BoardTracker::new(cfg, start, reference.start().board().occupied(), now);
    let mut hands = Hands::new(seed);
    for (i, &mv) in reference.moves().iter().enumerate() {
        let before = reference.position_at(i).expect("reference has every position");
        let ply = i + 1;
        scans.clear();
        obs.clear();
        hands.think(before.board().occupied(), think_ms(ply, cfg.settle_ms), &mut now, scans);
        hands.play(before, &mv, &mut now, scans);
        for s in scans.iter() {
            tracker.on_scan(s.at_ms, s.occupancy, obs);
        }
        tracker.tick(now + cfg.settle_ms, obs);
        totals.plies += 1;
        match judge_ply(&mut tracker, obs, &reference, ply, mv, totals) {
            Verdict::Right => {}
            Verdict::Unresolved => totals.mismatches += 1,
            Verdict::Wrong => totals.silent_errors += 1,
        }
        if tracker.game().moves() != &reference.moves()[..ply] {
            // The arbiter (or the announcement) puts the record right; play goes on.
            let mut fixed = Game::new(reference.start().clone(), reference.castling_mode());
            for &m in &reference.moves()[..ply] {
                fixed.push(m);
            }
            let occ = reference.position_at(ply).expect("position exists").board().occupied();
            tracker = BoardTracker::new(cfg, fixed, occ, now + cfg.settle_ms);
        }
    }
}

enum Verdict {
    Right,
    Unresolved,
    Wrong,
}

fn judge_ply(
    tracker: &mut BoardTracker,
    obs: &[Observation],
    reference: &Game,
    ply: usize,
    expected: Move,
    totals: &mut ReplayTotals,
) -> Verdict {
    let mut decided: Option<(Move, bool)> = None;
    for o in obs {
        match *o {
            Observation::Moved { ply: p, mv, promotion_assumed, .. }
            | Observation::Revised { ply: p, mv, promotion_assumed, .. } => {
                if p == ply {
                    decided = Some((mv, promotion_assumed));
                } else if reference.moves().get(p - 1) != Some(&mv) {
                    return Verdict::Wrong; // an earlier move revised into a wrong one
                }
            }
            Observation::Mismatch { .. } => totals.reports += 1,
            Observation::Touch { .. } | Observation::Restored { .. } => {}
        }
    }
    match decided {
        None => Verdict::Unresolved,
        Some((mv, _)) if mv == expected => Verdict::Right,
        Some((mv, true)) if same_path(mv, expected) => {
            // D.2.1: the player announces the promotion piece; the record takes it.
            totals.promotions_announced += 1;
            match expected.promotion().and_then(|role| tracker.set_promotion(role)) {
                Some(m) if m == expected => Verdict::Right,
                _ => Verdict::Wrong,
            }
        }
        Some(_) => Verdict::Wrong,
    }
}

fn same_path(a: Move, b: Move) -> bool {
    a.from() == b.from() && a.to() == b.to()
}
