//! How human hands turn a chess move into a sequence of peg-board scans.
//!
//! Used by the in-process replay (hundreds of thousands of moves) and by the
//! pty simulator. Everything is deterministic from a seed and allocation-free
//! apart from pushing into the caller's `Vec`.
//!
//! # Timing contract
//!
//! The station decides a move once the board has been unchanged for
//! [`HandTiming::settle_ms`]. Hands therefore promise:
//!
//! * every intermediate state of a move (anything [`Hands::play`] pushes
//!   before its final scan) lasts less than `settle_ms - 50` ms, also when a
//!   sub-30 ms sensor bounce inside it is debounced away;
//! * a sensor bounce lasts less than 30 ms;
//! * [`Hands::think`] never leaves a state other than the resting occupancy
//!   standing for `settle_ms - 50` ms or more (a knocked peg is back within
//!   [`HandTiming::max_step_ms`]), and keeps its first `settle_ms + 100` ms
//!   free of noise so the position the previous move reached settles
//!   undisturbed;
//! * scan times never decrease.
//!
//! `play` returns right after the final placement; the *caller* guarantees
//! the rest that lets the station settle (typically by calling `think` with a
//! thinking time of at least `settle_ms + 100` ms before the next `play`).
//!
//! The moving piece goes straight into its hole and never rests in one its move does not use;
//! castling is king first, then the rook (Art. 4.4). The noise is a neighbour or a piece touched
//! and put back, and sensor bounces. `hands::real_games` checks every scan of every game of
//! `tests/data/pgn/games`.

use crate::jitter::{OnTheLine, SplitMix64};
use shakmaty::{Bitboard, Chess, Move, Position, Square, attacks};

/// One scan as the board would send it: the full occupancy after one change
/// (or unchanged, for a heartbeat) at simulated time `at_ms`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedScan {
    /// Simulated time in milliseconds.
    pub at_ms: u64,
    /// Full board occupancy at that time.
    pub occupancy: Bitboard,
}

impl OnTheLine for TimedScan {
    fn at(&self) -> u64 {
        self.at_ms
    }

    fn set_at(&mut self, at: u64) {
        self.at_ms = at;
    }

    fn reading(&self) -> u64 {
        self.occupancy.0
    }
}

/// Timing parameters of the hands; see the module docs for the contract they implement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandTiming {
    /// The station's settle time: a state standing this long is taken as a position.
    pub settle_ms: u64,
    /// Shortest time a hand needs between two changes.
    pub min_step_ms: u64,
    /// Longest time between two changes of a move; kept below `settle_ms - 50`.
    pub max_step_ms: u64,
    /// Longest sensor bounce; kept below 30 ms.
    pub max_bounce_ms: u64,
    /// Longest gap between heartbeat scans when noise is on.
    pub heartbeat_ms: u64,
}

impl Default for HandTiming {
    fn default() -> Self {
        HandTiming {
            settle_ms: 300,
            min_step_ms: 40,
            max_step_ms: 220,
            max_bounce_ms: 25,
            heartbeat_ms: 1000,
        }
    }
}

/// Sim times are clamped below this so the arithmetic can never overflow,
/// whatever `now_ms` a caller passes (about 146 million years: never reached).
const SIM_TIME_LIMIT_MS: u64 = u64::MAX / 4;

/// Bounces shorter than this are what the station's debounce filters out.
pub const BOUNCE_LIMIT_MS: u64 = 30;

impl HandTiming {
    /// The limit every non-resting state stays strictly below: `settle_ms - 50`.
    pub fn transient_limit_ms(&self) -> u64 {
        self.settle_ms.saturating_sub(50)
    }

    /// Quiet time at the start of every `think` interval: `settle_ms + 100`.
    pub fn quiet_head_ms(&self) -> u64 {
        self.settle_ms + 100
    }

