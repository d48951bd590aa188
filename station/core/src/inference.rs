//! Move inference: turning timestamped occupancy scans into touches and moves.
//!
//! The tracker follows one sensed board against the game record executed on it.
//! It decides only when exactly one legal move explains both the occupancy and
//! the sequence of lifts that led to it, and only once the move is over: the
//! board has been unchanged for the settle time, or (D.2.3) the next change
//! cannot belong to the move — a lift, longer than a bounce, that no other move
//! of the same piece involves, while the moved peg stands in its new hole and
//! was the last peg put down. Quick hands therefore need no resting time.
//! When the board runs several plies ahead (or comes back from an unexplained
//! state), the plies are accepted if exactly one sequence of legal moves
//! explains the lift order and the holes (catch-up). Everything else is
//! reported, once per new difference, never guessed.
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
//! - Pegs are read one by one: a piece that does not move goes back into its
//!   own hole and no other, so a board back at the record's holes after pegs
//!   of both sides went elsewhere (a position repeated inside a burst) is read
//!   from the lift order, never taken as one move or as none.
//! - ICCF Appendix B.3.2 (Chess960): where king and rook land on each other's
//!   squares, or one stays, the holes may fit another move or none; the touch
//!   order decides as Art. 4.4 reads: the king lifted first and the rook while
//!   the king is out is castling (4.4(a)); the rook first is reported (4.4(b)).
//!   A castling whose piece lands on the other's square needs both out at once.
//!
//! When a move is decided. On evidence: the next confirmed lift cannot belong to it. Early:
//! its peg stood the debounce time where no hand can make it another move (`early`: a knight,
//! a capture whose captured peg left first, the pawn's double step, a slider at the end of its
//! line; never a hole another legal move of the same pegs passes through), and an early move
//! the hand went on from is revised at once. On the player's own word: `BoardTracker::decide_now`
//! (his clock press, his announcement naming it). Otherwise after the settle time. `made_at` is
//! when the move was made (its board began to stand), which the clock charges.
//!
//! The lifts are read peg by peg: a piece that does not move goes back to its own hole, the
//! moving one may rest on the way, and a lift that a sensor flicker seemed to end goes on. A
//! Chess960 castling the holes leave open is castling when the king was lifted first and the
//! rook with it (Art. 4.4(a)), and reported when the rook came first. The tests in
//! `inference/tests.rs` are named after D.2.3 and ICCF B.3.2; `inference/tests/jittered.rs`
//! plays the same on a jittered line.
//!
//! Which evidence decides what (issue 32):
//! - a lift longer than the debounce time is a hand; a peg out and back within one reading's
//!   time (the line read both together) is as likely a hand as a bounce, so a capture it would
//!   make is asked or read from the pegs' paths, never passed over;
//! - a peg put into an empty hole while the board holds more pegs than the record has pieces is
//!   no piece (taken out again, no evidence);
//! - an older board decides on evidence only if no peg stood since where its move leaves a hole
//!   empty, and not while another capture with a bounce-length lift rivals it (the plies after
//!   tell them apart); a capture whose hole was filled again before the mover left its own is
//!   none;
//! - of several sequences, the one whose moves the board showed made first (D.2.3, the captured
//!   pegs out by a hand) is the game's; made at one moment, they are asked, and so they are when
//!   a rival was shown made sooner by weaker evidence only (a captured peg out for a bounce's
//!   time or at one instant, a board that stood only while a peg was sensed for a moment: on a
//!   jittered line each may be a hand) or when none was made by a hand;
//! - a board that one move explains, its pegs as one move's, is that move's (decided once it is
//!   over), never caught up by a longer sequence through the same holes: a flicker and a bounce
//!   can pass for a piece going out and back;
//! - a peg sensed for a moment where the moving piece may go instead leaves an older board's
//!   move, or a catch-up's last ply, to the plies after (it may have landed there and been
//!   taken at once by the next capture);
//! - a capture and its recapture decided as the recapture lands need the hole emptied twice:
//!   the first capture's captured peg is not the recapture's;
//! - several sequences while the hands go on are asked at once, never waited on (a board that
//!   never rests would stop the station), about the ply where they part; his announcement
//!   answers (`BoardTracker::answer`, reached through `decide_now`: D.2.3, the move he announces
//!   is his) and narrows that ply;
//! - a peg put down after a board stood, before any lift, says that board was no move (the hand
//!   was still placing).
//!
//! Castling with the rook first (issue 32; Art. 4.4.2 with D.2.2 and 4.3.1): the rook lifted
//! before the king (the king lifted while the rook was out of its hole) is no castling. When the
//! board shows the castling, the rook's move to its castling square is the move, whatever the
//! hands' timing: decided at once, never revised into castling, and a king's lift is no
//! continuation of it; a `rook_first` mismatch tells him and the arbiter that the king goes
//! back. Why this reading and not the castling: the rook is the touched piece, and Art. 4.4.2
//! forbids castling on that side once the rook was touched first; a ruling that depended on how
//! fast the king landed could not be defended. Where the rook's own move is not legal (Chess960,
//! the king in its way) the castling stands, as ICCF B.3.2.1 reads it.

