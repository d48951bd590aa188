//! The chess clock itself: two dials, a move counter per side, periods and
//! bonuses, flags and arbiter corrections — with time always given as an input.
//!
//! Every operation takes the current time `t`. Inputs never run backwards: a
//! time earlier than one already seen counts as the latest one seen, so a
//! stepped-back wall clock cannot give a player time.
//!
//! Restoring after a restart: the whole state (including the correction log and
//! undelivered events) serialises with serde and deserialises to an identical
//! clock. Because every operation is a pure function of the state and its
//! inputs, replaying the journaled inputs (start, presses, pauses, corrections
//! with their times) from [`ChessClock::new`] also rebuilds it exactly; the
//! daemon may use either.

use super::Side;
use super::correction::{Correction, CorrectionChange};
use super::move_time::{charged, earned, time_to_flag};
use super::reading::ClockReading;
use super::time_control::{PeriodPosition, TimeControl};
use crate::Millis;
use serde::{Deserialize, Serialize};

/// Why the clock refused an operation. None of these changes the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// The clock has not been started.
    #[error("the clock has not been started")]
    NotStarted,
    /// `start` on a clock that is already going.
    #[error("the clock was already started")]
    AlreadyStarted,
    /// A press by the side whose clock is not running (its button is already down).
    #[error("{side} pressed, but it is {on_move}'s clock that runs")]
    NotOnMove {
        /// Who pressed.
        side: Side,
        /// Whose clock runs.
        on_move: Side,
    },
    /// A press or pause while the clock is paused.
    #[error("the clock is paused")]
    Paused,
    /// `resume` on a clock that is not paused.
    #[error("the clock is not paused")]
    NotPaused,
}

/// A flag fall: which side ran out of time, and the exact time it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FlagFall {
    /// The side whose time ran out.
    pub side: Side,
    /// When its remaining time reached zero (computed, not observed).
    pub at: Millis,
}

/// Something the clock noticed, for the daemon to announce and journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClockEvent {
    /// A flag fell (Article 6.1). The clock goes on mechanically; what follows is
    /// the arbiter's decision (Articles 6.9–6.12).
    FlagFell(FlagFall),
    /// A side completed the move count of a period and got the next period's time.
    TimeControlReached {
        /// Who.
        side: Side,
        /// Moves that side has made.
        moves: u32,
        /// The period that starts now (0-based, counting repeats).
        period: u32,
        /// Time added.
        added_ms: Millis,
        /// When (the press that completed the period).
        at: Millis,
    },
}

/// The result of an accepted press.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pressed {
    /// Who pressed (completed a move).
    pub side: Side,
    /// When the press arrived.
    pub at: Millis,
    /// Thinking time of the move, pauses excluded.
    pub think_ms: Millis,
    /// The presser's remaining time after bonus and any period time.
    pub remaining_ms: Millis,
    /// Moves the presser has made, this one included.
    pub moves_made: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct SideClock {
    /// Remaining time at the start of the current turn (or the last settlement).
    remaining_ms: Millis,
    moves_made: u32,
    position: PeriodPosition,
    /// Thinking time of this side's closed turns: the time his clock actually
    /// ran (D.2.10.4 "time used"), pauses excluded, whatever bonuses,
    /// period times or arbiter corrections did to the display.
    #[serde(default)]
    used_ms: Millis,
}

/// The side whose move it is and the thinking time it has used in closed
/// stretches of this move (a pause closes a stretch).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Turn {
    side: Side,
    used_ms: Millis,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
enum RunState {
    NotStarted { first: Side },
    Running { turn: Turn, since: Millis },
    Paused { turn: Turn },
}

/// A two-sided chess clock. See the module documentation for time and restoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChessClock {
    control: TimeControl,
    sides: [SideClock; 2],
    run: RunState,
    /// The latest time seen.
    now: Millis,
    /// Latched flag falls, until an arbiter gives the side time again.
    flags: [Option<Millis>; 2],
    corrections: Vec<Correction>,
    events: Vec<ClockEvent>,
    /// The clock follows an external master clock ([`ChessClock::follow`]): it
    /// applies no bonuses and never decides a flag by itself.
    #[serde(default)]
    followed: bool,
}

impl ChessClock {
    /// A clock set for `control`, not started; White's clock will run first (Article 6.5).
    pub fn new(control: TimeControl) -> Self {
        Self::with_first_mover(control, Side::White)
    }

