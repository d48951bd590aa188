//! A spoken draughts move at the table (issue 17 §5; VIII.2.3, as D.2.3.3 and
//! D.2.8 for chess): the blind player announces his move by its squares, his
//! peg board executes it, and the station checks that the board's move is the
//! one announced. A slip of the tongue is caught before his clock is pressed:
//! the press counts only after a matching announcement (`announcement_required`).
//! Without his sensor board (`blind_unsensed`) the spoken move is his move.
//!
//! The announcement comes as [`Input::Announce`](crate::input::Input) with the
//! move in PDN (`32-28`, `28x17x6`), read in the position it is about.
//!
//! An announcement said early is checked when the move comes (`announcement_checked`). Tests
//! are in `table/draughts_announce_tests.rs`.

use super::draughts_play::DraughtsPlay;
use super::draughts_table::DraughtsAtTable;
use super::{Table, TableConfig, TableError};
use crate::Millis;
use crate::clock::Side;
use crate::draughts::board::Position;
use crate::draughts::moves::Move;
use crate::draughts::path::DraughtsPath;
use crate::draughts::pdn::find_move;
use crate::event::{Event, PlayedMove};

impl Table {
    /// The last ply of the blind player whose announcement matched his board
    /// (D.2.3; VIII.2.3 in draughts): what a spoken move is checked after.
    pub fn announced_ply(&self) -> usize {
        self.announcing.announced_ply
    }
}

impl DraughtsPlay {
    /// The draughts position a spoken move is about at a table configured as
    /// `cfg` whose blind player's announcements matched up to `announced_ply`
    /// ([`Table::announced_ply`]): before his latest unannounced move, or the
    /// current one when he has not moved since (always the current one
    /// without his sensor board).
    pub fn announce_position(&self, cfg: &TableConfig, announced_ply: usize) -> Option<Position> {
        Some(match self.unannounced_ply(cfg, announced_ply) {
            Some(ply) => *self.position_at(ply - 1)?,
            None => *self.position(),
        })
    }

    /// The blind player's latest agreed ply not yet announced (with his board sensed).
    fn unannounced_ply(&self, cfg: &TableConfig, announced_ply: usize) -> Option<usize> {
        if cfg.blind_unsensed {
            return None;
        }
        let blind = Side::from(cfg.blind_color);
        (announced_ply + 1..=self.ply()).rev().find(|&ply| {
            self.position_at(ply - 1).is_some_and(|p| super::draughts_play::side(p.turn) == blind)
        })
    }
}