    /// Adjusts out-of-contract values instead of failing, so any input is usable.
    fn sanitised(mut self) -> Self {
        self.settle_ms = self.settle_ms.max(60);
        let limit = self.transient_limit_ms();
        self.max_step_ms = self.max_step_ms.clamp(1, limit - 1);
        self.min_step_ms = self.min_step_ms.clamp(1, self.max_step_ms);
        self.max_bounce_ms = self.max_bounce_ms.clamp(1, BOUNCE_LIMIT_MS - 1);
        self.heartbeat_ms = self.heartbeat_ms.max(2);
        self
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Lift(Square),
    Place(Square),
}

impl Op {
    fn apply(self, occupancy: Bitboard) -> Bitboard {
        match self {
            Op::Lift(sq) => occupancy.without(sq),
            Op::Place(sq) => occupancy.with(sq),
        }
    }

    /// A lift needs a peg and a placement needs a hole.
    fn possible(self, occupancy: Bitboard) -> bool {
        match self {
            Op::Lift(sq) => occupancy.contains(sq),
            Op::Place(sq) => !occupancy.contains(sq),
        }
    }
}

/// The longest plan: touch-and-return (2) + capture (3) + promotion swap (2)
/// + detour (2) + knock (2) + slack.
const MAX_OPS: usize = 16;

/// A fixed-capacity list of hand operations, tracking the occupancy as it goes.
struct Plan {
    ops: [Op; MAX_OPS],
    len: usize,
    occupancy: Bitboard,
}

impl Plan {
    fn new(occupancy: Bitboard) -> Self {
        Plan { ops: [Op::Lift(Square::A1); MAX_OPS], len: 0, occupancy }
    }

    fn push(&mut self, op: Op) {
        // Capacity is sized for the worst case; dropping an op would only
        // happen on a bug, and then the final fix-up scan still ends right.
        if self.len < MAX_OPS {
            self.ops[self.len] = op;
            self.len += 1;
            self.occupancy = op.apply(self.occupancy);
        }
    }

    fn extend_if_possible(&mut self, ops: &[Op]) -> bool {
        let mut occ = self.occupancy;
        for op in ops {
            if !op.possible(occ) {
                return false;
            }
            occ = op.apply(occ);
        }
        ops.iter().for_each(|&op| self.push(op));
        true
    }

    fn ops(&self) -> &[Op] {
        &self.ops[..self.len]
    }
}

/// Occupancy of the board after `mv` is played in `pos` (pegs only, no pieces).
pub fn occupancy_after(pos: &Chess, mv: &Move) -> Bitboard {
    let occ = pos.board().occupied();
    match *mv {
        Move::Normal { from, to, .. } => occ.without(from).with(to),
        Move::EnPassant { from, to } => {
            occ.without(from).without(Square::from_coords(to.file(), from.rank())).with(to)
        }
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castle_targets(pos, king, rook);
            occ.without(king).without(rook).with(king_to).with(rook_to)
        }
        Move::Put { to, .. } => occ.with(to),
    }
}

fn castle_targets(pos: &Chess, king: Square, rook: Square) -> (Square, Square) {
    let side = Move::Castle { king, rook }.castling_side().unwrap_or(shakmaty::CastlingSide::KingSide);
    let color = pos.turn();
    (side.king_to(color), side.rook_to(color))
}

/// Simulated hands: turn moves into timed scans, with optional seeded noise.
#[derive(Debug, Clone)]
pub struct Hands {
    rng: SplitMix64,
    noisy: bool,
    timing: HandTiming,
}

impl Hands {
    /// Hands with default timing. `None` = clean hands: no noise, but ordering
    /// choices (capture order, castling order) still vary, seeded by 0.
    pub fn new(noise_seed: Option<u64>) -> Self {
        Self::with_timing(noise_seed, HandTiming::default())
    }

    /// Hands with custom timing; values outside the contract are clamped into it.
    pub fn with_timing(noise_seed: Option<u64>, timing: HandTiming) -> Self {
        Hands {
            rng: SplitMix64(noise_seed.unwrap_or(0)),
            noisy: noise_seed.is_some(),
            timing: timing.sanitised(),
        }
    }

    /// The (sanitised) timing in use.
    pub fn timing(&self) -> &HandTiming {
        &self.timing
    }

