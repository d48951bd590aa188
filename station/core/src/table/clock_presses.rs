//! The game's clock at the table: presses checked against D.2.4 (made and,
//! for the blind player, announced), presses made for the players, the
//! operator's clock commands and the clock following the record.

use super::*;

impl Table {
    /// A player pressed his clock button (lever, board button, gamepad).
    /// D.2.4: it counts only once his move is made (placed, captured piece
    /// removed, announced); a press before that is recorded as premature.
    pub fn clock_press(&mut self, side: Side, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.tick(t, out);
        if self.press_evidence(side, t, out) == press::Evidence::PressedAlready {
            return Ok(());
        }
        self.press_now(side, t, out)
    }

    pub(super) fn press_now(
        &mut self,
        side: Side,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.press_made(side, t, t, out)
    }

    /// A press at `t` for a move made at `made` (earlier when the station
    /// presses for a move it decided later than it was made).
    pub(super) fn press_made(
        &mut self,
        side: Side,
        made: Millis,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        if self.cfg.external_clock {
            return Err(TableError::ExternalClock);
        }
        let Some(decision) = self.gate(side) else { return Err(TableError::NoClock) };
        match decision {
            GateDecision::Accept => {
                let clock = self.clocking.clock.as_mut().ok_or(TableError::NoClock)?;
                let pressed = clock.press_made(side, made, t)?;
                self.press_counted(pressed, t, out);
                self.clock_events(t, out);
            }
            GateDecision::Premature { missing } => out.push(Event::ClockPremature { side, missing, t_ms: t }),
        }
        Ok(())
    }

    /// D.2.4: whether `side` may press now — his move is made (placed, the
    /// captured piece removed) and, for the blind player, announced. `None`
    /// without a game or a clock.
    pub(super) fn gate(&self, side: Side) -> Option<GateDecision> {
        self.clocking.clock.as_ref()?;
        let (ply, to_move) = self.record_turn()?;
        let made = ply > self.clocking.pressed_ply && to_move.opponent() == side;
        let blind = Side::from(self.cfg.blind_color) == side;
        let gate = if blind { ClockGate::blind() } else { ClockGate::sighted() };
        // Without speech input the station's own announcement is the announcement.
        let announced =
            made && (!blind || !self.cfg.announcement_required || self.announcing.announced_ply >= ply);
        Some(gate.check(MoveProgress { placed: made, capture_pending: false, announced }))
    }

    /// A press that counted: the move it closed is the last pressed one, and
    /// (D.2.9) the clock readings of this position are kept for a later proposal.
    pub(super) fn press_counted(&mut self, pressed: Pressed, t: Millis, out: &mut Vec<Event>) {
        let (Some(clock), Some((ply, _))) = (self.clocking.clock.as_ref(), self.record_turn()) else {
            return;
        };
        self.clocking.pressed_ply = ply;
        if let Some(sync) = self.sync.as_mut() {
            sync.record_clock(ply, clock.remaining(Side::White, t), clock.remaining(Side::Black, t));
        }
        out.push(Event::ClockPressed {
            side: pressed.side,
            ply: Some(ply),
            remaining_ms: pressed.remaining_ms,
            moves: pressed.moves_made,
            t_ms: t,
            made_ms: (pressed.at < t).then_some(pressed.at),
        });
    }

    /// An operator's clock command.
    pub fn clock_command(
        &mut self,
        cmd: ClockCommand,
        t: Millis,
        out: &mut Vec<Event>,
    ) -> Result<(), TableError> {
        self.tick(t, out);
        if self.cfg.external_clock {
            return Err(TableError::ExternalClock);
        }
        let clock = self.clocking.clock.as_mut().ok_or(TableError::NoClock)?;
        let changed = |action: &str, side: Option<Side>, who: Option<String>, why: Option<String>| {
            Event::ClockChanged {
                action: action.into(),
                side,
                who,
                why,
                added_ms: None,
                remaining_ms: None,
                t_ms: t,
            }
        };
        let event = match cmd {
            ClockCommand::Start => {
                clock.start(t)?;
                changed("started", None, None, None)
            }
            ClockCommand::Pause => {
                clock.pause(t)?;
                changed("paused", None, None, None)
            }
            ClockCommand::Resume => {
                clock.resume(t)?;
                changed("resumed", None, None, None)
            }
            ClockCommand::SetTime { side, ms, who, why } => {
                clock.set_remaining(side, ms, t, who.clone(), why.clone());
                self.clocking.warnings.reset(side);
                super::clock_corrected(side, None, clock.remaining(side, t), &who, why, t)
            }
            ClockCommand::AddTime { side, ms, who, why } => {
                let to = clock.remaining(side, t).saturating_add(ms);
                clock.set_remaining(side, to, t, who.clone(), why.clone());
                self.clocking.warnings.reset(side);
                super::clock_corrected(side, Some(ms), clock.remaining(side, t), &who, why, t)
            }
            ClockCommand::SetMoves { moves, who, why } => {
                for side in [Side::White, Side::Black] {
                    clock.set_moves(side, moves, t, who.clone(), why.clone());
                }
                changed("moves_set", None, Some(who), Some(why))
            }
        };
        out.push(event);
        Ok(())
    }

