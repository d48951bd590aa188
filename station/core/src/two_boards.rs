//! One game on two boards (Annex D.2.9): the agreed record, each sensed board's
//! own record of what was executed on it, and the discrepancy procedure.
//!
//! Each side's moves come from its owner's board (the blind player's colour
//! from the peg board, the sighted player's from the mirror board, or both from
//! the peg board when the mirror is not sensed). A move there extends the agreed
//! record and is announced; the other board must then execute it.
//!
//! - A board that executes an agreed move differently: the records agree (the
//!   move was announced), so that board is wrong — it gets the steps that
//!   correct it, and the game waits until it shows the agreed position.
//! - A board that has not executed the agreed position after the grace time is
//!   reminded in the same way.
//! - Records that differ (an operator enters a player's scoresheet and it
//!   disagrees): go back to the last position where both agree, give each board
//!   the steps to set it up, propose the clock times of that moment for the
//!   arbiter to confirm, and continue once both boards show it.
//!
//! A records discrepancy that goes back emits a `taken_back` per ply, so the record follows.
//! Without his sensor board ([`TwoBoards::without_blind_board`], his moves spoken) his board keeps
//! no record and is never reminded; his moves are entered. Scenario tests, named after the rule they check, are in
//! `two_boards/tests.rs`.

use crate::Millis;
use crate::correction::{StepRecord, steps_between};
pub use crate::discrepancy::{BoardFix, ClockProposal, DiscrepancyKind};
use crate::event::{BoardRole, Event};
use crate::game::Game;
use crate::role::ByBoard;
use shakmaty::{Board, Color, Move, Position};

/// Settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwoBoardsConfig {
    /// The colour the blind player plays.
    pub blind_color: Color,
    /// Whether the mirror board is sensed (a DGT board, a second peg board).
    pub mirror_sensed: bool,
    /// How long a board may take to execute the agreed position before it is reminded.
    pub grace_ms: Millis,
    /// The sighted side's moves are entered (an engine, issue 26): his board
    /// only executes them, never decides or revises one.
    pub opponent_entered: bool,
}

#[derive(Clone, Debug)]
struct Open {
    id: u64,
    kind: DiscrepancyKind,
    /// For execution: the board to correct. For records: every sensed board.
    boards: Vec<BoardRole>,
    agreed_ply: usize,
    /// The board state it was raised for (raised again only if that changes).
    fingerprint: Vec<Option<usize>>,
}

/// The agreed game and the two boards' records.
#[derive(Clone, Debug)]
pub struct TwoBoards {
    cfg: TwoBoardsConfig,
    agreed: Game,
    records: ByBoard<Option<Vec<Move>>>,
    positions: ByBoard<Option<Board>>,
    waiting_since: ByBoard<Option<Millis>>,
    clocks: Vec<Option<ClockProposal>>,
    open: Vec<Open>,
    next_id: u64,
}