    /// Appends the occupancy changes produced by physically executing `mv`
    /// (legal in `pos`) starting at sim time `*now_ms`, and advances `*now_ms`
    /// to the final placement. Each pushed scan is the full occupancy after
    /// one change (or a heartbeat). The last scan pushed always equals
    /// [`occupancy_after`]`(pos, mv)`. An illegal `mv` does not panic; its
    /// intermediate scans are then unspecified.
    pub fn play(&mut self, pos: &Chess, mv: &Move, now_ms: &mut u64, out: &mut Vec<TimedScan>) {
        self.play_with_reaction(pos, mv, None, now_ms, out);
    }

    /// Like [`play`](Self::play), but the first change comes exactly `reaction_ms`
    /// after `*now_ms` (quick hands: the next move begun right after the last
    /// placement, with no resting time for the station to settle in between).
    pub fn play_after(
        &mut self,
        pos: &Chess,
        mv: &Move,
        reaction_ms: u64,
        now_ms: &mut u64,
        out: &mut Vec<TimedScan>,
    ) {
        self.play_with_reaction(pos, mv, Some(reaction_ms), now_ms, out);
    }

    /// A pause drawn uniformly from `lo..=hi` ms from the hands' seeded generator.
    pub fn pause(&mut self, lo: u64, hi: u64) -> u64 {
        self.rng.between(lo, hi)
    }

    fn play_with_reaction(
        &mut self,
        pos: &Chess,
        mv: &Move,
        reaction: Option<u64>,
        now_ms: &mut u64,
        out: &mut Vec<TimedScan>,
    ) {
        let start = pos.board().occupied();
        let target = occupancy_after(pos, mv);
        let mut plan = Plan::new(start);

        // Touch-and-return: a piece picked up and put back before the real move.
        // Never the castling rook: a rook touched first is the rook to move
        // (Art. 4.4.2), so a hand about to castle leaves it alone.
        let untouchable = match *mv {
            Move::Castle { rook, .. } => Bitboard::from(rook),
            _ => Bitboard::EMPTY,
        };
        if self.noisy
            && self.rng.percent(8)
            && let Some(sq) = self.rng.pick(pos.us() & !untouchable)
        {
            plan.push(Op::Lift(sq));
            plan.push(Op::Place(sq));
        }
        match *mv {
            Move::Normal { from, to, promotion, .. } => {
                self.plan_normal(&mut plan, from, to, promotion.is_some())
            }
            Move::EnPassant { from, to } => self.plan_en_passant(&mut plan, from, to),
            Move::Castle { king, rook } => {
                let (king_to, rook_to) = castle_targets(pos, king, rook);
                self.plan_castle(&mut plan, king, rook, king_to, rook_to);
            }
            Move::Put { to, .. } => self.place_final(&mut plan, to),
        }

        let mut t = (*now_ms).min(SIM_TIME_LIMIT_MS);
        let mut occ = start;
        let mut bounces_left = 3;
        // Reaction time: the starting position keeps standing a little longer.
        let reaction = reaction.unwrap_or_else(|| self.step());
        self.noise_inside(occ, t, reaction, &mut bounces_left, out);
        t += reaction;
        let ops = plan.ops();
        for (i, op) in ops.iter().enumerate() {
            occ = op.apply(occ);
            out.push(TimedScan { at_ms: t, occupancy: occ });
            if i + 1 < ops.len() {
                let d = self.step();
                self.noise_inside(occ, t, d, &mut bounces_left, out);
                t += d;
            }
        }
        if occ != target {
            // Only reachable for an illegal move: still end on the promised occupancy.
            t += self.step();
            out.push(TimedScan { at_ms: t, occupancy: target });
        }
        *now_ms = t;
    }

