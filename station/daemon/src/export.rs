//! `station export --pgn`: the record of journaled games as PGN.

use crate::journal_file::{Found, JournalDir};
use anyhow::{Context, Result, bail};
use station_core::journal::{self, Record};
use station_core::pgn::write_pgn;
use std::path::PathBuf;

/// `station export` arguments.
pub struct ExportOptions {
    /// Journal directory.
    pub journal_dir: PathBuf,
    /// A game id; the newest game when absent.
    pub game: Option<String>,
    /// Every game, oldest first.
    pub all: bool,
    /// Output file; stdout when absent.
    pub output: Option<PathBuf>,
}

/// Writes the PGN.
pub fn export(opts: &ExportOptions) -> Result<()> {
    let dir = JournalDir::open(&opts.journal_dir)?;
    let all = dir.all()?;
    let chosen: Vec<&Found> = if opts.all {
        all.iter().collect()
    } else if let Some(id) = &opts.game {
        all.iter().filter(|f| &f.contents.header.game_id == id).collect()
    } else {
        all.last().into_iter().collect()
    };
    if chosen.is_empty() {
        bail!("no matching game journal in {}", opts.journal_dir.display());
    }
    let mut text = String::new();
    for found in chosen {
        text.push_str(&pgn_of(found)?);
    }
    match &opts.output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display())),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// One journal's game as PGN; unfinished games end in `*`.
pub fn pgn_of(found: &Found) -> Result<String> {
    let restored = journal::restore(&found.contents)
        .with_context(|| format!("cannot restore {}", found.path.display()))?;
    let game = restored.table.agreed().context("the journal holds no game")?;
    let result = found
        .contents
        .records
        .iter()
        .find_map(|r| match r {
            Record::End { result, .. } => Some(result.as_str()),
            _ => None,
        })
        .unwrap_or("*");
    Ok(write_pgn(game, &found.contents.header.tags, result))
}
