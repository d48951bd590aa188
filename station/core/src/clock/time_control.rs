//! The PGN `TimeControl` tag, plus the station's own notation for delays.
//!
//! A time control is a list of periods separated by `:`. Each period is
//! `[moves/]seconds[bonus]`:
//!
//! - `300` — sudden death: 300 s for the rest of the game;
//! - `180+2` — Fischer increment: 2 s added after every move of the period
//!   (from move 1, as FIDE and the PGN standard count it);
//! - `40/7200` — 40 moves in 7200 s; the next period's time is added when the
//!   40th move is completed;
//! - `40/7200:20/3600:900+30` — the FIDE classical control: periods follow one
//!   another, and any period may carry its own bonus.
//!
//! PGN has no notation for delays, so the station writes them as a letter in
//! place of `+` (the station reads and writes these; other PGN readers will not
//! understand them):
//!
//! - `5400d30` — simple (US) delay: each move the clock waits 30 s before it
//!   starts counting down (Article 6.2(b), the "time delay" mode);
//! - `5400b30` — Bronstein delay: after each move the player gets back the time
//!   that move used, at most 30 s.
//!
//! Seconds may have a decimal part down to milliseconds (`0.5`). If the last
//! period has a move count (`40/7200:20/3600`), it repeats: every further 20
//! moves earn another 3600 s, as in the traditional classical controls.
//! The tag values `?` (unknown) and `-` (no clock) are [`TimeControlTag`]s, not
//! time controls.

use crate::Millis;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What is added to a player's clock for each move of a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Bonus {
    /// Nothing.
    None,
    /// Fischer increment: added after each move of the period.
    Increment(Millis),
    /// Simple (US) delay: the clock starts counting down only after this much
    /// thinking time each move; unused delay is lost, never saved.
    SimpleDelay(Millis),
    /// Bronstein delay: after each move the time used is given back, up to this much.
    Bronstein(Millis),
}

impl Bonus {
    /// The amount in milliseconds (zero for [`Bonus::None`]).
    pub fn ms(self) -> Millis {
        match self {
            Bonus::None => 0,
            Bonus::Increment(ms) | Bonus::SimpleDelay(ms) | Bonus::Bronstein(ms) => ms,
        }
    }
}

/// One period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Period {
    /// Moves to complete in this period; `None` for sudden death (the rest of the game).
    pub moves: Option<u32>,
    /// Time given for the period (added to what is left of the previous one).
    pub time_ms: Millis,
    /// What each move of this period earns.
    pub bonus: Bonus,
}

impl Period {
    /// A sudden-death period.
    pub fn sudden_death(time_ms: Millis, bonus: Bonus) -> Self {
        Period { moves: None, time_ms, bonus }
    }

    /// A period of `moves` moves.
    pub fn moves(moves: u32, time_ms: Millis, bonus: Bonus) -> Self {
        Period { moves: Some(moves), time_ms, bonus }
    }
}

/// Where a player stands in the time control after some moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PeriodPosition {
    /// Periods completed so far (0 during the first period). A repeating last
    /// period keeps counting, so this can exceed the number of periods.
    pub period: u32,
    /// Moves made in the current period.
    pub moves_in_period: u32,
}

/// A validated time control: at least one period, no period of zero moves, and
/// nothing after a sudden-death period (it could never start).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TimeControl {
    periods: Vec<Period>,
}

/// The value of a PGN `TimeControl` tag.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControlTag {
    /// `?`: the time control is not known.
    Unknown,
    /// `-`: the game was played without a clock.
    Untimed,
    /// A time control.
    Timed(TimeControl),
}

/// Why a time control was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Nothing to parse.
    #[error("empty time control")]
    Empty,
    /// `?` or `-` where a time control with a clock was needed.
    #[error("time control {0:?} has no clock (\"?\" is unknown, \"-\" is untimed)")]
    NoClock(String),
    /// One period does not parse or makes no sense.
    #[error("time control period {period:?}: {problem}")]
    BadPeriod {
        /// The period's text.
        period: String,
        /// What is wrong with it.
        problem: PeriodProblem,
    },
    /// A period after a sudden-death period.
    #[error("time control period {period:?} follows a sudden-death period and can never start")]
    AfterSuddenDeath {
        /// The unreachable period's text.
        period: String,
    },
}

