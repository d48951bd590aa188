//! Sequences of moves read from the order of the lifts: catch-up (several
//! plies made before the station decided the first) and the evidence that a
//! move is over (the next lift cannot belong to it).
//!
//! A move may start at any lift of its squares; each move's pegs are checked up to the next
//! move's first lift. Used for catch-up and for the recovery after a mismatch.

use crate::occupancy::{castling_targets, occupancy_after, required_lifts};
use shakmaty::{Bitboard, Chess, Move, Position, Role, Square};

/// The most plies one catch-up accepts at once; a longer burst is reported.
pub(super) const MAX_CATCH_UP: usize = 12;

/// At most this many explaining sequences are collected before giving up on uniqueness.
const MAX_FOUND: usize = 8;

/// At most this many positions are searched for one board (a board fumbled
/// with for long, or a flood of hostile scans, must not stall the station);
/// a search cut short explains nothing, so the board is reported, not guessed.
const MAX_NODES: usize = 20_000;

/// What the lift order and the holes say about a burst of plies.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Sequences {
    /// No sequence of two to [`MAX_CATCH_UP`] legal moves explains them.
    None,
    /// Exactly one sequence does (the shortest length that explains them at all).
    One(Vec<Move>),
    /// Several do.
    Many(Several),
}

/// Several sequences explain the board: where they part and how.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Several {
    /// Their distinct first moves.
    pub(crate) firsts: Vec<Move>,
    /// How many plies all of them share before they part.
    pub(crate) at: usize,
    /// Their distinct moves at the ply where they part.
    pub(crate) parting: Vec<Move>,
}

impl Sequences {
    /// What the sequences found at one length say: nothing when none was
    /// found (a longer length may), else the one or the distinct first moves.
    pub(crate) fn of(mut found: Vec<Vec<Move>>) -> Option<Sequences> {
        match found.len() {
            0 => None,
            1 => Some(Sequences::One(found.pop().unwrap_or_default())),
            _ => {
                let distinct = |k: usize| {
                    let mut moves: Vec<Move> = Vec::new();
                    for seq in &found {
                        if let Some(mv) = seq.get(k).filter(|m| !moves.contains(m)) {
                            moves.push(*mv);
                        }
                    }
                    moves
                };
                let longest = found.iter().map(Vec::len).max().unwrap_or(0);
                let at = (0..longest).find(|&k| distinct(k).len() > 1).unwrap_or(0);
                Some(Sequences::Many(Several { firsts: distinct(0), at, parting: distinct(at) }))
            }
        }
    }
}

/// The squares a move takes a peg out of for good or for a while: the mover's
/// own vacated squares and the captured piece's square (what a hand must lift).
pub(super) fn lifted_by<P: Position>(pos: &P, mv: &Move) -> Bitboard {
    match *mv {
        Move::Normal { from, to, .. } => Bitboard::from(from) | (Bitboard::from(to) & pos.board().occupied()),
        Move::EnPassant { from, to } => {
            Bitboard::from(from) | Bitboard::from(Square::from_coords(to.file(), from.rank()))
        }
        Move::Castle { king, rook } => {
            let after = occupancy_after(pos, mv);
            ((Bitboard::from(king) | Bitboard::from(rook)) & !after) | required_lifts(pos, mv)
        }
        Move::Put { .. } => Bitboard::EMPTY,
    }
}

/// Whether two moves go from the same square to the same square (a spoken
/// move names its path; the piece taken and a promotion come from the board).
pub(super) fn same_path(a: &Move, b: &Move) -> bool {
    a.from() == b.from() && a.to() == b.to()
}

/// The squares a move puts a peg into.
pub(super) fn placed_by(mv: &Move) -> Bitboard {
    match *mv {
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castling_targets(king, rook);
            Bitboard::from(king_to) | Bitboard::from(rook_to)
        }
        _ => Bitboard::from(mv.to()),
    }
}

