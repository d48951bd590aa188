//! Move inference: turning timestamped occupancy scans into touches and moves.
//!
//! The tracker follows one sensed board against the game record executed on it.
//! It decides only once the board has been unchanged for the settle time, and
//! only when exactly one legal move explains both the settled occupancy and the
//! sequence of lifts that led to it. Everything else is reported, never guessed.
//!
//! Rules it implements:
//! - D.2.2: a peg lifted out of its hole is a touch. A lift shorter than the
//!   debounce time is sensor bounce, not a hand.
//! - D.2.3.1/2: a move is complete when the piece sits in its new hole and a
//!   captured piece is gone. Occupancy alone cannot tell Bxc6 from Bxd7 (same
//!   final holes), so the capture square must have been seen empty.
//! - Promotion: pegs do not tell pieces apart; the configured piece is assumed
//!   and flagged so a later announcement or button can correct it.
//! - A hand that rests on a square and then goes on (rook first when castling,
//!   a piece put down on the way) revises the move before the next one starts.

use crate::Millis;
use crate::event::MismatchReason;
use crate::game::Game;
use crate::occupancy::{occupancy_after, required_lifts};
use shakmaty::{Bitboard, Chess, Move, MoveList, Piece, Position, Role, Square};

/// Timing and defaults of the inference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrackerConfig {
    /// How long the board must stay unchanged before it is judged (default 300 ms).
    pub settle_ms: Millis,
    /// A peg out of its hole for less than this is sensor bounce (default 40 ms; must be below `settle_ms`).
    pub debounce_ms: Millis,
    /// The piece assumed for a promotion until someone says otherwise (default queen).
    pub promotion: Role,
}

impl Default for TrackerConfig {
    fn default() -> Self {
        TrackerConfig { settle_ms: 300, debounce_ms: 40, promotion: Role::Queen }
    }
}

/// What the tracker concluded; the session turns these into events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// A piece was lifted out of its hole (first time in this move sequence).
    Touch {
        /// Its square.
        square: Square,
        /// The piece standing there in the game position.
        piece: Piece,
        /// When the peg left the hole.
        t: Millis,
    },
    /// A move is complete on the board.
    Moved {
        /// Half-move number (1 = first move).
        ply: usize,
        /// The move.
        mv: Move,
        /// The promotion piece was assumed.
        promotion_assumed: bool,
        /// When the board had settled.
        t: Millis,
    },
    /// The last move was replaced by another from the same position.
    Revised {
        /// Half-move number of the replaced move.
        ply: usize,
        /// The new move.
        mv: Move,
        /// The move it replaces.
        replaces: Move,
        /// Promotion piece assumed.
        promotion_assumed: bool,
        /// When.
        t: Millis,
    },
    /// A settled board that is not explained.
    Mismatch {
        /// Why.
        reason: MismatchReason,
        /// The settled occupancy.
        sensed: Bitboard,
        /// For ambiguity: the moves that would explain it.
        candidates: Vec<Move>,
        /// For a take-back: the ply whose position the board shows.
        takeback_to_ply: Option<usize>,
        /// When.
        t: Millis,
    },
    /// The board agrees with the game again after a reported mismatch.
    Restored {
        /// When.
        t: Millis,
    },
}

/// How far the settled board is from the game position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// The board shows the game position.
    InStep,
    /// Pegs are out of their holes (in a hand), nothing is out of place.
    Pending,
    /// A mismatch was reported for this occupancy.
    Reported(Bitboard),
}

/// The lifts seen during one move sequence.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Lifts {
    /// Empty for at least the debounce time.
    confirmed: Bitboard,
    /// Empty at any moment, bounce included.
    any: Bitboard,
}

impl Lifts {
    fn union(self, other: Lifts) -> Lifts {
        Lifts { confirmed: self.confirmed | other.confirmed, any: self.any | other.any }
    }
}

