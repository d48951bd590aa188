//! The journal on disk: one append-only file per game, written by its own
//! thread with group commit, so the loop keeps taking input while the disk
//! works.
//!
//! The loop queues records ([`Journal`]) and closes a batch once per turn
//! that queued any (every input it read, decided or not); the writer thread
//! takes every batch that is waiting, writes them at once and fsyncs once,
//! then tells the loop how far it is durable ([`Durable`]). An event reaches
//! the player, the event stream and the console only after that (invariant
//! 3); then a `delivered` record says so, and a `said` record says which
//! words the speaker finished. A game's file stays open after its end record
//! for its last words, until the next game's is created. A kill -9 or a power
//! loss can lose at most a torn last line, which the next start cuts off (on
//! the raw bytes).
//!
//! The writer keeps the current game's bytes in memory: a journal file
//! deleted in the middle of a game is noticed after the next batch and
//! written again from memory.
//!
//! A failed write is truncated back and retried with the next batch. No input follows a game's end
//! record.

use anyhow::{Context, Result};
use crossbeam_channel::{Receiver, Sender};
use station_core::journal::{self, Contents, Header, Input, Record};
use station_core::{Event, Millis};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The directory holding the journals.
#[derive(Clone, Debug)]
pub struct JournalDir {
    dir: PathBuf,
    /// A station's hold on the folder ([`JournalDir::take`]); shared by the clones.
    _lock: Option<std::sync::Arc<crate::journal_lock::JournalLock>>,
}

/// A journal found on disk.
pub struct Found {
    /// Its file.
    pub path: PathBuf,
    /// What it holds.
    pub contents: Contents,
}

/// A journal that could not be read as it is.
pub struct Damaged {
    /// Its file.
    pub path: PathBuf,
    /// What is wrong.
    pub error: String,
}

/// What a look at the directory found.
#[derive(Default)]
pub struct Listing {
    /// Readable journals, oldest first.
    pub found: Vec<Found>,
    /// Damaged ones (left untouched on disk).
    pub damaged: Vec<Damaged>,
}

impl JournalDir {
    /// Opens (creating if needed) the directory.
    pub fn open(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create journal directory {}", dir.display()))?;
        Ok(JournalDir { dir: dir.to_owned(), _lock: None })
    }

    /// Opens (creating if needed) the directory for a station that writes
    /// in it: its lock is taken before anything is written, and held while
    /// this value or a clone lives (issue 22 §5: one station per folder).
    pub fn take(dir: &Path) -> Result<Self> {
        let mut opened = JournalDir::open(dir)?;
        opened._lock = Some(std::sync::Arc::new(crate::journal_lock::JournalLock::take(dir)?));
        Ok(opened)
    }

    /// Opens the directory to read it only (the exports): a station running
    /// on it is said on stderr, since its current game may still grow.
    pub fn open_to_read(dir: &Path) -> Result<Self> {
        let opened = JournalDir::open(dir)?;
        if let Some(holder) = crate::journal_lock::holder(dir) {
            tracing::warn!(dir = %dir.display(), %holder, "a station is running on this journal folder");
            eprintln!(
                "station: a station ({holder}) is running on {}: its current game may still grow",
                dir.display()
            );
        }
        Ok(opened)
    }

    /// The directory itself.
    pub fn path(&self) -> &Path {
        &self.dir
    }

    /// The journal file of a game.
    pub fn file_for(&self, game_id: &str) -> PathBuf {
        self.dir.join(format!("{game_id}.jsonl"))
    }

