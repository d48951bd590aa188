//! What a board's tracker observed, as events against that board's record:
//! touches, moves (with SAN and FEN), revisions.

use super::*;

/// The `touch` event of `piece` lifted from `square` on `board` (a peg
/// board's touch and a piece-sensing board's lift read the same).
pub(super) fn touch_event(board: BoardRole, square: Square, piece: Piece, t: Millis) -> Event {
    Event::Touch { board, square: square.to_string(), piece: piece.char().to_string(), t_ms: t }
}

/// The events for a board's observations, against that board's record.
pub(super) fn observation_events(
    game: &Game,
    board: BoardRole,
    observations: impl Iterator<Item = Observation>,
    out: &mut Vec<Event>,
) {
    for obs in observations {
        match obs {
            Observation::Touch { square, piece, t } => out.push(touch_event(board, square, piece, t)),
            Observation::Moved { ply, mv, promotion_assumed, t } => {
                out.push(move_event(game, board, ply, mv, promotion_assumed, t))
            }
            Observation::Revised { ply, mv, replaces, t, .. } => {
                out.push(revised_event(game, board, ply, mv, replaces, t))
            }
            Observation::Mismatch { reason, sensed, candidates, takeback_to_ply, t } => {
                out.push(Event::BoardMismatch {
                    board,
                    reason,
                    diff: square_diff(game.position().board(), sensed),
                    candidates: candidates.iter().map(|m| game.played(*m).into()).collect(),
                    takeback_to_ply,
                    t_ms: t,
                })
            }
            Observation::Restored { t } => out.push(Event::BoardRestored { board, t_ms: t }),
            // The record goes back with the sync's `taken_back` events.
            Observation::PutRight { .. } => {}
        }
    }
}

/// A move executed on a board, against that board's record.
pub(super) fn move_event(
    game: &Game,
    board: BoardRole,
    ply: usize,
    mv: Move,
    promotion_assumed: bool,
    t: Millis,
) -> Event {
    Event::Move {
        ply,
        san: san_at(game, ply),
        uci: game.played(mv).into(),
        board,
        t_ms: t,
        fen: fen_at(game, ply),
        promotion_assumed,
        pdn: None,
    }
}

/// A board's move replaced by another from the same position.
pub(super) fn revised_event(
    game: &Game,
    board: BoardRole,
    ply: usize,
    mv: Move,
    replaces: Move,
    t: Millis,
) -> Event {
    Event::MoveRevised {
        ply,
        san: san_at(game, ply),
        uci: game.played(mv).into(),
        replaces: game.played(replaces).into(),
        board,
        t_ms: t,
        fen: fen_at(game, ply),
    }
}

pub(super) fn san_at(game: &Game, ply: usize) -> String {
    game.sans().get(ply.wrapping_sub(1)).map(ToString::to_string).unwrap_or_default()
}

pub(super) fn fen_at(game: &Game, ply: usize) -> String {
    game.position_at(ply)
        .map(|p| shakmaty::fen::Fen::from_position(p, shakmaty::EnPassantMode::Legal).to_string())
        .unwrap_or_default()
}
