//! `station`: the Annex D station's daemon and tools. A thin entry point: every
//! command lives in its own module.

mod announce;
mod announce_draughts;
mod bench;
mod braille_display;
mod cli;
mod clock;
mod config;
mod delivery;
mod demo;
mod demo_draughts;
mod demo_options;
mod demo_practice;
mod dgt_clock;
mod doctor;
mod draughts_speech;
mod draw_facts;
mod event_sink;
mod export;
mod export_audio;
mod export_braille;
mod export_large_print;
mod export_pdn;
mod famous_game;
mod hall;
mod hub;
mod journal_file;
mod journal_lock;
mod kept_audio;
mod listening;
mod models_cmd;
mod move_echo;
mod opponent;
mod practice_cmd;
mod record_reading;
mod run;
mod server_thread;
mod signals;
mod snapshot;
mod speaking;
mod speech_cmd;
mod speech_state;
mod station;
mod token;
mod told;
mod vocabulary;
mod voices_cmd;
mod web;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("STATION_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
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