/// Whether the squares a hand changed after `mv` (made from `pos`) may still
/// be that move going on: the peg it put down lifted again, or all of them
/// within one other move of the same piece (castling after the rook, a capture
/// after a rest on the way). Changes that cannot belong to the move complete it (D.2.3).
pub(super) fn may_continue(pos: &Chess, mv: &Move, changed: Bitboard) -> bool {
    let placed = placed_by(mv);
    if changed.is_subset(placed) {
        return true;
    }
    let moving = lifted_by(pos, mv) & pos.us();
    // Art. 4.4.2: a rook moved first is no castling begun; the king lifted
    // after it is another move.
    let rook_moved = matches!(mv, Move::Normal { role: Role::Rook, .. });
    pos.legal_moves().iter().any(|other| {
        other != mv && !(rook_moved && matches!(other, Move::Castle { .. })) && {
            let involved = lifted_by(pos, other) | placed_by(other);
            changed.is_subset(involved | placed) && (lifted_by(pos, other) & moving).any()
        }
    })
}

/// The sequences of two to [`MAX_CATCH_UP`] legal moves from `pos` that end on
/// `target` and whose pegs were lifted in an order the moves explain: each move
/// starts with a lift of one of its squares after the previous move started, and
/// every square it must lift is lifted from then on. Lifts that no move needs
/// (touched and put back) are allowed, and so are lifts of a hole a peg was
/// put into after the move in progress began (its piece resting on the way);
/// `boards` holds the sensed board just before each lift. The shortest
/// explaining length wins. A promotion on the way is taken as `promotion`
/// (the peg board cannot see the piece).
pub(super) fn explain_sequence(
    pos: &Chess,
    target: Bitboard,
    order: &LiftOrder,
    promotion: Role,
) -> Sequences {
    let LiftOrder { squares: lifts, boards, flickers, hands, announced } = order;
    debug_assert_eq!(lifts.len(), boards.len());
    debug_assert_eq!(lifts.len(), flickers.len());
    if lifts.len() < 2 {
        return Sequences::None;
    }
    let mut stack = Vec::with_capacity(MAX_CATCH_UP);
    let mut found = Vec::new();
    let mut budget = MAX_NODES;
    for plies in 2..=MAX_CATCH_UP {
        let mut search = Search {
            root: pos,
            lifts,
            boards,
            flickers,
            target,
            promotion,
            budget: &mut budget,
            starts: Vec::new(),
            found_starts: Vec::new(),
        };
        search.run(pos, pos.board().occupied(), plies, 0, &mut stack, &mut found);
        let mut found_starts = std::mem::take(&mut search.found_starts);
        if budget == 0 {
            return Sequences::None;
        }
        if let Some((k, said)) = announced {
            let has = |seq: &Vec<Move>| seq.get(*k).is_some_and(|m| same_path(m, said));
            let keep: Vec<bool> = found.iter().map(has).collect();
            let mut k = keep.iter();
            found.retain(|_| *k.next().unwrap_or(&false));
            if found_starts.len() == keep.len() {
                let mut k = keep.iter();
                found_starts.retain(|_| *k.next().unwrap_or(&false));
            }
        }
        let found = by_hands(
            pos,
            std::mem::take(&mut found),
            &found_starts,
            (lifts, boards, hands, flickers),
            target,
        );
        if let Some(sequences) = Sequences::of(found) {
            return sequences;
        }
    }
    Sequences::None
}

