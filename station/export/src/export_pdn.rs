//! `station export --pdn`: journaled draughts games as PDN (`[GameType "20"]`,
//! FMJD numbering, `-` and `x`, full capture paths), from the same restore
//! the station makes (the journaled inputs through the table again).

use crate::journal_file::Found;
use anyhow::{Context, Result};
use station_app::pdn::pdn_of_record;
use std::path::{Path, PathBuf};

/// Writes the PDN of the newest game, of `game`, or of every game (`all`).
pub fn export_pdn(journal_dir: &Path, game: Option<&str>, all: bool, output: Option<&PathBuf>) -> Result<()> {
    let chosen = crate::export::select(journal_dir, game, all)?;
    let mut text = String::new();
    for f in &chosen {
        text.push_str(&pdn_of(f)?);
        text.push('\n');
    }
    match output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// One journal's draughts game as PDN; an unfinished game ends in `*`.
pub fn pdn_of(found: &Found) -> Result<String> {
    pdn_of_record(&found.contents.record())
        .with_context(|| format!("{} is not a draughts game (export it with --pgn)", found.path.display()))
}
