//! The clock engine in every mode: increments, delays, periods, flags, pauses,
//! corrections, restoring, and a long game without drift.

use proptest::prelude::*;
use station_core::Millis;
use station_core::clock::{
    Bonus, ChessClock, ClockError, ClockEvent, CorrectionChange, FlagFall, Side, TimeControl,
};

const S: Millis = 1_000;
const MIN: Millis = 60 * S;

fn clock(control: &str) -> ChessClock {
    ChessClock::new(control.parse().unwrap())
}

/// A clock for `control`, started at 0.
fn started(control: &str) -> ChessClock {
    let mut c = clock(control);
    c.start(0).unwrap();
    c
}

#[test]
fn increment_is_added_after_every_move_from_move_one() {
    let mut c = clock("180+2");
    c.start(10_000).unwrap();
    assert_eq!(c.remaining(Side::White, 13_000), 177 * S);
    let pressed = c.press(Side::White, 15_000).unwrap();
    assert_eq!((pressed.think_ms, pressed.remaining_ms, pressed.moves_made), (5 * S, 177 * S, 1));
    assert_eq!(c.on_move(), Side::Black);
    assert_eq!(c.remaining(Side::White, 99_000), 177 * S, "a stopped clock stays put");
    assert_eq!(c.remaining(Side::Black, 16_500), 178_500);
    assert_eq!(c.press(Side::Black, 16_500).unwrap().remaining_ms, 180_500);
    assert_eq!((c.moves_made(Side::White), c.moves_made(Side::Black)), (1, 1));
}

#[test]
fn simple_delay_holds_the_clock_until_the_delay_is_used_up() {
    let mut c = started("60d5");
    assert_eq!(c.remaining(Side::White, 4_999), 60 * S, "still inside the delay");
    assert_eq!(c.press(Side::White, 3_000).unwrap().remaining_ms, 60 * S, "unused delay is not saved");
    assert_eq!(c.remaining(Side::Black, 3_000 + 7_000), 58 * S);
    assert_eq!(c.press(Side::Black, 3_000 + 7_000).unwrap().remaining_ms, 58 * S);
    // The flag: White's 60 s start counting only after the 5 s delay.
    assert_eq!(c.next_flag_fall(), Some(FlagFall { side: Side::White, at: 10_000 + 65 * S }));
    assert_eq!(c.flagged(10_000 + 65 * S - 1), None);
    assert_eq!(c.flagged(10_000 + 65 * S), Some(FlagFall { side: Side::White, at: 75_000 }));
}

#[test]
fn bronstein_gives_back_the_time_used_up_to_the_delay() {
    let mut c = started("60b5");
    assert_eq!(c.remaining(Side::White, 3_000), 57 * S, "the clock runs down during the move");
    assert_eq!(c.press(Side::White, 3_000).unwrap().remaining_ms, 60 * S, "3 s used, 3 s back");
    assert_eq!(c.press(Side::Black, 3_000 + 7_000).unwrap().remaining_ms, 58 * S, "7 s used, 5 s back");
    assert_eq!(c.next_flag_fall(), Some(FlagFall { side: Side::White, at: 10_000 + 60 * S }));
}

#[test]
fn periods_add_time_exactly_when_moves_40_and_60_are_completed() {
    let mut c = clock("40/7200:20/3600:900+30");
    let mut t = 0;
    c.start(t).unwrap();
    let mut expected = [7_200 * S; 2];
    for n in 1..=70u32 {
        for side in [Side::White, Side::Black] {
            t += 10 * S;
            let pressed = c.press(side, t).unwrap();
            expected[side as usize] -= 10 * S;
            match n {
                40 => expected[side as usize] += 3_600 * S,
                60 => expected[side as usize] += 900 * S,
                61.. => expected[side as usize] += 30 * S,
                _ => {}
            }
            assert_eq!(pressed.remaining_ms, expected[side as usize], "{side} move {n}");
            let events = c.take_events();
            match n {
                40 | 60 => {
                    let period = if n == 40 { 1 } else { 2 };
                    let added_ms = if n == 40 { 3_600 * S } else { 900 * S };
                    assert_eq!(
                        events,
                        [ClockEvent::TimeControlReached { side, moves: n, period, added_ms, at: t }]
                    );
                }
                _ => assert_eq!(events, [], "{side} move {n}"),
            }
            let period = match n {
                ..40 => 0,
                40..60 => 1,
                60.. => 2,
            };
            assert_eq!(c.period(side), period, "{side} move {n}");
        }
    }
}

