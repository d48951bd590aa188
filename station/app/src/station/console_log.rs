//! The console's view of recent history: the last events and the open
//! discrepancies, kept from what was delivered.

use station_core::Event;
use std::collections::VecDeque;

/// How many recent events the console's log shows.
const LOG_LEN: usize = 100;

/// The recent events and the open discrepancies.
#[derive(Debug, Default)]
pub(super) struct ConsoleLog {
    /// The last [`LOG_LEN`] delivered events, oldest first.
    pub log: VecDeque<Event>,
    /// Discrepancies raised and not yet resolved.
    pub discrepancies: Vec<Event>,
}

impl ConsoleLog {
    /// A delivered event: logged; a discrepancy opened or closed.
    pub fn note(&mut self, e: &Event) {
        match e {
            Event::Discrepancy { .. } => self.discrepancies.push(e.clone()),
            Event::DiscrepancyResolved { id, .. } => {
                self.discrepancies.retain(|d| !matches!(d, Event::Discrepancy { id: i, .. } if i == id))
            }
            _ => {}
        }
        if self.log.len() == LOG_LEN {
            self.log.pop_front();
        }
        self.log.push_back(e.clone());
    }
}
