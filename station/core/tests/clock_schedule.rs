//! Spoken time warnings: once per threshold, in order, re-armed when time is added.

use station_core::Millis;
use station_core::clock::{ChessClock, Side, Warning, WarningConfig, WarningSchedule};

const S: Millis = 1_000;
const MIN: Millis = 60 * S;

fn at(side: Side, threshold_ms: Millis) -> Warning {
    Warning::Remaining { side, threshold_ms, time_trouble: threshold_ms <= 5 * MIN }
}

/// The thresholds (in seconds) of the remaining-time warnings in `said`, in order.
fn thresholds_s(said: &[Warning]) -> Vec<Millis> {
    said.iter()
        .filter_map(|w| match w {
            Warning::Remaining { threshold_ms, .. } => Some(*threshold_ms / S),
            _ => None,
        })
        .collect()
}

/// `side`'s warnings at `thresholds`, highest first, then its flag.
fn down_to_the_flag(side: Side, thresholds: &[Millis]) -> Vec<Warning> {
    thresholds.iter().map(|&t| at(side, t)).chain([Warning::FlagFell { side }]).collect()
}

/// Feeds `side`'s remaining time from `from` down to `to` (inclusive) in `step`s.
fn run_down(
    schedule: &mut WarningSchedule,
    side: Side,
    from: Millis,
    to: Millis,
    step: Millis,
    period: u32,
) -> Vec<Warning> {
    let mut out = Vec::new();
    let mut remaining = from;
    loop {
        out.extend(schedule.due(side, remaining, period));
        if remaining == to {
            return out;
        }
        remaining = remaining.saturating_sub(step).max(to);
    }
}

#[test]
fn default_warnings_fire_once_each_in_order_whatever_the_tick() {
    let expected: Vec<Warning> =
        [Warning::PeriodStart { side: Side::White, period: 0, remaining_ms: 25 * MIN }]
            .into_iter()
            .chain(down_to_the_flag(
                Side::White,
                &[20 * MIN, 10 * MIN, 5 * MIN, 4 * MIN, 3 * MIN, 2 * MIN, MIN, 30 * S, 10 * S],
            ))
            .collect();
    for step in [1, 250, 999, S, 7_777, 29 * S] {
        let mut schedule = WarningSchedule::new(WarningConfig::default());
        assert_eq!(run_down(&mut schedule, Side::White, 25 * MIN, 0, step, 0), expected, "tick {step} ms");
        assert_eq!(schedule.due(Side::White, 0, 0), [], "nothing twice");
    }
    // A caller that wakes up late still says every threshold, highest first.
    let mut schedule = WarningSchedule::new(WarningConfig::default());
    schedule.due(Side::White, 25 * MIN, 0);
    assert_eq!(schedule.due(Side::White, 0, 0), expected[1..]);
}

#[test]
fn the_two_sides_are_independent() {
    let mut schedule = WarningSchedule::new(WarningConfig::default());
    schedule.due(Side::White, 11 * MIN, 0);
    schedule.due(Side::Black, 11 * MIN, 0);
    assert_eq!(schedule.due(Side::White, 10 * MIN, 0), [at(Side::White, 10 * MIN)]);
    assert_eq!(schedule.due(Side::Black, 10 * MIN + 1, 0), []);
    assert_eq!(schedule.due(Side::Black, 9 * MIN, 0), [at(Side::Black, 10 * MIN)]);
}

#[test]
fn a_new_period_says_the_control_and_re_arms_every_threshold() {
    let mut schedule = WarningSchedule::new(WarningConfig::default());
    run_down(&mut schedule, Side::Black, 3 * MIN, 20 * S, S, 0);
    // Move 40 completed with 20 s left: an hour is added.
    let remaining = 60 * MIN + 20 * S;
    assert_eq!(
        schedule.due(Side::Black, remaining, 1),
        [
            Warning::TimeControlReached { side: Side::Black, period: 1 },
            Warning::PeriodStart { side: Side::Black, period: 1, remaining_ms: remaining },
        ]
    );
    let said = run_down(&mut schedule, Side::Black, remaining, 0, 3 * S, 1);
    let thresholds = thresholds_s(&said);
    assert_eq!(thresholds, [3600, 3000, 2400, 1800, 1200, 600, 300, 240, 180, 120, 60, 30, 10]);
    assert_eq!(said.last(), Some(&Warning::FlagFell { side: Side::Black }));
}

