//! `station`: the Annex D station's daemon and tools. A thin entry point: every
//! command lives in its own module; what they run is in the library crates
//! (station-app, station-web, station-hall, station-export).
//!
//! `cli` reads the command line (clap) and calls one module per command: `run_cmd` (`station run`),
//! `replay` (station-sim's), `bench` (both default to the repository's games around the current
//! folder, `default_games`; `--jitter MS` moves every hand step and delivers scans late in
//! bunches), `demo` and `demo_draughts` (one table, `DEMOS`, by `--rules`) and `demo_practice`,
//! `export` (station-export), `announce` (`--rules draughts|draughts64` through the app's
//! `announce_draughts`), `practice_cmd`, `models_cmd`, `voices_cmd`, `speech_cmd`, and `station
//! hall` (station-hall's server). Every demo's summary line ends `, alarms N`
//! (`demo_options::is_alarm`: `board_mismatch`, `setup_differs`); `scripts/demo` and the package
//! check fail on one. This crate's `Cargo.toml` holds the Debian package's metadata.

mod announce;
mod bench;
mod cli;
mod cli_values;
mod default_games;
mod demo;
mod demo_draughts;
mod demo_options;
mod demo_practice;
mod lang_arg;
mod models_cmd;
mod practice_cmd;
mod run_cmd;
mod speech_cmd;
mod voices_cmd;

// The library crates' modules, under the paths the commands name them by
// (`crate::config`, `crate::web` …): the application (loop, pipeline, journal,
// config), the web console, the hall and the exports; and `station run`'s
// wiring as `crate::run` (its own file name leaves `run.rs` to the app's loop,
// so that git follows the loop's history there).
use run_cmd as run;
use station_app::{config, doctor, event_sink, famous_game, hub, journal_file, opponent, station};
use station_export::{export, export_audio, export_braille, export_large_print, export_pdn};
use station_hall as hall;
use station_web as web;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("STATION_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(cli.default_log_level())),
        )
        .with_writer(std::io::stderr)
        .init();
    match cli::dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("station: {e:#}");
            ExitCode::FAILURE
        }
    }
}
