//! The end-to-end measurements, with the real `station` binary and the real
//! programs beside it (`cargo bench -p station-tests --bench e2e_figures`):
//! from an arbiter's command to every view, the practice engine's reply
//! latency and memory (Debian's Stockfish), and a hall of 50 boards on a real
//! Mosquitto. They live beside the end-to-end tests whose helpers they use
//! (`tests/e2e/…`, included here); each figure is a line
//! `figure<TAB>name<TAB>value<TAB>unit` on stdout. `E2E_FIGURES=record,practice`
//! runs only those.

// The end-to-end modules, for their helpers and measurements: their tests
// are not compiled here, so most helpers go unused.
#[allow(dead_code, unused_imports)]
#[path = "../tests/e2e/hall/mod.rs"]
mod hall;
#[allow(dead_code, unused_imports)]
#[path = "../tests/e2e/practice.rs"]
mod practice;
#[allow(dead_code, unused_imports)]
#[path = "../tests/e2e/record.rs"]
mod record;

/// Each measurement by the name `E2E_FIGURES` chooses it by.
const MEASUREMENTS: [(&str, fn()); 3] = [
    ("record", record::measure_from_a_command_to_every_view),
    ("practice", practice::engine_reply_latency_and_memory),
    ("hall", hall::run::measure_a_hall_of_50_boards),
];

fn main() {
    let chosen = std::env::var("E2E_FIGURES").unwrap_or_default();
    // The station binary the measurements run, built as the tests build it.
    let _ = station_tests::station_bin();
    for (name, measure) in MEASUREMENTS {
        if chosen.is_empty() || chosen.split(',').any(|c| c == name) {
            eprintln!("== {name}");
            measure();
        }
    }
}
