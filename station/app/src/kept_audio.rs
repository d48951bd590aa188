//! The recording device of Annex D.2.7 (issue 18): with `[speech]
//! keep_audio = true` the sound of each spoken move the station accepted is
//! kept beside the game's journal, one WAV per ply
//! (`<journal-dir>/<game>.audio/ply-023.wav`, 16 kHz mono 16-bit), so the
//! arbiter can play it back in a D.2.8 or D.2.9 dispute.
//!
//! The audio is never part of the journal: a write that fails (a full disk)
//! loses that move's sound, is reported once with the reason, and touches
//! neither the journal nor the game. A game keeps at most `keep_audio_max_mb`;
//! the folder goes where the journal goes — set aside with a damaged journal,
//! deleted when its journal is gone ([`prune_orphans`] at start).
//! Writes go through [`AudioWriter`] so a test can make the disk fail.
//!
//! A failed write is told once as `device_status` `recording`. The kept files are listed in
//! `/api/state` `audio` and served at `/audio/{file}`.

use std::io;
use std::path::{Path, PathBuf};

/// Sample rate of the kept sound (what the recogniser was given).
pub const RATE: u32 = 16_000;

/// Where the bytes go: the file system, or a test's failing disk.
pub trait AudioWriter {
    /// Writes `bytes` as the whole file `path` (its folder exists).
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()>;
}

/// The file system: a new file renamed into place, never half a WAV under its name.
pub struct FsWriter;

impl AudioWriter for FsWriter {
    fn write(&mut self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let tmp = path.with_extension("wav.new");
        let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
        if written.is_err() {
            // A full disk leaves no partial file behind.
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }
}

/// The audio folder of the journal `journal` (`game.jsonl` → `game.audio`).
pub fn folder_of_journal(journal: &Path) -> PathBuf {
    journal.with_extension("audio")
}

/// The audio folder of game `game_id` in `journal_dir`.
pub fn folder(journal_dir: &Path, game_id: &str) -> PathBuf {
    journal_dir.join(format!("{game_id}.audio"))
}

/// The file of one ply (1-based).
pub fn file_name(ply: usize) -> String {
    format!("ply-{ply:03}.wav")
}

/// The plies with kept sound in a game's folder, in order, with their files.
pub fn list(journal_dir: &Path, game_id: &str) -> Vec<(usize, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(folder(journal_dir, game_id)) else { return Vec::new() };
    let mut out: Vec<(usize, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let ply = name.strip_prefix("ply-")?.strip_suffix(".wav")?.parse().ok()?;
            Some((ply, e.path()))
        })
        .collect();
    out.sort();
    out
}

/// Deletes the audio folders whose journal is gone (deleted by the operator):
/// the recording goes with the record. Returns the folders deleted.
pub fn prune_orphans(journal_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(journal_dir) else { return Vec::new() };
    let mut pruned = Vec::new();
    for path in entries.filter_map(|e| e.ok()).map(|e| e.path()) {
        // `game.audio` belongs to `game.jsonl`; a set-aside one
        // (`game.jsonl.damaged.audio`) to the file it is named after.
        let owner_exists = path.with_extension("jsonl").exists() || path.with_extension("").is_file();
        if path.is_dir()
            && path.extension().and_then(|e| e.to_str()) == Some("audio")
            && !owner_exists
            && std::fs::remove_dir_all(&path).is_ok()
        {
            tracing::info!(path = %path.display(), "audio of a deleted journal deleted");
            pruned.push(path);
        }
    }
    pruned
}

/// Sets a game's audio aside with its damaged journal (`game.jsonl` set
/// aside as `aside`): `game.audio` becomes `<aside>.audio`.
pub fn set_aside_with(journal: &Path, aside: &Path) {
    let from = folder_of_journal(journal);
    if from.is_dir() {
        let to = PathBuf::from(format!("{}.audio", aside.display()));
        if let Err(e) = std::fs::rename(&from, &to) {
            tracing::warn!(from = %from.display(), error = %e, "audio not set aside with its journal");
        }
    }
}

