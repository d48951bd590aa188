//! The journal on disk: one append-only file per game, fsync'd after every batch.
//!
//! A record reaches the event stream only after it is on disk, so a kill -9 or a
//! power loss can lose at most a torn last line, which the next start cuts off.

use anyhow::{Context, Result};
use station_core::journal::{self, Contents, Header, Input, Record};
use station_core::{Event, Millis};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The directory holding the journals.
#[derive(Clone, Debug)]
pub struct JournalDir {
    dir: PathBuf,
}

/// A journal found on disk.
pub struct Found {
    /// Its file.
    pub path: PathBuf,
    /// What it holds.
    pub contents: Contents,
}

impl JournalDir {
    /// Opens (creating if needed) the directory.
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create journal directory {}", dir.display()))?;
        Ok(JournalDir { dir: dir.to_owned() })
    }

    /// The file of a game.
    pub fn file_for(&self, game_id: &str) -> PathBuf {
        self.dir.join(format!("{game_id}.jsonl"))
    }

    /// Every readable journal, oldest first. Damaged ones are reported and skipped
    /// (left untouched on disk for the arbiter).
    pub fn all(&self) -> Result<Vec<Found>> {
        let mut found = Vec::new();
        let entries =
            std::fs::read_dir(&self.dir).with_context(|| format!("cannot list {}", self.dir.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
                continue;
            }
            let text = match std::fs::read(&path) {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(e) => {
                    tracing::warn!(path = %path.display(), error = %e, "journal unreadable, skipped");
                    continue;
                }
            };
            match journal::decode(&text) {
                Ok(contents) => found.push(Found { path, contents }),
                Err(e) => tracing::error!(path = %path.display(), error = %e, "journal damaged, skipped"),
            }
        }
        found.sort_by_key(|f| (f.contents.header.t_ms, f.path.clone()));
        Ok(found)
    }

    /// The newest game without an end record.
    pub fn newest_unfinished(&self) -> Result<Option<Found>> {
        Ok(self.all()?.into_iter().rev().find(|f| !f.contents.finished()))
    }

    /// Starts the journal of a new game.
    pub fn create(&self, header: Header) -> Result<JournalWriter> {
        let path = self.file_for(&header.game_id);
        let file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(&path)
            .with_context(|| format!("cannot create journal {}", path.display()))?;
        let mut writer = JournalWriter { file, path, next_seq: 1, pending: String::new() };
        writer.push(&Record::Header(Box::new(header)));
        writer.sync()?;
        // The new file's name must survive a power loss too.
        File::open(&self.dir).and_then(|d| d.sync_all()).ok();
        Ok(writer)
    }
}

/// Appends records to one game's journal.
pub struct JournalWriter {
    file: File,
    path: PathBuf,
    next_seq: u64,
    pending: String,
}

impl JournalWriter {
    /// Continues a journal found on disk, cutting off a torn last line.
    pub fn reopen(found: &Found) -> Result<Self> {
        let file = OpenOptions::new()
            .append(true)
            .open(&found.path)
            .with_context(|| format!("cannot open journal {}", found.path.display()))?;
        if found.contents.torn_tail {
            tracing::warn!(path = %found.path.display(), "cutting off a torn last line");
            file.set_len(found.contents.valid_len as u64)?;
            file.sync_all()?;
        }
        Ok(JournalWriter {
            file,
            path: found.path.clone(),
            next_seq: found.contents.next_seq(),
            pending: String::new(),
        })
    }

    /// Queues an input.
    pub fn input(&mut self, t_ms: Millis, input: Input) {
        let seq = self.take_seq();
        self.push(&Record::Input { seq, t_ms, input });
    }

    /// Queues an event.
    pub fn event(&mut self, event: &Event) {
        let seq = self.take_seq();
        self.push(&Record::Event { seq, event: event.clone() });
    }

    /// Queues the end record.
    pub fn end(&mut self, t_ms: Millis, result: &str) {
        let seq = self.take_seq();
        self.push(&Record::End { seq, t_ms, result: result.to_owned() });
    }

    /// Writes the queued records and waits until they are on disk.
    pub fn sync(&mut self) -> Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        self.file
            .write_all(self.pending.as_bytes())
            .and_then(|()| self.file.sync_data())
            .with_context(|| format!("cannot write journal {}", self.path.display()))?;
        self.pending.clear();
        Ok(())
    }

    fn take_seq(&mut self) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        seq
    }

    fn push(&mut self, record: &Record) {
        self.pending.push_str(&record.encode());
        self.pending.push('\n');
    }
}
