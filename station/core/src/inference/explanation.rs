//! Which move explains what the pegs did: the lifts and the holes at rest
//! checked against every legal move, castling told apart by the order of
//! touches, a promotion taken as the configured piece.

use super::*;

/// The lifts of hands in `log` (bounces left out), in order, and the board just before each.
pub(super) fn hand_lifts(log: &[Lift]) -> (Vec<Square>, Vec<Bitboard>) {
    log.iter().filter(|l| l.kind != LiftKind::Bounce).map(|l| (l.square, l.before)).unzip()
}

/// Every lift of `log`, bounces and flickers too, in order, with the board
/// just before each: what a catch-up reads. A peg out for less than the
/// debounce time may have been a hand all the same (a captured peg taken as
/// the capturing piece lands, the two read together from a loaded line), and
/// a bounce that was a sensor is read as a peg touched and put back; a peg
/// sensed for a moment in an empty hole may be a piece landing and taken at
/// once, or nothing.
pub(super) fn all_lifts(log: &[Lift]) -> sequence::LiftOrder {
    let mut order = sequence::LiftOrder::default();
    for l in log {
        order.squares.push(l.square);
        order.boards.push(l.before);
        order.flickers.push(l.flicker);
        order.hands.push(match (l.kind, l.instant) {
            (LiftKind::Confirmed, _) => sequence::Seen::Hand,
            (_, true) => sequence::Seen::Instant,
            _ => sequence::Seen::Bounce,
        });
    }
    order
}

/// Whether confirmed lifts of `log` took pegs of both sides (as they stand in `pos`).
pub(super) fn both_sides(pos: &Chess, log: &[Lift]) -> bool {
    let board = pos.board();
    let mut colours =
        log.iter().filter(|l| l.kind == LiftKind::Confirmed).filter_map(|l| board.color_at(l.square));
    colours.next().is_some_and(|first| colours.any(|c| c != first))
}

/// Whether the last peg put down before `stood` can have been `mv`'s own last
/// one (made from `pos`, with `log` the lifts since): into one of its holes,
/// after the moving piece was lifted, while no peg of it stood elsewhere in a
/// new hole (then the peg put down came from another hand).
pub(super) fn ends(pos: &Chess, log: &[Lift], stood: &Stood, mv: &Move) -> bool {
    let placed = sequence::placed_by(mv);
    let moving = sequence::lifted_by(pos, mv) & pos.us();
    stood.last_placed.is_some_and(|(sq, before, lifts)| {
        placed.contains(sq)
            && (before & !pos.board().occupied()).is_subset(placed)
            && log[..lifts.min(log.len())]
                .iter()
                .any(|l| l.kind != LiftKind::Bounce && moving.contains(l.square))
    })
}

/// Whether the pegs' comings and goings in `log` (ending on the board `end`)
/// fit `mv` made from `pos` as one move, peg by peg: the moving piece may rest
/// on the way (any hole), the captured peg leaves, and a peg of a piece that
/// does not move (touched, knocked) goes back into its own hole, whenever that
/// is, and into no other. A peg of a standing piece that went to another hole
/// and came back is a move of its own (a position repeated inside a burst),
/// not noise around this one.
pub(super) fn pegs_fit(pos: &Chess, log: &[Lift], end: Bitboard, mv: &Move) -> bool {
    let lifts =
        log.iter().filter(|l| l.kind != LiftKind::Bounce || l.instant).map(|l| (l.square, l.before, false));
    pegs_fit_lifts(pos, lifts, end, mv)
}

/// [`pegs_fit`] for lifts given as (square, the board just before it, whether
/// it was a flicker: a peg that appeared in an empty hole for a moment, which
/// is the moving piece landing and taken at once if a piece was in the hand,
/// else nothing at all).
pub(super) fn pegs_fit_lifts(
    pos: &Chess,
    lifts: impl IntoIterator<Item = (Square, Bitboard, bool)>,
    end: Bitboard,
    mv: &Move,
) -> bool {
    let lifted = sequence::lifted_by(pos, mv);
    let movers = lifted & pos.us();
    let mut hands = Hands {
        movers: 0,
        standing: Bitboard::EMPTY,
        placed_movers: Bitboard::EMPTY,
        taken: lifted & pos.them() & sequence::placed_by(mv),
    };
    let mut occ: Option<Bitboard> = None; // the board after the previous lift
    for (square, before, flicker) in lifts {
        let placed = occ.map_or(Bitboard::EMPTY, |o| before & !o);
        // A flicker's peg came last, after the pegs put down before it.
        let flickered = if flicker { placed & Bitboard::from(square) } else { Bitboard::EMPTY };
        if !hands.put_down(placed & !flickered) {
            return false;
        }
        if flicker && hands.movers == 0 && !hands.standing.contains(square) {
            // No peg in a hand could have landed there: the sensor.
            occ = Some(before.without(square));
            continue;
        }
        if !hands.put_down(flickered) {
            return false;
        }
        hands.lift(square, movers);
        occ = Some(before.without(square));
    }
    // At the end the moving pegs stand and every other one is home, the captured one aside.
    occ.is_none_or(|o| hands.put_down(end & !o))
        && hands.movers == 0
        && (hands.standing & !(lifted & pos.them())).is_empty()
}