/// A WAV file (RIFF, PCM 16-bit mono) of `samples` at `rate`, written by hound.
///
/// # Errors
/// [`io::ErrorKind::FileTooLarge`] when the samples do not fit a WAV file (4 GiB).
pub fn wav_bytes(samples: &[i16], rate: u32) -> io::Result<Vec<u8>> {
    station_audio::wav::encode_wav(samples, rate)
        .map_err(|e| io::Error::new(io::ErrorKind::FileTooLarge, e.to_string()))
}

/// Why a move's sound was not kept.
#[derive(Debug, thiserror::Error)]
pub enum NotKept {
    /// The game's bound is reached.
    #[error("the game's audio has reached its bound of {max_mb} MiB; later moves are not kept")]
    Full {
        /// The bound.
        max_mb: u32,
    },
    /// The disk refused (full, read-only, gone).
    #[error("the audio of ply {ply} could not be written to {path}: {source}")]
    Write {
        /// The ply.
        ply: usize,
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

/// Keeps the spoken moves' sound of the games in one journal directory.
pub struct AudioKeeper {
    journal_dir: PathBuf,
    max_bytes: u64,
    max_mb: u32,
    writer: Box<dyn AudioWriter>,
    /// Bytes kept per game so far (by game id), counted from the disk once.
    kept: std::collections::HashMap<String, u64>,
}

impl AudioKeeper {
    /// A keeper writing to the file system, at most `max_mb` MiB a game.
    pub fn new(journal_dir: &Path, max_mb: u32) -> AudioKeeper {
        AudioKeeper::with_writer(journal_dir, max_mb, Box::new(FsWriter))
    }

    /// A keeper writing through `writer` (tests: a disk that fails).
    pub fn with_writer(journal_dir: &Path, max_mb: u32, writer: Box<dyn AudioWriter>) -> AudioKeeper {
        AudioKeeper {
            journal_dir: journal_dir.to_owned(),
            max_bytes: u64::from(max_mb) * 1024 * 1024,
            max_mb,
            writer,
            kept: Default::default(),
        }
    }

    /// Keeps the sound of ply `ply` of game `game_id` (a ply said again
    /// replaces its file); returns the file written.
    pub fn keep(&mut self, game_id: &str, ply: usize, samples: &[i16]) -> Result<PathBuf, NotKept> {
        let dir = folder(&self.journal_dir, game_id);
        let path = dir.join(file_name(ply));
        let bytes = match wav_bytes(samples, RATE) {
            Ok(bytes) => bytes,
            Err(source) => return Err(NotKept::Write { ply, path, source }),
        };
        let journal_dir = self.journal_dir.clone();
        let kept = self.kept.entry(game_id.to_owned()).or_insert_with(|| {
            list(&journal_dir, game_id).iter().filter_map(|(_, p)| p.metadata().ok()).map(|m| m.len()).sum()
        });
        let replaced = path.metadata().map_or(0, |m| m.len());
        let after = kept.saturating_sub(replaced).saturating_add(bytes.len() as u64);
        if after > self.max_bytes {
            return Err(NotKept::Full { max_mb: self.max_mb });
        }
        let written = std::fs::create_dir_all(&dir).and_then(|()| self.writer.write(&path, &bytes));
        match written {
            Ok(()) => {
                *kept = after;
                Ok(path)
            }
            Err(source) => Err(NotKept::Write { ply, path, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A disk that is full: every write fails as a real one would.
    pub(super) struct FullDisk;

    impl AudioWriter for FullDisk {
        fn write(&mut self, _: &Path, _: &[u8]) -> io::Result<()> {
            Err(io::Error::new(io::ErrorKind::StorageFull, "No space left on device"))
        }
    }

    fn temp(name: &str) -> PathBuf {
        crate::station::test_support::scratch(&format!("kept-audio-{name}"))
    }

    #[test]
    fn each_ply_is_a_wav_beside_the_journal_within_the_bound() {
        let dir = temp("bound");
        std::fs::write(dir.join("g1.jsonl"), "{}\n").unwrap();
        // 1 MiB a game: two 20 s moves (640 KB each) do not fit.
        let mut keeper = AudioKeeper::new(&dir, 1);
        let move_sound: Vec<i16> = (0..20 * 16_000).map(|i| ((i % 100) as i16 - 50) * 300).collect();
        let path = keeper.keep("g1", 23, &move_sound).unwrap();
        assert_eq!(path, dir.join("g1.audio/ply-023.wav"));
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..4], b"RIFF");
        assert_eq!(bytes.len(), 44 + move_sound.len() * 2);
        // Said again: the file is replaced, the bound counts it once.
        keeper.keep("g1", 23, &move_sound).unwrap();
        let err = keeper.keep("g1", 25, &move_sound).unwrap_err();
        assert!(matches!(err, NotKept::Full { max_mb: 1 }), "{err}");
        assert_eq!(list(&dir, "g1").iter().map(|(p, _)| *p).collect::<Vec<_>>(), [23]);
        // A fresh keeper (a restart) counts what is on disk.
        let err = AudioKeeper::new(&dir, 1).keep("g1", 25, &move_sound).unwrap_err();
        assert!(matches!(err, NotKept::Full { .. }));
        // Set aside with its damaged journal, then gone when the journal is.
        let aside = dir.join("g1.jsonl.damaged");
        std::fs::rename(dir.join("g1.jsonl"), &aside).unwrap();
        set_aside_with(&dir.join("g1.jsonl"), &aside);
        assert!(dir.join("g1.jsonl.damaged.audio/ply-023.wav").exists());
        keeper.keep("g2", 1, &move_sound[..1600]).unwrap();
        assert_eq!(prune_orphans(&dir), [dir.join("g2.audio")]);
        assert!(!dir.join("g2.audio").exists());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_full_disk_is_a_clear_error_and_leaves_nothing() {
        let dir = temp("full");
        let mut keeper = AudioKeeper::with_writer(&dir, 64, Box::new(FullDisk));
        let err = keeper.keep("g1", 3, &[1, 2, 3]).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("ply 3") && text.contains("No space left on device"), "{text}");
        assert!(list(&dir, "g1").is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// The recording device through the daemon's own path for heard speech
/// (`Station::handle_heard`, as the listening thread feeds it; the sound is
/// made up, the recogniser's words given): a full disk is told clearly once,
/// the game goes on and the journal is the same. A spoken move keeping its
/// sound is tested with its export (station-export, `export_audio`).
#[cfg(test)]
mod station_tests {
    use super::tests::FullDisk;
    use super::*;
    use crate::station::test_support::{first_game_id, keeping_station, say_with_sound, tone};
    use station_core::Event;

    #[test]
    fn a_full_disk_is_told_once_and_the_game_and_the_journal_go_on() {
        let (mut station, journal, events) = keeping_station("full");
        station.keep_audio_through(Box::new(FullDisk));
        let game = first_game_id(&journal);
        say_with_sound(&mut station, "Eva vier", &tone());
        let journal_file = journal.join(format!("{game}.jsonl"));
        let text = std::fs::read_to_string(&journal_file).unwrap();
        assert!(text.contains("\"game_move\"") && text.contains("e2e4"), "the move is journaled");
        let told: Vec<Event> = events
            .lock()
            .unwrap()
            .iter()
            .filter(|e| matches!(e, Event::DeviceStatus { device, .. } if device == "recording"))
            .cloned()
            .collect();
        let [Event::DeviceStatus { status, detail: Some(detail), .. }] = &told[..] else {
            panic!("one recording status: {told:?}")
        };
        assert_eq!(status, "unavailable");
        assert!(
            detail.contains("ply 1")
                && detail.contains("No space left on device")
                && detail.contains("the game goes on"),
            "{detail}"
        );
        assert!(list(&journal, &game).is_empty());
        // The journal is a journal: it restores the game with its move.
        let contents = station_core::journal::decode(std::fs::read(&journal_file).unwrap()).unwrap();
        let restored = station_core::journal::restore(&contents).unwrap();
        assert_eq!(restored.table.agreed().unwrap().ply(), 1);
    }
}
