//! The Annex D station's application: everything `station run` does that is
//! neither a view (web console, hall), an export nor a command line.
//!
//! - **The loop** ([`run::serve`]): every device's feed, in the order of arrival,
//!   into the [`station::Station`].
//! - **The pipeline** ([`station`]): journal first, then the world (apply →
//!   journal → durable → deliver), with its board links, DGT clock link, speech
//!   desk, practice engine and recording device.
//! - **The journal** ([`journal_file`], [`journal_lock`]) and what is kept beside
//!   it ([`kept_audio`]).
//! - **Speaking and listening**: what is said and when (`speaking`, `told`,
//!   `snapshot`, `draw_facts`, [`move_echo`]), what is heard ([`listening`],
//!   `vocabulary`, `speech_state`).
//! - **Shared with the views and commands**: the [`config`], the [`hub`] the
//!   web console talks to, the [`event_sink`], [`delivery`] to subscribers, the
//!   pre-round check ([`doctor`], served by the console too), [`server_thread`],
//!   [`signals`], [`token`].
//!
//! Crates above this one: `station-web`, `station-hall`, `station-export` and the
//! `station` binary; below it: core, voices, drivers and sim.
//!
//! The arrows run from the binary to the views and exports, from them to this crate, and from here
//! to core, voices, drivers and sim, so no module here can name a view, an export or a command. The
//! `test-support` feature lends `station::test_support` to the tests of the crates above.

pub mod announce_draughts;
mod braille_display;
mod clock;
pub mod config;
pub mod delivery;
mod dgt_clock;
pub mod doctor;
mod draughts_speech;
mod draw_facts;
pub mod event_sink;
pub mod famous_game;
pub mod games;
pub mod hub;
pub mod journal_file;
pub mod journal_lock;
pub mod kept_audio;
pub mod listening;
pub mod move_echo;
pub mod opponent;
pub mod pdn;
mod record_reading;
pub mod run;
pub mod server_thread;
pub mod signals;
mod snapshot;
mod speaking;
mod speech_state;
pub mod station;
pub mod token;
pub mod told;
mod vocabulary;
