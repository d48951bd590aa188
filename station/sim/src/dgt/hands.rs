//! "DGT hands": how a move made by hand on a piece-sensing board turns into a
//! timed sequence of field updates.
//!
//! A DGT board scans its squares one after the other (a full scan takes about
//! 200–250 ms), so what the station receives is not tidy. `dgtbrd.h` warns
//! about exactly what is generated here:
//!
//! * a lifted piece is a field update to empty;
//! * a sliding piece shows up on squares it passes over, and a piece seen on
//!   its new square can be reported *before* its old square is cleared;
//! * a captured piece is removed before the capturing piece is lifted, after
//!   it, or never seen removed at all (the square goes straight from the
//!   captured piece to the capturing one);
//! * castling is king first, rook first, or both lifted first;
//! * en passant removes the captured pawn before, during or after the move;
//! * a promotion may show the pawn on the last rank before the new piece,
//!   which is the real new piece in the end.
//!
//! Everything is deterministic from a seed. This file depends on nothing but
//! `shakmaty` and `std`, so another crate's tests can include it by path.
//!
//! # Timing contract
//!
//! The station takes a placement once nothing has changed for the settle time
//! ([`DgtHandTiming::settle_ms`]). Within one [`DgtHands::play`] every state
//! except the last lasts less than `settle_ms - 50` ms, and times never go
//! back. The caller lets the final state stand (e.g. [`DgtHands::think`] with
//! at least `settle_ms + 100` ms) before the next move.

use crate::jitter::SplitMix64;
use shakmaty::{Board, CastlingSide, Chess, Move, Piece, Position, Role, Square, attacks};

/// One field update as the board would send it, in standard square numbering
/// (a1 = 0) of the real board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedUpdate {
    /// Simulated time in milliseconds.
    pub at_ms: u64,
    /// The square that changed.
    pub square: Square,
    /// What stands there now (`None` = empty).
    pub piece: Option<Piece>,
}

/// Timing of the hands; see the module docs for the contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DgtHandTiming {
    /// The station's settle time.
    pub settle_ms: u64,
    /// Shortest time between two hand actions.
    pub min_step_ms: u64,
    /// Longest time between two hand actions; kept below `settle_ms - 50`.
    pub max_step_ms: u64,
    /// Longest gap between two reports of one scan (a slide, a swap seen at once).
    pub max_scan_gap_ms: u64,
}

impl Default for DgtHandTiming {
    fn default() -> Self {
        DgtHandTiming { settle_ms: 300, min_step_ms: 40, max_step_ms: 220, max_scan_gap_ms: 60 }
    }
}

impl DgtHandTiming {
    /// The limit every intermediate state stays strictly below: `settle_ms - 50`.
    pub fn transient_limit_ms(&self) -> u64 {
        self.settle_ms.saturating_sub(50)
    }

    /// Clamps out-of-contract values instead of failing.
    fn sanitised(mut self) -> Self {
        self.settle_ms = self.settle_ms.max(60);
        let limit = self.transient_limit_ms();
        self.max_step_ms = self.max_step_ms.clamp(1, limit - 1);
        self.min_step_ms = self.min_step_ms.clamp(1, self.max_step_ms);
        self.max_scan_gap_ms = self.max_scan_gap_ms.clamp(0, self.max_step_ms);
        self
    }
}

/// Sim times are clamped below this so the arithmetic cannot overflow.
const SIM_TIME_LIMIT_MS: u64 = u64::MAX / 4;

/// How long after the previous report an update comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    /// A separate hand action.
    Step,
    /// Within one scan of the board (slides, swaps).
    Scan,
}

/// The planned updates of one move, applied to a working copy of the board.
struct Plan {
    board: Board,
    ops: Vec<(Square, Option<Piece>, Gap)>,
}

impl Plan {
    /// Records a change; a "change" to what already stands there is not
    /// reported by a real board, so it is left out.
    fn set(&mut self, square: Square, piece: Option<Piece>, gap: Gap) {
        if self.board.piece_at(square) == piece {
            return;
        }
        match piece {
            Some(p) => self.board.set_piece_at(square, p),
            None => self.board.discard_piece_at(square),
        }
        self.ops.push((square, piece, gap));
    }
}

/// The board after `mv` is played in `pos` (a cheap clone-and-play); the
/// board unchanged when `mv` is not legal there.
pub fn board_after(pos: &Chess, mv: &Move) -> Board {
    if !pos.is_legal(*mv) {
        return pos.board().clone();
    }
    let mut next = pos.clone();
    next.play_unchecked(*mv);
    next.board().clone()
}

