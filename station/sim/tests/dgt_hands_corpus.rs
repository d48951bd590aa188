//! The DGT board's simulated hands (drivers) play real games into the piece
//! tracker (core), on a board standing either way round: every move decided
//! once, none revised, nothing reported. Both crates meet here, as they do in
//! the station; neither may import the other. The whole collection, in release,
//! is `cargo bench -p station-sim --bench dgt_hands` (it includes this file).

use shakmaty::{Move, Position};
use station_core::game::Game;
use station_core::pgn::read_games;
use station_core::piece_tracking::{PieceObservation, PieceTracker, PieceTrackerConfig};
use station_serial::dgt::orientation::{Orientation, detect_orientation};
use station_sim::dgt::hands::{DgtHands, TimedUpdate};
use std::time::Instant;

/// What a run over the games found.
#[derive(Debug, Default)]
pub(crate) struct Stats {
    pub(crate) games: usize,
    pub(crate) plies: usize,
    pub(crate) mismatches: usize,
    pub(crate) first_failures: Vec<String>,
}

fn corpus_files() -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/pgn/games");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pgn"))
        .collect();
    files.sort();
    files
}

/// Plays up to `limit` games through the DGT hands into a tracker; the
/// board stands `orientation` (the sensors report turned squares), and the
/// orientation is detected from the first dump as the driver does.
pub(crate) fn run_corpus(limit: usize, orientation: Orientation) -> Stats {
    let mut stats = Stats::default();
    let settle = PieceTrackerConfig::default().settle_ms;
    let mut out = Vec::new();
    let mut updates: Vec<TimedUpdate> = Vec::new();
    'files: for file in corpus_files() {
        let bytes = std::fs::read(&file).unwrap();
        for pgn in read_games(&bytes) {
            if stats.games >= limit {
                break 'files;
            }
            if pgn.error.is_some() {
                continue;
            }
            let record = &pgn.game;
            let seed = stats.games as u64;
            stats.games += 1;
            let raw_start = orientation.board(record.start().board());
            let detected = detect_orientation(&raw_start).unwrap_or_default();
            let mut hands = DgtHands::new(seed);
            let game = Game::new(record.start().clone(), record.castling_mode());
            let mut tracker =
                PieceTracker::new(PieceTrackerConfig::default(), game, detected.board(&raw_start), 0);
            let mut now = 0;
            for (ply, mv) in record.moves().iter().enumerate() {
                let pos = record.position_at(ply).expect("a position per ply");
                updates.clear();
                hands.play(pos, mv, &mut now, &mut updates);
                out.clear();
                for u in &updates {
                    // What the turned board's sensors report, then what the station makes of it.
                    let raw_square = orientation.square(u.square);
                    tracker.on_field_update(u.at_ms, detected.square(raw_square), u.piece, &mut out);
                }
                hands.think(settle + 100 + seed % 900, &mut now);
                tracker.tick(now, &mut out);
                stats.plies += 1;
                let moved: Vec<Move> = out
                    .iter()
                    .filter_map(|o| match o {
                        PieceObservation::Moved { mv, .. } => Some(*mv),
                        _ => None,
                    })
                    .collect();
                let bad = out.iter().any(|o| {
                    matches!(o, PieceObservation::Mismatch { .. } | PieceObservation::Revised { .. })
                });
                if bad || moved != [*mv] || tracker.game().ply() != ply + 1 {
                    stats.mismatches += 1;
                    if stats.first_failures.len() < 5 {
                        stats.first_failures.push(format!(
                            "{} game {} ply {}: {:?}",
                            file.display(),
                            stats.games,
                            ply + 1,
                            out
                        ));
                    }
                    break; // the rest of this game is off the record
                }
            }
        }
    }
    stats
}

fn check(limit: usize, orientation: Orientation) {
    let started = Instant::now();
    let stats = run_corpus(limit, orientation);
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "DGT corpus ({orientation:?}): {} games, {} plies, {} mismatches, {:.0} plies/s",
        stats.games,
        stats.plies,
        stats.mismatches,
        stats.plies as f64 / secs.max(1e-9)
    );
    assert!(stats.games > 0 && stats.plies > 0);
    assert_eq!(stats.mismatches, 0, "{:#?}", stats.first_failures);
}

#[test]
fn dgt_hands_over_the_first_100_games_both_ways_round() {
    check(100, Orientation::Normal);
    check(100, Orientation::Rotated);
}