    /// Every journal, the readable ones oldest first and the damaged ones apart.
    pub fn list(&self) -> Result<Listing> {
        let mut listing = Listing::default();
        let entries =
            std::fs::read_dir(&self.dir).with_context(|| format!("cannot list {}", self.dir.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path.extension().and_then(|e| e.to_str()) != Some("jsonl") {
                continue;
            }
            let bytes = match std::fs::read(&path) {
                Ok(bytes) => bytes,
                Err(e) => {
                    listing.damaged.push(Damaged { path, error: format!("unreadable: {e}") });
                    continue;
                }
            };
            match journal::decode(&bytes) {
                Ok(contents) => listing.found.push(Found { path, contents }),
                Err(e) => listing.damaged.push(Damaged { path, error: e.to_string() }),
            }
        }
        // Two games started in the same millisecond (a new game at once on a
        // station without a board) are `game-T` and `game-T-2`: the shorter
        // name is the older one, so `-2` sorts after it and `-10` after `-9`.
        listing.found.sort_by_key(|f| (f.contents.header.t_ms, f.path.as_os_str().len(), f.path.clone()));
        Ok(listing)
    }

    /// Every readable journal, oldest first. Damaged ones are reported and skipped
    /// (left untouched on disk for the arbiter).
    pub fn all(&self) -> Result<Vec<Found>> {
        let listing = self.list()?;
        for d in &listing.damaged {
            tracing::error!(path = %d.path.display(), error = %d.error, "journal damaged, skipped");
        }
        Ok(listing.found)
    }

    /// The journal of game `game` in `dir`, the newest when `None`: what an
    /// export of one game reads.
    pub fn game_to_read(dir: &Path, game: Option<&str>) -> Result<Found> {
        let all = Self::open_to_read(dir)?.all()?.into_iter();
        let found = match game {
            Some(id) => all.into_iter().find(|f| f.contents.header.game_id == id),
            None => all.last(),
        };
        found.with_context(|| format!("no matching game journal in {}", dir.display()))
    }

    /// Moves a damaged journal out of the way (it keeps every byte, under a
    /// name the station never reads again) and returns where it went.
    pub fn set_aside(&self, path: &Path) -> Result<PathBuf> {
        let mut aside = path.with_extension("jsonl.damaged");
        let mut n = 1;
        while aside.exists() {
            aside = path.with_extension(format!("jsonl.damaged.{n}"));
            n += 1;
        }
        std::fs::rename(path, &aside)
            .with_context(|| format!("cannot set {} aside as {}", path.display(), aside.display()))?;
        // The recording of its moves (D.2.7) goes where the journal goes.
        crate::kept_audio::set_aside_with(path, &aside);
        File::open(&self.dir).and_then(|d| d.sync_all()).ok();
        Ok(aside)
    }
}

/// What a speaker is done with, for [`Journal::said`] (the fields of [`Record::Said`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    /// Whose speaker: the blind player's earphone or the public one.
    pub listener: station_core::event::Listener,
    /// What the words were about (a move, the result).
    pub about: station_core::event::About,
    /// The ply of the move they said.
    pub ply: Option<usize>,
    /// How the speaker was done with them.
    pub outcome: station_core::event::SpeechEnd,
    /// The voice that said them, when one began.
    pub voice: Option<String>,
}

/// Sequence numbers of one game's journal, handed out by the loop.
#[derive(Debug, Default)]
struct Seq(u64);

impl Seq {
    fn take(&mut self) -> u64 {
        let s = self.0;
        self.0 += 1;
        s
    }
}

/// What the loop asks of the writer thread, in order.
enum Op {
    /// Start a new game's file with its header.
    Create { path: PathBuf, header: Box<Header> },
    /// Go on writing an existing file (cut to `valid_len`: a torn last line).
    Reopen { path: PathBuf, bytes: Vec<u8>, valid_len: usize },
    /// Rewrite a salvaged game into a fresh file.
    Rewrite { path: PathBuf, bytes: Vec<u8> },
    /// Records for the current file.
    Append(String),
    /// Everything before this is one batch; acknowledge it as `ticket`.
    Commit { ticket: u64 },
}

/// How far the journal is on disk, from the writer thread.
#[derive(Clone, Debug)]
pub struct Durable {
    /// Every batch up to this ticket is on disk (or could not be written: see `error`).
    pub ticket: u64,
    /// How many batches this fsync covered.
    pub batches: u64,
    /// How long the write and the fsync took.
    pub sync_time: Duration,
    /// The batch could not be written (disk full, device gone); it is kept in
    /// memory and written with the next batch.
    pub error: Option<String>,
    /// The journal file had been deleted and was written again from memory.
    pub rewritten: Option<PathBuf>,
}

/// Test and benchmark knobs of the writer.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriterOptions {
    /// Added to every fsync (a slow disk, in tests and `station bench`).
    pub extra_sync_delay: Duration,
}

/// The loop's side of the journal: queues records, closes batches, and
/// learns from [`Journal::durable`] what is on disk.
pub struct Journal {
    ops: Sender<Op>,
    durable: Receiver<Durable>,
    thread: Option<JoinHandle<()>>,
    seq: Seq,
    /// The game whose file is open, if one is.
    open: Option<String>,
    /// Its end record is written: only its last words follow.
    ended: bool,
    /// The last `delivered` record queued: its game and sequence number.
    marked: Option<(String, u64)>,
    pending: String,
    next_ticket: u64,
    committed: u64,
}

