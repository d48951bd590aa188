//! `station bench`: the inference engine's speed, measured on real games.
//!
//! The hands' scan sequences are generated first, so the figures are the
//! engine's own: plies per second on one core, and the time one scan (or the
//! settle tick that decides a move) takes from arrival to decision.

use anyhow::Result;
use shakmaty::Position;
use station_core::inference::{BoardTracker, TrackerConfig};
use station_core::{Game, Millis};
use station_sim::jitter::LineJitter;
use station_sim::pegboard::hands::{Hands, TimedScan};
use station_sim::replay::{HandsSetup, Pace, ReplayReport, load_games, replay_with};
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
    /// The line's jitter in ms (`--jitter`): every hand step moved within ±MS.
    pub jitter: Option<Millis>,
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
        .map(|(i, g)| prepare(&g.game, opts.noise.map(|s| s ^ i as u64), opts.jitter, cfg))
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

    // Fast pace: each game one stream of scans, moves decided on evidence.
    let streams: Vec<(Game, Vec<TimedScan>, Millis)> = games
        .iter()
        .enumerate()
        .map(|(i, g)| prepare_fast(&g.game, opts.noise.map(|s| s ^ i as u64), opts.jitter))
        .collect();
    let mut best_fast = f64::MAX;
    for _ in 0..3 {
        let started = Instant::now();
        for (start, scans, end) in &streams {
            let mut tracker = BoardTracker::new(cfg, start.clone(), start.occupancy(), 0);
            for s in scans {
                tracker.on_scan(s.at_ms, s.occupancy, &mut obs);
                obs.clear();
            }
            tracker.tick(end + cfg.settle_ms, &mut obs);
            obs.clear();
        }
        best_fast = best_fast.min(started.elapsed().as_secs_f64());
    }

    let setup = |noise, pace| HandsSetup { noise, pace, jitter: opts.jitter };
    let replay = replay_with(&games, cfg, setup(opts.noise, Pace::Normal));
    let fast = replay_with(&games, cfg, setup(opts.noise, Pace::Fast));
    println!(
        "bench games {} plies {} scans {} noise {} jitter_ms {}",
        games.len(),
        plies,
        scans,
        opts.noise.is_some(),
        opts.jitter.unwrap_or(0)
    );
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
    println!("inference_fast_pace plies_per_s {:.0} (one core, best of 3)", plies as f64 / best_fast);
    println!("replay_with_hands {}", replay.summary_line());
    println!("replay_fast_pace {}", fast.summary_line());
    for (pace, report) in [("normal", &replay), ("fast", &fast)] {
        let mut ms = report.latencies_ms.clone();
        ms.sort_unstable();
        let at = |p: f64| ms.get(((ms.len().max(1) - 1) as f64 * p).round() as usize).copied().unwrap_or(0);
        println!(
            "placement_to_decision_ms pace {pace} p50 {} p99 {} max {} (simulated ms from the last peg placed to the decision; {} moves)",
            at(0.5),
            at(0.99),
            at(1.0),
            ms.len()
        );
    }
    // Issue 25: from the user's moment (the last peg landing) to the decision,
    // both paces, without and with noise (the given seed, or the shared one).
    let seed = opts.noise.unwrap_or(DEFAULT_NOISE_SEED);
    for noise in [None, Some(seed)] {
        for pace in [Pace::Normal, Pace::Fast] {
            let report = replay_with(&games, cfg, setup(noise, pace));
            println!("{}", placement_line(&report, pace, noise, cfg.settle_ms));
        }
    }
    let (n, p50, p99, work) = discrepancy_latency(&games, 2000);
    println!(
        "discrepancy_ms cases {n} p50 {p50:.2} p99 {p99:.2} (settle {} ms + processing; processing alone p99 {work:.3} ms)",
        cfg.settle_ms
    );
    Ok(())
}

/// The noise seed of the shared replays, for the bench's noisy figures when none is given.
const DEFAULT_NOISE_SEED: u64 = 20261122;

/// One `placement_decision` line: percentiles of the simulated ms from the last
/// peg placed to the decision, the share decided before the settle time, and
/// the decided moves replaced afterwards (revised announcements).
fn placement_line(report: &ReplayReport, pace: Pace, noise: Option<u64>, settle_ms: Millis) -> String {
    let mut ms = report.latencies_ms.clone();
    ms.sort_unstable();
    let at = |p: f64| ms.get(((ms.len().max(1) - 1) as f64 * p).round() as usize).copied().unwrap_or(0);
    let early = ms.iter().filter(|&&m| m < settle_ms).count();
    let pace = match pace {
        Pace::Normal => "normal",
        Pace::Fast => "fast",
    };
    let noise = noise.map_or("off".to_string(), |s| s.to_string());
    let t = &report.totals;
    format!(
        "placement_decision pace {pace} noise {noise} p50 {} p90 {} p99 {} max {} before_settle_pct {:.1} \
         revisions {} mismatches {} silent_errors {} moves {}",
        at(0.5),
        at(0.9),
        at(0.99),
        at(1.0),
        100.0 * early as f64 / ms.len().max(1) as f64,
        t.revisions,
        t.mismatches,
        t.silent_errors,
        ms.len()
    )
}

