//! One station per journal folder (issue 22 §5): a lock file in the folder,
//! held with `flock` for the process's lifetime and naming its holder's pid.
//!
//! Two stations appending to the same game would interleave their sequence
//! numbers; the second one must stop before it writes anything. The kernel
//! drops the lock when the holder dies (even on kill -9), so a file left
//! behind without a lock is simply taken over.
//!
//! The lock file is `station.lock`. `JournalDir::take` is for `run` and the demos;
//! `JournalDir::open_to_read` reads without it and says on stderr when a station holds the
//! folder. The exports say it once, in a plain sentence, through `station-export`'s `select`.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The lock file's name inside the journal folder (the journal listing reads
/// only `*.jsonl`).
pub const LOCK_FILE: &str = "station.lock";

/// Why the folder cannot be taken.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds the folder.
    #[error(
        "the journal folder {dir} is in use by another station ({holder}): stop it, or give this one another folder (--journal-dir)"
    )]
    Held {
        /// The folder.
        dir: PathBuf,
        /// "process N", or "a process that did not write its pid".
        holder: Holder,
    },
    /// The lock file cannot be opened or locked.
    #[error("cannot lock the journal folder {dir} ({file}): {source}")]
    Io {
        /// The folder.
        dir: PathBuf,
        /// The lock file.
        file: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// Who holds a folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Holder {
    /// The pid written in the lock file, when it could be read.
    pub pid: Option<u32>,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pid {
            Some(pid) => write!(f, "process {pid}"),
            None => f.write_str("a process that has not written its pid yet"),
        }
    }
}

/// The held lock; dropping it (or the process ending) frees the folder.
#[derive(Debug)]
pub struct JournalLock {
    _file: File,
}

impl JournalLock {
    /// Takes the folder `dir` (which must exist) for this process.
    ///
    /// # Errors
    /// [`LockError::Held`] naming the holder when another process has it.
    pub fn take(dir: &Path) -> Result<JournalLock, LockError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| LockError::Io { dir: dir.to_owned(), file: path.clone(), source };
        let mut file =
            OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path).map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(LockError::Held {
                    dir: dir.to_owned(),
                    holder: Holder { pid: read_pid(&mut file) },
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        // Ours now: a stale pid from a dead holder is replaced.
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        file.sync_all().map_err(io)?;
        Ok(JournalLock { _file: file })
    }
}

/// Who holds `dir`, if anyone — without taking it (export and doctor only
/// look). `None` also when there is no lock file or it cannot be read.
pub fn holder(dir: &Path) -> Option<Holder> {
    let mut file = File::open(dir.join(LOCK_FILE)).ok()?;
    match file.try_lock_shared() {
        Ok(()) => None,
        Err(TryLockError::WouldBlock) => Some(Holder { pid: read_pid(&mut file) }),
        Err(TryLockError::Error(_)) => None,
    }
}

fn read_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(32).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        crate::station::test_support::scratch(&format!("lock-{name}"))
    }

    #[test]
    fn a_second_taker_is_refused_with_the_holders_pid_until_the_first_lets_go() {
        let dir = scratch("second");
        let first = JournalLock::take(&dir).unwrap();
        assert_eq!(holder(&dir), Some(Holder { pid: Some(std::process::id()) }));
        let err = JournalLock::take(&dir).unwrap_err();
        let text = err.to_string();
        assert!(text.contains(&dir.display().to_string()), "{text}");
        assert!(text.contains(&format!("process {}", std::process::id())), "{text}");
        drop(first);
        assert_eq!(holder(&dir), None);
        JournalLock::take(&dir).unwrap();
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_stale_file_without_a_lock_is_taken_over() {
        let dir = scratch("stale");
        std::fs::write(dir.join(LOCK_FILE), "999999999\nrest of an old file\n").unwrap();
        assert_eq!(holder(&dir), None);
        let _lock = JournalLock::take(&dir).unwrap();
        let written = std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap();
        assert_eq!(written, format!("{}\n", std::process::id()));
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn garbage_in_a_held_file_is_a_holder_without_a_pid() {
        let dir = scratch("garbage");
        let mut held =
            OpenOptions::new().write(true).create(true).truncate(true).open(dir.join(LOCK_FILE)).unwrap();
        held.write_all(b"\xff\xfe not a pid").unwrap();
        held.lock().unwrap();
        let err = JournalLock::take(&dir).unwrap_err();
        assert!(matches!(err, LockError::Held { holder: Holder { pid: None }, .. }), "{err}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