    /// A clock whose `first` side moves first (a game from a position with Black to move).
    pub fn with_first_mover(control: TimeControl, first: Side) -> Self {
        let side = SideClock {
            remaining_ms: control.initial_ms(),
            moves_made: 0,
            position: PeriodPosition { period: 0, moves_in_period: 0 },
            used_ms: 0,
        };
        ChessClock {
            control,
            sides: [side.clone(), side],
            run: RunState::NotStarted { first },
            now: 0,
            flags: [None; 2],
            corrections: Vec::new(),
            events: Vec::new(),
            followed: false,
        }
    }

    /// This clock, made to follow an external master clock (a DGT 3000): the
    /// master keeps the time, applies bonuses and period times and shows flags;
    /// this clock shows its readings, runs on between them, and counts moves.
    pub fn following(mut self) -> Self {
        self.followed = true;
        self
    }

    /// Whether the clock follows an external master clock.
    pub fn is_followed(&self) -> bool {
        self.followed
    }

    /// Takes a reading of the master clock at `t`: both displays read as the
    /// master shows them from `t` on, the running side is the master's, and a
    /// flag the master shows is latched (one [`ClockEvent::FlagFell`]).
    ///
    /// A switch of the running side is the running player's press (his move is
    /// counted and returned) unless the side that starts running gained time:
    /// a press never gives the opponent time, so that is the clock being set
    /// (SetNRun at a game's start, an arbiter's correction), not a press.
    pub fn follow(&mut self, reading: &ClockReading, t: Millis) -> Option<Pressed> {
        let t = self.settle(t);
        let mut pressed = None;
        self.run = match (self.run, reading.running) {
            (RunState::Running { turn, .. }, None) => {
                RunState::Paused { turn: Turn { used_ms: self.used(t), ..turn } }
            }
            (run, None) => run,
            (RunState::Running { turn, .. }, Some(side)) if turn.side == side => {
                RunState::Running { turn: Turn { used_ms: self.used(t), ..turn }, since: t }
            }
            (RunState::Running { turn, .. }, Some(side)) => {
                self.close_turn(turn.side, self.used(t));
                // One second of slack: displays are whole seconds, rounded up.
                let set = reading.ms(side) > self.remaining(side, t).saturating_add(1000);
                if !set {
                    let presser = turn.side;
                    let think_ms = self.used(t);
                    let clock = &mut self.sides[presser.index()];
                    clock.moves_made = clock.moves_made.saturating_add(1);
                    clock.position = self.control.locate(clock.moves_made);
                    pressed = Some(Pressed {
                        side: presser,
                        at: t,
                        think_ms,
                        remaining_ms: reading.ms(presser),
                        moves_made: clock.moves_made,
                    });
                }
                RunState::Running { turn: Turn { side, used_ms: 0 }, since: t }
            }
            (RunState::Paused { turn }, Some(side)) => {
                if turn.side != side {
                    self.close_turn(turn.side, turn.used_ms);
                }
                let used_ms = if turn.side == side { turn.used_ms } else { 0 };
                RunState::Running { turn: Turn { side, used_ms }, since: t }
            }
            (RunState::NotStarted { .. }, Some(side)) => {
                RunState::Running { turn: Turn { side, used_ms: 0 }, since: t }
            }
        };
        for side in [Side::White, Side::Black] {
            // What makes the display read the master's time now.
            let used = match self.turn() {
                Some(turn) if turn.side == side => charged(self.bonus_now(side), self.used(t)),
                _ => 0,
            };
            self.sides[side.index()].remaining_ms = reading.ms(side).saturating_add(used);
            match (reading.flag(side), self.flags[side.index()]) {
                (true, None) => {
                    self.flags[side.index()] = Some(t);
                    self.events.push(ClockEvent::FlagFell(FlagFall { side, at: t }));
                }
                (false, Some(_)) => self.flags[side.index()] = None,
                _ => {}
            }
        }
        pressed
    }

    /// The time control the clock was set for.
    pub fn time_control(&self) -> &TimeControl {
        &self.control
    }

    /// Starts the first mover's clock.
    pub fn start(&mut self, t: Millis) -> Result<(), ClockError> {
        let RunState::NotStarted { first } = self.run else {
            return Err(ClockError::AlreadyStarted);
        };
        let t = self.settle(t);
        self.run = RunState::Running { turn: Turn { side: first, used_ms: 0 }, since: t };
        Ok(())
    }

