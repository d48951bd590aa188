//! The board's move as the prior (issue 33, D.2.8): what his words mean when
//! the pegs already show his move.
//!
//! The board's move is what he most likely said. Words the repair brings to
//! it at a cost no other legal move beats are that move: no slip, no
//! question. A slip of the tongue is raised only when the words name another
//! legal move clearly: word for word and heard sure, or far nearer to it than
//! to the board's move (farther still when the recogniser was unsure). A
//! mishearing the recogniser was unsure of that stays near the board's move
//! is the board's move. Between the two the nearest moves are asked back.

use shakmaty::Move;

use super::repair::{MAX_CHOICES, TIE};

/// Farther than this, the words are not the board's move, however near the
/// other moves are.
pub(crate) const MAX_BOARD: f32 = 1.3;
/// The words name another move clearly only when they are this near it.
const CLEAR: f32 = 0.3;
/// Heard sure: how much nearer another move must be than the board's.
const SURE_MARGIN: f32 = 0.4;
/// Heard unsure: the same, for a recogniser that was not sure of its words.
const UNSURE_MARGIN: f32 = 1.0;
/// Heard unsure and this near the board's move: the board's move.
const UNSURE_NEAR: f32 = 0.7;

/// What the words mean, given the board's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// The board's move.
    Board,
    /// A slip of the tongue naming this other move.
    Slip(Move),
    /// These moves, nearest first: he is asked.
    Ask(Vec<Move>),
    /// Near no move.
    Reject,
}

/// Judges ranked moves (nearest first, every legal move with its cost, a
/// move the words are not held to infinitely far) against the board's
/// move; `sure`: typed, or the recogniser sure.
pub(crate) fn judge(ranked: &[(Move, f32)], board: Move, sure: bool) -> Verdict {
    let Some(board_cost) = ranked.iter().find(|(m, _)| *m == board).map(|(_, c)| *c) else {
        return Verdict::Reject;
    };
    let others: Vec<(Move, f32)> = ranked.iter().copied().filter(|(m, _)| *m != board).collect();
    let nearest = others.first().map_or(f32::INFINITY, |o| o.1);
    if board_cost <= nearest {
        return if board_cost <= MAX_BOARD { Verdict::Board } else { Verdict::Reject };
    }
    let alone = others.get(1).is_none_or(|o| o.1 > nearest + TIE);
    let margin = board_cost - nearest;
    let clear = alone
        && nearest <= CLEAR
        && if sure { nearest == 0.0 || margin >= SURE_MARGIN } else { margin >= UNSURE_MARGIN };
    if clear {
        return Verdict::Slip(others[0].0);
    }
    if !sure && board_cost <= UNSURE_NEAR {
        return Verdict::Board;
    }
    let mut ask: Vec<(Move, f32)> =
        others.iter().copied().take_while(|(_, c)| *c <= nearest + TIE).take(MAX_CHOICES - 1).collect();
    if board_cost <= MAX_BOARD {
        ask.push((board, board_cost));
    }
    if ask.is_empty() || nearest > MAX_BOARD {
        return if board_cost <= MAX_BOARD { Verdict::Board } else { Verdict::Reject };
    }
    Verdict::Ask(ask.into_iter().map(|(m, _)| m).collect())
}
