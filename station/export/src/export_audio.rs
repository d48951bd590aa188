//! `station export --audio DIR`: the recording device of D.2.7 written out —
//! the kept sound of each spoken move of one game (`[speech] keep_audio`),
//! one WAV per ply, with an index naming each ply's move.
//!
//! The files are `ply-NNN.wav` and an `index.tsv` (ply, move number, side, SAN, file).

use anyhow::{Context, Result, bail};
use std::path::Path;

/// Copies game `game`'s (the newest when `None`) kept sound to `out`:
/// `ply-023.wav` …, and `index.tsv` (ply, move number, side, SAN, file).
/// Returns the number of files written.
pub fn export_audio(journal_dir: &Path, game: Option<&str>, out: &Path) -> Result<usize> {
    let found = crate::export::one_game(journal_dir, game)?;
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

/// The recording device through the daemon's own path for heard speech
/// (`Station::handle_heard`, as the listening thread feeds it; the sound is
/// made up, the recogniser's words given): a spoken move accepted keeps its
/// sound, and `station export --audio` writes it out with an index.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::kept_audio::list;
    use station_app::station::test_support::{first_game_id, keeping_station, say_with_sound, tone};
    use station_core::Event;

    #[test]
    fn an_accepted_spoken_move_keeps_its_sound_and_a_rejected_phrase_does_not() {
        let (mut station, journal, events) = keeping_station("kept");
        let game = first_game_id(&journal);
        say_with_sound(&mut station, "Tisch", &tone());
        assert!(list(&journal, &game).is_empty(), "no move, no sound kept");
        say_with_sound(&mut station, "Eva vier", &tone());
        let kept = list(&journal, &game);
        assert_eq!(kept.iter().map(|(p, _)| *p).collect::<Vec<_>>(), [1]);
        let bytes = std::fs::read(&kept[0].1).unwrap();
        assert_eq!(bytes.len(), 44 + 2 * tone().len());
        assert_eq!(&bytes[44..46], &tone()[0].to_le_bytes());
        let moves = events.lock().unwrap().iter().filter(|e| matches!(e, Event::GameMove { .. })).count();
        assert_eq!(moves, 1);
        // `station export --audio DIR`: the WAV and an index naming the move.
        drop(station);
        let out = journal.with_file_name("audio-out");
        assert_eq!(export_audio(&journal, Some(&game), &out).unwrap(), 1);
        assert_eq!(std::fs::read(out.join("ply-001.wav")).unwrap(), bytes);
        let index = std::fs::read_to_string(out.join("index.tsv")).unwrap();
        assert_eq!(index, "ply\tmove\tside\tsan\tfile\n1\t1\twhite\te4\tply-001.wav\n");
        let err = export_audio(&journal, Some("no-such-game"), &out).unwrap_err();
        assert!(err.to_string().contains("no game `no-such-game` in"), "{err}");
    }
}