impl DraughtsAtTable<'_> {
    /// The draughts play at the table.
    fn play(&self) -> Option<&DraughtsPlay> {
        self.table.seat.draughts()
    }

    /// The position a spoken move is about (see [`DraughtsPlay::announce_position`]).
    fn announce_position(&self) -> Option<Position> {
        self.play()?.announce_position(&self.table.cfg, self.table.announcing.announced_ply)
    }

    /// The blind player's latest agreed ply not yet announced (with his board sensed).
    fn unannounced_ply(&self) -> Option<usize> {
        self.play()?.unannounced_ply(&self.table.cfg, self.table.announcing.announced_ply)
    }

    /// The blind player announced `text` (PDN) aloud: checked against the move
    /// his board made; said before the board shows it, checked when it comes;
    /// without his board, made at once if it is his turn and legal.
    pub(super) fn announce(&mut self, text: &str, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        self.table.playing()?;
        let cfg = &self.table.cfg;
        let blind = Side::from(cfg.blind_color);
        if cfg.blind_unsensed && self.play().is_some_and(|d| d.to_move() != blind) {
            return Err(TableError::NotYourTurn { text: text.to_owned() });
        }
        let pos = self.announce_position().ok_or(TableError::NoGame)?;
        let mv = match find_move(&pos, text.trim()) {
            Ok(Some(mv)) => mv,
            Ok(None) => return Err(TableError::illegal_at(0, text, "no legal move fits")),
            Err(n) => {
                return Err(TableError::Invalid(format!(
                    "`{text}` fits {n} legal captures: the announcement names its path"
                )));
            }
        };
        if self.table.cfg.blind_unsensed {
            return self.spoken_move(&mv, t, out);
        }
        match self.unannounced_ply() {
            Some(ply) => self.check_announcement(ply, &mv, t, out),
            None => {
                if let Some(d) = self.table.seat.draughts_mut() {
                    d.said_early = Some((mv, t));
                }
            }
        }
        Ok(())
    }

    /// Without a sensor board his announcement is his move: his turn and
    /// legal, it is agreed at once and the other board executes it.
    fn spoken_move(&mut self, mv: &Move, t: Millis, out: &mut Vec<Event>) -> Result<(), TableError> {
        let blind = Side::from(self.table.cfg.blind_color);
        let d = self.table.seat.draughts_mut().ok_or(TableError::NoGame)?;
        let path = DraughtsPath::of_move(mv, d.variant());
        if d.to_move() != blind {
            return Err(TableError::NotYourTurn { text: path.to_string() });
        }
        let ply = d.ply() + 1;
        let before = out.len();
        d.enter_path(&path, blind, t, out)
            .map_err(|e| TableError::illegal_at(ply, &path.to_string(), &e.to_string()))?;
        self.settle_new_moves(before, t, out);
        Ok(())
    }

    /// The announcement of `ply` against the move his board made: both named
    /// (`announcement_checked`); a match lets his clock press count.
    fn check_announcement(&mut self, ply: usize, said: &Move, t: Millis, out: &mut Vec<Event>) {
        let table = &mut *self.table;
        let Some(d) = table.seat.draughts() else { return };
        let variant = d.variant();
        // No move on his board yet: the empty path (written as empty text).
        let sensed = d.moves().get(ply - 1).cloned().unwrap_or_default();
        // An irregular move accepted (5.7) has no legal move to match: named, never matched.
        let matches = d.played_at(ply).is_some_and(|m| m.same_effect(said));
        out.push(Event::AnnouncementChecked {
            ply,
            said: PlayedMove::Draughts(DraughtsPath::of_move(said, variant)),
            sensed: PlayedMove::Draughts(sensed),
            matches,
            t_ms: t,
        });
        if matches {
            table.announcing.announced_ply = ply;
            // Without `announcement_required` his move pressed already (no second press).
            if table.cfg.clock_auto_press && table.cfg.announcement_required {
                let _ = table.press_now(Side::from(table.cfg.blind_color), t, out);
            }
        }
    }

    /// After the record grew in `out[from..]`: an announcement said before
    /// the blind player's board showed his move is checked now.
    pub(super) fn check_said_early(&mut self, from: usize, t: Millis, out: &mut Vec<Event>) {
        let table = &mut *self.table;
        let Some(d) = table.seat.draughts() else { return };
        let blind = Side::from(table.cfg.blind_color);
        let his = out[from..].iter().rev().find_map(|e| match e {
            Event::GameMove { ply, .. }
                if d.position_at(ply - 1).is_some_and(|p| super::draughts_play::side(p.turn) == blind) =>
            {
                Some(*ply)
            }
            _ => None,
        });
        if let Some(ply) = his
            && let Some((said, _)) = table.seat.draughts_mut().and_then(|d| d.said_early.take())
        {
            self.check_announcement(ply, &said, t, out);
        }
    }

    /// Whose clock the station presses for the moves agreed in `events`
    /// (no lever): every mover's, but the blind player's only once his
    /// announcement matched (its check presses), when announcements are
    /// required; without his board a move of his is his announcement.
    pub(super) fn movers_to_press(&mut self, events: &[Event]) -> Vec<Side> {
        let table = &mut *self.table;
        let blind = Side::from(table.cfg.blind_color);
        let mut movers = Vec::new();
        for e in events {
            // Ply 1 is White's: odd plies are White's from the initial position.
            let Event::GameMove { ply, .. } = e else { continue };
            let side = if ply % 2 == 1 { Side::White } else { Side::Black };
            if side == blind && table.cfg.announcement_required {
                if !table.cfg.blind_unsensed {
                    continue;
                }
                table.announcing.announced_ply = table.announcing.announced_ply.max(*ply);
            }
            movers.push(side);
        }
        movers
    }
}