    /// Noise while nobody is moving, over `ms` of thinking time starting at
    /// `*now_ms`; advances `*now_ms` by `ms`. Clean hands push nothing.
    /// With noise: heartbeats (identical scans, at most `heartbeat_ms` apart),
    /// occasional sensor bounces and knocked pegs put back, all ending on
    /// `occupancy`, none in the first `settle_ms + 100` ms.
    pub fn think(&mut self, occupancy: Bitboard, ms: u64, now_ms: &mut u64, out: &mut Vec<TimedScan>) {
        let end = now_ms.saturating_add(ms).min(SIM_TIME_LIMIT_MS);
        if self.noisy {
            let mut t = (*now_ms).min(end);
            let quiet_until = t.saturating_add(self.timing.quiet_head_ms());
            loop {
                let hb = self.timing.heartbeat_ms;
                let slot_end = t + self.rng.between(hb / 2, hb);
                if slot_end >= end {
                    break;
                }
                if t >= quiet_until {
                    let roll = self.rng.below(100);
                    let (square, lasts) = if roll < 6 {
                        (self.rng.pick(occupancy), self.step())
                    } else if roll < 16 {
                        let sq = Square::new(self.rng.below(64) as u32);
                        (Some(sq), self.bounce())
                    } else {
                        (None, 0)
                    };
                    let room = slot_end - t;
                    // Margins on both sides keep two events from merging in a debouncer.
                    if let Some(sq) = square.filter(|_| room > lasts + 2 * BOUNCE_LIMIT_MS) {
                        let at = t + self.rng.between(BOUNCE_LIMIT_MS, room - lasts - BOUNCE_LIMIT_MS);
                        out.push(TimedScan { at_ms: at, occupancy: occupancy ^ Bitboard::from(sq) });
                        out.push(TimedScan { at_ms: at + lasts, occupancy });
                    }
                }
                out.push(TimedScan { at_ms: slot_end, occupancy });
                t = slot_end;
            }
        }
        *now_ms = now_ms.saturating_add(ms);
    }

    fn step(&mut self) -> u64 {
        self.rng.between(self.timing.min_step_ms, self.timing.max_step_ms)
    }

    fn bounce(&mut self) -> u64 {
        self.rng.between(1, self.timing.max_bounce_ms)
    }

    /// Bounces and heartbeats strictly inside the state that starts at `t`
    /// and lasts `d`, so the state's overall span stays `d`.
    fn noise_inside(
        &mut self,
        occ: Bitboard,
        t: u64,
        d: u64,
        bounces_left: &mut u32,
        out: &mut Vec<TimedScan>,
    ) {
        if !self.noisy {
            return;
        }
        let mut cursor = t;
        let end = t + d;
        if *bounces_left > 0 && self.rng.percent(12) {
            let b = self.bounce();
            // Keep a bounce away from both edges of the state: a debouncing
            // station would otherwise read the edge itself as a bounce and
            // stretch the neighbouring state.
            if d > b + 2 * BOUNCE_LIMIT_MS {
                let at = cursor + self.rng.between(BOUNCE_LIMIT_MS, d - b - BOUNCE_LIMIT_MS);
                let sq = Square::new(self.rng.below(64) as u32);
                out.push(TimedScan { at_ms: at, occupancy: occ ^ Bitboard::from(sq) });
                out.push(TimedScan { at_ms: at + b, occupancy: occ });
                cursor = at + b;
                *bounces_left -= 1;
            }
        }
        if self.rng.percent(10) && end > cursor + 2 {
            out.push(TimedScan { at_ms: self.rng.between(cursor + 1, end - 1), occupancy: occ });
        }
    }

    fn plan_normal(&mut self, plan: &mut Plan, from: Square, to: Square, promotes: bool) {
        let captures = plan.occupancy.contains(to);
        let capture_first = captures && self.rng.percent(50);
        if capture_first {
            plan.push(Op::Lift(to));
        }
        plan.push(Op::Lift(from));
        if captures && !capture_first {
            plan.push(Op::Lift(to));
        }
        if promotes && self.rng.percent(30) {
            // The pawn is walked onto the last rank, then swapped for the new piece.
            plan.push(Op::Place(to));
            plan.push(Op::Lift(to));
        }
        self.place_final(plan, to);
    }