    /// `side` completed a move and pressed: its clock stops (bonus and any next
    /// period's time are applied, the move is counted) and the opponent's starts.
    pub fn press(&mut self, side: Side, t: Millis) -> Result<Pressed, ClockError> {
        self.press_made(side, t, t)
    }

    /// `side` completed a move at `made` that is pressed only at `t` (the
    /// station decided it later than it was made, and presses for the player):
    /// his thinking time ends at `made`, and the time since is the opponent's,
    /// whose clock has been running since then (issue 25). Never more than this
    /// turn's own time is handed over.
    pub fn press_made(&mut self, side: Side, made: Millis, t: Millis) -> Result<Pressed, ClockError> {
        let turn = match self.run {
            RunState::NotStarted { .. } => return Err(ClockError::NotStarted),
            RunState::Paused { .. } => return Err(ClockError::Paused),
            RunState::Running { turn, .. } if turn.side != side => {
                return Err(ClockError::NotOnMove { side, on_move: turn.side });
            }
            RunState::Running { turn, .. } => turn,
        };
        let t = self.settle(t);
        let handed_over = t.saturating_sub(made).min(self.used(t));
        let used = self.used(t) - handed_over;
        let control = &self.control;
        let clock = &mut self.sides[side.index()];
        let period = control.period(clock.position.period);
        let bonus = period.bonus;
        clock.remaining_ms =
            clock.remaining_ms.saturating_sub(charged(bonus, used)).saturating_add(earned(bonus, used));
        clock.moves_made = clock.moves_made.saturating_add(1);
        clock.used_ms = clock.used_ms.saturating_add(used);
        clock.position.moves_in_period = clock.position.moves_in_period.saturating_add(1);
        // FIDE practice: the next period's time is added the moment the period's
        // move count is completed, not when the flag of the period falls.
        if period.moves == Some(clock.position.moves_in_period) {
            clock.position.period = clock.position.period.saturating_add(1);
            clock.position.moves_in_period = 0;
            let added_ms = control.period(clock.position.period).time_ms;
            clock.remaining_ms = clock.remaining_ms.saturating_add(added_ms);
            self.events.push(ClockEvent::TimeControlReached {
                side,
                moves: clock.moves_made,
                period: clock.position.period,
                added_ms,
                at: t,
            });
        }
        let pressed = Pressed {
            side,
            at: t - handed_over,
            think_ms: used,
            remaining_ms: clock.remaining_ms,
            moves_made: clock.moves_made,
        };
        let next = Turn { side: turn.side.opponent(), used_ms: handed_over };
        self.run = RunState::Running { turn: next, since: t };
        Ok(pressed)
    }

    /// Stops the running clock (Article 6.13: the arbiter interrupts the game).
    pub fn pause(&mut self, t: Millis) -> Result<(), ClockError> {
        match self.run {
            RunState::NotStarted { .. } => return Err(ClockError::NotStarted),
            RunState::Paused { .. } => return Err(ClockError::Paused),
            RunState::Running { .. } => {}
        }
        let t = self.settle(t);
        if let RunState::Running { turn, .. } = self.run {
            self.run = RunState::Paused { turn: Turn { used_ms: self.used(t), ..turn } };
        }
        Ok(())
    }

    /// Restarts the clock that was paused; the move's thinking time so far is kept.
    pub fn resume(&mut self, t: Millis) -> Result<(), ClockError> {
        let RunState::Paused { turn } = self.run else {
            return Err(match self.run {
                RunState::NotStarted { .. } => ClockError::NotStarted,
                _ => ClockError::NotPaused,
            });
        };
        let t = self.settle(t);
        self.run = RunState::Running { turn, since: t };
        Ok(())
    }

    /// What `side`'s clock shows at `t` (running down live if it is running).
    pub fn remaining(&self, side: Side, t: Millis) -> Millis {
        let clock = &self.sides[side.index()];
        match self.turn() {
            Some(turn) if turn.side == side => {
                clock.remaining_ms.saturating_sub(charged(self.bonus_now(side), self.used(t)))
            }
            _ => clock.remaining_ms,
        }
    }

    /// What `side`'s clock showed when its running turn began (the time of
    /// the move in progress not charged), or shows now when it does not run:
    /// the reading at the moment the last move was made, which a press that
    /// counted late ([`Self::press_made`]) already charges to the opponent.
    pub fn reading_when_turn_began(&self, side: Side) -> Millis {
        self.sides[side.index()].remaining_ms
    }

