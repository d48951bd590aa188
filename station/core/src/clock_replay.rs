//! Checks the clock engine against real games: replays each game's `[%clk]`
//! comments through a [`ChessClock`] and counts where the two disagree.
//!
//! Each move's thinking time is derived from the file: the same side's previous
//! `[%clk]` (or the initial time, for its first move), plus what that move earns
//! (increment, and the next period's time if the move completes a period), minus
//! the `[%clk]` after the move. For delays, a move that cost the main time
//! nothing is replayed as taking no time, and one that cost `x` as taking
//! `delay + x`. The engine is pressed at those synthetic times and its own
//! arithmetic — bonuses, move counting, period additions — must land on the
//! file's value after every move.
//!
//! Rounding: `[%clk]` has whole seconds (the reader drops any fraction), so the
//! derived thinking times are whole seconds and the engine's remaining time is
//! exact; it is compared rounded down to whole seconds, the way a clock display
//! and [`format_clock`](crate::clock::format_clock) show it, and differs only if the
//! arithmetic does (or the time control has fractional seconds). A negative
//! derived thinking time (the clock rose by more than the rules give) is
//! replayed as zero, and the engine is then set to the file's value, as an
//! arbiter would, so one anomaly counts once.
//!
//! Adjustments: time added to a side beyond what the time control explains —
//! an arbiter's two minutes after an illegal move (Art. 7.5.5), a "give time"
//! on a server — is not a clock error. A rise of at least
//! [`ADJUSTMENT_MIN_MS`] between two of the side's own moves is counted as an
//! adjustment and written as a [`Correction`] (who `replay`, why "time added
//! beyond the time control"), not as a mismatch. Everything else stays a
//! mismatch: a smaller rise (the engine's clock running faster than the
//! record: a wrong increment, drift), any disagreement at a side's first
//! move, where the "before" is the time control's own initial time, and a rise
//! at a period's end or as large as a period's time (a wrong time control,
//! not a gift).

use crate::Millis;
use crate::clock::{Bonus, ChessClock, Correction, Side, TimeControlTag};
use crate::pgn::PgnGame;
use serde::{Deserialize, Serialize};
use shakmaty::Position;

/// What a replay found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockReplayReport {
    /// Plies compared.
    pub plies: usize,
    /// Plies where the engine's remaining time differs from `[%clk]` by a second or more.
    pub mismatches: usize,
    /// Why the game was not replayed (no clock comments, no usable time control).
    pub skipped_reason: Option<String>,
    /// The first disagreement, for diagnosis.
    pub first_mismatch: Option<ClockMismatch>,
    /// Plies after which time had been added beyond the time control (see the module documentation).
    pub adjustments: usize,
    /// The corrections the adjustments made, in order.
    pub corrections: Vec<Correction>,
}

/// The smallest rise of a side's clock between two of its own moves counted as
/// time added (an adjustment) rather than as the engine running faster than
/// the record. Online "give time" adds 15 s, an arbiter two minutes; a clock
/// that drifts or an increment set wrong moves by a few seconds a move.
pub const ADJUSTMENT_MIN_MS: Millis = 10_000;

/// One ply where the engine and the file disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockMismatch {
    /// Half-move number, 1 = the first move of the game.
    pub ply: usize,
    /// Who moved.
    pub side: Side,
    /// The file's `[%clk]` in seconds.
    pub file_seconds: u32,
    /// The engine's remaining time.
    pub engine_ms: Millis,
}