/// Applies updates to a board, as a receiver would.
pub fn apply_updates(board: &mut Board, updates: &[TimedUpdate]) {
    for u in updates {
        match u.piece {
            Some(p) => board.set_piece_at(u.square, p),
            None => board.discard_piece_at(u.square),
        }
    }
}

/// Simulated hands on a DGT board, deterministic from a seed.
#[derive(Debug, Clone)]
pub struct DgtHands {
    rng: SplitMix64,
    timing: DgtHandTiming,
}

impl DgtHands {
    /// Hands with default timing.
    pub fn new(seed: u64) -> Self {
        Self::with_timing(seed, DgtHandTiming::default())
    }

    /// Hands with custom timing; values outside the contract are clamped into it.
    pub fn with_timing(seed: u64, timing: DgtHandTiming) -> Self {
        DgtHands { rng: SplitMix64(seed), timing: timing.sanitised() }
    }

    /// The (sanitised) timing in use.
    pub fn timing(&self) -> &DgtHandTiming {
        &self.timing
    }

    /// Appends the field updates of physically making `mv` (legal in `pos`)
    /// from sim time `*now_ms` on, and advances `*now_ms` to the last update.
    /// Afterwards the board shows exactly [`board_after`]`(pos, mv)`. An
    /// illegal move produces no updates.
    pub fn play(&mut self, pos: &Chess, mv: &Move, now_ms: &mut u64, out: &mut Vec<TimedUpdate>) {
        if !pos.is_legal(*mv) {
            return;
        }
        let target = board_after(pos, mv);
        let mut plan = Plan { board: pos.board().clone(), ops: Vec::with_capacity(12) };

        // Touch-and-return: a piece picked up and put back first (touch evidence).
        if self.rng.percent(6)
            && let Some(sq) = self.rng.pick(pos.us())
        {
            let piece = plan.board.piece_at(sq);
            plan.set(sq, None, Gap::Step);
            plan.set(sq, piece, Gap::Step);
        }
        match *mv {
            Move::Normal { from, to, promotion, .. } => self.plan_normal(&mut plan, from, to, promotion),
            Move::EnPassant { from, to } => self.plan_en_passant(&mut plan, from, to),
            Move::Castle { king, rook } => self.plan_castle(&mut plan, pos, king, rook),
            Move::Put { role, to } => {
                plan.set(to, Some(Piece { color: pos.turn(), role }), Gap::Step);
            }
        }
        // Defensive: a plan that missed a square still ends on the promised board.
        for sq in Square::ALL {
            if plan.board.piece_at(sq) != target.piece_at(sq) {
                plan.set(sq, target.piece_at(sq), Gap::Step);
            }
        }

        let mut t = (*now_ms).min(SIM_TIME_LIMIT_MS);
        let mut first = true;
        for (square, piece, gap) in plan.ops {
            // Reaction time before the first report, then hand steps or scan gaps.
            t += match (first, gap) {
                (true, _) | (false, Gap::Step) => self.step(),
                (false, Gap::Scan) => self.rng.between(0, self.timing.max_scan_gap_ms),
            };
            first = false;
            out.push(TimedUpdate { at_ms: t, square, piece });
        }
        *now_ms = t;
    }

    /// Lets `ms` of thinking time pass (nothing moves).
    pub fn think(&mut self, ms: u64, now_ms: &mut u64) {
        *now_ms = now_ms.saturating_add(ms).min(SIM_TIME_LIMIT_MS);
    }

    fn step(&mut self) -> u64 {
        self.rng.between(self.timing.min_step_ms, self.timing.max_step_ms)
    }

    /// The moving piece travels `from → to`, reported on some squares it passes
    /// over; each arrival and departure may be reported in either order.
    fn travel(&mut self, plan: &mut Plan, from: Square, to: Square, piece: Piece, arrival: Option<Piece>) {
        let lift_first = self.rng.percent(60);
        if lift_first {
            plan.set(from, None, Gap::Step);
        }
        let mut stops: Vec<Square> = Vec::new();
        if self.rng.percent(40) {
            let mut passed: Vec<Square> =
                (attacks::between(from, to) & !plan.board.occupied()).into_iter().collect();
            passed.sort_by_key(|sq| sq.distance(from));
            stops.extend(passed.into_iter().filter(|_| self.rng.percent(70)));
        }
        stops.push(to);
        let mut previous = from;
        let last = stops.len() - 1;
        for (i, stop) in stops.into_iter().enumerate() {
            let shown = if i == last { arrival.unwrap_or(piece) } else { piece };
            let gap = if i == 0 && lift_first { Gap::Step } else { Gap::Scan };
            if self.rng.percent(50) {
                plan.set(stop, Some(shown), gap);
                plan.set(previous, None, Gap::Scan);
            } else {
                plan.set(previous, None, gap);
                plan.set(stop, Some(shown), Gap::Scan);
            }
            previous = stop;
        }
    }