impl Journal {
    /// Starts the writer thread.
    pub fn start(options: WriterOptions) -> Result<Journal> {
        let (ops, ops_rx) = crossbeam_channel::unbounded();
        let (durable_tx, durable) = crossbeam_channel::unbounded();
        let thread = std::thread::Builder::new()
            .name("journal-writer".into())
            .spawn(move || Writer::new(options).run(&ops_rx, &durable_tx))
            .context("cannot start the journal writer thread")?;
        Ok(Journal {
            ops,
            durable,
            thread: Some(thread),
            seq: Seq(1),
            open: None,
            ended: false,
            marked: None,
            pending: String::new(),
            next_ticket: 1,
            committed: 0,
        })
    }

    /// Starts a new game's journal.
    pub fn create(&mut self, dir: &JournalDir, header: Header) {
        self.flush_pending();
        let path = dir.file_for(&header.game_id);
        self.opened(&header.game_id, false);
        self.send(Op::Create { path, header: Box::new(header) });
        self.seq = Seq(1);
    }

    /// Continues a journal found on disk (a finished game's takes only its last words).
    pub fn reopen(&mut self, found: &Found, bytes: Vec<u8>) {
        self.flush_pending();
        self.send(Op::Reopen { path: found.path.clone(), bytes, valid_len: found.contents.valid_len });
        self.seq = Seq(found.contents.next_seq());
        self.opened(&found.contents.header.game_id, found.contents.finished());
    }

    fn opened(&mut self, game_id: &str, ended: bool) {
        self.open = Some(game_id.to_owned());
        self.ended = ended;
        self.marked = None;
    }

    /// Writes a salvaged game into a fresh file: its header and `records`,
    /// renumbered; what follows continues it.
    pub fn rewrite(&mut self, path: PathBuf, header: Header, records: &[Record]) {
        self.flush_pending();
        let game_id = header.game_id.clone();
        let mut text = Record::Header(Box::new(header)).encode();
        text.push('\n');
        self.seq = Seq(1);
        // Old sequence numbers to new ones, for the `delivered` marks.
        let mut renumbered_seqs: Vec<(u64, u64)> = Vec::new();
        let mut ended = false;
        for r in records {
            let seq = self.seq.take();
            renumbered_seqs.push((r.seq(), seq));
            let renumbered = match r.clone() {
                Record::Input { t_ms, input, .. } => Record::Input { seq, t_ms, input },
                Record::Event { event, .. } => Record::Event { seq, event },
                Record::End { t_ms, result, .. } => {
                    ended = true;
                    Record::End { seq, t_ms, result }
                }
                Record::Said { t_ms, listener, about, ply, outcome, voice, .. } => {
                    Record::Said { seq, t_ms, listener, about, ply, outcome, voice }
                }
                Record::Delivered { game_id: Some(other), through, .. } => {
                    Record::Delivered { seq, game_id: Some(other), through }
                }
                Record::Delivered { game_id: None, through, .. } => {
                    let through =
                        renumbered_seqs.iter().filter(|(old, _)| *old <= through).map(|(_, new)| *new);
                    Record::Delivered { seq, game_id: None, through: through.max().unwrap_or(0) }
                }
                Record::Header(h) => Record::Header(h),
            };
            text.push_str(&renumbered.encode());
            text.push('\n');
        }
        self.send(Op::Rewrite { path, bytes: text.into_bytes() });
        self.opened(&game_id, ended);
    }

    /// Queues an input; returns its sequence number. A finished game's
    /// journal takes none.
    pub fn input(&mut self, t_ms: Millis, input: Input) -> Option<u64> {
        (self.open.is_some() && !self.ended).then(|| {
            let seq = self.seq.take();
            self.push(&Record::Input { seq, t_ms, input });
            seq
        })
    }

    /// Queues an event; returns its sequence number. A finished game's
    /// journal takes only its last words (announcements).
    pub fn event(&mut self, event: &Event) -> Option<u64> {
        let words = matches!(event, Event::Announcement { .. });
        (self.open.is_some() && (!self.ended || words)).then(|| {
            let seq = self.seq.take();
            self.push(&Record::Event { seq, event: event.clone() });
            seq
        })
    }