fn prepare(game: &Game, seed: Option<u64>, jitter: Option<Millis>, cfg: TrackerConfig) -> Prepared {
    let mut hands = Hands::new(seed);
    let mut line = jitter.map(|ms| LineJitter::new(seed.unwrap_or(0), ms));
    let (mut now, mut delivered) = (0, 0);
    let mut plies = Vec::with_capacity(game.ply());
    for (i, mv) in game.moves().iter().enumerate() {
        let before = game.position_at(i).expect("every position exists");
        let mut scans = Vec::new();
        hands.think(before.board().occupied(), cfg.settle_ms + 500, &mut now, &mut scans);
        hands.play(before, mv, &mut now, &mut scans);
        if let Some(line) = line.as_mut() {
            delivered = line.deliver(&mut scans, delivered);
        }
        delivered = delivered.max(now) + cfg.settle_ms;
        plies.push((scans, delivered));
    }
    Prepared { start: Game::new(game.start().clone(), game.castling_mode()), plies }
}

/// One game as quick hands play it: each move begun 50–200 ms after the last
/// placement; returns the start, the scans and the time of the last placement.
fn prepare_fast(game: &Game, seed: Option<u64>, jitter: Option<Millis>) -> (Game, Vec<TimedScan>, Millis) {
    let mut hands = Hands::new(seed);
    let mut now = 0;
    let mut scans = Vec::new();
    for (i, mv) in game.moves().iter().enumerate() {
        let before = game.position_at(i).expect("every position exists");
        let gap = hands.pause(Pace::FAST_GAP_MS.0, Pace::FAST_GAP_MS.1);
        hands.play_after(before, mv, gap, &mut now, &mut scans);
    }
    let end = match jitter {
        Some(ms) => LineJitter::new(seed.unwrap_or(0), ms).deliver(&mut scans, 0).max(now),
        None => now,
    };
    (Game::new(game.start().clone(), game.castling_mode()), scans, end)
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

/// D.2.9 latency: the sighted player's DGT board executes the blind player's
/// move wrongly; how long from its last field update to the `discrepancy`
/// event, in the station's time (settle time + processing) and the processing alone.
pub fn discrepancy_latency(games: &[station_core::pgn::PgnGame], limit: usize) -> (usize, f64, f64, f64) {
    use shakmaty::Position;
    use station_core::table::{Table, TableConfig};
    use station_core::{BoardRole, Event};
    use station_sim::dgt::{DgtHands, board_after};
    let mut processing = Vec::new();
    let mut total = Vec::new();
    let settle = TrackerConfig::default().settle_ms;
    for pgn in games.iter().take(limit) {
        let game = &pgn.game;
        // The first blind (White) move that has a quiet alternative from the same square.
        let Some((i, right, wrong)) = game.moves().iter().enumerate().step_by(2).find_map(|(i, mv)| {
            let pos = game.position_at(i)?;
            let wrong = pos.legal_moves().into_iter().find(|m| {
                m.from() == mv.from() && m.to() != mv.to() && !m.is_capture() && !mv.is_capture()
            })?;
            Some((i, *mv, wrong))
        }) else {
            continue;
        };
        let cfg = TableConfig {
            mirror_sensed: true,
            mirror_pieces: true,
            ..TableConfig::single(TrackerConfig::default())
        };
        let mut start = game.clone();
        while start.ply() > i {
            start.pop();
        }
        let pos = start.position().clone();
        let occ = pos.board().occupied();
        let mut table = Table::resume(
            cfg,
            "bench".into(),
            start,
            station_core::role::ByBoard::both(occ),
            Some(pos.board().clone()),
            0,
        );
        let mut out = Vec::new();
        let mut t = 1000;
        // The blind player's move on the peg board.
        let after = board_after(&pos, &right).occupied();
        for occ in [occ.without(right.from().unwrap_or(right.to())), after] {
            t += 100;
            table.on_scan(BoardRole::Blind, t, occ, &mut out);
        }
        t += settle + 100;
        table.tick(t, &mut out);
        // The sighted player executes it wrongly on the DGT board.
        let mut hands = DgtHands::new(i as u64);
        let mut updates = Vec::new();
        let mut now = t;
        hands.play(&pos, &wrong, &mut now, &mut updates);
        let Some(last) = updates.last().map(|u| u.at_ms) else { continue };
        for u in &updates {
            table.on_field(u.at_ms, u.square, u.piece, &mut out);
        }
        out.clear();
        let deadline = table.deadline().unwrap_or(last + settle);
        let t0 = Instant::now();
        table.tick(deadline, &mut out);
        let spent = t0.elapsed().as_secs_f64() * 1000.0;
        if let Some(Event::Discrepancy { t_ms, .. }) =
            out.iter().find(|e| matches!(e, Event::Discrepancy { .. }))
        {
            processing.push(spent);
            total.push((t_ms - last) as f64 + spent);
        }
    }
    let p99 = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(((v.len().max(1) - 1) as f64 * 0.99).round() as usize).copied().unwrap_or(0.0)
    };
    let n = total.len();
    let p50_total = {
        let mut v = total.clone();
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    (n, p50_total, p99(&mut total), p99(&mut processing))
}
