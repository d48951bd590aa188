//! The DGT clock as the master clock (`[clock] source = "dgt"`), daemon side:
//! what is sent to set it for a game, what its link reports, and whether it
//! adds the time control's bonus.
//!
//! The driver's clock link ([`station_serial::dgt::clock_link`]) sends one
//! command at a time and gives up after three tries; here its reports become
//! `device_status` events (device `dgt_clock`) whose detail the console shows
//! and whose status the speaking turns into the blind player's words:
//! `not_in_mode_23` (SetNRun refused: the clock is not in mode 23),
//! `not_answering` (a command got no acknowledgement), `refused` (error
//! acknowledgements), `connected` with the model (DGT 3000 or XL), and `setup`
//! for what the arbiter must set by hand.
//!
//! SetNRun sets the two times and who runs, nothing else: an increment or
//! delay cannot be sent. So the console is told plainly ("set the increment on
//! the clock: +30 s") when a game starts, and after each side's first move the
//! readings show whether the clock added it.

use station_core::clock::{Bonus, ClockReading, Side, TimeControl};
use station_core::{Event, Millis};
use station_serial::dgt::{ClockCommand, ClockFailure, ClockModel, ClockReport, ClockRun, SideTime};

/// The daemon's side of the DGT master clock.
#[derive(Debug, Default)]
pub struct DgtClock {
    /// DGT 3000 or XL, once the clock answered the version query.
    model: Option<ClockModel>,
    /// The first period's bonus, to be checked after each side's first move.
    bonus: Option<Bonus>,
    /// Sides whose first move's bonus is still to be checked.
    unchecked: [bool; 2],
    /// The previous reading (a press shows as the running side switching).
    last: Option<ClockReading>,
    /// Events made outside an event-producing call (the advice when the clock is set).
    pending: Vec<Event>,
}

impl DgtClock {
    /// Nothing known yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The commands that set the clock for a new game: both displays to the
    /// time control's initial time, `run` running, the lever switching sides;
    /// then "end display" (some clocks keep showing a text until told). The
    /// console's advice about the bonus is queued ([`Self::take_events`]).
    pub fn setup(&mut self, tc: &TimeControl, run: ClockRun, t: Millis) -> Vec<ClockCommand> {
        let initial = SideTime::from_secs(u32::try_from(tc.initial_ms() / 1000).unwrap_or(u32::MAX));
        let bonus = tc.periods().first().map_or(Bonus::None, |p| p.bonus);
        self.bonus = (bonus != Bonus::None).then_some(bonus);
        self.unchecked = [matches!(bonus, Bonus::Increment(_)); 2];
        self.last = None;
        if let Some(advice) = advice(tc, bonus) {
            self.pending.push(status("setup", advice, t));
        }
        vec![
            ClockCommand::SetAndRun { left: initial, right: initial, run, lever: true },
            ClockCommand::EndDisplay,
        ]
    }

    /// Events made since the last call (the advice when the clock was set).
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.pending)
    }

    /// The clock's model, once known.
    #[cfg(test)]
    pub fn model(&self) -> Option<ClockModel> {
        self.model
    }

    /// What the driver's clock link reported.
    pub fn on_report(&mut self, report: &ClockReport, t: Millis, out: &mut Vec<Event>) {
        match report {
            ClockReport::Model { model, version: (main, sub) } => {
                self.model = Some(*model);
                let name = match model {
                    ClockModel::Dgt3000 => "DGT 3000".to_owned(),
                    ClockModel::DgtXl => "DGT XL (no text display)".to_owned(),
                    ClockModel::Other(main) => format!("DGT clock of an unknown kind ({main})"),
                };
                out.push(status("connected", format!("{name}, version {main}.{sub}"), t));
            }
            ClockReport::Done(_) => {}
            ClockReport::Failed { command, failure, tries } => {
                let what = match command {
                    ClockCommand::SetAndRun { .. } => "setting the clock (SetNRun)",
                    ClockCommand::Version => "the version query",
                    ClockCommand::Display { .. } => "a text display",
                    ClockCommand::Beep { .. } => "a beep",
                    ClockCommand::EndDisplay => "end display",
                };
                let (kind, hint) = match failure {
                    ClockFailure::NotInMode23 => ("not_in_mode_23", ": switch the clock to mode 23"),
                    ClockFailure::NoAnswer => ("not_answering", ""),
                    ClockFailure::Refused => ("refused", ""),
                };
                let detail = format!("{}: {what} failed after {tries} tries{hint}", failure.describe());
                out.push(status(kind, detail, t));
            }
        }
    }

    /// A reading of the clock (White's and Black's times): after each side's
    /// first move, whether the clock added the increment.
    pub fn on_reading(&mut self, reading: &ClockReading, t: Millis, out: &mut Vec<Event>) {
        let previous = self.last.replace(*reading);
        let (Some(prev), Some(Bonus::Increment(inc))) = (previous, self.bonus) else { return };
        let (Some(mover), Some(now_running)) = (prev.running, reading.running) else { return };
        let slot = usize::from(mover == Side::Black);
        if now_running != mover.opponent() || !std::mem::take(&mut self.unchecked[slot]) {
            return;
        }
        // Readings come once a second in whole seconds: without an increment the
        // mover's display shows up to two seconds less than before, with one
        // up to the increment more.
        let gained = i64::try_from(reading.ms(mover)).unwrap_or(i64::MAX)
            - i64::try_from(prev.ms(mover)).unwrap_or(i64::MAX);
        let inc_i = i64::try_from(inc).unwrap_or(i64::MAX);
        let name = if mover == Side::White { "White" } else { "Black" };
        let detail = if gained >= (inc_i - 1500).max(500) {
            format!("increment confirmed: the clock added it after {name}'s first move")
        } else {
            format!(
                "the clock added no increment after {name}'s first move: set the increment on the clock: {}",
                plus_seconds(inc)
            )
        };
        out.push(status("setup", detail, t));
    }
}

