//! The game's clock at the table: presses checked against D.2.4 (made and,
//! for the blind player, announced), presses made for the players, the
//! operator's clock commands and the clock following the record.
//!
//! When the clock starts: never before anyone is there. `[clock] auto_start` starts it with the
//! game only when the game's position stands on every sensed board, and not at all without a sensed
//! board; otherwise the arbiter starts it, or a press (the opponent's before the first move, as on
//! a DGT clock, or the mover's after his move), or the boards once set up. A take-back carries a
//! clock proposal: the readings when the move before it was made (`taken_back` `clock_proposal`,
//! Art. 7).

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
        if self.started_by_press(side, t, out) {
            return Ok(());
        }
        let Some(decision) = self.gate(side) else { return Err(TableError::NoClock) };
        match decision {
            GateDecision::Accept => {
                let clock = self.clocking.clock.as_mut().ok_or(TableError::NoClock)?;
                if !clock.is_started() {
                    // Nobody started it before his move: his press starts it, as a
                    // DGT clock's lever does, and hands the turn over at once.
                    clock.start(made)?;
                    let why = format!("{}'s press after his move", side_name(side));
                    out.push(super::clock_changed("started", Some(side), "player", why, t));
                }
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
        let (ply, to_move) = self.turn()?;
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
        let (Some(clock), Some((ply, _))) = (self.clocking.clock.as_ref(), self.turn()) else {
            return;
        };
        self.clocking.pressed_ply = ply;
        if let Some(sync) = self.seat.chess_mut().map(|c| &mut c.sync) {
            // The readings when the move was made (a proposal gives back what
            // the opponent's clock ran since, when the press came later).
            let reading = |side| clock.reading_when_turn_began(side);
            sync.record_clock(ply, reading(Side::White), reading(Side::Black));
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

    /// The game's clock (none without a time control). With `auto_start` it
    /// starts with the game only when the game's position (`shown`: its
    /// occupancy) stands on every sensed board; else it waits for the
    /// arbiter, a player's press or the boards set up
    /// ([`start_clock_when_set_up`](Self::start_clock_when_set_up)). No
    /// clock runs before anyone is there.
    pub(super) fn new_clock(&self, first_mover: Side, shown: Bitboard, t: Millis) -> Option<ChessClock> {
        self.cfg.time_control.clone().map(|tc| {
            let mut clock = ChessClock::with_first_mover(tc, first_mover);
            if self.cfg.external_clock {
                // The master clock starts it: its first reading that runs.
                return clock.following();
            }
            if self.cfg.clock_auto_start && self.boards_show(shown) {
                let _ = clock.start(t);
            }
            clock
        })
    }

    /// Every sensed board shows `occupancy` (false without a sensed board:
    /// nothing shows that anyone is there).
    pub(super) fn boards_show(&self, occupancy: Bitboard) -> bool {
        let blind = (!self.cfg.blind_unsensed).then_some(self.sensed[BoardRole::Blind]);
        let mirror = self.cfg.mirror_sensed.then(|| {
            if self.cfg.mirror_pieces {
                self.mirror_board().occupied()
            } else {
                self.sensed[BoardRole::Mirror]
            }
        });
        let shown: Vec<Bitboard> = [blind, mirror].into_iter().flatten().collect();
        !shown.is_empty() && shown.iter().all(|&occ| occ == occupancy)
    }

    /// A clock set to start with the game that did not (a new game while the
    /// boards still showed the old one) starts once the game's position
    /// stands on every sensed board, before anyone moved; after a move only
    /// the arbiter or a press starts it.
    pub(super) fn start_clock_when_set_up(&mut self, t: Millis, out: &mut Vec<Event>) {
        if !self.cfg.clock_auto_start || self.cfg.external_clock || self.phase != Phase::Playing {
            return;
        }
        let waiting = self.clocking.clock.as_ref().is_some_and(|c| !c.is_started() && !c.is_followed());
        let unmoved = self.turn().is_some_and(|(ply, _)| ply == self.clocking.pressed_ply);
        if !waiting || !unmoved {
            return;
        }
        let position =
            self.agreed().map_or_else(|| self.start_occupancy(), |g| g.position().board().occupied());
        if !self.boards_show(position) {
            return;
        }
        if let Some(clock) = self.clocking.clock.as_mut()
            && clock.start(t).is_ok()
        {
            let why = "the game's position stands on the boards";
            out.push(super::clock_changed("started", None, "station", why, t));
        }
    }

    /// Before the first move, the opponent of the player to move presses his
    /// side of a clock nobody started: it starts (the first mover's time
    /// runs), as it does on a DGT clock.
    fn started_by_press(&mut self, side: Side, t: Millis, out: &mut Vec<Event>) -> bool {
        let unmoved = self.turn().is_some_and(|(ply, _)| ply == self.clocking.pressed_ply);
        let Some(clock) = self.clocking.clock.as_mut() else { return false };
        if clock.is_started() || clock.is_followed() || !unmoved || clock.on_move() != side.opponent() {
            return false;
        }
        if clock.start(t).is_err() {
            return false;
        }
        let why = format!("{}'s press before the first move", side_name(side));
        out.push(super::clock_changed("started", Some(side), "player", why, t));
        true
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
        let Some(agreed) = self.seat.chess().map(|c| c.sync.agreed()) else { return };
        let ply = agreed.ply();
        if ply >= self.clocking.pressed_ply {
            return;
        }
        self.clocking.pressed_ply = ply;
        let Some(clock) = self.clocking.clock.as_mut().filter(|c| !c.is_followed()) else { return };
        let to_move = Side::from(agreed.position().turn());
        let why = match ply {
            0 => "the record went back to the start".to_owned(),
            _ => format!("the record went back to the position after {}", crate::notation::ply_number(ply)),
        };
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

/// `White` or `Black`, as a reason names a side.
fn side_name(side: Side) -> &'static str {
    if side == Side::White { "White" } else { "Black" }
}

impl Table {
    /// The clock as it would be without the last move, when its press
    /// counted: the readings kept when the move before it was pressed (the
    /// mover's time spent on it given back, its increment withdrawn), what
    /// an arbiter sets after taking it back (Art. 7). `None` when the move
    /// was not pressed (his clock still runs: nothing to give back).
    pub(super) fn take_back_proposal(&self) -> Option<crate::discrepancy::ClockProposal> {
        let kept = self.clocking.clock.as_ref().is_some_and(|c| c.is_started() && !c.is_followed());
        let sync = &self.seat.chess()?.sync;
        let ply = sync.agreed().ply();
        if !kept || ply == 0 || self.clocking.pressed_ply < ply {
            return None;
        }
        sync.clock_at(ply - 1)
    }
}