/// Replays `game`'s clock comments through the engine; see the module documentation.
pub fn replay_clock(game: &PgnGame) -> ClockReplayReport {
    let skipped = |reason: String| ClockReplayReport { skipped_reason: Some(reason), ..Default::default() };
    let control = match game.tags.get("TimeControl").map(|tag| tag.parse::<TimeControlTag>()) {
        None => return skipped("no TimeControl tag".into()),
        Some(Err(e)) => return skipped(e.to_string()),
        Some(Ok(TimeControlTag::Unknown)) => return skipped("TimeControl \"?\": unknown".into()),
        Some(Ok(TimeControlTag::Untimed)) => {
            return skipped("TimeControl \"-\": played without a clock".into());
        }
        Some(Ok(TimeControlTag::Timed(control))) => control,
    };
    if game.clocks.iter().all(Option::is_none) {
        return skipped("no [%clk] comments".into());
    }
    let clocks: Vec<u32> = match game.clocks.iter().position(Option::is_none) {
        Some(missing) => return skipped(format!("no [%clk] after ply {}", missing + 1)),
        None => game.clocks.iter().flatten().copied().collect(),
    };

    let first = Side::from(game.game.start().turn());
    let mut clock = ChessClock::with_first_mover(control.clone(), first);
    let mut t: Millis = 0;
    let mut report = ClockReplayReport::default();
    if let Err(e) = clock.start(t) {
        return skipped(format!("clock: {e}"));
    }
    let mut before = [control.initial_ms(); 2];
    let mut moves = [0u32; 2];
    for (i, &file_seconds) in clocks.iter().enumerate() {
        let side = if i % 2 == 0 { first } else { first.opponent() };
        moves[side.index()] = moves[side.index()].saturating_add(1);
        let move_number = moves[side.index()];
        let after = Millis::from(file_seconds) * 1000;
        let bonus = control.bonus_of_move(move_number);
        let added = control.time_added_after_move(move_number).unwrap_or(0);
        t = t.saturating_add(thinking_time(bonus, before[side.index()].saturating_add(added), after));
        before[side.index()] = after;
        if let Err(e) = clock.press(side, t) {
            report.skipped_reason = Some(format!("ply {}: clock: {e}", i + 1));
            return report;
        }
        report.plies += 1;
        let engine_ms = clock.remaining(side, t);
        if engine_ms / 1000 != after / 1000 {
            let added = after.saturating_sub(engine_ms);
            if is_adjustment(&control, move_number, added) {
                report.adjustments += 1;
                let why = format!("time added beyond the time control (+{} s)", added / 1000);
                report.corrections.push(clock.set_remaining(side, after, t, "replay", why));
            } else {
                report.mismatches += 1;
                report.first_mismatch.get_or_insert(ClockMismatch {
                    ply: i + 1,
                    side,
                    file_seconds,
                    engine_ms,
                });
                clock.set_remaining(side, after, t, "replay", "resynchronised to the file's [%clk]");
            }
        }
    }
    report
}

/// Whether a rise of `added` beyond what the engine shows after the side's
/// `move_number`-th move is time given (see the module documentation). A rise
/// at the side's first move, at a move that ends a period, or as large as a
/// later period's time is the time control being wrong, not a gift.
fn is_adjustment(control: &crate::clock::TimeControl, move_number: u32, added: Millis) -> bool {
    let smallest_period =
        control.periods().iter().skip(1).map(|p| p.time_ms).filter(|&ms| ms > 0).min().unwrap_or(Millis::MAX);
    move_number > 1
        && added >= ADJUSTMENT_MIN_MS
        && added < smallest_period
        && control.time_added_after_move(move_number).is_none()
}

/// The thinking time that takes a clock showing `before` (period additions
/// included) to `after` under `bonus`.
fn thinking_time(bonus: Bonus, before: Millis, after: Millis) -> Millis {
    let (paid, free) = match bonus {
        Bonus::None => (0, 0),
        Bonus::Increment(increment) => (increment, 0),
        Bonus::SimpleDelay(delay) | Bonus::Bronstein(delay) => (0, delay),
    };
    // `lost` is the main time the move consumed; a delay's free part comes on top.
    match before.saturating_add(paid).checked_sub(after) {
        Some(0) | None => 0,
        Some(lost) => lost.saturating_add(free),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_time_inverts_each_bonus() {
        assert_eq!(thinking_time(Bonus::None, 60_000, 55_000), 5_000);
        assert_eq!(thinking_time(Bonus::Increment(2_000), 60_000, 55_000), 7_000);
        assert_eq!(thinking_time(Bonus::Increment(2_000), 60_000, 62_000), 0);
        assert_eq!(thinking_time(Bonus::SimpleDelay(5_000), 60_000, 60_000), 0);
        assert_eq!(thinking_time(Bonus::SimpleDelay(5_000), 60_000, 55_000), 10_000);
        assert_eq!(thinking_time(Bonus::Bronstein(5_000), 60_000, 55_000), 10_000);
        assert_eq!(thinking_time(Bonus::None, 60_000, 70_000), 0);
    }
}