/// The pegs in the hands during one move (see [`pegs_fit`]).
pub(super) struct Hands {
    /// Pegs of the moving piece(s) in a hand.
    movers: u32,
    /// Pegs of other pieces in a hand (the captured one included), by their own hole.
    standing: Bitboard,
    /// Holes the moving piece was put into on the way.
    placed_movers: Bitboard,
    /// The captured piece's hole where the capturing piece lands (en passant
    /// takes its pawn from another hole, which it leaves as any other peg).
    taken: Bitboard,
}

impl Hands {
    pub(super) fn lift(&mut self, sq: Square, movers: Bitboard) {
        if (movers.contains(sq) && !self.standing.contains(sq)) || self.placed_movers.remove(sq) {
            self.movers += 1;
        } else {
            self.standing.add(sq);
        }
    }

    /// Pegs put into `holes`: each a standing peg going home, or a moving one.
    pub(super) fn put_down(&mut self, holes: Bitboard) -> bool {
        for sq in holes {
            // A moving peg lands where it captures; the captured one stays aside.
            if self.taken.contains(sq) && self.movers > 0 {
                self.movers -= 1;
                self.placed_movers.add(sq);
            } else if !self.standing.remove(sq) {
                if self.movers == 0 {
                    return false;
                }
                self.movers -= 1;
                self.placed_movers.add(sq);
            }
        }
        true
    }
}

/// Which legal moves of `pos` explain the settled occupancy `sensed`, given the lifts seen.
pub(super) fn explain(
    pos: &Chess,
    sensed: Bitboard,
    lifts: Lifts,
    order: Option<&[Lift]>,
    promotion: Role,
) -> Explanation {
    // One move empties at most two holes and fills at most two: skip the move
    // generation for boards that are plainly not one move away.
    let expected = pos.board().occupied();
    let (filled, emptied) = ((sensed & !expected).count(), (expected & !sensed).count());
    if filled > 2 || emptied > 2 || (filled == 0 && emptied != 1 && sensed != expected) {
        return Explanation::None;
    }
    let mut moves: MoveList = pos.legal_moves();
    // D.2.3.1: a capture is made only once the captured piece is off the board.
    // A piece lifted over its target has the same holes as the finished capture,
    // so the captured peg must have been seen out of its hole.
    moves.retain(|m| {
        occupancy_after(pos, m) == sensed
            && required_lifts(pos, m).is_subset(lifts.any)
            && order.is_none_or(|log| lands_after_its_lift(pos, m, log))
    });
    // Art. 4.4.2: the rook touched before the king is no castling.
    if let Some(log) = order {
        moves.retain(|m| rook_moved_first(pos, m, log).is_none());
    }
    if moves.is_empty() {
        return Explanation::None;
    }
    if let Some(choice) = single_path(&moves, promotion) {
        return choice;
    }
    // Pegs that went where this move cannot have taken them rule it out.
    if let Some(log) = order {
        let fit: Vec<Move> = moves.iter().filter(|m| pegs_fit(pos, log, sensed, m)).copied().collect();
        if !fit.is_empty() && fit.len() < moves.len() {
            if let Some(choice) = single_path(&fit, promotion) {
                return choice;
            }
            moves.retain(|m| fit.contains(m));
        }
    }
    // Chess960 castling whose holes another move (or none) also explains: the
    // touch order decides (Art. 4.4(a): the king and then the rook).
    if let Some((castle, touch)) = order.and_then(|log| castling_by_touch(pos, &moves, log)) {
        match touch {
            TouchOrder::KingFirst => return Explanation::One { mv: castle, promotion_assumed: false },
            // One lands where the other stood: it cannot have without both out at once.
            TouchOrder::Apart if lands_on_the_other(&castle) => {
                moves.retain(|m| *m != castle);
                if let Some(choice) = single_path(&moves, promotion) {
                    return choice;
                }
            }
            _ => {}
        }
    }
    // Same holes, different pieces taken: prefer the captured pegs that were out
    // longer than a sensor bounce (or for a time the line did not tell: then
    // it is asked, never guessed).
    let mut fitting = moves.clone();
    fitting.retain(|m| required_lifts(pos, m).is_subset(lifts.confirmed | lifts.instant));
    if fitting.is_empty() {
        return Explanation::Many(moves.to_vec());
    }
    single_path(&fitting, promotion).unwrap_or_else(|| Explanation::Many(fitting.to_vec()))
}

