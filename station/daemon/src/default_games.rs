//! The repository's games, for `station replay` and `station bench` when no
//! `--pgn` or `--pdn` files are given.
//!
//! They are looked for in the current folder and the folders above it (a clone
//! of the repository, wherever it is), never in a path fixed at build time: an
//! installed station has no repository, and then the message names the flag.

use anyhow::{Result, bail};
use std::path::{Path, PathBuf};

/// A collection of games kept in the repository's `tests/data`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Collection {
    /// The chess games (`tests/data/pgn/games/*.pgn`).
    Chess,
    /// The games with `[%clk]` comments (`tests/data/pgn/clock/*.pgn`).
    Clock,
    /// The international draughts games (`tests/data/draughts/*.pdn`).
    Draughts,
}

impl Collection {
    /// The folder in the repository and the files' extension.
    fn place(self) -> (&'static str, &'static str) {
        match self {
            Collection::Chess => ("tests/data/pgn/games", "pgn"),
            Collection::Clock => ("tests/data/pgn/clock", "pgn"),
            Collection::Draughts => ("tests/data/draughts", "pdn"),
        }
    }

    /// The flag that names such files.
    fn flag(self) -> &'static str {
        match self {
            Collection::Chess | Collection::Clock => "--pgn",
            Collection::Draughts => "--pdn",
        }
    }
}

/// The files given, or the collection's files from the repository around the
/// current folder when none were given.
pub fn or_default(given: Vec<PathBuf>, collection: Collection) -> Result<Vec<PathBuf>> {
    if !given.is_empty() {
        return Ok(given);
    }
    let here = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    find(&here, collection)
}

/// The collection's files in the first of `start` and the folders above it
/// that holds them, sorted by name.
fn find(start: &Path, collection: Collection) -> Result<Vec<PathBuf>> {
    let (folder, ext) = collection.place();
    for root in start.ancestors() {
        let Ok(entries) = std::fs::read_dir(root.join(folder)) else { continue };
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == ext) && p.is_file())
            .collect();
        if !files.is_empty() {
            files.sort();
            return Ok(files);
        }
    }
    bail!(
        "no games given, and no clone of the station's repository here to take its games from: \
         give {} FILE… (in a clone: {folder}/*.{ext})",
        collection.flag()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repository() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
    }

    #[test]
    fn the_repository_s_games_are_found_from_any_folder_inside_it() {
        let inside = repository().join("station/daemon/src");
        let chess = find(&inside, Collection::Chess).unwrap();
        let names: Vec<_> = chess.iter().filter_map(|p| p.file_name()?.to_str()).collect();
        assert!(names.contains(&"Fischer.pgn") && names.contains(&"Kasparov.pgn"), "{names:?}");
        assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted: {names:?}");
        let draughts = find(&inside, Collection::Draughts).unwrap();
        assert!(draughts.iter().all(|p| p.extension().is_some_and(|x| x == "pdn")) && !draughts.is_empty());
        let clock = find(&repository(), Collection::Clock).unwrap();
        assert!(clock.iter().any(|p| p.ends_with("lichess_db_100k.pgn")), "{clock:?}");
    }

    #[test]
    fn given_files_are_kept_as_they_are() {
        let given = vec![PathBuf::from("/nowhere/a.pgn")];
        assert_eq!(or_default(given.clone(), Collection::Chess).unwrap(), given);
    }

    #[test]
    fn outside_a_clone_the_message_names_the_flag() {
        let dir = std::env::temp_dir().join(format!("no-repository-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let chess = find(&dir, Collection::Chess).unwrap_err().to_string();
        assert!(chess.contains("give --pgn FILE") && chess.contains("tests/data/pgn/games/*.pgn"), "{chess}");
        let draughts = find(&dir, Collection::Draughts).unwrap_err().to_string();
        assert!(draughts.contains("give --pdn FILE"), "{draughts}");
        let _ = std::fs::remove_dir(&dir);
    }
}