/// The verdict on a settled board.
enum Explanation {
    None,
    One { mv: Move, promotion_assumed: bool },
    Many(Vec<Move>),
}

/// Follows one sensed board against the game executed on it.
#[derive(Clone, Debug)]
pub struct BoardTracker {
    cfg: TrackerConfig,
    game: Game,
    sensed: Bitboard,
    now: Millis,
    last_change: Millis,
    settled: bool,
    lift_started: [Millis; 64],
    unconfirmed: Bitboard,
    lifts: Lifts,
    touched: Bitboard,
    /// Lifts of the sequence that made the last move, while it may still be revised.
    revisable: Option<Lifts>,
    agreement: Agreement,
    bounces: u64,
}

impl BoardTracker {
    /// A tracker for `game`, with the board sensed as `sensed` since `t`.
    pub fn new(cfg: TrackerConfig, game: Game, sensed: Bitboard, t: Millis) -> Self {
        let mut tracker = BoardTracker {
            cfg,
            game,
            sensed,
            now: t,
            last_change: t,
            settled: false,
            lift_started: [0; 64],
            unconfirmed: Bitboard::EMPTY,
            lifts: Lifts::default(),
            touched: Bitboard::EMPTY,
            revisable: None,
            agreement: Agreement::InStep,
            bounces: 0,
        };
        if sensed == tracker.expected() {
            tracker.settled = true;
        }
        tracker
    }

    /// The game as executed on this board.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The last sensed occupancy.
    pub fn sensed(&self) -> Bitboard {
        self.sensed
    }

    /// Agreement of the last settled board with the game.
    pub fn agreement(&self) -> Agreement {
        self.agreement
    }

    /// Sensor bounces ignored so far.
    pub fn bounces(&self) -> u64 {
        self.bounces
    }

    /// The configuration.
    pub fn config(&self) -> &TrackerConfig {
        &self.cfg
    }