#[test]
fn a_counted_last_period_repeats() {
    let mut c = started("2/60:1/30");
    let mut t = 0;
    let mut white = Vec::new();
    for _ in 0..4 {
        t += S;
        white.push(c.press(Side::White, t).unwrap().remaining_ms);
        t += S;
        c.press(Side::Black, t).unwrap();
    }
    assert_eq!(white, [59 * S, 58 * S + 30 * S, 87 * S + 30 * S, 116 * S + 30 * S]);
    assert_eq!(c.period(Side::White), 3, "periods 1, 2 and 3 followed moves 2, 3 and 4");
}

#[test]
fn flags_fall_at_the_exact_computed_time_in_every_mode() {
    for (control, flag_at) in [
        ("300", 300 * S),
        ("180+2", 180 * S),
        ("180d5", 185 * S),
        ("180b5", 180 * S),
        ("40/7200:900", 7_200 * S),
    ] {
        let mut c = clock(control);
        c.start(1_234).unwrap();
        let at = 1_234 + flag_at;
        assert_eq!(c.next_flag_fall(), Some(FlagFall { side: Side::White, at }), "{control}");
        c.update(at - 1);
        assert_eq!((c.flag(Side::White), c.take_events()), (None, vec![]), "{control}");
        // Noticed late, the flag still fell when the time ran out.
        c.update(at + 5_000);
        assert_eq!(c.flag(Side::White), Some(at), "{control}");
        assert_eq!(c.take_events(), [ClockEvent::FlagFell(FlagFall { side: Side::White, at })], "{control}");
        assert_eq!(c.remaining(Side::White, at + 5_000), 0);
        c.update(at + 9_000);
        assert_eq!(c.take_events(), [], "a flag falls once");
        assert_eq!(c.next_flag_fall(), None);
    }
}

#[test]
fn a_flag_after_some_moves_with_increment_and_a_press_too_late() {
    let mut c = started("10+1");
    c.press(Side::White, 4_000).unwrap(); // White 7 s
    c.press(Side::Black, 5_000).unwrap(); // Black 10 s
    assert_eq!(c.next_flag_fall(), Some(FlagFall { side: Side::White, at: 12_000 }));
    // The press comes 1 ms after the clock ran out: the flag has fallen first.
    let pressed = c.press(Side::White, 12_001).unwrap();
    assert_eq!(c.take_events(), [ClockEvent::FlagFell(FlagFall { side: Side::White, at: 12_000 })]);
    assert_eq!(pressed.remaining_ms, S, "the clock goes on mechanically; the arbiter decides");
    assert_eq!(c.flagged(12_001), Some(FlagFall { side: Side::White, at: 12_000 }));
    // Black's flag can fall too (Article 6.12); the first one is reported first.
    c.update(12_001 + 10 * S);
    assert_eq!(c.flag(Side::Black), Some(22_001));
    assert_eq!(c.flagged(30_000).unwrap().side, Side::White);
}

#[test]
fn pauses_stop_the_clock_and_keep_the_move_and_its_delay() {
    let mut c = started("60d5");
    c.pause(3_000).unwrap();
    assert!(!c.is_running());
    assert_eq!(c.next_flag_fall(), None, "no flag while paused");
    assert_eq!(c.remaining(Side::White, 500_000), 60 * S);
    assert_eq!(c.press(Side::White, 500_000), Err(ClockError::Paused));
    assert_eq!(c.pause(500_000), Err(ClockError::Paused));
    c.resume(500_000).unwrap();
    // 3 s before the pause + 4 s after = 7 s: 2 s beyond the one delay of this move.
    assert_eq!(c.remaining(Side::White, 504_000), 58 * S);
    let pressed = c.press(Side::White, 504_000).unwrap();
    assert_eq!((pressed.think_ms, pressed.remaining_ms), (7 * S, 58 * S));
    assert_eq!(c.resume(505_000), Err(ClockError::NotPaused));
}

#[test]
fn refused_operations_change_nothing() {
    let mut c = clock("300+3");
    assert_eq!(c.press(Side::White, 0), Err(ClockError::NotStarted));
    assert_eq!(c.pause(0), Err(ClockError::NotStarted));
    assert_eq!(c.resume(0), Err(ClockError::NotStarted));
    c.start(0).unwrap();
    assert_eq!(c.start(1), Err(ClockError::AlreadyStarted));
    let before = c.clone();
    assert_eq!(
        c.press(Side::Black, 2_000),
        Err(ClockError::NotOnMove { side: Side::Black, on_move: Side::White })
    );
    assert_eq!(c, before);
}

