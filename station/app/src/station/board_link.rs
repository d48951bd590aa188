//! What the station keeps of each board's serial link: how its scans are
//! turned, the last scan (to tell a heartbeat from news), the lines dropped
//! since the last summary and whether it is connected.
//!
//! The scan is turned to standard squares once, here (`Orientation`, chess or 10×10 alike); the
//! same scan again is a heartbeat, in which only time passes.

use shakmaty::Bitboard;
use station_core::event::LinkStatus;
use station_core::occupancy::Orientation;
use station_core::{BoardRole, Event, Millis};

/// One board's link, as the station sees it.
#[derive(Clone, Debug, Default)]
pub(super) struct BoardLinkState {
    /// How the board's sensors are turned (`flipped` in its config).
    pub orientation: Orientation,
    /// The last scan in standard numbering: the same again is a heartbeat.
    pub last_scan: Option<Bitboard>,
    /// Lines dropped since the last `line_dropped` summary, and when it went.
    pub drops: (u64, Option<Millis>),
    /// The last drop's reason and the driver's total.
    pub drop_reason: Option<(String, u64)>,
    /// The link is up.
    pub connected: bool,
}

impl BoardLinkState {
    /// A link not yet connected, its board turned as configured.
    pub fn new(orientation: Orientation) -> Self {
        BoardLinkState { orientation, ..Default::default() }
    }

    /// When its dropped lines are next summarised, if some wait.
    pub fn summary_due(&self) -> Option<Millis> {
        let (count, last) = self.drops;
        if count == 0 { None } else { last.map(|l| l + 1000) }
    }

    /// A scan already turned: `None` when it repeats the last one (only time passes).
    pub fn fresh_scan(&mut self, occ: Bitboard) -> Option<Bitboard> {
        if self.last_scan == Some(occ) {
            return None;
        }
        self.last_scan = Some(occ);
        Some(occ)
    }

    /// The driver's drop count plus this one.
    pub fn next_drop_total(&self) -> u64 {
        self.drop_reason.as_ref().map_or(0, |r| r.1) + 1
    }

    /// Dropped lines are counted (`dropped`: the reason and the driver's
    /// total); the `line_dropped` summary of `board`, for the station to
    /// journal and publish, comes at most once a second (a flood of garbage
    /// must not become a flood of records).
    pub fn drop_summary(
        &mut self,
        board: BoardRole,
        dropped: Option<(String, u64)>,
        t: Millis,
    ) -> Option<Event> {
        if let Some((reason, total)) = dropped {
            self.drop_reason = Some((reason, total));
            self.drops.0 += 1;
        }
        let (count, last) = self.drops;
        if count == 0 || last.is_some_and(|l| t < l + 1000) {
            return None;
        }
        let summary = self.drop_reason.clone().map(|(reason, total)| Event::LineDropped {
            board,
            reason,
            total,
            t_ms: t,
        });
        self.drops = (0, Some(t));
        summary
    }

    /// The link came (`up`) or went: a link gone forgets its last scan. The
    /// status the station journals.
    pub fn connect(&mut self, up: bool) -> LinkStatus {
        self.connected = up;
        if !up {
            self.last_scan = None;
        }
        if up { LinkStatus::Connected } else { LinkStatus::Disconnected }
    }
}
