//! `station bench`: the inference engine's speed, measured on real games.
//!
//! The hands' scan sequences are generated first, so the figures are the
//! engine's own: plies per second on one core, and the time one scan (or the
//! settle tick that decides a move) takes from arrival to decision.

use crate::replay::{load_games, replay_games};
use anyhow::Result;
use shakmaty::Position;
use station_core::inference::{BoardTracker, TrackerConfig};
use station_core::{Game, Millis};
use station_drivers::pegboard::hands::{Hands, TimedScan};
use std::path::PathBuf;
use std::time::Instant;

/// What to measure on.
pub struct BenchOptions {
    /// PGN files.
    pub pgn: Vec<PathBuf>,
    /// At most this many games.
    pub games: Option<usize>,
    /// Noise seed for the scan sequences.
    pub noise: Option<u64>,
}

struct Prepared {
    start: Game,
    /// Per ply: the scans, then the time of the settle tick.
    plies: Vec<(Vec<TimedScan>, Millis)>,
}

/// Runs the benchmark and prints its figures.
pub fn bench(opts: &BenchOptions) -> Result<()> {
    let cfg = TrackerConfig::default();
    let games = load_games(&opts.pgn, opts.games)?;
    let prepared: Vec<Prepared> = games
        .iter()
        .enumerate()
        .map(|(i, g)| prepare(&g.game, opts.noise.map(|s| s ^ i as u64), cfg))
        .collect();
    let plies: usize = prepared.iter().map(|p| p.plies.len()).sum();
    let scans: usize = prepared.iter().flat_map(|p| p.plies.iter()).map(|(s, _)| s.len()).sum();

    // Throughput: best of three passes over every game.
    let mut best = f64::MAX;
    let mut obs = Vec::with_capacity(16);
    for _ in 0..3 {
        let started = Instant::now();
        for p in &prepared {
            let mut tracker = BoardTracker::new(cfg, p.start.clone(), p.start.occupancy(), 0);
            for (scans, settle_at) in &p.plies {
                for s in scans {
                    tracker.on_scan(s.at_ms, s.occupancy, &mut obs);
                }
                tracker.tick(*settle_at, &mut obs);
                obs.clear();
            }
        }
        best = best.min(started.elapsed().as_secs_f64());
    }

    // Latency: every scan and every deciding tick timed on its own.
    let mut per_scan = Vec::with_capacity(scans);
    let mut per_decision = Vec::with_capacity(plies);
    for p in &prepared {
        let mut tracker = BoardTracker::new(cfg, p.start.clone(), p.start.occupancy(), 0);
        for (scans, settle_at) in &p.plies {
            for s in scans {
                let t0 = Instant::now();
                tracker.on_scan(s.at_ms, s.occupancy, &mut obs);
                per_scan.push(t0.elapsed().as_nanos() as u64);
            }
            let t0 = Instant::now();
            tracker.tick(*settle_at, &mut obs);
            per_decision.push(t0.elapsed().as_nanos() as u64);
            obs.clear();
        }
    }

    let replay = replay_games(&games, opts.noise, cfg);
    println!("bench games {} plies {} scans {} noise {}", games.len(), plies, scans, opts.noise.is_some());
    println!("inference plies_per_s {:.0} (one core, best of 3)", plies as f64 / best);
    println!(
        "scan_to_decision_us p50 {:.2} p99 {:.2} max {:.2} (every scan)",
        pct(&mut per_scan, 50.0),
        pct(&mut per_scan, 99.0),
        pct(&mut per_scan, 100.0)
    );
    println!(
        "settle_decision_us p50 {:.2} p99 {:.2} max {:.2} (the tick that decides a move)",
        pct(&mut per_decision, 50.0),
        pct(&mut per_decision, 99.0),
        pct(&mut per_decision, 100.0)
    );
    println!("replay_with_hands {}", replay.summary_line());
    Ok(())
}

fn prepare(game: &Game, seed: Option<u64>, cfg: TrackerConfig) -> Prepared {
    let mut hands = Hands::new(seed);
    let mut now = 0;
    let mut plies = Vec::with_capacity(game.ply());
    for (i, mv) in game.moves().iter().enumerate() {
        let before = game.position_at(i).expect("every position exists");
        let mut scans = Vec::new();
        hands.think(before.board().occupied(), cfg.settle_ms + 500, &mut now, &mut scans);
        hands.play(before, mv, &mut now, &mut scans);
        plies.push((scans, now + cfg.settle_ms));
    }
    Prepared { start: Game::new(game.start().clone(), game.castling_mode()), plies }
}

/// Percentile in microseconds.
fn pct(ns: &mut [u64], p: f64) -> f64 {
    if ns.is_empty() {
        return 0.0;
    }
    ns.sort_unstable();
    let idx = ((p / 100.0) * (ns.len() - 1) as f64).round() as usize;
    ns[idx.min(ns.len() - 1)] as f64 / 1000.0
}