#[test]
fn time_never_runs_backwards() {
    let mut c = clock("300");
    c.start(50_000).unwrap();
    c.press(Side::White, 60_000).unwrap();
    // A wall clock stepped back: the press counts at the latest time seen.
    let pressed = c.press(Side::Black, 40_000).unwrap();
    assert_eq!((pressed.think_ms, pressed.at), (0, 60_000));
    assert_eq!(c.remaining(Side::White, 10), 290 * S);
}

#[test]
fn a_game_from_a_position_with_black_to_move() {
    let mut c = ChessClock::with_first_mover("60".parse().unwrap(), Side::Black);
    assert_eq!(c.on_move(), Side::Black);
    c.start(0).unwrap();
    assert_eq!(c.press(Side::Black, S).unwrap().remaining_ms, 59 * S);
}

#[test]
fn arbiter_corrections_are_logged_with_who_and_why() {
    let mut c = started("40/7200:20/3600:900+30");
    c.press(Side::White, 10 * S).unwrap();
    // Mid-move correction of the running clock, then of the stopped one.
    let fix = c.set_remaining(Side::Black, 5_000 * S, 15 * S, "chief arbiter", "clock malfunction (6.11)");
    assert_eq!(
        fix.change,
        CorrectionChange::Remaining { side: Side::Black, from_ms: 7_195 * S, to_ms: 5_000 * S }
    );
    assert_eq!(c.remaining(Side::Black, 20 * S), 4_995 * S, "runs on from the corrected value");
    c.set_remaining(Side::White, 7_000 * S, 20 * S, "deputy", "penalty, Article 13.4");
    c.set_moves(Side::White, 39, 20 * S, "chief arbiter", "counter missed moves");
    assert_eq!(c.period(Side::White), 0);
    let log = c.corrections();
    assert_eq!(log.len(), 3);
    assert_eq!(
        (log[1].who.as_str(), log[1].why.as_str(), log[1].at),
        ("deputy", "penalty, Article 13.4", 20 * S)
    );
    assert_eq!(log[2].change, CorrectionChange::Moves { side: Side::White, from: 1, to: 39 });

    // White's next move is the 40th: the second period's time arrives.
    c.press(Side::Black, 30 * S).unwrap();
    let pressed = c.press(Side::White, 40 * S).unwrap();
    assert_eq!(pressed.moves_made, 40);
    assert_eq!(pressed.remaining_ms, (7_000 - 10 + 3_600) * S);

    // Setting the counter past a control moves the period without touching the time.
    c.set_moves(Side::Black, 60, 41 * S, "arbiter", "reconstructed from the scoresheet");
    assert_eq!(c.period(Side::Black), 2);
    assert_eq!(c.remaining(Side::Black, 41 * S), (5_000 - 15 - 1) * S);
}

#[test]
fn giving_a_flagged_side_time_lifts_its_flag() {
    let mut c = started("60");
    c.update(61 * S);
    assert_eq!(c.flag(Side::White), Some(60 * S));
    c.set_remaining(Side::White, 30 * S, 61 * S, "arbiter", "Article 6.11: clock replaced");
    assert_eq!(c.flag(Side::White), None);
    assert_eq!(c.next_flag_fall(), Some(FlagFall { side: Side::White, at: 91 * S }));
    // Setting zero flags the running side at once.
    c.take_events();
    c.set_remaining(Side::White, 0, 70 * S, "arbiter", "test");
    assert_eq!(c.take_events(), [ClockEvent::FlagFell(FlagFall { side: Side::White, at: 70 * S })]);
}

#[test]
fn a_correction_during_a_delay_keeps_the_delay() {
    let mut c = started("60d5");
    c.set_remaining(Side::White, 30 * S, 2 * S, "arbiter", "test");
    assert_eq!(c.remaining(Side::White, 5 * S), 30 * S, "the delay still runs");
    assert_eq!(c.press(Side::White, 9 * S).unwrap().remaining_ms, 26 * S);
}

/// The operations the daemon journals, so a clock can be rebuilt by replaying them.
#[derive(Clone, Copy, Debug)]
enum Input {
    Press(Side, Millis),
    Pause(Millis),
    Resume(Millis),
    SetRemaining(Side, Millis, Millis),
}