use crate::Millis;
use crate::event::MismatchReason;
use crate::game::Game;
use crate::occupancy::{castling_targets, occupancy_after, required_lifts};
use shakmaty::{Bitboard, Chess, Move, MoveList, Piece, Position, Role, Square};

/// Timing and defaults of the inference.
///
/// Its serde form is the journal header's: `settle_ms`, `debounce_ms` and the
/// promotion piece's letter (`q`, `r`, `b`, `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TrackerConfig {
    /// How long the board must stay unchanged before it is judged (default 300 ms).
    pub settle_ms: Millis,
    /// A peg out of its hole for less than this is sensor bounce (default 40 ms; must be below `settle_ms`).
    pub debounce_ms: Millis,
    /// The piece assumed for a promotion until someone says otherwise (default queen).
    #[serde(with = "role_letter")]
    pub promotion: Role,
}

/// A piece as its letter (`q`), the form journal headers have always written.
mod role_letter {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};
    use shakmaty::Role;

    pub fn serialize<S: Serializer>(role: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(role.char())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        let letter = char::deserialize(d)?;
        Role::from_char(letter).ok_or_else(|| D::Error::custom(format!("promotion piece {letter}")))
    }
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
        /// When the hand went on from where it rested.
        t: Millis,
    },
    /// The board shows the record it was being put right to
    /// ([`BoardTracker::hold_until`]), which is now its record.
    PutRight {
        /// When the board showed the position it was held for.
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
        /// When the board had settled on what no move explains.
        t: Millis,
    },
    /// The board agrees with the game again after a reported mismatch.
    Restored {
        /// When the board agreed with the game again.
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

/// The verdict on a settled board.
enum Explanation {
    None,
    One { mv: Move, promotion_assumed: bool },
    Many(Vec<Move>),
}

mod early;
mod explanation;
mod judge;
mod on_evidence;
mod parts;
mod recapture;
use explanation::*;
use parts::*;
pub(crate) mod sequence;

/// A decision found on evidence: where it starts and the moves.
struct Decision {
    /// Replaces the last move (a hand that went on after a settled move).
    revises: bool,
    moves: Vec<(Move, bool)>,
    /// Lifts that belong to the decided moves (the rest begins the next move).
    consumed: usize,
    /// When the last of the moves was made (its board began to stand).
    made: Millis,
}

/// The most lifts one move is taken to need on evidence: its own two (a
/// capture, castling) and a touch, a knocked peg and a rest on the way.
const MAX_LIFTS_OF_ONE_MOVE: usize = 5;

/// The most lifts (and stood states) kept for one undecided stretch; a board
/// fumbled with for longer keeps only the newest (hostile input stays bounded).
const MAX_LOG: usize = 256;

/// Follows one sensed board against the game executed on it.
#[derive(Clone, Debug)]
pub struct BoardTracker {
    cfg: TrackerConfig,
    game: Game,
    sensed: Bitboard,
    /// Every lift since the record last agreed with the board, in order.
    log: Vec<Lift>,
    /// The states that stood since then.
    stood: Vec<Stood>,
    agreement: Agreement,
    /// Occupancies already reported since the board last agreed with the record.
    reported: Vec<Bitboard>,
    bounces: u64,
    timing: Timing,
    lifts: PendingLifts,
    placed: Placements,
    decision: DecisionState,
}

impl BoardTracker {
    /// A tracker for `game`, with the board sensed as `sensed` since `t`.
    pub fn new(cfg: TrackerConfig, game: Game, sensed: Bitboard, t: Millis) -> Self {
        let mut tracker = BoardTracker {
            cfg,
            game,
            sensed,
            log: Vec::new(),
            stood: Vec::new(),
            agreement: Agreement::InStep,
            reported: Vec::new(),
            bounces: 0,
            timing: Timing { now: t, last_change: t, settled: false, state_since: t, previous: (sensed, t) },
            lifts: PendingLifts {
                lift_started: [0; 64],
                lift_index: [0; 64],
                unconfirmed: Bitboard::EMPTY,
                returned: Bitboard::EMPTY,
            },
            placed: Placements {
                last_placed: None,
                placed_before: None,
                touched: Bitboard::EMPTY,
                foreign: Bitboard::EMPTY,
            },
            decision: DecisionState {
                made_at: t,
                early: true,
                early_checked: false,
                decided_early: false,
                revisable: None,
                asked: None,
                announced: None,
                held: None,
            },
        };
        if sensed == tracker.expected() {
            tracker.timing.settled = true;
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

    /// When the move decided last was made on the board: its board began to
    /// stand (the last peg put down, or the captured one taken). A move decided
    /// on the settle time or on evidence was made before it was decided; the
    /// clock charges the player up to this moment, not up to the decision.
    pub fn made_at(&self) -> Millis {
        self.decision.made_at
    }

    /// Whether moves are decided before the settle time where the pegs allow
    /// (on by default; off is the settle-or-evidence reading alone, for comparisons).
    pub fn set_early_decisions(&mut self, on: bool) {
        self.decision.early = on;
    }

    /// When the tracker next needs [`tick`](Self::tick) if no scan arrives before.
    pub fn deadline(&self) -> Option<Millis> {
        let settle = (!self.timing.settled)
            .then(|| self.early_at().unwrap_or(self.timing.last_change + self.cfg.settle_ms));
        let confirm = self
            .lifts
            .unconfirmed
            .into_iter()
            .map(|sq| self.lifts.lift_started[sq as usize] + self.cfg.debounce_ms)
            .min();
        match (settle, confirm) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Feeds one scan (the full occupancy) taken at `t`.
    pub fn on_scan(&mut self, t: Millis, occ: Bitboard, out: &mut Vec<Observation>) {
        self.tick(t, out);
        let t = self.timing.now;
        if occ == self.sensed {
            return; // heartbeat
        }
        let lasted = t - self.timing.state_since;
        // A state that returns to the one before within three quarters of the
        // debounce time is a bounce (bounces are shorter; hands are slower);
        // one that lasted longer stood.
        let stand_ms = self.cfg.debounce_ms * 3 / 4;
        let bounce = lasted < stand_ms && occ == self.timing.previous.0;
        if lasted >= stand_ms && self.stood.last().is_none_or(|s| s.occ != self.sensed) {
            if self.sensed == self.expected() && self.nothing_moved() {
                // The record's holes stood again and no hand can have moved
                // anything: the touches before are over and done with (at a
                // quick pace the board never rests to clear them).
                self.clear_sequence();
            }
            self.stood.push(Stood {
                occ: self.sensed,
                lifts: self.log.len(),
                last_placed: self.placed.last_placed,
                since: self.timing.state_since,
            });
        }
        let returned = std::mem::take(&mut self.lifts.returned);
        for sq in self.sensed & !occ {
            if bounce && returned.contains(sq) {
                // Out, back for a moment, out again: the moment back was the
                // flicker, and the lift it seemed to end goes on (a hand that
                // lifts a peg does not lose it to the sensor).
                let index = self.lifts.lift_index[sq as usize];
                if self.log.get(index).is_some_and(|l| l.square == sq && l.kind == LiftKind::Bounce) {
                    self.log[index].kind = LiftKind::Pending;
                    self.log[index].instant = false;
                    self.lifts.unconfirmed.add(sq);
                    // Or a piece landed there and was taken at once (a capture
                    // and its recapture read from a loaded line): the catch-up
                    // may read it so.
                    self.log.push(Lift::flickered(sq, self.sensed));
                    continue; // the bounce counted for the put-back stands for this flicker
                }
            }
            let foreign = self.placed.foreign.contains(sq);
            self.placed.foreign.discard(sq);
            if bounce || foreign {
                self.bounces += 1; // a peg sensed for a moment in an empty hole, or one no piece is
                if self.placed.last_placed.is_some_and(|(placed, ..)| placed == sq) {
                    self.placed.last_placed = self.placed.placed_before;
                }
                // Kept for the catch-up: a piece landing and taken at once looks the same.
                self.log.push(Lift::flickered(sq, self.sensed));
                continue;
            }
            // A peg that stood in a hole empty in the record for less than the
            // debounce time (a flicker a loaded line or machine stretched past
            // a bounce): for the catch-up, a piece landing and taken, or nothing.
            let brief = lasted < self.cfg.debounce_ms
                && !self.timing.previous.0.contains(sq)
                && !self.expected().contains(sq);
            self.lifts.lift_started[sq as usize] = t;
            self.lifts.lift_index[sq as usize] = self.log.len();
            self.lifts.unconfirmed.add(sq);
            self.log.push(Lift {
                square: sq,
                kind: LiftKind::Pending,
                before: self.sensed,
                flicker: brief,
                instant: false,
            });
        }
        for sq in occ & !self.sensed {
            if self.lifts.unconfirmed.remove(sq) {
                self.bounces += 1;
                self.lifts.returned.add(sq);
                let index = self.lifts.lift_index[sq as usize];
                self.log[index].kind = LiftKind::Bounce;
                // Out and back in one reading's time: the line read them
                // together, so how long the peg was out is not known.
                self.log[index].instant = t == self.lifts.lift_started[sq as usize];
                // A state a bounce made never stood: the hand left the one before.
                self.stood.retain(|s| s.lifts <= index);
            } else {
                if occ.count() > self.expected().count() {
                    self.placed.foreign.add(sq);
                }
                self.placed.placed_before = self.placed.last_placed;
                self.placed.last_placed = Some((sq, self.sensed, self.log.len()));
            }
        }
        if bounce {
            self.timing.state_since = self.timing.previous.1;
        } else {
            self.timing.previous = (self.sensed, self.timing.state_since);
            self.timing.state_since = t;
        }
        self.sensed = occ;
        self.timing.last_change = t;
        self.timing.settled = false;
        self.decision.early_checked = false;
        if self.log.len() > MAX_LOG || self.stood.len() > MAX_LOG {
            self.forget(self.log.len() - MAX_LOG / 2);
            self.stood.clear();
        }
        self.release_if_put_right(t, out);
    }

    /// Lets time pass up to `t`: confirms lifts (a confirmed lift may complete
    /// the move before it) and judges a board that has settled.
    pub fn tick(&mut self, t: Millis, out: &mut Vec<Observation>) {
        self.timing.now = self.timing.now.max(t);
        let t = self.timing.now;
        self.confirm_lifts(t, out);
        if self.decision.held.is_some() {
            // Pegs on their way back to a record taken back: no move to read.
            self.timing.settled |= t >= self.timing.last_change + self.cfg.settle_ms;
            return;
        }
        if let Some(at) = self.early_at().filter(|&at| t >= at) {
            self.decision.early_checked = true;
            if let Some((mv, promotion_assumed)) = self.pending_move(true) {
                self.commit(mv, promotion_assumed, at, out);
                self.decision.decided_early = true;
                self.timing.settled = true;
            } else if let Some((mv, promotion_assumed, lifts)) = self.pending_revision() {
                self.revise(mv, promotion_assumed, lifts, at, out);
                self.timing.settled = true;
            } else if let Some(decision) = self.pending_recapture() {
                self.take_decision(&decision, at, out);
                self.timing.settled = true;
            }
        }
        let settle_at = self.timing.last_change + self.cfg.settle_ms;
        if !self.timing.settled && t >= settle_at {
            self.timing.settled = true;
            self.judge(settle_at, out);
        }
    }

    /// The player's own evidence (D.2.3–D.2.4): his clock press, or his
    /// announcement naming `said`, decides the move in progress at `t` when
    /// exactly one legal move explains the board and the lifts (and it is the
    /// one he named), without waiting for the settle time. `true` when it did.
    pub fn decide_now(&mut self, said: Option<Move>, t: Millis, out: &mut Vec<Observation>) -> bool {
        self.tick(t, out);
        if self.decision.held.is_some() {
            return false;
        }
        let Some((mv, promotion_assumed)) = self.pending_move(false) else {
            return said.is_some_and(|said| self.answer(said, t, out));
        };
        if said.is_some_and(|s| s.from() != mv.from() || s.to() != mv.to()) {
            return false;
        }
        let t = self.timing.now;
        self.commit(mv, promotion_assumed, t, out);
        self.timing.settled = true;
        true
    }

    /// His announcement answers the station's question: `said`, one of the
    /// moves it reported as fitting the board (D.2.3: the move he announces is
    /// his), is the one read from then on; the board is judged again at once
    /// when it has not changed since. `true` when it answered.
    pub fn answer(&mut self, said: Move, t: Millis, out: &mut Vec<Observation>) -> bool {
        if self.decision.held.is_some() {
            return false;
        }
        let next = self.game.ply() + 1;
        let Some(asked) = self.decision.asked.as_ref().filter(|a| a.ply >= next) else { return false };
        let ply = asked.ply;
        let Some(&mv) = asked.candidates.iter().find(|m| sequence::same_path(m, &said)) else {
            return false;
        };
        let mv = match (mv, said.promotion()) {
            (Move::Normal { role, from, capture, to, promotion: Some(_) }, Some(p)) => {
                Move::Normal { role, from, capture, to, promotion: Some(p) }
            }
            _ => mv,
        };
        self.decision.announced = Some((mv, ply));
        if self.timing.settled {
            self.reported.clear();
            self.judge(t.max(self.timing.now), out);
        }
        true
    }

    /// The move the player announced for the next ply, answering a question.
    fn announced(&self) -> Option<Move> {
        self.decision.announced.filter(|&(_, ply)| ply == self.game.ply() + 1).map(|(mv, _)| mv)
    }

    /// Asks which of several sequences the hands made (at the ply where they
    /// part), unless it asked that already or he answered it.
    fn ask(&mut self, several: sequence::Several, t: Millis, out: &mut Vec<Observation>) {
        let ply = self.game.ply() + 1 + several.at;
        let answered = self.decision.announced.is_some_and(|(_, p)| p == ply);
        let asked =
            self.decision.asked.as_ref().is_some_and(|a| a.ply == ply && a.candidates == several.parting);
        if answered || asked {
            return;
        }
        self.report(MismatchReason::Ambiguous, several.parting.clone(), None, t, out);
        self.decision.asked = Some(Asked { candidates: several.parting, ply });
    }

    /// `explanation` with several moves narrowed to the one the player announced.
    fn narrowed(&self, explanation: Explanation) -> Explanation {
        match (explanation, self.announced()) {
            (Explanation::Many(c), Some(said)) if c.iter().any(|m| sequence::same_path(m, &said)) => {
                Explanation::One { mv: said, promotion_assumed: false }
            }
            (e, _) => e,
        }
    }

    /// The lifts of `log` as the catch-up reads them, with the player's answer.
    fn lift_order(&self, log: &[Lift]) -> sequence::LiftOrder {
        let mut order = all_lifts(log);
        let next = self.game.ply() + 1;
        order.announced =
            self.decision.announced.filter(|&(_, ply)| ply >= next).map(|(mv, ply)| (ply - next, mv));
        order
    }

    /// When the current state is looked at for an early decision: once it has
    /// stood for the debounce time (a peg sensed for a moment is no placement).
    fn early_at(&self) -> Option<Millis> {
        (self.decision.early && !self.timing.settled && !self.decision.early_checked)
            .then(|| self.timing.last_change + self.cfg.debounce_ms)
    }

    /// The one move the board in hand shows now, before the settle time: its
    /// pegs as one move (every other peg home, the captured one seen out longer
    /// than a bounce), the last peg put down its own. With `terminal`, also
    /// one that no hand can make into another move by going on.
    fn pending_move(&self, terminal: bool) -> Option<(Move, bool)> {
        let sensed = self.sensed;
        if self.timing.settled || self.lifts.unconfirmed.any() || sensed == self.expected() {
            return None;
        }
        let hands = self.log.iter().filter(|l| l.kind != LiftKind::Bounce).count();
        if hands > MAX_LIFTS_OF_ONE_MOVE {
            return None; // more than one move's worth: the settle time and the sequences read it
        }
        let pos = self.game.position();
        // A move ends with its own peg put down after one of the mover's pegs
        // was lifted (`ends`): without such a placement nothing is pending,
        // and the explanation (every legal move tried) is not worth making.
        let put_down_after_own_lift = self.placed.last_placed.is_some_and(|(_, _, lifts)| {
            self.log[..lifts.min(self.log.len())]
                .iter()
                .any(|l| l.kind != LiftKind::Bounce && pos.us().contains(l.square))
        });
        if !put_down_after_own_lift {
            return None;
        }
        let lifts = Lifts::of(&self.log);
        let Explanation::One { mv, promotion_assumed } =
            self.narrowed(explain(pos, sensed, lifts, Some(&self.log), self.cfg.promotion))
        else {
            return None;
        };
        let now = Stood {
            occ: sensed,
            lifts: self.log.len(),
            last_placed: self.placed.last_placed,
            since: self.timing.state_since,
        };
        let fits = required_lifts(pos, &mv).is_subset(lifts.confirmed)
            && pegs_fit(pos, &self.log, sensed, &mv)
            && ends(pos, &self.log, &now, &mv);
        let early = || early::terminal(pos, &mv) && early::captured_first(&mv, hand_lifts(&self.log).0);
        (fits && (!terminal || early())).then_some((mv, promotion_assumed))
    }

    /// A hand that went on with the piece of a move decided early (it had put
    /// it into a legal hole, D.2.3.2, and lifted it again): the board now shows
    /// another move from the same position, one no hand can make another
    /// either. Revised at once, so the next move is read from the right
    /// position (quick hands leave no settle time for it).
    fn pending_revision(&self) -> Option<(Move, bool, Lifts)> {
        let last = *self.game.moves().last()?;
        if !self.decision.decided_early || self.lifts.unconfirmed.any() || self.sensed == self.expected() {
            return None;
        }
        let lifts = Lifts::of(&self.log);
        // The peg it put down was lifted again, and no other: the hand went on
        // with it. (Any other peg may be the opponent's hand: a capture of the
        // piece just moved; that waits for the settle time as before.)
        if lifts.confirmed != sequence::placed_by(&last) {
            return None;
        }
        let previous = self.previous_position()?;
        let Some(Explanation::One { mv, promotion_assumed }) = self.revise_candidate(self.sensed, lifts)
        else {
            return None;
        };
        // Its new hole was filled after the hand lifted the piece again (a
        // peg put back there before was another hand's: a touch).
        let lands = sequence::placed_by(&mv);
        let relift = self.log.iter().rposition(|l| sequence::placed_by(&last).contains(l.square));
        let landed_after = relift.is_some_and(|i| {
            (lands & self.log[i].before).is_empty()
                || self.log[i + 1..].iter().any(|l| lands.contains(l.square))
        });
        let placed_own = landed_after && self.placed.last_placed.is_some_and(|(sq, ..)| lands.contains(sq));
        let earlier = self.decision.revisable.unwrap_or_default();
        (placed_own && early::terminal(previous, &mv)).then_some((
            mv,
            promotion_assumed,
            earlier.union(lifts),
        ))
    }

    /// Plays a move decided elsewhere (an announcement, the operator); the board must follow.
    pub fn apply_move(&mut self, mv: Move, t: Millis, out: &mut Vec<Observation>) {
        let ply = self.game.ply() + 1;
        self.decision.made_at = t;
        self.game.push(mv);
        self.decision.revisable = None;
        self.clear_sequence();
        out.push(Observation::Moved { ply, mv, promotion_assumed: false, t });
        // The sensed board has not moved yet: judge it again against the new position.
        self.timing.settled = false;
        self.timing.last_change = self.timing.last_change.min(t.saturating_sub(self.cfg.settle_ms));
    }

    /// Takes `game` as this board's record (the board was put right to show it:
    /// a corrected execution, or a return to the last agreed position) and
    /// judges the sensed board against it at the next tick.
    pub fn adopt(&mut self, game: Game) {
        self.decision.held = None;
        self.game = game;
        self.decision.revisable = None;
        self.clear_sequence();
        self.agreement = Agreement::InStep;
        self.reported.clear();
        self.timing.settled = false;
    }

    /// Moves were taken back: `target`, a record this board's goes back to,
    /// becomes its record once the board shows it. Until then the pegs are on
    /// their way back, and nothing is read from them: a white piece put home
    /// before a black one would read as moves of the record being left.
    pub fn hold_until(&mut self, target: Game) {
        self.decision.held = Some(target);
    }

    /// The board is being put right to a record taken back ([`hold_until`](Self::hold_until)).
    pub fn held(&self) -> bool {
        self.decision.held.is_some()
    }

    /// Ends the hold if the board shows the record it goes back to, which
    /// becomes this board's record ([`Observation::PutRight`]).
    pub fn release_if_put_right(&mut self, t: Millis, out: &mut Vec<Observation>) {
        let shown = self.decision.held.as_ref().is_some_and(|g| g.occupancy() == self.sensed);
        if let Some(target) = self.decision.held.take_if(|_| shown) {
            self.adopt(target);
            out.push(Observation::PutRight { t });
        }
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
            .lifts
            .unconfirmed
            .into_iter()
            .filter(|&sq| self.lifts.lift_started[sq as usize] + self.cfg.debounce_ms <= t)
            .min_by_key(|&sq| (self.lifts.lift_started[sq as usize], self.lifts.lift_index[sq as usize]))
        {
            self.lifts.unconfirmed.discard(sq);
            let index = self.lifts.lift_index[sq as usize];
            self.log[index].kind = LiftKind::Confirmed;
            let at = self.lifts.lift_started[sq as usize] + self.cfg.debounce_ms;
            if self.decision.held.is_some() {
                continue; // a peg on its way back to a record taken back
            }
            self.decide_on_evidence(index, at, out);
            if let Some(piece) =
                self.game.position().board().piece_at(sq).filter(|_| !self.placed.touched.contains(sq))
            {
                self.placed.touched.add(sq);
                out.push(Observation::Touch { square: sq, piece, t: self.lifts.lift_started[sq as usize] });
            }
        }
    }

    fn previous_position(&self) -> Option<&Chess> {
        self.game.ply().checked_sub(1).and_then(|p| self.game.position_at(p))
    }

    /// The last move replaced by another that explains `occ`, while it may still be revised.
    fn revise_candidate(&self, occ: Bitboard, lifts: Lifts) -> Option<Explanation> {
        let earlier = self.decision.revisable?;
        let previous = self.previous_position()?;
        let rook_moved = matches!(self.game.moves().last(), Some(Move::Normal { role: Role::Rook, .. }));
        match explain(previous, occ, earlier.union(lifts), None, self.cfg.promotion) {
            // Art. 4.4.2: a rook moved first stays the rook's move.
            Explanation::One { mv: Move::Castle { .. }, .. } if rook_moved => None,
            e => Some(e),
        }
    }

    /// Catch-up moves, a promotion's piece flagged as assumed (the search used the configured one).
    fn with_promotion(&self, moves: Vec<Move>) -> Vec<(Move, bool)> {
        moves.into_iter().map(|mv| (mv, mv.is_promotion())).collect()
    }

    /// Puts decided moves on the record and says so.
    fn record(&mut self, decision: &Decision, t: Millis, out: &mut Vec<Observation>) {
        self.decision.made_at = decision.made.min(t);
        self.decision.decided_early = false;
        for (i, &(mv, promotion_assumed)) in decision.moves.iter().enumerate() {
            if decision.revises && i == 0 {
                let ply = self.game.ply();
                let Some(replaces) = self.game.pop() else { return };
                self.game.push(mv);
                out.push(Observation::Revised { ply, mv, replaces, promotion_assumed, t });
            } else {
                let ply = self.game.ply() + 1;
                self.game.push(mv);
                out.push(Observation::Moved { ply, mv, promotion_assumed, t });
            }
        }
    }

    /// Puts decided moves on the record, in step with the board, and forgets
    /// the lifts they consumed (the rest begins the next move).
    fn take_decision(&mut self, decision: &Decision, t: Millis, out: &mut Vec<Observation>) {
        let was_reported = matches!(self.agreement, Agreement::Reported(_));
        self.record(decision, t, out);
        self.decision.revisable = None;
        self.agreement = Agreement::InStep;
        self.reported.clear();
        if was_reported && self.sensed == self.expected() {
            out.push(Observation::Restored { t });
        }
        self.forget(decision.consumed);
    }

    /// Drops the first `n` lifts (they belong to decided moves) and what refers to them.
    fn forget(&mut self, n: usize) {
        self.log.drain(..n);
        for sq in self.lifts.unconfirmed | self.lifts.returned {
            match self.lifts.lift_index[sq as usize].checked_sub(n) {
                Some(index) => self.lifts.lift_index[sq as usize] = index,
                None => {
                    // Only when a flood overflowed the log (or a decided move took the lift).
                    self.lifts.unconfirmed.discard(sq);
                    self.lifts.returned.discard(sq);
                }
            }
        }
        self.stood.retain(|s| s.lifts >= n);
        let rebase = |p: &mut Option<(Square, Bitboard, usize)>| {
            if let Some((_, _, lifts)) = p {
                *lifts = lifts.saturating_sub(n);
            }
        };
        for s in &mut self.stood {
            s.lifts -= n;
            rebase(&mut s.last_placed);
        }
        rebase(&mut self.placed.last_placed);
        rebase(&mut self.placed.placed_before);
        self.placed.touched = Bitboard::EMPTY;
        // A peg that stood briefly in a hole the record had empty then: now
        // that the record has a piece there, it was that piece (a capture's
        // target landing and taken at once), and its lift a hand's.
        let expected = self.expected();
        for l in self.log.iter_mut().filter(|l| l.flicker && l.kind != LiftKind::Bounce) {
            l.flicker = !expected.contains(l.square);
        }
    }

    /// Whether confirmed lifts since the last decision took pegs of both
    /// sides (as they stand in the record's position).
    fn both_sides_lifted(&self) -> bool {
        both_sides(self.game.position(), &self.log)
    }

    /// Whether the lifts since the record last agreed moved nothing, the
    /// board showing the record's holes again: pegs of one side only, and no
    /// castling whose king and rook swapped squares (ICCF B.3.2.2).
    fn nothing_moved(&self) -> bool {
        !self.log.is_empty()
            && !self.both_sides_lifted()
            && self.hidden_castle().is_none()
            && !self.king_touched_may_castle()
    }

    /// Whether the king of the side to move was lifted and put back while it
    /// may still castle: Art. 4.4(a) reads castling from the king touched
    /// first, so that touch stays evidence for the rook that follows (a
    /// Chess960 king that castles in place is never moved at all).
    fn king_touched_may_castle(&self) -> bool {
        let pos = self.game.position();
        let Some(king) = pos.board().king_of(pos.turn()) else { return false };
        self.log.iter().any(|l| l.square == king && l.kind == LiftKind::Confirmed)
            && pos.legal_moves().iter().any(|m| m.is_castle())
    }

    fn clear_sequence(&mut self) {
        let n = self.log.len();
        self.forget(n);
        self.stood.clear();
    }

    fn commit(&mut self, mv: Move, promotion_assumed: bool, t: Millis, out: &mut Vec<Observation>) {
        let ply = self.game.ply() + 1;
        self.game.push(mv);
        self.decision.made_at = self.timing.state_since.min(t);
        self.decision.decided_early = false;
        self.decision.revisable = Some(Lifts::of(&self.log));
        self.clear_sequence();
        self.agreement = Agreement::InStep;
        self.reported.clear();
        out.push(Observation::Moved { ply, mv, promotion_assumed, t });
    }

    fn revise(
        &mut self,
        mv: Move,
        promotion_assumed: bool,
        lifts: Lifts,
        t: Millis,
        out: &mut Vec<Observation>,
    ) {
        let ply = self.game.ply();
        let replaces = self.game.pop().expect("a revisable move exists");
        self.game.push(mv);
        self.decision.made_at = self.timing.state_since.min(t);
        self.decision.decided_early = false;
        self.decision.revisable = Some(lifts);
        self.clear_sequence();
        self.agreement = Agreement::InStep;
        self.reported.clear();
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
        if self.reported.contains(&self.sensed) {
            return; // said once for this difference; heartbeats and returns do not repeat it
        }
        let ply = self.game.ply() + 1;
        if reason == MismatchReason::Ambiguous
            && self.decision.asked.as_ref().is_some_and(|a| a.ply == ply && a.candidates == candidates)
        {
            return; // the same question, asked already while the hands went on
        }
        if self.reported.len() >= MAX_LOG {
            self.reported.remove(0);
        }
        self.reported.push(self.sensed);
        self.agreement = Agreement::Reported(self.sensed);
        if reason == MismatchReason::Ambiguous && !candidates.is_empty() {
            self.decision.asked = Some(Asked { candidates: candidates.clone(), ply });
        }
        out.push(Observation::Mismatch { reason, sensed: self.sensed, candidates, takeback_to_ply, t });
    }
}

#[cfg(test)]
mod tests;