/// What is wrong with one period of a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PeriodProblem {
    /// The move count is not a whole number.
    #[error("the move count is not a whole number")]
    BadMoves,
    /// A period must have at least one move.
    #[error("a period of zero moves")]
    ZeroMoves,
    /// The time is not a number of seconds (at most three decimals).
    #[error("the time is not a number of seconds")]
    BadSeconds,
    /// The bonus is not a number of seconds.
    #[error("the bonus is not a number of seconds")]
    BadBonus,
    /// Sandglass (`*seconds`) is not supported by the station's clock.
    #[error("sandglass time controls are not supported")]
    Sandglass,
}

impl TimeControl {
    /// A time control from its periods, validated.
    pub fn new(periods: Vec<Period>) -> Result<Self, TimeControlError> {
        if periods.is_empty() {
            return Err(TimeControlError::Empty);
        }
        for (i, period) in periods.iter().enumerate() {
            if period.moves == Some(0) {
                return Err(TimeControlError::BadPeriod {
                    period: period.to_string(),
                    problem: PeriodProblem::ZeroMoves,
                });
            }
            if i > 0 && periods[i - 1].moves.is_none() {
                return Err(TimeControlError::AfterSuddenDeath { period: period.to_string() });
            }
        }
        Ok(TimeControl { periods })
    }

    /// A one-period control: `time_ms` for the whole game with `bonus` each move.
    pub fn sudden_death(time_ms: Millis, bonus: Bonus) -> Self {
        TimeControl { periods: vec![Period::sudden_death(time_ms, bonus)] }
    }

    /// The periods, in order (never empty).
    pub fn periods(&self) -> &[Period] {
        &self.periods
    }

    /// The `period`-th period (0-based); past the end, the last one (which repeats
    /// if it has a move count, and lasts forever if not).
    pub fn period(&self, period: u32) -> &Period {
        let last = self.periods.len() - 1;
        let index = usize::try_from(period).map_or(last, |p| p.min(last));
        &self.periods[index]
    }

    /// The time on each clock at the start.
    pub fn initial_ms(&self) -> Millis {
        self.periods[0].time_ms
    }

    /// Where a player stands after making `moves_made` moves.
    pub fn locate(&self, moves_made: u32) -> PeriodPosition {
        let mut period = 0u32;
        let mut left = moves_made;
        loop {
            let is_last = usize::try_from(period).map_or(true, |p| p + 1 >= self.periods.len());
            match self.period(period).moves {
                None => return PeriodPosition { period, moves_in_period: left },
                Some(n) if left < n => return PeriodPosition { period, moves_in_period: left },
                // The last period repeats; divide instead of looping up to u32::MAX times.
                Some(n) if is_last => {
                    return PeriodPosition {
                        period: period.saturating_add(left / n),
                        moves_in_period: left % n,
                    };
                }
                Some(n) => {
                    left -= n;
                    period += 1;
                }
            }
        }
    }

    /// The bonus earned by the player's `move_number`-th move (1-based).
    pub fn bonus_of_move(&self, move_number: u32) -> Bonus {
        self.period(self.locate(move_number.saturating_sub(1)).period).bonus
    }

    /// The time added when the player completes their `move_number`-th move
    /// (1-based): the next period's time if that move completes a period.
    pub fn time_added_after_move(&self, move_number: u32) -> Option<Millis> {
        let before = self.locate(move_number.saturating_sub(1));
        let after = self.locate(move_number);
        (move_number > 0 && after.period > before.period).then(|| self.period(after.period).time_ms)
    }
}

impl FromStr for TimeControlTag {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.trim() {
            "?" => Ok(TimeControlTag::Unknown),
            "-" => Ok(TimeControlTag::Untimed),
            other => other.parse().map(TimeControlTag::Timed),
        }
    }
}