fn apply(c: &mut ChessClock, input: Input) {
    let _ = match input {
        Input::Press(side, t) => c.press(side, t).map(|_| ()),
        Input::Pause(t) => c.pause(t),
        Input::Resume(t) => c.resume(t),
        Input::SetRemaining(side, ms, t) => {
            c.set_remaining(side, ms, t, "arbiter", "test");
            Ok(())
        }
    };
}

#[test]
fn a_restored_clock_is_the_same_clock_both_from_state_and_from_inputs() {
    let control: TimeControl = "40/5400b30:1800b30".parse().unwrap();
    let inputs = [
        Input::Press(Side::White, 12_345),
        Input::Press(Side::Black, 50_000),
        Input::Pause(61_000),
        Input::Resume(700_000),
        Input::SetRemaining(Side::Black, 4_000_000, 701_000),
    ];
    let mut original = ChessClock::new(control.clone());
    original.start(1_000).unwrap();
    for input in inputs {
        apply(&mut original, input);
    }
    let saved = serde_json::to_string(&original).unwrap();
    let mut restored: ChessClock = serde_json::from_str(&saved).unwrap();
    assert_eq!(restored, original);

    let mut replayed = ChessClock::new(control);
    replayed.start(1_000).unwrap();
    for input in inputs {
        apply(&mut replayed, input);
    }
    assert_eq!(replayed, original);

    for c in [&mut original, &mut restored, &mut replayed] {
        assert_eq!(c.remaining(Side::White, 720_000), original_white_at_720s());
        c.press(Side::White, 720_000).unwrap();
    }
    assert_eq!(restored, original);
    assert_eq!(replayed, original);
}

/// White: 5400 s, first move 11.345 s (all given back by the 30 s Bronstein),
/// then thinking from 50 s to 61 s and from 700 s to 720 s in this move.
fn original_white_at_720s() -> Millis {
    5_400 * S - 11 * S - 20 * S
}

/// A six-hour game with presses at irregular millisecond times: the clock must
/// agree exactly with the sum of the thinking times, bonuses and period times.
#[test]
fn six_hours_of_irregular_presses_do_not_drift() {
    let control: TimeControl = "40/7200:20/3600:1800+30".parse().unwrap();
    let mut c = ChessClock::new(control.clone());
    let mut t: Millis = 1_700_000_000_123; // Unix time in ms, as the daemon gives it.
    let start = t;
    c.start(t).unwrap();
    let mut truth = [control.initial_ms() as i128; 2];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut moves = [0u32; 2];
    let mut side = Side::White;
    while t - start < 6 * 3_600 * S {
        // xorshift: 0.1 s to 5 min per move, never a round number.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let think = 100 + seed % (5 * MIN);
        let paused = if seed.is_multiple_of(17) { 1 + seed % 90_000 } else { 0 };
        if paused > 0 {
            c.pause(t + think / 2).unwrap();
            c.resume(t + think / 2 + paused).unwrap();
        }
        t += think + paused;
        let i = side as usize;
        moves[i] += 1;
        truth[i] -= think as i128;
        truth[i] += match control.bonus_of_move(moves[i]) {
            Bonus::Increment(ms) => ms as i128,
            _ => 0,
        };
        truth[i] += control.time_added_after_move(moves[i]).unwrap_or(0) as i128;
        if truth[i] <= 0 {
            break; // flag: the arithmetic after it is the arbiter's business
        }
        let pressed = c.press(side, t).unwrap();
        assert_eq!(pressed.think_ms, think);
        assert_eq!(pressed.remaining_ms as i128, truth[i], "{side} move {}", moves[i]);
        side = side.opponent();
        // The live display and the flag prediction agree with the books too.
        let live = c.remaining(side, t + 777);
        assert_eq!(live as i128, truth[side as usize] - 777);
        assert_eq!(c.next_flag_fall().unwrap().at, t + truth[side as usize] as Millis);
    }
    assert!(t - start >= 6 * 3_600 * S, "the game lasted {} ms", t - start);
    assert!(moves[0] > 60, "all three periods were played");
}