    fn plan_en_passant(&mut self, plan: &mut Plan, from: Square, to: Square) {
        let captured = Square::from_coords(to.file(), from.rank());
        match self.rng.below(3) {
            0 => {
                plan.push(Op::Lift(captured));
                plan.push(Op::Lift(from));
                self.place_final(plan, to);
            }
            1 => {
                plan.push(Op::Lift(from));
                plan.push(Op::Lift(captured));
                self.place_final(plan, to);
            }
            _ => {
                plan.push(Op::Lift(from));
                self.place_final(plan, to);
                plan.push(Op::Lift(captured));
            }
        }
    }

    /// Castling as Art. 4.4 asks: the king first, then the rook. The king is
    /// lifted first and set down first; the hand either puts him down before
    /// it takes the rook or holds both at once (needed where they land on each
    /// other's squares in Chess960). No peg ever rests in a hole the castling
    /// does not use.
    fn plan_castle(&mut self, plan: &mut Plan, king: Square, rook: Square, king_to: Square, rook_to: Square) {
        use Op::{Lift, Place};
        let king_first = [Lift(king), Place(king_to), Lift(rook), Place(rook_to)];
        let both_lifted = [Lift(king), Lift(rook), Place(king_to), Place(rook_to)];
        if self.noisy {
            // A neighbour knocked and put back, never the king or the rook:
            // that would be the rook lifted first.
            self.maybe_knock(plan, king_to, Bitboard::from(king) | Bitboard::from(rook));
        }
        let placed = self.rng.percent(67) && plan.extend_if_possible(&king_first);
        if !placed {
            plan.extend_if_possible(&both_lifted);
        }
    }

    /// The mover's last placement onto `to`; noisy hands may knock a
    /// neighbouring peg on the way and put it straight back.
    fn place_final(&mut self, plan: &mut Plan, to: Square) {
        // The moving piece goes straight into its hole: a hand never sets it
        // down in a hole its move does not end in (the station would take
        // that as a position and tell him his board differs).
        if self.noisy {
            self.maybe_knock(plan, to, Bitboard::EMPTY);
        }
        plan.push(Op::Place(to));
    }

    /// A neighbouring peg of `near` knocked out and put straight back.
    fn maybe_knock(&mut self, plan: &mut Plan, near: Square, spare: Bitboard) {
        if self.rng.percent(8)
            && let Some(peg) = self.rng.pick(attacks::king_attacks(near) & plan.occupancy & !spare)
        {
            plan.push(Op::Lift(peg));
            plan.push(Op::Place(peg));
        }
    }
}

/// A state that stood too long, found by [`check_timing`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum TimingViolation {
    /// A scan's time is earlier than the one before it.
    #[error("scan at {at_ms} ms goes back in time")]
    TimeWentBack {
        /// Time of the offending scan.
        at_ms: u64,
    },
    /// A non-resting state lasted `lasted_ms` (limit `limit_ms`), starting at `at_ms`.
    #[error("state {occupancy:?} from {at_ms} ms lasted {lasted_ms} ms (limit {limit_ms} ms)")]
    StoodTooLong {
        /// When the state began.
        at_ms: u64,
        /// How long it stood (after merging debounced bounces).
        lasted_ms: u64,
        /// The contract's limit, `settle_ms - 50`.
        limit_ms: u64,
        /// The state itself.
        occupancy: Bitboard,
    },
}

