//! The exports of journaled games, each read back from the journal the way the
//! station restores it (the journaled inputs through the table again):
//! `station export --pgn` ([`export`]), `--pdn` ([`export_pdn`]), `--braille`
//! ([`export_braille`]), `--large-print` ([`export_large_print`]) and `--audio`
//! ([`export_audio`], the kept sound of spoken moves).

pub mod export;
pub mod export_audio;
pub mod export_braille;
pub mod export_large_print;
pub mod export_pdn;

// The application's modules, under the paths this crate's modules name them by.
use station_app::{journal_file, kept_audio};
