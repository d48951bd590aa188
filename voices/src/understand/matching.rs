//! Matching a spoken move pattern against the legal moves of a position.
//!
//! Never guess (ARCHITECTURE.md, invariant 2): a move is returned only when
//! exactly one legal move fits every word said. A pattern fitting several
//! moves, or fitting only when a word is ignored (a claimed capture that is
//! none, a lost piece name), becomes a question; nothing fitting is rejected.

use shakmaty::{Chess, Move, MoveList, Position, Role};

use super::spoken::SpokenMove;
use super::{AskReason, RejectReason};

/// The outcome of matching, before confidence is considered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Matched {
    /// Exactly one legal move fits.
    One(Move),
    /// These moves fit; the speaker must choose.
    Ask(Vec<Move>, AskReason),
    /// Nothing fits.
    None(RejectReason),
}

/// How strictly the words said are held against a move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Strictness {
    /// Every word counts; an unnamed piece is a pawn.
    Exact,
    /// Only the squares, the named piece and the promotion piece count.
    Lenient,
}

pub(crate) fn match_move(pos: &Chess, spoken: &SpokenMove) -> Matched {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Matched::None(RejectReason::NoMoves);
    }
    let exact = fitting(pos, &legal, spoken, Strictness::Exact);
    match exact.len() {
        1 => return Matched::One(exact[0]),
        n if n > 1 => return Matched::Ask(exact, AskReason::Ambiguous),
        _ => {}
    }
    let lenient = fitting(pos, &legal, spoken, Strictness::Lenient);
    if lenient.is_empty() {
        Matched::None(RejectReason::NoSuchMove(describe(spoken)))
    } else {
        let reason = inexact_because(spoken, &lenient);
        Matched::Ask(lenient, AskReason::Inexact(reason))
    }
}

fn fitting(pos: &Chess, legal: &MoveList, spoken: &SpokenMove, strictness: Strictness) -> Vec<Move> {
    legal.iter().copied().filter(|mv| fits(pos, *mv, spoken, strictness)).collect()
}

fn fits(pos: &Chess, mv: Move, spoken: &SpokenMove, strictness: Strictness) -> bool {
    let exact = strictness == Strictness::Exact;
    // A whole from-square and a target name one move of any piece ("Gustav
    // eins Felix drei"), so the piece may go unnamed.
    let from_to = spoken.from_file.is_some() && spoken.from_rank.is_some();
    let shape = match spoken.castle {
        Some(side) => mv.castling_side() == Some(side),
        // "Eva eins Gustav eins": the king's own squares, a move like any other.
        None if mv.is_castle() && from_to && spoken.role.is_none_or(|r| r == Role::King) => {
            mv.castling_side().map(|side| side.king_to(pos.turn())) == spoken.to
                && spoken.from_file.is_none_or(|f| mv.from().is_some_and(|s| s.file() == f))
                && spoken.from_rank.is_none_or(|r| mv.from().is_some_and(|s| s.rank() == r))
        }
        // "König Gustav eins" for O-O: the king's own target, only leniently.
        None if !exact && mv.is_castle() => {
            spoken.role == Some(Role::King)
                && mv.castling_side().map(|side| side.king_to(pos.turn())) == spoken.to
                && spoken.from_file.is_none_or(|f| mv.from().is_some_and(|s| s.file() == f))
                && spoken.from_rank.is_none_or(|r| mv.from().is_some_and(|s| s.rank() == r))
        }
        None => {
            !mv.is_castle()
                && spoken.to == Some(mv.to())
                && match spoken.role {
                    Some(role) => mv.role() == role,
                    None => !exact || from_to || mv.role() == Role::Pawn,
                }
                && spoken.from_file.is_none_or(|f| mv.from().is_some_and(|s| s.file() == f))
                && spoken.from_rank.is_none_or(|r| mv.from().is_some_and(|s| s.rank() == r))
                && spoken.promotion.is_none_or(|role| mv.promotion() == Some(role))
        }
    };
    if !shape {
        return false;
    }
    if !exact {
        return true;
    }
    if (spoken.capture && !mv.is_capture()) || (spoken.en_passant && !mv.is_en_passant()) {
        return false;
    }
    if spoken.check || spoken.mate || spoken.stalemate {
        let mut after = pos.clone();
        after.play_unchecked(mv);
        let check = after.is_check();
        let stuck = after.legal_moves().is_empty();
        if (spoken.check && !check)
            || (spoken.mate && !(check && stuck))
            || (spoken.stalemate && (check || !stuck))
        {
            return false;
        }
    }
    true
}

/// Why the moves of a lenient match did not fit exactly, in words.
fn inexact_because(spoken: &SpokenMove, candidates: &[Move]) -> String {
    let mut reasons = Vec::new();
    if spoken.role.is_none() && spoken.castle.is_none() && candidates.iter().all(|m| m.role() != Role::Pawn) {
        reasons.push("no pawn move fits; was a piece name lost?");
    }
    if spoken.role == Some(Role::King) && candidates.iter().any(|m| m.is_castle()) {
        reasons.push("castling is said in words");
    }
    for (said, what) in [
        (spoken.capture, "it is not a capture"),
        (spoken.en_passant, "it is not en passant"),
        (spoken.check, "it does not give check"),
        (spoken.mate, "it is not mate"),
        (spoken.stalemate, "it is not stalemate"),
    ] {
        if said {
            reasons.push(what);
        }
    }
    if reasons.is_empty() { "the words do not fit the move exactly".to_owned() } else { reasons.join("; ") }
}

/// The spoken move in notation-like words, for a rejection.
fn describe(spoken: &SpokenMove) -> String {
    if let Some(side) = spoken.castle {
        return format!("{} castling is not legal here", if side.is_king_side() { "short" } else { "long" });
    }
    let piece = match spoken.role {
        Some(role) => format!("{role:?}").to_lowercase(),
        None => "pawn or piece".to_owned(),
    };
    let from = match (spoken.from_file, spoken.from_rank) {
        (None, None) => String::new(),
        (file, rank) => format!(
            " from {}{}",
            file.map(|f| f.char().to_string()).unwrap_or_default(),
            rank.map(|r| r.char().to_string()).unwrap_or_default()
        ),
    };
    let to = spoken.to.map(|s| s.to_string()).unwrap_or_default();
    let promotion = spoken
        .promotion
        .map(|r| format!(" promoting to {}", format!("{r:?}").to_lowercase()))
        .unwrap_or_default();
    format!("no {piece}{from} can move to {to}{promotion}")
}