#[test]
fn increments_do_not_repeat_a_warning_until_the_clock_climbs_well_above_it() {
    let mut schedule = WarningSchedule::new(WarningConfig::default());
    schedule.due(Side::White, 62 * S, 0);
    assert_eq!(schedule.due(Side::White, 59 * S, 0), [at(Side::White, MIN)]);
    // +2 s per move keeps the player hovering around one minute: said once.
    for _ in 0..5 {
        assert_eq!(schedule.due(Side::White, 61 * S, 0), []);
        assert_eq!(schedule.due(Side::White, 59 * S, 0), []);
    }
    // Fast moves bring the clock back above two minutes: "one minute" is due again.
    assert_eq!(schedule.due(Side::White, 2 * MIN + 5 * S, 0), []);
    assert_eq!(schedule.due(Side::White, MIN, 0), [at(Side::White, MIN)]);
}

#[test]
fn after_a_correction_the_schedule_re_arms_silently() {
    let mut schedule = WarningSchedule::new(WarningConfig::default());
    run_down(&mut schedule, Side::White, 2 * MIN, 5 * S, S, 0);
    // The arbiter sets the clock to 3 minutes (the correction itself is announced elsewhere).
    schedule.reset(Side::White);
    assert_eq!(schedule.due(Side::White, 3 * MIN, 0), []);
    let said = run_down(&mut schedule, Side::White, 3 * MIN, 0, S, 0);
    assert_eq!(said, down_to_the_flag(Side::White, &[2 * MIN, MIN, 30 * S, 10 * S]));
}

#[test]
fn muting_never_silences_time_trouble() {
    let config: WarningConfig = serde_json::from_str(r#"{ "muted": true }"#).unwrap();
    assert_eq!(config.every_minutes, 10, "missing fields take the defaults");
    let mut schedule = WarningSchedule::new(config);
    let said = run_down(&mut schedule, Side::White, 25 * MIN, 0, S, 0);
    let expected = down_to_the_flag(Side::White, &[5 * MIN, 4 * MIN, 3 * MIN, 2 * MIN, MIN, 30 * S, 10 * S]);
    assert_eq!(said, expected);
}

#[test]
fn a_listener_chooses_the_warnings() {
    let config: WarningConfig = serde_json::from_str(
        r#"{ "period_start": false, "every_minutes": 15, "every_minute_below_minutes": 2,
             "at_seconds": [45, 5], "time_trouble_minutes": 2 }"#,
    )
    .unwrap();
    let mut schedule = WarningSchedule::new(config);
    let said = run_down(&mut schedule, Side::Black, 31 * MIN, 3 * S, 500, 0);
    let thresholds = thresholds_s(&said);
    assert_eq!(thresholds, [1800, 900, 120, 60, 45, 5]);
}

/// The schedule driven by the engine: presses, a period, live remaining times.
#[test]
fn driven_by_the_clock_engine() {
    let mut clock = ChessClock::new("2/100:30".parse().unwrap());
    let mut schedule = WarningSchedule::new(WarningConfig::default());
    let mut said = Vec::new();
    clock.start(0).unwrap();
    let mut t = 0;
    for (side, think) in [(Side::White, 50 * S), (Side::Black, S), (Side::White, 45 * S), (Side::Black, S)] {
        let end = t + think;
        while t < end {
            t += 250;
            said.extend(schedule.due(side, clock.remaining(side, t), clock.period(side)));
        }
        clock.press(side, t).unwrap();
        said.extend(schedule.due(side, clock.remaining(side, t), clock.period(side)));
    }
    assert_eq!(
        said,
        [
            Warning::PeriodStart { side: Side::White, period: 0, remaining_ms: 100 * S - 250 },
            at(Side::White, MIN),
            Warning::PeriodStart { side: Side::Black, period: 0, remaining_ms: 100 * S - 250 },
            at(Side::White, 30 * S),
            at(Side::White, 10 * S),
            Warning::TimeControlReached { side: Side::White, period: 1 },
            Warning::PeriodStart { side: Side::White, period: 1, remaining_ms: 35 * S },
            Warning::TimeControlReached { side: Side::Black, period: 1 },
            Warning::PeriodStart { side: Side::Black, period: 1, remaining_ms: 128 * S },
        ]
    );
}
