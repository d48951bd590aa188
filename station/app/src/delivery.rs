//! Who hears of durable events, behind one small trait: the event stream
//! file, the console's live feed, the demo's printer, the Braille display and the hall's MQTT
//! publisher.
//! The loop hands them each batch only once the journal writer has it on
//! disk (ARCHITECTURE invariant 3), so none of them sits on the decision path.
//!
//! A batch waits for the disk with its `Audience` (all, the subscribers alone after a restart, the
//! voices alone); a batch delivered to the subscribers is journaled as `delivered` in the same
//! turn.

use crate::event_sink::EventSink;
use crate::hub::Hub;
use crate::speaking::Voices;
use anyhow::Result;
use station_core::Event;
use std::cell::{Ref, RefCell, RefMut};
use std::collections::VecDeque;
use std::rc::Rc;

/// A durable event and its place in its game's journal.
#[derive(Clone, Debug, PartialEq)]
pub struct Delivered {
    /// The game whose journal holds it (none between games: device and link
    /// events that belong to no game are not journaled).
    pub game_id: Option<String>,
    /// Its sequence number in that journal (none when not journaled).
    pub seq: Option<u64>,
    /// The event.
    pub event: Event,
}

/// Something that takes durable events, in order.
pub trait Subscriber {
    /// A batch of events that are on disk.
    fn deliver(&mut self, batch: &[Delivered]) -> Result<()>;
}

impl Subscriber for EventSink {
    fn deliver(&mut self, batch: &[Delivered]) -> Result<()> {
        let events: Vec<Event> = batch.iter().map(|d| d.event.clone()).collect();
        self.write(&events)
    }
}

/// The console's and the mirror's live event feed.
pub struct HubEvents(pub Hub);

impl Subscriber for HubEvents {
    fn deliver(&mut self, batch: &[Delivered]) -> Result<()> {
        for d in batch {
            self.0.publish_event(&d.event.to_json());
        }
        Ok(())
    }
}

/// A closure that sees every event (the demo prints them, tests collect them).
pub struct Observer(pub Box<dyn FnMut(&Event)>);

impl Subscriber for Observer {
    fn deliver(&mut self, batch: &[Delivered]) -> Result<()> {
        for d in batch {
            (self.0)(&d.event);
        }
        Ok(())
    }
}

/// The station's voices, shared by the delivery (moves, corrections) and
/// the loop's own answers (time, repeat, questions): one thread, one owner
/// at a time.
#[derive(Clone)]
pub struct VoicesHandle(Rc<RefCell<Voices>>);

impl VoicesHandle {
    /// Shares `voices`.
    pub fn new(voices: Voices) -> Self {
        VoicesHandle(Rc::new(RefCell::new(voices)))
    }

    /// To speak.
    pub fn get(&self) -> Ref<'_, Voices> {
        self.0.borrow()
    }

    /// To follow events (the last move, the devices told of).
    pub fn get_mut(&self) -> RefMut<'_, Voices> {
        self.0.borrow_mut()
    }
}

/// Who a batch goes to once it is on disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// The voices, then every subscriber: what was decided.
    All,
    /// The subscribers alone: events on disk that they missed when the
    /// station stopped (the voices say again what they must, apart).
    Subscribers,
    /// The voices alone: moves and a result the blind player did not hear
    /// to the end before the station stopped, said again.
    Voices,
}

/// Batches decided but not yet on disk, oldest first, with their tickets.
#[derive(Default)]
pub struct Pending(VecDeque<(u64, Audience, Vec<Delivered>)>);

impl Pending {
    /// A batch committed as `ticket`, for everybody.
    pub fn push(&mut self, ticket: u64, events: Vec<Delivered>) {
        self.push_to(ticket, Audience::All, events);
    }

    /// A batch that goes to `audience` once `ticket` is on disk.
    pub fn push_to(&mut self, ticket: u64, audience: Audience, events: Vec<Delivered>) {
        self.0.push_back((ticket, audience, events));
    }

    /// The batches up to `ticket`, in order, each with its audience (those of
    /// one audience in a row as one).
    pub fn ready(&mut self, ticket: u64) -> Vec<(Audience, Vec<Delivered>)> {
        let mut out: Vec<(Audience, Vec<Delivered>)> = Vec::new();
        while self.0.front().is_some_and(|(t, ..)| *t <= ticket) {
            let Some((_, audience, events)) = self.0.pop_front() else { break };
            match out.last_mut() {
                Some((a, batch)) if *a == audience => batch.extend(events),
                _ => out.push((audience, events)),
            }
        }
        out
    }

    /// Nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