impl fmt::Display for TimeControlTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlTag::Unknown => f.write_str("?"),
            TimeControlTag::Untimed => f.write_str("-"),
            TimeControlTag::Timed(control) => control.fmt(f),
        }
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        match text {
            "" => return Err(TimeControlError::Empty),
            "?" | "-" => return Err(TimeControlError::NoClock(text.to_string())),
            _ => {}
        }
        let periods = text.split(':').map(parse_period).collect::<Result<Vec<_>, _>>()?;
        // Validation reports the period as written, not as reformatted.
        for (i, part) in text.split(':').enumerate().skip(1) {
            if periods[i - 1].moves.is_none() {
                return Err(TimeControlError::AfterSuddenDeath { period: part.to_string() });
            }
        }
        TimeControl::new(periods)
    }
}

fn parse_period(text: &str) -> Result<Period, TimeControlError> {
    let bad = |problem| TimeControlError::BadPeriod { period: text.to_string(), problem };
    let text = text.trim();
    if text.starts_with('*') {
        return Err(bad(PeriodProblem::Sandglass));
    }
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => {
            let moves: u32 = moves.trim().parse().map_err(|_| bad(PeriodProblem::BadMoves))?;
            if moves == 0 {
                return Err(bad(PeriodProblem::ZeroMoves));
            }
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (time, bonus) = match rest.find(['+', 'd', 'b']) {
        Some(at) => {
            let amount = parse_seconds(&rest[at + 1..]).ok_or_else(|| bad(PeriodProblem::BadBonus))?;
            let bonus = match rest.as_bytes()[at] {
                b'+' => Bonus::Increment(amount),
                b'd' => Bonus::SimpleDelay(amount),
                _ => Bonus::Bronstein(amount),
            };
            (&rest[..at], bonus)
        }
        None => (rest, Bonus::None),
    };
    let time_ms = parse_seconds(time).ok_or_else(|| bad(PeriodProblem::BadSeconds))?;
    Ok(Period { moves, time_ms, bonus })
}

/// Milliseconds of a seconds value with at most three decimals (`90`, `2.5`).
fn parse_seconds(text: &str) -> Option<Millis> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (text.contains('.') && !digits(fraction)) || fraction.len() > 3 {
        return None;
    }
    let fraction_ms =
        if fraction.is_empty() { 0 } else { format!("{fraction:0<3}").parse::<Millis>().ok()? };
    whole.parse::<Millis>().ok()?.checked_mul(1000)?.checked_add(fraction_ms)
}

/// Seconds as the PGN writes them: whole seconds plain, fractions with up to three decimals.
fn write_seconds(f: &mut fmt::Formatter<'_>, ms: Millis) -> fmt::Result {
    let (whole, fraction) = (ms / 1000, ms % 1000);
    if fraction == 0 {
        write!(f, "{whole}")
    } else {
        let fraction = format!("{fraction:03}");
        write!(f, "{whole}.{}", fraction.trim_end_matches('0'))
    }
}

impl fmt::Display for Period {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(moves) = self.moves {
            write!(f, "{moves}/")?;
        }
        write_seconds(f, self.time_ms)?;
        let (sign, amount) = match self.bonus {
            Bonus::None => return Ok(()),
            Bonus::Increment(ms) => ('+', ms),
            Bonus::SimpleDelay(ms) => ('d', ms),
            Bonus::Bronstein(ms) => ('b', ms),
        };
        write!(f, "{sign}")?;
        write_seconds(f, amount)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, period) in self.periods.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            period.fmt(f)?;
        }
        Ok(())
    }
}

