//! The DGT board's simulated hands over the whole collection (5,377 games,
//! `tests/data/pgn/games`) into the piece tracker, on a board standing either
//! way round: every move decided once, none revised, nothing reported, and
//! how fast (`cargo bench -p station-sim --bench dgt_hands`; the test
//! `dgt_hands_corpus` plays the first 100 games). A mismatch fails the bench.
//! Each figure is a line `figure<TAB>name<TAB>value<TAB>unit` on stdout.

#[allow(dead_code)]
#[path = "../tests/dgt_hands_corpus.rs"]
mod corpus;

use station_serial::dgt::orientation::Orientation;
use std::time::Instant;

fn figure(name: &str, value: f64, unit: &str) {
    println!("figure\t{name}\t{value:.3}\t{unit}");
}

fn main() -> std::process::ExitCode {
    let mut failed = false;
    for orientation in [Orientation::Normal, Orientation::Rotated] {
        let started = Instant::now();
        let stats = corpus::run_corpus(usize::MAX, orientation);
        let secs = started.elapsed().as_secs_f64();
        let rate = stats.plies as f64 / secs.max(1e-9);
        eprintln!(
            "DGT corpus ({orientation:?}): {} games, {} plies, {} mismatches, {rate:.0} plies/s",
            stats.games, stats.plies, stats.mismatches
        );
        let name = format!("DGT hands over every game ({orientation:?} board)");
        figure(&format!("{name}: games"), stats.games as f64, "games");
        figure(&format!("{name}: plies"), stats.plies as f64, "plies");
        figure(&format!("{name}: mismatches"), stats.mismatches as f64, "plies");
        figure(&format!("{name}: speed"), rate, "plies/s");
        if stats.games == 0 || stats.mismatches > 0 {
            eprintln!("FAIL: {:#?}", stats.first_failures);
            failed = true;
        }
    }
    if failed { std::process::ExitCode::FAILURE } else { std::process::ExitCode::SUCCESS }
}
