//! A restart: the newest game in the journal folder as it stood, finished or
//! not. An unfinished game goes on; a finished one is shown (the console,
//! `/game.pgn`, `/api/state`) until a new game starts, and no restart begins
//! one of its own. What the stop cut short is made good: the subscribers get
//! the events on disk they never got, and the blind player hears again the
//! moves and the result he did not hear to the end.
//!
//! A damaged journal is set aside (`*.jsonl.damaged`), what can be read of it is salvaged into a
//! fresh file, and the console and the player are told (`device_status` `journal`). The subscribers
//! get the events after the last `delivered` record before `game_resumed`; the voices say again
//! what the journal says he did not hear to the end. Each pending batch says who gets it
//! (`Audience`: all, the subscribers, the voices).

use super::*;
use crate::delivery::{Audience, Delivered};
use crate::journal_file::Found;

impl Station {
    /// Restores the newest game. A damaged journal is set aside (kept,
    /// renamed) and what can be read of it is salvaged; the station starts
    /// either way, and the console and the player are told.
    pub(super) fn resume(&mut self) -> Result<()> {
        let listing = self.pipeline.journals.list()?;
        let t = self.clock.now();
        let mut notices = Vec::new();
        let mut candidates: Vec<(Found, bool)> = listing.found.into_iter().map(|f| (f, false)).collect();
        for damaged in listing.damaged {
            let aside = self.pipeline.journals.set_aside(&damaged.path)?;
            let detail = format!(
                "journal {} damaged ({}); kept as {}",
                damaged.path.display(),
                damaged.error,
                aside.display()
            );
            tracing::error!("{detail}");
            notices.push(detail);
            let salvaged = std::fs::read(&aside).ok().and_then(|b| journal::decode_salvage(b).ok());
            if let Some((contents, skipped)) = salvaged {
                tracing::warn!(skipped, "salvaged the readable records of the damaged journal");
                candidates.push((Found { path: damaged.path, contents }, true));
            }
        }
        // The listing's order: `game-T-2` after `game-T`.
        candidates.sort_by_key(|(f, _)| (f.contents.header.t_ms, f.path.as_os_str().len(), f.path.clone()));
        let mut events: Vec<Event> =
            notices.iter().map(|d| device_status("journal", None, "damaged", Some(d.clone()), t)).collect();
        let Some((found, salvaged)) = candidates.pop() else {
            self.decide(events);
            return Ok(());
        };
        let previous = candidates.pop().filter(|(_, salvaged)| !salvaged).map(|(f, _)| f);
        let restored = match journal::restore(&found.contents) {
            Ok(r) => r,
            Err(e) => {
                let detail = format!("journal {} cannot be restored: {e}", found.path.display());
                tracing::error!("{detail}");
                if !salvaged {
                    let aside = self.pipeline.journals.set_aside(&found.path)?;
                    tracing::error!(aside = %aside.display(), "set aside");
                }
                events.push(device_status("journal", None, "damaged", Some(detail), t));
                self.decide(events);
                return Ok(());
            }
        };
        if !restored.reproduced {
            tracing::warn!(path = %found.path.display(), "journal inputs did not reproduce the record; the recorded moves were kept");
        }
        if let Some(damage) = &restored.damage {
            events.push(device_status("journal", None, "damaged", Some(damage.clone()), t));
        }
        self.table = restored.table;
        self.clock.not_before(found.contents.last_t_ms());
        if salvaged {
            self.pipeline.journal.rewrite(
                found.path.clone(),
                found.contents.header.clone(),
                &found.contents.records,
            );
        } else {
            let bytes = std::fs::read(&found.path)
                .with_context(|| format!("cannot read journal {}", found.path.display()))?;
            self.pipeline.journal.reopen(&found, bytes);
        }
        let t = self.clock.now();
        let moves = self.table.record_moves().unwrap_or_default();
        let ply = moves.len();
        let game_id = found.contents.header.game_id.clone();
        events.push(Event::GameResumed { game_id: game_id.clone(), ply, moves, t_ms: t });
        let finished = found.contents.finished();
        tracing::info!(path = %found.path.display(), ply, finished, "the newest game as it stood");
        // The salvaged journal is numbered anew: what its subscribers missed cannot be told apart.
        let missed = if salvaged { Vec::new() } else { missed(&found, previous.as_ref()) };
        if !missed.is_empty() {
            tracing::info!(
                events = missed.len(),
                "delivering the events the subscribers missed before the stop"
            );
            self.pipeline.pending.push_to(self.pipeline.journal.last_ticket(), Audience::Subscribers, missed);
        }
        self.decide(events);
        self.flush();
        // Decided before the stop but not heard to the end: said now (already
        // journaled). The moves the stop took from the speaker and the last
        // one, never a move cut or dropped for a newer one (see `to_say_again`).
        let tracked = found.contents.header.said_and_delivered;
        let again = if tracked { found.contents.to_say_again() } else { found.contents.unsaid_moves() };
        if !again.is_empty() {
            tracing::info!(said = again.len(), "saying again what was not heard to the end before the stop");
            let again = again
                .into_iter()
                .map(|(seq, event)| Delivered { game_id: Some(game_id.clone()), seq: Some(seq), event })
                .collect();
            // A journal of a station before `said` records: as that station did it.
            let audience = if tracked { Audience::Voices } else { Audience::All };
            self.pipeline.pending.push_to(self.pipeline.journal.last_ticket(), audience, again);
        }
        self.tick()
    }
}

/// The events on disk that never reached the subscribers: after the last
/// `delivered` record of the newest journal, or of the one before it when the
/// newest game's first events were not out yet.
///
/// A journal without a `delivered` record is read by its header:
/// - written by a station before these records (no `said_and_delivered`):
///   every event counts as delivered, as that station took it; nothing is
///   delivered again (it cannot tell what its subscribers had);
/// - written with them: none of its events reached the subscribers yet (every
///   delivery of a journaled event queues its mark in the same turn's batch),
///   so all of them are delivered, from its first. A mark queued but not on
///   disk when the station stopped means the events it covered are delivered
///   a second time: at least once, never lost.
///
/// Only delivered: what the blind player hears again is
/// [`Contents::to_say_again`](journal::Contents::to_say_again)'s, apart.
fn missed(newest: &Found, previous: Option<&Found>) -> Vec<Delivered> {
    let tracked = |f: &&Found| f.contents.header.said_and_delivered;
    let after = |f: &Found, seq: u64| -> Vec<Delivered> {
        let game_id = Some(f.contents.header.game_id.clone());
        let events = f.contents.events_after(seq).into_iter();
        events.map(|(seq, event)| Delivered { game_id: game_id.clone(), seq: Some(seq), event }).collect()
    };
    if !newest.contents.header.said_and_delivered {
        return Vec::new();
    }
    let previous = previous.filter(tracked);
    let mut out = Vec::new();
    match newest.contents.delivered_mark() {
        Some((None, seq)) => return after(newest, seq),
        Some((Some(game), seq)) => {
            if let Some(p) = previous.filter(|p| p.contents.header.game_id == game) {
                out = after(p, seq);
            }
        }
        None => {
            if let Some(p) = previous {
                let seq = match p.contents.delivered_mark() {
                    Some((None, seq)) => seq,
                    _ => 0,
                };
                out = after(p, seq);
            }
        }
    }
    out.extend(after(newest, 0));
    out
}

#[cfg(test)]
mod tests;