/// Checks a scan sequence against the timing contract: every state except the
/// last one and except `resting` must end within `settle_ms - 50` ms, also when
/// bounces shorter than 30 ms are merged into the state around them.
///
/// For the output of one [`Hands::play`] pass `resting = None`; for
/// [`Hands::think`] pass the occupancy it was given.
pub fn check_timing(
    scans: &[TimedScan],
    resting: Option<Bitboard>,
    timing: &HandTiming,
) -> Result<(), TimingViolation> {
    if let Some(w) = scans.windows(2).find(|w| w[1].at_ms < w[0].at_ms) {
        return Err(TimingViolation::TimeWentBack { at_ms: w[1].at_ms });
    }
    // Runs of identical occupancy: (occupancy, start, end); the last run has no end.
    let mut runs: Vec<(Bitboard, u64, u64)> = Vec::new();
    for scan in scans {
        match runs.last_mut() {
            Some(last) if last.0 == scan.occupancy => {}
            _ => {
                if let Some(last) = runs.last_mut() {
                    last.2 = scan.at_ms;
                }
                runs.push((scan.occupancy, scan.at_ms, u64::MAX));
            }
        }
    }
    let limit = timing.transient_limit_ms();
    let check = |runs: &[(Bitboard, u64, u64)]| {
        let bounded = runs.len().saturating_sub(1);
        runs[..bounded].iter().filter(|run| Some(run.0) != resting).find(|run| run.2 - run.1 >= limit).map(
            |&(occupancy, at_ms, end)| TimingViolation::StoodTooLong {
                at_ms,
                lasted_ms: end - at_ms,
                limit_ms: limit,
                occupancy,
            },
        )
    };
    if let Some(violation) = check(&runs) {
        return Err(violation);
    }
    // What a debouncing station sees: A, bounce, A collapses into one A.
    let mut merged: Vec<(Bitboard, u64, u64)> = Vec::with_capacity(runs.len());
    for run in runs {
        let n = merged.len();
        if n >= 2 && merged[n - 2].0 == run.0 && merged[n - 1].2 - merged[n - 1].1 < BOUNCE_LIMIT_MS {
            merged.pop();
            if let Some(prev) = merged.last_mut() {
                prev.2 = run.2;
            }
        } else {
            merged.push(run);
        }
    }
    match check(&merged) {
        Some(violation) => Err(violation),
        None => Ok(()),
    }
}