    /// When the tracker next needs [`tick`](Self::tick) if no scan arrives before.
    pub fn deadline(&self) -> Option<Millis> {
        let settle = (!self.settled).then(|| self.last_change + self.cfg.settle_ms);
        let confirm = self
            .unconfirmed
            .into_iter()
            .map(|sq| self.lift_started[sq as usize] + self.cfg.debounce_ms)
            .min();
        match (settle, confirm) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Feeds one scan (the full occupancy) taken at `t`.
    pub fn on_scan(&mut self, t: Millis, occ: Bitboard, out: &mut Vec<Observation>) {
        self.tick(t, out);
        let t = self.now;
        if occ == self.sensed {
            return; // heartbeat
        }
        for sq in self.sensed & !occ {
            self.lift_started[sq as usize] = t;
            self.unconfirmed.add(sq);
            self.lifts.any.add(sq);
        }
        for sq in occ & !self.sensed {
            if self.unconfirmed.remove(sq) {
                self.bounces += 1;
            }
        }
        self.sensed = occ;
        self.last_change = t;
        self.settled = false;
    }

    /// Lets time pass up to `t`: confirms lifts and judges a board that has settled.
    pub fn tick(&mut self, t: Millis, out: &mut Vec<Observation>) {
        self.now = self.now.max(t);
        let t = self.now;
        self.confirm_lifts(t, out);
        let settle_at = self.last_change + self.cfg.settle_ms;
        if !self.settled && t >= settle_at {
            self.settled = true;
            self.judge(settle_at, out);
        }
    }

    /// Plays a move decided elsewhere (an announcement, the operator); the board must follow.
    pub fn apply_move(&mut self, mv: Move, t: Millis, out: &mut Vec<Observation>) {
        let ply = self.game.ply() + 1;
        self.game.push(mv);
        self.revisable = None;
        self.clear_sequence();
        out.push(Observation::Moved { ply, mv, promotion_assumed: false, t });
        // The sensed board has not moved yet: judge it again against the new position.
        self.settled = false;
        self.last_change = self.last_change.min(t.saturating_sub(self.cfg.settle_ms));
    }

    /// Takes `game` as this board's record (the board was put right to show it:
    /// a corrected execution, or a return to the last agreed position) and
    /// judges the sensed board against it at the next tick.
    pub fn adopt(&mut self, game: Game) {
        self.game = game;
        self.revisable = None;
        self.clear_sequence();
        self.agreement = Agreement::InStep;
        self.settled = false;
    }

    /// Settles the piece of the last move's promotion (the peg board cannot see
    /// it; an announcement or a button can). Returns the corrected move, or
    /// `None` if the last move is not a promotion or the piece is not allowed.
    pub fn set_promotion(&mut self, role: Role) -> Option<Move> {
        let last = *self.game.moves().last()?;
        let Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(_) } = last else {
            return None;
        };
        if matches!(role, Role::Pawn | Role::King) {
            return None;
        }
        let corrected = Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(role) };
        self.game.pop();
        self.game.push(corrected);
        Some(corrected)
    }

    fn expected(&self) -> Bitboard {
        self.game.position().board().occupied()
    }

    fn confirm_lifts(&mut self, t: Millis, out: &mut Vec<Observation>) {
        while let Some(sq) = self
            .unconfirmed
            .into_iter()
            .filter(|&sq| self.lift_started[sq as usize] + self.cfg.debounce_ms <= t)
            .min_by_key(|&sq| (self.lift_started[sq as usize], sq))
        {
            self.unconfirmed.discard(sq);
            self.lifts.confirmed.add(sq);
            if let Some(piece) =
                self.game.position().board().piece_at(sq).filter(|_| !self.touched.contains(sq))
            {
                self.touched.add(sq);
                out.push(Observation::Touch { square: sq, piece, t: self.lift_started[sq as usize] });
            }
        }
    }

    fn clear_sequence(&mut self) {
        self.lifts = Lifts::default();
        self.touched = Bitboard::EMPTY;
    }

    fn judge(&mut self, t: Millis, out: &mut Vec<Observation>) {
        let sensed = self.sensed;
        if sensed == self.expected() {
            if let Some(castle) = self.hidden_castle() {
                return self.report(MismatchReason::Ambiguous, vec![castle], None, t, out);
            }
            if matches!(self.agreement, Agreement::Reported(_)) {
                out.push(Observation::Restored { t });
            }
            self.agreement = Agreement::InStep;
            self.clear_sequence();
            return;
        }
        match explain(self.game.position(), sensed, self.lifts, self.cfg.promotion) {
            Explanation::One { mv, promotion_assumed } => return self.commit(mv, promotion_assumed, t, out),
            Explanation::Many(c) => return self.report(MismatchReason::Ambiguous, c, None, t, out),
            Explanation::None => {}
        }
        if let Some(earlier) = self.revisable {
            let ply = self.game.ply();
            let previous = self.game.position_at(ply - 1).expect("a revisable move has a previous position");
            match explain(previous, sensed, earlier.union(self.lifts), self.cfg.promotion) {
                Explanation::One { mv, promotion_assumed } => {
                    return self.revise(mv, promotion_assumed, earlier, t, out);
                }
                Explanation::Many(c) => return self.report(MismatchReason::Ambiguous, c, None, t, out),
                Explanation::None => {}
            }
        }
        if sensed.is_subset(self.expected()) {
            // Pegs in a hand, nothing out of place: a move in progress.
            if self.agreement == Agreement::InStep {
                self.agreement = Agreement::Pending;
            }
            return;
        }
        match self.game.last_ply_with_occupancy(sensed) {
            Some(ply) => self.report(MismatchReason::Takeback, Vec::new(), Some(ply), t, out),
            None => self.report(MismatchReason::Unexplained, Vec::new(), None, t, out),
        }
    }

    /// Chess960: a king and rook that castle onto each other's squares leave the
    /// holes as they were; if both were lifted, that may have been castling.
    fn hidden_castle(&self) -> Option<Move> {
        if self.lifts.confirmed.count() < 2 {
            return None;
        }
        let pos = self.game.position();
        pos.legal_moves().into_iter().find(|m| {
            matches!(m, Move::Castle { .. })
                && occupancy_after(pos, m) == self.sensed
                && required_lifts(pos, m).any()
                && required_lifts(pos, m).is_subset(self.lifts.confirmed)
        })
    }

    fn commit(&mut self, mv: Move, promotion_assumed: bool, t: Millis, out: &mut Vec<Observation>) {
        let ply = self.game.ply() + 1;
        self.game.push(mv);
        self.revisable = Some(self.lifts);
        self.clear_sequence();
        self.agreement = Agreement::InStep;
        out.push(Observation::Moved { ply, mv, promotion_assumed, t });
    }

    fn revise(
        &mut self,
        mv: Move,
        promotion_assumed: bool,
        earlier: Lifts,
        t: Millis,
        out: &mut Vec<Observation>,
    ) {
        let ply = self.game.ply();
        let replaces = self.game.pop().expect("a revisable move exists");
        self.game.push(mv);
        self.revisable = Some(earlier.union(self.lifts));
        self.clear_sequence();
        self.agreement = Agreement::InStep;
        out.push(Observation::Revised { ply, mv, replaces, promotion_assumed, t });
    }

    fn report(
        &mut self,
        reason: MismatchReason,
        candidates: Vec<Move>,
        takeback_to_ply: Option<usize>,
        t: Millis,
        out: &mut Vec<Observation>,
    ) {
        if self.agreement == Agreement::Reported(self.sensed) {
            return; // said once for this board; heartbeats do not repeat it
        }
        self.agreement = Agreement::Reported(self.sensed);
        out.push(Observation::Mismatch { reason, sensed: self.sensed, candidates, takeback_to_ply, t });
    }
}