/// What the arbiter must set on the clock by hand: SetNRun carries no bonus.
fn advice(tc: &TimeControl, bonus: Bonus) -> Option<String> {
    let mut parts = Vec::new();
    match bonus {
        Bonus::None => {}
        Bonus::Increment(ms) => parts.push(format!("set the increment on the clock: {}", plus_seconds(ms))),
        Bonus::SimpleDelay(ms) => {
            parts.push(format!("set the delay on the clock: {} (simple delay)", secs(ms)))
        }
        Bonus::Bronstein(ms) => parts.push(format!("set the delay on the clock: {} (Bronstein)", secs(ms))),
    }
    if tc.periods().len() > 1 {
        parts.push(format!("the clock adds no period time by itself: time control {tc}"));
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn plus_seconds(ms: Millis) -> String {
    format!("+{}", secs(ms))
}

fn secs(ms: Millis) -> String {
    if ms.is_multiple_of(1000) { format!("{} s", ms / 1000) } else { format!("{:.1} s", ms as f64 / 1000.0) }
}

/// A `device_status` event of the DGT clock.
fn status(status: &str, detail: String, t: Millis) -> Event {
    Event::DeviceStatus {
        device: "dgt_clock".into(),
        name: None,
        status: status.into(),
        detail: Some(detail),
        words: Vec::new(),
        t_ms: t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(white_s: u64, black_s: u64, running: Side) -> ClockReading {
        ClockReading {
            white_ms: white_s * 1000,
            black_ms: black_s * 1000,
            running: Some(running),
            white_flag: false,
            black_flag: false,
        }
    }

    fn details(events: &[Event]) -> Vec<(String, String)> {
        events
            .iter()
            .filter_map(|e| match e {
                Event::DeviceStatus { status, detail, .. } => {
                    Some((status.to_string(), detail.clone().unwrap_or_default()))
                }
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_clock_is_set_with_the_lever_and_the_increment_is_stated_then_checked() {
        let mut dgt = DgtClock::new();
        let tc: TimeControl = "300+30".parse().unwrap();
        let commands = dgt.setup(&tc, ClockRun::LeftRunning, 0);
        let five = SideTime::from_secs(300);
        assert_eq!(
            commands,
            [
                ClockCommand::SetAndRun { left: five, right: five, run: ClockRun::LeftRunning, lever: true },
                ClockCommand::EndDisplay
            ]
        );
        let advice = details(&dgt.take_events());
        assert_eq!(advice, [("setup".to_owned(), "set the increment on the clock: +30 s".to_owned())]);
        assert!(dgt.take_events().is_empty(), "said once");

        let mut out = Vec::new();
        // White thinks 4 s and presses; the clock adds the increment.
        dgt.on_reading(&reading(300, 300, Side::White), 1_000, &mut out);
        dgt.on_reading(&reading(297, 300, Side::White), 4_000, &mut out);
        dgt.on_reading(&reading(326, 300, Side::Black), 5_000, &mut out);
        // Black presses; this clock adds nothing.
        dgt.on_reading(&reading(326, 299, Side::Black), 6_000, &mut out);
        dgt.on_reading(&reading(326, 298, Side::White), 7_000, &mut out);
        // Later presses are not checked again.
        dgt.on_reading(&reading(325, 298, Side::Black), 8_000, &mut out);
        let checks = details(&out);
        assert_eq!(checks.len(), 2, "{checks:?}");
        assert!(checks[0].1.starts_with("increment confirmed"), "{checks:?}");
        assert!(
            checks[1]
                .1
                .contains("no increment after Black's first move: set the increment on the clock: +30 s")
        );
    }

    #[test]
    fn failures_become_device_statuses_with_their_reason() {
        let mut dgt = DgtClock::new();
        let mut out = Vec::new();
        dgt.on_report(&ClockReport::Model { model: ClockModel::DgtXl, version: (1, 4) }, 0, &mut out);
        assert_eq!(dgt.model(), Some(ClockModel::DgtXl));
        let five = SideTime::from_secs(300);
        let set = ClockCommand::SetAndRun { left: five, right: five, run: ClockRun::Paused, lever: true };
        let failed = ClockReport::Failed { command: set, failure: ClockFailure::NotInMode23, tries: 3 };
        dgt.on_report(&failed, 10, &mut out);
        let silent =
            ClockReport::Failed { command: ClockCommand::Version, failure: ClockFailure::NoAnswer, tries: 3 };
        dgt.on_report(&silent, 20, &mut out);
        let statuses = details(&out);
        assert_eq!(statuses[0], ("connected".to_owned(), "DGT XL (no text display), version 1.4".to_owned()));
        assert_eq!(statuses[1].0, "not_in_mode_23");
        assert!(statuses[1].1.contains("SetNRun") && statuses[1].1.contains("mode 23"), "{statuses:?}");
        assert_eq!(statuses[2].0, "not_answering");

        // No bonus, one period: nothing to set by hand.
        assert!(dgt.setup(&"600".parse().unwrap(), ClockRun::Paused, 0).len() == 2);
        assert!(dgt.take_events().is_empty());
        let _ = dgt.setup(&"40/7200:20/3600:900+30".parse().unwrap(), ClockRun::Paused, 0);
        let advice = details(&dgt.take_events());
        assert!(advice[0].1.contains("no period time"), "{advice:?}");
    }
}
