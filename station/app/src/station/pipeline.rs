//! The pipeline: journal first, then the world. What the table decides in a
//! turn of the loop is journaled as one batch; once the writer says it is on
//! disk, its events go to the voices, the subscribers and the console, and the
//! commands answered by it get their answers.
//!
//! It holds the journal writer, the batches waiting for the disk, the answers waiting for their
//! batch and the subscribers: `decide` journals a turn's events (a new game opens a journal file),
//! `flush` closes the batch, `on_durable` and `deliver_to` hand it on once it is on disk.

use super::*;
use crate::delivery::{Audience, Delivered, Pending, Subscriber};
use crate::journal_file::{Journal, JournalDir};
use serde_json::Value;
use std::time::Duration;

/// An operator command's answer, sent once what it decided is out.
pub(super) struct Reply {
    pub to: crossbeam_channel::Sender<Result<Value, String>>,
    pub answer: Result<Value, String>,
}

/// Figures of the decision pipeline, for the log and `station bench`.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipelineStats {
    /// Journal batches made durable.
    pub batches: u64,
    /// The longest write + fsync of one batch.
    pub longest_sync: Duration,
    /// The sum of all batches' write + fsync time.
    pub total_sync: Duration,
    /// The longest time the loop spent on one turn (it takes no input meanwhile).
    pub longest_turn: Duration,
    /// Inputs the table refused (journaled with their reason).
    pub refused: u64,
}

/// The journal writer and what waits for it.
pub(super) struct Pipeline {
    pub journals: JournalDir,
    /// The journal writer (its own thread, group commit).
    pub journal: Journal,
    /// Who hears of durable events: the event stream, the console's live
    /// feed, the demo's printer (the voices come first, on their own).
    pub subscribers: Vec<Box<dyn Subscriber>>,
    /// Events decided in this turn of the loop, not yet committed.
    pub decided: Vec<Delivered>,
    /// Committed batches waiting for the disk, oldest first.
    pub pending: Pending,
    /// The journal could not be written (told once).
    pub journal_failed: bool,
    /// Operator commands whose answer waits for the next batch.
    pub unanswered: Vec<Reply>,
    /// Answers waiting for their batch (by ticket) to be durable and delivered.
    pub answers: Vec<(u64, Reply)>,
    /// Figures of the pipeline: the longest fsync batch and loop stall.
    pub stats: PipelineStats,
}

impl Pipeline {
    /// A pipeline writing game journals into `journals` through `journal`.
    pub fn new(journals: JournalDir, journal: Journal, subscribers: Vec<Box<dyn Subscriber>>) -> Self {
        Pipeline {
            journals,
            journal,
            subscribers,
            decided: Vec::new(),
            pending: Pending::default(),
            journal_failed: false,
            unanswered: Vec::new(),
            answers: Vec::new(),
            stats: PipelineStats::default(),
        }
    }

    /// Ends a turn of the loop: what was decided in it is one batch for the
    /// journal writer, delivered when the writer says it is on disk.
    pub fn flush(&mut self) {
        // Every input read in the turn is on disk with it, decided or not: a
        // stop before the next decision must not lose what the board showed.
        if self.decided.is_empty() && self.unanswered.is_empty() && !self.journal.has_queued() {
            return;
        }
        let ticket = self.journal.commit();
        self.pending.push(ticket, std::mem::take(&mut self.decided));
        self.answers.extend(self.unanswered.drain(..).map(|r| (ticket, r)));
    }

    /// Sends the answers whose batch (up to `ticket`) is out; one whose
    /// command decided more since (said because of it) waits for the next.
    pub fn answer_through(&mut self, ticket: u64) {
        let (due, later): (Vec<_>, Vec<_>) =
            std::mem::take(&mut self.answers).into_iter().partition(|(t, _)| *t <= ticket);
        self.answers = later;
        for (_, reply) in due {
            if self.decided.is_empty() {
                let _ = reply.to.send(reply.answer);
            } else {
                self.unanswered.push(reply);
            }
        }
    }