/// Which legal moves of `pos` explain the settled occupancy `sensed`, given the lifts seen.
fn explain(pos: &Chess, sensed: Bitboard, lifts: Lifts, promotion: Role) -> Explanation {
    let mut moves: MoveList = pos.legal_moves();
    // D.2.3.1: a capture is made only once the captured piece is off the board.
    // A piece lifted over its target has the same holes as the finished capture,
    // so the captured peg must have been seen out of its hole.
    moves.retain(|m| occupancy_after(pos, m) == sensed && required_lifts(pos, m).is_subset(lifts.any));
    if moves.is_empty() {
        return Explanation::None;
    }
    if let Some(choice) = single_path(&moves, promotion) {
        return choice;
    }
    // Same holes, different pieces taken: prefer the captured pegs that were out
    // longer than a sensor bounce.
    let mut fitting = moves.clone();
    fitting.retain(|m| required_lifts(pos, m).is_subset(lifts.confirmed));
    if fitting.is_empty() {
        return Explanation::Many(moves.to_vec());
    }
    single_path(&fitting, promotion).unwrap_or_else(|| Explanation::Many(fitting.to_vec()))
}

/// If all moves go from the same square to the same square (they differ only in
/// the promotion piece), picks one.
fn single_path(moves: &[Move], promotion: Role) -> Option<Explanation> {
    let first = moves[0];
    if !moves.iter().all(|m| m.from() == first.from() && m.to() == first.to()) {
        return None;
    }
    if moves.len() == 1 {
        return Some(Explanation::One { mv: first, promotion_assumed: false });
    }
    let preferred = moves
        .iter()
        .find(|m| m.promotion() == Some(promotion))
        .or_else(|| moves.iter().find(|m| m.promotion() == Some(Role::Queen)))?;
    Some(Explanation::One { mv: *preferred, promotion_assumed: true })
}

#[cfg(test)]
mod tests;