    /// Queues what a speaker is done with (see [`Record::Said`]); returns
    /// its sequence number.
    pub fn said(&mut self, t_ms: Millis, said: Said) -> Option<u64> {
        self.open.is_some().then(|| {
            let seq = self.seq.take();
            let Said { listener, about, ply, outcome, voice } = said;
            self.push(&Record::Said { seq, t_ms, listener, about, ply, outcome, voice });
            seq
        })
    }

    /// Queues a `delivered` record: every event of `game_id` up to `through`
    /// reached the subscribers. Nothing when it says nothing new, or when no
    /// journal is open.
    pub fn delivered(&mut self, game_id: &str, through: u64) {
        let Some(open) = self.open.clone() else { return };
        if self.marked.as_ref().is_some_and(|(g, s)| g == game_id && *s >= through) {
            return;
        }
        let seq = self.seq.take();
        let other = (open != game_id).then(|| game_id.to_owned());
        self.push(&Record::Delivered { seq, game_id: other, through });
        self.marked = Some((game_id.to_owned(), through));
    }

    /// Queues the end record; the game's journal then takes only its last words.
    pub fn end(&mut self, t_ms: Millis, result: &str) {
        if self.open.is_none() || self.ended {
            return;
        }
        let seq = self.seq.take();
        self.push(&Record::End { seq, t_ms, result: result.to_owned() });
        self.ended = true;
    }

    /// The game whose journal is open.
    pub fn game_id(&self) -> Option<&str> {
        self.open.as_deref()
    }