fn common_prefix(a: &[Move], b: &[Move]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

impl TwoBoards {
    /// Starts from `start`, whose moves (if any) both boards are taken to show.
    pub fn new(cfg: TwoBoardsConfig, start: Game) -> Self {
        let board = start.position().board().clone();
        let moves = start.moves().to_vec();
        TwoBoards {
            records: ByBoard::new(Some(moves.clone()), cfg.mirror_sensed.then_some(moves)),
            positions: ByBoard::new(Some(board.clone()), cfg.mirror_sensed.then_some(board)),
            waiting_since: ByBoard::default(),
            clocks: vec![None],
            open: Vec::new(),
            next_id: 1,
            agreed: start,
            cfg,
        }
    }

    /// The blind player's board is not sensed (his moves are spoken): it
    /// keeps no record and is never reminded; his moves come through
    /// [`enter_move`](Self::enter_move).
    pub fn without_blind_board(mut self) -> Self {
        self.records[BoardRole::Blind] = None;
        self.positions[BoardRole::Blind] = None;
        self
    }

    /// The agreed record.
    pub fn agreed(&self) -> &Game {
        &self.agreed
    }

    /// The board that decides moves of `color`.
    pub fn owner(&self, color: Color) -> BoardRole {
        if color == self.cfg.blind_color || (!self.cfg.mirror_sensed && !self.cfg.opponent_entered) {
            BoardRole::Blind
        } else {
            BoardRole::Mirror
        }
    }

    /// True while a discrepancy is open (the opponent's clock must not start on a new move).
    pub fn has_open_discrepancy(&self) -> bool {
        !self.open.is_empty()
    }

    /// For an open records discrepancy: the ply every board must go back to.
    pub fn rewind_target(&self) -> Option<usize> {
        self.open.iter().find(|o| o.kind == DiscrepancyKind::Records).map(|o| o.agreed_ply)
    }

    /// The record a board should take over once it shows its position: the
    /// last agreed position during a records discrepancy, else the agreed game
    /// for a board with an open execution discrepancy or still catching up.
    pub fn target_for(&self, role: BoardRole) -> Option<Game> {
        self.records[role].as_ref()?;
        if let Some(ply) = self.rewind_target() {
            let mut g = self.agreed.clone();
            while g.ply() > ply {
                g.pop();
            }
            return Some(g);
        }
        let concerned =
            self.waiting_since[role].is_some() || self.open.iter().any(|o| o.boards.contains(&role));
        concerned.then(|| self.agreed.clone())
    }

    /// The clock readings recorded after `ply`, if any.
    pub fn clock_at(&self, ply: usize) -> Option<ClockProposal> {
        self.clocks.get(ply).copied().flatten()
    }

    /// Remembers the clock readings after `ply` (for proposals).
    pub fn record_clock(&mut self, ply: usize, white_ms: u64, black_ms: u64) {
        if self.clocks.len() <= ply {
            self.clocks.resize(ply + 1, None);
        }
        self.clocks[ply] = Some(ClockProposal { ply, white_ms, black_ms });
    }

    /// A board's own record changed (a move sensed, revised, or rewound);
    /// `game` is that board's record, as its tracker keeps it.
    pub fn board_record(&mut self, role: BoardRole, game: &Game, t: Millis, out: &mut Vec<Event>) {
        if self.records[role].is_none() {
            return; // not a sensed board
        }
        self.records[role] = Some(game.moves().to_vec());
        self.positions[role] = Some(game.position().board().clone());
        self.extend_agreed(role, game, t, out);
        self.review(t, out);
    }

    /// An operator entered a player's scoresheet; if it disagrees with the
    /// agreed record, the records procedure starts.
    pub fn scoresheet(&mut self, moves: &[Move], t: Millis, out: &mut Vec<Event>) {
        let agreed = self.agreed.moves();
        let d = common_prefix(agreed, moves);
        if d == moves.len() || d == agreed.len() {
            return; // one is a prefix of the other: they agree as far as both go
        }
        // Going back supersedes every open correction: those are closed.
        self.resolve_where(|_| true, t, out);
        self.waiting_since = ByBoard::default();
        let boards: Vec<BoardRole> =
            self.records.iter().filter(|(_, r)| r.is_some()).map(|(role, _)| role).collect();
        self.raise(DiscrepancyKind::Records, boards, d, t, out);
    }

    /// An operator entered the move of the side to move (his board is not
    /// sensed, or the arbiter decided it); the boards must execute it.
    /// Refused (`false`) while going back or when the move is illegal.
    pub fn enter_move(&mut self, mv: Move, t: Millis, out: &mut Vec<Event>) -> bool {
        if self.rewind_target().is_some() || !self.agreed.position().is_legal(mv) {
            return false;
        }
        let by = self.owner(self.agreed.position().turn());
        self.agreed.push(mv);
        out.push(self.agreed_event(self.agreed.ply(), false, by, t));
        self.review(t, out);
        true
    }

    /// The arbiter takes the last agreed move back; boards that show it are
    /// reminded, after the grace time, to set the position before it.
    pub fn take_back(&mut self, t: Millis, out: &mut Vec<Event>) -> bool {
        if self.rewind_target().is_some() || self.agreed.ply() == 0 {
            return false;
        }
        let ply = self.agreed.ply();
        self.agreed.pop();
        self.clocks.truncate(ply);
        out.push(Event::TakenBack { ply, t_ms: t, clock_proposal: None });
        self.review(t, out);
        true
    }

    /// When a board's grace time next runs out, if one is waiting.
    pub fn deadline(&self) -> Option<Millis> {
        self.waiting_since
            .iter()
            .filter(|(role, _)| !self.open.iter().any(|o| o.boards.contains(role)))
            .filter_map(|(_, since)| since.map(|since| since + self.cfg.grace_ms))
            .min()
    }

    /// Lets time pass: boards that have not executed the agreed position within
    /// the grace time are reminded.
    pub fn tick(&mut self, t: Millis, out: &mut Vec<Event>) {
        for role in BoardRole::ALL {
            let reminded = self.open.iter().any(|o| o.boards.contains(&role));
            if self.waiting_since[role].is_some_and(|since| t >= since + self.cfg.grace_ms) && !reminded {
                let ply = self.agreed.ply();
                self.raise(DiscrepancyKind::Execution, vec![role], ply, t, out);
            }
        }
    }

    fn extend_agreed(&mut self, role: BoardRole, game: &Game, t: Millis, out: &mut Vec<Event>) {
        if self.rewind_target().is_some() {
            return; // no new moves while going back
        }
        let n = self.agreed.ply();
        let rec = game.moves();
        let turn = self.agreed.position().turn();
        if rec.len() > n && rec[..n] == *self.agreed.moves() && self.owner(turn) == role {
            // Several plies at once (a catch-up: a capture and its recapture
            // decided together) are agreed one by one while this board owns them.
            for (i, &mv) in rec.iter().enumerate().skip(n) {
                if self.owner(self.agreed.position().turn()) != role {
                    break;
                }
                self.agreed.push(mv);
                out.push(self.agreed_event(i + 1, false, role, t));
            }
            return;
        }
        // The owner revised the last move before the other board executed it.
        if n > 0
            && rec.len() == n
            && rec[..n - 1] == self.agreed.moves()[..n - 1]
            && rec[n - 1] != self.agreed.moves()[n - 1]
        {
            let mover = !turn;
            let other_executed = self.records[role.other()].as_ref().is_some_and(|r| r.len() >= n);
            if self.owner(mover) == role && !other_executed {
                self.agreed.pop();
                self.agreed.push(rec[n - 1]);
                out.push(self.agreed_event(n, true, role, t));
            }
        }
    }

    fn agreed_event(&self, ply: usize, revised: bool, by: BoardRole, t: Millis) -> Event {
        let mv = self.agreed.moves()[ply - 1];
        Event::GameMove {
            ply,
            san: self.agreed.sans()[ply - 1].to_string(),
            uci: self.agreed.played(mv).into(),
            by,
            revised,
            t_ms: t,
            pdn: None,
        }
    }

    /// Compares every board with the agreed record; raises and resolves.
    fn review(&mut self, t: Millis, out: &mut Vec<Event>) {
        if let Some(target) = self.rewind_target() {
            let all_back = self.records.values().all(|r| r.as_ref().is_none_or(|r| r.len() == target));
            if all_back {
                // The record goes back: each ply taken back is an event, so
                // every reader of the record (the one fold) follows it.
                while self.agreed.ply() > target {
                    out.push(Event::TakenBack { ply: self.agreed.ply(), t_ms: t, clock_proposal: None });
                    self.agreed.pop();
                }
                self.clocks.truncate(target + 1);
                self.resolve_where(|o| o.kind == DiscrepancyKind::Records, t, out);
            }
            return;
        }
        let agreed = self.agreed.moves().to_vec();
        for role in BoardRole::ALL {
            let Some(rec) = self.records[role].clone() else { continue };
            let c = common_prefix(&rec, &agreed);
            if c == agreed.len() && rec.len() == agreed.len() {
                self.waiting_since[role] = None;
                self.resolve_where(|o| o.kind == DiscrepancyKind::Execution && o.boards == [role], t, out);
            } else if c == rec.len() || c == agreed.len() {
                // Behind (not executed yet) or ahead (a move the owner has not made):
                // give it the grace time.
                self.waiting_since[role].get_or_insert(t);
                self.refresh_fix(role, t, out);
            } else {
                // Executed differently from what was announced.
                self.waiting_since[role].get_or_insert(t);
                let fingerprint = vec![Some(rec.len())];
                let already = self.open.iter().any(|o| o.boards == [role] && o.fingerprint == fingerprint);
                if !already {
                    self.open.retain(|o| o.boards != [role]);
                    self.raise(DiscrepancyKind::Execution, vec![role], agreed.len(), t, out);
                }
            }
        }
    }

    /// An open reminder for a board whose state changed is raised again with the new steps.
    fn refresh_fix(&mut self, role: BoardRole, t: Millis, out: &mut Vec<Event>) {
        let fingerprint = vec![self.records[role].as_ref().map(Vec::len)];
        let stale = self.open.iter().position(|o| {
            o.boards == [role] && o.kind == DiscrepancyKind::Execution && o.fingerprint != fingerprint
        });
        if let Some(i) = stale {
            self.open.remove(i);
            self.raise(DiscrepancyKind::Execution, vec![role], self.agreed.ply(), t, out);
        }
    }

    fn raise(
        &mut self,
        kind: DiscrepancyKind,
        boards: Vec<BoardRole>,
        agreed_ply: usize,
        t: Millis,
        out: &mut Vec<Event>,
    ) {
        let target = self.agreed.position_at(agreed_ply).expect("agreed ply exists").board().clone();
        let fix: Vec<BoardFix> = boards
            .iter()
            .filter_map(|&b| {
                let current = self.positions[b].as_ref()?;
                let steps = steps_between(current, &target).into_iter().map(StepRecord::from).collect();
                Some(BoardFix { board: b, steps })
            })
            .collect();
        let clock_proposal = if kind == DiscrepancyKind::Records {
            self.clocks.get(agreed_ply).copied().flatten()
        } else {
            None
        };
        let id = self.next_id;
        self.next_id += 1;
        let fingerprint = boards.iter().map(|&b| self.records[b].as_ref().map(Vec::len)).collect();
        out.push(Event::Discrepancy {
            id,
            kind,
            board: (boards.len() == 1).then(|| boards[0]),
            agreed_ply,
            fix,
            clock_proposal,
            t_ms: t,
        });
        self.open.push(Open { id, kind, boards, agreed_ply, fingerprint });
    }

    fn resolve_where(&mut self, pred: impl Fn(&Open) -> bool, t: Millis, out: &mut Vec<Event>) {
        let (done, keep): (Vec<Open>, Vec<Open>) = self.open.drain(..).partition(|o| pred(o));
        self.open = keep;
        for o in done {
            out.push(Event::DiscrepancyResolved { id: o.id, t_ms: t });
        }
    }
}

#[cfg(test)]
mod tests;