#[cfg(test)]
mod real_games;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{POSITIONS, position};

    fn scans_differ_by_at_most_one_square(start: Bitboard, scans: &[TimedScan]) {
        let mut prev = start;
        for scan in scans {
            assert!((prev ^ scan.occupancy).count() <= 1, "two changes at once at {}", scan.at_ms);
            prev = scan.occupancy;
        }
    }

    fn check_move(hands: &mut Hands, pos: &Chess, mv: &Move, now: &mut u64) -> Vec<TimedScan> {
        let mut out = Vec::new();
        let before = *now;
        hands.play(pos, mv, now, &mut out);
        let target = occupancy_after(pos, mv);
        assert_eq!(out.last().map(|s| s.occupancy), Some(target), "{mv:?}");
        assert_eq!(out.last().map(|s| s.at_ms), Some(*now));
        assert!(out.iter().all(|s| s.at_ms > before && s.at_ms <= *now));
        check_timing(&out, None, hands.timing()).unwrap_or_else(|e| panic!("{mv:?}: {e}"));
        scans_differ_by_at_most_one_square(pos.board().occupied(), &out);
        out
    }

    #[test]
    fn occupancy_after_matches_shakmaty() {
        for fen in POSITIONS {
            let pos = position(fen);
            for mv in pos.legal_moves() {
                let after = pos.clone().play(mv).unwrap();
                assert_eq!(occupancy_after(&pos, &mv), after.board().occupied(), "{fen} {mv:?}");
            }
        }
    }

    #[test]
    fn every_legal_move_of_special_positions_with_many_seeds() {
        let all_moves: Vec<Move> = POSITIONS.iter().flat_map(|fen| position(fen).legal_moves()).collect();
        let count = |f: fn(&Move) -> bool| all_moves.iter().filter(|m| f(m)).count();
        assert!(count(|m| m.is_castle()) >= 8, "castling coverage");
        assert!(count(|m| m.is_en_passant()) >= 2, "en passant coverage");
        assert!(count(|m| m.is_promotion() && m.is_capture()) >= 4);
        for fen in POSITIONS {
            let pos = position(fen);
            for seed in [None, Some(1), Some(2), Some(3), Some(42), Some(7777)] {
                let mut hands = Hands::new(seed);
                for _ in 0..20 {
                    for mv in pos.legal_moves() {
                        let mut now = 1_000;
                        check_move(&mut hands, &pos, &mv, &mut now);
                    }
                }
            }
        }
    }

    /// The scans of `runs` plays, each from time 0, of the first legal move
    /// of `pos` that `kind` picks.
    fn plays(hands: &mut Hands, pos: &Chess, kind: fn(Move) -> bool, runs: usize) -> Vec<Vec<TimedScan>> {
        let mv = pos.legal_moves().into_iter().find(|m| kind(*m)).unwrap();
        (0..runs).map(|_| check_move(hands, pos, &mv, &mut 0)).collect()
    }

    #[test]
    fn castling_is_king_first_in_both_orders_and_swaps_lift_both_first() {
        let pos = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let mut hands = Hands::new(None);
        let firsts: std::collections::HashSet<_> = plays(&mut hands, &pos, Move::is_castle, 100)
            .iter()
            .map(|scans| (scans[0].occupancy, scans[1].occupancy))
            .collect();
        assert_eq!(firsts.len(), 2, "king set down first, or king and rook held together");
        assert!(firsts.iter().all(|(first, _)| *first == pos.board().occupied().without(Square::E1)));

        let swap = position("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
        let lifted_both = swap.board().occupied().without(Square::F1).without(Square::G1);
        for scans in plays(&mut hands, &swap, Move::is_castle, 50) {
            assert_eq!(scans[1].occupancy, lifted_both);
        }
    }

    #[test]
    fn captures_happen_in_both_orders() {
        let pos = position("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
        let mut hands = Hands::new(None);
        let first_lifts: std::collections::HashSet<_> =
            plays(&mut hands, &pos, Move::is_capture, 50).iter().map(|scans| scans[0].occupancy).collect();
        assert_eq!(first_lifts.len(), 2);
    }

    fn random_game(seed: u64, noise: Option<u64>, start: &Chess, plies: usize) -> Vec<TimedScan> {
        let mut pick = SplitMix64(seed);
        let mut hands = Hands::new(noise);
        let mut pos = start.clone();
        let mut now = 0;
        let mut all = Vec::new();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = start.clone();
                continue;
            }
            let mv = moves[pick.below(moves.len() as u64) as usize];
            let scans = check_move(&mut hands, &pos, &mv, &mut now);
            all.extend_from_slice(&scans);
            pos.play_unchecked(mv);
            let think_from = all.len();
            let think_ms = pick.between(hands.timing().quiet_head_ms(), 5_000);
            hands.think(pos.board().occupied(), think_ms, &mut now, &mut all);
            check_timing(&all[think_from..], Some(pos.board().occupied()), hands.timing()).unwrap();
            assert!(all.last().is_none_or(|s| s.at_ms <= now));
        }
        all
    }

    #[test]
    fn random_games_keep_the_contract() {
        let standard = Chess::default();
        let chess960 = position(POSITIONS[3]);
        for seed in 0..6 {
            for noise in [None, Some(seed * 31 + 5)] {
                let scans = random_game(seed, noise, &standard, 300);
                assert!(scans.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
                random_game(seed, noise, &chess960, 300);
            }
        }
    }

    #[test]
    fn same_seed_same_sequence() {
        let pos = Chess::default();
        assert_eq!(random_game(9, Some(123), &pos, 200), random_game(9, Some(123), &pos, 200));
        assert_ne!(random_game(9, Some(123), &pos, 200), random_game(9, Some(124), &pos, 200));
    }

    #[test]
    fn noisy_hands_produce_every_kind_of_noise() {
        let pos = Chess::default();
        let scans = random_game(3, Some(99), &pos, 400);
        let mut prev: Option<TimedScan> = None;
        let (mut heartbeats, mut short_flickers) = (0, 0);
        for w in scans.windows(3) {
            if w[0].occupancy == w[2].occupancy
                && w[1].occupancy != w[0].occupancy
                && w[2].at_ms - w[1].at_ms < BOUNCE_LIMIT_MS
            {
                short_flickers += 1;
            }
        }
        for s in &scans {
            if prev.is_some_and(|p| p.occupancy == s.occupancy) {
                heartbeats += 1;
            }
            prev = Some(*s);
        }
        assert!(heartbeats > 100, "{heartbeats}");
        assert!(short_flickers > 10, "{short_flickers}");
    }

    #[test]
    fn clean_think_pushes_nothing_and_noisy_think_is_quiet_at_first() {
        let occ = Chess::default().board().occupied();
        let mut clean = Hands::new(None);
        let (mut now, mut out) = (500, Vec::new());
        clean.think(occ, 10_000, &mut now, &mut out);
        assert!(out.is_empty());
        assert_eq!(now, 10_500);

        let mut noisy = Hands::new(Some(5));
        for _ in 0..200 {
            let start = now;
            out.clear();
            noisy.think(occ, 20_000, &mut now, &mut out);
            assert_eq!(now, start + 20_000);
            let quiet_end = start + noisy.timing().quiet_head_ms();
            assert!(out.iter().all(|s| s.at_ms > quiet_end || s.occupancy == occ));
            assert!(out.iter().all(|s| s.at_ms > start && s.at_ms < now));
            let gaps_ok = std::iter::once(start)
                .chain(out.iter().filter(|s| s.occupancy == occ).map(|s| s.at_ms))
                .collect::<Vec<_>>()
                .windows(2)
                .all(|w| w[1] - w[0] <= noisy.timing().heartbeat_ms);
            assert!(gaps_ok, "heartbeat at least once a second");
            check_timing(&out, Some(occ), noisy.timing()).unwrap();
        }
    }

    #[test]
    fn check_timing_catches_violations() {
        let t = HandTiming::default();
        let a = Bitboard(1);
        let b = Bitboard(3);
        let scan = |at_ms, occupancy| TimedScan { at_ms, occupancy };
        assert!(check_timing(&[scan(0, a), scan(249, b)], None, &t).is_ok());
        assert!(check_timing(&[scan(0, a), scan(250, b)], None, &t).is_err());
        // 200 + bounce + 100 = one 310 ms state to a debouncing station.
        let bounced = [scan(0, a), scan(200, b), scan(210, a), scan(310, b)];
        assert!(check_timing(&bounced, None, &t).is_err());
        assert!(check_timing(&[scan(5, a), scan(4, a)], None, &t).is_err());
        assert!(check_timing(&[scan(0, a), scan(9_000, b)], Some(a), &t).is_ok());
    }

    #[test]
    fn timing_is_sanitised() {
        let hands = Hands::with_timing(
            None,
            HandTiming {
                settle_ms: 0,
                min_step_ms: 1_000,
                max_step_ms: 5_000,
                max_bounce_ms: 100,
                heartbeat_ms: 0,
            },
        );
        let t = hands.timing();
        assert!(t.max_step_ms < t.transient_limit_ms());
        assert!(t.min_step_ms <= t.max_step_ms);
        assert!(t.max_bounce_ms < BOUNCE_LIMIT_MS);
    }

    #[test]
    fn huge_times_do_not_overflow() {
        let pos = Chess::default();
        let mut hands = Hands::new(Some(3));
        let mut out = Vec::new();
        for start in [u64::MAX, u64::MAX - 10, u64::MAX / 4] {
            let mut now = start;
            hands.think(pos.board().occupied(), u64::MAX, &mut now, &mut out);
            for mv in pos.legal_moves() {
                let mut now = start;
                hands.play(&pos, &mv, &mut now, &mut out);
            }
        }
    }

    #[test]
    fn illegal_move_does_not_panic() {
        let pos = Chess::default();
        let mut hands = Hands::new(Some(1));
        let mut out = Vec::new();
        let mut now = 0;
        let bogus = Move::Normal {
            role: shakmaty::Role::Queen,
            from: Square::E4,
            capture: None,
            to: Square::E2,
            promotion: None,
        };
        hands.play(&pos, &bogus, &mut now, &mut out);
        assert_eq!(out.last().map(|s| s.occupancy), Some(occupancy_after(&pos, &bogus)));
        let castle = Move::Castle { king: Square::A5, rook: Square::A5 };
        hands.play(&pos, &castle, &mut now, &mut out);
    }
}