    /// The time `side` has used by `t` (D.2.10.4): how long his clock has
    /// actually run in this game, the move in progress included, pauses
    /// excluded. Increments, delays and period times do not change it, nor do
    /// arbiter corrections of the display ([`Self::set_remaining`]); a move
    /// taken back ([`Self::set_on_move`]) keeps the time it took. A delay's
    /// seconds count: his clock was running, only its display waited.
    pub fn time_used(&self, side: Side, t: Millis) -> Millis {
        let closed = self.sides[side.index()].used_ms;
        match self.turn() {
            Some(turn) if turn.side == side => closed.saturating_add(self.used(t)),
            _ => closed,
        }
    }

    /// Thinking time spent on the move in progress at `t` (zero before the start).
    pub fn move_time(&self, t: Millis) -> Millis {
        self.used(t)
    }

    /// The side whose clock runs (or would run, when paused or not started).
    pub fn on_move(&self) -> Side {
        match self.run {
            RunState::NotStarted { first } => first,
            RunState::Running { turn, .. } | RunState::Paused { turn } => turn.side,
        }
    }

    /// Whether a clock is running (started and not paused).
    pub fn is_running(&self) -> bool {
        matches!(self.run, RunState::Running { .. })
    }

    /// Whether the clock has been started.
    pub fn is_started(&self) -> bool {
        !matches!(self.run, RunState::NotStarted { .. })
    }

    /// Moves `side` has made (the move counter of D.2.6.1).
    pub fn moves_made(&self, side: Side) -> u32 {
        self.sides[side.index()].moves_made
    }

    /// The period `side` is in (0-based; a repeating last period keeps counting).
    pub fn period(&self, side: Side) -> u32 {
        self.sides[side.index()].position.period
    }

    /// Where `side` stands in the time control.
    pub fn position(&self, side: Side) -> PeriodPosition {
        self.sides[side.index()].position
    }

    /// When the running clock will reach zero if nobody presses, or `None` if no
    /// clock runs. The daemon sets its timer to this instead of polling.
    pub fn next_flag_fall(&self) -> Option<FlagFall> {
        let RunState::Running { turn, since } = self.run else {
            return None;
        };
        // A followed clock's flags are the master's.
        if self.followed || self.flags[turn.side.index()].is_some() {
            return None;
        }
        let budget = time_to_flag(self.bonus_now(turn.side), self.sides[turn.side.index()].remaining_ms);
        Some(FlagFall { side: turn.side, at: since.saturating_add(budget).saturating_sub(turn.used_ms) })
    }

    /// The first flag that has fallen by `t`, latched or not yet noticed.
    pub fn flagged(&self, t: Millis) -> Option<FlagFall> {
        let latched = [Side::White, Side::Black]
            .into_iter()
            .filter_map(|side| self.flags[side.index()].map(|at| FlagFall { side, at }))
            .min_by_key(|fall| fall.at);
        latched.or_else(|| self.next_flag_fall().filter(|fall| fall.at <= t.max(self.now)))
    }

    /// When `side`'s flag fell, if it has (and no arbiter has given time since).
    pub fn flag(&self, side: Side) -> Option<Millis> {
        self.flags[side.index()]
    }

    /// Brings the clock up to `t`: latches a flag that has fallen by then (and
    /// queues a [`ClockEvent::FlagFell`]). Every other operation does this first.
    pub fn update(&mut self, t: Millis) {
        self.settle(t);
    }

    /// Events since the last call, oldest first.
    pub fn take_events(&mut self) -> Vec<ClockEvent> {
        std::mem::take(&mut self.events)
    }

    /// Arbiter correction: `side`'s clock shows `ms` from `t` on. Giving a
    /// flagged side time lifts its flag (the arbiter decided play goes on).
    pub fn set_remaining(
        &mut self,
        side: Side,
        ms: Millis,
        t: Millis,
        who: impl Into<String>,
        why: impl Into<String>,
    ) -> Correction {
        let t = self.settle(t);
        let from_ms = self.remaining(side, t);
        // Keep the move's thinking time so a delay or Bronstein refund still
        // counts the whole move: store what makes the display read `ms` now.
        let charged_so_far = match self.turn() {
            Some(turn) if turn.side == side => charged(self.bonus_now(side), self.used(t)),
            _ => 0,
        };
        self.sides[side.index()].remaining_ms = ms.saturating_add(charged_so_far);
        if ms > 0 {
            self.flags[side.index()] = None;
        }
        self.settle(t);
        self.log(t, who, why, CorrectionChange::Remaining { side, from_ms, to_ms: ms })
    }