    /// Nothing decided is waiting for the disk or an answer.
    pub fn is_idle(&self) -> bool {
        self.pending.is_empty() && self.answers.is_empty()
    }

    /// Adds a durable batch's figures.
    pub fn count(&mut self, batches: u64, sync_time: Duration) {
        self.stats.batches += batches;
        self.stats.total_sync += sync_time;
        self.stats.longest_sync = self.stats.longest_sync.max(sync_time);
    }
}

impl Station {
    pub(super) fn publish_state(&self) {
        let Some(hub) = &self.hub else { return };
        let log: Vec<Event> = self.console.log.iter().cloned().collect();
        let extras = crate::snapshot::Extras {
            connected: ByBoard::from_fn(|role| self.links[role].connected),
            discrepancies: &self.console.discrepancies,
            log: &log,
        };
        let t = self.clock.now();
        let mut snapshot = crate::snapshot::build(&self.table, &self.config, &extras, t);
        // The latest change to the record, one line per page language (the mirror).
        let change = self.voices.as_ref().and_then(|v| v.get().mirror_change());
        if let Some(object) = snapshot.as_object_mut() {
            object.insert("change".into(), change.unwrap_or(Value::Null));
            // A practice game and who plays it (the pages say so).
            object.insert("practice".into(), self.practice.state(self.table.config().blind_color));
        }
        if self.recorder.keeper.is_some() {
            // The recording device (D.2.7): the kept sound per ply, for the console.
            let files = match self.table.game_id() {
                Some(game) => crate::kept_audio::list(self.pipeline.journals.path(), game),
                None => Vec::new(),
            };
            let listed: Vec<Value> = files
                .iter()
                .map(|(ply, _)| json!({"ply": ply, "url": format!("/audio/{}", crate::kept_audio::file_name(*ply))}))
                .collect();
            if let Some(object) = snapshot.as_object_mut() {
                object.insert("audio".into(), Value::Array(listed));
            }
            hub.publish_audio(&files);
        }
        // `/game.pgn` is the record, as every export writes it.
        let pgn = self
            .table
            .record()
            .and_then(|r| {
                r.pgn(self.table.config().time_control.as_ref()).or_else(|| crate::pdn::pdn_of_record(r))
            })
            .unwrap_or_default();
        hub.publish_state(snapshot, pgn);
    }

    /// Journals what the table decided (opening and closing game journals as
    /// games start and end); it reaches the world once it is durable.
    pub(super) fn decide(&mut self, events: Vec<Event>) {
        if events.is_empty() {
            return;
        }
        let mut started = false;
        for event in events {
            if let Event::GameStarted { game_id, fen, t_ms, tags, moves } = &event {
                self.open_journal(game_id, fen, *t_ms, tags.clone(), moves.clone());
                started = true;
            }
            let seq = self.pipeline.journal.event(&event);
            // The game whose journal holds it (a game's end and the next one's
            // start may come in one batch, when the table is on the next one).
            let game_id = seq.and_then(|_| self.pipeline.journal.game_id().map(str::to_owned));
            if let Event::GameOver { result, t_ms, .. } = &event {
                self.pipeline.journal.end(*t_ms, result.as_str());
            }
            self.pipeline.decided.push(Delivered { game_id, seq, event });
        }
        if started {
            // The new game's first reading goes to the table whatever the last one was.
            self.dgt_link.last_reading = None;
            self.set_dgt_clock();
        }
    }

    /// Ends a turn of the loop: what was decided in it is one batch for the
    /// journal writer, delivered when the writer says it is on disk.
    pub fn flush(&mut self) {
        self.pipeline.flush();
    }

    /// The journal writer's acknowledgements, for the loop to select on.
    pub fn durable_feed(&self) -> Receiver<Durable> {
        self.pipeline.journal.durable().clone()
    }

