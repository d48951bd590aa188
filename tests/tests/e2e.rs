//! Every end-to-end test in one binary: the real `station` binary against
//! simulated hardware on pseudo-terminals, a module per area. One binary links
//! once instead of once per area; each test still ends every process it
//! started, pass or fail (see `station_tests::Kill`), and the browser tests
//! share a limit on how many headless Chromiums run at once.
//!
//! Run one area with `cargo test -p station-tests --test e2e AREA::` and one
//! test by its name; the measurements beside the tests (`record`, `practice`,
//! `hall::run`) are run by `cargo bench -p station-tests --bench e2e_figures`.
//!
//! A test that loads the machine runs `station_tests::alone()`; `station_tests::RunningStation`
//! starts a `station run` and talks to its console (commands, spoken words, GETs). The browser
//! tests run the pinned axe-core in every state they reach. The full kill campaign is
//! `benches/kill_campaign.rs` (`KILLS=N`); its `a_dozen_kills` runs with the tests.

#[path = "e2e/braille.rs"]
mod braille;
#[path = "e2e/clock_devices.rs"]
mod clock_devices;
#[path = "e2e/clock_move_counter.rs"]
mod clock_move_counter;
#[path = "e2e/command_line.rs"]
mod command_line;
#[path = "e2e/doctor.rs"]
mod doctor;
#[path = "e2e/draughts.rs"]
mod draughts;
#[path = "e2e/draughts_speech.rs"]
mod draughts_speech;
#[path = "e2e/hall/mod.rs"]
mod hall;
#[path = "e2e/kill_campaign.rs"]
mod kill_campaign;
#[path = "e2e/languages.rs"]
mod languages;
#[path = "e2e/last_game.rs"]
mod last_game;
#[path = "e2e/one_station.rs"]
mod one_station;
#[path = "e2e/pegboard.rs"]
mod pegboard;
#[path = "e2e/pipeline.rs"]
mod pipeline;
#[path = "e2e/practice.rs"]
mod practice;
#[path = "e2e/preround.rs"]
mod preround;
#[path = "e2e/record.rs"]
mod record;
#[path = "e2e/replay_draws.rs"]
mod replay_draws;
#[path = "e2e/scoresheet.rs"]
mod scoresheet;
#[path = "e2e/soak.rs"]
mod soak;
#[path = "e2e/speech.rs"]
mod speech;
#[path = "e2e/two_boards.rs"]
mod two_boards;
#[path = "e2e/web_arbiter.rs"]
mod web_arbiter;
#[path = "e2e/web_browser.rs"]
mod web_browser;
#[path = "e2e/web_day.rs"]
mod web_day;
#[path = "e2e/web_discrepancy.rs"]
mod web_discrepancy;
#[path = "e2e/web_draughts.rs"]
mod web_draughts;
#[path = "e2e/web_keyboard.rs"]
mod web_keyboard;
#[path = "e2e/web_limits.rs"]
mod web_limits;
#[path = "e2e/web_player.rs"]
mod web_player;