    /// Arbiter correction: `side` has made `moves` moves. The period follows the
    /// count; the time does not change (correct it with [`Self::set_remaining`]).
    pub fn set_moves(
        &mut self,
        side: Side,
        moves: u32,
        t: Millis,
        who: impl Into<String>,
        why: impl Into<String>,
    ) -> Correction {
        let t = self.settle(t);
        let clock = &mut self.sides[side.index()];
        let from = clock.moves_made;
        clock.moves_made = moves;
        clock.position = self.control.locate(moves);
        self.log(t, who, why, CorrectionChange::Moves { side, from, to: moves })
    }

    /// Correction when the record goes back (a take-back, D.2.9): `side`'s
    /// clock is the one that runs (or will run, paused or not started yet).
    /// The side whose clock ran is charged the time it ran (its move is not
    /// counted and earns no increment: the move it was thinking about is not
    /// on the record). `None` when `side` is already on move.
    pub fn set_on_move(
        &mut self,
        side: Side,
        t: Millis,
        who: impl Into<String>,
        why: impl Into<String>,
    ) -> Option<Correction> {
        let t = self.settle(t);
        let from = self.on_move();
        if from == side {
            return None;
        }
        if let Some(turn) = self.turn() {
            let charged = charged(self.bonus_now(turn.side), turn.used_ms);
            let clock = &mut self.sides[turn.side.index()];
            clock.remaining_ms = clock.remaining_ms.saturating_sub(charged);
            // His clock ran for a move taken off the record: still time he used.
            self.close_turn(turn.side, turn.used_ms);
        }
        let turn = Turn { side, used_ms: 0 };
        self.run = match self.run {
            RunState::NotStarted { .. } => RunState::NotStarted { first: side },
            RunState::Running { .. } => RunState::Running { turn, since: t },
            RunState::Paused { .. } => RunState::Paused { turn },
        };
        Some(self.log(t, who, why, CorrectionChange::OnMove { from, to: side }))
    }

    /// Every correction so far, oldest first.
    pub fn corrections(&self) -> &[Correction] {
        &self.corrections
    }

    fn log(
        &mut self,
        at: Millis,
        who: impl Into<String>,
        why: impl Into<String>,
        change: CorrectionChange,
    ) -> Correction {
        let correction = Correction { at, who: who.into(), why: why.into(), change };
        self.corrections.push(correction.clone());
        correction
    }

    /// Clamps `t` to the latest time seen, latches a fallen flag, and closes the
    /// running stretch at `t` (so later changes apply from `t`, not from before).
    fn settle(&mut self, t: Millis) -> Millis {
        let t = t.max(self.now);
        self.now = t;
        if let Some(fall) = self.next_flag_fall().filter(|fall| fall.at <= t) {
            self.flags[fall.side.index()] = Some(fall.at);
            self.events.push(ClockEvent::FlagFell(fall));
        }
        if let RunState::Running { turn, .. } = self.run {
            self.run = RunState::Running { turn: Turn { used_ms: self.used(t), ..turn }, since: t };
        }
        t
    }

    /// Adds the thinking time of a turn that ends without a press (the
    /// running side switched by a master clock or a take-back) to `side`'s time used.
    fn close_turn(&mut self, side: Side, used_ms: Millis) {
        let clock = &mut self.sides[side.index()];
        clock.used_ms = clock.used_ms.saturating_add(used_ms);
    }

    fn turn(&self) -> Option<Turn> {
        match self.run {
            RunState::NotStarted { .. } => None,
            RunState::Running { turn, .. } | RunState::Paused { turn } => Some(turn),
        }
    }

    /// Thinking time of the move in progress at `t`.
    fn used(&self, t: Millis) -> Millis {
        match self.run {
            RunState::NotStarted { .. } => 0,
            RunState::Paused { turn } => turn.used_ms,
            RunState::Running { turn, since } => {
                turn.used_ms.saturating_add(t.max(self.now).saturating_sub(since))
            }
        }
    }

    fn bonus_now(&self, side: Side) -> super::Bonus {
        if self.followed {
            // The master clock applies its bonuses; between readings time just runs.
            return super::Bonus::None;
        }
        self.control.period(self.sides[side.index()].position.period).bonus
    }
}