    /// The writer made batches durable: their events go out.
    pub fn on_durable(&mut self, d: Durable) -> Result<()> {
        self.pipeline.count(d.batches, d.sync_time);
        let t = self.clock.now();
        let mut notes = Vec::new();
        match &d.error {
            Some(e) if !self.pipeline.journal_failed => {
                self.pipeline.journal_failed = true;
                tracing::error!(error = %e, "the journal cannot be written; the game goes on from memory");
                notes.push(device_status("journal", None, "failed", Some(e.clone()), t));
            }
            None if self.pipeline.journal_failed => {
                self.pipeline.journal_failed = false;
                notes.push(device_status("journal", None, "connected", Some("written again".into()), t));
            }
            _ => {}
        }
        if let Some(path) = &d.rewritten {
            let detail = format!("{} was deleted and written again from memory", path.display());
            notes.push(device_status("journal", None, "rewritten", Some(detail), t));
        }
        self.decide(notes);
        for (audience, batch) in self.pipeline.pending.ready(d.ticket) {
            self.deliver_to(audience, batch)?;
        }
        // An answer goes once its events are out, and what was said because of
        // them too (journaled now, so it waits for the next batch).
        self.pipeline.answer_through(d.ticket);
        Ok(())
    }

    /// Waits (at most `timeout`) until everything decided so far is durable
    /// and delivered (shutdown, tests).
    pub fn drain(&mut self, timeout: Duration) -> Result<()> {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            self.flush();
            if self.pipeline.is_idle() {
                return Ok(());
            }
            let left = deadline.saturating_duration_since(Instant::now());
            for d in self.pipeline.journal.wait_durable(left) {
                self.on_durable(d)?;
            }
        }
        Ok(())
    }

    /// Durable events to the voices first (what they say is decided in turn),
    /// then to every subscriber, which the journal then records
    /// (`delivered`); the console's state follows. A resume hands the
    /// subscribers what they missed, and the voices what he did not hear, apart.
    pub(super) fn deliver_to(&mut self, audience: Audience, batch: Vec<Delivered>) -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let t = self.clock.now();
        let mut said = Vec::new();
        if let Some(voices) = self.voices.as_ref().filter(|_| audience != Audience::Subscribers) {
            let mut v = voices.get_mut();
            for d in &batch {
                v.on_event(&d.event, &self.table, t, &mut said);
            }
            v.end_batch(&self.table, t, &mut said);
        }
        if audience != Audience::Voices {
            for d in &batch {
                self.console.note(&d.event);
            }
            for subscriber in &mut self.pipeline.subscribers {
                subscriber.deliver(&batch)?;
            }
            // Journaled in this turn's batch: a restart delivers again only what follows.
            if let Some((game, seq)) = batch.iter().rev().find_map(|d| Some((d.game_id.as_deref()?, d.seq?)))
            {
                self.pipeline.journal.delivered(game, seq);
            }
        }
        self.decide(said);
        self.publish_state();
        self.speech.refresh_grammar(&self.config, &self.table);
        Ok(())
    }

    /// Figures of the pipeline so far: batches, fsync times, the longest loop turn.
    pub fn stats(&self) -> PipelineStats {
        self.pipeline.stats
    }

    /// Notes how long a turn of the loop took (no input is taken meanwhile).
    pub fn turn_took(&mut self, took: Duration) {
        self.pipeline.stats.longest_turn = self.pipeline.stats.longest_turn.max(took);
    }

    pub(super) fn open_journal(
        &mut self,
        game_id: &str,
        fen: &str,
        t_ms: Millis,
        tags: Option<station_core::pgn::SevenTags>,
        moves: Vec<station_core::event::PlayedMove>,
    ) {
        let blind = self.table.config().blind_color;
        let tags = tags.unwrap_or_else(|| self.practice.tags(self.config.seven_tags(pgn_date(t_ms)), blind));
        let mut header = Header::of_table(&self.table, game_id, fen, t_ms, tags);
        header.moves = moves;
        tracing::info!(game_id, "new game");
        self.pipeline.journal.create(&self.pipeline.journals, header);
    }
}