    pub(super) fn clock_tick(&mut self, t: Millis, out: &mut Vec<Event>) {
        let Some(clock) = self.clocking.clock.as_mut() else { return };
        clock.update(t);
        self.clock_events(t, out);
    }

    pub(super) fn clock_events(&mut self, t: Millis, out: &mut Vec<Event>) {
        let Some(clock) = self.clocking.clock.as_mut() else { return };
        for e in clock.take_events() {
            if let ClockEvent::FlagFell(flag) = e {
                out.push(Event::FlagFell { side: flag.side, t_ms: flag.at });
            }
        }
        if !clock.is_started() {
            return;
        }
        for side in [Side::White, Side::Black] {
            let remaining = clock.remaining(side, t);
            for warning in self.clocking.warnings.due(side, remaining, clock.period(side)) {
                out.push(Event::ClockWarning { warning, t_ms: t });
            }
        }
    }

    /// The game's clock (none without a time control), started as configured.
    pub(super) fn new_clock(&self, first_mover: Side, t: Millis) -> Option<ChessClock> {
        self.cfg.time_control.clone().map(|tc| {
            let mut clock = ChessClock::with_first_mover(tc, first_mover);
            if self.cfg.external_clock {
                // The master clock starts it: its first reading that runs.
                return clock.following();
            }
            if self.cfg.clock_auto_start {
                let _ = clock.start(t);
            }
            clock
        })
    }

    /// Plies on the agreed record and the side to move, whichever game is played.
    pub(super) fn record_turn(&self) -> Option<(usize, Side)> {
        self.seat.rules.record_turn(self)
    }

    /// Without a lever (`clock_auto_press`), the station presses for each
    /// player whose move was agreed in `out[from..]`, whichever board or hand
    /// made it: the blind player's once he has announced it when his
    /// announcements are checked. Every agreed move presses, so the clock
    /// and its move counter follow the game on one board or two.
    pub(super) fn auto_press(&mut self, from: usize, t: Millis, out: &mut Vec<Event>) {
        self.auto_press_made(from, t, t, out);
    }

    /// [`auto_press`](Self::auto_press) for moves made at `made`: the clock
    /// switches at that moment, whenever the station decided them.
    pub(super) fn auto_press_made(&mut self, from: usize, made: Millis, t: Millis, out: &mut Vec<Event>) {
        if !self.cfg.clock_auto_press {
            return;
        }
        let blind = Side::from(self.cfg.blind_color);
        let needs_announcement = self.cfg.announcement_required;
        let movers: Vec<Side> = out[from..]
            .iter()
            .filter_map(|e| match e {
                Event::GameMove { ply, revised: false, .. } => Some(*ply),
                _ => None,
            })
            .filter_map(|ply| {
                self.agreed().and_then(|g| g.position_at(ply - 1)).map(|p| Side::from(p.turn()))
            })
            .filter(|&side| !(needs_announcement && side == blind))
            .collect();
        for side in movers {
            let _ = self.press_made(side, made, t, out);
        }
    }

    /// When the record goes back below the last counted press (a take-back,
    /// the D.2.9 records procedure), the clock follows it: the side to move runs
    /// and each side's counter is its moves on the record. The times are the
    /// arbiter's (the clock proposal); this only keeps the clock's turn right,
    /// so the next press is judged against the right side. A master clock (DGT)
    /// is set by hand and is left alone.
    pub(super) fn clock_follows_record(&mut self, t: Millis, out: &mut Vec<Event>) {
        let Some(sync) = self.sync.as_ref() else { return };
        let agreed = sync.agreed();
        let ply = agreed.ply();
        if ply >= self.clocking.pressed_ply {
            return;
        }
        self.clocking.pressed_ply = ply;
        let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed()) else { return };
        let to_move = Side::from(agreed.position().turn());
        let why = format!("the record went back to ply {ply}");
        let who = "station";
        if clock.set_on_move(to_move, t, who, why.clone()).is_some() {
            out.push(super::clock_changed("on_move_set", Some(to_move), who, why.clone(), t));
        }
        // The first mover made every other ply from the start, rounding up.
        let first = Side::from(agreed.start().turn());
        let mut counted = [0u32; 2];
        counted[first.index()] = u32::try_from(ply.div_ceil(2)).unwrap_or(u32::MAX);
        counted[first.opponent().index()] = u32::try_from(ply / 2).unwrap_or(u32::MAX);
        let mut changed = false;
        for side in [Side::White, Side::Black] {
            if clock.moves_made(side) != counted[side.index()] {
                clock.set_moves(side, counted[side.index()], t, who, why.clone());
                changed = true;
            }
        }
        if changed {
            out.push(super::clock_changed("moves_set", None, who, why, t));
        }
    }
}