impl TryFrom<String> for TimeControl {
    type Error = TimeControlError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl From<TimeControl> for String {
    fn from(control: TimeControl) -> Self {
        control.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn parses_every_pgn_form_and_writes_it_back() {
        for text in [
            "300",
            "180+2",
            "300+0",
            "40/7200:20/3600:900+30",
            "40/9000:300",
            "5400d30",
            "5400b30",
            "1.5+0.25",
        ] {
            assert_eq!(tc(text).to_string(), text);
        }
        assert_eq!(tc("180+2").periods(), [Period::sudden_death(180_000, Bonus::Increment(2_000))]);
        assert_eq!(
            tc("40/7200:20/3600:900+30").periods(),
            [
                Period::moves(40, 7_200_000, Bonus::None),
                Period::moves(20, 3_600_000, Bonus::None),
                Period::sudden_death(900_000, Bonus::Increment(30_000)),
            ]
        );
        assert_eq!(tc("5400d30").period(0).bonus, Bonus::SimpleDelay(30_000));
        assert_eq!(tc("40/5400b30:1800b30").period(1).bonus, Bonus::Bronstein(30_000));
    }

    #[test]
    fn tag_values_without_a_clock() {
        assert_eq!("?".parse::<TimeControlTag>(), Ok(TimeControlTag::Unknown));
        assert_eq!("-".parse::<TimeControlTag>(), Ok(TimeControlTag::Untimed));
        assert_eq!("60+0".parse::<TimeControlTag>(), Ok(TimeControlTag::Timed(tc("60+0"))));
        assert_eq!("-".parse::<TimeControl>(), Err(TimeControlError::NoClock("-".into())));
    }

    #[test]
    fn errors_name_the_offending_text() {
        let err = |text: &str| text.parse::<TimeControl>().unwrap_err().to_string();
        assert_eq!(err("x/7200:300"), "time control period \"x/7200\": the move count is not a whole number");
        assert_eq!(err("40/x:300"), "time control period \"40/x\": the time is not a number of seconds");
        assert_eq!(err("300+two"), "time control period \"300+two\": the bonus is not a number of seconds");
        assert_eq!(err("0/300"), "time control period \"0/300\": a period of zero moves");
        assert_eq!(err("*180"), "time control period \"*180\": sandglass time controls are not supported");
        assert_eq!(
            err("300:40/60"),
            "time control period \"40/60\" follows a sudden-death period and can never start"
        );
        assert_eq!(err("1.2345"), "time control period \"1.2345\": the time is not a number of seconds");
        assert_eq!(
            err("99999999999999999999"),
            "time control period \"99999999999999999999\": the time is not a number of seconds"
        );
        assert_eq!(err(""), "empty time control");
        assert!(TimeControl::new(vec![]).is_err());
    }

    #[test]
    fn locates_moves_in_periods_and_repeats_a_counted_last_period() {
        let classical = tc("40/7200:20/3600:900+30");
        assert_eq!(classical.locate(39), PeriodPosition { period: 0, moves_in_period: 39 });
        assert_eq!(classical.locate(40), PeriodPosition { period: 1, moves_in_period: 0 });
        assert_eq!(classical.locate(60), PeriodPosition { period: 2, moves_in_period: 0 });
        assert_eq!(classical.locate(100), PeriodPosition { period: 2, moves_in_period: 40 });
        assert_eq!(classical.time_added_after_move(40), Some(3_600_000));
        assert_eq!(classical.time_added_after_move(60), Some(900_000));
        assert_eq!(classical.time_added_after_move(61), None);
        assert_eq!(classical.bonus_of_move(60), Bonus::None);
        assert_eq!(classical.bonus_of_move(61), Bonus::Increment(30_000));

        let repeating = tc("40/7200:20/3600");
        assert_eq!(repeating.locate(80), PeriodPosition { period: 3, moves_in_period: 0 });
        assert_eq!(repeating.time_added_after_move(80), Some(3_600_000));
        assert_eq!(repeating.locate(u32::MAX).period, 1 + (u32::MAX - 40) / 20);
    }

    #[test]
    fn serialises_as_its_notation() {
        let json = serde_json::to_string(&tc("40/7200:900+30")).unwrap();
        assert_eq!(json, "\"40/7200:900+30\"");
        assert_eq!(serde_json::from_str::<TimeControl>(&json).unwrap(), tc("40/7200:900+30"));
        assert!(serde_json::from_str::<TimeControl>("\"-\"").is_err());
    }
}