/// Of several sequences, those made first (D.2.3: a move is made once the
/// board shows it, its captured peg taken out by a hand): for each move in
/// turn, the first board within its own lifts that shows it with its capture's
/// hole lifted before. When hands seen out show some sequences made, the one
/// made first is taken, unless another was shown made sooner by weaker
/// evidence only (a capture read from a bounce or at one instant may be a
/// hand on a jittered line): then the order proves nothing and those are
/// asked, as they are when no hand showed any made.
fn by_hands(
    pos: &Chess,
    found: Vec<Vec<Move>>,
    starts: &[Vec<usize>],
    order: (&[Square], &[Bitboard], &[Seen], &[bool]),
    target: Bitboard,
) -> Vec<Vec<Move>> {
    let (lifts, boards, seen, flickers) = order;
    if found.len() < 2
        || seen.len() != lifts.len()
        || starts.len() != found.len()
        || flickers.len() != lifts.len()
    {
        return found;
    }
    let made_at = |seq: &[Move], starts: &[usize], tier: Seen| {
        let mut at = pos.clone();
        let mut key = Vec::with_capacity(seq.len());
        for (k, mv) in seq.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(lifts.len());
            let after = occupancy_after(&at, mv);
            let taken = required_lifts(&at, mv);
            let made = (starts[k] + 1..=end).find(|&i| {
                // A board that stood only while a peg was sensed for a moment
                // (its own landing, or another's touch) is a bounce's evidence.
                if flickers.get(i) == Some(&true) && tier > Seen::Bounce {
                    return false;
                }
                let board = boards.get(i).copied().unwrap_or(target);
                let by_hand: Bitboard =
                    (starts[k]..i).filter(|&j| seen[j] >= tier).map(|j| lifts[j]).collect();
                board == after && taken.is_subset(by_hand)
            });
            key.push(made.unwrap_or(usize::MAX));
            at.play_unchecked(*mv);
        }
        key
    };
    let made = |key: &Vec<usize>| key.iter().all(|&at| at != usize::MAX);
    let keys_at = |tier: Seen| -> Vec<Vec<usize>> {
        found.iter().zip(starts).map(|(seq, st)| made_at(seq, st, tier)).collect()
    };
    let weakest = keys_at(Seen::Bounce);
    for tier in [Seen::Hand, Seen::Instant, Seen::Bounce] {
        let keys = keys_at(tier);
        let shown: Vec<bool> = keys.iter().map(made).collect();
        let Some(first) = keys.iter().zip(&shown).filter(|(_, s)| **s).map(|(k, _)| k).min().cloned() else {
            continue;
        };
        // Only hands seen out tell which was made first; a weaker tier, or a
        // rival shown made sooner by weaker evidence only, is asked.
        let sooner = |i: usize| !shown[i] && made(&weakest[i]) && weakest[i] < first;
        let asked = tier != Seen::Hand || (0..found.len()).any(sooner);
        let keep: Vec<bool> = (0..found.len())
            .map(|i| match asked {
                true => shown[i] || made(&weakest[i]) && weakest[i] <= first,
                false => shown[i] && keys[i] == first,
            })
            .collect();
        let mut keep = keep.into_iter();
        return found.into_iter().filter(|_| keep.next().unwrap_or(false)).collect();
    }
    found
}

/// How a lift was seen: the evidence it gives that a hand took the peg out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Seen {
    /// Back within the debounce time: a bounce (or a hand on a jittered line).
    Bounce,
    /// Out and back in one reading of the line: it did not tell how long.
    Instant,
    /// Out longer than a bounce: a hand.
    Hand,
}

/// The lifts a catch-up reads, in order: each lift's square, the board just
/// before it, and whether it was a flicker (a peg sensed for a moment in an
/// empty hole: a piece landing and taken at once, the two read together, or
/// a sensor; the search may take it either way).
#[derive(Clone, Debug, Default)]
pub(super) struct LiftOrder {
    pub(super) squares: Vec<Square>,
    pub(super) boards: Vec<Bitboard>,
    pub(super) flickers: Vec<bool>,
    /// How each lift was seen (a bounce, at one instant, a hand); empty
    /// reads nothing from the hands.
    pub(super) hands: Vec<Seen>,
    /// A ply as the player announced it (how many plies after the record,
    /// the move), answering the station's question: only sequences with that
    /// move there are read.
    pub(super) announced: Option<(usize, Move)>,
}

/// One catch-up search: the lifts, the board to reach, its limits.
struct Search<'a> {
    root: &'a Chess,
    lifts: &'a [Square],
    boards: &'a [Bitboard],
    flickers: &'a [bool],
    /// Where each move on the stack began (an index into `lifts`).
    starts: Vec<usize>,
    /// Where each move of each sequence found began.
    found_starts: Vec<Vec<usize>>,
    target: Bitboard,
    promotion: Role,
    budget: &'a mut usize,
}