/// Whether another legal move than `mv` leaves the holes `sensed` with its
/// captured peg seen out at all (a bounce included): on evidence, such a
/// rival waits for the plies after it to tell the two apart.
pub(super) fn has_rival(pos: &Chess, sensed: Bitboard, log: &[Lift], mv: &Move) -> bool {
    let any = Lifts::of(log).any;
    pos.legal_moves().iter().any(|m| {
        m != mv
            && (m.from() != mv.from() || m.to() != mv.to())
            && occupancy_after(pos, m) == sensed
            && required_lifts(pos, m).is_subset(any)
            && lands_after_its_lift(pos, m, log)
    })
}

/// Whether the capturing piece can have landed: the captured hole filled
/// again only after the mover was lifted. A hole emptied and filled before the
/// mover left its own was a touch put back or the sensor, not this capture.
fn lands_after_its_lift(pos: &Chess, mv: &Move, log: &[Lift]) -> bool {
    let Move::Normal { from, to, .. } = *mv else { return true };
    if !pos.board().occupied().contains(to) {
        return true;
    }
    let (Some(lifted), Some(emptied)) =
        (log.iter().position(|l| l.square == from), log.iter().rposition(|l| l.square == to))
    else {
        return true;
    };
    let filled_before = (emptied + 1..log.len()).find(|&k| log[k].before.contains(to));
    filled_before.is_none_or(|k| k > lifted)
}

/// How the king and rook of a castling were lifted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TouchOrder {
    /// The king first, and the rook while the king was still out of its hole:
    /// castling (Art. 4.4(a); ICCF Appendix B.3.1: one move of king and rook).
    KingFirst,
    /// The rook first: castling with this rook is not allowed (Art. 4.4(b)),
    /// yet the board may show it; nothing is decided.
    RookFirst,
    /// Not both out of their holes at one moment: no castling was made.
    Apart,
}

/// The order in which `log` lifted the king and the rook of `castle`: which of
/// them was already out of its hole when the other was lifted (a touch put
/// back before does not count).
pub(super) fn touch_order(castle: &Move, log: &[Lift]) -> TouchOrder {
    let Move::Castle { king, rook } = *castle else { return TouchOrder::Apart };
    log.iter()
        .filter(|l| l.kind != LiftKind::Bounce)
        .find_map(|l| {
            if l.square == rook && !l.before.contains(king) {
                Some(TouchOrder::KingFirst)
            } else if l.square == king && !l.before.contains(rook) {
                Some(TouchOrder::RookFirst)
            } else {
                None
            }
        })
        .unwrap_or(TouchOrder::Apart)
}

/// Among `moves` (all explaining the same holes, more than one), the castling
/// whose king or rook lands where a peg stood before, and how the two were lifted.
pub(super) fn castling_by_touch(pos: &Chess, moves: &[Move], log: &[Lift]) -> Option<(Move, TouchOrder)> {
    let mut castles = moves.iter().filter(|m| matches!(m, Move::Castle { .. }));
    let castle = *castles.next()?;
    if castles.next().is_some() || !required_lifts(pos, &castle).any() {
        return None;
    }
    Some((castle, touch_order(&castle, log)))
}

/// The rook's move of a castling the board shows from `pos` whose rook was
/// touched before its king (Art. 4.4.2: he may not castle on that side; the
/// touched rook moves, D.2.2), with that castling: when that rook move is legal.
pub(super) fn rook_first(pos: &Chess, sensed: Bitboard, log: &[Lift]) -> Option<(Move, Move)> {
    pos.legal_moves()
        .iter()
        .filter(|m| occupancy_after(pos, m) == sensed)
        .find_map(|&castle| rook_moved_first(pos, &castle, log).map(|rook_move| (rook_move, castle)))
}

/// For a castling whose rook `log` lifted before its king: the rook's own move
/// to its castling square, when legal (then the castling is ruled out).
pub(super) fn rook_moved_first(pos: &Chess, castle: &Move, log: &[Lift]) -> Option<Move> {
    let Move::Castle { king, rook } = *castle else { return None };
    if touch_order(castle, log) != TouchOrder::RookFirst {
        return None;
    }
    let (_, rook_to) = castling_targets(king, rook);
    pos.legal_moves().into_iter().find(
        |m| matches!(m, Move::Normal { role: Role::Rook, from, to, .. } if *from == rook && *to == rook_to),
    )
}

/// Whether the king lands on the rook's square or the rook on the king's (ICCF B.3.2.2 and kin).
pub(super) fn lands_on_the_other(castle: &Move) -> bool {
    let Move::Castle { king, rook } = *castle else { return false };
    let (king_to, rook_to) = castling_targets(king, rook);
    king_to == rook || rook_to == king
}

/// If all moves go from the same square to the same square (they differ only in
/// the promotion piece), picks one.
pub(super) fn single_path(moves: &[Move], promotion: Role) -> Option<Explanation> {
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
