//! `station export --audio DIR`: the recording device of D.2.7 written out —
//! the kept sound of each spoken move of one game (`[speech] keep_audio`),
//! one WAV per ply, with an index naming each ply's move.

use crate::journal_file::JournalDir;
use anyhow::{Context, Result, bail};
use std::path::Path;

/// Copies game `game`'s (the newest when `None`) kept sound to `out`:
/// `ply-023.wav` …, and `index.tsv` (ply, move number, side, SAN, file).
/// Returns the number of files written.
pub fn export_audio(journal_dir: &Path, game: Option<&str>, out: &Path) -> Result<usize> {
    let found = JournalDir::game_to_read(journal_dir, game)?;
    let game_id = &found.contents.header.game_id;
    let files = crate::kept_audio::list(journal_dir, game_id);
    if files.is_empty() {
        bail!(
            "game {game_id} has no kept audio in {} (was [speech] keep_audio = true?)",
            crate::kept_audio::folder(journal_dir, game_id).display()
        );
    }
    let sans: Vec<String> = found.contents.record().moves.iter().map(|m| m.san.clone()).collect();
    let fen: Vec<&str> = found.contents.header.fen.split_whitespace().collect();
    let black_first = fen.get(1) == Some(&"b");
    let first_number: usize = fen.get(5).and_then(|n| n.parse().ok()).unwrap_or(1);
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut index = String::from("ply\tmove\tside\tsan\tfile\n");
    for (ply, path) in &files {
        let name = crate::kept_audio::file_name(*ply);
        let to = out.join(&name);
        std::fs::copy(path, &to).with_context(|| format!("cannot write {}", to.display()))?;
        let half = ply - 1 + usize::from(black_first);
        let side = if half % 2 == 0 { "white" } else { "black" };
        let san = sans.get(ply - 1).map_or("?", String::as_str);
        index.push_str(&format!("{ply}\t{}\t{side}\t{san}\t{name}\n", first_number + half / 2));
    }
    let index_path = out.join("index.tsv");
    std::fs::write(&index_path, index).with_context(|| format!("cannot write {}", index_path.display()))?;
    Ok(files.len())
}