    /// Records are queued that no batch holds yet: the turn must commit them.
    pub fn has_queued(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Closes the batch of everything queued since the last one and returns
    /// its ticket: the writer acknowledges it once it is on disk.
    pub fn commit(&mut self) -> u64 {
        self.flush_pending();
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.send(Op::Commit { ticket });
        self.committed = ticket;
        ticket
    }

    /// The last ticket handed out.
    pub fn last_ticket(&self) -> u64 {
        self.committed
    }

    /// The writer's acknowledgements, for the loop to select on.
    pub fn durable(&self) -> &Receiver<Durable> {
        &self.durable
    }

    /// Waits until everything committed so far is on disk (shutdown, tests).
    pub fn wait_durable(&mut self, timeout: Duration) -> Vec<Durable> {
        let target = self.commit();
        let deadline = Instant::now() + timeout;
        let mut acks = Vec::new();
        while let Ok(d) = self.durable.recv_deadline(deadline) {
            let done = d.ticket >= target;
            acks.push(d);
            if done {
                break;
            }
        }
        acks
    }

    fn push(&mut self, record: &Record) {
        self.pending.push_str(&record.encode());
        self.pending.push('\n');
    }

    fn flush_pending(&mut self) {
        if !self.pending.is_empty() {
            let text = std::mem::take(&mut self.pending);
            self.send(Op::Append(text));
        }
    }

    fn send(&self, op: Op) {
        if self.ops.send(op).is_err() {
            tracing::error!("the journal writer thread is gone");
        }
    }
}

impl Drop for Journal {
    fn drop(&mut self) {
        self.flush_pending();
        let (ops, _) = crossbeam_channel::unbounded();
        drop(std::mem::replace(&mut self.ops, ops));
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The writer thread's state: the open file, and its bytes kept in memory.
struct Writer {
    options: WriterOptions,
    file: Option<(PathBuf, File)>,
    /// Everything the current file should hold.
    memory: Vec<u8>,
    /// How much of `memory` is in the file.
    written: usize,
    /// What happened since the last acknowledgement, for the next one.
    untold: Untold,
}

/// A write error or a rewrite not acknowledged yet.
#[derive(Default)]
struct Untold {
    error: Option<String>,
    rewritten: Option<PathBuf>,
}

impl Writer {
    fn new(options: WriterOptions) -> Self {
        Writer { options, file: None, memory: Vec::new(), written: 0, untold: Untold::default() }
    }

    fn run(mut self, ops: &Receiver<Op>, durable: &Sender<Durable>) {
        while let Ok(first) = ops.recv() {
            // Group commit: everything waiting now goes out with one fsync.
            let mut batch = vec![first];
            batch.extend(ops.try_iter());
            if let Some(ack) = self.write_batch(batch)
                && durable.send(ack).is_err()
            {
                return;
            }
        }
        let mut rewritten = None;
        let _ = self.sync(&mut rewritten);
    }

    /// Applies one group of operations with one fsync; its acknowledgement
    /// if the group holds a commit.
    fn write_batch(&mut self, batch: Vec<Op>) -> Option<Durable> {
        let mut ticket = None;
        let mut batches = 0;
        for op in batch {
            match op {
                Op::Commit { ticket: t } => {
                    ticket = Some(t);
                    batches += 1;
                }
                other => {
                    if let Err(e) = self.apply(other) {
                        self.untold.error = Some(format!("{e:#}"));
                    }
                }
            }
        }
        let started = Instant::now();
        let mut rewritten = None;
        if let Err(e) = self.sync(&mut rewritten) {
            self.untold.error = Some(format!("{e:#}"));
        }
        self.untold.rewritten = rewritten.or(self.untold.rewritten.take());
        let sync_time = started.elapsed();
        // A group without a commit (its commit is still on the way) has no
        // acknowledgement of its own: what befell it is told with the next one.
        let ticket = ticket?;
        let Untold { error, rewritten } = std::mem::take(&mut self.untold);
        Some(Durable { ticket, batches, sync_time, error, rewritten })
    }

    fn apply(&mut self, op: Op) -> Result<()> {
        match op {
            Op::Create { path, header } => {
                self.close();
                let file = OpenOptions::new()
                    .create_new(true)
                    .append(true)
                    .open(&path)
                    .with_context(|| format!("cannot create journal {}", path.display()))?;
                self.memory = Record::Header(header).encode().into_bytes();
                self.memory.push(b'\n');
                self.written = 0;
                self.file = Some((path.clone(), file));
                self.sync(&mut None)?;
                // The new file's name must survive a power loss too.
                sync_dir(&path);
            }
            Op::Reopen { path, mut bytes, valid_len } => {
                self.close();
                let file = OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .with_context(|| format!("cannot open journal {}", path.display()))?;
                if bytes.len() > valid_len {
                    tracing::warn!(path = %path.display(), "cutting off a torn last line");
                    file.set_len(valid_len as u64)?;
                    file.sync_all()?;
                    bytes.truncate(valid_len);
                }
                self.written = bytes.len();
                self.memory = bytes;
                self.file = Some((path, file));
            }
            Op::Rewrite { path, bytes } => {
                self.close();
                let file = OpenOptions::new()
                    .create(true)
                    .truncate(true)
                    .write(true)
                    .open(&path)
                    .with_context(|| format!("cannot create journal {}", path.display()))?;
                self.memory = bytes;
                self.written = 0;
                self.file = Some((path.clone(), file));
                self.sync(&mut None)?;
                sync_dir(&path);
            }
            Op::Append(text) => self.memory.extend_from_slice(text.as_bytes()),
            Op::Commit { .. } => {}
        }
        Ok(())
    }

    /// Writes what is not in the file yet and waits for the disk. A file that
    /// was deleted meanwhile is created again from memory.
    fn sync(&mut self, rewritten: &mut Option<PathBuf>) -> Result<()> {
        let Some((path, file)) = self.file.as_mut() else { return Ok(()) };
        if file.metadata().map(|m| m.nlink() == 0).unwrap_or(false) || !path.exists() {
            tracing::error!(path = %path.display(), "the journal file was deleted; writing it again from memory");
            *file = OpenOptions::new()
                .create(true)
                .truncate(true)
                .write(true)
                .open(&*path)
                .with_context(|| format!("cannot create journal {}", path.display()))?;
            self.written = 0;
            *rewritten = Some(path.clone());
        }
        if self.written == self.memory.len() {
            return Ok(());
        }
        if let Err(e) = file.write_all(&self.memory[self.written..]).and_then(|()| file.sync_data()) {
            // A partial write must not leave half a line before the retry.
            let _ = file.set_len(self.written as u64);
            return Err(e).with_context(|| format!("cannot write journal {}", path.display()));
        }
        if !self.options.extra_sync_delay.is_zero() {
            std::thread::sleep(self.options.extra_sync_delay);
        }
        self.written = self.memory.len();
        if rewritten.is_some() {
            sync_dir(path);
        }
        Ok(())
    }

    fn close(&mut self) {
        self.file = None;
        self.memory.clear();
        self.written = 0;
    }
}

fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        File::open(dir).and_then(|d| d.sync_all()).ok();
    }
}

#[cfg(test)]
mod tests;
