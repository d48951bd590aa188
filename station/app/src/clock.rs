//! The daemon's time source: Unix milliseconds that never run backwards.
//!
//! The core takes time as an input; this is the one place that reads a clock.
//! Wall time anchors it (journals and events carry real times), the monotonic
//! clock advances it (an NTP step must not shorten a settle time), and a floor
//! keeps it ahead of everything already journaled after a restart.
//!
//! [`StationClock::at`] puts a driver's stamp on the station's time line.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Monotonic Unix milliseconds.
pub struct StationClock {
    base_ms: u64,
    started: Instant,
    floor: u64,
}

impl StationClock {
    /// Anchored at the current wall time.
    pub fn new() -> Self {
        let base_ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        StationClock { base_ms, started: Instant::now(), floor: 0 }
    }

    /// Never report a time before `t`.
    pub fn not_before(&mut self, t: u64) {
        self.floor = self.floor.max(t);
    }

    /// Now.
    pub fn now(&self) -> u64 {
        self.at(Instant::now())
    }

    /// The time of a monotonic instant (a driver's arrival stamp): the same
    /// time line as [`now`](Self::now), so a stamp taken before a stall of
    /// the loop keeps its place.
    pub fn at(&self, instant: Instant) -> u64 {
        let since = instant.saturating_duration_since(self.started).as_millis() as u64;
        (self.base_ms + since).max(self.floor)
    }
}

/// Today's date as PGN writes it, `YYYY.MM.DD` (UTC), from Unix milliseconds.
pub fn pgn_date(unix_ms: u64) -> String {
    let days = (unix_ms / 86_400_000) as i64;
    // Civil-from-days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(1_795_305_600_000), "2026.11.22");
        assert_eq!(pgn_date(951_782_400_000), "2000.02.29");
    }

    #[test]
    fn the_floor_holds() {
        let mut c = StationClock::new();
        let far = c.now() + 1_000_000;
        c.not_before(far);
        assert!(c.now() >= far);
    }
}