    fn plan_normal(&mut self, plan: &mut Plan, from: Square, to: Square, promotion: Option<Role>) {
        let Some(piece) = plan.board.piece_at(from) else { return };
        let final_piece = promotion.map_or(piece, |role| Piece { color: piece.color, role });
        let captured = plan.board.piece_at(to).is_some();
        match (captured, self.rng.below(3)) {
            // The captured piece is taken off first.
            (true, 0) => {
                plan.set(to, None, Gap::Step);
                self.move_piece(plan, from, to, piece, final_piece);
            }
            // The mover is lifted, then the captured piece removed, then the mover put down.
            (true, 1) => {
                plan.set(from, None, Gap::Step);
                plan.set(to, None, Gap::Step);
                self.move_piece(plan, from, to, piece, final_piece);
            }
            // Swapped in one hand: the square never reads empty.
            _ => self.move_piece(plan, from, to, piece, final_piece),
        }
    }

    fn move_piece(&mut self, plan: &mut Plan, from: Square, to: Square, piece: Piece, final_piece: Piece) {
        if final_piece == piece {
            return self.travel(plan, from, to, piece, None);
        }
        match self.rng.below(3) {
            // The new piece goes straight onto the last rank.
            0 => {
                plan.set(from, None, Gap::Step);
                plan.set(to, Some(final_piece), Gap::Step);
            }
            // The pawn is walked up, taken off, the new piece put down.
            1 => {
                self.travel(plan, from, to, piece, None);
                plan.set(to, None, Gap::Step);
                plan.set(to, Some(final_piece), Gap::Step);
            }
            // The pawn is walked up and swapped within one scan.
            _ => {
                self.travel(plan, from, to, piece, None);
                plan.set(to, Some(final_piece), Gap::Step);
            }
        }
    }

    fn plan_en_passant(&mut self, plan: &mut Plan, from: Square, to: Square) {
        let Some(pawn) = plan.board.piece_at(from) else { return };
        let captured = Square::from_coords(to.file(), from.rank());
        match self.rng.below(3) {
            0 => {
                plan.set(captured, None, Gap::Step);
                self.travel(plan, from, to, pawn, None);
            }
            1 => {
                plan.set(from, None, Gap::Step);
                plan.set(captured, None, Gap::Step);
                self.travel(plan, from, to, pawn, None);
            }
            _ => {
                self.travel(plan, from, to, pawn, None);
                plan.set(captured, None, Gap::Step);
            }
        }
    }

    fn plan_castle(&mut self, plan: &mut Plan, pos: &Chess, king: Square, rook: Square) {
        let side = CastlingSide::from_king_side(king < rook);
        let (king_to, rook_to) = (side.king_to(pos.turn()), side.rook_to(pos.turn()));
        let (Some(k), Some(r)) = (plan.board.piece_at(king), plan.board.piece_at(rook)) else { return };
        // Chess960: when a piece lands where the other stands, both must be lifted first.
        let overlapping = king_to == rook || rook_to == king;
        match (overlapping, self.rng.below(3)) {
            (false, 0) => {
                self.travel_if_moving(plan, king, king_to, k);
                self.travel_if_moving(plan, rook, rook_to, r);
            }
            (false, 1) => {
                self.travel_if_moving(plan, rook, rook_to, r);
                self.travel_if_moving(plan, king, king_to, k);
            }
            _ => {
                let (first, second) = if self.rng.percent(50) { (king, rook) } else { (rook, king) };
                plan.set(first, None, Gap::Step);
                plan.set(second, None, Gap::Step);
                let places = [(king_to, k), (rook_to, r)];
                let order = if self.rng.percent(50) { [0, 1] } else { [1, 0] };
                for i in order {
                    plan.set(places[i].0, Some(places[i].1), Gap::Step);
                }
            }
        }
    }

