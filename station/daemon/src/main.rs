//! `station`: the Annex D station's daemon and tools. A thin entry point: every
//! command lives in its own module; what they run is in the library crates
//! (station-app, station-web, station-hall, station-export).

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
