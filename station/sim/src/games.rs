//! Whole games as simulated hands play them: on the peg board alone, or on
//! both boards (the peg board and a DGT board), with scripted faults.
//! Used by the demo, `station run` with a simulated board, and the tests.

use crate::dgt::{DgtHands, TimedUpdate, board_after};
use crate::pegboard::hands::{Hands, TimedScan};
use shakmaty::{Chess, Color, Move, Position};

/// The positions before each move and after the last.
fn positions(start: &Chess, moves: &[Move]) -> Vec<Chess> {
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut pos = start.clone();
    out.push(pos.clone());
    for &mv in moves {
        pos.play_unchecked(mv);
        out.push(pos.clone());
    }
    out
}

/// The scans of `game` played from its start position: the initial position
/// first (so the station starts a game), then every move after some thought;
/// and when the simulated hands press the clock (sim ms, for
/// [`crate::pegboard::SimPegBoard::play_lever`]), with the side that
/// moved: once per move, three quarters into the thought that follows it,
/// when the move is decided (the thought is at least twice the settle time).
/// Times are simulated; played `speed` times faster, every rest between moves
/// still lasts at least twice the station's real `settle_ms`.
pub fn schedule_with_lever(
    start: &Chess,
    moves: &[Move],
    noise_seed: Option<u64>,
    think_ms: u64,
    settle_ms: u64,
    speed: f64,
) -> (Vec<TimedScan>, Vec<(u64, shakmaty::Color)>) {
    let think_ms = think_ms.max((2.0 * settle_ms as f64 * speed).ceil() as u64);
    let mut hands = Hands::new(noise_seed);
    let mut now = 0;
    let positions = positions(start, moves);
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: start.board().occupied() }];
    let mut presses = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let before = &positions[i];
        // Thought varies a little so the demo does not tick like a metronome.
        let think = think_ms + (i as u64 * 7919) % (think_ms / 2 + 1);
        if i > 0 {
            presses.push((now + think * 3 / 4, positions[i - 1].turn()));
        }
        hands.think(before.board().occupied(), think, &mut now, &mut scans);
        hands.play(before, mv, &mut now, &mut scans);
    }
    if let Some(last) = moves.len().checked_sub(1) {
        presses.push((now + think_ms * 3 / 4, positions[last].turn()));
    }
    // Rest at the end so the last move settles before the schedule is done.
    hands.think(positions[moves.len()].board().occupied(), think_ms, &mut now, &mut scans);
    (scans, presses)
}

/// Which scripted fault the simulated hands make, to show the station at work.
#[derive(Clone, Copy, Debug)]
pub enum Fault {
    /// At this ply the peg board's piece rests on a square no legal move reaches, then goes on.
    MisplacedPeg(usize),
    /// At this ply the sighted player executes the blind player's move wrongly on his DGT board, then corrects it.
    WrongExecution(usize),
}

/// Both boards' schedules for a game on two boards: each side's move is made on
/// its owner's board (the blind player's on the peg board), then executed on
/// the other. Times are simulated; every rest lasts at least twice the real settle time.
#[allow(clippy::too_many_arguments)]
pub fn two_boards(
    start: &Chess,
    moves: &[Move],
    blind: Color,
    think_ms: u64,
    settle_ms: u64,
    speed: f64,
    fault: Option<Fault>,
    noise_seed: Option<u64>,
) -> (Vec<TimedScan>, Vec<TimedUpdate>) {
    let rest = think_ms.max((2.0 * settle_ms as f64 * speed).ceil() as u64);
    let mut pegs = Hands::new(noise_seed);
    let mut dgt = DgtHands::new(7);
    let mut now = 0;
    let positions = positions(start, moves);
    let mut scans = vec![TimedScan { at_ms: 0, occupancy: start.board().occupied() }];
    let mut updates: Vec<TimedUpdate> = Vec::new();
    for (i, mv) in moves.iter().enumerate() {
        let pos = &positions[i];
        let blind_moves = pos.turn() == blind;
        now += rest;
        if blind_moves {
            if let Some(Fault::MisplacedPeg(ply)) =
                fault.filter(|f| matches!(f, Fault::MisplacedPeg(p) if *p == i + 1))
            {
                misplace(pos, mv, ply, rest, &mut now, &mut scans);
            }
            pegs.play(pos, mv, &mut now, &mut scans);
            now += rest;
            if matches!(fault, Some(Fault::WrongExecution(p)) if p == i + 1) {
                let wrong = pos
                    .legal_moves()
                    .into_iter()
                    .find(|m| m.from() == mv.from() && m.to() != mv.to() && !m.is_capture())
                    .unwrap_or(*mv);
                dgt.play(pos, &wrong, &mut now, &mut updates);
                now += 3 * rest;
                // The sighted player notices (or is told) and puts it right.
                let (is, should) = (board_after(pos, &wrong), board_after(pos, mv));
                for sq in (is.occupied() | should.occupied())
                    .into_iter()
                    .filter(|&sq| is.piece_at(sq).is_some() && is.piece_at(sq) != should.piece_at(sq))
                {
                    now += 150;
                    updates.push(TimedUpdate { at_ms: now, square: sq, piece: None });
                }
                for sq in should.occupied().into_iter().filter(|&sq| is.piece_at(sq) != should.piece_at(sq)) {
                    now += 150;
                    updates.push(TimedUpdate { at_ms: now, square: sq, piece: should.piece_at(sq) });
                }
            } else {
                dgt.play(pos, mv, &mut now, &mut updates);
            }
        } else {
            dgt.play(pos, mv, &mut now, &mut updates);
            now += rest;
            pegs.play(pos, mv, &mut now, &mut scans);
        }
    }
    now += rest;
    scans.push(TimedScan { at_ms: now, occupancy: positions[moves.len()].board().occupied() });
    (scans, updates)
}

/// The peg rests on a square no legal move of it reaches, long enough to be judged, then the hand goes on.
fn misplace(
    pos: &shakmaty::Chess,
    mv: &shakmaty::Move,
    _ply: usize,
    rest: u64,
    now: &mut u64,
    scans: &mut Vec<TimedScan>,
) {
    let occ = pos.board().occupied();
    let reachable: shakmaty::Bitboard = pos.legal_moves().iter().map(|m| m.to()).collect();
    let Some(from) = mv.from() else { return };
    let Some(wrong) = (!occ & !reachable).into_iter().next() else { return };
    *now += 100;
    scans.push(TimedScan { at_ms: *now, occupancy: occ.without(from) });
    *now += 150;
    scans.push(TimedScan { at_ms: *now, occupancy: occ.without(from).with(wrong) });
    *now += 2 * rest;
    scans.push(TimedScan { at_ms: *now, occupancy: occ });
    *now += rest;
}