    fn travel_if_moving(&mut self, plan: &mut Plan, from: Square, to: Square, piece: Piece) {
        if from != to {
            self.travel(plan, from, to, piece, None);
        }
    }
}

/// A state that stood too long, found by [`check_timing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StoodTooLong {
    /// When the state began.
    pub at_ms: u64,
    /// How long it stood.
    pub lasted_ms: u64,
}

/// Checks one [`DgtHands::play`] output against the timing contract: times never
/// go back and every state but the last ends within `settle_ms - 50` ms.
pub fn check_timing(updates: &[TimedUpdate], timing: &DgtHandTiming) -> Result<(), StoodTooLong> {
    for w in updates.windows(2) {
        if w[1].at_ms < w[0].at_ms || w[1].at_ms - w[0].at_ms >= timing.transient_limit_ms() {
            return Err(StoodTooLong { at_ms: w[0].at_ms, lasted_ms: w[1].at_ms.wrapping_sub(w[0].at_ms) });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{POSITIONS, position};

    #[test]
    fn every_legal_move_ends_on_the_right_board_within_the_contract() {
        let mut hands = DgtHands::new(7);
        let mut saw_intermediate = false;
        let mut saw_place_before_lift = false;
        for fen in POSITIONS {
            let pos = position(fen);
            for _ in 0..30 {
                for mv in pos.legal_moves() {
                    let mut now = 1_000;
                    let mut out = Vec::new();
                    hands.play(&pos, &mv, &mut now, &mut out);
                    let mut board = pos.board().clone();
                    apply_updates(&mut board, &out);
                    assert_eq!(board, board_after(&pos, &mv), "{fen} {mv:?}");
                    assert_eq!(out.last().map(|u| u.at_ms), Some(now));
                    assert!(out.iter().all(|u| u.at_ms > 1_000));
                    check_timing(&out, hands.timing()).unwrap();
                    let moved: shakmaty::Bitboard =
                        [mv.from(), Some(mv.to())].into_iter().flatten().collect();
                    saw_intermediate |= out.iter().any(|u| !moved.contains(u.square) && u.piece.is_some());
                    saw_place_before_lift |= mv.from().is_some_and(|from| {
                        out.first().is_some_and(|u| u.square == mv.to() && u.piece.is_some())
                            && out.iter().any(|u| u.square == from)
                    });
                }
            }
        }
        assert!(saw_intermediate, "pieces are seen while sliding");
        assert!(saw_place_before_lift, "arrival reported before departure");
    }

    #[test]
    fn promotion_shows_the_real_piece_and_sometimes_the_pawn_first() {
        let pos = position("7k/1P6/8/8/8/8/8/K7 w - - 0 1");
        let under = pos.legal_moves().into_iter().find(|m| m.promotion() == Some(Role::Knight)).unwrap();
        let mut hands = DgtHands::new(3);
        let mut pawn_seen = false;
        for _ in 0..50 {
            let (mut now, mut out) = (0, Vec::new());
            hands.play(&pos, &under, &mut now, &mut out);
            assert_eq!(out.last().unwrap().piece, Some(Piece::from_char('N').unwrap()));
            pawn_seen |=
                out.iter().any(|u| u.square == Square::B8 && u.piece == Some(Piece::from_char('P').unwrap()));
        }
        assert!(pawn_seen);
    }

    #[test]
    fn same_seed_same_updates() {
        let run = |seed| {
            let pos = position(POSITIONS[1]);
            let mut hands = DgtHands::new(seed);
            let mut out = Vec::new();
            let mut now = 0;
            for mv in pos.legal_moves() {
                hands.play(&pos, &mv, &mut now, &mut out);
                hands.think(500, &mut now);
            }
            out
        };
        assert_eq!(run(5), run(5));
        assert_ne!(run(5), run(6));
    }

    #[test]
    fn illegal_moves_and_huge_times_do_not_panic() {
        let pos = Chess::default();
        let mut hands = DgtHands::new(1);
        let mut out = Vec::new();
        let mut now = u64::MAX;
        let bogus = Move::Normal {
            role: Role::Queen,
            from: Square::E4,
            capture: None,
            to: Square::E2,
            promotion: None,
        };
        hands.play(&pos, &bogus, &mut now, &mut out);
        hands.play(&pos, &Move::Castle { king: Square::A5, rook: Square::A5 }, &mut now, &mut out);
        hands.think(u64::MAX, &mut now);
        check_timing(&[], hands.timing()).unwrap();
    }
}