proptest! {
    /// Whatever the thinking times, each mode's arithmetic holds move by move.
    #[test]
    fn every_mode_charges_exactly_what_its_rule_says(
        thinks in proptest::collection::vec(0u64..20_000, 1..60),
        mode in 0usize..4,
        bonus in 0u64..10_000,
    ) {
        let bonus = [Bonus::None, Bonus::Increment(bonus), Bonus::SimpleDelay(bonus), Bonus::Bronstein(bonus)][mode];
        let control = TimeControl::sudden_death(3_600 * S, bonus);
        let mut c = ChessClock::new(control);
        let mut t = 0;
        c.start(t).unwrap();
        let mut expected = [3_600 * S; 2];
        for (n, think) in thinks.into_iter().enumerate() {
            let side = if n % 2 == 0 { Side::White } else { Side::Black };
            t += think;
            let e = &mut expected[side as usize];
            *e = match bonus {
                Bonus::None => *e - think,
                Bonus::Increment(b) => *e - think + b,
                Bonus::SimpleDelay(d) => *e - think.saturating_sub(d),
                Bonus::Bronstein(d) => *e - think + think.min(d),
            };
            prop_assert_eq!(c.press(side, t).unwrap().remaining_ms, *e);
        }
        let restored: ChessClock = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        prop_assert_eq!(restored, c);
    }
}

/// D.2.10.4: the time each side used is the time his clock actually ran —
/// increments, delays, period times and arbiter corrections of the display do
/// not change it; pauses are not counted; a move taken back keeps its time.
#[test]
fn time_used_is_the_time_each_clock_actually_ran() {
    for control in ["40/5400+30:1800+30", "60d5", "60b5", "300"] {
        let mut c = clock(control);
        assert_eq!(c.time_used(Side::White, 5_000), 0, "{control}: not started");
        c.start(1_000).unwrap();
        assert_eq!(c.time_used(Side::White, 4_000), 3 * S, "{control}: live while running");
        c.press(Side::White, 4_000).unwrap();
        c.press(Side::Black, 11_000).unwrap();
        c.pause(13_000).unwrap();
        c.resume(60_000).unwrap();
        // The arbiter gives White a minute: his display changes, his time used does not.
        c.set_remaining(Side::White, 2 * MIN, 61_000, "arbiter", "test");
        c.press(Side::White, 62_000).unwrap();
        assert_eq!(c.time_used(Side::White, 62_000), 3 * S + 2 * S + 2 * S, "{control}: pause excluded");
        assert_eq!(c.time_used(Side::Black, 62_000), 7 * S, "{control}");
        // Black thinks 4 s, then the record goes back to White's move: Black's
        // 4 s stay used, White's clock runs again.
        c.set_on_move(Side::White, 66_000, "arbiter", "D.2.9");
        assert_eq!(c.time_used(Side::Black, 70_000), 11 * S, "{control}: a take-back keeps the time");
        assert_eq!(c.time_used(Side::White, 70_000), 7 * S + 4 * S, "{control}");
        // Restoring keeps it.
        let restored: ChessClock = serde_json::from_str(&serde_json::to_string(&c).unwrap()).unwrap();
        assert_eq!(restored.time_used(Side::Black, 70_000), 11 * S);
    }
}

/// With an increment the display and the time used part ways: after forty
/// moves of 10 s each at 90 min + 30 s, White shows more time than he started
/// with, and has used 400 s.
#[test]
fn time_used_and_time_left_part_ways_with_increments_and_periods() {
    let mut c = clock("40/5400+30:1800+30");
    let mut t = 0;
    c.start(t).unwrap();
    for _ in 0..40 {
        for side in [Side::White, Side::Black] {
            t += 10 * S;
            c.press(side, t).unwrap();
        }
    }
    assert_eq!(c.time_used(Side::White, t), 400 * S);
    assert_eq!(c.remaining(Side::White, t), 5_400 * S + 40 * 20 * S + 1_800 * S);
    assert_eq!(
        c.time_used(Side::White, t) + c.remaining(Side::White, t),
        5_400 * S + 40 * 30 * S + 1_800 * S
    );
}

/// A clock following a master clock counts the time used from the switches
/// of the running side it reads (a master's pause included).
#[test]
fn a_followed_clock_counts_the_time_used_between_readings() {
    use station_core::clock::ClockReading;
    let reading = |white_ms, black_ms, running| ClockReading {
        white_ms,
        black_ms,
        running,
        white_flag: false,
        black_flag: false,
    };
    let mut c = clock("300").following();
    c.follow(&reading(300 * S, 300 * S, Some(Side::White)), 0);
    c.follow(&reading(295 * S, 300 * S, Some(Side::Black)), 5 * S);
    c.follow(&reading(295 * S, 297 * S, None), 8 * S);
    c.follow(&reading(295 * S, 297 * S, Some(Side::White)), 20 * S);
    assert_eq!(c.time_used(Side::White, 21 * S), 6 * S);
    assert_eq!(c.time_used(Side::Black, 21 * S), 3 * S);
}