impl Search<'_> {
    /// `before`: the holes filled before the previous move (a lift between two
    /// moves' starts took a peg out of a hole that was filled then or now).
    fn run(
        &mut self,
        pos: &Chess,
        before: Bitboard,
        plies: usize,
        cursor: usize,
        stack: &mut Vec<Move>,
        found: &mut Vec<Vec<Move>>,
    ) {
        let lifts = self.lifts;
        if cursor >= lifts.len() || *self.budget == 0 {
            return;
        }
        *self.budget -= 1;
        let pending: Bitboard = lifts[cursor..].iter().copied().collect();
        for mv in pos.legal_moves() {
            if mv.promotion().is_some_and(|r| r != self.promotion) {
                continue; // one promotion piece stands for all: the holes are the same
            }
            let needs = lifted_by(pos, &mv);
            if !needs.intersects(pending) {
                continue;
            }
            // The move may start at any lift of its squares (the first one may
            // belong to an earlier move: a capture lifts the square the next
            // recapture lifts again).
            let occ = pos.board().occupied();
            for start in cursor..lifts.len() {
                if !needs.contains(lifts[start]) {
                    continue;
                }
                // A peg can only leave a hole that holds one (or one put in
                // after the previous move began: its piece resting on the way).
                let rested = cursor.checked_sub(1).map_or(Bitboard::EMPTY, |p| !self.boards[p]);
                if !(cursor..start).all(|i| self.flickers[i] || (before | occ | rested).contains(lifts[i])) {
                    break; // nor can any later start skip that lift
                }
                let from_start: Bitboard = lifts[start..].iter().copied().collect();
                if !needs.is_subset(from_start) {
                    break; // later starts see fewer lifts
                }
                self.try_start(pos, mv, occ, start, plies, stack, found);
                if found.len() >= MAX_FOUND || *self.budget == 0 {
                    return;
                }
            }
        }
    }

    /// Whether each move's pegs, from its first lift to the next move's, went
    /// where that move can have taken them (see `pegs_fit`): a piece that does
    /// not move goes back to its own hole, so a shorter sequence cannot pass
    /// off another's comings and goings as touches.
    fn sequence_fits(&self, seq: &[Move]) -> bool {
        let mut pos = self.root.clone();
        for (k, mv) in seq.iter().enumerate() {
            let from = self.starts[k];
            let (to, end) = match self.starts.get(k + 1) {
                Some(&next) => (next, self.boards[next]),
                None => (self.lifts.len(), self.target),
            };
            let lifts = (from..to).map(|i| (self.lifts[i], self.boards[i], self.flickers[i]));
            if !super::pegs_fit_lifts(&pos, lifts, end, mv) {
                return false;
            }
            pos.play_unchecked(*mv);
        }
        true
    }

    /// `mv` started at the lift `start`: the last ply checked against the
    /// board, or the search goes on after it.
    #[allow(clippy::too_many_arguments)]
    fn try_start(
        &mut self,
        pos: &Chess,
        mv: Move,
        occ: Bitboard,
        start: usize,
        plies: usize,
        stack: &mut Vec<Move>,
        found: &mut Vec<Vec<Move>>,
    ) {
        let lifts = self.lifts;
        if plies == 1 {
            let after = occupancy_after(pos, &mv);
            let rested = !self.boards[start];
            if after == self.target
                && (start + 1..lifts.len())
                    .all(|i| self.flickers[i] || (occ | after | rested).contains(lifts[i]))
            {
                let mut seq = stack.clone();
                seq.push(mv);
                self.starts.push(start);
                let fits = self.sequence_fits(&seq);
                self.starts.pop();
                if fits && !found.contains(&seq) {
                    found.push(seq);
                    let mut starts = self.starts.clone();
                    starts.push(start);
                    self.found_starts.push(starts);
                }
            }
            return;
        }
        // A peg put down on the way must still stand at the end or be lifted again later.
        let later: Bitboard = lifts[start + 1..].iter().copied().collect();
        if !placed_by(&mv).is_subset(self.target | later) {
            return;
        }
        let mut next = pos.clone();
        next.play_unchecked(mv);
        stack.push(mv);
        self.starts.push(start);
        self.run(&next, occ, plies - 1, start + 1, stack, found);
        self.starts.pop();
        stack.pop();
    }
}
